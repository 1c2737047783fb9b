"""Accounts, credits and sessions under abuse: a credit is paid once by the database
whatever the workers do; a login cannot be locked out by strangers; sessions end."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from twmahjong.server.store.db import create_engine, migrate
from twmahjong.server.store.repository import SqlRepository
from twmahjong.server.store.schema import ledger


def run(coro):
    return asyncio.run(coro)


def test_a_grant_asked_by_two_workers_at_once_is_paid_once(db_url):
    """Two repositories on one database are two workers: each has its own write lock,
    so only the database can say the day's bonus was paid already."""
    async def go():
        one, two = create_engine(db_url), create_engine(db_url)
        await migrate(one)
        a, b = SqlRepository(one), SqlRepository(two)
        ids = [(await a.create_account(f"player{i}", None, is_guest=False,
                                       starting_coins=10_000))["id"] for i in range(10)]
        paid = await asyncio.gather(*(repo.grant(i, 500, "daily", "2026-12-06")
                                      for i in ids for repo in (a, b)))
        # asked again later, by either: nothing more
        again = [await b.grant(i, 500, "daily", "2026-12-06") for i in ids]
        balances = [int((await a.account(i))["coins"]) for i in ids]
        sums = [await a.ledger_sum(i) for i in ids]
        await one.dispose()
        await two.dispose()
        return paid, again, balances, sums
    paid, again, balances, sums = run(go())
    assert sum(paid) == 10 and not any(again)
    assert balances == sums == [10_500] * 10


def test_a_grant_blocked_by_an_earlier_reason_pays_nothing_and_writes_nothing(db_url):
    async def go():
        engine = create_engine(db_url)
        await migrate(engine)
        repo = SqlRepository(engine)
        acc = await repo.create_account("player1", None, is_guest=False, starting_coins=100)
        blocked = await repo.grant(acc["id"], 500, "daily", "d1", unless=("welcome",), since=0)
        paid = await repo.grant(acc["id"], 500, "daily", "d1")
        rows = await repo.ledger_rows(acc["id"])
        await engine.dispose()
        return blocked, paid, rows
    blocked, paid, rows = run(go())
    assert (blocked, paid) == (False, True)
    assert [(r["reason"], r["amount"], r["grant_key"]) for r in rows] == [
        ("welcome", 100, "welcome:"), ("daily", 500, "daily:d1")]


def test_the_grant_key_migration_keeps_a_database_paid_twice_before_it(tmp_path):
    """A database of the old schema where one day's bonus was paid twice migrates: the
    first row keeps the key, the duplicate none, and a new claim that day pays nothing."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'old.sqlite3'}"

    async def go():
        from alembic import command

        from twmahjong.server.store import db
        engine = create_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(lambda c: command.upgrade(db._alembic_config(c), "0005"))
            await conn.execute(sa.text(
                "INSERT INTO accounts (id, name, name_key, is_guest, coins, rating, "
                "ranked_games, challenge_tier, created_at) "
                "VALUES (1, 'aud', 'aud', 0, 11000, 1500, 0, 0, 0)"))
            day = 1_764_979_200.0 + 3600        # 2025-12-06 09:00 in Taiwan
            for amount, reason, at in ((10_000, "welcome", 0.0), (500, "daily", day),
                                       (500, "daily", day + 1)):
                await conn.execute(sa.text(
                    "INSERT INTO ledger (account_id, amount, reason, created_at) "
                    "VALUES (1, :a, :r, :t)"), {"a": amount, "r": reason, "t": at})
        await migrate(engine)
        repo = SqlRepository(engine)
        again = await repo.grant(1, 500, "daily", "2025-12-06")
        async with engine.connect() as conn:
            keys = [r.grant_key for r in await conn.execute(
                sa.select(ledger.c.grant_key).order_by(ledger.c.id))]
        await engine.dispose()
        return again, keys
    again, keys = run(go())
    assert again is False
    assert keys == ["welcome:", "daily:2025-12-06", None]

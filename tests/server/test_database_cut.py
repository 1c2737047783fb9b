"""A database connection cut under a table's read is the database away, not an error.

PostgreSQL ending a connection (a restart, a failover, ``pg_terminate_backend``) may
reach a read as asyncpg's "connection is closed", ``ConnectionDoesNotExistError``,
or only "another operation is in progress" (an unsolicited FATAL left it half read).
``db.unreachable`` is the one rule that tells such a lost connection from an error
of the statement, for the moves' raw asyncpg path and SQLAlchemy's reads alike; a
table waits out a lost connection under any read it makes in play, as it waits out
its moves' commit, instead of ending its game as aborted.
"""

from __future__ import annotations

import asyncio
import contextlib
import doctest
import os

import asyncpg
import pytest
import sqlalchemy as sa
from server_helpers import Client
from sqlalchemy.exc import DBAPIError, IntegrityError

from twmahjong.drill import _asyncpg_url
from twmahjong.server.store import db
from twmahjong.server.store.db import create_engine, migrate, unreachable

PG = os.environ.get("TWMJ_TEST_POSTGRES")
HAND_CUT = 1          # the hand at whose end the table's balance read meets the cut


def on_postgres(test):
    """PostgreSQL alone (conftest's ``db_url``, its "postgres" param only): SQLite has
    no server to cut a connection."""
    test = pytest.mark.parametrize("db_url", ["postgres"], indirect=True)(test)
    return pytest.mark.skipif(not PG, reason="needs TWMJ_TEST_POSTGRES")(test)


def test_asyncpg_s_kinds_of_a_lost_connection_are_unreachable_and_a_constraint_is_not():
    x = asyncpg.exceptions
    lost = [x.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
            x.InterfaceError("cannot perform operation: another operation is in progress"),
            x.InterfaceError("connection is closed"),
            x.AdminShutdownError("terminating connection due to administrator command"),
            x.CannotConnectNowError("the database system is starting up"),
            ConnectionRefusedError(111, "Connect call failed"), ConnectionResetError(),
            TimeoutError(), OSError(113, "No route to host"),
            ConnectionError("the database connection was lost: …")]     # pg_moves' own
    kept = [x.UniqueViolationError("duplicate key value violates unique constraint"),
            x.ForeignKeyViolationError("insert or update violates foreign key constraint"),
            IntegrityError("INSERT …", None, x.UniqueViolationError("duplicate key")),
            x._base.DataError("invalid input for query argument $1"),
            x.UndefinedTableError('relation "nope" does not exist'),
            x.DeadlockDetectedError("deadlock detected"),
            ValueError("a bug"), TypeError("a bug"), RuntimeError("a bug")]
    assert [e for e in lost if not unreachable(e)] == []
    assert [e for e in kept if unreachable(e)] == []
    assert doctest.testmod(db).failed == 0


async def _terminate(db_url: str, where: str, *args) -> int:
    """End the backends of this test's database that ``where`` picks, from a
    connection of its own, and wait until they are gone (PostgreSQL waits)."""
    admin = await asyncpg.connect(_asyncpg_url(db_url))
    try:
        return int(await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid, 60000)) FROM pg_stat_activity "
            f"WHERE datname = current_database() AND pid <> pg_backend_pid() AND {where}",
            *args))
    finally:
        await admin.close()


async def _another_operation(engine, db_url: str) -> DBAPIError:
    """The error SQLAlchemy raises for a read on a connection asyncpg is still busy
    on: "another operation is in progress", as a cut connection may say."""
    admin = await asyncpg.connect(_asyncpg_url(db_url))
    async with engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        pid = raw.get_server_pid()
        busy = asyncio.ensure_future(raw.execute("SELECT pg_sleep(600)"))
        try:
            while not await admin.fetchval(      # its statement is running on the server
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = $1 AND state = "
                    "'active' AND query LIKE 'SELECT pg_sleep%'", pid):
                await asyncio.sleep(0.01)
            try:
                await conn.execute(sa.text("SELECT 1"))
            except DBAPIError as e:
                err = e
            else:
                raise AssertionError("a busy connection answered")
        finally:
            await admin.execute("SELECT pg_terminate_backend($1, 60000)", pid)
            await admin.close()
            with contextlib.suppress(Exception):
                await busy
            if not conn.invalidated:
                await conn.invalidate()
    return err


@on_postgres
def test_errors_of_a_cut_connection_through_sqlalchemy_are_unreachable(db_url):
    """The real errors, as SQLAlchemy wraps them on PostgreSQL: a busy connection's
    and a closed one's are lost connections; a unique violation is not."""
    async def go():
        engine = create_engine(db_url)
        await migrate(engine)
        try:
            busy = await _another_operation(engine, db_url)
            async with engine.connect() as conn:
                raw = (await conn.get_raw_connection()).driver_connection
                await _terminate(db_url, "pid = $1", raw.get_server_pid())
                with pytest.raises(DBAPIError) as closed:
                    await conn.execute(sa.text("SELECT 1"))
            async with engine.connect() as conn:
                await conn.execute(sa.text("CREATE TEMP TABLE t (k int PRIMARY KEY)"))
                await conn.execute(sa.text("INSERT INTO t VALUES (1)"))
                with pytest.raises(IntegrityError) as twice:
                    await conn.execute(sa.text("INSERT INTO t VALUES (1)"))
            return busy, closed.value, twice.value
        finally:
            await engine.dispose()
    busy, closed, twice = asyncio.run(go())
    assert "another operation is in progress" in str(busy) and unreachable(busy)
    assert unreachable(closed)
    assert not unreachable(twice)


@on_postgres
@pytest.mark.parametrize("fault", ["terminated", "another_operation"])
def test_a_table_whose_balance_read_meets_a_cut_connection_plays_on(make_live, db_url, fault):
    """At the end of a hand the table reads each person's balance (``repo.account``).
    The connection is cut at that very read — every connection of the database
    terminated (``pg_terminate_backend``), or the read answered "another operation is
    in progress" — and the table waits for the database and goes on: the hand's
    result arrives, the next hand is dealt, nothing is aborted, and the coins are the
    ledger's. Before, the table ended as aborted (settled hands stood, the game ended)."""
    live = make_live()
    server = live.server
    real = server.repo.account
    met: list[BaseException] = []
    armed: dict = {}

    async def account(account_id: int):
        table = server.tables.get(armed.get("game_id", ""))
        if (met or table is None or asyncio.current_task() is not table.task
                or table.game.hand_no != HAND_CUT):
            return await real(account_id)
        if fault == "another_operation":
            met.append(await _another_operation(server.repo.engine, db_url))
            raise met[-1]
        assert await _terminate(db_url, "true") >= 1     # the pool's connections, and more
        try:
            return await real(account_id)
        except Exception as e:
            met.append(e)
            raise

    token = live.guest()

    async def go():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "casual"})
        matched = await c.expect("matched")
        armed["game_id"] = matched["game_id"]
        server.repo.account = account
        await c.expect("snapshot")
        await c.send({"type": "auto", "on": True})        # the seat's bot plays it
        ends = []
        while not ends or ends[-1]["type"] != "hand_start" or ends[-1]["hand_no"] <= HAND_CUT:
            m = await c.recv()
            if m["type"] in ("hand_end", "hand_start", "game_end", "error"):
                ends.append(m)
                assert m["type"] in ("hand_end", "hand_start"), ends
        await c.close()
        return c.seat, matched["game_id"], ends

    seat, game_id, ends = asyncio.run(go())
    assert met and unreachable(met[0]), met          # the read did meet the cut
    hand_end = next(m for m in ends if m["type"] == "hand_end" and m["hand_no"] == HAND_CUT)
    assert server.aborted_tables == 0
    assert server.tables.get(game_id) is not None and not server.tables.get(game_id).aborted

    async def books():
        engine = create_engine(db_url)
        try:
            async with engine.connect() as conn:
                q = await conn.execute(sa.text(
                    "SELECT hand_no, count(*) AS n, sum(amount) AS total FROM ledger "
                    "WHERE game_id = :g GROUP BY hand_no"), {"g": game_id})
                hands = {r.hand_no: (r.n, r.total) for r in q}
                settled = await conn.scalar(sa.text(
                    "SELECT count(*) FROM game_actions WHERE game_id = :g AND kind = "
                    "'settled' AND hand_no = :h"), {"g": game_id, "h": HAND_CUT})
                # the seat's coins as the hand left them: its welcome and its hands so far
                mine = await conn.scalar(sa.text(
                    "SELECT sum(amount) FROM ledger WHERE account_id = (SELECT account_id "
                    "FROM game_players WHERE game_id = :g AND seat = :s) AND (game_id IS "
                    "NULL OR game_id = :g AND hand_no <= :h)"),
                    {"g": game_id, "s": seat, "h": HAND_CUT})
            return hands, settled, mine
        finally:
            await engine.dispose()

    hands, settled, ledger_sum = asyncio.run(books())
    assert settled == 1                                    # settled once, not twice
    assert all(total == 0 for _, total in hands.values()), hands   # each hand sums to 0
    assert hand_end["coins"][seat] == ledger_sum

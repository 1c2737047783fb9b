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
from sqlalchemy.exc import DBAPIError, IntegrityError

from twmahjong.drill import _asyncpg_url
from twmahjong.server.store import db
from twmahjong.server.store.db import create_engine, migrate, unreachable

PG = os.environ.get("TWMJ_TEST_POSTGRES")


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

"""The database engine: SQLite (embedded default) or PostgreSQL by URL.

SQLite is used the way a server needs it — WAL so readers never wait for the
writer, a busy timeout instead of instant "database is locked", and every call
through aiosqlite's thread so nothing blocks the event loop. The schema is
brought up to date with Alembic at start-up, before the first request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import asyncpg
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from ..settings import SettingsError

__all__ = ["UNAVAILABLE", "create_engine", "error_reason", "is_sqlite", "migrate",
           "said_database_away", "shown_url", "unreachable", "wait_for_database"]

log = logging.getLogger("twmahjong.server.db")

_MIGRATIONS = Path(__file__).with_name("migrations")


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite files get their folder and pragmas."""
    if is_sqlite(url):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise SettingsError(f"cannot make the folder for the database {path}: "
                                    f"{e.strerror}; fix --data-dir or --database") from None
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @sa.event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn, _record):
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA busy_timeout=5000")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    for plain in ("postgresql://", "postgres://"):      # the usual spelling: add the driver
        if url.startswith(plain):
            url = "postgresql+asyncpg://" + url[len(plain):]
    if url.startswith("postgresql"):
        if "+asyncpg" not in url:
            raise SettingsError("database URL must use the asyncpg driver: "
                                "postgresql+asyncpg://user:password@host/dbname")
        return create_async_engine(url, pool_size=10, max_overflow=10)
    raise SettingsError(f"unsupported database URL {url.split(':', 1)[0]!r}: "
                        "use sqlite+aiosqlite:///path or postgresql+asyncpg://…")


def unreachable(e: BaseException) -> bool:
    """The database could not be reached, or the connection to it was lost under the
    call (a restart, a failover, a backend ended): worth a retry on a new connection.

    One rule for every path, raw asyncpg (``pg_moves``) and SQLAlchemy's wrapping of
    it alike (its ``orig``, and the driver's error that caused that): an ``OSError``;
    a connection SQLAlchemy invalidated; a connection that failed to open (the
    driver's words name it: "not currently accepting connections"); and asyncpg's own
    kinds of a lost connection — a cut connection may say only "another operation is
    in progress" (an unsolicited FATAL left it half read) or "connection is closed".
    A constraint, or any other answer the server gave to the statement, is not:

        >>> unreachable(asyncpg.InterfaceError("cannot perform operation: "
        ...                                    "another operation is in progress"))
        True
        >>> unreachable(asyncpg.UniqueViolationError("duplicate key value"))
        False
    """
    seen = 0
    cause: BaseException | None = e
    while cause is not None and seen < 4:           # e, its orig, the driver's error
        if isinstance(cause, OSError) or _lost_asyncpg(cause):
            return True
        if isinstance(cause, DBAPIError) and (
                cause.connection_invalidated or not isinstance(cause, IntegrityError)
                and "connect" in str(cause.orig).lower()):
            return True
        cause = getattr(cause, "orig", None) or cause.__cause__
        seen += 1
    return False


def _lost_asyncpg(e: BaseException) -> bool:
    """asyncpg says the connection is gone or unusable, not that the statement was
    wrong: its interface errors (another operation in progress, connection closed)
    but those about the call itself (a bad argument, settings, a missing feature),
    its protocol errors, class 08 (connection exception) and class 57 (the operator
    ended the backend or the server is shutting down or starting)."""
    x = asyncpg.exceptions
    if isinstance(e, x.InterfaceError):
        return not isinstance(e, (ValueError, x.UnsupportedClientFeatureError,
                                  x.UnsupportedServerFeatureError))
    return isinstance(e, (x.PostgresConnectionError, x.OperatorInterventionError,
                          x.ProtocolError, x.TargetServerAttributeNotMatched))


# what a client is told when the database does not answer (HTTP 503 and WebSocket alike)
UNAVAILABLE = "the server cannot reach its storage just now; try again in a moment"

_said_away = [0.0, 0]          # when the last "database away" line was logged; since then


def said_database_away(logger: logging.Logger, e: BaseException, every: float = 10.0) -> None:
    """One log line for a request or message the database could not answer, at most
    every ``every`` seconds with the count since (an outage fails every one of them)."""
    now = time.monotonic()
    _said_away[1] += 1
    if now - _said_away[0] >= every:
        logger.warning("the database does not answer (%s); %d request(s) told 'unavailable'",
                       error_reason(e), _said_away[1])
        _said_away[0], _said_away[1] = now, 0


def shown_url(url: str) -> str:
    """``url`` as a log or an error may show it: the password left out."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("://", 1)[0] + "://…"


def error_reason(e: BaseException) -> str:
    """The driver's own words, one line (not SQLAlchemy's wrapping and link)."""
    inner = getattr(e, "orig", None) or e
    text = str(inner).strip().splitlines()[0] if str(inner).strip() else type(inner).__name__
    return text.rstrip(".")


async def wait_for_database(url: str, wait: float) -> None:
    """Before serving: the database answers. One that cannot be reached (a restart, a
    failover; a worker restarted meanwhile) is waited for up to ``wait`` seconds, said
    once in the log; then, or at once for an error that waiting will not mend (a
    password, a missing database), a SettingsError in one line — never a start-up
    traceback."""
    engine = create_engine(url)
    end = time.monotonic() + wait
    said = False
    try:
        while True:
            try:
                async with engine.connect() as conn:
                    await conn.execute(sa.text("SELECT 1"))
                if said:
                    log.warning("the database at %s answers again; starting", shown_url(url))
                return
            except Exception as e:
                if not unreachable(e):
                    raise SettingsError(f"cannot use the database at {shown_url(url)}: "
                                        f"{error_reason(e)}; fix --database") from None
                if time.monotonic() >= end:
                    raise SettingsError(f"cannot reach the database at {shown_url(url)}: "
                                        f"{error_reason(e)}; start it or fix --database") from None
                if not said:
                    log.warning("the database at %s does not answer (%s); waiting for it "
                                "(up to %g s)", shown_url(url), error_reason(e), wait)
                    said = True
                await asyncio.sleep(min(1.0, max(0.0, end - time.monotonic())))
    finally:
        await engine.dispose()


def _alembic_config(connection) -> Any:
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


# The newest migration. A database already there is not handed to Alembic at all:
# importing it costs a server ~11 MiB for as long as it runs, for nothing.
# tests/server/test_server_storage.py checks this against the migrations folder.
HEAD = "0009"

# any number of processes may start at once on one PostgreSQL database: the first to
# take this lock migrates; the others wait for it, then find nothing left to do
MIGRATION_LOCK = 0x74776D6A  # "twmj"


def _revision(sync_conn) -> str | None:
    if not sa.inspect(sync_conn).has_table("alembic_version"):
        return None
    return sync_conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _upgrade(sync_conn) -> None:
    from alembic import command
    command.upgrade(_alembic_config(sync_conn), "head")


async def migrate(engine: AsyncEngine) -> None:
    """Upgrade the schema to the newest migration (idempotent, and safe to run from
    several processes at once: on PostgreSQL an advisory lock, held until this
    transaction ends, lets one of them migrate at a time)."""
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            await conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"),
                               {"k": MIGRATION_LOCK})
        if await conn.run_sync(_revision) == HEAD:
            return
        await conn.run_sync(_upgrade)

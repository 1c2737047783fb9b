"""The database engine: SQLite (embedded default) or PostgreSQL by URL.

SQLite is used the way a server needs it — WAL so readers never wait for the
writer, a busy timeout instead of instant "database is locked", and every call
through aiosqlite's thread so nothing blocks the event loop. The schema is
brought up to date with Alembic at start-up, before the first request.
"""

from __future__ import annotations

from pathlib import Path

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from ..settings import SettingsError

__all__ = ["create_engine", "is_sqlite", "migrate"]

_MIGRATIONS = Path(__file__).with_name("migrations")


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")


def create_engine(url: str) -> AsyncEngine:
    """An async engine for ``url``; SQLite files get their folder and pragmas."""
    if is_sqlite(url):
        path = sa.engine.make_url(url).database
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
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


def _alembic_config(connection) -> Any:
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


# The newest migration. A database already there is not handed to Alembic at all:
# importing it costs a server ~11 MiB for as long as it runs (issue #14), for nothing.
# tests/server/test_server_storage.py checks this against the migrations folder.
HEAD = "0005"

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

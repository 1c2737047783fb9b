"""The group commit of moves on PostgreSQL: one fenced statement, straight to asyncpg.

A group of moves (rows of ``game_actions`` from many tables) is stored by one
``INSERT … SELECT`` that carries the whole group as arrays and takes only the rows
whose owner epoch is still their game's, holding those games' rows (``FOR SHARE``)
until it commits — so an adoption (``take_game``, which bumps the epoch) waits for
it and then sees every row it let through, as the fence query before it did. One
statement is its own transaction: one round trip, and asyncpg prepares it once per
connection (its statement cache). ``sqlite_moves`` is its SQLite twin: the same rows
and the same refusals.

It replaced a ``SELECT … FOR SHARE`` fence plus SQLAlchemy's compiled executemany,
which cost two round trips and the compile and bind layers on every commit (the
profile in docs/operations.md).
"""

from __future__ import annotations

from typing import Any

import asyncpg
import orjson
from sqlalchemy.exc import IntegrityError

from .db import unreachable

__all__ = ["INSERT_FENCED", "columns", "insert_fenced"]

# $1..$7: the group's columns; a row with no epoch (an unfenced table) always goes in
INSERT_FENCED = """
WITH r AS (
    SELECT * FROM unnest($1::varchar[], $2::int[], $3::int[], $4::varchar[], $5::int[],
                         $6::text[], $7::int[]) AS r(game_id, seq, hand_no, kind, seat, data, epoch)
), g AS (
    SELECT id, epoch FROM games WHERE id = ANY($1::varchar[]) FOR SHARE
)
INSERT INTO game_actions (game_id, seq, hand_no, kind, seat, data)
SELECT r.game_id, r.seq, r.hand_no, r.kind, r.seat, r.data::json
FROM r LEFT JOIN g ON g.id = r.game_id
WHERE r.epoch IS NULL OR g.epoch = r.epoch
"""

EPOCHS = "SELECT id, epoch FROM games WHERE id = ANY($1::varchar[])"


def columns(batch: list[dict]) -> tuple[list, ...]:
    """The group's rows as the statement's seven arrays."""
    dumps, opt = orjson.dumps, orjson.OPT_NON_STR_KEYS
    return ([r["game_id"] for r in batch], [r["seq"] for r in batch],
            [r["hand_no"] for r in batch], [r["kind"] for r in batch],
            [r["seat"] for r in batch], [dumps(r["data"], option=opt).decode() for r in batch],
            [r["_epoch"] for r in batch])


async def insert_fenced(conn: Any, batch: list[dict]) -> dict[str, int] | None:
    """Store ``batch`` through ``conn`` (an SQLAlchemy ``AsyncConnection`` on asyncpg,
    no transaction begun). None when every row went in; otherwise the epochs now
    stored for the batch's games, to tell which rows were refused.

    Errors come out as the rest of the repository knows them: a constraint as
    SQLAlchemy's ``IntegrityError``, a lost connection (the pooled connection is
    invalidated) as ``ConnectionError``, which ``db.unreachable`` calls worth a retry."""
    raw = (await conn.get_raw_connection()).driver_connection
    try:
        status = await raw.execute(INSERT_FENCED, *columns(batch))
        if int(status.rsplit(" ", 1)[1]) == len(batch):
            return None
        return {r["id"]: r["epoch"]
                for r in await raw.fetch(EPOCHS, sorted({r["game_id"] for r in batch}))}
    except asyncpg.IntegrityConstraintViolationError as e:
        raise IntegrityError(INSERT_FENCED, None, e) from None
    except Exception as e:
        # a lost connection (db.unreachable: a cut one may say only "another operation
        # is in progress", an unsolicited FATAL having left it half read) must not go
        # back to the pool
        if unreachable(e) or raw.is_closed():
            await conn.invalidate()
            raise ConnectionError(f"the database connection was lost: {e}") from e
        raise

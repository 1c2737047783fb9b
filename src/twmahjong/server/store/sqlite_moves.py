"""The group commit of moves on SQLite: one fenced statement, run in one call on the
driver's thread.

The SQLite twin of ``pg_moves``: a group of moves (rows of ``game_actions`` from many
tables) goes in by one ``INSERT … SELECT`` per row that takes the row only while its
owner epoch is still its game's, all in one transaction. The work — the inserts, the
epochs of a group that was not taken whole, the commit — is one function handed to
aiosqlite's thread, so a commit is one trip to that thread and back (plus the pool's
reset). SQLAlchemy's path (a fence query, then a compiled executemany, then the
commit) made a trip for each of the cursor, the query, its rows, the insert and the
commit, and compiled and bound both statements. The fence is at least as tight: the
epoch is read inside the writing transaction, by the statement that writes, so an
adoption (``take_game``, which bumps the epoch) cannot fall between the two.

Errors come out as SQLAlchemy's (``IntegrityError`` for a constraint, as the rest of
the repository and ``db.unreachable`` know them), with nothing of the group stored.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import orjson
from sqlalchemy.exc import DBAPIError

__all__ = ["INSERT_FENCED", "insert_fenced"]

# a row with no epoch (an unfenced table) always goes in
INSERT_FENCED = ("INSERT INTO game_actions (game_id, seq, hand_no, kind, seat, data) "
                 "SELECT ?, ?, ?, ?, ?, ? "
                 "WHERE ? IS NULL OR (SELECT epoch FROM games WHERE id = ?) = ?")


def _params(batch: list[dict]) -> list[tuple]:
    dumps, opt = orjson.dumps, orjson.OPT_NON_STR_KEYS
    return [(r["game_id"], r["seq"], r["hand_no"], r["kind"], r["seat"],
             dumps(r["data"], option=opt).decode(), r["_epoch"], r["game_id"], r["_epoch"])
            for r in batch]


def _store(db: sqlite3.Connection, params: list[tuple],
           games: list[str]) -> dict[str, int] | None:
    """On the driver's thread: the group in one transaction; None when every row
    went in, else the epochs now stored for the group's games."""
    try:
        stored = db.executemany(INSERT_FENCED, params).rowcount
        now = None
        if stored != len(params):
            marks = ",".join("?" * len(games))
            now = dict(db.execute(f"SELECT id, epoch FROM games WHERE id IN ({marks})",
                                  games).fetchall())
        db.commit()
        return now
    except BaseException:
        db.rollback()
        raise


async def insert_fenced(conn: Any, batch: list[dict]) -> dict[str, int] | None:
    """Store ``batch`` through ``conn`` (an SQLAlchemy ``AsyncConnection`` on
    aiosqlite, no transaction begun). None when every row went in; otherwise the
    epochs now stored for the batch's games, to tell which rows were refused."""
    raw = (await conn.get_raw_connection()).driver_connection      # aiosqlite's
    params = _params(batch)
    games = sorted({r["game_id"] for r in batch})
    try:
        return await raw._execute(_store, raw._conn, params, games)
    except sqlite3.Error as e:
        raise DBAPIError.instance(INSERT_FENCED, params, e, sqlite3.Error) from None

"""SQLite's group commit of moves (``store/sqlite_moves.py``) stores what SQLAlchemy's
path stored: the same rows read back, the same refusals of a stale epoch, nothing
of a group whose row breaks a constraint, and the pooled connection left with no
transaction open."""

import asyncio

import pytest
from sqlalchemy.exc import IntegrityError

from twmahjong.server.store.db import create_engine, migrate
from twmahjong.server.store.repository import SqlRepository

ROW = {"hand_no": 1, "kind": "action", "seat": 2,
       "data": {"action": {"type": "discard", "tile": "5m"}, "說": "中文 ok", "n": [1, None]}}


async def _play(url: str, direct: bool) -> tuple[dict, dict, list, bool]:
    engine = create_engine(url)
    await migrate(engine)
    repo = SqlRepository(engine)
    repo._lite = direct
    for gid in ("g1", "g2", "g3"):
        await repo.create_game({"id": gid, "mode": "casual", "profile": "standard",
                                "stake": "low", "rounds": 1,
                                "seats": [{"account_id": None, "name": "b", "bot": "L1"}] * 4})
    assert await repo.take_game("g2") == 2           # g2 adopted: epoch 1 is stale now
    batch = [{"game_id": "g1", "seq": 0, **ROW, "_epoch": 1},
             {"game_id": "g2", "seq": 0, **ROW, "_epoch": 1},       # refused
             {"game_id": "g3", "seq": 0, **ROW, "_epoch": None},    # unfenced: goes in
             {"game_id": "g1", "seq": 1, **ROW, "seat": None, "_epoch": 1}]
    await repo._commit(batch)
    refused = {g: repo.refused(g, 1) for g in ("g1", "g2", "g3")}
    # a row where one is already: the whole group is refused, nothing of it stored
    with pytest.raises(IntegrityError):
        await repo._commit([{"game_id": "g3", "seq": 1, **ROW, "_epoch": None},
                            {"game_id": "g1", "seq": 1, **ROW, "_epoch": 1}])
    rows = {g: await repo.game_actions(g) for g in ("g1", "g2", "g3")}
    async with engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        clean = not raw._conn.in_transaction
    await repo.close()
    await engine.dispose()
    return rows, refused, sorted(rows), clean


def test_the_direct_commit_stores_what_sqlalchemys_did(tmp_path):
    direct = asyncio.run(_play(f"sqlite+aiosqlite:///{tmp_path / 'a.sqlite3'}", True))
    through_sa = asyncio.run(_play(f"sqlite+aiosqlite:///{tmp_path / 'b.sqlite3'}", False))
    rows, refused, _, clean = direct
    assert direct[:3] == through_sa[:3]
    assert [r["seq"] for r in rows["g1"]] == [0, 1] and rows["g2"] == []
    assert [r["seq"] for r in rows["g3"]] == [0]
    assert rows["g1"][0]["data"] == ROW["data"] and rows["g1"][1]["seat"] is None
    assert refused == {"g1": False, "g2": True, "g3": False}
    assert clean and through_sa[3]


def test_the_direct_commit_is_the_sqlite_path():
    repo = SqlRepository(create_engine("sqlite+aiosqlite:///:memory:"))
    assert repo._lite and not repo._pg

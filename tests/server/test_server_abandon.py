"""Abandoned tables end (server/play/table.py ``_end_early``): a table paused with
nobody back for ``abandon_after`` ends as forfeit with nobody left does, is
stored finished and marked ``abandoned``, leaves the process's directory (its
memory goes), and its player hears ``game_end`` on coming back; a restart ends the
tables paused past that limit instead of resuming them into bots' play."""

from __future__ import annotations

import asyncio
import time

from server_helpers import HANG, Client
from test_server_play import stored


def run(coro):
    return asyncio.run(coro)


def _until(cond, what: str) -> None:
    """Wait for an event the test cannot be sent (a table leaving the directory).
    The tests' bots think 0.2 s a move (bot_delay), so no game is played out by bots
    before its table pauses, however fast the machine."""
    end = time.monotonic() + HANG
    while not cond():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.02)


def _state(live, game_id: str) -> str:
    table = live.server.tables.get(game_id)
    assert table is not None and not table.finished, f"game {game_id} ended before it paused"
    return table.state


async def _sit_and_leave(live, token: str) -> Client:
    c = await Client.open(live, token)
    await c.send({"type": "quick_match", "mode": "challenge"})
    await c.expect("matched")
    await c.expect("snapshot")
    await c.close()
    return c


def test_a_table_nobody_comes_back_to_ends_abandoned_and_frees_its_memory(make_live,
                                                                          db_url):
    live = make_live(pause_after=0.2, abandon_after=0.3, disconnect_grace=0.05, bot_delay=0.2)
    token = live.guest()
    a = run(_sit_and_leave(live, token))
    _until(lambda: live.server.tables.get(a.game_id) is None, "the table is let go")

    async def look(repo):
        return await repo.game(a.game_id)
    row = run(stored(db_url, look))
    assert row["status"] == "finished"
    assert row["result"]["ended"] == "abandoned" and row["result"]["forfeited"] == []
    assert row["result"]["challenge"]["beaten"] is False
    assert "paused_at" in row["options"]

    async def back():
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": a.ticket})
        end = await c.expect("game_end")
        await c.close()
        return end
    end = run(back())
    assert end["game_id"] == a.game_id and end["ended"] == "abandoned"
    games = live.http("GET", "/api/v1/games", token).json()["games"]
    assert next(g for g in games if g["game_id"] == a.game_id)["status"] == "finished"
    assert 'twmj_tables_ended_total{why="abandoned"} 1.0' in live.http("GET", "/metrics").text


def test_a_player_back_in_time_keeps_the_table(make_live):
    live = make_live(pause_after=0.2, abandon_after=3600.0, disconnect_grace=0.05,
                     bot_delay=0.2)
    token = live.guest()
    a = run(_sit_and_leave(live, token))
    _until(lambda: _state(live, a.game_id) == "paused", "paused")

    async def back():
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": a.ticket})
        snap = await c.expect("snapshot")
        await c.close()
        return snap
    assert run(back())["table"]["state"] != "ended"


def test_a_restart_ends_tables_paused_past_the_limit_and_keeps_the_others_paused(
        make_live, db_url):
    live = make_live(pause_after=0.2, abandon_after=3600.0, disconnect_grace=0.05,
                     bot_delay=0.2)
    old, fresh = live.guest(), live.guest()
    a = run(_sit_and_leave(live, old))
    _until(lambda: _state(live, a.game_id) == "paused", "a paused")

    async def age(repo):             # paused two hours ago, as far as the database knows
        await repo.mark_paused(a.game_id, time.time() - 7200)
    run(stored(db_url, age))
    b = run(_sit_and_leave(live, fresh))
    _until(lambda: _state(live, b.game_id) == "paused", "b paused")
    live.restart()
    _until(lambda: live.server.started, "the server is back")
    _until(lambda: live.server.tables.get(a.game_id) is None, "a is let go")
    table_b = live.server.tables.get(b.game_id)
    assert table_b is not None and table_b.state == "paused"     # not played by bots

    async def look(repo):
        return await repo.game(a.game_id), await repo.game(b.game_id)
    row_a, row_b = run(stored(db_url, look))
    assert row_a["status"] == "finished" and row_a["result"]["ended"] == "abandoned"
    assert row_b["status"] == "active"

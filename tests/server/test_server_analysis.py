"""牌譜分析 over HTTP: only the game's own player may ask, about their own seat; the
review follows the replay viewer's steps; the same hand is reviewed once."""

from __future__ import annotations

import asyncio
import json
import os
import time

from server_helpers import HANG

from twmahjong.analysis import analyze_record
from twmahjong.bots import make_bot
from twmahjong.server.play import analysis as worker
from twmahjong.server.play.analysis import Analyses, review_stored_hand
from twmahjong.server.play.engine_game import EngineGame


def _finished_room_game(live, bots="L2"):
    """A 1-圈 room game against bots that plays itself (the host never sits down)."""
    token = live.guest()
    seat = live.http("POST", "/api/v1/rooms", token, json={"bots": bots, "rounds": 1}).json()
    live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token)
    gid = seat["game_id"]
    deadline = time.monotonic() + HANG
    while live.http("GET", f"/api/v1/games/{gid}").status_code != 200:
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)
    return token, seat


def test_only_the_games_player_gets_the_review_of_their_own_seat(make_live):
    # the host never connects: its first decision waits out its clock (the tests' 8 s +
    # 4 s bank, 12 s of nothing) before 托管 plays it, as at 0.2 s; and nobody waits for
    # a claim window (0.02 s on every discard of a 1-圈 match)
    live = make_live(disconnect_grace=0.0, analysis_worlds=2, turn_base=0.2, turn_bank=0.0,
                     claim_window=0.0)
    token, seat = _finished_room_game(live)
    gid, me = seat["game_id"], seat["seat"]
    url = f"/api/v1/games/{gid}/analysis?hand=1"

    assert live.http("GET", url).status_code == 401
    other = live.guest()
    r = live.http("GET", url, other)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert live.http("GET", "/api/v1/games/g_nope/analysis?hand=1", token).status_code == 404
    assert live.http("GET", f"/api/v1/games/{gid}/analysis?hand=99", token).status_code == 404

    r = live.http("GET", url, token)
    assert r.status_code == 200, r.text
    review = r.json()
    assert review["seat"] == me and review["hand_no"] == 1 and review["worlds"] == 2
    # each decision is at the replay step that shows its move: the frame before it
    # offered the move to this seat, and the seat's river or melds changed at it
    frames = live.http("GET", f"/api/v1/games/{gid}/replay?hand=1&seat={me}").json()["frames"]
    assert review["decisions"], "a whole hand without one choice"
    for d in review["decisions"]:
        before = frames[d["step"] - 1]["observation"]
        assert d["played"] in before["legal"] and d["bot"] in before["legal"]
        assert len(before["legal"]) >= 2
    # asked again: the same review (kept, not sampled again)
    assert live.http("GET", url, token).json() == review


def test_the_servers_review_is_the_records_review():
    """The replay viewer's review of a hand equals `twmj analyze` on the game's record."""
    meta = {"mode": "casual", "profile": "standard", "stake": "low", "rounds": 1,
            "options": {"seed": 4242}}
    game = EngineGame(meta)
    bots = [make_bot("L2", s) for s in range(4)]
    rows: list[dict] = []
    game.start_hand()
    rows.append({"hand_no": 1, "kind": "hand", "seat": None, "data": {}})
    while game.in_hand():
        for s in sorted(game.hand.pending()):
            a = bots[s].act(game.hand.observation(s))
            a = a if isinstance(a, dict) else a.to_json()
            rows.append({"hand_no": 1, "kind": "action", "seat": s, "data": {"action": a}})
            game.act(s, a)
    game.finish_hand()
    rows.append({"hand_no": 1, "kind": "settled", "seat": None, "data": {}})

    server = review_stored_hand(meta, rows, 1, 2, bot="L2", worlds=2)
    record = analyze_record(game.record(), seat=2, bot="L2", worlds=2, hands=[0]).to_json()
    strip = lambda ds: [{k: v for k, v in d.items() if k != "step"} for d in ds]  # noqa: E731
    assert strip(server["decisions"]) == strip(record["hands"][0]["decisions"])
    steps = [d["step"] for d in server["decisions"]]
    assert steps == sorted(set(steps)) and all(s >= 1 for s in steps)


def test_a_waiting_player_hears_how_far_the_review_is(make_live):
    """The stream (``progress=1``) ends with the very review the plain request gives,
    after lines that only ever count up; a hand the game lacks is a 404 before any
    stream or work."""
    live = make_live(disconnect_grace=0.0, analysis_worlds=2, turn_base=0.2, turn_bank=0.0,
                     claim_window=0.0)
    token, seat = _finished_room_game(live)
    gid = seat["game_id"]
    r = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=1&progress=1", token)
    assert r.status_code == 200 and r.headers["content-type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in r.text.splitlines()]
    *steps, last = lines
    assert set(last) == {"review"}
    plain = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=1", token).json()
    assert last["review"] == plain
    n = len(plain["decisions"])
    done = [s["done"] for s in steps if "done" in s]
    assert all(set(s) in ({"ahead"}, {"done", "total"}) for s in steps)
    assert done == sorted(done) and all(s["total"] == n for s in steps if "total" in s)
    # asked again, the kept review: no progress lines at all
    again = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=1&progress=1", token)
    assert [json.loads(x) for x in again.text.splitlines()] == [{"review": plain}]
    r = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=99&progress=1", token)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def gated_review(key, meta, rows, hand_no, seat, bot, worlds):
    """In the worker: a review of three decisions that waits for a file before each
    one, so the test decides when it moves on."""
    for done in range(4):
        worker.report(key, done, 3)
        if done < 3:
            while not os.path.exists(f"{meta['gate']}.{hand_no}.{done}"):
                time.sleep(0.01)
    return {"hand_no": hand_no, "decisions": []}


def test_progress_counts_the_hands_ahead_then_the_decisions_done(tmp_path):
    """Two players' hands in the one worker: the second hears that one hand is ahead
    of it until the first is done, then its own decisions counting up."""
    gate = str(tmp_path / "gate")
    meta = {"gate": gate}

    async def until(analyses, key, want):
        deadline = time.monotonic() + HANG
        while analyses.progress(*key) != want:
            assert time.monotonic() < deadline, (key, analyses.progress(*key), want)
            await asyncio.sleep(0.01)

    def open_gate(hand, done):
        open(f"{gate}.{hand}.{done}", "w").close()

    async def run():
        analyses = Analyses(bot="L5", worlds=1, call=gated_review)
        try:
            first = analyses.start("g_a", meta, [], 1, 0)
            second = analyses.start("g_b", meta, [], 2, 3)
            assert analyses.progress("g_b", 3, 2) == {"ahead": 1}
            await until(analyses, ("g_a", 0, 1), {"done": 0, "total": 3})
            assert analyses.progress("g_b", 3, 2) == {"ahead": 1}
            open_gate(1, 0)
            await until(analyses, ("g_a", 0, 1), {"done": 1, "total": 3})
            open_gate(1, 1)
            open_gate(1, 2)
            assert await first == {"hand_no": 1, "decisions": []}
            assert analyses.progress("g_a", 0, 1) == {}          # done: nothing to wait for
            await until(analyses, ("g_b", 3, 2), {"done": 0, "total": 3})
            for done in range(3):
                open_gate(2, done)
            assert await second == {"hand_no": 2, "decisions": []}
            assert analyses.progress("g_b", 3, 2) == {}
            assert analyses.progress("g_c", 0, 1) == {}          # never asked
        finally:
            analyses.close()

    asyncio.run(run())

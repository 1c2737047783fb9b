"""牌譜分析 over HTTP: only the game's own player may ask, about their own seat; the
review follows the replay viewer's steps; the same hand is reviewed once."""

from __future__ import annotations

import asyncio
import json
import os
import time

import httpx

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
    assert r.headers["x-accel-buffering"] == "no"     # a proxy in front passes each line on
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


async def until(analyses, key, want):
    """Wait for the worker's word on ``key``'s review to be ``want``."""
    deadline = time.monotonic() + HANG
    while analyses.progress(*key) != want:
        assert time.monotonic() < deadline, (key, analyses.progress(*key), want)
        await asyncio.sleep(0.01)


def gated_review(key, meta, rows, hand_no, seat, bot, worlds):
    """In the worker: a review of three decisions that waits for a file before each
    one, so the test decides when it moves on."""
    gate = meta.get("gate") or os.environ["TWMJ_TEST_ANALYSIS_GATE"]
    for done in range(4):
        worker.report(key, done, 3)
        if done < 3:
            while not (os.path.exists(f"{gate}.{hand_no}.{done}")
                       or os.path.exists(f"{gate}.all")):   # a failed test lets all go
                time.sleep(0.01)
    return {"hand_no": hand_no, "decisions": []}


def test_progress_counts_the_hands_ahead_then_the_decisions_done(tmp_path):
    """Two players' hands in the one worker: the second hears that one hand is ahead
    of it until the first is done, then its own decisions counting up."""
    gate = str(tmp_path / "gate")
    meta = {"gate": gate}

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
            open(f"{gate}.all", "w").close()
            analyses.close()

    asyncio.run(run())


def test_a_review_nobody_waits_for_is_called_off_queued_or_begun(tmp_path):
    """A player leafing through hands 1, 2, 3 of a replay left reviews running and
    queued that nobody would read, ahead of the next player's hand. A review whose last
    waiter leaves is called off: skipped if queued, dropped by the worker at its next
    decision if begun, so the hand behind it starts."""
    gate = str(tmp_path / "gate")
    meta = {"gate": gate}

    def open_gates(hand, upto=3):
        for done in range(upto):
            open(f"{gate}.{hand}.{done}", "w").close()

    async def run():
        analyses = Analyses(bot="L5", worlds=1, call=gated_review)
        try:
            a = ("g_a", 0, 1)
            begun = analyses.start("g_a", meta, [], 1, 0)
            await until(analyses, a, {"done": 0, "total": 3})
            passed = analyses.start("g_a", meta, [], 2, 0)
            later = analyses.start("g_b", meta, [], 3, 1)
            assert analyses.progress("g_b", 1, 3) == {"ahead": 2}
            # two requests wait for hand 2; the first going away calls nothing off
            analyses.join(("g_a", 0, 2))
            analyses.join(("g_a", 0, 2))
            analyses.leave(("g_a", 0, 2), passed)
            assert not passed.cancelled()
            analyses.leave(("g_a", 0, 2), passed)
            assert passed.cancelled()
            assert analyses.progress("g_a", 0, 2) == {}
            assert analyses.progress("g_b", 1, 3) == {"ahead": 1}
            # the begun review: its waiter leaves, and the worker drops it at its next
            # decision (hand 1's later gates never open, hand 2's never at all)
            analyses.join(a)
            analyses.leave(a, begun)
            assert begun.cancelled() and analyses.progress(*a) == {}
            assert analyses.progress("g_b", 1, 3) == {"ahead": 0}
            open_gates(1, upto=1)
            await until(analyses, ("g_b", 1, 3), {"done": 0, "total": 3})
            open_gates(3)
            assert await later == {"hand_no": 3, "decisions": []}
            # asked again, a called-off hand is reviewed afresh
            again = analyses.start("g_a", meta, [], 2, 0)
            assert again is not passed
            open_gates(2)
            assert await again == {"hand_no": 2, "decisions": []}
        finally:
            open(f"{gate}.all", "w").close()
            analyses.close()

    asyncio.run(run())


def test_a_player_who_goes_away_calls_off_their_queued_hand(make_live, tmp_path, monkeypatch):
    """Over HTTP: the viewer's stream for hand 2 closes (the player went on to hand 3)
    while hand 1 is being reviewed; hand 2 is called off, so hand 3, which heard two
    hands ahead of it, now hears one, and gets its review when hand 1 is done."""
    gate = str(tmp_path / "gate")
    monkeypatch.setenv("TWMJ_TEST_ANALYSIS_GATE", gate)    # the worker inherits it
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0)
    token, seat = _finished_room_game(live)
    live.server.analyses = Analyses(bot="L5", worlds=1, call=gated_review)
    gid = seat["game_id"]
    auth = {"Authorization": f"Bearer {token}"}

    def stream(hand):
        client = httpx.Client(base_url=live.base, headers=auth, timeout=HANG)
        r = client.send(client.build_request(
            "GET", f"/api/v1/games/{gid}/analysis?hand={hand}&progress=1"), stream=True)
        assert r.status_code == 200
        return client, r, r.iter_lines()

    def gates(hand):
        for done in range(3):
            open(f"{gate}.{hand}.{done}", "w").close()

    try:
        _leaf_through(stream, gates)
    finally:
        open(f"{gate}.all", "w").close()


def _leaf_through(stream, gates):
    first = stream(1)
    assert json.loads(next(first[2])) == {"ahead": 0}
    assert json.loads(next(first[2])) == {"done": 0, "total": 3}
    second = stream(2)
    assert json.loads(next(second[2])) == {"ahead": 1}
    third = stream(3)
    assert json.loads(next(third[2])) == {"ahead": 2}
    second[1].close()
    second[0].close()
    gates(2)            # had the worker taken hand 2 already, it may run: let it end
    assert json.loads(next(third[2])) == {"ahead": 1}
    gates(1)
    gates(3)
    lines = [json.loads(x) for x in third[2]]
    assert lines[-1] == {"review": {"hand_no": 3, "decisions": []}}
    assert [x for x in first[2]][-1] == json.dumps({"review": {"hand_no": 1, "decisions": []}},
                                                   separators=(",", ":"))
    for client, r, _ in (first, third):
        r.close()
        client.close()


def test_a_player_has_three_reviews_under_way_at_most(make_live, tmp_path, monkeypatch):
    """The one worker reviews hands in the order asked: one player asking for every
    hand of their games had everyone else wait behind them all. A fourth hand at once
    is 429 rate_limited (state unchanged: nothing queued); a hand already under way is
    still answered, and once one is done the fourth may go."""
    gate = str(tmp_path / "gate")
    monkeypatch.setenv("TWMJ_TEST_ANALYSIS_GATE", gate)
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0)
    token, seat = _finished_room_game(live)
    analyses = live.server.analyses = Analyses(bot="L5", worlds=1, call=gated_review)
    gid, me = seat["game_id"], seat["seat"]
    auth = {"Authorization": f"Bearer {token}"}
    clients = []

    def stream(hand):
        client = httpx.Client(base_url=live.base, headers=auth, timeout=HANG)
        clients.append(client)
        r = client.send(client.build_request(
            "GET", f"/api/v1/games/{gid}/analysis?hand={hand}&progress=1"), stream=True)
        return r, r.iter_lines()

    try:
        held = [stream(n) for n in (1, 2, 3)]
        for r, lines in held:
            assert r.status_code == 200
            next(lines)                   # its first line: the review is set going
        r = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=4", token)
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        r, _ = stream(4)
        assert r.status_code == 429 and analyses.progress(gid, me, 4) == {}
        again, lines = stream(2)            # under way: answered
        assert again.status_code == 200
        for done in range(3):
            open(f"{gate}.1.{done}", "w").close()
        assert [json.loads(x) for x in held[0][1]][-1] == {"review": {"hand_no": 1,
                                                                      "decisions": []}}
        fourth, _ = stream(4)
        assert fourth.status_code == 200
    finally:
        open(f"{gate}.all", "w").close()
        for c in clients:
            c.close()


def test_the_cap_counts_a_players_unfinished_reviews_only(tmp_path):
    gate = str(tmp_path / "gate")
    meta = {"gate": gate}

    async def run():
        analyses = Analyses(bot="L5", worlds=1, call=gated_review)
        try:
            mine = [analyses.start("g_a", meta, [], n, 0, owner=7) for n in (1, 2, 3)]
            try:
                analyses.start("g_a", meta, [], 4, 0, owner=7)
                raise AssertionError("a fourth review at once was queued")
            except worker.Busy:
                pass
            assert analyses.progress("g_a", 0, 4) == {}
            assert analyses.start("g_a", meta, [], 2, 0, owner=7) is mine[1]
            other = analyses.start("g_b", meta, [], 1, 1, owner=8)      # another player
            open(f"{gate}.all", "w").close()
            for fut in mine:
                await fut
            fourth = analyses.start("g_a", meta, [], 4, 0, owner=7)
            assert await fourth == {"hand_no": 4, "decisions": []}
            await other
        finally:
            open(f"{gate}.all", "w").close()
            analyses.close()

    asyncio.run(run())


def test_a_stream_whose_review_was_called_off_as_it_began_starts_it_again(
        make_live, tmp_path, monkeypatch):
    """Two requests for one hand: the first one's player leaves just as the second's
    stream begins, before it counts as waiting, and the review is called off under it.
    The second stream set the review going again and got it (it ended with no answer)."""
    gate = str(tmp_path / "gate")
    monkeypatch.setenv("TWMJ_TEST_ANALYSIS_GATE", gate)
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0)
    token, seat = _finished_room_game(live)
    analyses = live.server.analyses = Analyses(bot="L5", worlds=1, call=gated_review)
    real_start, starts = analyses.start, []

    def start(*args, **kw):             # the first answer: the review just called off
        starts.append(args)
        if len(starts) == 1:
            fut = asyncio.get_running_loop().create_future()
            fut.cancel()
            return fut
        return real_start(*args, **kw)

    analyses.start = start
    open(f"{gate}.all", "w").close()
    r = live.http("GET", f"/api/v1/games/{seat['game_id']}/analysis?hand=1&progress=1", token)
    assert r.status_code == 200
    lines = [json.loads(x) for x in r.text.splitlines()]
    assert lines[-1] == {"review": {"hand_no": 1, "decisions": []}} and len(starts) == 2

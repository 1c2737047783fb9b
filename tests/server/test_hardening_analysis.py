"""牌譜分析 costs seconds of CPU a hand: one account has one review under way at a time,
sets new ones going at a rate, and a review whose asker went away — the plain request
as well as the stream — is called off unless someone else waits for it."""

import json
import socket
import time

import httpx
from server_helpers import HANG
from test_server_analysis import _finished_room_game, gated_review

from twmahjong.server.net.limits import Limiter
from twmahjong.server.play.analysis import Analyses

GUARD = 120.0


def wait_for(check, what):
    end = time.monotonic() + GUARD
    while not check():
        assert time.monotonic() < end, what
        time.sleep(0.01)


def test_the_server_allows_one_review_at_a_time_per_account(make_live):
    live = make_live()
    a = live.server.analyses
    assert a.per_player == 1 and a.limiter is not None
    assert a.limiter.burst == live.settings.analysis_burst


def test_ask_leave_ask_again_is_called_off_and_bounded(make_live, tmp_path, monkeypatch):
    gate = str(tmp_path / "gate")
    monkeypatch.setenv("TWMJ_TEST_ANALYSIS_GATE", gate)
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0)
    token, seat = _finished_room_game(live)
    analyses = live.server.analyses = Analyses(bot="L5", worlds=1, call=gated_review,
                                               per_player=1, limiter=Limiter(0.0001, 2))
    gid, me = seat["game_id"], seat["seat"]
    try:
        # a plain request (no progress stream) whose client goes away mid-review
        s = socket.create_connection(("127.0.0.1", live.port))
        s.sendall(f"GET /api/v1/games/{gid}/analysis?hand=1 HTTP/1.1\r\nHost: x\r\n"
                  f"Authorization: Bearer {token}\r\n\r\n".encode())
        wait_for(lambda: analyses.progress(gid, me, 1) == {"done": 0, "total": 3},
                 "the review began")
        # while it runs, the same account's second hand waits its turn: refused
        r = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=2", token)
        assert r.status_code == 429 and "still reviewing 1" in r.json()["error"]["message"]
        s.close()
        wait_for(lambda: analyses.progress(gid, me, 1) == {}, "the review was called off")
        assert 0 in analyses._called_off[:]           # the worker drops it at its next step
        # asked again (a stream this time), left again: the second of the burst of 2
        with httpx.Client(base_url=live.base, timeout=HANG,
                          headers={"Authorization": f"Bearer {token}"}) as c:
            with c.stream("GET", f"/api/v1/games/{gid}/analysis?hand=1&progress=1") as r:
                assert r.status_code == 200
                assert json.loads(next(r.iter_lines())) in ({"ahead": 0}, {"ahead": 1},
                                                             {"done": 0, "total": 3})
        wait_for(lambda: analyses.progress(gid, me, 1) == {}, "the stream's review called off")
        # and the third ask within the rate is refused before any work
        r = live.http("GET", f"/api/v1/games/{gid}/analysis?hand=1", token)
        assert r.status_code == 429 and "lately" in r.json()["error"]["message"]
        assert analyses.progress(gid, me, 1) == {}
    finally:
        open(f"{gate}.all", "w").close()
    print("\nask, leave, ask, leave: both called off; the third ask -> 429")


def test_a_review_someone_else_waits_for_goes_on(make_live, tmp_path, monkeypatch):
    gate = str(tmp_path / "gate")
    monkeypatch.setenv("TWMJ_TEST_ANALYSIS_GATE", gate)
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0)
    token, seat = _finished_room_game(live)
    analyses = live.server.analyses = Analyses(bot="L5", worlds=1, call=gated_review,
                                               per_player=1)
    gid, me = seat["game_id"], seat["seat"]
    try:
        with httpx.Client(base_url=live.base, timeout=HANG,
                          headers={"Authorization": f"Bearer {token}"}) as c:
            with c.stream("GET", f"/api/v1/games/{gid}/analysis?hand=1&progress=1") as kept:
                lines = kept.iter_lines()
                next(lines)
                s = socket.create_connection(("127.0.0.1", live.port))
                s.sendall(f"GET /api/v1/games/{gid}/analysis?hand=1 HTTP/1.1\r\nHost: x\r\n"
                          f"Authorization: Bearer {token}\r\n\r\n".encode())
                wait_for(lambda: analyses._pending[(gid, me, 1)].waiting == 2, "both wait")
                s.close()
                wait_for(lambda: analyses._pending[(gid, me, 1)].waiting == 1, "one left")
                for done in range(3):
                    open(f"{gate}.1.{done}", "w").close()
                last = json.loads(list(lines)[-1])
        assert last == {"review": {"hand_no": 1, "decisions": []}}
    finally:
        open(f"{gate}.all", "w").close()

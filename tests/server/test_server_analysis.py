"""牌譜分析 over HTTP: only the game's own player may ask, about their own seat; the
review follows the replay viewer's steps; the same hand is reviewed once."""

from __future__ import annotations

import time

from server_helpers import HANG

from twmahjong.analysis import analyze_record
from twmahjong.bots import make_bot
from twmahjong.server.play.analysis import review_stored_hand
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

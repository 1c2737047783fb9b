"""A whole ranked game: stored as it goes, replayable from seed + actions, rated,
and every coin of it in the ledger."""

import asyncio
import hashlib
import itertools
import time

import pytest
from server_helpers import HANG, Client

from twmahjong.bots.policy import PolicyBot, level_params
from twmahjong.engine.record import replay as engine_replay
from twmahjong.server.people.ranking import elo_update
from twmahjong.server.play.engine_game import EngineGame


# casual (rules/003) caps losses at what a player carries (防以小博大) and takes a
# 5% fee (活動費): with only 300 coins the cap bites, and the balance stays >= 0
@pytest.mark.parametrize("profile, coins", [("standard", 10_000), ("casual", 300)])
def test_a_ranked_game_is_recorded_replayable_rated_and_booked(make_live, profile, coins):
    # level-2 bots win hands (random ones almost never do, and 流局 keeps the deal)
    live = make_live(disconnect_grace=0.0, starting_coins=coins,
                     make_bot=lambda name, seed: PolicyBot(level_params(2), seed))
    token = live.register("ranker")

    async def start():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "ranked", "stake": "low",
                      "profile": profile})
        await c.expect("matched")
        await c.expect("snapshot")
        await c.close()                 # from here on a bot plays the seat to the end
        return c
    c = asyncio.run(start())

    deadline = time.monotonic() + HANG
    while True:
        games = live.http("GET", "/api/v1/games", token).json()["games"]
        if games and games[0]["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)
    game = games[0]
    assert game["game_id"] == c.game_id and game["seat"] == c.seat and game["mode"] == "ranked"

    rec = live.http("GET", f"/api/v1/games/{c.game_id}").json()
    assert rec["rounds"] == 1 and len(rec["hands"]) >= 4        # one 圈: four deals at least
    # replaying each hand from its seed and actions gives the stored settlement
    meta = {"profile": rec["profile"], "stake": rec["stake"], "rounds": rec["rounds"],
            "options": {"seed": int(rec["seed"]), "carried": rec["carried"]}}
    replay = EngineGame(meta)
    for hand in rec["hands"]:
        assert str(replay.start_hand()) == hand["seed"]
        assert hashlib.sha256(f"twmj-wall-v1:{hand['seed']}".encode()).hexdigest() == \
            hand["commitment"]
        for a in hand["actions"]:
            replay.act(a["seat"], a["action"])
        assert replay.hand_over()
        assert replay.finish_hand()["net"] == hand["net"]
    assert replay.match_over()
    scores = rec["result"]["scores"]
    assert scores == replay.scores()
    if profile == "standard":            # the engine's own record replays by itself too
        assert engine_replay(rec["record"]).scores == scores
    assert sum(scores) + sum(h["fee"] for h in rec["hands"]) == 0

    ranks = rec["result"]["ranks"]
    assert sorted(ranks) == [1, 2, 3, 4]
    me = live.http("GET", "/api/v1/me", token).json()
    expected = elo_update([1500.0] * 4, ranks)[c.seat]      # three bots at 1500
    assert me["rating"] == round(expected, 1) and me["ranked_games"] == 1
    board = live.http("GET", "/api/v1/leaderboard").json()["players"]
    assert [p["name"] for p in board] == ["ranker"]

    ledger = live.http("GET", "/api/v1/me/ledger", token).json()
    assert ledger["balance"] == sum(r["amount"] for r in ledger["rows"])
    assert ledger["balance"] == coins + scores[c.seat] == me["coins"]
    assert {r["game_id"] for r in ledger["rows"][1:]} <= {c.game_id}
    running = list(itertools.accumulate(r["amount"] for r in ledger["rows"]))
    if profile == "casual":
        assert min(running) >= 0                       # 防以小博大: never below zero
        # rules/003 活動費: 5% of what the winner gains, rounded down
        for h in rec["hands"]:
            gainers = [n for n in h["net"] if n > 0]
            if len(gainers) == 1:
                assert h["fee"] == (gainers[0] + h["fee"]) * 5 // 100
            elif not gainers:
                assert h["fee"] == 0
        assert any(h["fee"] > 0 for h in rec["hands"])

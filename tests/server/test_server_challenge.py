"""Challenge mode (挑戰賽): three personalities of the next tier, progress saved."""

import asyncio
import time

from server_helpers import HANG, Client

from twmahjong.bots.personalities import by_tier, get_personality
from twmahjong.bots.policy import PolicyBot, level_params
from twmahjong.server.play import challenge


def test_challenge_seats_the_next_tier_and_saves_progress(make_live, monkeypatch):
    tier1 = {p.id for p in by_tier(1)}
    made: list[str] = []

    def make_bot(name, seed):
        made.append(name)
        # each personality plays its own parameters; the absent challenger's
        # stand-in (托管) plays level 2
        p = get_personality(name)
        return PolicyBot(p.params if p else level_params(2), seed)

    # the personalities are playable here whether or not bots.make_bot knows them yet
    monkeypatch.setattr(challenge, "_playable", lambda ids: list(ids))
    live = make_live(disconnect_grace=0.0, make_bot=make_bot)
    token = live.register("challenger")
    progress = live.http("GET", "/api/v1/challenge", token).json()
    assert (progress["beaten"], progress["next"], len(progress["tiers"])) == (0, 1, 5)
    assert sum(len(t["bots"]) for t in progress["tiers"]) == 16

    async def start():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "challenge"})
        await c.expect("matched")
        snap = await c.expect("snapshot")
        await c.close()
        return c, snap
    c, snap = asyncio.run(start())
    seats = snap["table"]["seats"]
    assert c.seat == 0 and snap["table"]["mode"] == "challenge"
    assert {s["name"].removeprefix("bot:") for s in seats[1:]} <= tier1
    assert all(s["bot"] for s in seats[1:]) and not seats[0]["bot"]

    deadline = time.monotonic() + HANG
    while True:
        games = live.http("GET", "/api/v1/games", token).json()["games"]
        if games[0]["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the challenge did not finish"
        time.sleep(0.2)
    result = games[0]["result"]
    scores = result["scores"]
    beaten = scores[0] > max(scores[1:])
    assert result["challenge"] == {"tier": 1, "beaten": beaten}
    me = live.http("GET", "/api/v1/me", token).json()
    assert me["challenge_tier"] == (1 if beaten else 0)
    after = live.http("GET", "/api/v1/challenge", token).json()
    assert after["next"] == (2 if beaten else 1)


def test_the_bots_that_fill_a_table_are_different_personalities():
    """Drawn one seat at a time, three seats from a tier of three repeated someone at 7
    tables in 9: two or three 'Hermit' badges at one table."""
    import random
    tier2 = [p.id for p in by_tier(2)]
    for seed in range(40):
        three = challenge.fill_bots("low", 3, random.Random(seed))
        assert sorted(three) == sorted(tier2)
    five = challenge.fill_bots("low", 5, random.Random(1))     # more seats than the tier
    assert set(five) == set(tier2) and len(set(five[:3])) == 3
    assert set(challenge.fill_bots("high", 3)) == {p.id for p in by_tier(4)}


def test_a_room_against_the_computer_seats_three_different_bots(make_live):
    live = make_live()
    token = live.register("三位對手")

    async def go():
        seat = live.http("POST", "/api/v1/rooms", token, json={"bots": None}).json()
        live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token)
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": seat["ticket"]})
        snap = await c.expect("snapshot")
        await c.close()
        return snap
    seats = asyncio.run(go())["table"]["seats"]
    ids = [s["persona"]["id"] for s in seats if s["bot"]]
    assert len(ids) == 3 and len(set(ids)) == 3
    assert set(ids) == {p.id for p in by_tier(2)}               # the low stake's tier

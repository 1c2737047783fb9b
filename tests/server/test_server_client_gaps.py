"""What the browser client needs from the server: the help data endpoint, replay
frames, every hand turned up at the end of a hand, the choice of bot opponents
(adaptive difficulty), and every seat's clock.
"""

import asyncio

import pytest
from server_helpers import HANG, Client, simple_policy

from twmahjong.bots.personalities import PERSONALITIES, by_tier
from twmahjong.profiles import load_profile
from twmahjong.server.play import opponents
from twmahjong.server.play.table import SeatState
from twmahjong.server.play.timers import TurnClock
from twmahjong.tiles import parse_tiles


def run(coro):
    return asyncio.run(coro)


# -- help data ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["standard", "casual"])
def test_patterns_endpoint_lists_every_pattern_of_the_profile_with_its_tai(live, name):
    r = live.http("GET", f"/api/v1/profiles/{name}/patterns")
    assert r.status_code == 200, r.text
    patterns = r.json()["patterns"]
    profile = load_profile(name)
    assert [p["id"] for p in patterns] == list(profile.patterns)
    assert {p["id"]: p["tai"] for p in patterns} == {k: v.tai for k, v in profile.patterns.items()}
    # 清一色 is 12 台 in the standard rules (rules/001) and 8 in casual (rules/003),
    # and its example hand is one suit only
    ff = next(p for p in patterns if p["id"] == "full_flush")
    assert ff["tai"] == {"standard": 12, "casual": 8}[name]
    assert len({ch for ch in ff["example"]["concealed"] if ch.isalpha()}) == 1


def test_patterns_of_an_unknown_profile_is_a_clear_404(live):
    r = live.http("GET", "/api/v1/profiles/mahjong-soul/patterns")
    assert r.status_code == 404
    err = r.json()["error"]
    assert err["code"] == "not_found"
    assert "mahjong-soul" in err["message"] and "standard" in err["message"]


# -- choosing the bots --------------------------------------------------------------------------
def test_bots_catalogue_lists_the_five_levels_and_sixteen_personalities(live):
    body = live.http("GET", "/api/v1/bots").json()
    assert [lv["id"] for lv in body["levels"]] == ["L1", "L2", "L3", "L4", "L5"]
    ps = body["personalities"]
    assert len(ps) == 16
    assert {p["id"] for p in ps} == {p.id for p in PERSONALITIES}
    shark = next(p for p in ps if p["id"] == "shark")
    assert (shark["zh"], shark["en"], shark["tier"]) == ("老鯊", "Shark", 4)
    assert shark["description"] == "Balanced and patient; punishes careless discards."
    assert shark["description_zh"] == "攻守平衡有耐心，專抓亂打的牌。"
    assert body["adaptive"] is True


def test_a_room_against_L2_seats_three_L2_bots(live):
    token = live.guest()
    r = live.http("POST", "/api/v1/rooms", token, json={"profile": "standard", "bots": "L2"})
    assert r.status_code == 201, r.text
    assert r.json()["room"]["bots"] == "L2"
    code = r.json()["code"]
    assert live.http("POST", f"/api/v1/rooms/{code}/start", token).status_code == 200
    games = live.http("GET", "/api/v1/games", token).json()["games"]
    assert games[0]["players"][1:] == ["bot:L2", "bot:L2", "bot:L2"]


def test_an_unknown_opponent_is_refused_with_the_names_to_choose_from(live):
    token = live.guest()
    r = live.http("POST", "/api/v1/rooms", token, json={"bots": "L9"})
    assert r.status_code == 422
    err = r.json()["error"]
    assert err["code"] == "bad_request"
    assert "'L9'" in err["message"] and "L1" in err["message"] and "adaptive" in err["message"]
    assert "shark" in err["message"]


class FakeRepo:
    """Stored games as ``games_of`` / ``game_actions`` give them (newest first)."""

    def __init__(self, games):
        self.games = games

    async def games_of(self, account_id, limit=50):
        return [{"id": g["id"], "seat": 0, "options": g["options"]} for g in self.games][:limit]

    async def game_actions(self, game_id):
        g = next(g for g in self.games if g["id"] == game_id)
        return [{"kind": "settled", "data": {"net": [100 if won else -100, 0, 0, 0]}}
                for won in g["wins"]]


def test_adaptive_goes_up_a_level_after_winning_a_third_of_the_hands():
    # docs/bots.md: 8 wins in 24 hands -> (8+1)/(24+4) = 0.32 > 0.31 -> one level up
    g1 = {"id": "a", "options": {"level": 2, "opponent": "counter"},
          "wins": [True, False, False] * 4}
    g2 = {"id": "b", "options": {"level": 2, "opponent": "chi_fan"},
          "wins": [False, True, False] * 4}
    names, opts = run(opponents.choose_bots(FakeRepo([g2, g1]), 7, "adaptive"))
    assert opts["level"] == 3 and opts["hands"] == 24
    # the opponent is the tier-3 personality met least (none yet): the first of the tier
    tier3 = [p.id for p in by_tier(3)]
    assert opts["opponent"] == tier3[0] == names[0]
    assert set(names) <= set(tier3) and len(names) == 3


def test_adaptive_starts_a_new_player_at_L2_and_steps_down_after_few_wins():
    names, opts = run(opponents.choose_bots(FakeRepo([]), 7, "adaptive"))
    assert opts["level"] == 2 and names[0] in {p.id for p in by_tier(2)}
    # 3 wins in 24 at L3 -> (3+1)/28 = 0.14 < 0.19 -> one level down
    g = {"id": "c", "options": {"level": 3, "opponent": "purist"},
         "wins": [True] * 3 + [False] * 21}
    _, opts = run(opponents.choose_bots(FakeRepo([g]), 7, "adaptive"))
    assert opts["level"] == 2


def test_adaptive_seats_a_struggling_player_at_the_practice_table_and_reads_it_back():
    # docs/bots.md: 2 wins in 24 at L1 -> 3/28 = 0.11 < 0.19 -> one down, to the
    # practice table: a tier-1 personality and two bots that play at random
    g = {"id": "p", "options": {"level": 1, "opponent": "newbie"},
         "wins": [True] * 2 + [False] * 22}
    names, opts = run(opponents.choose_bots(FakeRepo([g]), 7, "adaptive"))
    assert opts["level"] == 0
    assert names[0] in {p.id for p in by_tier(1)} and names[1:] == ["random", "random"]
    # a stored practice game (level 0) counts: 12 wins in 24 -> 13/28 = 0.46 -> two up
    practice = {"id": "q", "options": {"level": 0, "opponent": names[0]},
                "wins": [True, False] * 12}
    names, opts = run(opponents.choose_bots(FakeRepo([practice, g]), 7, "adaptive"))
    assert opts["level"] == 2 and opts["hands"] == 24


# -- a whole game: hands revealed at the end, hidden before, replay afterwards ----------------
async def play_game(c: Client, timeout=HANG) -> dict:
    """Answer every decision until the game ends; the ``game_end``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    if c.my_decision():
        await c.act(simple_policy(c.obs))
    while True:
        m = await c.recv(max(0.01, end - loop.time()))
        if m["type"] == "game_end":
            return m
        if m["type"] in ("update", "snapshot") and c.my_decision():
            await c.act(simple_policy(c.obs))


def _my_game(live, bots="L2"):
    token = live.guest()
    seat = live.http("POST", "/api/v1/rooms", token, json={"bots": bots, "rounds": 1}).json()
    live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token)
    return token, seat


def test_hands_are_revealed_at_the_end_only_and_a_finished_game_replays(live):
    token, seat = _my_game(live)
    gid = seat["game_id"]

    async def go():
        c = await Client.open(live, token)
        c.seat = seat["seat"]
        await c.send({"type": "join", "ticket": seat["ticket"]})
        await c.expect("snapshot")
        running = live.http("GET", f"/api/v1/games/{gid}/replay?hand=1&seat=0")
        end = await play_game(c)
        await c.close()
        return c, running, end
    c, running, _ = run(go())
    me = seat["seat"]
    assert running.status_code == 409 and "still being played" in running.json()["error"]["message"]

    # nothing before a hand's end carries another seat's concealed tiles
    ends = [m for m in c.seen if m["type"] == "hand_end"]
    assert ends
    for m in c.seen:
        if m["type"] == "hand_end":
            continue
        obs = m.get("observation") or {}
        assert "hands" not in obs and "hands" not in m
        for ev in m.get("events", []):
            if ev["type"] == "deal":
                assert [h == "?" for h in ev["hands"]] == [i != me for i in range(4)]
            if ev["type"] == "draw" and ev["seat"] != me:
                assert ev["tile"] == "?"

    # at the end of each hand all four hands are shown, and they are the real ones:
    # as many tiles as each seat held, the winner's hand as the win event shows it
    hand_ends = []
    last_obs = None
    for m in c.seen:
        if m["type"] in ("update", "snapshot") and m.get("observation"):
            last_obs = m["observation"]
        if m["type"] == "hand_end":
            hand_ends.append((m, last_obs))
    for m, obs in hand_ends:
        hands = m["result"]["hands"]
        assert len(hands) == 4 and all(h is not None for h in hands)
        wins = {w["seat"]: w for w in m["result"].get("wins", [])}
        for s, h in enumerate(hands):
            n = len(parse_tiles(h["concealed"])) + (1 if s in wins and wins[s]["tile"] else 0)
            assert n == obs["concealed_count"][s]
            def shown(melds):
                return [x for x in melds if x["type"] != "concealed_kong"]
            assert shown(h["melds"]) == shown(obs["melds"][s])
            assert len(h["melds"]) == len(obs["melds"][s])
            assert all(x["tiles"] for x in h["melds"])       # 暗槓 turned up too
            assert h["flowers"] == obs["flowers"][s]
        mine = parse_tiles(obs["hand"] + (obs["drawn"] or ""))
        if me in wins:
            mine.remove(parse_tiles(wins[me]["tile"])[0])
        assert sorted(parse_tiles(hands[me]["concealed"])) == sorted(mine)
        for s, w in wins.items():
            assert sorted(parse_tiles(hands[s]["concealed"])) == sorted(parse_tiles(w["hand"]["concealed"]))

    # the replay of hand 1 from my seat: a frame after the deal and after each decision;
    # every observation the live client was sent is among them, in order
    r = live.http("GET", f"/api/v1/games/{gid}/replay?hand=1&seat={me}")
    assert r.status_code == 200, r.text
    rep = r.json()
    record = live.http("GET", f"/api/v1/games/{gid}").json()
    hand1 = record["hands"][0]
    assert rep["hand_no"] == 1
    assert len(rep["frames"]) == 1 + len(hand1["actions"])
    first_end = c.seen.index(ends[0])
    live_obs = [m["observation"] for m in c.seen[:first_end]
                if m["type"] in ("update", "snapshot") and m.get("observation")]
    frames = [f["observation"] for f in rep["frames"]]
    i = 0
    for obs in live_obs:
        while i < len(frames) and frames[i] != obs:
            i += 1
        assert i < len(frames), "a live observation is missing from the replay"
    assert rep["frames"][-1]["result"] == ends[0]["result"]
    assert all("result" not in f for f in rep["frames"][:-1])
    deal = rep["frames"][0]["events"][0]
    assert deal["type"] == "deal"
    assert [h == "?" for h in deal["hands"]] == [i != me for i in range(4)]

    # a finished game may be watched from any seat
    other = (me + 1) % 4
    r2 = live.http("GET", f"/api/v1/games/{gid}/replay?hand=1&seat={other}").json()
    assert r2["frames"][0]["observation"]["seat"] == other
    assert r2["frames"][-1]["result"] == ends[0]["result"]
    missing = live.http("GET", f"/api/v1/games/{gid}/replay?hand=99&seat=0")
    assert missing.status_code == 404 and "hand 99" in missing.json()["error"]["message"]
    assert live.http("GET", f"/api/v1/games/{gid}/replay?hand=1&seat=4").status_code == 422


# -- every seat's clock -----------------------------------------------------------------------
def test_a_seats_clock_shows_others_only_its_turns():
    s = SeatState(account_id=1, name="a", bot=None, clock=TurnClock(5.0, 20.0))
    s.new_hand()
    # a claim decision: 12 s, so 7 s of bank spent; the player sees it, others do not
    s.clock.start(0.0)
    s.public_decision = False
    assert s.clock_for(False, 3.0) == {"base": 5.0, "bank": 20.0, "running": False}
    assert s.clock_for(True, 3.0) == {"base": 2.0, "bank": 20.0, "running": True}
    s.stop_clock(12.0)
    assert s.clock_for(True, 12.0) == {"base": 5.0, "bank": 13.0, "running": False}
    assert s.clock_for(False, 12.0) == {"base": 5.0, "bank": 20.0, "running": False}
    # its own turn (public): 8 s in, 3 s of bank gone — others count down from 20 - 3
    s.clock.start(100.0)
    s.public_decision = True
    assert s.clock_for(False, 108.0) == {"base": 0.0, "bank": 17.0, "running": True}
    assert s.clock_for(True, 108.0) == {"base": 0.0, "bank": 10.0, "running": True}
    s.stop_clock(108.0)
    assert s.clock_for(False, 109.0)["bank"] == 17.0
    bot = SeatState(account_id=None, name="bot:L2", bot="L2", clock=TurnClock(5.0, 20.0))
    assert bot.clock_for(False, 0.0) is None


def test_every_seat_sees_each_clock_but_never_who_may_claim(live):
    host = live.guest()
    friend = live.guest()
    seat = live.http("POST", "/api/v1/rooms", host, json={"bots": "L1"}).json()
    fseat = live.http("POST", f"/api/v1/rooms/{seat['code']}/join", friend).json()
    live.http("POST", f"/api/v1/rooms/{seat['code']}/start", host)

    async def go():
        a = await Client.open(live, host)
        b = await Client.open(live, friend)
        a.seat, b.seat = seat["seat"], fseat["seat"]
        await a.send({"type": "join", "ticket": seat["ticket"]})
        await b.send({"type": "join", "ticket": fseat["ticket"]})
        await a.expect("snapshot")
        await b.expect("snapshot")
        await asyncio.gather(a.play_hand(), b.play_hand())
        await a.close()
        await b.close()
        return a, b
    a, b = run(go())
    for c, other in ((a, b.seat), (b, a.seat)):
        msgs = [m for m in c.seen if m["type"] in ("update", "snapshot") and m.get("observation")]
        assert all(len(m["clocks"]) == 4 for m in msgs)
        bots = [i for i in range(4) if i not in (a.seat, b.seat)]
        assert all(m["clocks"][i] is None for m in msgs for i in bots)
        saw_other_running = False
        for m in msgs:
            theirs, obs = m["clocks"][other], m["observation"]
            assert set(theirs) == {"base", "bank", "running"}
            if theirs["running"]:
                saw_other_running = True
                # only on the other's turn, while nobody else decides
                assert obs["phase"] == "turn" and "legal" not in obs
            if obs.get("legal") and not any(x["type"] == "discard" for x in obs["legal"]):
                assert not theirs["running"]          # a claim window: nothing to read
            mine = m["clocks"][c.seat]
            assert mine["running"] == (m["timer"] is not None)
        assert saw_other_running

"""Ending an unfinished table is the player's choice (認輸): alone with bots the
game ends now (settled hands stand, the hand in play is void, stored finished and
marked forfeited, the forfeiter ranked last); with other people the seat's bot
plays it to the end and the account holds it no more; the table cap counts only
what a player still holds, and its refusal says what to do."""

from __future__ import annotations

import asyncio

from server_helpers import Client
from test_redis_cluster import cluster  # noqa: F401  (the fixture)
from test_server_play import quick_match, stored
from test_social import befriend, two_at_a_room


def run(coro):
    return asyncio.run(coro)


async def _alone(live, token: str, mode: str = "casual") -> Client:
    c = await Client.open(live, token)
    await c.send({"type": "quick_match", "mode": mode, "stake": "low"})
    await c.expect("matched")
    await c.expect("snapshot")
    return c


def test_forfeit_alone_at_a_bot_table_ends_the_game_the_hand_in_play_void(make_live,
                                                                          db_url):
    live = make_live(turn_base=60.0, hand_pause=600.0)
    token = live.register("阿明")

    async def go():
        a = await _alone(live, token, "ranked")
        first = await a.play_hand()                      # hand 1 is settled and stands
        await a.send({"type": "ready"})
        await a.expect("hand_start", hand_no=2)
        r = await asyncio.to_thread(live.http, "POST", f"/api/v1/games/{a.game_id}/forfeit",
                                    token)
        assert r.status_code == 200, r.text
        end = await a.expect("game_end", timeout=60)
        await a.close()
        return a, first, r, end

    a, first, r, end = run(go())
    assert r.status_code == 200 and r.json() == {"game_id": a.game_id, "outcome": "ended"}
    assert end["ended"] == "forfeited" and end["aborted"] is False
    assert end["ranks"][a.seat] == 4                      # the forfeiter ranks last
    assert end["rating"]["after"][a.seat] < end["rating"]["before"][a.seat]
    assert end["scores"] == first["result"].get("scores", end["scores"])

    async def look(repo):
        row = await repo.game(a.game_id)
        acc_id = await repo.games_of_seat(a.game_id, a.seat)
        return row, (await repo.account(acc_id))["coins"]
    row, coins = run(stored(db_url, look))
    assert row["status"] == "finished"
    assert row["result"]["ended"] == "forfeited" and row["result"]["forfeited"] == [a.seat]
    assert coins == 10_000 + first["result"]["net"][a.seat]      # hand 2 moved nothing
    games = live.http("GET", "/api/v1/games", token).json()["games"]
    mine = next(g for g in games if g["game_id"] == a.game_id)
    assert mine["forfeited"] is True and "ticket" not in mine
    assert mine["status"] == "finished"
    again = live.http("POST", f"/api/v1/games/{a.game_id}/forfeit", token)
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"
    assert live.server.tables.get(a.game_id) is None      # the directory let it go
    other = live.http("POST", f"/api/v1/games/{a.game_id}/forfeit", live.guest())
    assert other.status_code == 404 and other.json()["error"]["code"] == "no_game"
    nothing = live.http("POST", "/api/v1/games/g_nosuchgame/forfeit", token)
    assert nothing.status_code == 404 and nothing.json()["error"]["code"] == "no_game"
    assert live.http("POST", f"/api/v1/games/{a.game_id}/forfeit").status_code == 401


def test_forfeit_with_another_person_seated_gives_the_seat_to_its_bot(make_live, db_url):
    live = make_live(turn_base=60.0, hand_pause=0.05, max_active_tables=1)

    async def go():
        a, b = await quick_match(live, 2)
        r = await asyncio.to_thread(live.http, "POST", f"/api/v1/games/{a.game_id}/forfeit",
                                    a.token)
        told = await a.expect("error", code="forfeited")
        seen = await b.expect("presence", seat=a.seat, forfeited=True)
        end = await b.play_hand()                       # a's bot plays a's seat with b
        again = await asyncio.to_thread(
            live.http, "POST", f"/api/v1/games/{a.game_id}/forfeit", a.token)
        games = await asyncio.to_thread(live.http, "GET", "/api/v1/games", a.token)
        back = await Client.open(live, a.token)
        await back.send({"type": "join", "ticket": a.ticket})
        refused = await back.expect("error")
        # the seat given up holds no place under the cap (1 here): a new table is allowed
        await back.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        await back.expect("matched")
        await back.close()
        # the last person gives up too: now the game ends
        last = await asyncio.to_thread(live.http, "POST",
                                       f"/api/v1/games/{b.game_id}/forfeit", b.token)
        over = await b.expect("game_end")
        for c in (a, b):
            await c.close()
        return a, b, r, told, seen, end, again, games, refused, last, over

    a, b, r, told, seen, end, again, games, refused, last, over = run(go())
    assert r.status_code == 200 and r.json()["outcome"] == "bot_plays"
    assert "認輸" in told["message"]
    assert seen["bot"] is True and seen["forfeited"] is True
    assert end["type"] == "hand_end"
    assert again.status_code == 200 and again.json()["outcome"] == "bot_plays"
    mine = next(g for g in games.json()["games"] if g["game_id"] == a.game_id)
    assert mine["forfeited"] is True and "ticket" not in mine and mine["status"] == "active"
    assert refused["code"] == "forfeited"
    assert last.json()["outcome"] == "ended"
    assert over["ended"] == "forfeited" and over["ranks"][a.seat] >= 3 \
        and over["ranks"][b.seat] >= 3

    async def look(repo):
        return await repo.game(a.game_id)
    row = run(stored(db_url, look))
    assert row["status"] == "finished"
    assert sorted(row["result"]["forfeited"]) == sorted([a.seat, b.seat])
    assert row["seats"][a.seat]["forfeited"] is True


def test_the_table_cap_refusal_says_what_to_do_and_a_forfeit_frees_a_place(make_live):
    live = make_live(max_active_tables=1, turn_base=60.0, create_rate=100.0,
                     create_burst=100)
    token = live.guest()

    async def go():
        a = await _alone(live, token)
        await a.close()
        b = await Client.open(live, token)
        await b.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        refused = await b.expect("error")
        r = await asyncio.to_thread(live.http, "POST", f"/api/v1/games/{a.game_id}/forfeit",
                                    token)
        await b.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        matched = await b.expect("matched")
        await b.close()
        return refused, r, matched

    refused, r, matched = run(go())
    assert refused["code"] == "too_many_tables"
    assert "forfeit" in refused["message"] and "GET /api/v1/games" in refused["message"]
    assert r.json()["outcome"] == "ended"
    assert matched["game_id"]


def test_a_forfeit_sent_to_another_worker_is_decided_by_the_table_s_owner(cluster, db_url):
    p1 = cluster(turn_base=60.0)
    p2 = cluster(turn_base=60.0)
    token = p1.register("阿華")

    async def go():
        a = await _alone(p1, token)
        owners = [lv for lv in (p1, p2) if lv.server.tables.get(a.game_id) is not None]
        asker = p2 if owners == [p1] else p1
        r = await asyncio.to_thread(asker.http, "POST",
                                    f"/api/v1/games/{a.game_id}/forfeit", token)
        end = await a.expect("game_end")
        again = await asyncio.to_thread(asker.http, "POST",
                                        f"/api/v1/games/{a.game_id}/forfeit", token)
        await a.close()
        return owners, r, end, again

    owners, r, end, again = run(go())
    assert len(owners) == 1
    assert r.status_code == 200 and r.json()["outcome"] == "ended"
    assert end["ended"] == "forfeited"
    assert again.status_code == 409


def test_a_forfeited_seat_s_connection_sits_nowhere_and_friends_see_the_lobby(make_live):
    """The connection still open at a seat given up is told ``forfeited``; from then on
    it is at no table: friends see the player in the lobby (it used to stay "table"
    with the game, inviting a watch of a seat that is not theirs), and a move sent on it
    is refused as not seated, not taken for the bot's seat."""
    live = make_live(turn_base=60.0, hand_pause=0.05)
    ta, tb, tf = live.register("認輸甲"), live.register("同桌乙"), live.register("朋友丙")
    befriend(live, ta, tf)

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        before = live.http("GET", "/api/v1/friends", tf).json()["friends"]
        r = await asyncio.to_thread(live.http, "POST", f"/api/v1/games/{a.game_id}/forfeit", ta)
        await a.expect("error", code="forfeited")
        after = live.http("GET", "/api/v1/friends", tf).json()["friends"]
        await a.send({"type": "action", "action": {"type": "pass"}})
        refused = await a.expect("error")
        for c in (a, b):
            await c.close()
        return before, r, after, refused

    before, r, after, refused = run(go())
    assert r.json()["outcome"] == "bot_plays"
    assert before == [{"name": "認輸甲", "status": "table", "game_id": before[0]["game_id"]}]
    assert after == [{"name": "認輸甲", "status": "lobby"}]
    assert refused["code"] == "not_seated"

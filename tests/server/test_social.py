"""Table talk (快捷語, 表情), its limits, block and mute on the server, bots' lines,
friends, and invitations — through the real app and real WebSockets."""

from __future__ import annotations

import asyncio

from server_helpers import Client, simple_policy

from twmahjong.server.social.talk import BOT_LINES, EMOTES, PHRASES, PLAIN_LINES


def run(coro):
    return asyncio.run(coro)


def befriend(live, a: str, b: str) -> None:
    """``a`` asks, ``b`` accepts (tokens of two registered accounts)."""
    name_b = live.http("GET", "/api/v1/me", b).json()["name"]
    name_a = live.http("GET", "/api/v1/me", a).json()["name"]
    r = live.http("POST", "/api/v1/friends", a, json={"name": name_b})
    assert r.status_code == 200 and r.json()["state"] == "sent", r.text
    r = live.http("POST", f"/api/v1/friends/{name_a}/accept", b)
    assert r.status_code == 200, r.text


async def two_at_a_room(live, ta: str, tb: str, **room):
    """A opens a room (bots fill), B joins, A starts it; both seated, snapshots read."""
    r = live.http("POST", "/api/v1/rooms", ta, json={"bots": "L1", **room})
    assert r.status_code == 201, r.text
    sa = r.json()
    sb = live.http("POST", f"/api/v1/rooms/{sa['code']}/join", tb).json()
    assert live.http("POST", f"/api/v1/rooms/{sa['code']}/start", ta).status_code == 200
    a, b = await Client.open(live, ta, "A"), await Client.open(live, tb, "B")
    for c, s in ((a, sa), (b, sb)):
        c.seat, c.game_id = s["seat"], s["game_id"]
        await c.send({"type": "join", "ticket": s["ticket"]})
        await c.expect("snapshot")
    return a, b


def test_the_catalogue_has_phrases_in_two_languages_and_two_voices(live):
    cat = live.http("GET", "/api/v1/talk").json()
    assert 16 <= len(cat["phrases"]) <= 24 and len(cat["emotes"]) == 8
    for p in cat["phrases"]:
        assert p["zh"] and p["en"] and p["nan"] and p["cmn"] and p["clip"] == f"phrase_{p['id']}"
        assert p["kind"] in ("polite", "teasing", "celebratory")
    assert {p["kind"] for p in cat["phrases"]} == {"polite", "teasing", "celebratory"}
    # every personality has lines of its own at its three moments, all from the catalogue
    from twmahjong.server.play.opponents import catalogue
    ids = [p["id"] for p in catalogue()["personalities"]]
    assert sorted(BOT_LINES) == sorted(ids) and len(ids) == 16
    for lines in BOT_LINES.values():
        assert set(lines) == {"win", "deal_in", "long_wait"}
        assert all(p in PHRASES for moment in lines.values() for p in moment)
    assert len({tuple(sorted(map(tuple, v.values()))) for v in BOT_LINES.values()}) == 16


def test_a_phrase_and_an_emote_reach_every_seat_and_bad_talk_changes_nothing(make_live):
    live = make_live(talk_rate=0.01, talk_burst=3)
    ta, tb = live.register("說話甲"), live.register("說話乙")

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        await a.send({"type": "talk", "phrase": "hello"})
        got = await b.expect("talk")
        assert got == {"v": 1, "type": "talk", "seat": a.seat, "phrase": "hello",
                       "emote": None, "bot": False}
        await b.send({"type": "talk", "emote": "thumbs"})
        assert (await a.expect("talk", seat=b.seat))["emote"] == "thumbs"
        await b.expect("talk", seat=b.seat, emote="thumbs")     # B hears itself too
        # free text, unknown ids, both or neither: one clear error each, nothing said
        for bad, code in (({"phrase": "你好爛"}, "unknown_phrase"),
                          ({"emote": "poop"}, "unknown_emote"),
                          ({"phrase": "hello", "emote": "cry"}, "bad_message"),
                          ({}, "bad_message"),
                          ({"text": "free text"}, "bad_message")):
            await a.send({"type": "talk", **bad})
            assert (await a.expect("error"))["code"] == code
        # the limit: 3 at once (one used above), then talk_too_fast
        await a.send({"type": "talk", "phrase": "thanks"})
        await a.send({"type": "talk", "phrase": "gg"})
        await a.send({"type": "talk", "phrase": "bye"})
        err = await a.expect("error")
        assert err["code"] == "talk_too_fast"
        # B heard hello, thanks, gg from A — never bye, nor any of the refused ones
        await b.send({"type": "talk", "emote": "tea"})       # a marker after them all
        heard = []
        while True:
            m = await b.expect("talk")
            if m["seat"] == b.seat:
                break
            heard.append(m["phrase"])
        assert heard == ["thanks", "gg"]
        assert [m["phrase"] for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat] \
            == ["hello", "thanks", "gg"]
        await a.close()
        await b.close()
    run(go())


def test_a_blocked_player_s_phrases_never_arrive_and_mute_is_kept_by_the_server(make_live):
    live = make_live(talk_rate=0.01, talk_burst=400)
    ta, tb = live.register("擋人甲"), live.register("擋人乙")

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        # B mutes A's seat: A's line does not reach B, B's own still does
        await b.send({"type": "mute", "seats": [a.seat]})
        await b.send({"type": "ping"})
        await b.expect("pong")
        await a.send({"type": "talk", "phrase": "hurry"})
        await a.expect("talk", seat=a.seat)              # the table said it
        await b.send({"type": "talk", "emote": "cool"})
        await b.expect("talk", seat=b.seat)
        assert not [m for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat]
        await b.send({"type": "mute", "seats": []})       # hear everyone again
        await b.send({"type": "ping"})
        await b.expect("pong")
        await a.send({"type": "talk", "phrase": "nice_tile"})
        assert (await b.expect("talk", seat=a.seat))["phrase"] == "nice_tile"
        # B blocks A (HTTP): from then on nothing A says reaches B
        r = live.http("POST", "/api/v1/friends/擋人甲/block", tb)
        assert r.status_code == 200 and r.json()["state"] == "blocked"
        for _ in range(100):        # the block list reaches B's connection by a notice
            await a.send({"type": "talk", "emote": "laugh"})
            await a.expect("talk", seat=a.seat)
            await b.send({"type": "talk", "emote": "fire"})
            m = await b.expect("talk")
            if m["seat"] == b.seat:
                break
            await b.expect("talk", seat=b.seat)
        before = len([m for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat])
        for phrase in ("no_way", "careful", "lucky"):
            await a.send({"type": "talk", "phrase": phrase})
            await a.expect("talk", seat=a.seat, phrase=phrase)
        await b.send({"type": "talk", "emote": "shock"})
        await b.expect("talk", seat=b.seat, emote="shock")
        after = [m for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat]
        assert len(after) == before
        assert live.http("GET", "/api/v1/friends", tb).json()["blocked"] == ["擋人甲"]
        await a.close()
        await b.close()
    run(go())


def test_watchers_count_is_shown_and_a_watcher_cannot_talk(make_live):
    live = make_live()
    ta, tb, tw = live.register("桌主甲"), live.register("桌友乙"), live.register("看客丙")
    befriend(live, ta, tw)

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        w = await Client.open(live, tw, "W")
        friends = live.http("GET", "/api/v1/friends", tw).json()["friends"]
        assert friends == [{"name": "桌主甲", "status": "table", "game_id": a.game_id}]
        await w.send({"type": "watch", "game_id": a.game_id})
        got = await w.expect("watching")
        assert got["delay"] == 4 and got["table"]["game_id"] == a.game_id
        assert (await a.expect("watchers"))["count"] == 1
        await w.send({"type": "talk", "phrase": "hello"})
        assert (await w.expect("error"))["code"] == "watcher_silent"
        # B is not W's friend: watching B's table alone would be refused; a stranger too
        tx = live.register("陌生人")
        x = await Client.open(live, tx, "X")
        await x.send({"type": "watch", "game_id": a.game_id})
        assert (await x.expect("error"))["code"] == "not_friends"
        guest = await Client.open(live, live.guest(), "G")
        await guest.send({"type": "watch", "game_id": a.game_id})
        assert (await guest.expect("error"))["code"] == "guest"
        await w.close()
        assert (await b.expect("watchers", count=0))["count"] == 0
        for c in (a, b, x, guest):
            await c.close()
    run(go())


def test_a_host_may_forbid_watching(make_live):
    live = make_live()
    ta, tb, tw = live.register("禁看甲"), live.register("禁看乙"), live.register("禁看丙")
    befriend(live, ta, tw)

    async def go():
        a, b = await two_at_a_room(live, ta, tb, watch=False)
        assert a.seen[-1]["table"]["watchable"] is False
        w = await Client.open(live, tw, "W")
        await w.send({"type": "watch", "game_id": a.game_id})
        assert (await w.expect("error"))["code"] == "watch_forbidden"
        for c in (a, b, w):
            await c.close()
    run(go())


def test_a_forbidden_watcher_is_not_shown_watching(make_live):
    """Old server: after ``watch_forbidden`` the would-be watcher's friends still
    saw them as "watching" that game."""
    live = make_live()
    ta, tb, tw = live.register("禁看丁"), live.register("禁看戊"), live.register("禁看己")
    befriend(live, ta, tw)

    async def go():
        a, b = await two_at_a_room(live, ta, tb, watch=False)
        w = await Client.open(live, tw, "W")
        await w.send({"type": "watch", "game_id": a.game_id})
        assert (await w.expect("error"))["code"] == "watch_forbidden"
        await w.send({"type": "ping"})
        await w.expect("pong")
        friends = live.http("GET", "/api/v1/friends", ta).json()["friends"]
        assert friends == [{"name": "禁看己", "status": "lobby"}], friends
        for c in (a, b, w):
            await c.close()
    run(go())


def test_watching_connections_are_capped_per_account_and_per_table(make_live):
    """Old server: one account watched one table from 61 connections, no limit."""
    live = make_live(watch_per_account=2, watchers_per_table=3)
    ta, tb = live.register("多看甲"), live.register("多看乙")
    tw, tv = live.register("多看丙"), live.register("多看丁")
    befriend(live, ta, tw)
    befriend(live, ta, tv)

    async def answer(c):                 # the reply to a watch: watching, or why not
        while (m := await c.recv())["type"] not in ("watching", "error"):
            pass
        return m

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        ws = [await Client.open(live, tw, f"W{i}") for i in range(3)]
        for w in ws[:2]:
            await w.send({"type": "watch", "game_id": a.game_id})
            await w.expect("watching")
        await ws[2].send({"type": "watch", "game_id": a.game_id})
        err = await answer(ws[2])
        assert err.get("code") == "watch_limit" and "close one" in err["message"], err
        # another account: one more fits the table's cap of 3, the next does not
        vs = [await Client.open(live, tv, f"V{i}") for i in range(2)]
        await vs[0].send({"type": "watch", "game_id": a.game_id})
        await vs[0].expect("watching")
        await vs[1].send({"type": "watch", "game_id": a.game_id})
        assert (await answer(vs[1])).get("code") == "watch_full"
        assert (await a.expect("watchers", count=3))["count"] == 3
        # one leaves: a place is free again
        await ws[0].send({"type": "unwatch"})
        await a.expect("watchers", count=2)
        await vs[1].send({"type": "watch", "game_id": a.game_id})
        await vs[1].expect("watching")
        for c in (a, b, *ws, *vs):
            await c.close()
    run(go())


def test_bots_speak_their_own_lines_at_their_moments(make_live):
    """With bot_talk 1 every moment gets a line; each is one of that bot's own: a long
    wait on the person's turn, then each bot's win and each bot's deal-in."""
    live = make_live(bot_talk=1.0, bot_talk_gap=0.0, turn_base=0.3, turn_bank=600.0,
                     hand_pause=0.05)
    token = live.register("聽牌人")

    async def go():
        r = live.http("POST", "/api/v1/rooms", token, json={"bots": None})
        seat = r.json()
        live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token)
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": seat["ticket"]})
        snap = await c.expect("snapshot")
        personas = {i: s["persona"]["id"] for i, s in enumerate(snap["table"]["seats"])
                    if s.get("persona")}
        assert len(personas) == 3
        # the person does not discard: their turn runs past its base (a long wait). A
        # claim or 天聽 window they could use is passed at once — the room's seed is the
        # server's, and such a window would wait out the person's 600 s bank unheard
        # (a long wait in a window is never said: it would tell who may claim)
        while True:
            said = await c.recv()
            if said["type"] in ("update", "snapshot"):
                if any(a["type"] == "pass" for a in c.my_decision() or []):
                    await c.act({"type": "pass"})
                continue
            if said["type"] != "talk":
                continue
            own = BOT_LINES[personas[said["seat"]]]
            assert said["bot"] is True
            assert said["phrase"] in {p for lines in own.values() for p in lines}
            if said["phrase"] in own["long_wait"] and c.my_decision():
                break
        # 託管 plays on to the end: after each hand, its bots' own win / deal-in lines
        await c.send({"type": "auto", "on": True})
        await c.expect("game_end")
        return personas, c.seen
    personas, seen = run(go())
    checked = 0
    for k, m in enumerate(seen):
        if m["type"] != "hand_end" or m["result"]["type"] != "win":
            continue
        res = m["result"]
        after = [t for t in seen[k + 1:k + 6] if t["type"] == "talk"]
        moments = [(w, "win") for w in res["winners"] if w in personas]
        if res.get("payer") in personas and not res.get("self_drawn"):
            moments.append((res["payer"], "deal_in"))
        for who, moment in moments:
            assert any(t["seat"] == who and t["phrase"] in BOT_LINES[personas[who]][moment]
                       for t in after), (moment, who, after)
            checked += 1
    assert checked, "no bot won or dealt in over a whole game"
    assert all(p in PHRASES for lines in PLAIN_LINES.values() for p in lines)
    assert "thumbs" in EMOTES


def test_a_person_back_at_the_table_during_their_turn_hears_the_grumble(make_live):
    """A bot's long-wait line said while the person was away reached nobody: arriving
    during that same turn, the base is counted again from the arrival, so the bot says
    it to them. (A terminal whose connection came after its first turn began waited
    for that line in vain.)"""
    live = make_live(bot_talk=1.0, bot_talk_gap=0.0, turn_base=0.3, turn_bank=600.0,
                     disconnect_grace=600.0, pause_after=600.0)
    token = live.register("回座人")
    grumble = set(PLAIN_LINES["long_wait"])          # an L1 bot has no persona's lines

    def is_grumble(m: dict) -> bool:
        return m["type"] == "talk" and m["bot"] and m["phrase"] in grumble

    async def go():
        seat = live.http("POST", "/api/v1/rooms", token, json={"bots": "L1"}).json()
        live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token)
        a = await Client.open(live, token)
        await a.send({"type": "join", "ticket": seat["ticket"]})
        await a.expect("snapshot")
        while not any(x["type"] == "discard" for x in a.my_decision() or []):
            if a.my_decision() and a.seen[-1]["type"] in ("update", "snapshot"):
                await a.act(simple_policy(a.obs))    # claims and 天聽 answered at once
            await a.recv()
        turn = a.turn
        while not is_grumble(a.seen[-1]):            # the turn's base has run out
            await a.recv()
        await a.close()                              # away, and back during the same turn
        back = await Client.open(live, token)
        await back.send({"type": "join", "ticket": seat["ticket"]})
        snap = await back.expect("snapshot")
        assert snap["turn"] == turn and back.my_decision()
        while not is_grumble(back.seen[-1]):
            await back.recv(60.0)                    # a guard: the line comes 0.3 s on
        assert back.turn == turn
        await back.close()
    run(go())


def test_friends_by_name_and_recent_tablemates_accept_decline_remove(make_live):
    live = make_live()
    ta, tb, tc = live.register("朋友甲"), live.register("朋友乙"), live.register("朋友丙")
    g = live.guest()
    # guests cannot have friends
    r = live.http("GET", "/api/v1/friends", g)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "guest"
    r = live.http("POST", "/api/v1/friends", ta, json={"name": "no-such-player"})
    assert r.status_code == 404 and r.json()["error"]["reason"] == "no_account"
    r = live.http("POST", "/api/v1/friends", ta, json={"name": "朋友甲"})
    assert r.status_code == 400 and r.json()["error"]["reason"] == "self"
    # ask, see it both ways, decline; ask again, accept
    assert live.http("POST", "/api/v1/friends", ta, json={"name": "朋友乙"}).json()["state"] == "sent"
    assert live.http("GET", "/api/v1/friends", tb).json()["incoming"] == ["朋友甲"]
    assert live.http("GET", "/api/v1/friends", ta).json()["outgoing"] == ["朋友乙"]
    assert live.http("POST", "/api/v1/friends/朋友甲/decline", tb).status_code == 200
    assert live.http("GET", "/api/v1/friends", ta).json()["outgoing"] == []
    r = live.http("POST", "/api/v1/friends/朋友甲/accept", tb)
    assert r.status_code == 404 and r.json()["error"]["reason"] == "no_request"
    befriend(live, ta, tb)
    listing = live.http("GET", "/api/v1/friends", ta).json()
    assert listing["friends"] == [{"name": "朋友乙", "status": "offline"}]
    r = live.http("POST", "/api/v1/friends", ta, json={"name": "朋友乙"})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "already_friends"
    # asking someone who asked you makes you friends at once
    live.http("POST", "/api/v1/friends", tc, json={"name": "朋友甲"})
    assert live.http("POST", "/api/v1/friends", ta, json={"name": "朋友丙"}).json()["state"] == "friends"
    assert live.http("DELETE", "/api/v1/friends/朋友丙", ta).status_code == 200
    assert [f["name"] for f in live.http("GET", "/api/v1/friends", tc).json()["friends"]] == []

    async def go():      # 最近同桌: after sitting together, each is in the other's list
        td = live.register("同桌丁")
        a, d = await two_at_a_room(live, tc, td)
        assert live.http("GET", "/api/v1/friends", tc).json()["recent"] == ["同桌丁"]
        r = live.http("POST", "/api/v1/friends", tc, json={"name": "同桌丁"})
        assert r.json()["state"] == "sent"
        assert (await d.expect("notice"))["data"] == {"from": "朋友丙"}
        await a.close()
        await d.close()
    run(go())


def test_an_invitation_notifies_joins_expires_and_can_be_declined(make_live):
    live = make_live(invite_ttl=30.0)
    ta, tb = live.register("邀請甲"), live.register("邀請乙")
    stranger = live.register("路人")
    befriend(live, ta, tb)

    async def go():
        b = await Client.open(live, tb, "B")
        assert live.http("GET", "/api/v1/friends", ta).json()["friends"][0]["status"] == "lobby"
        room = live.http("POST", "/api/v1/rooms", ta, json={}).json()
        r = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta,
                      json={"name": "路人"})
        assert r.status_code == 403 and r.json()["error"]["reason"] == "not_friends"
        r = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", stranger,
                      json={"name": "邀請乙"})
        assert r.status_code == 403
        # decline: the host is told
        a = await Client.open(live, ta, "A")
        r = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "邀請乙"})
        assert r.status_code == 201, r.text
        note = await b.expect("notice", kind="invite")
        assert note["data"]["from"] == "邀請甲" and note["data"]["code"] == room["code"]
        assert 0 < note["data"]["expires_in"] <= 30
        r = live.http("POST", f"/api/v1/invites/{note['data']['id']}/decline", tb)
        assert r.status_code == 200
        assert (await a.expect("notice", kind="invite_declined"))["data"]["from"] == "邀請乙"
        r = live.http("POST", f"/api/v1/invites/{note['data']['id']}/accept", tb)
        assert r.status_code == 410 and r.json()["error"]["reason"] == "invite_expired"
        # invite again and join from it: B sits in the room
        live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "邀請乙"})
        note = await b.expect("notice", kind="invite")
        assert [i["id"] for i in live.http("GET", "/api/v1/invites", tb).json()["invites"]] \
            == [note["data"]["id"]]
        seat = live.http("POST", f"/api/v1/invites/{note['data']['id']}/accept", tb).json()
        assert seat["room"]["players"][:2] == ["邀請甲", "邀請乙"] and seat["seat"] == 1
        await a.close()
        await b.close()
    run(go())


def test_an_invitation_expires(make_live):
    live = make_live(invite_ttl=0.3)
    ta, tb = live.register("過期甲"), live.register("過期乙")
    befriend(live, ta, tb)
    room = live.http("POST", "/api/v1/rooms", ta, json={}).json()
    inv = live.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta,
                    json={"name": "過期乙"}).json()["invite"]
    deadline = inv["expires_in"]
    assert 0 < deadline <= 0.3
    while live.http("GET", "/api/v1/invites", tb).json()["invites"]:
        pass                                    # until the server says it is gone
    r = live.http("POST", f"/api/v1/invites/{inv['id']}/accept", tb)
    assert r.status_code == 410 and r.json()["error"]["reason"] == "invite_expired"
    assert live.http("GET", f"/api/v1/rooms/{room['code']}", ta).json()["room"]["players"][1] is None


def test_social_messages_are_the_models_output_byte_for_byte():
    from twmahjong.server.net import protocol as P
    from twmahjong.server.social.talk import talk_message
    assert talk_message(2, phrase="hurry") == P.out(P.TalkOut(seat=2, phrase="hurry", emote=None))
    assert talk_message(1, emote="tea", bot=True) == \
        P.out(P.TalkOut(seat=1, phrase=None, emote="tea", bot=True))
    assert P.message("watchers", count=3) == P.out(P.Watchers(count=3))
    assert P.message("watching", game_id="g", table={"seats": []}, delay=4) == \
        P.out(P.Watching(game_id="g", table={"seats": []}, delay=4))
    frame = {"hand_no": 1, "turn": 4, "view": {"phase": "turn"}, "events": [], "scores": [0] * 4}
    assert P.message("watch", **frame) == P.out(P.WatchFrame(**frame))


def test_bad_social_messages_get_one_error_each_and_change_nothing(make_live):
    live = make_live()
    token = live.register("亂送的人")
    guest = live.guest()

    async def go():
        c = await Client.open(live, token)
        g = await Client.open(live, guest)
        for bad, code in (
                ({"type": "talk", "phrase": "hello"}, "not_seated"),         # in the lobby
                ({"type": "talk", "phrase": "x" * 33}, "bad_message"),
                ({"type": "talk", "phrase": 7}, "bad_message"),
                ({"type": "mute", "seats": [4]}, "bad_message"),
                ({"type": "mute", "seats": [0, 1, 2, 3, 0]}, "bad_message"),
                ({"type": "mute"}, "bad_message"),
                ({"type": "watch"}, "bad_message"),
                ({"type": "watch", "game_id": "g_nothing"}, "no_table"),
                ({"type": "watch", "game_id": "g" * 65}, "bad_message"),
                ({"type": "unwatch", "game_id": "g"}, "bad_message")):
            await c.send(bad)
            err = await c.expect("error")
            assert err["code"] == code, (bad, err)
        await g.send({"type": "watch", "game_id": "g_nothing"})
        assert (await g.expect("error"))["code"] == "guest"
        await c.send({"type": "unwatch"})              # watching nothing: nothing to do
        await c.send({"type": "ping"})
        assert (await c.expect("pong"))["type"] == "pong"
        assert not [m for m in c.seen if m["type"] not in ("welcome", "error", "pong")]
        await c.close()
        await g.close()
    run(go())
    # HTTP: bodies out of shape are 422, unknown names 404, every answer one error object
    for method, path, body, status in (
            ("POST", "/api/v1/friends", {"name": ""}, 422),
            ("POST", "/api/v1/friends", {"name": "x" * 41}, 422),
            ("POST", "/api/v1/friends", {"who": "a"}, 422),
            ("POST", "/api/v1/friends/nobody-here/accept", None, 404),
            ("DELETE", "/api/v1/friends/nobody-here", None, 404),
            ("DELETE", "/api/v1/blocks/nobody-here", None, 404),
            ("POST", "/api/v1/rooms/NOROOM/invite", {"name": "x"}, 404),
            ("POST", "/api/v1/invites/nope/accept", None, 410),
            ("POST", "/api/v1/invites/nope/decline", None, 410)):
        r = live.http(method, path, token, **({"json": body} if body is not None else {}))
        assert r.status_code == status, (path, r.text)
        assert set(r.json()) == {"error"} and r.json()["error"]["code"]
    assert live.http("GET", "/api/v1/friends").status_code == 401


def test_bots_speak_sparingly_never_twice_within_the_gap():
    import random

    from twmahjong.server.social.talk import BotTalk
    now = [0.0]
    talk = BotTalk(chance=0.3, gap=8.0, rng=random.Random(7), clock=lambda: now[0])
    said = []
    for step in range(2000):          # a moment every second
        now[0] = float(step)
        line = talk.line("shark", "win")
        if line is not None:
            said.append((step, line))
    gaps = [b[0] - a[0] for a, b in zip(said, said[1:])]
    assert gaps and min(gaps) >= 8                      # never within the gap
    assert 2000 / 8 * 0.2 < len(said) < 2000 / 8       # and not at every chance
    assert {line for _, line in said} <= set(BOT_LINES["shark"]["win"])
    assert BotTalk(0.0, 0.0, random.Random(1), lambda: 0.0).line("shark", "win") is None


def test_a_voice_pack_may_carry_a_clip_for_each_phrase(tmp_path):
    from twmahjong.server.net.voices import scan
    (tmp_path / "nan").mkdir()
    (tmp_path / "nan" / "phrase_hurry.ogg").write_bytes(b"OggS" + b"\x00" * 64)
    (tmp_path / "nan" / "phrase_free_text.ogg").write_bytes(b"OggS" + b"\x00" * 64)
    packs, problems = scan(tmp_path)
    assert packs == {"nan": {"phrase_hurry": "phrase_hurry.ogg"}}
    assert "phrase_free_text.ogg: not a call clip" in "\n".join(problems)

"""Table talk and friends across two workers on one Redis and one database: where a
friend is, invitations, talk and blocks, and 觀戰 — each made on one process and seen on
the other, as a load balancer would spread one group of friends."""

from __future__ import annotations

import asyncio
import time

from server_helpers import HANG, UNLIMITED_TALK, Client
from test_redis_cluster import cluster, owner_of  # noqa: F401  (the fixture)


def run(coro):
    return asyncio.run(coro)


def until(fn, what: str):
    """Ask again until ``fn()`` is truthy (Redis carries it between the workers)."""
    end = time.monotonic() + HANG
    while not (got := fn()):
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.05)
    return got


def friend_status(live, token: str, name: str) -> dict:
    for f in live.http("GET", "/api/v1/friends", token).json()["friends"]:
        if f["name"] == name:
            return f
    raise AssertionError(f"{name} is not a friend")


def test_friends_presence_invitations_talk_and_blocks_across_workers(cluster):  # noqa: F811
    # the block below is waited for by talking until it lands
    p1, p2 = cluster(**UNLIMITED_TALK), cluster(**UNLIMITED_TALK)
    ta, tb = p1.register("北邊甲"), p2.register("南邊乙")

    async def go():
        b = await Client.open(p2, tb, "B")               # B lives on process 2
        assert p1.http("POST", "/api/v1/friends", ta, json={"name": "南邊乙"}).status_code == 200
        note = await b.expect("notice", kind="friend_request")   # asked on process 1
        assert note["data"] == {"from": "北邊甲"}
        assert p2.http("POST", "/api/v1/friends/北邊甲/accept", tb).status_code == 200
        # process 1 sees B in the lobby of process 2
        until(lambda: friend_status(p1, ta, "南邊乙")["status"] == "lobby", "B in the lobby")
        assert friend_status(p2, tb, "北邊甲")["status"] == "offline"
        a = await Client.open(p1, ta, "A")
        until(lambda: friend_status(p2, tb, "北邊甲")["status"] == "lobby", "A in the lobby")
        # A invites B from process 1; B is told on process 2 and joins from it there
        room = p1.http("POST", "/api/v1/rooms", ta, json={"bots": "L1"}).json()
        r = p1.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "南邊乙"})
        assert r.status_code == 201, r.text
        inv = (await b.expect("notice", kind="invite"))["data"]
        assert inv["from"] == "北邊甲" and inv["code"] == room["code"]
        seat_b = p2.http("POST", f"/api/v1/invites/{inv['id']}/accept", tb).json()
        assert seat_b["seat"] == 1
        # a second invitation, declined on process 2: A hears it on process 1
        tc = p1.register("東邊丙")
        p1.http("POST", "/api/v1/friends", ta, json={"name": "東邊丙"})
        p1.http("POST", "/api/v1/friends/北邊甲/accept", tc)
        c = await Client.open(p2, tc, "C")
        p1.http("POST", f"/api/v1/rooms/{room['code']}/invite", ta, json={"name": "東邊丙"})
        inv_c = (await c.expect("notice", kind="invite"))["data"]
        assert p2.http("POST", f"/api/v1/invites/{inv_c['id']}/decline", tc).status_code == 200
        assert (await a.expect("notice", kind="invite_declined"))["data"]["from"] == "東邊丙"
        assert p1.http("POST", f"/api/v1/rooms/{room['code']}/start", ta).status_code == 200
        for cl, s in ((a, room), (b, seat_b)):
            cl.seat = s["seat"]
            await cl.send({"type": "join", "ticket": s["ticket"]})
            await cl.expect("snapshot")
        # at the table, seen from the other process (with the game, to watch it)
        st = until(lambda: (f := friend_status(p1, ta, "南邊乙"))["status"] == "table" and f,
                   "B at the table")
        assert st["game_id"] == room["game_id"]
        # talk crosses processes both ways
        await a.send({"type": "talk", "phrase": "hello"})
        assert (await b.expect("talk", seat=a.seat))["phrase"] == "hello"
        await b.send({"type": "talk", "emote": "thumbs"})
        assert (await a.expect("talk", seat=b.seat))["emote"] == "thumbs"
        await b.expect("talk", seat=b.seat, emote="thumbs")
        # C watches the game from process 2 (owned by one of them; relayed or not)
        await c.send({"type": "watch", "game_id": room["game_id"]})
        assert (await c.expect("watching"))["game_id"] == room["game_id"]
        assert (await a.expect("watchers", count=1))["count"] == 1
        # B blocks A through process 1; B's connection on process 2 drops A's talk
        assert p1.http("POST", "/api/v1/friends/北邊甲/block", tb).status_code == 200
        while True:              # until the block reached B's connection (a notice)
            await a.send({"type": "talk", "emote": "laugh"})
            await a.expect("talk", seat=a.seat, emote="laugh")
            await b.send({"type": "talk", "emote": "fire"})
            if (await b.expect("talk"))["seat"] == b.seat:
                break
            await b.expect("talk", seat=b.seat, emote="fire")
        heard = sum(1 for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat)
        await a.send({"type": "talk", "phrase": "no_way"})
        await a.expect("talk", seat=a.seat, phrase="no_way")
        await b.send({"type": "talk", "emote": "cool"})
        await b.expect("talk", seat=b.seat, emote="cool")
        assert sum(1 for m in b.seen if m["type"] == "talk" and m["seat"] == a.seat) == heard
        # the watcher on the other process gets the delayed public frames
        halts = [a.answer_in_background(), b.answer_in_background()]
        frame = await c.expect("watch")
        assert frame["turn"] >= 0 and "legal" not in str(frame)
        for halt in halts:
            await halt()
        for cl in (a, b, c):
            await cl.close()
        until(lambda: friend_status(p2, tc, "北邊甲")["status"] == "offline", "A gone")
    run(go())
    assert len(owner_of([p1, p2], room_game(p1, ta))) <= 1


def room_game(live, token: str) -> str:
    return live.http("GET", "/api/v1/games", token).json()["games"][0]["game_id"]

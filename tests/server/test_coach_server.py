"""教練 hints at the table: who may ask (the server decides), one answer per
decision, a limit per connection — through the real app and real WebSockets."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from server_helpers import Client
from test_redis_cluster import cluster, owner_of  # noqa: F401  (the fixture)

from twmahjong.server.play import coaching
from twmahjong.server.play.coaching import hints_allowed


@pytest.fixture
def db_url(tmp_path) -> str:
    """Hints touch no storage: SQLite alone (the table's own tests run both)."""
    return f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"


def run(coro):
    return asyncio.run(coro)


def _table(mode: str, bots: list[bool], **options) -> SimpleNamespace:
    seats = [SimpleNamespace(bot="L3" if b else None) for b in bots]
    return SimpleNamespace(meta={"mode": mode, "options": options}, seats=seats)


def test_who_may_ask_is_the_servers_rule():
    alone = [False, True, True, True]
    assert hints_allowed(_table("casual", alone), 0)             # a bot table
    assert not hints_allowed(_table("casual", alone), None)      # a watcher
    assert not hints_allowed(_table("ranked", alone), 0)         # 積分賽, even against bots
    assert not hints_allowed(_table("challenge", alone), 0)      # 挑戰賽
    people = [False, False, True, True]
    assert not hints_allowed(_table("casual", people), 0)        # quick match with people
    assert not hints_allowed(_table("casual", people, hints=False), 1)   # the host said no
    assert hints_allowed(_table("casual", people, hints=True), 1)        # the host said yes
    assert not hints_allowed(_table("ranked", people, hints=True), 1)


async def _my_decision(c: Client) -> dict:
    """Play on (simple moves) until this seat has a real choice; its observation.

    A decision already standing when this is called (a claim offered in the join's
    snapshot) is answered too: waiting for the next message left the table waiting
    for this seat, with a 600 s clock, until the socket was closed as idle."""
    from server_helpers import simple_policy
    answered = None
    while True:
        legal = c.my_decision() or []
        if len(legal) >= 2 and any(a["type"] == "discard" for a in legal):
            return c.obs
        if legal and c.turn != answered:
            answered = c.turn
            await c.act(simple_policy(c.obs))
        await c.recv()


def test_a_bot_table_gets_hints_once_per_decision_and_a_flood_is_refused(make_live):
    live = make_live(turn_base=600.0, hint_rate=0.01, hint_burst=4)
    token = live.register("學生")

    async def go():
        r = live.http("POST", "/api/v1/rooms", token, json={"bots": "L1"})
        assert r.status_code == 201 and r.json()["room"]["hints"] is False
        s = r.json()
        assert live.http("POST", f"/api/v1/rooms/{s['code']}/start", token).status_code == 200
        c = await Client.open(live, token, "A")
        await c.send({"type": "join", "ticket": s["ticket"]})
        snap = await c.expect("snapshot")
        assert snap["table"]["hints"] is True            # every other seat is a bot
        obs = await _my_decision(c)
        turn = c.turn
        before = coaching.CACHE.computed
        await c.send({"type": "hint", "turn": turn})
        got = await c.expect("hint")
        assert got["turn"] == turn
        h = got["hint"]
        assert h["choice"] in obs["legal"] and h["say"]["zh"] and h["say"]["en"]
        assert {t["tile"] for t in h["tiles"]} and all(
            t["risk"] in ("safe", "careful", "danger") for t in h["tiles"])
        await c.send({"type": "hint"})                   # the same decision: the cache
        again = await c.expect("hint")
        assert again == got and coaching.CACHE.computed == before + 1
        await c.send({"type": "hint", "turn": turn + 1000})
        assert (await c.expect("error"))["code"] == "stale"
        # a flood: refused past the burst, the connection open and the table going on
        for _ in range(10):
            await c.send({"type": "hint", "turn": turn})
        codes = [(await c.expect("error"))["code"] for _ in range(7)]
        assert codes == ["rate_limited"] * 7
        await c.act(h["choice"])
        nxt = await c.expect("update")
        assert nxt["turn"] > turn
        await c.close()
    run(go())


def test_hints_are_refused_where_the_rules_say_no(make_live):
    live = make_live(turn_base=600.0)
    from test_social import befriend, two_at_a_room
    ta, tw = live.register("房主甲"), live.register("朋友丙")
    tb, tr = live.guest(), live.guest()
    befriend(live, ta, tw)

    async def go():
        # a room with two people whose host did not allow hints, and a watcher of it
        a, b = await two_at_a_room(live, ta, tb)
        assert a.seen[-1]["table"]["hints"] is False and b.seen[-1]["table"]["hints"] is False
        await a.send({"type": "hint"})
        assert (await a.expect("error"))["code"] == "hints_off"
        w = await Client.open(live, tw, "W")
        await w.send({"type": "watch", "game_id": a.game_id})
        watching = await w.expect("watching")
        assert "hints" not in watching["table"]
        await w.send({"type": "hint"})
        assert (await w.expect("error"))["code"] == "hints_off"
        # the same with the host's permission: shown in the room and at the table
        r = live.http("POST", "/api/v1/rooms", tb, json={"bots": "L1", "hints": True})
        assert r.status_code == 201 and r.json()["room"]["hints"] is True
        # ranked against bots: never
        rk = await Client.open(live, tr, "R")
        await rk.send({"type": "quick_match", "mode": "ranked", "stake": "low"})
        await rk.expect("matched")
        snap = await rk.expect("snapshot")
        assert snap["table"]["mode"] == "ranked" and snap["table"]["hints"] is False
        await rk.send({"type": "hint"})
        assert (await rk.expect("error"))["code"] == "hints_off"
        for c in (a, b, w, rk):
            await c.close()
    run(go())


def test_a_hint_reaches_the_table_on_another_process(cluster):  # noqa: F811
    """The seat's connection is on one process, its table on the other: the request
    goes where the table runs, and the answer comes back."""
    p1, p2 = cluster(turn_base=600.0), cluster(turn_base=600.0)
    token = p1.register("遠端學生")

    async def go():
        s = p1.http("POST", "/api/v1/rooms", token, json={"bots": "L1"}).json()
        assert p1.http("POST", f"/api/v1/rooms/{s['code']}/start", token).status_code == 200
        owners = owner_of([p1, p2], s["game_id"])
        far = p2 if owners == [p1] else p1            # connect where the table is not
        c = await Client.open(far, token, "A")
        await c.send({"type": "join", "ticket": s["ticket"]})
        assert (await c.expect("snapshot"))["table"]["hints"] is True
        obs = await _my_decision(c)
        await c.send({"type": "hint", "turn": c.turn})
        got = await c.expect("hint")
        assert got["turn"] == c.turn and got["hint"]["choice"] in obs["legal"]
        await c.close()
    run(go())

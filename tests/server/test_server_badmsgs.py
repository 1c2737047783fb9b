"""Every kind of bad message gets an error to its sender only and changes nothing."""

import asyncio
import json

from server_helpers import Client, simple_policy
from test_server_play import quick_match, until_turn

from twmahjong.tiles import parse_tiles, tile_str


def run(coro):
    return asyncio.run(coro)


def test_bad_messages_answer_the_sender_only_and_change_nothing(make_live):
    live = make_live(conn_rate=50.0, conn_burst=40)

    async def go():
        a, b = await quick_match(live, 2)
        b_task = asyncio.create_task(b.play_hand())      # B plays on regardless
        await until_turn(a)
        obs = a.obs
        codes = {}

        async def probe(name, frame):
            await a.send(frame)
            m = await a.expect("error")
            codes[name] = m["code"]

        await probe("malformed", "{this is not json")
        await probe("not an object", "[1, 2, 3]")
        await probe("unknown type", {"type": "steal_tiles"})
        await probe("missing field", {"type": "join"})
        await probe("extra field", {"type": "ping", "admin": True})
        await probe("wrong version", {"v": 9, "type": "ping"})
        await probe("oversized", json.dumps({"type": "ping", "pad": "x" * 10_000}))
        await probe("binary garbage", b"\x00\xff\xfe")
        held = set(parse_tiles(obs["hand"] + (obs.get("drawn") or "")))
        missing = tile_str(next(k for k in range(34) if k not in held))
        await probe("illegal", {"type": "action", "action": {"type": "discard",
                                                              "tile": missing}})
        await probe("stale", {"type": "action", "action": {"type": "pass"},
                              "turn": a.turn + 1000})
        await probe("second hello", {"type": "hello", "token": "x"})
        # nothing changed: still our turn, with the same observation
        assert await a.quiet(0.3) == []
        assert a.obs == obs
        await a.act(simple_policy(a.obs))               # and a good action still works
        await a.play_hand()
        await b_task
        b_errors = [m for m in b.seen if m["type"] == "error"]
        await a.close()
        await b.close()
        return codes, b_errors
    codes, b_errors = run(go())
    assert codes == {
        "malformed": "bad_json", "not an object": "bad_message", "unknown type": "unknown_type",
        "missing field": "bad_message", "extra field": "bad_message",
        "wrong version": "bad_version", "oversized": "too_large",
        "binary garbage": "bad_json", "illegal": "illegal_action", "stale": "stale",
        "second hello": "bad_message"}
    assert b_errors == []


def test_out_of_turn_action_is_refused(make_live):
    live = make_live()

    async def go():
        a, b = await quick_match(live, 2)
        halt_b = b.answer_in_background()  # B answers its claims until A's turn comes
        await until_turn(a)               # A must discard: nobody else decides now
        await halt_b()
        await b.act({"type": "discard", "tile": "1m"})
        err = await b.expect("error")
        a_msgs = await a.quiet(0.3)
        await a.close()
        await b.close()
        return err, a_msgs
    err, a_msgs = run(go())
    assert err["code"] == "not_your_turn"
    assert [m for m in a_msgs if m["type"] != "presence"] == []   # A saw nothing of it


def test_unauthenticated_and_unseated_messages(live):
    async def go():
        c = await Client.open(live)
        await c.send({"type": "quick_match"})
        e1 = await c.expect("error")
        await c.send({"type": "hello", "token": "forged.token.value"})
        e2 = await c.expect("error")
        await c.send({"type": "hello", "token": live.guest()})
        await c.expect("welcome")
        await c.send({"type": "action", "action": {"type": "pass"}})
        e3 = await c.expect("error")
        await c.send({"type": "ping"})
        pong = await c.expect("pong")
        await c.close()
        return e1, e2, e3, pong
    e1, e2, e3, pong = run(go())
    assert [e1["code"], e2["code"], e3["code"]] == ["not_authenticated", "auth", "not_seated"]
    assert pong == {"v": 1, "type": "pong"}


def test_a_flood_is_cut_off_for_that_connection_only(make_live):
    live = make_live(conn_rate=5.0, conn_burst=10)

    async def go():
        flooder = await Client.open(live, live.guest())
        calm = await Client.open(live, live.guest())
        for _ in range(60):
            await flooder.send({"type": "ping"})
        got = await flooder.quiet(0.5)
        await calm.send({"type": "ping"})
        calm_reply = await calm.expect("pong")
        await flooder.close()
        await calm.close()
        return got, calm_reply
    got, calm_reply = run(go())
    pongs = [m for m in got if m["type"] == "pong"]
    limited = [m for m in got if m["type"] == "error" and m["code"] == "rate_limited"]
    assert 9 <= len(pongs) < 20           # the burst (less the hello), then the refill
    assert len(limited) == 1              # one notice, not an echo of the flood
    assert calm_reply["type"] == "pong"


def test_the_account_limit_spans_all_of_its_connections(make_live):
    live = make_live(conn_rate=50.0, conn_burst=100, account_rate=0.5, account_burst=10)

    async def go():
        token = live.guest()
        one = await Client.open(live, token)       # hello counts for the link only
        two = await Client.open(live, token)
        for _ in range(8):
            await one.send({"type": "ping"})
            await two.send({"type": "ping"})
        got = await one.quiet(0.4) + await two.quiet(0.4)
        await one.close()
        await two.close()
        return got
    got = run(go())
    pongs = sum(m["type"] == "pong" for m in got)
    assert pongs == 10                    # the account's burst, shared by both links
    assert any(m["type"] == "error" and m["code"] == "rate_limited" for m in got)


def test_the_database_away_is_unavailable_not_a_dead_connection(live, caplog):
    """A PostgreSQL restart while players connect: a chaos run logged 644 tracebacks
    ("connection handler failed") and each client lost its connection with no word.
    Now the hello is answered ``unavailable`` and the connection closed "try again
    later" (1013), and the reconnection's hello works once the database answers; HTTP
    says 503 the same way; the log has one line, not a traceback."""
    import logging

    from sqlalchemy.exc import DBAPIError
    repo = live.server.repo
    away = DBAPIError("SELECT accounts", {}, OSError("connection refused"))

    def fail_once(method):
        real = getattr(repo, method)
        left = [1]

        async def once(*args, **kwargs):
            if left[0]:
                left[0] -= 1
                raise away
            return await real(*args, **kwargs)
        setattr(repo, method, once)

    token = live.guest()

    async def go():
        from websockets.exceptions import ConnectionClosed
        c = await Client.open(live)
        fail_once("account")
        await c.send({"type": "hello", "token": token})
        told = await c.expect("error")
        try:                                  # half set up: closed "try again later"
            await c.recv()
            closed = None
        except ConnectionClosed as e:
            closed = e.rcvd.code if e.rcvd else None
        again = await Client.open(live)       # what every client's reconnection does
        await again.send({"type": "hello", "token": token})
        welcome = await again.expect("welcome")
        await again.close()
        return told, closed, welcome
    with caplog.at_level(logging.WARNING):
        told, closed, welcome = run(go())
        fail_once("leaderboard")
        r503 = live.http("GET", "/api/v1/leaderboard")
        r200 = live.http("GET", "/api/v1/leaderboard")
    assert told["code"] == "unavailable" and "try again" in told["message"]
    assert closed == 1013
    assert welcome["account"]["name"]
    assert r503.status_code == 503 and r503.json()["error"]["code"] == "unavailable"
    assert r503.headers["retry-after"] == "2"
    assert r200.status_code == 200
    assert not any(r.exc_info for r in caplog.records), [r.getMessage() for r in caplog.records]
    assert not any("connection handler failed" in r.getMessage() for r in caplog.records)

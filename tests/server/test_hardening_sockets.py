"""What one client may hold on ``/ws``: sockets per address (an IPv6 /64 counts as one),
a deadline to say hello, idle sockets closed, and a flood closed — before its hello
after a few frames, after it once the rate limit has refused it long enough.

The addresses are X-Forwarded-For's, believed from loopback (``forwarded_allow_ips``),
as they are from the proxy in front of a real deployment."""

import asyncio
import json

from server_helpers import Client
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

GUARD = 60.0     # a hang guard: each event below comes long before it


def run(coro):
    return asyncio.run(coro)


async def opened(live, address: str):
    return await connect(live.ws_url, additional_headers={"X-Forwarded-For": address})


async def until_closed(ws) -> tuple[list[dict], int | None, str]:
    """Every message until the server closes, and its close code and reason."""
    got = []
    try:
        while True:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), GUARD)))
    except ConnectionClosed as e:
        return got, e.rcvd.code if e.rcvd else None, e.rcvd.reason if e.rcvd else ""


async def hello(ws, token: str) -> dict:
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return json.loads(await asyncio.wait_for(ws.recv(), GUARD))


def test_network_of_keys_ipv6_by_its_64():
    from twmahjong.server.net.limits import network_of
    assert network_of("2001:db8::1") == network_of("2001:db8::ffff:1") == "2001:db8::/64"
    assert network_of("2001:db8:0:1::1") != network_of("2001:db8::1")
    assert network_of("192.0.2.1") == "192.0.2.1" != network_of("192.0.2.2")
    assert network_of("::ffff:192.0.2.1") == "192.0.2.1"


def test_one_address_cannot_take_every_socket(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", max_connections=20,
                     max_connections_per_address=5, hello_timeout=3600)
    token = live.guest()

    async def go():
        mine = [await opened(live, "203.0.113.9") for _ in range(5)]   # silent
        sixth = await opened(live, "203.0.113.9")
        refused = await until_closed(sixth)
        other = await opened(live, "198.51.100.4")
        welcome = await hello(other, token)
        # a /64 is one subscriber: its addresses share one cap
        v6 = [await opened(live, f"2001:db8::{i}") for i in range(1, 6)]
        v6_more = await until_closed(await opened(live, "2001:db8::abcd"))
        v6_next = await hello(await opened(live, "2001:db8:0:1::1"), token)
        held = live.server.limits.sockets["203.0.113.9"]
        for ws in mine + v6 + [other]:
            await ws.close()
        return refused, welcome, v6_more, v6_next, held
    refused, welcome, v6_more, v6_next, held = run(go())
    msgs, code, reason = refused
    assert [m["code"] for m in msgs] == ["too_many_connections"] and code == 1013
    assert "address" in reason and held == 5
    assert welcome["type"] == "welcome"
    assert v6_more[0][0]["code"] == "too_many_connections" and v6_more[1] == 1013
    assert v6_next["type"] == "welcome"
    print(f"\n5 silent sockets from one address: the 6th refused ({code} {reason!r}); "
          "another address and another /64 welcomed")


def test_the_per_address_count_is_given_back_on_close(make_live):
    live = make_live(forwarded_allow_ips="127.0.0.1", max_connections_per_address=2)
    token = live.guest()

    async def go():
        for _ in range(4):               # twice the cap, one after another
            ws = await opened(live, "203.0.113.10")
            assert (await hello(ws, token))["type"] == "welcome"
            await ws.close()
        c = await Client.open(live, token)
        await c.close()
    run(go())
    assert live.server.limits.sockets["203.0.113.10"] == 0


def test_a_socket_that_never_says_hello_is_closed(make_live):
    live = make_live(hello_timeout=0.5)

    async def go():
        ws = await connect(live.ws_url)
        return await until_closed(ws)
    msgs, code, reason = run(go())
    assert [m["code"] for m in msgs] == ["hello_timeout"]
    assert (code, reason) == (1008, "no hello in time")
    assert live.server.connections == 0


def test_a_socket_that_sends_nothing_after_hello_is_closed(make_live):
    live = make_live(idle_timeout=0.5, hello_timeout=3600)

    async def go():
        ws = await connect(live.ws_url)
        assert (await hello(ws, live.guest()))["type"] == "welcome"
        return await until_closed(ws)
    msgs, code, reason = run(go())
    assert [m["code"] for m in msgs] == ["idle"] and (code, reason) == (1001, "idle")


def test_a_flood_before_hello_is_closed_after_a_few_frames(make_live):
    live = make_live(pre_hello_frames=8, hello_timeout=3600)
    seen = []
    from twmahjong.server.net import protocol as P
    real = P.parse_client

    def counting(raw, *a, **k):
        seen.append(raw)
        return real(raw, *a, **k)

    async def go():
        P.parse_client = counting
        try:
            ws = await connect(live.ws_url)
            try:
                for _ in range(2000):
                    await ws.send('{"type": "ping"}')
            except ConnectionClosed:
                pass
            return await until_closed(ws)
        finally:
            P.parse_client = real
    msgs, code, reason = run(go())
    assert (code, reason) == (1008, "no hello")
    assert sum(m["type"] == "pong" for m in msgs) == 8
    assert len(seen) == 8            # nothing past the budget was decoded
    assert msgs[-1]["code"] == "not_authenticated"


def test_a_sustained_flood_after_hello_is_closed_and_others_play_on(make_live):
    live = make_live(conn_rate=5.0, conn_burst=10, flood_burst=20)

    async def go():
        calm = await Client.open(live, live.guest())
        ws = await connect(live.ws_url)
        await hello(ws, live.guest())
        try:
            for _ in range(5000):
                await ws.send('{"type": "ping"}')
        except ConnectionClosed:
            pass
        got = await until_closed(ws)
        await calm.send({"type": "ping"})
        pong = await calm.expect("pong")
        await calm.close()
        return got, pong
    (msgs, code, reason), pong = run(go())
    assert (code, reason) == (1008, "flooding")
    assert msgs[-1]["code"] == "flooding"
    assert pong["type"] == "pong"

"""A request must arrive whole (headers and body) within ``request_timeout``: a client
that sends it a byte at a time (slowloris) is closed and the log says so; whole
requests, keep-alive and WebSockets are untouched."""

import asyncio
import logging
import socket
import time

from server_helpers import Client

GUARD = 60.0     # a hang guard: the server closes long before


def closed_by_server(s: socket.socket) -> bool:
    s.settimeout(GUARD)
    try:
        return s.recv(1024) == b""
    except ConnectionResetError:
        return True


def test_a_request_that_never_finishes_is_closed(make_live, caplog):
    live = make_live(request_timeout=0.5)
    caplog.set_level(logging.WARNING, "twmahjong.server.net.deadline")
    half = socket.create_connection(("127.0.0.1", live.port))
    half.sendall(b"GET /api/v1/leaderboard HTTP/1.1\r\nHost: x\r\n")       # never ends
    silent = socket.create_connection(("127.0.0.1", live.port))             # sends nothing
    body = socket.create_connection(("127.0.0.1", live.port))
    body.sendall(b"POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 b"application/json\r\nContent-Length: 100\r\n\r\n{\"na")  # a body that stops
    assert closed_by_server(half) and closed_by_server(silent) and closed_by_server(body)
    assert any("did not arrive whole" in r.getMessage() for r in caplog.records)
    # a trickle: a byte now and then never buys more time
    trickle = socket.create_connection(("127.0.0.1", live.port))
    trickle.settimeout(GUARD)
    sent = 0
    try:
        for b in b"GET / HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 10_000:
            trickle.sendall(bytes([b]))
            sent += 1
            time.sleep(0.05)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert closed_by_server(trickle) and sent < 10_000
    for s in (half, silent, body, trickle):
        s.close()


def test_whole_requests_keep_alive_and_sockets_are_untouched(make_live):
    live = make_live(request_timeout=0.5)
    with socket.create_connection(("127.0.0.1", live.port)) as s:
        s.settimeout(GUARD)
        for _ in range(2):         # one connection, two requests, the 2nd after the deadline
            s.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n\r\n")
            got = b""
            while b'{"ok":true}' not in got:
                chunk = s.recv(4096)
                assert chunk, got
                got += chunk
            assert got.startswith(b"HTTP/1.1 200")
            time.sleep(0.7)          # longer than request_timeout, shorter than keep-alive

    async def ws():
        c = await Client.open(live, live.guest())
        await asyncio.sleep(1.0)     # past the request deadline: a socket is not a request
        await c.send({"type": "ping"})
        pong = await c.expect("pong")
        await c.close()
        return pong
    assert asyncio.run(ws())["type"] == "pong"

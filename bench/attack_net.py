"""Connection and request attacks on a local game server: what one address may hold.

Phases (each bounded in count and time, loopback only, stopping by itself):

- net_sockets: 100 silent WebSockets from one address; how many were let in, and how
  many are still open 12 s later (past the server's hello deadline);
- net_flood: one socket that never says hello sends up to 20,000 pings in at most
  5 s; how many it got out before the server closed it, and the close code;
- net_slow: 200 half-sent HTTP requests (slowloris); how many are still open 25 s
  later (past the server's request deadline);
- net_replay: a finished game's replay asked 60 times for distinct hands and seats
  from one address while another connection pings: answers by status, and the ping's
  median and worst round trip;
- net_analysis: 牌譜分析 asked, left and asked again 10 times by one account; how many
  were set going (the rest refused with 429).

Run with bench/attack.py (``--only net``) or on its own:

    .venv/bin/python bench/attack_net.py [--pythonpath /tmp/old/src] [--json]
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import time

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

LOOPBACK = "127.0.0.1"


def _check_loopback(srv) -> None:
    if not srv.base.startswith(f"http://{LOOPBACK}:"):
        raise SystemExit("attack_net attacks loopback only")


async def silent_sockets(srv, n: int = 100, wait: float = 12.0) -> dict:
    socks, refused = [], 0
    for _ in range(n):
        try:
            ws = await connect(srv.base.replace("http", "ws", 1) + "/ws", open_timeout=10)
        except (OSError, InvalidStatus, TimeoutError):
            refused += 1
            continue
        socks.append(ws)
    # a refusal may come as a message and a close right after the handshake
    await asyncio.sleep(1.0)
    let_in = sum(1 for ws in socks if ws.close_code is None)
    await asyncio.sleep(wait)
    still = sum(1 for ws in socks if ws.close_code is None)
    for ws in socks:
        await ws.close()
    return {"net_silent_sockets_let_in_of_100": let_in,
            "net_silent_sockets_open_after_12s": still}


async def flood_before_hello(srv, frames: int = 20_000, budget: float = 5.0) -> dict:
    ws = await connect(srv.base.replace("http", "ws", 1) + "/ws")
    sent, end, code = 0, time.monotonic() + budget, None
    try:
        while sent < frames and time.monotonic() < end:
            await ws.send('{"type": "ping"}')
            sent += 1
            if sent % 500 == 0:
                await asyncio.sleep(0)
    except ConnectionClosed as e:
        code = e.rcvd.code if e.rcvd else None
    replies = 0
    try:
        while True:
            await asyncio.wait_for(ws.recv(), 2.0)
            replies += 1
    except ConnectionClosed as e:
        code = code or (e.rcvd.code if e.rcvd else None)
    except TimeoutError:
        pass
    await ws.close()
    return {"net_flood_frames_sent_of_20000": sent, "net_flood_replies": replies,
            "net_flood_closed_with": code}


def slowloris(srv, n: int = 200, wait: float = 25.0) -> dict:
    socks = []
    for _ in range(n):
        s = socket.create_connection((LOOPBACK, srv.port), timeout=5)
        s.sendall(b"GET /api/v1/leaderboard HTTP/1.1\r\nHost: x\r\nX-a: ")
        socks.append(s)
    time.sleep(wait)
    still = 0
    for s in socks:
        s.setblocking(False)
        try:
            still += s.recv(1) != b""
        except BlockingIOError:
            still += 1                  # nothing to read, not closed: held
        except OSError:
            pass
        s.close()
    return {"net_slowloris_open_after_25s_of_200": still}


def _finished_game(srv) -> tuple[str, str, int]:
    """A 1-圈 room game against L1 bots, its host on 託管: (token, game id, seat)."""
    token = httpx.post(srv.base + "/api/v1/guests", timeout=60).json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    room = httpx.post(srv.base + "/api/v1/rooms", headers=auth, timeout=60,
                      json={"bots": "L1", "rounds": 1}).json()
    httpx.post(f"{srv.base}/api/v1/rooms/{room['code']}/start", headers=auth, timeout=60)

    async def sit() -> None:
        async with connect(srv.base.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token,
                                      "ticket": room["ticket"]}))
            await ws.send(json.dumps({"type": "auto", "on": True}))
            end = time.monotonic() + 300
            while time.monotonic() < end:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if m["type"] == "game_end":
                    return
            raise SystemExit("the game did not end in 300 s")
    asyncio.run(sit())
    end = time.monotonic() + 60
    while httpx.get(f"{srv.base}/api/v1/games/{room['game_id']}", timeout=60).status_code \
            != 200:
        if time.monotonic() > end:
            raise SystemExit("the game was not stored as finished")
        time.sleep(0.2)
    return token, room["game_id"], room["seat"]


async def replay_flood(srv, game_id: str, n: int = 60) -> dict:
    rec = httpx.get(f"{srv.base}/api/v1/games/{game_id}", timeout=60).json()
    hands = len(rec["hands"])
    urls = [f"{srv.base}/api/v1/games/{game_id}/replay?hand={1 + i % hands}&seat={i // hands % 4}"
            for i in range(n)]
    rtts: list[float] = []
    token = httpx.post(srv.base + "/api/v1/guests", timeout=60).json()["token"]
    done = asyncio.Event()

    async def pinger() -> None:
        async with connect(srv.base.replace("http", "ws", 1) + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await ws.recv()
            while not done.is_set():
                t = time.perf_counter()
                await ws.send('{"type": "ping"}')
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
                rtts.append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0.05)
    ping = asyncio.create_task(pinger())
    statuses: dict[int, int] = {}
    async with httpx.AsyncClient(timeout=120) as http:
        async def one(url: str) -> None:
            r = await http.get(url)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        for k in range(0, n, 6):             # six clients at once
            await asyncio.gather(*(one(u) for u in urls[k:k + 6]))
    done.set()
    await ping
    return {"net_replay_statuses_of_60": dict(sorted(statuses.items())),
            "net_replay_ping_ms_median_max": (round(statistics.median(rtts), 1),
                                              round(max(rtts), 1)) if rtts else None}


def analysis_churn(srv, token: str, game_id: str, rounds: int = 10) -> dict:
    auth = {"Authorization": f"Bearer {token}"}
    rec = httpx.get(f"{srv.base}/api/v1/games/{game_id}", timeout=60).json()
    hands = len(rec["hands"])
    started = refused = 0
    with httpx.Client(base_url=srv.base, headers=auth, timeout=120) as c:
        for i in range(rounds):
            url = f"/api/v1/games/{game_id}/analysis?hand={1 + i % hands}&progress=1"
            with c.stream("GET", url) as r:
                if r.status_code == 200:
                    next(r.iter_lines())     # set going: then the asker leaves
                    started += 1
                elif r.status_code == 429:
                    refused += 1
    return {"net_analysis_set_going_of_10": started, "net_analysis_refused": refused}


def phases(srv) -> list:
    """(name, run) of each phase, for bench/attack.py's main."""
    _check_loopback(srv)
    game: dict = {}

    def finished() -> tuple[str, str, int]:
        if not game:
            game["g"] = _finished_game(srv)
        return game["g"]
    return [("net_sockets", lambda: asyncio.run(silent_sockets(srv))),
            ("net_flood", lambda: asyncio.run(flood_before_hello(srv))),
            ("net_slow", lambda: slowloris(srv)),
            ("net_replay", lambda: asyncio.run(replay_flood(srv, finished()[1]))),
            ("net_analysis", lambda: analysis_churn(srv, finished()[0], finished()[1]))]


def main() -> None:
    """The connection attacks alone: bench/attack.py's run (its server, its flags, its
    report), with ``--only`` the net_* phases unless the command line names others."""
    import sys

    import attack                        # bench/attack.py
    if "--only" not in sys.argv:
        sys.argv += ["--only", "net_sockets,net_flood,net_slow,net_replay,net_analysis"]
    attack.main()


if __name__ == "__main__":
    main()

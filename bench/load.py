"""Load generator for the game server: real WebSocket clients on loopback.

Starts its own server (SQLite in a temporary folder, bots without think time)
unless ``--url`` points at one, signs in ``--clients`` guests, quick-matches them
into tables of four and lets every client play (win when offered, pass claims,
throw the drawn tile) for ``--seconds``; then closes everything and prints
connections, messages/s and the action round-trip latency percentiles (an
action sent until this seat's next update arrives). Bounded in count and time;
it stops by itself.

``--urls`` spreads the clients round-robin over several server processes (each
client signs in and plays through its own process; tables form across them when
the processes share one Redis, ``twmj serve --redis URL``).

    .venv/bin/python bench/load.py --clients 40 --seconds 10
    .venv/bin/python bench/load.py --clients 40 --urls http://127.0.0.1:8101,http://127.0.0.1:8102
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

MAX_CLIENTS = 2000
MAX_SECONDS = 300


def choose(obs: dict) -> dict:
    legal = obs["legal"]
    for t in ("win", "flower_win", "pass"):
        for a in legal:
            if a["type"] == t:
                return a
    for a in legal:
        if a["type"] == "discard" and a.get("tile") == obs.get("drawn"):
            return a
    return next((a for a in legal if a["type"] == "discard"), legal[0])


class Stats:
    def __init__(self) -> None:
        self.received = 0
        self.sent = 0
        self.latencies: list[float] = []
        self.hands = 0
        self.errors: dict[str, int] = {}
        self.connected = 0
        self.seated = 0


async def client(url: str, token: str, stats: Stats, stop: float) -> None:
    async with connect(url, max_size=2**20, open_timeout=30) as ws:
        stats.connected += 1
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
        stats.sent += 2
        sent_at: float | None = None
        while (left := stop - time.monotonic()) > 0:
            try:
                raw = await asyncio.wait_for(ws.recv(), left)
            except TimeoutError:
                break
            now = time.monotonic()
            stats.received += 1
            m = json.loads(raw)
            t = m["type"]
            if t == "snapshot":
                stats.seated += 1
            elif t == "hand_end":
                stats.hands += 1
            elif t == "error":
                stats.errors[m["code"]] = stats.errors.get(m["code"], 0) + 1
            if t in ("update", "snapshot"):
                if sent_at is not None:
                    stats.latencies.append(now - sent_at)
                    sent_at = None
                obs = m.get("observation") or {}
                if obs.get("legal"):
                    await ws.send(json.dumps({"type": "action", "action": choose(obs),
                                              "turn": m["turn"]}))
                    stats.sent += 1
                    sent_at = time.monotonic()


def start_local_server():
    """The real app under uvicorn (uvloop) in a thread, on a free loopback port."""
    import uvicorn

    from twmahjong.server.app import create_app
    from twmahjong.server.settings import Settings

    data = Path(tempfile.mkdtemp(prefix="twmj-load-"))
    settings = Settings(data_dir=data, secret_key="load", bot_fill_wait=0.5, bot_delay=0.0,
                        hand_pause=0.2, auth_rate=1000, auth_burst=MAX_CLIENTS,
                        conn_rate=100, conn_burst=200, account_rate=200, account_burst=400)
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=0, log_level="error",
                            loop="uvloop", ws_max_size=65536)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            sys.exit("the server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, thread, f"http://127.0.0.1:{port}"


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def run(bases: list[str], clients: int, seconds: float) -> Stats:
    """Client i signs in and plays through ``bases[i % len(bases)]``."""
    stats = Stats()
    plan = []
    async with httpx.AsyncClient(timeout=30) as http:
        for i in range(clients):
            base = bases[i % len(bases)]
            r = await http.post(base + "/api/v1/guests")
            r.raise_for_status()
            plan.append((base.replace("http", "ws", 1) + "/ws", r.json()["token"]))
    stop = time.monotonic() + seconds
    results = await asyncio.gather(*(client(ws, t, stats, stop) for ws, t in plan),
                                   return_exceptions=True)
    for r in results:
        if isinstance(r, Exception):
            stats.errors[type(r).__name__] = stats.errors.get(type(r).__name__, 0) + 1
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--url", help="an already running server, e.g. http://127.0.0.1:8000")
    ap.add_argument("--urls", help="several running server processes, comma-separated "
                                   "(one game world behind one Redis); clients round-robin")
    args = ap.parse_args()
    clients = max(1, min(args.clients, MAX_CLIENTS))
    seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    server = thread = None
    bases = [u.strip().rstrip("/") for u in (args.urls or args.url or "").split(",") if u.strip()]
    if not bases:
        server, thread, base = start_local_server()
        bases = [base]
    try:
        t0 = time.monotonic()
        stats = asyncio.run(run(bases, clients, seconds))
        elapsed = time.monotonic() - t0
    finally:
        if server is not None:
            server.should_exit = True
            thread.join(timeout=30)
    lat = [x * 1000 for x in stats.latencies]
    print(f"processes        {len(bases)}")
    print(f"connections      {stats.connected} of {clients} (seated {stats.seated})")
    print(f"duration         {elapsed:.1f} s")
    print(f"messages         {stats.received} received, {stats.sent} sent "
          f"({(stats.received + stats.sent) / elapsed:.0f} msg/s)")
    print(f"hands finished   {stats.hands // 1} (counted per client)")
    if lat:
        print(f"action latency   p50 {pct(lat, 50):.1f} ms  p90 {pct(lat, 90):.1f} ms  "
              f"p99 {pct(lat, 99):.1f} ms  max {max(lat):.1f} ms  "
              f"(mean {statistics.fmean(lat):.1f} ms, n={len(lat)})")
    if stats.errors:
        print(f"errors           {stats.errors}")


if __name__ == "__main__":
    main()

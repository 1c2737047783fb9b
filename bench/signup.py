"""Guest sign-up (``POST /api/v1/guests``) against one ``twmj serve`` on PostgreSQL,
idle and while tables play.

    .venv/bin/python bench/signup.py --guests 400 --parallel 32 --tables 20

``--tables N`` first seats 4·N paced players (quick match, 0.3–1 s per decision) and
times the sign-ups while they play. Prints guests/s and the latency p50/p99/max of
one sign-up, and the moves the tables stored meanwhile. Loopback only; the server's
per-client sign-up limit is opened (the bench is one address).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

import httpx

from twmahjong.drill import Player, Worker, fresh_postgres

PG = "postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj_test"


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


async def signups(base: str, n: int, parallel: int) -> tuple[float, list[float]]:
    gate = asyncio.Semaphore(parallel)
    took: list[float] = []
    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(
            max_connections=parallel)) as http:
        async def one() -> None:
            async with gate:
                t = time.perf_counter()
                r = await http.post(base + "/api/v1/guests")
                r.raise_for_status()
                took.append(time.perf_counter() - t)
        t0 = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(n)))
        return time.perf_counter() - t0, took


async def run(a: argparse.Namespace, w: Worker) -> None:
    players: list[Player] = []
    tasks: list[asyncio.Task] = []
    if a.tables:
        async with httpx.AsyncClient(timeout=120) as http:
            toks = [(await http.post(w.base + "/api/v1/guests")).json()["token"]
                    for _ in range(4 * a.tables)]
        rng = random.Random(a.seed)
        players = [Player(f"p{i}", t, lambda: [w.port], pace=(0.3, 1.0),
                          rng=random.Random(rng.random())) for i, t in enumerate(toks)]
        tasks = [asyncio.create_task(p.play(w.port)) for p in players]
        while sum(p.acted for p in players) < 4 * a.tables:     # every table plays
            await asyncio.sleep(0.1)
    acted = sum(p.acted for p in players)
    wall, took = await signups(w.base, a.guests, a.parallel)
    acted = sum(p.acted for p in players) - acted
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"sign-up: {a.guests} guests, {a.parallel} at a time, {a.tables} tables playing: "
          f"{a.guests / wall:.1f} guests/s; one sign-up p50 {pct(took, .5) * 1000:.0f} ms, "
          f"p99 {pct(took, .99) * 1000:.0f} ms, max {max(took) * 1000:.0f} ms; "
          f"{acted} moves played meanwhile; load average {os.getloadavg()[0]:.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--guests", type=int, default=400)
    ap.add_argument("--parallel", type=int, default=32)
    ap.add_argument("--tables", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--database", default=os.environ.get("TWMJ_TEST_POSTGRES", PG))
    ap.add_argument("--db-name", default="twmj_signup")
    a = ap.parse_args(argv)
    db = fresh_postgres(a.database, a.db_name)
    d = Path(tempfile.mkdtemp(prefix="twmj-signup-"))
    w = Worker(db, d / "data", log=d / "serve.log", auth_rate=1e6, auth_burst=10**6,
               bot_fill_wait=2, claim_window=0.3, turn_base=20, hand_pause=0.5).start()
    try:
        asyncio.run(run(a, w))
    finally:
        w.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

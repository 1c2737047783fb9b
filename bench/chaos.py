"""A repeatable chaos run of the cluster: kill -9, SIGTERM, Redis and database faults under play.

N tables of paced guests play over 2-3 ``twmj serve`` workers that share one
PostgreSQL and a redis-server this run starts on a port of its own. Every M
seconds a fault chosen by the seeded RNG strikes: kill -9 of a worker, SIGTERM of a
worker (each restarted at once), ``SHUTDOWN NOSAVE`` and a restart of Redis, or the
database going away for ``--db-down`` seconds (every connection cut, none accepted,
as in a PostgreSQL restart; half of these also kill -9 a worker while it is away, so
the others adopt its tables while their reads fail).
After T minutes no new games start and no more faults come; the games in play
finish (bounded), the workers stop, and the stored games are checked against what
the players saw. Loopback only; it stops by itself.

Each worker has a route (its own ws:// address, ``TWMJ_ROUTE``) and the players
follow it: a seat whose table another worker plays moves its socket there, so a
table's updates are relayed only until then, and again after an adoption until the
seat moves on (``--no-route``: workers without routes, every such seat relayed).

    .venv/bin/python bench/chaos.py --minutes 10 --every 25 --tables 6 --seed 17

It prints: tables (games played), moves acknowledged, faults injected, moves lost
(a discard someone saw that is not stored, in order: must be 0), stranded clients
(no message for longer than lease + 5 s while their table played on, i.e. another
seat heard from it at least a second before they did: must be 0),
moves applied twice (0), the longest stall each player saw (p50/p99/max), and the
ledger (accounts whose coins differ from their ledger; hands whose rows do not sum
to zero), and how many sockets moved to their table's worker. Exit 1 if any of
lost / stranded / twice / ledger is off.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

from twmahjong.drill import (DatabaseOutage, Player, RedisServer, Worker, audit, bot_policy,
                             fresh_postgres)

PG = "postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj_test"
FAULTS = ("kill9", "sigterm", "redis", "db")


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


class Chaos:
    def __init__(self, a: argparse.Namespace):
        self.a = a
        self.rng = random.Random(a.seed)
        self.dir = Path(a.logs or tempfile.mkdtemp(prefix="twmj-chaos-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.db = fresh_postgres(a.database, a.db_name)
        self.outage = DatabaseOutage(self.db)
        self.redis = RedisServer(log=self.dir / "redis.log").start()
        env = {"bot_fill_wait": 4, "claim_window": 0.3, "turn_base": 20, "turn_bank": 10,
               "hand_pause": 0.5}
        self.workers = [Worker(self.db, self.dir / "data", redis_url=self.redis.url,
                               lease=a.lease, log=self.dir / f"worker{i}.log",
                               route=not a.no_route, **env)
                        for i in range(a.workers)]
        for w in self.workers:
            w.spawn()
        for w in self.workers:
            w.wait_ready()
        self.players: list[Player] = []
        self.faults: list[tuple[float, str]] = []
        self.starting: set[Worker] = set()     # workers restarting after a fault
        self.t0 = time.monotonic()

    def live_ports(self) -> list[int]:
        return [w.port for w in self.workers if w.alive and w not in self.starting] or [
            w.port for w in self.workers if w.alive]

    def log(self, text: str) -> None:
        print(f"[{time.monotonic() - self.t0:7.1f}s] {text}", flush=True)

    # -- faults ---------------------------------------------------------------------------
    def fault(self) -> None:
        """One fault. A worker struck is restarted in the background (a start takes a
        while on a loaded machine); only a worker that is up is struck, and never the
        last one up."""
        kind = self.rng.choice(self.a.faults)
        up = [w for w in self.workers if w.alive and w not in self.starting]
        if kind in ("kill9", "sigterm") and len(up) < 2:
            kind = "redis"
        if kind == "redis":
            self.redis.restart()
            what = "redis restart"
        elif kind == "db":
            strike = self.rng.random() < 0.5 and len(up) >= 2
            self.outage.down()
            self.log(f"database down for {self.a.db_down:g}s")
            if strike:
                time.sleep(self.a.db_down / 2)
                w = self._strike(self.rng.choice(up), "kill9")
                self.log(f"kill9 worker :{w.port} while the database is down")
                time.sleep(self.a.db_down / 2)
            else:
                time.sleep(self.a.db_down)
            self.outage.up()
            what = "database back"
        else:
            w = self._strike(self.rng.choice(up), kind)
            what = f"{kind} worker :{w.port} (restarting)"
        self.faults.append((time.monotonic(), kind))
        self.log(f"fault {len(self.faults)}: {what}")

    def _strike(self, w: Worker, kind: str) -> Worker:
        """kill -9 or SIGTERM ``w``, and start it again in the background."""
        (w.kill9 if kind == "kill9" else w.term)()
        self.starting.add(w)
        threading.Thread(target=self._restart, args=(w,), daemon=True).start()
        return w

    def _restart(self, w: Worker) -> None:
        try:
            w.spawn()
            w.wait_ready()
            self.log(f"worker :{w.port} is back")
        finally:
            self.starting.discard(w)

    async def faults_loop(self, until: float) -> None:
        while time.monotonic() + self.a.every < until:
            await asyncio.sleep(self.a.every * (0.75 + 0.5 * self.rng.random()))
            await asyncio.to_thread(self.fault)

    # -- tables ---------------------------------------------------------------------------
    async def table_slot(self, slot: int, until: float) -> None:
        """Four guests, spread over the workers, play game after game until ``until``."""
        rng = random.Random(self.rng.random())
        while time.monotonic() < until:
            ports = self.live_ports()
            ps = []
            for i in range(4):
                w = self.workers[(slot + i) % len(self.workers)]
                token = await asyncio.to_thread(self._guest, w)
                ps.append(Player(f"s{slot}p{i}", token, self.live_ports,
                                 pace=(self.a.pace_min, self.a.pace_max),
                                 rng=random.Random(rng.random()),
                                 policy=bot_policy(self.a.bot, rng.randrange(2**31))))
            self.players.extend(ps)
            ports = [self.workers[(slot + i) % len(self.workers)].port for i in range(4)]
            await asyncio.gather(*(p.play(port) for p, port in zip(ps, ports)))
            self.log(f"slot {slot}: game {ps[0].game_id} over for "
                     f"{sum(p.end is not None for p in ps)}/4")

    def _guest(self, w: Worker) -> str:
        while True:
            try:
                return (w if w.alive else next(x for x in self.workers if x.alive)).guest()
            except Exception:
                time.sleep(0.3)

    async def run(self) -> int:
        a = self.a
        until = self.t0 + a.minutes * 60
        self.log(f"{a.tables} tables over {a.workers} workers, a fault every ~{a.every}s, "
                 f"{a.minutes} min, seed {a.seed}; logs in {self.dir}")
        faults = asyncio.create_task(self.faults_loop(until))
        slots = [asyncio.create_task(self.table_slot(i, until)) for i in range(a.tables)]
        await faults
        self.log("no more faults; the games in play finish")
        try:
            await asyncio.wait_for(asyncio.gather(*slots), a.finish)
        except TimeoutError:
            self.log("some games did not finish in time")
        duration = time.monotonic() - self.t0
        while self.starting:
            await asyncio.sleep(0.2)
        for w in self.workers:
            w.term()
        found = await audit(self.db, self.players)
        return self.report(found, duration)

    def report(self, found: dict, duration: float) -> int:
        a = self.a
        lease = a.lease
        by_game: dict[str, list[Player]] = {}
        for p in self.players:
            if p.game_id:
                by_game.setdefault(p.game_id, []).append(p)
        stranded = 0
        for gid, ps in by_game.items():
            for p in ps:
                for start, length in p.gaps():
                    if length <= lease + 5:
                        continue
                    # did the table play on meanwhile? another seat heard from it at
                    # least a second before this one did (the whole table hears again
                    # within a moment after an adoption: that is a stall, not a strand)
                    lo, hi = start + lease + 5, start + length
                    if any(lo < t < hi - 1.0 for q in ps if q is not p for t in q.times):
                        stranded += 1
                        before = [f"{k}@{t - self.t0:.1f}s" for t, k in self.faults
                                  if start - 30 < t < hi]
                        i = p.times.index(start)
                        acted = sum(1 for t in p.sent if start <= t < hi)
                        print(f"  stranded: {p.name} seat {p.seat} game {gid} silent "
                              f"{length:.1f}s from {start - self.t0:.1f}s (port {p.port}, "
                              f"{p.connections} connections); faults near: {before}; "
                              f"heard {p.kinds[max(0, i - 3):i + 1]} then "
                              f"{p.kinds[i + 1:i + 3]}; acted {acted} times meanwhile")
                        for q in ps:                 # what the rest of the table heard
                            if q is not p:
                                heard = [f"{k}@{t - self.t0:.1f}" for t, k in
                                         zip(q.times, q.kinds) if start - 1 < t < hi + 1]
                                print(f"    {q.name} seat {q.seat} (port {q.port}): "
                                      f"{' '.join(heard[:12]) or 'nothing'}")
                        break
        longest = [max((g for _, g in p.gaps()), default=0.0) for p in self.players
                   if p.times]
        acked = sum(1 for p in self.players for (_, s, _) in p.discards if s == p.seat)
        kinds = {k: sum(1 for _, x in self.faults if x == k) for k in FAULTS}
        ended = sum(1 for p in self.players if p.end is not None)
        for gid, name, n, where in found.get("lost_detail", [])[:12]:
            print(f"  lost: {name} game {gid}: {n} seen discards not stored; first {where}")
        print("\n== chaos run ==")
        print(f"duration            {duration / 60:.1f} min (seed {a.seed}, {a.workers} workers,"
              f" lease {lease:g}s)")
        print(f"tables              {a.tables} at once; {found['games']} games "
              f"({found['finished']} finished, {found['active']} unfinished, "
              f"{found['aborted']} aborted)")
        print(f"players             {len(self.players)} ({ended} saw their game end, "
              f"{sum(p.ended_by_record for p in self.players)} learnt it on reconnecting)")
        print(f"moves acknowledged  {acked} own discards seen by their players; "
              f"{found['stored_moves']} moves stored")
        print(f"faults injected     {len(self.faults)} (kill -9 {kinds['kill9']}, SIGTERM "
              f"{kinds['sigterm']}, Redis restart {kinds['redis']}, database away "
              f"{kinds['db']})")
        print(f"moves lost          {found['lost']}")
        print(f"matched twice       {sum(p.rematched for p in self.players)} players "
              f"({sum(p.requeued for p in self.players)} asked to queue again)")
        print(f"stranded clients    {stranded}")
        print(f"sockets moved       {sum(p.moved for p in self.players)} to their table's "
              f"worker" + (" (workers without routes)" if a.no_route else ""))
        print(f"moves applied twice {found['twice']} (records that do not replay: "
              f"{found['unreplayable']})")
        print(f"longest stall       p50 {pct(longest, 0.5):.2f}s  p99 {pct(longest, 0.99):.2f}s"
              f"  max {max(longest, default=0):.2f}s")
        print(f"ledger              {found['ledger_off']} accounts off their ledger, "
              f"{found['hand_sum_off']} hands not summing to 0")
        # tables a worker found with a decision nothing would answer (play/liveness.py):
        # every worker logs each mend, and its /metrics dies with it, so the logs count
        mends = sum(log.read_text(errors="replace").count("liveness mend at table")
                    for log in self.dir.glob("worker*.log"))
        print(f"liveness mends      {mends}")
        bad = (mends or found["lost"] or stranded or any(p.rematched for p in self.players) or found["twice"] or found["unreplayable"]
               or found["ledger_off"] or found["hand_sum_off"])
        return 1 if bad else 0

    def close(self) -> None:
        for w in self.workers:
            w.kill9()
        self.redis.stop()
        with contextlib.suppress(Exception):     # stopped during an outage: let it in
            self.outage.up()


def _kinds(text: str) -> list[str]:
    kinds = [k for k in text.split(",") if k]
    if not kinds or any(k not in FAULTS for k in kinds):
        raise argparse.ArgumentTypeError(f"{text!r}: a comma-separated list of {', '.join(FAULTS)}")
    return kinds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--workers", type=int, default=3, choices=(2, 3))
    ap.add_argument("--tables", type=int, default=6)
    ap.add_argument("--every", type=float, default=25.0, help="seconds between faults")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--bot", default="speedster", help="the bot that answers for each client")
    ap.add_argument("--faults", type=_kinds, default=list(FAULTS),
                    help="the kinds of fault to draw from, comma-separated (kill9,sigterm,redis,db)")
    ap.add_argument("--lease", type=float, default=3.0)
    ap.add_argument("--db-down", type=float, default=4.0,
                    help="seconds the database stays away at a 'db' fault")
    ap.add_argument("--pace-min", type=float, default=0.05)
    ap.add_argument("--pace-max", type=float, default=0.4)
    ap.add_argument("--finish", type=float, default=300.0,
                    help="seconds the games in play get to finish after the last fault")
    ap.add_argument("--no-route", action="store_true",
                    help="workers say no route: every seat whose socket is on another "
                         "worker than its table is relayed for the whole game")
    ap.add_argument("--database", default=os.environ.get("TWMJ_TEST_POSTGRES", PG))
    ap.add_argument("--db-name", default="twmj_chaos")
    ap.add_argument("--logs", default=None)
    a = ap.parse_args(argv)
    chaos = Chaos(a)
    try:
        return asyncio.run(chaos.run())
    finally:
        chaos.close()


if __name__ == "__main__":
    sys.exit(main())

"""Load model for the game server: real WebSocket clients that play like people.

Each player signs up as a guest, quick-matches into a table of four and plays:
on every decision it "thinks" for a seeded 1-3 s, then sends a legal action (win
when offered, pass claims, throw the drawn tile). Beside the players sit idle
lobby connections (connected, said hello, only ping), and players arrive and
leave while the run goes on (``--churn``: that many a second leave mid-game and
as many new ones sign up and queue).

Players play from the moment they sit down, but the figures are the play
window's: it starts when every client process has signed up all its players and
idle connections (a barrier), so the actions of the first tables while others
still sign up are counted apart (``warmup_actions``).

What is measured is every action, not only those that come back: an action's
latency is from its send until the first message to that seat that reflects it
(an ``update``/``snapshot`` of a later turn); an action with no answer within
``--timeout`` s is a failure, counted, and so is one whose connection dropped
first. When the run's time is up no new action is sent, and the ones still in
flight get their full timeout to be answered. It prints p50/p95/p99/max, sent
vs acknowledged, messages/s, each server process's CPU% and RSS, and its own
CPU, as a table (or JSON with ``--json``).

Own-turn moves (draw, then throw or win) and answers in a claim window (pass) are
timed apart: a pass is answered only when every seat asked has answered, so its
latency is the other players' thinking, not the server's. The figures are the
own moves'.

The bench times itself too: each client process samples its own event loop (a
50 ms sleep, and by how much it overshoots) and its CPU over the play window. An
answer waits that long in the client before its time is read, so when a client
process's loop-lag p99 is more than a quarter of the measured p99
(``CLIENT_LAG_SHARE``) the p99 is printed as "unreliable: client-bound" with both
numbers instead of as a figure: add ``--procs`` or move the clients elsewhere.

Without ``--url`` it starts ``twmj serve`` itself (SQLite in a temporary folder,
or ``--database``; ``--serve N --redis URL`` starts N processes of one cluster)
with sign-up limits opened for loopback, so seating is not the bottleneck:
guests sign up ``--signup-parallel`` at a time. ``--procs`` spreads the clients
over several client processes, since one Python client process saturates its
core long before the server does.

    .venv/bin/python bench/load.py --clients 200 --seconds 30
    .venv/bin/python bench/load.py --clients 2000 --idle 500 --procs 2 --seconds 60 --json
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000 --server-pid 1234
    sudo .venv/bin/python bench/load.py --onebox /tmp/ob --clients 10000 --idle 2500 ...
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import multiprocessing
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect

from twmahjong.client.http import route_url
from twmahjong.drill import simple_policy

MAX_CLIENTS = 20_000
MAX_SECONDS = 1800


# A legal action as a plain player picks it: win when offered, pass claims, throw the
# drawn tile (bench/attack.py plays with this policy too); the drill's, shared.
choose = simple_policy
HINT_ERRORS = ("hints_off", "no_decision", "stale", "rate_limited", "hint_failed")


def claim_window(obs: dict) -> bool:
    """A decision in a claim window (pass is legal): its answer waits for every seat
    asked, so its latency is the others' thinking, not the server's."""
    return any(a.get("type") == "pass" for a in obs.get("legal", ()))


class LoopLag:
    """This client process's own event loop, timed: a sleep of ``every`` s, and by how
    much it overshoots. An answer that reached the process waits as long before the
    bench reads its time, so the overshoot is the part of a latency that is the
    client's, not the server's."""

    def __init__(self, every: float = 0.05):
        self.every = every
        self.samples: list[float] = []     # ms of overshoot, in the play window
        self.counting = False

    async def run(self) -> None:
        while True:      # perf_counter: uvloop's loop.time() ticks in whole ms
            t = time.perf_counter()
            await asyncio.sleep(self.every)
            if self.counting:
                self.samples.append(max(0.0, (time.perf_counter() - t - self.every) * 1000))


# a p99 is the server's only while no client process's own loop lag p99 is more than
# this share of it; past it the figure is printed as unreliable (client-bound)
CLIENT_LAG_SHARE = 0.25


def client_bound(p99: float, procs: list[dict]) -> str | None:
    """Why the measured own-move ``p99`` (ms) is not the server's, or None when it is.

    The rule: a client process whose event loop ran late by more than
    ``CLIENT_LAG_SHARE`` of the p99 (its lag p99) adds that much to the answers it
    reads, so the figure is the client's as much as the server's.

    >>> client_bound(100.0, [{"index": 0, "lag_ms": {"p99": 40.0}, "cpu_percent": 95.0}])
    'client process 0: loop lag p99 40.0 ms = 40% of the measured p99 100.0 ms (CPU 95.0%)'
    >>> client_bound(100.0, [{"index": 0, "lag_ms": {"p99": 5.0}, "cpu_percent": 20.0}]) is None
    True
    """
    worst = max(procs, key=lambda p: p["lag_ms"]["p99"], default=None)
    if worst is None or p99 != p99:          # no client figures, or no p99 (NaN)
        return None
    lag = worst["lag_ms"]["p99"]
    if lag <= CLIENT_LAG_SHARE * p99:
        return None
    return (f"client process {worst['index']}: loop lag p99 {lag} ms = "
            f"{100 * lag / max(p99, 1e-9):.0f}% of the measured p99 {p99} ms "
            f"(CPU {worst['cpu_percent']}%)")


@dataclasses.dataclass
class Plan:
    """What one run does; the same plan for every client process (each takes a slice)."""
    clients: int = 40             # playing clients (tables of four)
    idle: int = 0                 # idle lobby connections
    seconds: float = 30.0         # of play, after everyone is seated
    think: tuple[float, float] = (1.0, 3.0)
    timeout: float = 5.0          # an action unanswered this long is a failure
    seat_timeout: float = 60.0    # a player not seated this long is a failure
    churn: float = 0.0            # players a second that leave, and as many that arrive
    seed: int = 1
    signup_parallel: int = 32
    ping_every: float = 20.0      # idle connections' keep-alive
    hints: float = 0.0            # share of tables that are one player against bots asking
                                  # the coach (教練) a hint at every decision with a choice


@dataclasses.dataclass
class Tally:
    """What one client process counted; summed over processes."""
    latencies: list[float] = dataclasses.field(default_factory=list)   # ms, own-turn moves
    pass_latencies: list[float] = dataclasses.field(default_factory=list)  # ms, claim answers
    seat_waits: list[float] = dataclasses.field(default_factory=list)  # ms, queue to snapshot
    sent: int = 0           # actions
    acked: int = 0          # answered by an update that reflects them
    refused: int = 0        # answered by an error (stale, not your turn...)
    timed_out: int = 0      # no answer within the timeout
    lost: int = 0           # the connection closed before an answer
    messages_in: int = 0
    messages_out: int = 0
    connected: int = 0
    seated: int = 0
    seat_failed: int = 0
    idle_connected: int = 0
    hands: int = 0          # hand_end messages (per client)
    games: int = 0
    arrived: int = 0
    moved: int = 0          # sockets that moved to their table's worker (its route)
    left: int = 0
    errors: dict[str, int] = dataclasses.field(default_factory=dict)
    cpu: float = 0.0        # this client process's CPU seconds during the run
    warmup_actions: int = 0  # sent while others still signed up: not in the figures
    seat_seconds: float = 0.0
    play_seconds: float = 0.0
    play_from: float = 0.0  # wall clock (time.time) of play's start and end
    play_to: float = 0.0
    procs: list[dict] = dataclasses.field(default_factory=list)  # each client process's self
    hint_ms: list[float] = dataclasses.field(default_factory=list)   # hint asked -> answered

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def merge(self, other: Tally) -> None:
        for f in dataclasses.fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if isinstance(a, list):
                a.extend(b)
            elif isinstance(a, dict):
                for k, v in b.items():
                    a[k] = a.get(k, 0) + v
            elif f.name in ("seat_seconds", "play_seconds", "play_to"):
                setattr(self, f.name, max(a, b))
            elif f.name == "play_from":
                setattr(self, f.name, min(a, b) if a else b)
            else:
                setattr(self, f.name, a + b)


class Player:
    """One person at a table: decides after a think time, one action in flight."""

    def __init__(self, slice_: Slice, ws_url: str, token: str, rng: random.Random):
        self.sl, self.url, self.token, self.rng = slice_, ws_url, token, rng
        self.ws = None
        self.plan: asyncio.TimerHandle | None = None
        self.out_turn: int | None = None     # the turn of the action in flight
        self.out_at = 0.0
        self.out_counted = False             # sent in the play window (not warm-up)
        self.out_pass = False                # an answer in a claim window, not an own turn
        self.queued_at = 0.0
        self.seated = False
        self.leaving = False
        self.route: str | None = None        # the worker this socket is on (welcome)
        self.ticket: str | None = None       # the seat's (matched): opens it elsewhere
        self.hints = False                   # alone against bots, asking the coach
        self.hint_at: float | None = None

    async def run(self) -> None:
        t = self.sl.tally
        try:
            self.ws = await connect(self.url, max_size=2**22, open_timeout=60,
                                    ping_interval=None)
            t.connected += 1
            await self._send({"type": "hello", "token": self.token})
            await self._queue()
            while True:
                ws = self.ws
                async for raw in ws:
                    if ws is not self.ws:    # moved: the new socket has the seat
                        break
                    self._on(orjson.loads(raw))
                    if self.leaving:
                        break
                if self.leaving or ws is self.ws:
                    break
        except Exception as e:      # noqa: BLE001 - counted: a dropped client is a result
            if not self.leaving:
                t.error(type(e).__name__)
        finally:
            if self.ws is not None:
                self.sl.spawn(self.ws.close())
            self._cancel_plan()
            if self.out_turn is not None:
                t.lost += self.out_counted
                self.out_turn = None
            self.sl.players.discard(self)

    async def _send(self, msg: dict) -> None:
        await self.ws.send(orjson.dumps(msg).decode())
        self.sl.tally.messages_out += 1

    async def _queue(self) -> None:
        self.queued_at = time.monotonic()
        self.seated = False
        if self.hints:                       # a game against the computer: a room, started
            base = self.url.replace("ws", "http", 1).removesuffix("/ws")
            auth = {"Authorization": f"Bearer {self.token}"}
            r = (await self.sl.http.post(base + "/api/v1/rooms", json={"bots": "L3"},
                                         headers=auth)).json()
            await self.sl.http.post(f"{base}/api/v1/rooms/{r['code']}/start", headers=auth)
            await self._send({"type": "join", "ticket": r["ticket"]})
            return
        await self._send({"type": "quick_match", "mode": "casual"})

    def _on(self, m: dict) -> None:
        t = self.sl.tally
        t.messages_in += 1
        now = time.monotonic()
        kind = m.get("type")
        if kind in ("update", "snapshot"):
            if kind == "snapshot":
                self._follow(m["table"].get("route"))
            if kind == "snapshot" and not self.seated:
                self.seated = True
                t.seated += 1
                t.seat_waits.append((now - self.queued_at) * 1000)
            turn = m.get("turn", 0)
            if self.out_turn is not None and turn > self.out_turn:
                if self.out_counted:
                    t.acked += 1
                    (t.pass_latencies if self.out_pass else t.latencies).append(
                        (now - self.out_at) * 1000)
                self.out_turn = None
            obs = m.get("observation") or {}
            if self.hints and len(obs.get("legal") or ()) >= 2 and self.hint_at is None \
                    and self.out_turn is None and not self.sl.stopping:
                self.hint_at = now
                self.sl.spawn(self._send({"type": "hint", "turn": turn}))
            self._cancel_plan()
            if obs.get("legal") and self.out_turn is None and not self.sl.stopping:
                delay = self.rng.uniform(*self.sl.plan.think)
                self.plan = asyncio.get_running_loop().call_later(
                    delay, self._act, turn, choose(obs), claim_window(obs))
        elif kind == "hint":
            if self.hint_at is not None and self.sl.counting:
                t.hint_ms.append((now - self.hint_at) * 1000)
            self.hint_at = None
        elif kind == "error":
            t.error(m.get("code", "?"))
            if self.hint_at is not None and m.get("code") in HINT_ERRORS:
                self.hint_at = None
            elif self.out_turn is not None:
                t.refused += self.out_counted
                self.out_turn = None
        elif kind == "welcome":
            self.route = m.get("route")
        elif kind == "matched":
            self.ticket = m["ticket"]
        elif kind == "hand_end":
            t.hands += 1
        elif kind == "game_end":
            t.games += 1
            self._cancel_plan()
            if not self.sl.stopping:      # people play another game
                self.sl.spawn(self._queue())

    def _act(self, turn: int, action: dict, answers_claim: bool = False) -> None:
        self.plan = None
        if self.sl.stopping or self.out_turn is not None or self.ws is None:
            return
        self.out_turn, self.out_at = turn, time.monotonic()
        self.out_pass = answers_claim
        self.out_counted = self.sl.counting
        if self.out_counted:
            self.sl.tally.sent += 1
        else:
            self.sl.tally.warmup_actions += 1
        self.sl.spawn(self._send({"type": "action", "action": action, "turn": turn}))

    def _follow(self, route: str | None) -> None:
        """The table is played on another worker (its snapshot's route): open the seat
        there with the ticket, then close this socket (no relay between workers)."""
        if not route or not self.route or route == self.route or not self.ticket \
                or self.leaving:
            return
        self.route = route                  # once
        self.sl.spawn(self._move(route_url(self.url, route)))

    async def _move(self, url: str) -> None:
        try:
            new = await connect(url, max_size=2**22, open_timeout=60, ping_interval=None)
            await new.send(orjson.dumps({"type": "hello", "token": self.token,
                                         "ticket": self.ticket}).decode())
        except Exception as e:      # noqa: BLE001 - the seat stays where it is (relayed)
            self.sl.tally.error(f"move_{type(e).__name__}")
            return
        old, self.ws = self.ws, new
        self.sl.tally.moved += 1
        await old.close()

    def _cancel_plan(self) -> None:
        if self.plan is not None:
            self.plan.cancel()
            self.plan = None

    def expire(self, now: float) -> None:
        """The sweeper's check: an action unanswered past the timeout is a failure."""
        if self.out_turn is not None and now - self.out_at > self.sl.plan.timeout:
            self.sl.tally.timed_out += self.out_counted
            self.out_turn = None

    def leave(self) -> None:
        self.leaving = True
        self._cancel_plan()
        if self.ws is not None:
            self.sl.spawn(self.ws.close())


class Slice:
    """One client process's share of the clients, on its own event loop."""

    def __init__(self, plan: Plan, bases: list[str], index: int, count: int, barrier=None):
        self.plan, self.bases, self.index, self.count = plan, bases, index, count
        self.barrier = barrier     # every client process starts play at once
        self.counting = False      # the play window: only its actions are figures
        self.tally = Tally()
        self.players: set[Player] = set()
        self.tasks: set[asyncio.Task] = set()
        self.stopping = False
        self.rng = random.Random(plan.seed * 1000 + index)
        self.http: httpx.AsyncClient | None = None
        self._signups = asyncio.Semaphore(plan.signup_parallel)
        self._n = 0

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def _mine(self, total: int) -> int:
        return total // self.count + (1 if self.index < total % self.count else 0)

    def _base(self) -> str:
        self._n += 1
        return self.bases[(self._n * self.count + self.index) % len(self.bases)]

    async def _guest(self, base: str) -> str:
        async with self._signups:
            for attempt in range(20):
                r = await self.http.post(base + "/api/v1/guests")
                if r.status_code == 429:          # the server's own sign-up limit
                    self.tally.error("signup_429")
                    await asyncio.sleep(0.5 * (attempt + 1))
                    continue
                r.raise_for_status()
                return r.json()["token"]
        raise RuntimeError("sign-up refused 20 times")

    async def _arrive(self) -> Player | None:
        base = self._base()
        try:
            token = await self._guest(base)
        except Exception as e:      # noqa: BLE001
            self.tally.error(f"signup_{type(e).__name__}")
            return None
        p = Player(self, base.replace("http", "ws", 1) + "/ws", token,
                   random.Random(self.rng.getrandbits(64)))
        h = self.plan.hints           # alone at a table: a share h of the tables is
        p.hints = self.rng.random() < h / (4 - 3 * h)   # h·N/(4−3h) of N players
        self.players.add(p)
        self.spawn(p.run())
        return p

    async def _idle(self, base: str) -> None:
        try:
            token = await self._guest(base)
            async with connect(base.replace("http", "ws", 1) + "/ws", open_timeout=60,
                               ping_interval=None) as ws:
                self.tally.idle_connected += 1
                await ws.send(orjson.dumps({"type": "hello", "token": token}).decode())
                while not self.stopping:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(self.plan.ping_every):
                            self.tally.messages_in += 1 if await ws.recv() else 0
                            continue
                    await ws.send('{"type":"ping"}')
                    self.tally.messages_out += 1
        except Exception as e:      # noqa: BLE001
            if not self.stopping:
                self.tally.error(f"idle_{type(e).__name__}")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(0.1)
            now = time.monotonic()
            for p in list(self.players):
                p.expire(now)

    async def _churn(self) -> None:
        rate = self.plan.churn / self.count
        while not self.stopping:
            await asyncio.sleep(self.rng.expovariate(rate))
            # a person leaves between moves: one who closes the page with a move in
            # flight never sees its answer, and that is not the server losing it
            seated = [p for p in self.players
                      if p.seated and not p.leaving and p.out_turn is None]
            if self.stopping or not seated:
                continue
            self.rng.choice(seated).leave()
            self.tally.left += 1
            if await self._arrive():
                self.tally.arrived += 1

    async def run(self) -> Tally:
        cpu0, t0 = time.process_time(), time.monotonic()
        limits = httpx.Limits(max_connections=self.plan.signup_parallel)
        async with httpx.AsyncClient(timeout=120, limits=limits) as self.http:
            sweeper = self.spawn(self._sweep())
            lag = LoopLag()
            lagger = self.spawn(lag.run())
            idle = [self.spawn(self._idle(self._base())) for _ in range(self._mine(self.plan.idle))]
            await asyncio.gather(*(self._arrive() for _ in range(self._mine(self.plan.clients))))
            # play starts once everyone is seated (or given up on): sign-up is not play
            deadline = time.monotonic() + self.plan.seat_timeout
            while (any(not p.seated for p in self.players)
                   and time.monotonic() < deadline and self.players):
                await asyncio.sleep(0.05)
            self.tally.seat_failed = sum(1 for p in self.players if not p.seated)
            idle_wanted = self._mine(self.plan.idle)
            while (self.tally.idle_connected < idle_wanted and time.monotonic() < deadline
                   and not all(t.done() for t in idle)):
                await asyncio.sleep(0.05)
            if self.barrier is not None:       # sign-up is over everywhere: play starts
                await asyncio.to_thread(self.barrier.wait)
            self.counting = lag.counting = True
            before = (self.tally.messages_in, self.tally.messages_out)
            t1 = time.monotonic()
            cpu0 = time.process_time()       # the client's CPU is counted over play only
            self.tally.play_from = time.time()
            self.tally.seat_seconds = t1 - t0
            churn = self.spawn(self._churn()) if self.plan.churn > 0 else None
            await asyncio.sleep(self.plan.seconds)
            self.stopping = True
            self.tally.play_seconds = time.monotonic() - t1
            self.tally.cpu = time.process_time() - cpu0
            self.tally.play_to = time.time()
            lag.counting = False
            lagger.cancel()
            self.tally.procs.append({
                "index": self.index, "pid": os.getpid(),
                "cpu_percent": round(100 * self.tally.cpu / self.tally.play_seconds, 1),
                "lag_ms": {"p50": round(pct(lag.samples, 50), 1),
                           "p99": round(pct(lag.samples, 99), 1),
                           "max": round(max(lag.samples, default=float("nan")), 1),
                           "n": len(lag.samples)}})
            # messages of the play window only, like the actions
            self.tally.messages_in -= before[0]
            self.tally.messages_out -= before[1]
            counted = (self.tally.messages_in, self.tally.messages_out)
            if churn:
                churn.cancel()
            for p in list(self.players):
                p._cancel_plan()
            # actions in flight get their whole timeout to be answered
            end = time.monotonic() + self.plan.timeout + 0.5
            while any(p.out_turn is not None for p in self.players) and time.monotonic() < end:
                await asyncio.sleep(0.05)
            sweeper.cancel()
            now = time.monotonic() + self.plan.timeout + 1   # whatever is left failed
            for p in list(self.players):
                p.expire(now)
                p.leave()
            for task in idle:
                task.cancel()
            await asyncio.gather(*list(self.tasks), return_exceptions=True)
        self.tally.messages_in, self.tally.messages_out = counted
        return self.tally


def run_slice(plan: Plan, bases: list[str], index: int = 0, count: int = 1,
              barrier=None) -> Tally:
    """One client process's run (also what tests call, in their own process)."""
    return asyncio.run(Slice(plan, bases, index, count, barrier).run())


def _child(plan: Plan, bases: list[str], index: int, count: int, barrier, out) -> None:
    try:
        import uvloop
        uvloop.install()
    except ImportError:
        pass
    tally = run_slice(plan, bases, index, count, barrier)
    out.send(dataclasses.asdict(tally))
    out.close()


# -- the server side -------------------------------------------------------------------------
class Watch:
    """CPU and RSS of the server processes, sampled twice a second in a thread; the
    CPU% reported is over play only (sign-up is not play)."""

    def __init__(self, pids: list[int]):
        import psutil
        self.procs = [psutil.Process(p) for p in pids]
        self.rss_max = [0] * len(pids)
        self.samples: list[tuple[float, list[float]]] = []    # (time.time(), cpu s per pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    @staticmethod
    def _cpu(p) -> float:
        try:
            c = p.cpu_times()
            return c.user + c.system
        except Exception:  # noqa: BLE001 - the process died: its last figure stands
            return float("nan")

    def start(self) -> None:
        self.rss_start = []
        for p in self.procs:
            try:
                self.rss_start.append(p.memory_info().rss)
            except Exception:  # noqa: BLE001
                self.rss_start.append(0)
        self._sample()
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(0.5):
            self._sample()

    @staticmethod
    def _waited(p) -> float:
        """Seconds the process was ready to run but waited for a core (Linux
        schedstat): on a shared machine, the part of latency that is not the server's."""
        try:
            return int(Path(f"/proc/{p.pid}/schedstat").read_text().split()[1]) / 1e9
        except (OSError, IndexError, ValueError):
            return float("nan")

    def _sample(self) -> None:
        self.samples.append((time.time(), [self._cpu(p) for p in self.procs],
                             [self._waited(p) for p in self.procs]))
        for i, p in enumerate(self.procs):
            with contextlib.suppress(Exception):
                self.rss_max[i] = max(self.rss_max[i], p.memory_info().rss)

    def stop(self, t0: float, t1: float) -> list[dict]:
        self._stop.set()
        self._thread.join()
        self._sample()
        a = min(self.samples, key=lambda x: abs(x[0] - t0))
        b = min(self.samples, key=lambda x: abs(x[0] - t1))
        wall = max(b[0] - a[0], 1e-9)
        out = []
        for i, p in enumerate(self.procs):
            try:
                rss = p.memory_info().rss
            except Exception:  # noqa: BLE001
                rss = 0
            cpu = b[1][i] - a[1][i]
            waited = b[2][i] - a[2][i]
            out.append({"pid": p.pid, "cpu_seconds": round(cpu, 2),
                        "cpu_percent": round(100 * cpu / wall, 1),
                        "cpu_wait_percent": round(100 * waited / wall, 1),
                        "rss_mb": round(rss / 2**20, 1),
                        "rss_start_mb": round(self.rss_start[i] / 2**20, 1),
                        "rss_max_mb": round(self.rss_max[i] / 2**20, 1)})
        return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# sign-up comes from one address (loopback); the bench is not an attacker
OPEN_LIMITS = {"TWMJ_AUTH_RATE": "100000", "TWMJ_AUTH_BURST": "100000",
               "TWMJ_SIGNUP_BURST": "10000000", "TWMJ_SIGNUP_NET_BURST": "10000000",
               "TWMJ_SIGNUP_GLOBAL_BURST": "10000000", "TWMJ_BOT_FILL_WAIT": "30"}


class Onebox:
    """``deploy/onebox.sh up DIR`` for the run (nginx on 8080 in front of its workers,
    PostgreSQL, Redis), with the limits opened for loopback clients, and ``down`` after.
    The clients go through nginx; the workers' CPU and RSS are watched by their pids."""

    def __init__(self, folder: str, extra_env: dict):
        self.dir = Path(folder).resolve()
        self.script = Path(__file__).resolve().parents[1] / "deploy" / "onebox.sh"
        conns = extra_env.get("TWMJ_MAX_CONNECTIONS", "20000")
        self.env = {**os.environ, **OPEN_LIMITS, "ONEBOX_CONN_PER_ADDRESS": conns,
                    "TWMJ_MAX_CONNECTIONS_PER_ADDRESS": conns, **extra_env}
        self.env.setdefault("TWMJ", shutil.which("twmj", path=str(Path(sys.executable).parent))
                            or "twmj")
        up = subprocess.run([str(self.script), "up", str(self.dir)], env=self.env,
                            capture_output=True, text=True)
        if up.returncode != 0:
            sys.exit(f"load: deploy/onebox.sh up failed: {up.stderr.strip() or up.stdout}")
        self.bases = [f"http://127.0.0.1:{self.env.get('ONEBOX_PORT', '8080')}"]
        self.pids = [int(f.read_text()) for f in sorted(self.dir.glob("worker*.pid"))]

    def stop(self) -> None:
        subprocess.run([str(self.script), "down", str(self.dir)], env=self.env,
                       capture_output=True, text=True)


class Served:
    """``twmj serve`` processes started for the run, with limits open for loopback clients."""

    def __init__(self, n: int, database: str | None, redis: str | None, extra_env: dict,
                 route: bool = True):
        self.data = Path(tempfile.mkdtemp(prefix="twmj-load-"))
        self.procs: list[subprocess.Popen] = []
        self.bases: list[str] = []
        env = {**os.environ, "TWMJ_SECRET_KEY": "load-bench", "TWMJ_DATA_DIR": str(self.data),
               **OPEN_LIMITS, **extra_env}
        if database:
            env["TWMJ_DATABASE_URL"] = database
        if redis:
            env["TWMJ_REDIS_URL"] = redis
        twmj = shutil.which("twmj", path=str(Path(sys.executable).parent)) or "twmj"
        for i in range(n):
            port = _free_port()
            log = open(self.data / f"serve-{i}.log", "w")
            # each worker's own address: a socket moves to its table's worker (no relay)
            own = {"TWMJ_ROUTE": f"ws://127.0.0.1:{port}/ws"} if route and n > 1 else {}
            self.procs.append(subprocess.Popen([twmj, "serve", "--port", str(port)],
                                               env={**env, **own},
                                               stdout=log, stderr=subprocess.STDOUT))
            self.bases.append(f"http://127.0.0.1:{port}")
        for proc, base in zip(self.procs, self.bases):
            deadline = time.monotonic() + 120
            while True:
                if proc.poll() is not None:
                    sys.exit(f"load: twmj serve exited ({proc.returncode}); see {self.data}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/v1/health", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    sys.exit("load: twmj serve did not answer within 120 s")
                time.sleep(0.1)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGINT)
        for p in self.procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``; NaN when there are none."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(-(-p * len(values) // 100)) - 1))]


def summary(plan: Plan, tally: Tally, servers: list[dict], client_cpu: float) -> dict:
    lat, passes = tally.latencies, tally.pass_latencies
    p99 = round(pct(lat, 99), 1)
    bound = client_bound(p99, tally.procs)
    play = max(tally.play_seconds, 1e-9)
    answered = tally.acked + tally.refused
    failed = tally.timed_out + tally.lost
    return {
        "clients": plan.clients, "idle": plan.idle, "tables": plan.clients // 4,
        "connected": tally.connected, "idle_connected": tally.idle_connected,
        "seated": tally.seated, "seat_failed": tally.seat_failed,
        "seat_seconds": round(tally.seat_seconds, 1),
        "seat_wait_ms": {"p50": round(pct(tally.seat_waits, 50), 1),
                         "max": round(max(tally.seat_waits, default=float("nan")), 1)},
        "play_seconds": round(play, 1),
        "actions": {"sent": tally.sent, "acked": tally.acked, "refused": tally.refused,
                    "timed_out": tally.timed_out, "lost": tally.lost, "failed": failed,
                    "acked_ratio": round(tally.acked / tally.sent, 5) if tally.sent else None,
                    "per_second": round(tally.sent / play, 1)},
        # own-turn moves: the server's answer time (a pass waits for the other seats)
        "latency_ms": {"p50": round(pct(lat, 50), 1), "p95": round(pct(lat, 95), 1),
                       "p99": None if bound else p99, "p99_measured": p99,
                       "max": round(max(lat, default=float("nan")), 1), "n": len(lat)},
        "client_bound": bound,
        "pass_latency_ms": {"p50": round(pct(passes, 50), 1), "p99": round(pct(passes, 99), 1),
                            "max": round(max(passes, default=float("nan")), 1),
                            "n": len(passes)},
        "client_processes": sorted(tally.procs, key=lambda p: p["index"]),
        "messages": {"in": tally.messages_in, "out": tally.messages_out,
                     "per_second": round((tally.messages_in + tally.messages_out) / play, 0)},
        "warmup_actions": tally.warmup_actions,
        "hands": tally.hands, "games": tally.games, "arrived": tally.arrived,
        "left": tally.left, "moved": tally.moved, "errors": tally.errors, "answered": answered,
        "servers": servers,
        # per player action (each also moves the table on: passes, draws, 4 updates)
        "server_cpu_ms_per_action": round(1000 * sum(x["cpu_seconds"] for x in servers)
                                          / tally.sent, 3) if tally.sent and servers else None,
        "server_kb_per_connection": round(
            1024 * sum(x["rss_mb"] - x["rss_start_mb"] for x in servers)
            / max(1, tally.connected + tally.idle_connected), 1) if servers else None,
        "client_cpu_percent": round(100 * client_cpu / play, 1),
        "think": list(plan.think), "timeout": plan.timeout,
        "load_average": list(os.getloadavg()),
        "hints": {"share": plan.hints, "n": len(tally.hint_ms), "p50": round(pct(tally.hint_ms, 50), 1),
                  "p95": round(pct(tally.hint_ms, 95), 1)} if plan.hints else None,
    }


def print_table(s: dict) -> None:
    from rich.console import Console
    from rich.table import Table
    t = Table(title="twmj load", show_header=False)
    a, lat = s["actions"], s["latency_ms"]
    rows = [
        ("clients", f"{s['clients']} playing ({s['tables']} tables) + {s['idle']} idle; "
                    f"connected {s['connected']} + {s['idle_connected']}"),
        ("seated", f"{s['seated']} in {s['seat_seconds']} s (wait p50 {s['seat_wait_ms']['p50']} "
                   f"ms, max {s['seat_wait_ms']['max']} ms; not seated {s['seat_failed']})"),
        ("play", f"{s['play_seconds']} s, think {s['think'][0]}-{s['think'][1]} s, "
                 f"timeout {s['timeout']} s"),
        ("actions", f"sent {a['sent']}, acked {a['acked']} ({a['acked_ratio']}), refused "
                    f"{a['refused']}, timed out {a['timed_out']}, lost {a['lost']}; "
                    f"{a['per_second']}/s"),
        ("own moves ms", f"p50 {lat['p50']}  p95 {lat['p95']}  p99 {lat['p99']}  "
                         f"max {lat['max']}  (n={lat['n']})" if not s["client_bound"] else
                         f"p50 {lat['p50']}  p99 unreliable: client-bound ({s['client_bound']})"),
        ("passes ms", f"p50 {s['pass_latency_ms']['p50']}  p99 {s['pass_latency_ms']['p99']}  "
                      f"(n={s['pass_latency_ms']['n']}; a pass waits for every seat asked)"),
        ("messages", f"{s['messages']['in']} in, {s['messages']['out']} out, "
                     f"{s['messages']['per_second']:.0f}/s"),
        ("hands/games", f"{s['hands']} hand ends seen, {s['games']} game ends; churn "
                        f"{s['left']} left, {s['arrived']} arrived; {s['moved']} sockets "
                        "moved to their table's worker"),
    ]
    for srv in s["servers"]:
        rows.append((f"server {srv['pid']}", f"CPU {srv['cpu_percent']}% (waited for a core "
                                             f"{srv['cpu_wait_percent']}%)  RSS {srv['rss_mb']} MB "
                                             f"(max {srv['rss_max_mb']} MB)"))
    for m in s.get("server_metrics", []):
        if m.get("twmj_liveness_mends"):
            rows.append(("LIVENESS", f"{m['twmj_liveness_mends']:.0f} tables mended "
                                     "(play/liveness.py; the server log has each)"))
        if "action_broadcast_ms" in m:
            ab, dc, dr = m["action_broadcast_ms"], m["db_commit_ms"], m["db_commit_rows"]
            rows.append(("server view", f"action->broadcast mean {ab['mean']} ms, p99 <= "
                                        f"{ab['p99']} ms; commit mean {dc['mean']} ms, p99 <= "
                                        f"{dc['p99']} ms, {dr['mean']} moves/commit "
                                        f"({dc['count']} commits)"))
    if s["server_cpu_ms_per_action"] is not None:
        rows.append(("per unit", f"server CPU {s['server_cpu_ms_per_action']} ms per player "
                                 f"action; {s['server_kb_per_connection']} KB RSS per connection"))
    rows.append(("client", f"CPU {s['client_cpu_percent']}% (of one core, all client processes)"))
    for c in s["client_processes"]:
        rows.append((f"client {c['index']}", f"CPU {c['cpu_percent']}%  loop lag p50 "
                                             f"{c['lag_ms']['p50']} / p99 {c['lag_ms']['p99']} / "
                                             f"max {c['lag_ms']['max']} ms"))
    rows.append(("load average", " ".join(f"{x:.2f}" for x in s["load_average"])))
    if s.get("hints"):
        rows.append(("hints", "{share:g} of tables; answered p50 {p50} ms p95 {p95} ms (n={n})"
                     .format(**s["hints"])))
    if s["errors"]:
        rows.append(("errors", ", ".join(f"{k} {v}" for k, v in sorted(s["errors"].items()))))
    for k, v in rows:
        t.add_row(k, v)
    Console().print(t)


def scrape(base: str) -> dict:
    """The server's own view of the run from ``/metrics`` (if it has one): the
    action->broadcast latency and the group commits' time and size, as the server
    measured them — the bench's figures include the network and the client."""
    from prometheus_client.parser import text_string_to_metric_families
    try:
        text = httpx.get(base + "/metrics", timeout=10).text
        families = {f.name: f for f in text_string_to_metric_families(text)}
    except Exception:  # noqa: BLE001 - an older server without /metrics
        return {}
    out: dict = {}
    for name, key in (("twmj_action_broadcast_seconds", "action_broadcast_ms"),
                      ("twmj_db_commit_seconds", "db_commit_ms"),
                      ("twmj_db_commit_rows", "db_commit_rows")):
        fam = families.get(name)
        if fam is None:
            continue
        buckets = [(float(s.labels["le"]), s.value) for s in fam.samples
                   if s.name.endswith("_bucket")]
        count = next((s.value for s in fam.samples if s.name.endswith("_count")), 0)
        total = next((s.value for s in fam.samples if s.name.endswith("_sum")), 0)
        scale = 1000 if key.endswith("_ms") else 1
        est = {f"p{q}": _bucket_quantile(buckets, count, q / 100) * scale for q in (50, 99)}
        out[key] = {"count": int(count), "mean": round(total / count * scale, 2) if count else None,
                    **{k: round(v, 2) for k, v in est.items()}}
    for name in ("twmj_actions", "twmj_errors", "twmj_slow_clients_dropped",
                 "twmj_connections_refused", "twmj_gc_seconds", "twmj_liveness_mends"):
        fam = families.get(name)
        if fam is not None:
            out[name] = sum(s.value for s in fam.samples if s.name.endswith("_total"))
    return out


def _bucket_quantile(buckets: list[tuple[float, float]], count: float, q: float) -> float:
    """Prometheus' histogram_quantile: the upper bound of the bucket holding the q-th
    observation (an estimate; the bench's own percentiles are exact)."""
    if not count:
        return float("nan")
    for le, n in sorted(buckets):
        if n >= q * count:
            return le
    return float("inf")


def measure(plan: Plan, bases: list[str], pids: list[int], procs: int = 1) -> dict:
    """Run ``plan`` against ``bases`` from ``procs`` client processes; the summary."""
    watch = Watch(pids) if pids else None
    if watch:
        watch.start()
    tally = Tally()
    if procs <= 1:
        tally = run_slice(plan, bases)
    else:
        ctx = multiprocessing.get_context("spawn")
        pipes, children = [], []
        barrier = ctx.Barrier(procs)
        for i in range(procs):
            recv, send = ctx.Pipe(duplex=False)
            c = ctx.Process(target=_child, args=(plan, bases, i, procs, barrier, send),
                            daemon=True)
            c.start()
            pipes.append(recv)
            children.append(c)
        for recv, c in zip(pipes, children):
            try:
                got = recv.recv()
            except EOFError:
                sys.exit(f"load: client process {c.pid} died")
            tally.merge(Tally(**got))
            c.join()
    servers = watch.stop(tally.play_from, tally.play_to) if watch else []
    out = summary(plan, tally, servers, tally.cpu)
    out["server_metrics"] = [scrape(b) for b in bases]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=40, help="playing clients (tables of four)")
    ap.add_argument("--idle", type=int, default=0, help="idle lobby connections")
    ap.add_argument("--seconds", type=float, default=30.0, help="of play, after seating")
    ap.add_argument("--think", default="1-3", help="think time range in s (default 1-3)")
    ap.add_argument("--timeout", type=float, default=5.0, help="an action unanswered this "
                                                              "long is a failure")
    ap.add_argument("--seat-timeout", type=float, default=60.0,
                    help="s after the last sign-up a player may wait to be seated")
    ap.add_argument("--churn", type=float, default=0.0, help="players a second who leave "
                                                             "(as many arrive)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=1, help="client processes")
    ap.add_argument("--signup-parallel", type=int, default=32)
    ap.add_argument("--url", help="running server(s), comma-separated; clients round-robin")
    ap.add_argument("--server-pid", default="", help="pids of those servers (CPU/RSS)")
    ap.add_argument("--serve", type=int, default=1, help="processes to start without --url")
    ap.add_argument("--database", help="database for the started servers (default SQLite)")
    ap.add_argument("--redis", help="Redis for started servers (needed for --serve > 1)")
    ap.add_argument("--env", action="append", default=[], metavar="TWMJ_X=V",
                    help="extra settings for the started servers")
    ap.add_argument("--onebox", metavar="DIR",
                    help="run deploy/onebox.sh up DIR (nginx + workers + PostgreSQL + Redis) "
                         "for the run and down after; clients go through nginx")
    ap.add_argument("--no-route", action="store_true",
                    help="started cluster workers say no route: every seat on the other "
                         "worker is relayed through Redis (the A/B of routing)")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--hints", type=float, default=0.0, help="share of tables (0-1) where a "
                    "player alone against bots asks the coach a hint at every decision")
    args = ap.parse_args()
    try:
        lo, hi = (float(x) for x in args.think.split("-"))
    except ValueError:
        sys.exit(f"load: --think {args.think!r}: expected two numbers like 1-3")
    if not 0 <= lo <= hi:
        sys.exit("load: --think: expected 0 <= low <= high")
    if args.serve > 1 and not args.redis and not args.url:
        sys.exit("load: --serve N > 1 needs --redis URL (one game world)")
    plan = Plan(clients=max(1, min(args.clients, MAX_CLIENTS)), idle=max(0, args.idle),
                seconds=max(1.0, min(args.seconds, MAX_SECONDS)), think=(lo, hi),
                timeout=args.timeout, seat_timeout=args.seat_timeout,
                churn=max(0.0, args.churn), seed=args.seed,
                signup_parallel=max(1, args.signup_parallel),
                hints=min(1.0, max(0.0, args.hints)))
    served = None
    if args.url:
        bases = [u.strip().rstrip("/") for u in args.url.split(",") if u.strip()]
        pids = [int(p) for p in args.server_pid.split(",") if p.strip()]
    else:
        extra = dict(e.split("=", 1) for e in args.env if "=" in e)
        extra.setdefault("TWMJ_MAX_CONNECTIONS", str(plan.clients + plan.idle + 256))
        # every simulated player comes from loopback: one address
        extra.setdefault("TWMJ_MAX_CONNECTIONS_PER_ADDRESS", extra["TWMJ_MAX_CONNECTIONS"])
        if args.onebox:
            served = Onebox(args.onebox, extra)
        else:
            served = Served(args.serve, args.database, args.redis, extra,
                            route=not args.no_route)
        bases, pids = served.bases, served.pids
    try:
        s = measure(plan, bases, pids, max(1, args.procs))
    finally:
        if served:
            served.stop()
    s["processes"] = len(bases)
    if args.json:
        print(orjson.dumps(s, option=orjson.OPT_INDENT_2).decode())
    else:
        print_table(s)


if __name__ == "__main__":
    main()

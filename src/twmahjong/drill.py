"""Fault drills on a real cluster: ``twmj serve`` workers, a redis-server of the
drill's own, and players that play over WebSockets and keep what they saw.

Used by the cluster fault tests (``tests/server/test_cluster_faults.py``) and by
``bench/chaos.py``. Everything binds to loopback; every process started here is
stopped by the object that started it. ``audit`` reads the stored games back and
checks them against what the players saw: no discard seen and lost, no move or
settlement applied twice, every record replays, the ledger balances.

    >>> RedisServer.free_port() > 0
    True
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

__all__ = ["DatabaseOutage", "Player", "RedisServer", "Worker", "audit", "bot_policy",
           "drop_postgres", "fresh_postgres", "simple_policy"]

HANG = 600.0        # a guard against hanging forever, never a budget


def simple_policy(obs: dict) -> dict:
    """Win when offered, pass claims, throw the drawn tile."""
    legal = obs["legal"]
    for t in ("win", "flower_win", "pass"):
        for a in legal:
            if a["type"] == t:
                return a
    for a in legal:
        if a["type"] == "discard" and a.get("tile") == obs.get("drawn"):
            return a
    return next((a for a in legal if a["type"] == "discard"), legal[0])


def bot_policy(name: str, seed: int):
    """A bot of this build answers for a client (over the wire, like any player), so
    hands end in wins and a game in minutes rather than in draw after draw."""
    from .bots import make_bot
    bot = make_bot(name, seed)

    def act(obs: dict) -> dict:
        a = bot.act(obs)
        return a if isinstance(a, dict) else a.to_json()
    return act


class RedisServer:
    """A redis-server of our own on a free loopback port: no disk, restartable
    (``SHUTDOWN NOSAVE``, then started again on the same port: everything is gone)."""

    def __init__(self, port: int | None = None, log: Path | None = None):
        self.port = port or self.free_port()
        self.log = log
        self.proc: subprocess.Popen | None = None

    @staticmethod
    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--protected-mode", "no"], stdout=out, stderr=out)
        deadline = time.monotonic() + HANG
        while not self._ping():
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} exited")
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        return self

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def shutdown(self) -> None:
        """``SHUTDOWN NOSAVE``: Redis is gone, and with it every key."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(b"SHUTDOWN NOSAVE\r\n")
                s.recv(16)
        except OSError:
            pass
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def restart(self, down: float = 0.0) -> None:
        self.shutdown()
        if down:
            time.sleep(down)
        self.start()

    def stop(self) -> None:
        self.shutdown()


class Worker:
    """``twmj serve`` in a process of its own, on a fixed port, database and Redis."""

    def __init__(self, db_url: str, data_dir: Path, *, redis_url: str | None = None,
                 prefix: str = "twmj", lease: float = 3.0, log: Path | None = None,
                 route: bool = False, **env: Any):
        """``route``: the worker tells clients its own address (``TWMJ_ROUTE``), so a
        player whose table it plays moves its socket here (``Player`` follows)."""
        self.port = RedisServer.free_port()
        self.log = log
        self.env = {**os.environ, "TWMJ_DATABASE_URL": db_url, "TWMJ_DATA_DIR": str(data_dir),
                    "TWMJ_SECRET_KEY": "drill", "TWMJ_PORT": str(self.port),
                    "TWMJ_BOT_DELAY": "0", "TWMJ_CLAIM_WINDOW": "0.02",
                    "TWMJ_BOT_FILL_WAIT": "0.2", "TWMJ_HAND_PAUSE": "0.05",
                    "TWMJ_DISCONNECT_GRACE": "60", "TWMJ_TURN_BASE": "60",
                    "TWMJ_PAUSE_AFTER": "3600", "TWMJ_AUTH_RATE": "1000",
                    "TWMJ_AUTH_BURST": "1000", "TWMJ_SIGNUP_BURST": "100000",
                    "TWMJ_SIGNUP_NET_BURST": "100000", "TWMJ_SIGNUP_GLOBAL_BURST": "100000"}
        if redis_url:
            self.env |= {"TWMJ_REDIS_URL": redis_url, "TWMJ_REDIS_PREFIX": prefix,
                         "TWMJ_CLUSTER_LEASE": str(lease)}
        if route:
            self.env["TWMJ_ROUTE"] = f"ws://127.0.0.1:{self.port}/ws"
        self.env |= {f"TWMJ_{k.upper()}": str(v) for k, v in env.items()}
        self.proc: subprocess.Popen | None = None

    def spawn(self) -> Worker:
        """Start the process and return at once (``wait_ready`` waits for it)."""
        twmj = Path(sys.executable).with_name("twmj")
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen([str(twmj), "serve"], env=self.env,
                                     stdout=out, stderr=out)
        return self

    def wait_ready(self) -> Worker:
        import httpx
        deadline = time.monotonic() + HANG
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"twmj serve on port {self.port} exited with "
                                   f"{self.proc.returncode}{self._tail()}")
            try:
                if httpx.get(f"{self.base}/api/v1/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("twmj serve did not start")
            time.sleep(0.05)

    def _tail(self) -> str:
        if self.log and self.log.exists():
            return ":\n" + self.log.read_text(errors="replace")[-3000:]
        return ""

    def start(self) -> Worker:
        return self.spawn().wait_ready()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill9(self) -> None:
        if self.alive:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def term(self) -> None:
        """SIGTERM: a graceful drain (tables stored and released), then the exit."""
        if self.alive:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.kill9()

    def stop(self) -> None:
        self.term()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def guest(self) -> str:
        import httpx
        return httpx.post(f"{self.base}/api/v1/guests", timeout=30).json()["token"]

    def health(self) -> dict:
        import httpx
        return httpx.get(f"{self.base}/api/v1/health", timeout=30).json()


@dataclass
class Player:
    """One guest who plays a whole game, reconnecting (with its ticket) to any live
    worker whenever its connection drops, and keeps what it saw and when. Where the
    workers have routes it follows its table: a snapshot naming another worker than
    the socket's opens the seat there, then the first socket closes (``moved``)."""

    name: str
    token: str
    ports: Any                                   # () -> ports of the live workers
    pace: tuple[float, float] = (0.0, 0.0)       # seconds to think, min and max
    rng: random.Random = field(default_factory=random.Random)
    seat: int | None = None
    game_id: str | None = None
    ticket: str | None = None
    turn: int | None = None
    hand: int = 0
    discards: list[tuple[int, int, str]] = field(default_factory=list)  # (hand, seat, tile)
    times: list[float] = field(default_factory=list)     # when each message arrived
    kinds: list[str] = field(default_factory=list)       # and its type (same order)
    sent: list[float] = field(default_factory=list)      # when each action was sent
    snapshots: list[float] = field(default_factory=list)
    acted: int = 0
    end: dict | None = None
    ended_by_record = False
    connections = 0
    requeued = 0                  # times the server asked it to queue again
    rematched = 0                 # times it was matched into another game than its own
    moved = 0                     # times its socket moved to its table's worker
    route: str | None = None      # the worker its socket is on (welcome), if told
    _ws: Any = field(default=None, init=False, repr=False)   # the socket read now
    on_message: Any = None        # (player, message) -> awaitable or None: test hooks
    port: int | None = None       # the worker it is connected to now
    policy: Any = None            # observation -> action (a bot's ``act``); simple_policy

    async def play(self, first_port: int, *, mode: str = "casual",
                   matched: asyncio.Event | None = None) -> Player:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException
        port = first_port
        while self.end is None:
            try:
                async with connect(f"ws://127.0.0.1:{port}/ws", max_size=2**22,
                                   open_timeout=30) as ws:
                    self.port = port
                    self.connections += 1
                    if self.ticket is None:
                        await ws.send(json.dumps({"type": "hello", "token": self.token}))
                        await ws.send(json.dumps({"type": "quick_match", "mode": mode}))
                    else:
                        # a ticket sits down only the account whose session says hello
                        await ws.send(json.dumps({"type": "hello", "token": self.token,
                                                  "ticket": self.ticket}))
                    await self._session(ws, matched, mode)
            except (OSError, WebSocketException, TimeoutError):
                pass
            except _GameOver:
                self.ended_by_record = True
                return self
            if self.end is None:
                await asyncio.sleep(0.1 + self.rng.random() * 0.2)
                live = list(self.ports()) or [port]
                port = self.rng.choice(live)
        return self

    async def _session(self, ws, matched: asyncio.Event | None, mode: str) -> None:
        first = ws
        try:
            await self._messages(ws, matched, mode)
        finally:
            if self._ws is not None and self._ws is not first:
                await self._ws.close()      # a moved socket (the first one's ``with`` closes it)
            self._ws = None

    async def _messages(self, ws, matched: asyncio.Event | None, mode: str) -> None:
        self._ws = ws
        self.route = None
        owners: dict | None = None       # the table's worker's snapshot, after a move
        while self.end is None:
            ws = self._ws
            if owners is not None:
                m, owners = owners, None
            else:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a
                # cancel that lands as recv() completes, and a cancelled player then
                # played on for ever at full speed (a test's gather of its cancelled
                # players hung)
                async with asyncio.timeout(HANG):
                    m = json.loads(await ws.recv())
            now = time.monotonic()
            self.times.append(now)
            t = m.get("type")
            self.kinds.append(t if t != "error" else f"error:{m.get('code')}")
            if t == "error":
                if m.get("code") in ("no_table",):
                    raise _GameOver
                if m.get("code") in ("auth", "bad_message"):    # refused: a harness bug
                    raise RuntimeError(f"{self.name}: the server refused us: {m}")
                # the queue lost us (a fault), or the database was away when we asked
                # (a hello told so is closed: we reconnect): queue again, as a person
                # pressing 一鍵匹配 again would, after a moment for the database
                if self.game_id is None and (m.get("code") in ("requeue", "unavailable") or m.get(
                        "message", "").startswith("could not start the table")):
                    self.requeued += 1
                    if m.get("code") == "unavailable":
                        await asyncio.sleep(0.5)
                    await ws.send(json.dumps({"type": "quick_match", "mode": mode}))
                continue            # not_your_turn, stale, illegal_action, rate_limited...
            if t == "matched":
                if self.game_id not in (None, m["game_id"]):
                    self.rematched += 1          # seated at a second table: a bug
                self.seat, self.game_id, self.ticket = m["seat"], m["game_id"], m["ticket"]
                if matched is not None:
                    matched.set()
            if t == "welcome":
                self.route = m.get("route")
            if t == "snapshot":
                self.snapshots.append(now)
                self.ticket = m.get("ticket") or self.ticket
                if m.get("hand"):
                    self.hand = m["hand"]["hand_no"]
                route = (m.get("table") or {}).get("route")
                if route and self.route and route != self.route and self.ticket:
                    owners = await self._follow(route)
                    if owners is not None:
                        continue    # the owner's snapshot, on the new socket, says what to do
            if t == "hand_start":
                self.hand = m["hand_no"]
            if t == "update":
                for ev in m.get("events", []):
                    if ev.get("type") == "discard":
                        self.discards.append((self.hand, ev["seat"], ev["tile"]))
            if t == "game_end":
                self.end = m
                return
            if self.on_message is not None:
                res = self.on_message(self, m)
                if asyncio.iscoroutine(res):
                    await res
            obs = m.get("observation") if t in ("snapshot", "update") else None
            if obs and obs.get("legal"):
                self.turn = m["turn"]
                lo, hi = self.pace
                if hi > 0:
                    await asyncio.sleep(lo + (hi - lo) * self.rng.random())
                await ws.send(json.dumps({"type": "action", "turn": m["turn"],
                                          "action": (self.policy or simple_policy)(obs)}))
                self.sent.append(time.monotonic())
                self.acted += 1

    async def _follow(self, route: str) -> dict | None:
        """Open the seat on its table's worker, and once that worker's snapshot came,
        read the new socket and close the first (make before break): that snapshot.
        None: the seat stays where it is, relayed."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        from .client.http import route_url
        url = route_url(f"ws://127.0.0.1:{self.port}/ws", route)
        new = None
        try:
            new = await connect(url, max_size=2**22, open_timeout=30)
            await new.send(json.dumps({"type": "hello", "token": self.token,
                                       "ticket": self.ticket}))
            async with asyncio.timeout(30):
                while (m := json.loads(await new.recv()))["type"] != "snapshot":
                    if m["type"] == "error":
                        raise LookupError(m.get("code"))
        except (OSError, WebSocketException, TimeoutError, LookupError):
            if new is not None:
                await new.close()
            return None
        old, self._ws, self.route = self._ws, new, route
        self.port = urlsplit(url).port or self.port
        self.connections += 1
        self.moved += 1
        await old.close()
        return m

    def gaps(self) -> list[tuple[float, float]]:
        """(start, length) of the silences between the messages it received."""
        return [(a, b - a) for a, b in zip(self.times, self.times[1:])]


class _GameOver(Exception):
    pass


def _unmatched(seen: list, stored: list) -> Iterator[tuple[int, int]]:
    """Each of ``seen`` that cannot be matched, in order, within ``stored``: its
    index, and where in ``stored`` the matching had got to."""
    it = 0
    for n, x in enumerate(seen):
        j = it
        while j < len(stored) and stored[j] != x:
            j += 1
        if j == len(stored):
            yield n, it
        else:
            it = j + 1


def _subsequence_missing(seen: list, stored: list) -> int:
    """How many of ``seen`` cannot be matched, in order, within ``stored``."""
    return sum(1 for _ in _unmatched(seen, stored))


def _first_missing(seen: list, stored: list) -> dict:
    """Where ``seen`` first leaves ``stored``: the seen discard, what the player saw
    just before it, and the stored rows around the last match (a chaos report)."""
    for n, it in _unmatched(seen, stored):
        return {"seen": seen[n], "seen_before": seen[max(0, n - 3):n], "seen_index": n,
                "of_seen": len(seen), "stored_after_match": stored[it:it + 4],
                "stored_index": it, "of_stored": len(stored)}
    return {}


def _stored_discards(rows: list[dict]) -> list[tuple[int, int, str]]:
    """(hand, seat, tile) of every stored move that puts a tile in the river: a
    discard, and a 聽 declared with its discard (the players see a discard for it)."""
    hand = 0
    out = []
    for r in rows:
        if r["kind"] == "hand":
            hand = r["hand_no"]
        a = r["data"].get("action") if r["kind"] == "action" else None
        if a and a.get("tile") and a.get("type") in ("discard", "declare"):
            out.append((hand, r["seat"], a["tile"]))
    return out


async def audit(db_url: str, players: list[Player]) -> dict:
    """What the database holds, checked against what the players saw."""
    from .server.core import rebuild
    from .server.store.db import create_engine
    from .server.store.repository import SqlRepository
    engine = create_engine(db_url)
    repo = SqlRepository(engine)
    out = {"games": 0, "finished": 0, "active": 0, "aborted": 0, "lost": 0, "twice": 0,
           "unreplayable": 0, "ledger_off": 0, "hand_sum_off": 0, "stored_moves": 0}
    try:
        by_game: dict[str, list[Player]] = {}
        for p in players:
            if p.game_id:
                by_game.setdefault(p.game_id, []).append(p)
        for gid, ps in by_game.items():
            row = await repo.game(gid)
            out["games"] += 1
            out[row["status"] if row["status"] in ("finished", "active", "aborted")
                else "active"] += 1
            rows = await repo.game_actions(gid)
            out["stored_moves"] += sum(1 for r in rows if r["kind"] == "action")
            # seqs run 0..n-1, one "hand" and at most one "settled" per hand
            if [r["seq"] for r in rows] != list(range(len(rows))):
                out["twice"] += 1
            hands = [r["hand_no"] for r in rows if r["kind"] == "hand"]
            settled = [r["hand_no"] for r in rows if r["kind"] == "settled"]
            out["twice"] += (len(hands) - len(set(hands))) + (len(settled) - len(set(settled)))
            try:
                await rebuild(repo, row)
            except Exception:
                out["unreplayable"] += 1
            stored = _stored_discards(rows)
            for p in ps:
                missing = _subsequence_missing(p.discards, stored)
                out["lost"] += missing
                if missing:
                    out.setdefault("lost_detail", []).append(
                        (gid, p.name, missing, _first_missing(p.discards, stored)))
        async with engine.connect() as conn:
            import sqlalchemy as sa
            off = await conn.execute(sa.text(
                "SELECT count(*) FROM accounts a WHERE a.coins <> "
                "(SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.account_id = a.id)"))
            out["ledger_off"] = int(off.scalar())
            ids = sorted(by_game)
            if ids:
                res = await conn.execute(sa.text(
                    "SELECT game_id, hand_no, account_id, reason, count(*) AS n FROM ledger "
                    "WHERE game_id IN :ids AND reason = 'hand' "
                    "GROUP BY game_id, hand_no, account_id, reason HAVING count(*) > 1"
                ).bindparams(sa.bindparam("ids", expanding=True)), {"ids": ids})
                out["twice"] += len(res.fetchall())
                res = await conn.execute(sa.text(
                    "SELECT game_id, hand_no, sum(amount) FROM ledger WHERE game_id IN :ids "
                    "GROUP BY game_id, hand_no HAVING sum(amount) <> 0"
                ).bindparams(sa.bindparam("ids", expanding=True)), {"ids": ids})
                out["hand_sum_off"] = len(res.fetchall())
    finally:
        await engine.dispose()
    return out


def _asyncpg_url(url: str) -> str:
    """SQLAlchemy's ``postgresql+asyncpg://`` URL as asyncpg itself takes it."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def fresh_postgres(url: str, name: str) -> str:
    """An empty database ``name`` on the PostgreSQL of ``url`` (created if missing)."""
    import asyncpg
    plain = _asyncpg_url(url)
    base = plain.rpartition("/")[0]

    async def prepare() -> None:
        conn = await asyncpg.connect(plain)
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname=$1", name):
                await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        conn = await asyncpg.connect(f"{base}/{name}")
        try:
            await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        finally:
            await conn.close()

    asyncio.run(prepare())
    return url.rpartition("/")[0] + "/" + name


def drop_postgres(url: str) -> None:
    """Drop the database of ``url`` (its connections cut first): a drill that made a
    database of its own to start from nothing leaves none behind."""
    import asyncpg
    plain = _asyncpg_url(url)
    base, _, name = plain.rpartition("/")

    async def drop() -> None:
        conn = await asyncpg.connect(f"{base}/postgres")
        try:
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except asyncpg.InsufficientPrivilegeError:
                # FORCE signals every backend on the database, and a role without
                # pg_signal_backend may not signal one of no role: autovacuum, which a
                # freshly migrated database draws at once. A plain DROP tells
                # autovacuum to stop itself and waits for the backends to leave, so ours
                # are ended first (the only ones a drill leaves there).
                await conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = $1 AND usename = current_user AND pid <> pg_backend_pid()",
                    name)
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        finally:
            await conn.close()

    asyncio.run(drop())


class DatabaseOutage:
    """The drill's PostgreSQL database goes away and comes back, as in a restart or a
    failover, without touching the server's other databases (no root needed): ``down``
    cuts every connection to it and refuses new ones (``ALLOW_CONNECTIONS false``, then
    ``pg_terminate_backend``), ``up`` lets them in again. The role must own the database
    (``fresh_postgres`` creates it so)."""

    def __init__(self, url: str):
        plain = _asyncpg_url(url)
        self.base, _, self.name = plain.rpartition("/")
        # a connection to another database of the server (ours is the one going away)
        self.admin = f"{self.base}/postgres"

    async def _run(self, allow: bool) -> None:
        import asyncpg
        conn = await asyncpg.connect(self.admin)
        try:
            await conn.execute(f'ALTER DATABASE "{self.name}" ALLOW_CONNECTIONS '
                               f'{"true" if allow else "false"}')
            if not allow:
                await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE datname = $1 AND pid <> pg_backend_pid()", self.name)
        finally:
            await conn.close()

    def down(self) -> None:
        asyncio.run(self._run(False))

    def up(self) -> None:
        asyncio.run(self._run(True))

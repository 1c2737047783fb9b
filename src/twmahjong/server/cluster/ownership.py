"""Several server processes, one game world (``twmj serve --redis URL``).

Each table still has exactly one owner — the process whose actor runs it — and
every process can seat a player at any table. A connection on process A whose
table lives on process B talks to a ``RemoteTable``: the same outside API as a
``Table`` (``attach``, ``detach``, ``submit``), forwarded to B over B's inbox
channel. B seats a ``Relay`` for it, an Outbox that sends every message the table
pushes to that seat back over A's inbox — the seat's own view, never the state.

Ownership is a lease (``redis_seams.RedisDirectory``), renewed by the heartbeat.
When a process stops, or dies and its leases run out, another process adopts each
ownerless active game: it claims the lease, replays the stored seed + actions
(``Server.resume_game``, as a restart does) and announces ``table_moved``, on
which every process re-attaches the connections it relays to the new owner.

A process seats every connection to a game owned elsewhere through one
``RemoteTable`` per game (``find`` holds a lock per game), so a move reaches them
all. Each heartbeat also compares the owner of every relayed game with the one it
relays to, and follows it if a ``table_moved`` was missed.

Redis is a cache and a bus; PostgreSQL is the truth. Owning a game in Redis lets a
process run it, but only the owner epoch stored with the game (``games.epoch``,
bumped by ``repository.take_game`` on every adoption) lets it write: a process that
lost its lease without noticing (Redis restarted, a long pause) has its next write
refused, stops the table (``let_go``) and lets its players follow the game. When
Redis comes back after losing everything (a restart: its ``run_id`` changed, or the
heartbeat failed), the process subscribes again, rewrites its presence, re-takes the
leases it still may, and announces ``resync``: every process then seats its relayed
connections again at each game's current owner (a fresh snapshot each).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from types import SimpleNamespace
from typing import Any

from pydantic import ValidationError

from ..net import protocol as P
from ..play.table import ranks_of
from .redis_queue import RedisMatchQueue
from .redis_seams import RedisBus, RedisDirectory, RedisLink, RedisPresence, RedisRooms

__all__ = ["TOPICS", "Cluster", "Relay", "RemoteTable", "stored_end"]

log = logging.getLogger("twmahjong.server.cluster.ownership")

TOPICS = ("table_started", "game_finished", "table_moved", "resync")


class Relay:
    """On the owner: a seat's connection that lives in another process."""

    def __init__(self, cluster: Cluster, via: str, conn: str, game_id: str, seat: int):
        self.cluster, self.via, self.conn = cluster, via, conn
        self.game_id, self.seat = game_id, seat
        self.gone = False
        self.checking = False
        # attaches seen for this seat: a liveness check that began before the latest
        # one must not drop a connection its process has seated again meanwhile
        self.attaches = 0

    def push(self, text: str) -> None:
        if not self.gone:
            self.cluster.link.publish(self.cluster.link.inbox(self.via),
                                      {"op": "out", "conn": self.conn, "text": text},
                                      on_nobody=self._nobody)

    def _nobody(self) -> None:
        """Nobody heard the message: the relaying process is gone, or only its
        subscription is (Redis restarting). Drop the seat's connection once the process
        has stayed gone for a lease; a process that comes back seats it again anyway."""
        if not self.gone and not self.checking:
            self.checking = True
            self.cluster._spawn(self._check(self.attaches))

    async def _check(self, attaches: int) -> None:
        try:
            for _ in range(2):
                await asyncio.sleep(self.cluster.lease / 2)
                if self.attaches != attaches or await self.cluster.link.alive(self.via):
                    return
            if not self.gone and self.attaches == attaches:
                self.gone = True
                self.cluster.drop_relay(self)
        except Exception:
            pass                        # Redis away: the next message that fails asks again
        finally:
            self.checking = False


class RemoteTable:
    """On a relaying process: a table owned elsewhere (or adopted here since)."""

    def __init__(self, cluster: Cluster, game_id: str, seats: list[dict], owner: str | None):
        self.cluster = cluster
        self.id = game_id
        self.seats = [SimpleNamespace(account_id=s.get("account_id"), name=s.get("name"),
                                      forfeited=bool(s.get("forfeited")))
                      for s in seats]
        self.owner = owner
        self.local: Any = None           # the table itself, once this process adopted it
        self._finished = False
        self.attached: dict[str, tuple[int, Any]] = {}     # conn id -> (seat, connection)
        # attaches sent and not yet answered by a snapshot (conn id -> when sent): one
        # lost on the way (dropped, or reaching an owner still adopting) is sent again
        self.unacked: dict[str, float] = {}
        self.watchers: dict[str, tuple[int, Any]] = {}     # 觀戰: conn id -> (account, conn)

    @property
    def finished(self) -> bool:
        return self.local.finished if self.local is not None else self._finished

    def attach(self, seat: int, conn: Any) -> None:
        cid = self.cluster.register_conn(conn, self)
        self.attached[cid] = (seat, conn)
        if self.local is not None:
            self.local.attach(seat, conn)
        else:
            self._send({"op": "attach", "seat": seat, "conn": cid})

    def detach(self, seat: int, conn: Any) -> None:
        cid = self.cluster.conn_key(conn)
        self.attached.pop(cid, None)
        self.unacked.pop(cid, None)
        self.cluster.forget_conn(cid, self)
        if self.local is not None:
            self.local.detach(seat, conn)
        else:
            self._send({"op": "detach", "seat": seat, "conn": cid})

    def submit(self, seat: int, msg: Any, conn: Any) -> None:
        if self.local is not None:
            self.local.submit(seat, msg, conn)
        else:
            self._send({"op": "action", "seat": seat, "conn": self.cluster.conn_key(conn),
                        "msg": msg.model_dump(mode="json", exclude_none=True)})

    async def forfeit(self, seat: int, account_id: int) -> str:
        """認輸, decided by the table's owner (its answer comes back on our inbox)."""
        if self.local is not None:
            return str(await self.local.forfeit(seat, account_id))
        outcome = await self.cluster.ask_owner(self, {"op": "forfeit", "seat": seat,
                                                      "account": account_id})
        if outcome in ("bot_plays", "ended"):
            self.seats[seat].forfeited = True
        if outcome == "ended":
            self._finished = True
        if not self.attached and not self.watchers:     # asked for this answer only
            self.cluster.forget_remote(self)
        return outcome

    def watch(self, conn: Any, account_id: int) -> None:
        """觀戰 from this process: the owner sends the watcher's frames back here."""
        cid = self.cluster.register_conn(conn, self)
        self.watchers[cid] = (account_id, conn)
        if self.local is not None:
            self.local.watch(conn, account_id)
        else:
            self._send({"op": "watch", "seat": -1, "conn": cid, "account": account_id})

    def unwatch(self, conn: Any) -> None:
        cid = self.cluster.conn_key(conn)
        if self.watchers.pop(cid, None) is None:
            return
        self.cluster.forget_conn(cid, self)
        if self.local is not None:
            self.local.unwatch(conn)
        else:
            self._send({"op": "unwatch", "seat": -1, "conn": cid})

    def listen(self, msg: Any, conn: Any) -> None:
        """A watcher's voice message (listening): to the owner, like its watch."""
        cid = self.cluster.conn_key(conn)
        if self.local is not None:
            self.local.listen(msg, conn)
        elif cid in self.watchers:
            self._send({"op": "listen", "seat": -1, "conn": cid,
                        "msg": msg.model_dump(mode="json", exclude_none=True)})

    def _send(self, msg: dict) -> None:
        if self.owner is not None:      # no owner: wait for table_moved, then re-attach
            cid = msg["conn"]
            if msg["op"] == "attach":
                self.unacked[cid] = asyncio.get_running_loop().time()
            on_nobody = None
            if msg["op"] == "action":
                on_nobody = lambda: self._unheard(cid)      # noqa: E731
            self.cluster.link.publish(self.cluster.link.inbox(self.owner),
                                      {**msg, "game": self.id,
                                       "via": self.cluster.process_id},
                                      on_nobody=on_nobody)

    def _unheard(self, cid: str) -> None:
        """A move reached no process (the owner's subscription was down: Redis
        restarting). Seat the connection again unless a snapshot comes first: the
        snapshot offers the move anew, where a lost move would leave the table waiting
        out the seat's clock."""
        if cid in self.attached and cid not in self.unacked:
            self.unacked[cid] = asyncio.get_running_loop().time()

    def reseat(self, cid: str) -> None:
        """The owner does not seat this connection (it dropped it as unreachable, or
        lost it with a restart): attach it again, for a fresh snapshot."""
        if cid in self.attached and self.local is None:
            self._send({"op": "attach", "seat": self.attached[cid][0], "conn": cid})

    def moved(self, owner: str | None, local: Any = None) -> None:
        """The table has a new owner: take every relayed seat there (a new snapshot)."""
        self.owner, self.local = owner, local
        if owner is None:
            return
        for cid, (seat, conn) in list(self.attached.items()):
            if local is not None:
                local.attach(seat, conn)
            else:
                self._send({"op": "attach", "seat": seat, "conn": cid})
        for cid, (account_id, conn) in list(self.watchers.items()):     # 觀戰 follows too
            if local is not None:
                local.watch(conn, account_id)
            else:
                self._send({"op": "watch", "seat": -1, "conn": cid, "account": account_id})

    def seen(self, text: str, cid: str | None = None) -> None:
        if '"type":"snapshot"' in text and cid is not None:
            self.unacked.pop(cid, None)         # the owner seated it
        if '"type":"game_end"' in text:
            self._finished = True

    def over(self, text: str) -> None:
        """The game ended while the owner had not seated these connections: a process
        killed as the last hand ended, whose adopter found nothing left to play,
        finished the game and gave it up. Nobody owns it now, so nobody will ever seat
        them; they hear the end (``text``, the stored game's ``game_end``) from here."""
        for cid in list(self.unacked):
            del self.unacked[cid]
            item = self.attached.get(cid)
            if item is not None:
                item[1].push(text)
        self._finished = True

    def reattach(self, older_than: float) -> int:
        """Send again every attach the owner has not answered for ``older_than`` s."""
        now = asyncio.get_running_loop().time()
        n = 0
        for cid, sent in list(self.unacked.items()):
            if now - sent > older_than and cid in self.attached:
                self._send({"op": "attach", "seat": self.attached[cid][0], "conn": cid})
                n += 1
        return n


class Cluster:
    """The Redis seams of one process, its heartbeat, adoption and relaying."""

    def __init__(self, server: Any, settings: Any):
        self.server = server
        self.process_id = secrets.token_hex(6)
        self.link = RedisLink(settings.redis_url, settings.redis_prefix, self.process_id,
                              settings.cluster_lease)
        self.interval = settings.cluster_lease / 3
        self.presence = RedisPresence(self.link)
        self.directory = RedisDirectory(self.link)
        self.bus = RedisBus(self.link, TOPICS)
        self.rooms = RedisRooms(self.link, settings.room_idle_ttl)
        self.queue = RedisMatchQueue(self.link, settings.bot_fill_wait,
                                     server._start_from_queue)
        self.link.on(self.link.inbox(self.process_id), self._inbox)
        self.bus.subscribe("table_moved", self._moved)
        self.bus.subscribe("resync", self._resync_notice)
        self.link.on_reconnect = self._reconnected
        self._relays: dict[tuple[str, str], Relay] = {}     # owner side: (via, conn id)
        self._conns: dict[str, tuple[Any, RemoteTable]] = {}  # relay side: id -> conn, table
        self._remote: dict[str, RemoteTable] = {}
        self._asks: dict[str, asyncio.Future] = {}   # 認輸 asked of another owner: req -> answer
        self._adopting: set[str] = set()
        self._ending: set[str] = set()          # relayed games being read: over or not?
        # games seen without an owner, since when: a game is adopted once it stayed so
        # for more than a heartbeat (its owner re-takes its lease at its next beat after
        # a Redis restart), or at once when its owner gave it up (table_moved, no owner)
        self._orphans: dict[str, float] = {}
        self._released: set[str] = set()
        self._finding: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()
        self._redis_run: str | None = None      # Redis's run_id: a new one means a restart
        self._redis_failed = False
        self._db_failed = False                  # the last scan could not read the games
        self._redis_back = -1e9                  # when Redis last came back (loop time)
        self.lease = settings.cluster_lease
        self._wake = asyncio.Event()
        self._heart: asyncio.Task | None = None

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Join the cluster and adopt whatever nobody runs (this is the restart resume)."""
        self._wake = asyncio.Event()
        await self.link.start()
        # the Redis we joined: a different run_id later means it restarted empty
        self._redis_run = (await self.link.r.info("server")).get("run_id")
        await self.link.beat()
        await self.scan()
        self._heart = asyncio.create_task(self._heartbeat(), name="twmj-heartbeat")

    async def release_all(self) -> None:
        """A graceful stop, after the tables stopped and their actions are stored:
        give every game up at once so another process adopts it without waiting."""
        if self._heart is not None:
            self._heart.cancel()
        await self.queue.close()
        for gid in sorted(self.directory._claimed):
            await self.directory.release(gid)
            self.bus.publish("table_moved", {"game_id": gid, "owner": None})

    async def close(self) -> None:
        await self.presence.close()
        await self.link.r.delete(self.link.key("proc", self.process_id))
        await self.link.close()

    async def _heartbeat(self) -> None:
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self.interval)
            except TimeoutError:
                pass
            self._wake.clear()
            try:
                await self.link.beat()
                run = (await self.link.r.info("server")).get("run_id")
                emptied = self._redis_run not in (None, run)     # a new Redis: no queues
                restarted = self._redis_failed or emptied
                if restarted:
                    self._redis_back = asyncio.get_running_loop().time()
                if emptied:
                    await self.queue.lost()
                self._redis_run, self._redis_failed = run, False
                for gid in await self.directory.renew():
                    await self._lost(gid)
                await self.presence.sync()
                await self._scan_unless_database_away()
                await self.follow()
                if restarted:
                    log.warning("Redis is back (restarted or unreachable for a while); "
                                "seating relayed connections again")
                    await self._reconnected()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not self._redis_failed:
                    log.warning("cluster heartbeat failed (%s); retrying", e)
                self._redis_failed = True
                await asyncio.sleep(0.5)

    async def _scan_unless_database_away(self) -> None:
        """Adopt what nobody runs; the database away (a restart) is not Redis away: it
        is said once, adoption waits for it, and the beat goes on renewing leases and
        following relayed games. Before, it counted as a Redis failure: a warning every
        beat, and once the database answered every relayed seat was seated again for a
        Redis restart that never happened."""
        from sqlalchemy.exc import DBAPIError

        from ..store.db import error_reason
        try:
            await self.scan()
        except DBAPIError as e:
            if not self._db_failed:
                log.warning("cluster: the database does not answer (%s); games without an "
                            "owner are adopted once it does", error_reason(e))
            self._db_failed = True
            return
        if self._db_failed:
            log.warning("cluster: the database answers again")
        self._db_failed = False

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reconnected(self) -> None:
        """Redis lost what it carried: seat this process's relayed connections again
        and ask every other process to do the same with the ones relayed to us."""
        self._redis_back = asyncio.get_running_loop().time()
        self._wake.set()
        self.bus.publish("resync", {"process": self.process_id})
        self._resync_notice({"process": None})

    def _resync_notice(self, msg: dict) -> None:
        """Seat again (fresh snapshots) every relayed connection whose game is owned
        by the process that came back (all of them, for our own reconnect)."""
        proc = msg.get("process")
        if proc == self.process_id:
            return
        for proxy in list(self._remote.values()):
            if proc is None or proxy.owner == proc:
                proxy.moved(proxy.owner, proxy.local)

    async def follow(self) -> None:
        """Relayed games whose owner is not the one we relay to (a missed table_moved):
        follow them now."""
        proxies = [p for p in self._remote.values() if p.local is None and not p.finished]
        if not proxies:
            return
        for p in proxies:
            if p.reattach(2 * self.interval):
                log.warning("game %s: a relayed seat was not seated by its owner; "
                            "asking again", p.id)
        owners = await self.directory.owners([p.id for p in proxies])
        for proxy, owner in zip(proxies, owners):
            if owner is None:
                if proxy.unacked and proxy.id not in self._ending:
                    # a task, not awaited: a slow database must not hold up the beat
                    # that renews this process's leases
                    self._ending.add(proxy.id)
                    self._spawn(self._end_if_over(proxy))
                self._wake.set()
            elif owner != proxy.owner:
                log.info("game %s: following it to %s", proxy.id, owner)
                proxy.moved(owner, self.directory.get(proxy.id)
                            if owner == self.process_id else None)

    async def _end_if_over(self, proxy: RemoteTable) -> None:
        """A relayed game nobody owns, with seats still waiting for a snapshot: if it
        is stored as over, they are told so (its stored end) rather than left waiting
        for an owner that no longer exists. A database that does not answer is asked
        again at the next beat, never taken for a Redis failure."""
        from sqlalchemy.exc import DBAPIError
        try:
            row = await self.server.repo.game(proxy.id)
        except (DBAPIError, OSError):
            return
        finally:
            self._ending.discard(proxy.id)
        if row is not None and row["status"] != "active":
            log.info("game %s is over: telling its relayed seats the owner never seated",
                     proxy.id)
            proxy.over(stored_end(row))

    def let_go(self, table: Any) -> None:
        """A stored write of ``table`` was refused: another process owns its game."""
        self._spawn(self._lost(table.id, fenced=True))

    async def _lost(self, game_id: str, fenced: bool = False) -> None:
        """This process stalled past its lease, or its write was refused, and another
        one adopted the game: stop the table here (two owners must never write one
        game) and let its connections follow the game through a RemoteTable."""
        log.warning("game %s is owned by another process now; stopping it here", game_id)
        table = self.directory.get(game_id)
        if table is None:
            return
        self.directory.remove(game_id)      # gives the lease up if it is still ours
        await table.stop()
        proxy = self._remote.get(game_id)
        if proxy is None:
            proxy = RemoteTable(self, game_id, [{"account_id": s.account_id, "name": s.name}
                                                for s in table.seats], None)
        for seat, s in enumerate(table.seats):
            for conn in s.conns:
                if not isinstance(conn, Relay):     # relayed seats follow table_moved
                    proxy.attached[self.register_conn(conn, proxy)] = (seat, conn)
        # connections still hold the old table object: it forwards from now on
        table.attach, table.detach, table.submit = proxy.attach, proxy.detach, proxy.submit
        if proxy.attached:
            self._remote[game_id] = proxy
            await self.link.drain()
            owner = await self.directory.owner(game_id)
            proxy.moved(owner if owner != self.process_id else None)
            if owner is None or owner == self.process_id:
                self._wake.set()           # nobody has it (yet): adopt it, maybe here

    # -- adoption ---------------------------------------------------------------------------
    async def scan(self) -> int:
        """Adopt every active game without an owner; returns how many."""
        n = 0
        games = [row["id"] for row in await self.server.repo.active_games()
                 if self.directory.get(row["id"]) is None and row["id"] not in self._adopting]
        if not games:
            self._orphans = {}
            return 0
        owners = await self.directory.owners(games)
        now = asyncio.get_running_loop().time()
        orphans = {}
        for gid, owner in zip(games, owners):
            if owner is not None:
                continue
            orphans[gid] = self._orphans.get(gid, now)
            self._orphans[gid] = orphans[gid]
            if self._adoptable(gid) and await self.adopt(gid):
                n += 1
        self._orphans = orphans
        self._released.intersection_update(orphans)
        return n

    def _adoptable(self, game_id: str) -> bool:
        """An ownerless game may be adopted: given up by its owner, or ownerless for
        longer than a heartbeat (after a Redis restart its owner re-takes it first)."""
        now = asyncio.get_running_loop().time()
        since = self._orphans.setdefault(game_id, now)
        if now - self._redis_back > 2 * self.lease:    # no Redis restart lately: a lease
            return True                                # ran out, its owner is gone
        return game_id in self._released or now - since > 1.5 * self.interval

    async def adopt(self, game_id: str) -> Any:
        """Claim an ownerless game and resume it here from the repository."""
        if game_id in self._adopting or not await self.directory.claim(game_id):
            return None
        self._adopting.add(game_id)
        try:
            table = None
            try:
                row = await self.server.repo.game(game_id)
                if row is not None and row["status"] == "active":
                    table = await self.server.resume_game(row)
            except Exception:
                # a read failed half way (the database dropped the connection): give the
                # claim back, or the heartbeat would renew it for ever with no table
                # behind it; the next beat's scan adopts the game again
                log.exception("process %s could not adopt game %s; trying again",
                              self.process_id, game_id)
            if table is None:
                await self.directory.release(game_id)
                return None
            log.info("process %s adopted game %s", self.process_id, game_id)
            self.bus.publish("table_moved", {"game_id": game_id, "owner": self.process_id})
            return table
        finally:
            self._adopting.discard(game_id)

    def _moved(self, msg: dict) -> None:
        gid, owner = msg["game_id"], msg.get("owner")
        if owner is None:
            self._released.add(gid)
            self._wake.set()            # adopt now rather than at the next beat
        proxy = self._remote.get(gid)
        if proxy is not None:
            proxy.moved(owner, self.directory.get(gid) if owner == self.process_id else None)

    # -- finding a table -----------------------------------------------------------------
    async def find(self, game_id: str) -> Any:
        """The table to seat a connection at: this process's own, or the one
        RemoteTable of the game (two connections arriving at once share it)."""
        if len(self._finding) > 10_000:            # games long over: forget their locks
            self._finding = {g: lk for g, lk in self._finding.items() if lk.locked()}
        lock = self._finding.setdefault(game_id, asyncio.Lock())
        async with lock:
            return await self._find(game_id)

    async def _find(self, game_id: str) -> Any:
        table = self.directory.get(game_id)
        if table is not None:
            return table
        proxy = self._remote.get(game_id)
        if proxy is not None and not proxy.finished:
            return proxy
        row = await self.server.repo.game(game_id)
        if row is None or row["status"] != "active":
            return None
        owner = await self.directory.owner(game_id)
        if owner is None and self._adoptable(game_id):
            table = await self.adopt(game_id)
            if table is not None:
                return table
            owner = await self.directory.owner(game_id)
        elif owner is None:
            self._wake.set()            # the scan adopts it when due; table_moved follows
        if owner == self.process_id:
            while game_id in self._adopting:      # our own adoption is under way
                await asyncio.sleep(0.05)
            table = self.directory.get(game_id)
            if table is not None:
                return table
            owner = None                # wait for whoever runs it next (table_moved)
            self._wake.set()
        proxy = self._remote[game_id] = RemoteTable(self, game_id, row["seats"], owner)
        return proxy

    # -- asking the owner (認輸) ------------------------------------------------------------
    async def ask_owner(self, proxy: RemoteTable, msg: dict) -> str:
        """Send ``msg`` to the owner of ``proxy``'s game and wait for its answer
        (``"busy"`` when no owner answers within a lease: the caller may try again)."""
        if proxy.owner is None:
            return "busy"
        req = secrets.token_hex(8)
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        self._asks[req] = answer
        try:
            self.link.publish(self.link.inbox(proxy.owner),
                              {**msg, "game": proxy.id, "via": self.process_id, "conn": req,
                               "req": req}, on_nobody=lambda: self._answered(
                                   {"req": req, "outcome": "busy"}))
            return str(await asyncio.wait_for(answer, self.lease))
        except TimeoutError:
            return "busy"
        finally:
            self._asks.pop(req, None)

    def _answered(self, m: dict) -> None:
        answer = self._asks.get(str(m.get("req")))
        if answer is not None and not answer.done():
            answer.set_result(str(m.get("outcome")))

    def _for_forfeit(self, m: dict) -> None:
        """On the owner: a 認輸 asked through another process; answer it there."""
        table = self.directory.get(m["game"])

        async def decide() -> None:
            outcome = "busy"
            try:
                if table is not None and hasattr(table, "forfeit"):
                    outcome = await table.forfeit(int(m["seat"]), int(m["account"]))
            except Exception:
                log.exception("game %s: a relayed forfeit failed", m["game"])
            self.link.publish(self.link.inbox(m["via"]), {"op": "answer", "req": m["req"],
                                                          "outcome": outcome})
        self._spawn(decide())

    # -- relaying ----------------------------------------------------------------------------
    @staticmethod
    def conn_key(conn: Any) -> str:
        return f"{id(conn):x}"

    def register_conn(self, conn: Any, proxy: RemoteTable) -> str:
        """A connection seated through ``proxy`` (a connection sits at one table at a time)."""
        cid = self.conn_key(conn)
        self._conns[cid] = (conn, proxy)
        return cid

    def forget_conn(self, cid: str, proxy: RemoteTable) -> None:
        if cid in self._conns and self._conns[cid][1] is proxy:
            del self._conns[cid]
        if (not proxy.attached and not proxy.watchers
                and self._remote.get(proxy.id) is proxy):
            del self._remote[proxy.id]

    def forget_remote(self, proxy: RemoteTable) -> None:
        if self._remote.get(proxy.id) is proxy:
            del self._remote[proxy.id]

    def drop_relay(self, relay: Relay) -> None:
        log.warning("game %s: seat %d's connection through process %s dropped (that "
                    "process stayed unreachable)", relay.game_id, relay.seat, relay.via)
        self._relays.pop((relay.via, relay.conn), None)
        table = self.directory.get(relay.game_id)
        if table is not None and relay.seat < 0:
            table.unwatch(relay)             # a relayed watcher (觀戰)
        elif table is not None:
            table.detach(relay.seat, relay)

    def _inbox(self, m: dict) -> None:
        op = m.get("op")
        if op in ("matched", "match_failed"):
            self.queue.handle(m)
        elif op == "out":
            item = self._conns.get(m["conn"])
            if item is not None:
                conn, proxy = item
                conn.push(m["text"])
                proxy.seen(m["text"], m["conn"])
        elif op in ("attach", "detach", "action"):
            self._for_owner(op, m)
        elif op == "unseated":
            item = self._conns.get(m["conn"])
            if item is not None and item[1].id == m.get("game"):
                log.info("game %s: the owner does not seat a relayed connection; "
                         "seating it again", item[1].id)
                item[1].reseat(m["conn"])
        elif op in ("watch", "unwatch"):
            self._for_watch(op, m)
        elif op == "listen":
            self._for_listen(m)
        elif op == "forfeit":
            self._for_forfeit(m)
        elif op == "answer":
            self._answered(m)

    async def _after_adoption(self, op: str, m: dict) -> None:
        while m["game"] in self._adopting:
            await asyncio.sleep(0.05)
        if self.directory.get(m["game"]) is not None:
            self._for_owner(op, m)

    def _for_watch(self, op: str, m: dict) -> None:
        """A watcher on another process (觀戰): its frames go back through a Relay."""
        table = self.directory.get(m["game"])
        if table is None:
            return
        key = (m["via"], m["conn"])
        if op == "watch":
            old = self._relays.get(key)
            if old is not None and old.game_id == table.id:
                table.unwatch(old)            # watched again (a resync): one desk entry
            relay = self._relays[key] = Relay(self, m["via"], m["conn"], table.id, -1)
            table.watch(relay, int(m["account"]))
        else:
            relay = self._relays.pop(key, None)
            if relay is not None:
                table.unwatch(relay)

    def _for_listen(self, m: dict) -> None:
        """A relayed watcher's voice message (server/social/voice.py)."""
        table = self.directory.get(m["game"])
        relay = self._relays.get((m["via"], m["conn"]))
        if table is None or relay is None or relay.game_id != table.id:
            return
        try:
            msg = P.seat_message.validate_python(m["msg"])
        except ValidationError:
            log.warning("dropping a malformed relayed voice message")
            return
        table.listen(msg, relay)

    def _for_owner(self, op: str, m: dict) -> None:
        table = self.directory.get(m["game"])
        key = (m["via"], m["conn"])
        seat = int(m["seat"])
        if table is None:
            if m["game"] in self._adopting:     # being adopted here: once it runs
                self._spawn(self._after_adoption(op, m))
                return
            self._wake.set()            # not (or no longer) ours: the relaying side re-finds
            return
        if op == "attach":
            relay = self._relays.get(key)
            if relay is None or relay.game_id != table.id:
                relay = self._relays[key] = Relay(self, m["via"], m["conn"], table.id, seat)
            relay.seat = seat
            relay.attaches += 1
            table.attach(seat, relay)
        elif op == "detach":
            relay = self._relays.pop(key, None)
            if relay is not None:
                table.detach(seat, relay)
        else:
            relay = self._relays.get(key)
            if relay is None or relay.game_id != table.id:
                # a move from a connection not seated here (dropped as unreachable, or
                # seated before a restart): without an answer the player waits for a
                # table that never hears them, so tell their process to seat it again
                self.link.publish(self.link.inbox(m["via"]),
                                  {"op": "unseated", "conn": m["conn"], "game": table.id})
                return
            try:
                msg = P.seat_message.validate_python(m["msg"])
            except ValidationError:
                log.warning("dropping a malformed relayed action")
                return
            table.submit(seat, msg, relay)


def stored_end(row: dict) -> str:
    """A stored game's ``game_end``, as its table sent it when it ended: the result's
    scores, ranks, rating and challenge; the match seed once it was played out (an
    aborted game's stays secret, as the aborting table keeps it)."""
    result = row.get("result") or {}
    scores = list(result.get("scores") or [0, 0, 0, 0])
    aborted = row["status"] == "aborted"
    seed = (row.get("options") or {}).get("seed")
    return P.out(P.GameEnd(game_id=row["id"], scores=scores,
                           ranks=result.get("ranks") or ranks_of(scores),
                           rating=result.get("rating"), challenge=result.get("challenge"),
                           seed=None if aborted or seed is None else str(seed),
                           aborted=aborted, ended=result.get("ended")))

"""Presence, the table directory and the event bus on Redis (``--redis URL``).

Every process shares one Redis; its keys start with ``settings.redis_prefix``.
``RedisLink`` is the one connection a process keeps: an ordered writer (the
seams' synchronous calls — a connection arriving, a notice, a message relayed to
a seat — are queued and sent in order, pipelined) and one pub/sub listener for
the process's own inbox channel and the bus.

Liveness is a lease: a process keeps ``proc:<id>`` alive and owns each of its
tables through ``owner:<game>``, both expiring after ``cluster_lease`` seconds
unless renewed. A process that dies stops renewing; its tables become ownerless
and another process adopts them from the repository (see ``ownership.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..play.lobby import LobbyError, Player, Room, new_room_code
from ..settings import SettingsError

__all__ = ["RedisBus", "RedisDirectory", "RedisLink", "RedisPresence", "RedisRooms"]

log = logging.getLogger("twmahjong.server.redis")

Handler = Callable[[dict], Any]

# renew every owned game still ours; re-take one whose lease ran out unclaimed;
# return the ones another process holds now
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  elseif not v then redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else table.insert(lost, i) end
end
return lost
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisLink:
    """One process's connection to Redis: keys, ordered writes, one listener."""

    def __init__(self, url: str, prefix: str, process_id: str, lease: float):
        self.url = url
        self.prefix = prefix
        self.process_id = process_id
        self.lease_ms = max(100, int(lease * 1000))
        # Redis that stops answering without closing the connection (a network
        # partition, a frozen host) must not hang a command or the listener for ever: a
        # command gives up after this long, and the listener asks (PING) after this
        # long of silence and takes a connection that stays silent as lost
        self.patience = min(max(0.5, lease / 2), 10.0)
        self.r: Any = None
        self._pubsub: Any = None
        self._out: asyncio.Queue | None = None
        self._tasks: list[asyncio.Task] = []
        self._handlers: dict[str, Handler] = {}
        self._closing = False
        # called (no arguments) each time the listener is subscribed again after it
        # lost Redis: what was published meanwhile never arrived, so resynchronise
        self.on_reconnect: Callable[[], Any] | None = None
        self._dropped = False                 # writes were dropped since the last resync
        self._resyncs: set[asyncio.Future] = set()
        self.reconnects = 0

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def inbox(self, process_id: str) -> str:
        """The channel a process listens on for messages addressed to it."""
        return self.key("to", process_id)

    def on(self, channel: str, handler: Handler) -> None:
        """Call ``handler(message)`` for each JSON message on ``channel`` (set before start)."""
        self._handlers[channel] = handler

    async def start(self) -> None:
        import redis.asyncio as redis
        from redis.exceptions import RedisError
        self.r = redis.from_url(self.url, decode_responses=True, socket_timeout=self.patience,
                                socket_connect_timeout=self.patience, socket_keepalive=True)
        try:
            await self.r.ping()
        except (RedisError, OSError) as e:
            raise SettingsError(f"cannot reach Redis at {self.url}: {e}; start redis-server "
                                "or fix --redis") from None
        self._renew = self.r.register_script(_RENEW)
        self._release = self.r.register_script(_RELEASE)
        self._pubsub = self.r.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(*self._handlers)
        self._out = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._writer(), name="twmj-redis-writer"),
                       asyncio.create_task(self._listener(), name="twmj-redis-listener")]

    async def close(self) -> None:
        await self.drain()
        self._closing = True
        for t in self._tasks:
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):     # its connection may be gone already
                await self._pubsub.aclose()
        if self.r is not None:
            await self.r.aclose()

    # -- ordered writes ------------------------------------------------------------------------
    def command(self, *args: Any, then: Callable[[Any], None] | None = None) -> None:
        """Queue one Redis command; ``then(result)`` runs once it is done."""
        if self._out is None or self._closing:
            return
        self._out.put_nowait((args, then))

    def publish(self, channel: str, message: dict,
                on_nobody: Callable[[], None] | None = None) -> None:
        """Send ``message`` to ``channel`` in order; ``on_nobody()`` if no one listened."""
        then = None if on_nobody is None else (lambda n: on_nobody() if n == 0 else None)
        self.command("PUBLISH", channel, json.dumps(message, separators=(",", ":")), then=then)

    async def drain(self) -> None:
        """Wait until everything queued so far has been sent."""
        if self._out is None or self._closing:
            return
        done = asyncio.get_running_loop().create_future()
        self._out.put_nowait(((), lambda _: done.done() or done.set_result(None)))
        await asyncio.wait_for(done, 10)

    async def _writer(self) -> None:
        assert self._out is not None
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < 512:
                batch.append(self._out.get_nowait())
            cmds = [b for b in batch if b[0]]
            results: list[Any] = []
            if cmds:
                try:
                    pipe = self.r.pipeline(transaction=False)
                    for args, _ in cmds:
                        pipe.execute_command(*args)
                    results = await pipe.execute(raise_on_error=False)
                except asyncio.CancelledError:
                    raise
                except Exception as e:
                    log.warning("Redis writes failed (%s); %d dropped", e, len(cmds))
                    results = [None] * len(cmds)
                    # the pool's other connections are as stale (Redis restarted)
                    with contextlib.suppress(Exception):
                        await self.r.connection_pool.disconnect()
                    self._dropped = True
                else:
                    if self._dropped:
                        # writes work again: what was dropped (a message relayed to a
                        # seat, a relayed move, an attach) is made good by seating every
                        # relayed connection again: fresh snapshots, moves offered anew
                        self._dropped = False
                        self._resync_after_drop()
            it = iter(results)
            for args, then in batch:
                res = next(it) if args else None
                if then is not None:
                    try:
                        then(res)
                    except Exception:
                        log.exception("after a Redis write")

    def _resync_after_drop(self) -> None:
        if self.on_reconnect is None:
            return
        log.warning("Redis writes work again after some were dropped; resynchronising")
        try:
            res = self.on_reconnect()
            if asyncio.iscoroutine(res):
                task = asyncio.ensure_future(res)
                self._resyncs.add(task)
                task.add_done_callback(self._resyncs.discard)
        except Exception:
            log.exception("resynchronising after dropped Redis writes")

    # -- listening -------------------------------------------------------------------------------
    async def _resubscribe(self) -> None:
        """A new pub/sub connection with every channel, once Redis answers again."""
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()
        while True:
            try:
                ps = self.r.pubsub(ignore_subscribe_messages=True)
                await ps.subscribe(*self._handlers)
                self._pubsub = ps
                return
            except asyncio.CancelledError:
                raise
            except Exception:
                with contextlib.suppress(Exception):
                    await ps.aclose()
                await asyncio.sleep(0.5)

    async def _messages(self) -> AsyncIterator[dict]:
        """The listener's messages, for as long as its connection answers: after
        ``patience`` of silence it sends a PING, and raises ConnectionError if nothing
        at all comes back within ``patience`` more (a connection silently lost: Redis
        no longer knows the subscriber, and waiting on it would miss every message)."""
        loop = asyncio.get_running_loop()
        asked: float | None = None
        while True:
            ps = self._pubsub
            msg = await ps.get_message(timeout=self.patience)
            if msg is not None:
                asked = None
                yield msg
                continue
            if asked is None:
                await ps.ping()
                asked = loop.time()
            elif loop.time() - asked >= self.patience:
                raise ConnectionError("Redis did not answer the listener's PING")

    async def _listener(self) -> None:
        while True:
            try:
                async for msg in self._messages():
                    if msg.get("type") != "message":
                        continue
                    handler = self._handlers.get(msg["channel"])
                    if handler is None:
                        continue
                    try:
                        res = handler(json.loads(msg["data"]))
                        if asyncio.iscoroutine(res):
                            await res
                    except Exception:
                        log.exception("handling a message on %s", msg["channel"])
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._closing:
                    return
                log.warning("Redis listener lost its connection; subscribing again")
                await asyncio.sleep(0.2)
                await self._resubscribe()
                self.reconnects += 1
                log.warning("Redis listener subscribed again")
                if self.on_reconnect is not None:
                    try:
                        res = self.on_reconnect()
                        if asyncio.iscoroutine(res):
                            await res
                    except Exception:
                        log.exception("resynchronising after Redis came back")

    # -- liveness -------------------------------------------------------------------------------
    async def beat(self) -> None:
        """Keep this process alive for one more lease."""
        await self.r.set(self.key("proc", self.process_id), "1", px=self.lease_ms)

    async def alive(self, process_id: str) -> bool:
        """The process holds its lease, or listens on its inbox. Either is enough: a
        Redis that restarted empty has no lease key until the process's next beat,
        while its subscription (what relayed messages need) is back already."""
        if await self.r.exists(self.key("proc", process_id)):
            return True
        subs = await self.r.pubsub_numsub(self.inbox(process_id))
        return bool(subs and subs[0][1])


class RedisPresence:
    """Each process keeps its own hash ``presence:<process>`` (account -> connections),
    expiring with its lease; ``online``/``count`` read this process's counts at once
    and the others' as of the last ``sync`` (every heartbeat)."""

    def __init__(self, link: RedisLink):
        self.link = link
        self._n: dict[int, int] = defaultdict(int)
        self._others: set[int] = set()

    @property
    def _key(self) -> str:
        return self.link.key("presence", self.link.process_id)

    def connected(self, account_id: int) -> None:
        self._n[account_id] += 1
        self.link.command("HSET", self._key, str(account_id), self._n[account_id])
        self.link.command("PEXPIRE", self._key, self.link.lease_ms)

    def disconnected(self, account_id: int) -> None:
        self._n[account_id] -= 1
        if self._n[account_id] <= 0:
            del self._n[account_id]
            self.link.command("HDEL", self._key, str(account_id))
        else:
            self.link.command("HSET", self._key, str(account_id), self._n[account_id])

    def online(self, account_id: int) -> bool:
        return account_id in self._n or account_id in self._others

    def count(self) -> int:
        return len(self._others | set(self._n))

    async def sync(self) -> None:
        r = self.link.r
        await self.link.drain()
        if self._n:     # the whole hash each time: a Redis that restarted gets it back
            async with r.pipeline(transaction=True) as pipe:
                pipe.delete(self._key)
                pipe.hset(self._key, mapping={str(a): n for a, n in self._n.items()})
                pipe.pexpire(self._key, self.link.lease_ms)
                await pipe.execute()
        others: set[int] = set()
        async for key in r.scan_iter(match=self.link.key("presence", "*"), count=200):
            if key != self._key:
                others.update(int(a) for a in await r.hkeys(key))
        self._others = others

    async def close(self) -> None:
        await self.link.r.delete(self._key)


class RedisDirectory:
    """``owner:<game>`` names the process running the game, under a lease."""

    def __init__(self, link: RedisLink):
        self.link = link
        self._tables: dict[str, Any] = {}
        self._claimed: set[str] = set()

    @property
    def process_id(self) -> str:
        return self.link.process_id

    def _owner_key(self, game_id: str) -> str:
        return self.link.key("owner", game_id)

    def add(self, table: Any) -> None:
        self._tables[table.id] = table
        self._claimed.add(table.id)

    def get(self, game_id: str) -> Any | None:
        return self._tables.get(game_id)

    def remove(self, game_id: str) -> None:
        """The game is over (or lost) here: give its claim up in the write order."""
        self._tables.pop(game_id, None)
        if game_id in self._claimed:
            self._claimed.discard(game_id)
            self.link.command("EVAL", _RELEASE, 1, self._owner_key(game_id), self.process_id)

    def all(self) -> list[Any]:
        return list(self._tables.values())

    async def claim(self, game_id: str) -> bool:
        """True only if this call made the claim (a game is started or adopted once)."""
        ok = await self.link.r.set(self._owner_key(game_id), self.process_id, nx=True,
                                   px=self.link.lease_ms)
        if ok:
            self._claimed.add(game_id)
        return bool(ok)

    async def owner(self, game_id: str) -> str | None:
        return await self.link.r.get(self._owner_key(game_id))

    async def owners(self, game_ids: list[str]) -> list[str | None]:
        """``owner`` of many games in one round trip (the heartbeat's adoption scan)."""
        return await self.link.r.mget([self._owner_key(g) for g in game_ids])

    async def renew(self) -> list[str]:
        games = sorted(self._claimed)
        if not games:
            return []
        lost_idx = await self.link._renew(keys=[self._owner_key(g) for g in games],
                                          args=[self.process_id, self.link.lease_ms])
        lost = [games[i - 1] for i in lost_idx]
        self._claimed.difference_update(lost)
        return lost

    async def release(self, game_id: str) -> None:
        self._claimed.discard(game_id)
        await self.link._release(keys=[self._owner_key(game_id)], args=[self.process_id])


class RedisBus:
    """Topics are channels ``bus:<topic>``; every process subscribed gets each notice,
    the publisher's own subscribers included (so delivery is the same everywhere)."""

    def __init__(self, link: RedisLink, topics: tuple[str, ...]):
        self.link = link
        self._subs: dict[str, list[Callable[[dict], None]]] = defaultdict(list)
        for topic in topics:
            link.on(link.key("bus", topic), lambda m, t=topic: self._deliver(t, m))

    def publish(self, topic: str, payload: dict) -> None:
        if self.link.key("bus", topic) not in self.link._handlers:
            raise ValueError(f"bus topic {topic!r} is not one of the cluster's topics")
        self.link.publish(self.link.key("bus", topic), payload)

    def subscribe(self, topic: str, fn: Callable[[dict], None]) -> None:
        if self.link.key("bus", topic) not in self.link._handlers:
            raise ValueError(f"bus topic {topic!r} is not one of the cluster's topics")
        self._subs[topic].append(fn)

    def _deliver(self, topic: str, payload: dict) -> None:
        for fn in list(self._subs[topic]):
            try:
                fn(payload)
            except Exception:
                log.exception("bus subscriber for %s failed", topic)


class RedisRooms:
    """Private rooms (``lobby.RoomBook``) in Redis, so any process finds and joins any
    room. ``room:<code>`` holds the room as JSON and ``roomgame:<game>`` its code; a
    change is read, made and written under WATCH, so two joins on two processes never
    take the same seat.

    An unstarted room's keys expire ``idle_ttl`` after its last change (Redis drops
    it, every process agrees); ``roomsidle`` and ``roomseats:<account>`` are sorted
    sets of unstarted codes by last change, trimmed by the same cutoff, so that the
    counts (/health, the table cap) are the cluster's. A started room keeps its keys
    ``ROOM_TTL`` while its game plays; the game itself is in the database. Redis is a
    cache here too: after a Redis restart unstarted rooms are gone (their codes answer
    404), started games go on."""

    ROOM_TTL = 24 * 3600

    def __init__(self, link: RedisLink, idle_ttl: float = 15 * 60,
                 clock: Callable[[], float] = time.time):
        self.link = link
        self.idle_ttl = idle_ttl
        self.clock = clock        # wall clock: every process reads the same scores

    def _key(self, code: str) -> str:
        return self.link.key("room", code.strip().upper())

    def _ttl(self, room: Room) -> int:
        return self.ROOM_TTL if room.started else max(1, int(self.idle_ttl))

    def _index(self, pipe: Any, room: Room) -> None:
        """Queue the writes that keep the idle indexes true for ``room`` as it is now."""
        now = self.clock()
        idle, players = self.link.key("roomsidle"), [p for p in room.players if p]
        if room.started:
            pipe.zrem(idle, room.code)
            for p in players:
                pipe.zrem(self.link.key("roomseats", str(p[0])), room.code)
        else:
            pipe.zadd(idle, {room.code: now})
            for p in players:
                seats = self.link.key("roomseats", str(p[0]))
                pipe.zadd(seats, {room.code: now})
                pipe.expire(seats, max(1, int(self.idle_ttl)))
        pipe.set(self.link.key("roomgame", room.game_id), room.code, ex=self._ttl(room))

    async def open(self, host: Player, profile: str, stake: str, rounds: int, game_id: str,
                   bots: str | None = None, speed: str = "standard",
                   options: dict | None = None) -> Room:
        r = self.link.r
        while True:
            room = Room(new_room_code(), host, profile, stake, rounds, game_id, bots=bots,
                        speed=speed, options=dict(options or {}))
            room.players[0] = host
            if await r.set(self._key(room.code), self._dump(room), nx=True,
                           ex=self._ttl(room)):
                async with r.pipeline(transaction=True) as pipe:
                    self._index(pipe, room)
                    await pipe.execute()
                return room

    def _dump(self, room: Room) -> str:
        return json.dumps({**room.to_json(), "touched": self.clock()})

    def _load(self, code: str, raw: str | None) -> Room:
        """The stored room, or not_found for none or for an unstarted one idle past
        ``idle_ttl`` (its keys' TTL removes it soon; the clock decides, as in ``Rooms``)."""
        d = json.loads(raw) if raw is not None else None
        if d is None or (not d["started"]
                         and d.get("touched", 0.0) <= self.clock() - self.idle_ttl):
            raise LobbyError("not_found", f"no room with code {code!r}", "room_not_found")
        return Room.from_json(d)

    async def get(self, code: str) -> Room:
        return self._load(code, await self.link.r.get(self._key(code)))

    async def by_game(self, game_id: str) -> Room | None:
        code = await self.link.r.get(self.link.key("roomgame", game_id))
        if code is None:
            return None
        try:
            return await self.get(code)
        except LobbyError:
            return None

    async def _change(self, code: str, fn: Callable[[Room], Any]) -> tuple[Room, Any]:
        from redis.exceptions import WatchError
        key = self._key(code)
        async with self.link.r.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    room = self._load(code, await pipe.get(key))
                    out = fn(room)
                    pipe.multi()
                    pipe.set(key, self._dump(room), ex=self._ttl(room))
                    self._index(pipe, room)
                    await pipe.execute()
                    return room, out
                except WatchError:
                    continue

    async def join(self, code: str, player: Player) -> tuple[Room, int]:
        return await self._change(code, lambda room: room.take_seat(player))

    async def leave(self, code: str, account_id: int) -> Room | None:
        room, host_left = await self._change(code, lambda room: room.give_up_seat(account_id))
        await self.link.r.zrem(self.link.key("roomseats", str(account_id)), room.code)
        if host_left:
            await self._drop(room)             # the room just read: no second read to close it
            return None
        return room

    async def start(self, code: str) -> Room | None:
        room, first = await self._change(code, lambda room: room.mark_started(self.clock()))
        return room if first else None

    async def revive(self, code: str, after: float) -> Room | None:
        room, again = await self._change(
            code, lambda room: room.mark_revived(self.clock(), after))
        return room if again else None

    async def unstart(self, code: str) -> None:
        await self._change(code, lambda room: setattr(room, "started", False))

    async def _trimmed_count(self, key: str) -> int:
        async with self.link.r.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, "-inf", self.clock() - self.idle_ttl)
            pipe.zcard(key)
            return (await pipe.execute())[1]

    async def waiting_count(self) -> int:
        return await self._trimmed_count(self.link.key("roomsidle"))

    async def waiting_seats(self, account_id: int) -> int:
        """Counted against the table cap: with Redis away the count is 0 (a table is
        not refused for a cap that cannot be read for a moment; the cap on this
        process's own tables still holds)."""
        from redis.exceptions import RedisError
        try:
            return await self._trimmed_count(self.link.key("roomseats", str(account_id)))
        except (RedisError, OSError) as e:
            log.warning("counting unstarted rooms failed (%s); counting none", e)
            return 0

    async def close(self, code: str) -> None:
        try:
            room = await self.get(code)
        except LobbyError:
            return
        await self._drop(room)

    async def _drop(self, room: Room) -> None:
        room.started = True               # out of the idle indexes
        async with self.link.r.pipeline(transaction=True) as pipe:
            self._index(pipe, room)
            pipe.delete(self._key(room.code), self.link.key("roomgame", room.game_id))
            await pipe.execute()

"""The quick-match queue (一鍵匹配) on Redis: one queue for every process.

Same rules as ``lobby.LocalMatchQueue``: one queue per (mode, profile, stake);
four waiting players start a table at once; ``fill_wait`` seconds after the
queue's first arrival whoever waits gets a table and bots take the empty seats;
the seating order is shuffled with the OS CSPRNG.

Every change to a queue is one Lua script, so Redis runs it alone: two processes
popping at the same moment can never take the same player, and a player can wait
in one queue only (``queued`` maps an account to its entry; an entry left behind
by a process that died no longer counts). The process that pops a group starts
the table (it becomes the owner) and tells each player's process which seat is
theirs over that process's inbox channel.

A Redis restart empties the queues. Each process then asks Redis about every player
it still has waiting (``lost``): one whose entry is in the new Redis (its push was
retried onto it) waits on, one whose group was popped (``taken:<entry>``, set by the
pop) is being seated, and only the rest are asked to queue again. A ``matched`` that
still arrives for a player asked to queue again seats them there and withdraws their
new entry, so nobody is seated at two tables: the chaos run found players matched
twice (their group formed on the new Redis as the restart was noticed), and the
first table waiting out the clock of every seat whose player had gone to the second.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets

from ...errors import UserError
from ..play.lobby import LobbyError, Player, QueueKey, StartTable, Waiting
from .redis_seams import RedisLink

__all__ = ["RedisMatchQueue"]

log = logging.getLogger("twmahjong.server.queue")

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# pop up to n entries from KEYS[1], clearing their marks in KEYS[2] and marking each
# taken (``taken`` prefix .. entry id) while its table starts
_POP = """
local function pop(n, taken)
  local out = {}
  for i = 1, n do
    local e = redis.call('LPOP', KEYS[1])
    if not e then break end
    local d = cjson.decode(e)
    local acc = tostring(d.acc)
    if redis.call('HGET', KEYS[2], acc) == e then redis.call('HDEL', KEYS[2], acc) end
    redis.call('SET', taken .. d.id, '1', 'EX', 600)
    table.insert(out, e)
  end
  return out
end
"""

# KEYS queue list, queued hash, timer; ARGV entry, account, proc key prefix, queue key
# prefix, taken prefix, process id. An entry of the same process is replaced: a process
# keeps one entry an account, so an older one there was left behind (a restart's race)
_PUSH = _NOW + _POP + """
local prev = redis.call('HGET', KEYS[2], ARGV[2])
if prev then
  local old = cjson.decode(prev)
  if old.proc ~= ARGV[6] and redis.call('EXISTS', ARGV[3] .. old.proc) == 1 then
    return {-1}
  end
  redis.call('LREM', ARGV[4] .. old.key, 0, prev)
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[1])
local n = redis.call('LLEN', KEYS[1])
if n == 1 then redis.call('SET', KEYS[3], now) end
if n >= 4 then
  local group = pop(4, ARGV[5])
  if redis.call('LLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[3]) end
  table.insert(group, 1, 1)
  return group
end
return {0, n}
"""

# KEYS queue list, queued hash, timer; ARGV fill wait (ms), taken prefix.
# {0, n, ms left} or {1, entries…}
_FILL = _NOW + _POP + """
local n = redis.call('LLEN', KEYS[1])
if n == 0 then redis.call('DEL', KEYS[3]) return {0, 0, -1} end
local since = tonumber(redis.call('GET', KEYS[3]))
if not since then since = now redis.call('SET', KEYS[3], now) end
local left = since + tonumber(ARGV[1]) - now
if left > 0 then return {0, n, left} end
local group = pop(4, ARGV[2])
if redis.call('LLEN', KEYS[1]) > 0 then redis.call('SET', KEYS[3], now)
else redis.call('DEL', KEYS[3]) end
table.insert(group, 1, 1)
return group
"""

# KEYS queue list, queued hash, timer; ARGV entry, account
_CANCEL = """
local removed = redis.call('LREM', KEYS[1], 0, ARGV[1])
if redis.call('HGET', KEYS[2], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[2], ARGV[2]) end
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('DEL', KEYS[3]) end
return removed
"""


def _qname(key: QueueKey) -> str:
    return "|".join(key)


class RedisMatchQueue:
    """``join`` answers at once (the seam is synchronous); the Redis work follows in
    order, and a refusal only Redis can see (the account waits in another process)
    arrives through the entry's future as ``LobbyError("already_queued")``."""

    def __init__(self, link: RedisLink, fill_wait: float, start_table: StartTable):
        self.link = link
        self.fill_wait = fill_wait
        self.start_table = start_table
        self._entries: dict[str, tuple[str, Waiting]] = {}     # entry id -> (json, waiting)
        self._counts: dict[QueueKey, int] = {}
        self._lock = asyncio.Lock()                             # this process's queue ops in order
        self._rng = secrets.SystemRandom()
        self._tasks: set[asyncio.Task] = set()
        self._poller: asyncio.Task | None = None
        self._scripts: dict[str, object] = {}
        # players asked to queue again after a Redis restart: entry id -> account, so
        # that a match of the old entry that still arrives seats them (not twice)
        self._requeued: dict[str, int] = {}

    def _keys(self, key: QueueKey) -> list[str]:
        q = _qname(key)
        return [self.link.key("queue", q), self.link.key("queued"), self.link.key("qtimer", q)]

    def _script(self, name: str, text: str):
        s = self._scripts.get(name)
        if s is None:
            s = self._scripts[name] = self.link.r.register_script(text)
        return s

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the seam ---------------------------------------------------------------------------
    def join(self, key: QueueKey, player: Player) -> Waiting:
        if any(w.player[0] == player[0] for _, w in self._entries.values()):
            raise LobbyError("already_queued", "you are already waiting for a table")
        entry = Waiting(key, player, asyncio.get_running_loop().create_future())
        eid = secrets.token_hex(8)
        text = json.dumps({"id": eid, "acc": player[0], "name": player[1],
                           "proc": self.link.process_id, "key": _qname(key)},
                          separators=(",", ":"), ensure_ascii=False)
        self._entries[eid] = (text, entry)
        self._counts[key] = self._counts.get(key, 0) + 1
        self._spawn(self._push(eid, text, entry))
        return entry

    def cancel(self, entry: Waiting) -> None:
        for eid, (text, w) in list(self._entries.items()):
            if w is entry:
                del self._entries[eid]
                if not entry.future.done():
                    entry.future.cancel()
                self._spawn(self._cancel(text, entry))

    def waiting(self, key: QueueKey | None = None) -> int:
        """Players waiting (all processes), as last seen by this process."""
        if key is not None:
            return self._counts.get(key, 0)
        return sum(self._counts.values())

    async def count(self) -> int:
        """Players waiting now in every process's queues, read from Redis itself
        (``waiting`` is this process's last view, stale once another process pops)."""
        keys = [k async for k in self.link.r.scan_iter(match=self.link.key("queue", "*"),
                                                        count=200)]
        if not keys:
            return 0
        async with self.link.r.pipeline(transaction=False) as pipe:
            for k in keys:
                pipe.llen(k)
            return sum(int(n) for n in await pipe.execute())

    async def close(self) -> None:
        for eid, (text, w) in list(self._entries.items()):
            self.cancel(w)
        if self._poller is not None:
            self._poller.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def lost(self) -> None:
        """Redis restarted and its queues are gone: a player of this process still
        waiting is told to queue again (``requeue``) rather than wait for a match that
        can no longer come — unless the new Redis has them: queued there (the push was
        retried onto it) or taken by a group that is being seated now."""
        items = list(self._entries.items())
        keep: set[str] = set()
        if items:
            try:
                async with self.link.r.pipeline(transaction=False) as pipe:
                    for eid, (text, w) in items:
                        pipe.hget(self.link.key("queued"), str(w.player[0]))
                        pipe.exists(self.link.key("taken", eid))
                    res = await pipe.execute()
                for i, (eid, (text, _)) in enumerate(items):
                    if res[2 * i] == text or res[2 * i + 1]:
                        keep.add(eid)
            except Exception as e:     # cannot tell: ask every one to queue again
                log.warning("reading the match queue after a Redis restart failed (%s)", e)
        for eid, (_, w) in items:
            if eid not in keep and self._entries.get(eid, (None, None))[1] is w:
                self._requeue(eid, w)
        self._counts = {k: n for k, n in self._counts.items()
                        if any(w.key == k for _, w in self._entries.values())}
        self._ensure_poller()

    def _requeue(self, eid: str, entry: Waiting) -> None:
        self._entries.pop(eid, None)
        self._counts[entry.key] = max(0, self._counts.get(entry.key, 1) - 1)
        if len(self._requeued) > 10_000:
            self._requeued.clear()
        self._requeued[eid] = entry.player[0]
        if not entry.future.done():
            entry.future.set_exception(LobbyError(
                "requeue", "the match queue was interrupted; send quick_match again"))

    # -- Redis work -------------------------------------------------------------------------
    async def _push(self, eid: str, text: str, entry: Waiting) -> None:
        from redis.exceptions import RedisError
        async with self._lock:
            if eid not in self._entries:        # cancelled before it reached Redis
                return
            try:
                res = await self._script("push", _PUSH)(
                    keys=self._keys(entry.key),
                    args=[text, str(entry.player[0]), self.link.key("proc", ""),
                          self.link.key("queue", ""), self.link.key("taken", ""),
                          self.link.process_id])
            except (RedisError, OSError) as e:  # Redis away: the player is told, not lost
                log.warning("queueing a player failed (%s); asking them to queue again", e)
                self._requeue(eid, entry)
                return
        if res[0] == -1:
            self._entries.pop(eid, None)
            self._counts[entry.key] = max(0, self._counts.get(entry.key, 1) - 1)
            if not entry.future.done():
                entry.future.set_exception(LobbyError(
                    "already_queued", "you are already waiting for a table in another window"))
            return
        if res[0] == 1:
            self._counts[entry.key] = 0
            await self._form(entry.key, res[1:])
        else:
            self._counts[entry.key] = int(res[1])
        self._ensure_poller()

    async def _cancel(self, text: str, entry: Waiting) -> None:
        async with self._lock:
            await self._script("cancel", _CANCEL)(keys=self._keys(entry.key),
                                                  args=[text, str(entry.player[0])])
        self._counts[entry.key] = max(0, self._counts.get(entry.key, 1) - 1)

    def _ensure_poller(self) -> None:
        if self._entries and (self._poller is None or self._poller.done()):
            self._poller = asyncio.create_task(self._poll(), name="twmj-queue-fill")

    async def _poll(self) -> None:
        """While players of this process wait: bot-fill each queue when its time comes.

        Any process may pop a due queue; the script lets exactly one of them have it."""
        from redis.exceptions import RedisError
        while self._entries:
            sleep = 0.25
            try:                                # answers whose message was lost
                eids = list(self._entries)
                for raw in await self.link.r.mget([self.link.key("match", e) for e in eids]):
                    if raw:
                        self.handle(json.loads(raw))
            except (RedisError, OSError):
                pass
            for key in {w.key for _, w in self._entries.values()}:
                try:
                    async with self._lock:
                        res = await self._script("fill", _FILL)(
                            keys=self._keys(key), args=[int(self.fill_wait * 1000),
                                                        self.link.key("taken", "")])
                except (RedisError, OSError):   # Redis away: try again (``lost`` if it
                    sleep = 0.5                 # restarted empty)
                    continue
                if res[0] == 1:
                    self._counts[key] = 0
                    await self._form(key, res[1:])
                else:
                    self._counts[key] = int(res[1])
                    if res[2] >= 0:
                        sleep = min(sleep, res[2] / 1000)
            await asyncio.sleep(max(0.01, sleep))

    async def _form(self, key: QueueKey, raw: list[str]) -> None:
        group = [json.loads(e) for e in raw]
        slots: list[dict | None] = [*group, *([None] * (4 - len(group)))]
        self._rng.shuffle(slots)
        self._spawn(self._start(key, slots))

    async def _start(self, key: QueueKey, slots: list[dict | None]) -> None:
        try:
            game_id = await self.start_table(
                key, [(e["acc"], e["name"]) if e else None for e in slots])
        except Exception as e:  # handed to every waiting player
            if not isinstance(e, UserError):
                log.exception("could not start a table from the queue")
            reason = str(e) if isinstance(e, UserError) else "please try again"
            for s in slots:
                if s:
                    self._tell(s, {"op": "match_failed", "entry": s["id"], "message": reason})
            return
        for seat, s in enumerate(slots):
            if s:
                self._tell(s, {"op": "matched", "entry": s["id"], "game_id": game_id,
                               "seat": seat})

    def _tell(self, entry: dict, msg: dict) -> None:
        # kept in Redis as well (``match:<entry>``): a message to a process that is
        # subscribing again after a Redis restart is lost, and the chaos run found its
        # player waiting in the queue while the table waited out that seat's clock;
        # the waiting process's poller reads the answer there
        self.link.command("SET", self.link.key("match", entry["id"]),
                          json.dumps(msg, separators=(",", ":")), "EX", 600)
        if entry["proc"] == self.link.process_id:
            self.handle(msg)
        else:
            self.link.publish(self.link.inbox(entry["proc"]), msg)

    def handle(self, msg: dict) -> None:
        """A group this process's player was in has formed (or failed)."""
        item = self._entries.pop(msg["entry"], None)
        if item is None:
            account = self._requeued.pop(msg["entry"], None)
            if account is not None and msg["op"] == "matched":
                self._late_match(account, msg)
            return
        w = item[1]
        if w.future.done():
            return
        if msg["op"] == "matched":
            w.future.set_result((msg["game_id"], int(msg["seat"])))
        else:
            w.future.set_exception(LobbyError("bad_request", msg["message"]))

    def _late_match(self, account: int, msg: dict) -> None:
        """A group formed with the entry of a player who was asked to queue again: seat
        them there, withdrawing the entry they queued with since, so they sit at one
        table (that table waits for them otherwise)."""
        for eid, (text, w) in list(self._entries.items()):
            if w.player[0] == account and not w.future.done():
                del self._entries[eid]
                self._spawn(self._cancel(text, w))
                w.future.set_result((msg["game_id"], int(msg["seat"])))
                return
        log.warning("account %s was matched into game %s after being asked to queue again "
                    "and is not waiting now; its seat plays on its clock until it comes",
                    account, msg["game_id"])

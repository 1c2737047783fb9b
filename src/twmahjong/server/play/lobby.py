"""Getting people to a table: the quick-match queue and private rooms.

Quick match (一鍵匹配): one queue per (mode, profile, stake). Four waiting
players start a table at once; otherwise, ``fill_wait`` seconds after the first
one arrived, whoever waits gets a table and bots take the empty seats. Seating
order at the table is shuffled with the OS CSPRNG.

Private rooms (私人房): a six-character code to share; the host picks profile,
stakes and match length (1-4 圈) and starts when ready (bots fill), or the room
starts by itself when the fourth player sits down. ``RoomBook`` is the seam:
``Rooms`` keeps them in this process, ``redis_seams.RedisRooms`` in Redis so that
any worker of a cluster finds and joins any room. Either way a room nobody starts
expires ``room_idle_ttl`` after its last change; a room's game, once started, is
stored like any other and survives restarts.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from ...errors import UserError

__all__ = [
    "LobbyError",
    "LocalMatchQueue",
    "MatchQueue",
    "Player",
    "QueueKey",
    "Room",
    "RoomBook",
    "Rooms",
    "Waiting",
]

QueueKey = tuple[str, str, str]           # (mode, profile, stake)
Player = tuple[int, str]                  # (account_id, name)
_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I


class LobbyError(UserError):
    def __init__(self, code: str, message: str, reason: str | None = None):
        super().__init__(message)
        self.code = code
        self.reason = reason


@dataclass(eq=False)
class Waiting:
    key: QueueKey
    player: Player
    future: asyncio.Future            # -> (game_id, seat)


class MatchQueue(Protocol):
    def join(self, key: QueueKey, player: Player) -> Waiting: ...
    def cancel(self, entry: Waiting) -> None: ...
    def waiting(self, key: QueueKey | None = None) -> int: ...
    async def count(self) -> int:
        """Players waiting now, in every process (what /health reports)."""
        ...


# start_table(key, players) -> game_id, seats in the order of ``players`` (None = bot)
StartTable = Callable[[QueueKey, list[Player | None]], Awaitable[str]]


class LocalMatchQueue:
    def __init__(self, fill_wait: float, start_table: StartTable):
        self.fill_wait = fill_wait
        self.start_table = start_table
        self._queues: dict[QueueKey, list[Waiting]] = {}
        self._timers: dict[QueueKey, asyncio.TimerHandle] = {}
        self._rng = secrets.SystemRandom()
        self._tasks: set[asyncio.Task] = set()

    def join(self, key: QueueKey, player: Player) -> Waiting:
        for q in self._queues.values():
            if any(w.player[0] == player[0] for w in q):
                raise LobbyError("already_queued", "you are already waiting for a table")
        entry = Waiting(key, player, asyncio.get_running_loop().create_future())
        q = self._queues.setdefault(key, [])
        q.append(entry)
        if len(q) >= 4:
            self._form(key, [q.pop(0) for _ in range(4)])
        elif key not in self._timers:
            self._timers[key] = asyncio.get_running_loop().call_later(
                self.fill_wait, self._fill, key)
        return entry

    def cancel(self, entry: Waiting) -> None:
        q = self._queues.get(entry.key, [])
        if entry in q:
            q.remove(entry)
            if not entry.future.done():
                entry.future.cancel()
        if not q:
            self._drop_timer(entry.key)

    def waiting(self, key: QueueKey | None = None) -> int:
        if key is not None:
            return len(self._queues.get(key, []))
        return sum(len(q) for q in self._queues.values())

    async def count(self) -> int:
        return self.waiting()

    def _drop_timer(self, key: QueueKey) -> None:
        t = self._timers.pop(key, None)
        if t:
            t.cancel()

    def _fill(self, key: QueueKey) -> None:
        self._timers.pop(key, None)
        q = self._queues.get(key, [])
        group = [q.pop(0) for _ in range(min(4, len(q)))]
        if group:
            self._form(key, group)
        if q:          # more arrived meanwhile: their own wait starts now
            self._timers[key] = asyncio.get_running_loop().call_later(
                self.fill_wait, self._fill, key)

    def _form(self, key: QueueKey, group: list[Waiting]) -> None:
        if not self._queues.get(key):
            self._drop_timer(key)
        slots: list[Waiting | None] = [*group, *([None] * (4 - len(group)))]
        self._rng.shuffle(slots)
        task = asyncio.create_task(self._start(key, slots))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _start(self, key: QueueKey, slots: list[Waiting | None]) -> None:
        try:
            game_id = await self.start_table(key, [w.player if w else None for w in slots])
        except Exception as e:  # noqa: BLE001 - handed to every waiting player
            for w in slots:
                if w and not w.future.done():
                    w.future.set_exception(e)
            return
        for seat, w in enumerate(slots):
            if w and not w.future.done():
                w.future.set_result((game_id, seat))


@dataclass
class Room:
    code: str
    host: Player
    profile: str
    stake: str
    rounds: int
    game_id: str
    players: list[Player | None] = field(default_factory=lambda: [None] * 4)
    started: bool = False
    bots: str | None = None         # who fills empty chairs (server.opponents); None: stake's tier
    speed: str = "standard"         # table speed (settings.TABLE_SPEEDS)
    options: dict = field(default_factory=dict)   # more of the game's options (test mode: a stack)
    started_at: float = 0.0         # when it was marked started (or its making last revived)

    def public(self) -> dict:
        return {"code": self.code, "host": self.host[1], "profile": self.profile,
                "stake": self.stake, "rounds": self.rounds, "bots": self.bots,
                "speed": self.speed, "watch": bool(self.options.get("watch", True)),
                "voice": bool(self.options.get("voice", True)),
                "voice_watchers": bool(self.options.get("voice_watchers", False)),
                "voices": bool(self.options.get("voices", True)),
                "hints": bool(self.options.get("hints", False)),
                "players": [p[1] if p else None for p in self.players], "started": self.started}

    def seat_of(self, account_id: int) -> int | None:
        for i, p in enumerate(self.players):
            if p and p[0] == account_id:
                return i
        return None

    def take_seat(self, player: Player) -> int:
        """The seat ``player`` has here, or the first free one (LobbyError if none)."""
        seat = self.seat_of(player[0])
        if seat is not None:
            return seat
        if self.started:
            raise LobbyError("conflict", "this room's game has already started",
                             "room_started")
        for i, p in enumerate(self.players):
            if p is None:
                self.players[i] = player
                return i
        raise LobbyError("conflict", "this room is full", "room_full")

    def give_up_seat(self, account_id: int) -> bool:
        """``account_id`` leaves this unstarted room; True if it was the host (the room
        then closes: nobody is left to start it)."""
        if self.started:
            raise LobbyError("conflict", "this room's game has already started",
                             "room_started")
        seat = self.seat_of(account_id)
        if seat is None:
            raise LobbyError("conflict", "you are not in this room", "not_in_room")
        self.players[seat] = None
        return self.host[0] == account_id

    def to_json(self) -> dict:
        return {"code": self.code, "host": list(self.host), "profile": self.profile,
                "stake": self.stake, "rounds": self.rounds, "game_id": self.game_id,
                "players": [list(p) if p else None for p in self.players],
                "started": self.started, "bots": self.bots, "speed": self.speed,
                "options": self.options, "started_at": self.started_at}

    @classmethod
    def from_json(cls, d: dict) -> Room:
        return cls(d["code"], tuple(d["host"]), d["profile"], d["stake"], d["rounds"],
                   d["game_id"], [tuple(p) if p else None for p in d["players"]],
                   d["started"], d.get("bots"), d.get("speed", "standard"),
                   dict(d.get("options") or {}), float(d.get("started_at", 0.0)))

    def mark_started(self, now: float) -> bool:
        """Started from ``now``; False if it was started already (its game is another's
        to make)."""
        if self.started:
            return False
        self.started, self.started_at = True, now
        return True

    def mark_revived(self, now: float, after: float) -> bool:
        """Started ``after`` seconds ago or more (the caller found no game): marked again
        ``now``, so the next caller waits another ``after``; False if too soon."""
        if not self.started or self.started_at > now - after:
            return False
        self.started_at = now
        return True


def new_room_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(6))


class RoomBook(Protocol):
    """Where rooms live: this process (``Rooms``) or Redis (``RedisRooms``).

    An unstarted room expires ``idle_ttl`` seconds after it was opened or last
    joined; a started one stays until its game ends (``close``)."""
    async def open(self, host: Player, profile: str, stake: str, rounds: int, game_id: str,
                   bots: str | None = None, speed: str = "standard",
                   options: dict | None = None) -> Room: ...
    async def get(self, code: str) -> Room: ...
    async def by_game(self, game_id: str) -> Room | None: ...
    async def join(self, code: str, player: Player) -> tuple[Room, int]: ...
    async def leave(self, code: str, account_id: int) -> Room | None: ...
    async def start(self, code: str) -> Room | None: ...
    async def revive(self, code: str, after: float) -> Room | None: ...
    async def unstart(self, code: str) -> None: ...
    async def waiting_count(self) -> int: ...
    async def waiting_seats(self, account_id: int) -> int: ...
    async def close(self, code: str) -> None: ...


class Rooms:
    """Private rooms of one process (``RoomBook``), by code, and by game id for a
    ticket that arrives early.

    A room nobody has started expires ``idle_ttl`` seconds after it was opened or
    last joined: it is dropped on the next call that may grow the table of rooms,
    so the rooms kept are bounded by the rooms opened within one ``idle_ttl``.
    Started rooms leave when their game ends (``close``)."""

    def __init__(self, idle_ttl: float = 15 * 60,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.idle_ttl = idle_ttl
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        self._by_game: dict[str, Room] = {}
        self._idle: OrderedDict[str, float] = OrderedDict()   # unstarted: code -> last touch

    def __len__(self) -> int:
        self.expire()
        return len(self._rooms)

    def expire(self) -> int:
        """Drop the unstarted rooms idle past ``idle_ttl``; returns how many went."""
        cutoff = self.clock() - self.idle_ttl
        gone = 0
        while self._idle:
            code, touched = next(iter(self._idle.items()))
            if touched > cutoff:
                break
            self._drop(code)
            gone += 1
        return gone

    def _touch(self, room: Room) -> None:
        if room.started:
            self._idle.pop(room.code, None)
        else:
            self._idle[room.code] = self.clock()
            self._idle.move_to_end(room.code)

    def _drop(self, code: str) -> None:
        room = self._rooms.pop(code, None)
        self._idle.pop(code, None)
        if room is not None:
            self._by_game.pop(room.game_id, None)

    async def open(self, host: Player, profile: str, stake: str, rounds: int, game_id: str,
                   bots: str | None = None, speed: str = "standard",
                   options: dict | None = None) -> Room:
        self.expire()
        while True:
            code = new_room_code()
            if code not in self._rooms:
                break
        room = Room(code, host, profile, stake, rounds, game_id, bots=bots, speed=speed,
                    options=dict(options or {}))
        room.players[0] = host
        self._rooms[code] = room
        self._by_game[game_id] = room
        self._touch(room)
        return room

    async def get(self, code: str) -> Room:
        self.expire()
        room = self._rooms.get(code.strip().upper())
        if room is None:
            raise LobbyError("not_found", f"no room with code {code!r}", "room_not_found")
        return room

    async def by_game(self, game_id: str) -> Room | None:
        self.expire()
        return self._by_game.get(game_id)

    async def start(self, code: str) -> Room | None:
        """Mark the room started (its game is being made): idle no more. Returns the
        room as it is now, seats and all, or None if it was started already, so that
        of a host's start and a fourth player's join only one makes the game."""
        room = await self.get(code)
        if not room.mark_started(self.clock()):
            return None
        self._touch(room)
        return room

    async def revive(self, code: str, after: float) -> Room | None:
        """The room if it was marked started ``after`` seconds ago or more, marked again
        now, so that of several callers only one makes its game again; else None."""
        room = await self.get(code)
        return room if room.mark_revived(self.clock(), after) else None

    async def unstart(self, code: str) -> None:
        """Its game could not be made: the room waits again."""
        room = await self.get(code)
        room.started = False
        self._touch(room)

    async def waiting_count(self) -> int:
        """Rooms opened and not (yet) started."""
        self.expire()
        return len(self._idle)

    async def waiting_seats(self, account_id: int) -> int:
        """Unstarted rooms ``account_id`` sits in (counted against the table cap)."""
        self.expire()
        return sum(1 for code in self._idle if self._rooms[code].seat_of(account_id) is not None)

    async def join(self, code: str, player: Player) -> tuple[Room, int]:
        room = await self.get(code)
        seat = room.take_seat(player)
        self._touch(room)
        return room, seat

    async def leave(self, code: str, account_id: int) -> Room | None:
        """The player gives up an unstarted room's seat: the room as it is now, or None
        when the host left and the room closed."""
        room = await self.get(code)
        if room.give_up_seat(account_id):
            self._drop(room.code)
            return None
        self._touch(room)
        return room

    async def close(self, code: str) -> None:
        self._drop(code)

"""The seams that let the server spread over several processes.

Each is a Protocol with the embedded (in-process) implementation here; the Redis
implementations (``redis_seams.py``, ``redis_queue.py``, wired by ``ownership.py``
when the server runs with ``--redis URL``) give several processes one game world.
The fifth seam, the repository, is in ``repository.py`` (SQLite/PostgreSQL).

The calls a connection makes on every message (``connected``, ``publish``, …) stay
synchronous: a Redis implementation writes behind, in order, and the async parts
(``claim``, ``owner``, ``sync``) are only called where waiting is harmless.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

__all__ = [
    "LOCAL_PROCESS",
    "EventBus",
    "LocalBus",
    "LocalDirectory",
    "LocalPresence",
    "Presence",
    "TableDirectory",
]

LOCAL_PROCESS = "local"


class Presence(Protocol):
    """Who is online (counted per account, over all its connections and processes)."""
    def connected(self, account_id: int) -> None: ...
    def disconnected(self, account_id: int) -> None: ...
    def online(self, account_id: int) -> bool: ...
    def count(self) -> int: ...
    async def sync(self) -> None:
        """Bring ``online``/``count`` up to date with the other processes."""


class LocalPresence:
    def __init__(self) -> None:
        self._n: dict[int, int] = defaultdict(int)

    def connected(self, account_id: int) -> None:
        self._n[account_id] += 1

    def disconnected(self, account_id: int) -> None:
        self._n[account_id] -= 1
        if self._n[account_id] <= 0:
            del self._n[account_id]

    def online(self, account_id: int) -> bool:
        return account_id in self._n

    def count(self) -> int:
        return len(self._n)

    async def sync(self) -> None:
        return None


class TableDirectory(Protocol):
    """Which process owns which table, and this process's own tables.

    ``add``/``get``/``remove``/``all`` are about the tables living here. Ownership
    is a claim: ``claim`` makes this process the one that runs the game (False:
    another live process does), ``owner`` names the owner (None: nobody — the game
    may be adopted and resumed from the repository), ``renew`` keeps the claims
    alive and returns the games this process has lost (it must stop those tables),
    ``release`` gives a claim up (a graceful stop, so another process adopts at once).
    """
    process_id: str
    def add(self, table: Any) -> None: ...
    def get(self, game_id: str) -> Any | None: ...
    def remove(self, game_id: str) -> None: ...
    def all(self) -> list[Any]: ...
    async def claim(self, game_id: str) -> bool: ...
    async def owner(self, game_id: str) -> str | None: ...
    async def renew(self) -> list[str]: ...
    async def release(self, game_id: str) -> None: ...


class LocalDirectory:
    """One process owns everything; a claim only guards against starting a game twice."""

    def __init__(self) -> None:
        self.process_id = LOCAL_PROCESS
        self._tables: dict[str, Any] = {}
        self._claimed: set[str] = set()

    def add(self, table: Any) -> None:
        self._tables[table.id] = table
        self._claimed.add(table.id)

    def get(self, game_id: str) -> Any | None:
        return self._tables.get(game_id)

    def remove(self, game_id: str) -> None:
        self._tables.pop(game_id, None)
        self._claimed.discard(game_id)

    def all(self) -> list[Any]:
        return list(self._tables.values())

    async def claim(self, game_id: str) -> bool:
        if game_id in self._claimed:
            return False
        self._claimed.add(game_id)
        return True

    async def owner(self, game_id: str) -> str | None:
        return self.process_id if game_id in self._claimed else None

    async def renew(self) -> list[str]:
        return []

    async def release(self, game_id: str) -> None:
        self._claimed.discard(game_id)


class EventBus(Protocol):
    """Server-wide notices (a game finished, a table moved) for whoever listens.

    Delivery is synchronous in-process and asynchronous (pub/sub) over Redis, where
    every subscribed process — the publisher's too — gets each notice once."""
    def publish(self, topic: str, payload: dict) -> None: ...
    def subscribe(self, topic: str, fn: Callable[[dict], None]) -> None: ...


class LocalBus:
    def __init__(self) -> None:
        self._subs: dict[str, list[Callable[[dict], None]]] = defaultdict(list)

    def publish(self, topic: str, payload: dict) -> None:
        for fn in list(self._subs[topic]):
            fn(payload)

    def subscribe(self, topic: str, fn: Callable[[dict], None]) -> None:
        self._subs[topic].append(fn)

"""The seams that let the server spread over several processes later.

Each is a Protocol with the embedded (in-process) implementation used today.
Several uvicorn workers cannot share in-process tables; a Redis implementation
of these seams (``--redis URL``) is the later step that makes K processes
possible — it does not exist yet, and ``--redis`` says so instead of pretending.
The fifth seam, the repository, is in ``repository.py`` (SQLite/PostgreSQL).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

__all__ = [
    "EventBus",
    "LocalBus",
    "LocalDirectory",
    "LocalPresence",
    "Presence",
    "TableDirectory",
]


class Presence(Protocol):
    """Who is online (counted per account, over all its connections)."""
    def connected(self, account_id: int) -> None: ...
    def disconnected(self, account_id: int) -> None: ...
    def online(self, account_id: int) -> bool: ...
    def count(self) -> int: ...


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


class TableDirectory(Protocol):
    """Which process owns which table (here: the tables themselves, in this process)."""
    def add(self, table: Any) -> None: ...
    def get(self, game_id: str) -> Any | None: ...
    def remove(self, game_id: str) -> None: ...
    def all(self) -> list[Any]: ...


class LocalDirectory:
    def __init__(self) -> None:
        self._tables: dict[str, Any] = {}

    def add(self, table: Any) -> None:
        self._tables[table.id] = table

    def get(self, game_id: str) -> Any | None:
        return self._tables.get(game_id)

    def remove(self, game_id: str) -> None:
        self._tables.pop(game_id, None)

    def all(self) -> list[Any]:
        return list(self._tables.values())


class EventBus(Protocol):
    """Server-wide notices (a game finished, a room started) for whoever listens."""
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

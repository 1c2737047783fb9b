"""Replay frames (牌譜重播) for the browser's replay viewer.

A finished game is stored as its match seed and every decision in order, so the
server replays them through the engine and, for one hand and one seat, keeps the
seat's observation after the deal and after each decision, with the events that
decision produced as that seat saw them. The last frame carries the hand's
``hand_end`` result (every hand revealed, the 台, who paid whom).

Only finished games are replayed (the seeds are secret while a game runs), and
then from any seat: at the end of a hand every hand is turned up anyway, and the
record endpoint already gives out the whole game.

Replaying is pure CPU (the whole game up to the hand asked for), and anyone may
ask, so it never runs on the event loop that runs the tables: ``Replays`` makes
each answer once in a thread of its own and keeps it — a finished game never
changes — and a second request for it waits for the first one's work.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cachetools import LRUCache

from ...errors import UserError

__all__ = ["NoSuchHand", "Replays", "TooBusy", "replay_hand"]

KEPT = 128          # answers kept (a hand's frames are tens of kB)
MAKING = 32         # answers being made or waiting for the thread, at most


class TooBusy(UserError):
    """More replays asked for at once than the thread takes on."""


class NoSuchHand(UserError):
    """The game has fewer hands than asked for."""


def replay_hand(game, rows: list[dict], hand_no: int, seat: int) -> dict:
    """``{"hand_no", "frames": [{"observation", "events"[, "result"]}, …]}``.

    ``game`` is a fresh ``EngineGame`` of the stored game; ``rows`` its stored
    ``game_actions`` in order."""
    frames: list[dict] = []
    seen = 0

    def frame() -> dict:
        nonlocal seen
        events = game.events_for(seat, seen)
        seen = game.event_count()
        f = {"observation": game.observation(seat), "events": events}
        frames.append(f)
        return f

    for r in rows:
        mine = r["hand_no"] == hand_no
        if r["kind"] == "hand":
            seen = game.event_count()
            game.start_hand()
            if mine:
                frame()
        elif r["kind"] == "action":
            game.act(r["seat"], r["data"]["action"])
            if mine:
                frame()
        elif r["kind"] == "settled":
            outcome = game.finish_hand()
            if mine:
                frames[-1]["result"] = outcome["result"]
                break
    if not frames or "result" not in frames[-1]:
        raise NoSuchHand(f"this game has no finished hand {hand_no}")
    return {"hand_no": hand_no, "frames": frames}


class Replays:
    """Answers about finished games (a hand's frames, a game's record), made in one
    thread beside the event loop and kept by key."""

    def __init__(self, kept: int = KEPT, making: int = MAKING):
        self._kept: LRUCache = LRUCache(maxsize=kept)
        self._making: dict[Hashable, asyncio.Future[Any]] = {}
        self._cap = making
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")

    def kept(self, key: Hashable) -> Any:
        """The answer kept for ``key`` (None: not made yet)."""
        return self._kept.get(key)

    async def make(self, key: Hashable, work: Callable[[], Any]) -> Any:
        """``key``'s answer: kept, being made, or made now by ``work()`` in the thread."""
        got = self._kept.get(key)
        if got is not None:
            return got
        fut = self._making.get(key)
        if fut is None:
            if len(self._making) >= self._cap:
                raise TooBusy("many replays are being made; ask again in a moment")
            fut = asyncio.get_running_loop().run_in_executor(self._pool, work)
            self._making[key] = fut
            fut.add_done_callback(lambda f: self._made(key, f))
        return await asyncio.shield(fut)

    def _made(self, key: Hashable, fut: asyncio.Future[Any]) -> None:
        self._making.pop(key, None)
        if not fut.cancelled() and fut.exception() is None:
            self._kept[key] = fut.result()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

"""牌譜分析 for the replay viewer: one hand of a finished game, reviewed for its player.

The stored game (match seed + every decision) is replayed through the engine as
the replay viewer's frames are (server/play/replay.py); at each decision of the
player's seat the hand is kept, and ``twmahjong.analysis`` reviews those moments
from that seat's view alone. Each decision carries ``step``: the replay frame
that shows the move made.

The work is seconds of CPU, so it runs in a worker process (one per server
process, started on first use) and never on the event loop; a result is kept per
game, seat and hand (``Analyses``), and a second request for the same hand waits
for the first one's answer instead of starting the work again.

A hand takes seconds, and longer behind other players' hands in the one worker,
so the worker reports each decision it finishes (a queue given to it when it
starts) and ``progress`` tells a waiting request where its hand stands: how many
hands are ahead of it, or how many of its decisions are done. The replay viewer
shows it ("AI 分析中：7 / 19") instead of a bare spinner. A hand whose last waiting
request goes away is called off (``leave``), queued or begun: the worker's time goes
to the hands someone is looking at.

One account may have ``per_player`` reviews unfinished at once (the server sets
one) and may set new ones going at a rate (``limiter``, per account): a review
costs seconds of CPU, so asking, calling off and asking again must not keep the
worker busy for as long as one player likes.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import queue
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["Analyses", "Busy", "has_hand", "review_stored_hand"]

CACHE_SIZE = 64         # reviewed hands kept (a review is a few kB)
PER_PLAYER = 3          # a player's unfinished reviews (running or queued) at most
CALLED_OFF_SLOTS = 64   # reviews called off that the worker still looks out for


class Busy(Exception):
    """A player asked for more reviews at once than ``PER_PLAYER``."""

Key = tuple[str, int, int]      # (game id, seat, hand number)


@dataclass
class _Pending:
    """A review not finished yet: its turn in the worker, who set it going, how many
    requests wait for it, and how far the worker has come (None: not begun)."""
    seq: int
    fut: asyncio.Future[dict]
    owner: object
    waiting: int = 0
    progress: tuple[int, int] | None = None


def has_hand(rows: list[dict], hand_no: int) -> bool:
    """Whether the stored game finished hand ``hand_no``: asked before any work, so a
    hand the game does not have is a plain 404 and never queues in the worker."""
    return any(r["kind"] == "settled" and r["hand_no"] == hand_no for r in rows)


def review_stored_hand(meta: dict, rows: list[dict], hand_no: int, seat: int, *, bot: str,
                       worlds: int, seed: int = 0,
                       progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Hand ``hand_no`` (1-based) of a stored game, reviewed for ``seat``.

    ``meta`` and ``rows`` are what ``server.replay.replay_hand`` takes; the answer
    is ``HandReview.to_json()`` with the review's settings beside it. ``progress``
    hears (decisions done, decisions in all), first with none done."""
    from ...analysis import (DEFAULT_DEAL, ROLLOUT_BOT, DecisionPoint, is_decision,
                             review_points)
    from ...engine.actions import Action
    from ...engine.rollout import clone
    from .engine_game import EngineGame
    from .replay import NoSuchHand

    game = EngineGame(meta)
    points: list[DecisionPoint] = []
    step = 0
    done = False
    dealer = 0
    for r in rows:
        mine = r["hand_no"] == hand_no
        if r["kind"] == "hand":
            game.start_hand()
            if mine:
                dealer = game.hand.dealer
        elif r["kind"] == "action":
            h = game.hand
            if mine:
                step += 1
                if r["seat"] == seat and is_decision(h, seat):
                    played = Action.from_json(r["data"]["action"])
                    points.append(DecisionPoint(clone(h), seat, played, len(h.events), step))
            game.act(r["seat"], r["data"]["action"])
        elif r["kind"] == "settled":
            game.finish_hand()
            if mine:
                done = True
                break
    if not done:
        raise NoSuchHand(f"this game has no finished hand {hand_no}")
    stakes = game.match.profile.stakes
    threshold = float(stakes.per_tai)
    if progress is not None:
        progress(0, len(points))
    hands = review_points(points, bot=bot, worlds=worlds, seed=seed, threshold=threshold,
                          hands=[(hand_no - 1, dealer)], progress=progress)
    review = hands[0].to_json() if hands else {"decisions": [], "costliest": []}
    review["hand_no"] = hand_no
    return {"seat": seat, "bot": bot, "rollout_bot": ROLLOUT_BOT, "worlds": worlds,
            "deal": DEFAULT_DEAL, "seed": seed,
            "stakes": {"base": stakes.base, "per_tai": stakes.per_tai}, "threshold": threshold,
            **review}


class Analyses:
    """Reviewed hands by (game, seat, hand), computed in a worker process."""

    def __init__(self, *, bot: str, worlds: int, call: Callable[..., dict] | None = None,
                 per_player: int = PER_PLAYER, limiter: Any = None):
        """``call`` does one review in the worker (a module-level function, as the
        worker imports it): ``_call`` unless a test puts its own there. ``limiter``
        (``net.limits.Limiter``) spends one token of the owner's per review set going."""
        self.bot, self.worlds = bot, worlds
        self.per_player, self.limiter = per_player, limiter
        self._call = call or _call
        self._pool: ProcessPoolExecutor | None = None
        self._reports: Any = None       # the worker's (key, done, total), one per decision
        self._called_off: Any = None    # shared with the worker: numbers of reviews dropped
        self._offs = 0
        self._done: OrderedDict[Key, asyncio.Future[dict]] = OrderedDict()
        self._pending: dict[Key, _Pending] = {}
        self._count = itertools.count()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a process with an event loop,
            # database connections and threads
            ctx = multiprocessing.get_context("spawn")
            self._reports = ctx.Queue()
            self._called_off = ctx.Array("q", [-1] * CALLED_OFF_SLOTS)
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx,
                                             initializer=_worker_started,
                                             initargs=(self._reports, self._called_off))
        return self._pool

    def start(self, game_id: str, meta: dict, rows: list[dict], hand_no: int,
              seat: int, *, owner: object = None) -> asyncio.Future[dict]:
        """The review of that hand: kept, under way, or set going now for ``owner``,
        who may have ``PER_PLAYER`` unfinished at once (``Busy`` past that): the one
        worker reviews hands in the order asked, so one player asking for every hand
        of their games would have everyone else wait behind them."""
        key = (game_id, seat, hand_no)
        fut = self._done.get(key)
        if fut is not None:
            self._done.move_to_end(key)
            return fut
        if owner is not None and sum(p.owner == owner
                                     for p in self._pending.values()) >= self.per_player:
            raise Busy(f"the AI is still reviewing {self.per_player} of your hands; "
                       "ask again when one is done")
        if owner is not None and self.limiter is not None and not self.limiter.take(owner):
            raise Busy("you have asked for many reviews lately; wait a minute and ask again")
        loop = asyncio.get_running_loop()
        seq = next(self._count)
        fut = asyncio.ensure_future(loop.run_in_executor(
            self._executor(), _run, seq, self._call, key, meta, rows, hand_no, seat, self.bot,
            self.worlds))
        self._done[key] = fut
        self._pending[key] = _Pending(seq, fut, owner)
        fut.add_done_callback(lambda f: self._finished(key, f))
        while len(self._done) > CACHE_SIZE:
            self._done.popitem(last=False)
        return fut

    def _finished(self, key: Key, fut: asyncio.Future[dict]) -> None:
        p = self._pending.get(key)
        if p is not None and p.fut is fut:
            del self._pending[key]

    def join(self, key: Key) -> None:
        """A request waits for ``key``'s review (``leave`` when it stops waiting)."""
        p = self._pending.get(key)
        if p is not None:
            p.waiting += 1

    def leave(self, key: Key, fut: asyncio.Future[dict]) -> None:
        """A request stopped waiting. A review nobody waits for any more is called off:
        a player leafing through a game's hands, or leaving the replay, would otherwise
        have the worker review every hand they passed while the next player's hand
        waited behind them (9.7 s behind a hand looked at for 0.3 s, in a game played
        here). The worker skips it, or drops it at its next decision if begun."""
        p = self._pending.get(key)
        if p is None or p.fut is not fut or fut.done():
            return
        p.waiting -= 1
        if p.waiting > 0:
            return
        if self._called_off is not None:
            self._called_off[self._offs % CALLED_OFF_SLOTS] = p.seq
            self._offs += 1
        fut.cancel()
        self._finished(key, fut)        # now, not at the callback's turn of the loop
        if self._done.get(key) is fut:
            del self._done[key]

    def progress(self, game_id: str, seat: int, hand_no: int) -> dict[str, int]:
        """Where a hand's review stands: ``{"ahead": n}`` while n other hands go first,
        then ``{"done": k, "total": n}`` decisions; ``{}`` once finished or unknown."""
        self._drain()
        p = self._pending.get((game_id, seat, hand_no))
        if p is None:
            return {}
        if p.progress is not None:
            done, total = p.progress
            return {"done": done, "total": total}
        return {"ahead": sum(1 for q in self._pending.values() if q.seq < p.seq)}

    def _drain(self) -> None:
        while self._reports is not None:
            try:
                key, done, total = self._reports.get_nowait()
            except (queue.Empty, OSError, ValueError):
                return
            p = self._pending.get(key)
            if p is not None:
                p.progress = (done, total)

    async def review(self, game_id: str, meta: dict, rows: list[dict], hand_no: int,
                     seat: int, *, owner: object = None) -> dict:
        fut = self.start(game_id, meta, rows, hand_no, seat, owner=owner)
        key = (game_id, seat, hand_no)
        self.join(key)
        try:
            return await self.result(fut, key)
        finally:
            self.leave(key, fut)

    async def result(self, fut: asyncio.Future[dict], key: Key) -> dict:
        """The review ``start`` set going, once done. A failure is not kept: the next
        request tries again; a dead worker is replaced by the next request."""
        try:
            return await asyncio.shield(fut)
        except Exception as e:
            if self._done.get(key) is fut:
                del self._done[key]
            if isinstance(e, BrokenProcessPool):
                self._pool = None
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


_REPORTS: Any = None    # in the worker: where its progress goes
_CALLED_OFF: Any = None  # in the worker: the numbers of reviews nobody waits for
_CURRENT = -1           # in the worker: the number of the review under way


class CalledOff(Exception):
    """In the worker: the review under way is no longer wanted."""


def _worker_started(reports: Any, called_off: Any) -> None:
    global _REPORTS, _CALLED_OFF
    _REPORTS, _CALLED_OFF = reports, called_off


def _check() -> None:
    if _CALLED_OFF is not None and _CURRENT in _CALLED_OFF[:]:
        raise CalledOff()


def _run(seq: int, call: Callable[..., dict], *args: Any) -> dict:
    global _CURRENT
    _CURRENT = seq
    _check()
    return call(*args)


def report(key: Key, done: int, total: int) -> None:
    """In the worker: ``done`` of the ``total`` decisions of ``key``'s hand are reviewed.
    A review called off stops here, between two decisions."""
    if _REPORTS is not None:
        _REPORTS.put((key, done, total))
    _check()


def _call(key: Key, meta: dict, rows: list[dict], hand_no: int, seat: int, bot: str,
          worlds: int) -> dict:
    return review_stored_hand(meta, rows, hand_no, seat, bot=bot, worlds=worlds,
                              progress=lambda done, total: report(key, done, total))

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
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["Analyses", "review_stored_hand"]

CACHE_SIZE = 64         # reviewed hands kept (a review is a few kB)


def review_stored_hand(meta: dict, rows: list[dict], hand_no: int, seat: int, *, bot: str,
                       worlds: int, seed: int = 0) -> dict[str, Any]:
    """Hand ``hand_no`` (1-based) of a stored game, reviewed for ``seat``.

    ``meta`` and ``rows`` are what ``server.replay.replay_hand`` takes; the answer
    is ``HandReview.to_json()`` with the review's settings beside it."""
    from ...analysis import ROLLOUT_BOT, DecisionPoint, is_decision, review_points
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
    hands = review_points(points, bot=bot, worlds=worlds, seed=seed, threshold=threshold,
                          hands=[(hand_no - 1, dealer)])
    review = hands[0].to_json() if hands else {"decisions": [], "costliest": []}
    review["hand_no"] = hand_no
    return {"seat": seat, "bot": bot, "rollout_bot": ROLLOUT_BOT, "worlds": worlds, "seed": seed,
            "stakes": {"base": stakes.base, "per_tai": stakes.per_tai}, "threshold": threshold,
            **review}


class Analyses:
    """Reviewed hands by (game, seat, hand), computed in a worker process."""

    def __init__(self, *, bot: str, worlds: int):
        self.bot, self.worlds = bot, worlds
        self._pool: ProcessPoolExecutor | None = None
        self._done: OrderedDict[tuple[str, int, int], asyncio.Future[dict]] = OrderedDict()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: a fresh interpreter, not a fork of a process with an event loop,
            # database connections and threads
            self._pool = ProcessPoolExecutor(max_workers=1,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    async def review(self, game_id: str, meta: dict, rows: list[dict], hand_no: int,
                     seat: int) -> dict:
        key = (game_id, seat, hand_no)
        fut = self._done.get(key)
        if fut is None:
            loop = asyncio.get_running_loop()
            fut = asyncio.ensure_future(loop.run_in_executor(
                self._executor(), _call, meta, rows, hand_no, seat, self.bot, self.worlds))
            self._done[key] = fut
            while len(self._done) > CACHE_SIZE:
                self._done.popitem(last=False)
        else:
            self._done.move_to_end(key)
        try:
            return await asyncio.shield(fut)
        except Exception as e:
            if self._done.get(key) is fut:
                del self._done[key]         # a failure is not kept: the next request tries again
            if isinstance(e, BrokenProcessPool):
                self._pool = None           # the worker died: the next request starts another
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _call(meta: dict, rows: list[dict], hand_no: int, seat: int, bot: str, worlds: int) -> dict:
    return review_stored_hand(meta, rows, hand_no, seat, bot=bot, worlds=worlds)

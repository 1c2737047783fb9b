"""The random bot: any legal action, uniformly — except that it always takes a win
and usually draws the last tile (海底).

It exists to drive the engine through every corner (self-play, property tests,
the benchmark), so it must be cheap and seeded. Taking every win offered keeps
hands ending the way a table's do; declining 海底 now and then (海底牌得棄摸)
keeps that path exercised without ending most hands early.

    >>> RandomBot(seed=1).act({"legal": [{"type": "pass"}, {"type": "win", "tile": "5m"}]})
    {'type': 'win', 'tile': '5m'}
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["RandomBot"]

_WINS = ("win", "flower_win")
DRAW_LAST_TILE = 0.9          # chance of drawing 海底 when the table offers the choice


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, observation: Observation) -> ActionJSON | Action:
        acts: Sequence[Action] | None = getattr(observation, "actions", None)
        if acts:
            # in process: the engine's own objects, chosen exactly as their JSON would be.
            # The engine lists a win (胡, 花胡) first, so the first action tells
            # (tests/engine/test_fast_paths.py holds it to that).
            first = acts[0].type
            if first in _WINS:
                return acts[0]
            if first == "draw":                          # [draw, pass]: 海底
                return acts[0] if self.rng.random() < DRAW_LAST_TILE else acts[-1]
            # randrange(n) is _randbelow(n) for n > 0 (the same draw), one call fewer
            return acts[self.rng._randbelow(len(acts))]  # type: ignore[attr-defined]
        legal: list[ActionJSON] = observation.get("legal") or [{"type": "pass"}]
        for a in legal:
            if a["type"] in _WINS:
                return a
        if legal[0]["type"] == "draw":                   # [draw, pass]: 海底
            return legal[0] if self.rng.random() < DRAW_LAST_TILE else legal[-1]
        return legal[self.rng.randrange(len(legal))]

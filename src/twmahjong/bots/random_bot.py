"""The random bot: any legal action, uniformly — except that it always takes a win.

It exists to drive the engine through every corner (self-play, property tests,
the benchmark), so it must be cheap and seeded. Taking every win offered keeps
hands ending the way a table's do.

    >>> RandomBot(seed=1).act({"legal": [{"type": "pass"}, {"type": "win", "tile": "5m"}]})
    {'type': 'win', 'tile': '5m'}
"""

from __future__ import annotations

import random

__all__ = ["RandomBot"]

_WINS = ("win", "flower_win")


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def act(self, observation: dict) -> dict:
        legal = observation.get("legal") or [{"type": "pass"}]
        for a in legal:
            if a["type"] in _WINS:
                return a
        return legal[self.rng.randrange(len(legal))]

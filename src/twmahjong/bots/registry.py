"""Puts the levels, the efficiency baseline and the personalities into the bot
registry (``twmahjong.bots.make_bot``), under the arena's seat names."""

from __future__ import annotations

from collections.abc import Callable

from . import register
from .base import Bot
from .arena import make_seat_bot
from .personalities import PERSONALITIES
from .policy import LEVELS

NAMES = ["efficiency"] + [f"L{k}" for k in LEVELS] + ["L6"] + [p.id for p in PERSONALITIES]


def _factory(name: str) -> Callable[[int | None], Bot]:
    def factory(seed: int | None = None) -> Bot:
        return make_seat_bot(name, 0 if seed is None else seed)
    return factory


for _name in NAMES:
    register(_name, _factory(_name))

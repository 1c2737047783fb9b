"""Bots (電腦玩家): a registry of named bots, each built from a seed.

    >>> make_bot("random", seed=3).name
    'random'

``register(name, factory)`` adds a kind of bot; ``factory(seed)`` returns an
object with ``act(observation) -> action`` (see ``bots.base.Bot``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import UserError
from .base import Bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "UnknownBot", "bot_names", "make_bot", "register"]


class UnknownBot(UserError):
    """A bot name nobody registered."""


_REGISTRY: dict[str, Callable[[int | None], Bot]] = {"random": lambda seed: RandomBot(seed)}


def register(name: str, factory: Callable[[int | None], Bot]) -> None:
    _REGISTRY[name] = factory


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A fresh bot of kind ``name``; the seed fixes its choices."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise UnknownBot(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}") from None
    return factory(seed)
from . import registry as _registry  # noqa: F401  (levels L1-L6, efficiency, personalities)

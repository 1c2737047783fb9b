"""What a bot is (電腦玩家): anything with ``act(observation) -> action``.

A bot sees only its seat's observation (docs/architecture.md) — never the table —
and answers with one action as JSON, chosen from ``observation["legal"]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:                       # types only: importing the bots loads no engine
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, observation: Observation) -> ActionJSON | Action:
        """One action from ``observation["legal"]``, as JSON ({"type": ..., "tile": ...});
        in process, one of ``observation.actions`` (the engine's own) where it has them."""
        ...

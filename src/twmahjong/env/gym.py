"""One seat learns, three bots play: a Gymnasium environment over ``TwmjEnv``.

The other three chairs are named bots from the registry (``L1``-``L5``,
``efficiency``, a personality such as ``shark``, or ``random``); they see only
their own seat's observation, exactly as at a live table. ``step`` plays the
learner's action and then lets the bots play until the learner must decide again
or the episode ends; the reward is everything the learner's seat gained in
between (points or 台, as the AEC environment counts them).

An action the mask does not allow ends the episode (``terminated``) with the
penalty ``illegal_reward`` (see ``twmahjong.env.aec``: by default more than any
real hand costs) and ``info["illegal_action"]`` saying what was legal. So
Gymnasium's ``check_env``, which plays actions drawn from the whole action space,
passes; a policy avoids the penalty by playing what ``obs["action_mask"]`` allows.

    >>> e = SingleSeatEnv("L1", seat=0)
    >>> obs, info = e.reset(seed=3)
    >>> obs["action_mask"].shape
    (146,)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from ..bots import Bot, make_bot
from ..engine.actions import PASS, Action, IllegalAction
from ..engine.observe import LazyObservation
from ..profiles import Profile
from .aec import AGENTS, EnvError, Obs, TwmjEnv
from .spaces import action_index

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gymnasium.Env[Obs, int]):
    """``opponents`` names the bots: one name for all three chairs, or three names
    in turn order after the learner. ``seat`` fixes the learner's seat (0-3);
    by default it is drawn from the episode's seed. Other options as ``TwmjEnv``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, opponents: str | Sequence[str] = "L1", *, seat: int | None = None,
                 profile: str | Profile = "standard", reward: str = "points",
                 rounds: int | None = None, render_mode: str | None = None,
                 illegal_reward: float | None = None):
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise EnvError(f"opponents needs one bot name or three, got {len(names)}")
        for n in names:
            make_bot(n, 0)             # an unknown name fails here, naming the known ones
        if seat is not None and seat not in range(4):
            raise EnvError(f"seat must be 0-3 or None, not {seat!r}")
        self.opponents = names
        self.fixed_seat = seat
        self.aec = TwmjEnv(profile, reward=reward, rounds=rounds,
                           render_mode="ansi" if render_mode else None,
                           illegal_reward=illegal_reward)
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(AGENTS[0])
        self.action_space = self.aec.action_space(AGENTS[0])
        self.seat = 0 if seat is None else seat
        self._bots: dict[int, Bot] = {}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        rng = random.Random(int(self.np_random.integers(2**63)))
        self.seat = self.fixed_seat if self.fixed_seat is not None else rng.randrange(4)
        self.aec.reset(seed=rng.getrandbits(63))
        self._bots = {(self.seat + 1 + i) % 4: make_bot(n, rng.getrandbits(31))
                      for i, n in enumerate(self.opponents)}
        self._run_bots()
        obs, _, _, _, info = self.aec.last()
        return obs, dict(info)

    def step(self, action: int) -> tuple[Obs, SupportsFloat, bool, bool, dict[str, Any]]:
        me = AGENTS[self.seat]
        if self.aec.hand is None:
            raise EnvError("call reset() before step()")
        if self.aec.terminations.get(me, True):
            raise EnvError("the episode is over; call reset()")
        if self.aec.agent_selection != me:
            raise EnvError("internal: the learner is not the seat to move")
        self.aec.step(action)
        self._run_bots()
        obs = self.aec.observe(me)
        reward = self.aec._cumulative_rewards[me]
        self.aec._cumulative_rewards[me] = 0.0
        done = self.aec.terminations[me]
        return obs, reward, done, False, dict(self.aec.infos[me])

    def render(self) -> str | None:
        return self.aec.render()

    def _run_bots(self) -> None:
        """Bots move until the learner must decide or the episode is over."""
        aec = self.aec
        me = AGENTS[self.seat]
        while not aec.terminations[me] and aec.agent_selection != me:
            h = aec.hand
            assert h is not None
            seat = AGENTS.index(aec.agent_selection)
            legal = h.pending()[seat]
            bot = self._bots[seat]
            choice = bot.act(LazyObservation(h, seat, [a.to_json() for a in legal]))
            aec.step(action_index(_offered(choice, legal)))
            if h.over:
                for b in self._bots.values():
                    end = getattr(b, "end_hand", None)
                    if end is not None:
                        end(h.result)


def _offered(choice: object, legal: list[Action]) -> Action:
    """The bot's action if it was offered, else the table's default move (過, or the
    first offered action)."""
    try:
        a = Action.from_json(choice)
    except IllegalAction:
        a = None
    if a is not None and a in legal:
        return a
    return PASS if PASS in legal else legal[0]

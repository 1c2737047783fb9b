"""Reinforcement-learning environments over the engine (強化學習環境).

``env()`` is a PettingZoo AEC environment for four agents; ``SingleSeatEnv`` is a
Gymnasium environment where one seat learns and the other three are named bots
(``L1``-``L5``, ``efficiency``, a personality, ``random``). ``spaces`` fixes the
action indices and the observation layout both share, and encodes a bot's JSON
observation the same way, so a policy trained here can sit at any table.

    >>> e = env(seed=7)
    >>> agent = e.agent_selection
    >>> obs, *_ = e.last()
    >>> e.step(int(obs["action_mask"].nonzero()[0][0]))

Needs the ``rl`` extra (``pip install 'twmahjong[rl]'``: numpy, gymnasium,
pettingzoo); the rest of the package does not.
"""

from __future__ import annotations

from .aec import REWARDS, EnvError, TwmjEnv, default_illegal_reward, env, tai_flow
from .gym import SingleSeatEnv
from .spaces import ACTION_COUNT, OBS_LAYOUT, OBS_SIZE, action_index, action_name, decode

__all__ = [
    "ACTION_COUNT",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "REWARDS",
    "EnvError",
    "SingleSeatEnv",
    "TwmjEnv",
    "action_index",
    "action_name",
    "decode",
    "default_illegal_reward",
    "env",
    "tai_flow",
]

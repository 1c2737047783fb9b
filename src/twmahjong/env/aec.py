"""The four-seat PettingZoo AEC environment over the engine (``twmahjong.env.env``).

Agents are ``seat_0`` … ``seat_3`` (the engine's seats). The engine may ask several
seats at once — after a discard every seat that can 吃/碰/槓/胡 decides — and a
PettingZoo AEC game asks one agent at a time, so the environment asks the pending
seats one after another in turn order from the discarder. A seat's choice is held
by the engine, unseen, until the last pending seat has chosen; then the table
resolves by priority (胡 > 碰/槓 > 吃) exactly as at a real table. Seats with
nothing to decide are never asked.

An episode is one hand (盤) by default, or a match of ``rounds`` 圈. Rewards come
when a hand ends, to every seat: the settlement's net points (``reward="points"``)
or the net 台 (``reward="tai"``: a self-draw takes the winner's 台 from each of the
three others, a deal-in from the discarder alone). Everything is derived from the
``reset`` seed, so the same seed and the same actions replay the same game.

An action the mask does not allow ends the episode, as in PettingZoo's classic
games: every seat is terminated, the seat that played it gets ``illegal_reward``
and the others 0, and each seat's ``info["illegal_action"]`` says what was played
and what was legal (PettingZoo's illegal-move warning is logged too). By default
the penalty is the profile's whole pattern catalogue as one hand — 199 台 in the
standard profile, or ``base + per_tai × 199`` = 4,080 points at its 100 / 20 — far
beyond what any real hand costs, so no illegal action is ever worth playing. The
action mask is the way to avoid it. Something that is not an action index at all
(a string, 146, -1) is ``IllegalAction`` and changes nothing.

    >>> e = env(seed=None)
    >>> e.reset(seed=1)
    >>> obs, reward, done, cut, info = e.last()
    >>> int(obs["action_mask"].sum()) > 0 and not done
    True
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.actions import Action, IllegalAction
from ..engine.match import Match
from ..engine.table import HandState
from ..engine.wall import new_seed
from ..errors import UserError
from ..profiles import Profile, load_profile
from .spaces import ACTION_COUNT, OBS_HIGH, OBS_SIZE, action_name, encode, legal_indices

if TYPE_CHECKING:
    from ..engine.results import HandResult

__all__ = ["REWARDS", "EnvError", "TwmjEnv", "default_illegal_reward", "env", "tai_flow"]

REWARDS = ("points", "tai")
AGENTS = tuple(f"seat_{i}" for i in range(4))
RENDER_MODES = ("ansi", "human")

Obs = dict[str, npt.NDArray[np.int8]]


class EnvError(UserError):
    """An environment option or call that cannot be used; the message says which."""


def tai_flow(result: HandResult) -> list[float]:
    """Net 台 per seat of a finished hand's result (0s for a drawn hand)."""
    flow = [0.0] * 4
    payer = result.get("payer")
    for w in result.get("winners") or []:
        tai = float(result["tai"][w])
        for s in range(4):
            if s != w and (payer is None or s == payer):
                flow[s] -= tai
                flow[w] += tai
    return flow


class TwmjEnv(AECEnv[str, Obs, int]):
    """Taiwanese 16-tile mahjong for four learning (or scripted) agents.

    ``profile`` is a rule profile's name (``standard``, ``classic``, ``casual``), a
    TOML path, or a loaded ``Profile``; ``reward`` is ``"points"`` or ``"tai"``;
    ``rounds`` (1-4) plays a whole match per episode instead of one hand;
    ``illegal_reward`` is what a seat gets for an action its mask does not allow,
    which ends the episode (default: ``default_illegal_reward``).
    Observations are ``{"observation": int8[OBS_SIZE], "action_mask": int8[146]}``
    (``twmahjong.env.spaces`` documents every block and every action index).
    """

    metadata: dict[str, Any] = {"name": "twmahjong_v0", "render_modes": list(RENDER_MODES),
                                "is_parallelizable": False}

    def __init__(self, profile: str | Profile = "standard", *, reward: str = "points",
                 rounds: int | None = None, render_mode: str | None = None,
                 illegal_reward: float | None = None):
        super().__init__()
        if reward not in REWARDS:
            raise EnvError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if rounds is not None and not (isinstance(rounds, int) and 1 <= rounds <= 4):
            raise EnvError(f"rounds must be 1 to 4 (圈) or None for one hand, not {rounds!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise EnvError(f"render_mode must be ansi, human or None, not {render_mode!r}")
        self.profile = profile if isinstance(profile, Profile) else load_profile(profile)
        self.reward_kind = reward
        self.illegal_reward = (float(illegal_reward) if illegal_reward is not None
                               else default_illegal_reward(self.profile, reward))
        self.rounds = rounds
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, OBS_HIGH, shape=(OBS_SIZE,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8),
        })
        # one space object per agent, so seeding one agent's space is not shared
        self.observation_spaces = {a: obs_space if i == 0 else _copy_space(obs_space)
                                   for i, a in enumerate(AGENTS)}
        self.action_spaces = {a: spaces.Discrete(ACTION_COUNT) for a in AGENTS}
        self._rng = random.Random(new_seed())
        self.match: Match | None = None
        self.hand: HandState | None = None
        self._legal: dict[int, Action] = {}

    # -- PettingZoo API ----------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (or match); with ``seed`` the whole episode is fixed by it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.profile, seed=self._rng.getrandbits(63), rounds=self.rounds or 1)
        self.hand = self.match.start_hand()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._select()

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation: what that seat may see, and its legal actions as a mask."""
        if self.hand is None:
            raise EnvError("call reset() before observe()")
        seat = _seat(agent)
        if agent == self.agent_selection:
            offered = self._legal
        else:
            legal = self.hand.pending().get(seat)
            offered = legal_indices(legal) if legal else {}
        mask = bytearray(ACTION_COUNT)
        for i in offered:
            mask[i] = 1
        return {"observation": encode(self.hand, seat),
                "action_mask": np.frombuffer(mask, dtype=np.int8)}

    def step(self, action: int | None) -> None:
        """The selected agent plays ``action`` (an index the mask allows)."""
        if self.hand is None or self.match is None:
            raise EnvError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = _index(action)
        if not 0 <= i < ACTION_COUNT:
            raise IllegalAction(f"{agent} may not play {action!r}: an action is an index "
                                f"0-{ACTION_COUNT - 1} (twmahjong.env.spaces)")
        chosen = self._legal.get(i)
        if chosen is None:
            self._end_illegal(agent, i)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        h = self.hand
        h.act(_seat(agent), chosen)
        if h.over:
            self._end_hand(h)
        self._accumulate_rewards()
        if not self.terminations[agent]:
            self._select()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text from the selected seat's chair (``ansi`` returns it)."""
        if self.render_mode is None or self.hand is None:
            return None
        text = _render(self.hand, _seat(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.hand = None
        self.match = None

    # -- one seat after another --------------------------------------------------

    def _select(self) -> None:
        """The next seat to decide: alone, or the nearest after the discarder."""
        h = self.hand
        assert h is not None
        pend = h.pending()
        if len(pend) == 1:
            seat = next(iter(pend))
        else:
            origin = h.claim_ctx[0] if h.claim_ctx is not None else h.turn_seat
            seat = min(pend, key=lambda s: (s - origin - 1) % 4)
        self.agent_selection = AGENTS[seat]
        self._legal = legal_indices(pend[seat])

    def _end_illegal(self, agent: str, action: int) -> None:
        """An action the mask did not allow: the episode ends, ``agent`` is penalised."""
        from pettingzoo.utils.env_logger import EnvLogger
        EnvLogger.warn_on_illegal_move()
        offered = ", ".join(action_name(i) for i in sorted(self._legal))
        said = f"{agent} may not play {_label(action)} now; legal: {offered}"
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"illegal_action": said}
        self._legal = {}
        self._accumulate_rewards()

    def _end_hand(self, h: HandState) -> None:
        m = self.match
        assert m is not None and h.result is not None
        res = h.result
        if self.reward_kind == "tai":
            gains = tai_flow(res)
        else:
            gains = [float(x) for x in (res.get("net") or [0, 0, 0, 0])]
        for s, a in enumerate(AGENTS):
            if a in self.rewards:
                self.rewards[a] = gains[s]
            self.infos[a] = {"hand_result": res}
        m.end_hand()
        if self.rounds is None or m.over:
            self._legal = {}
            for a in self.agents:
                self.terminations[a] = True
            return
        self.hand = m.start_hand()


def default_illegal_reward(profile: Profile, reward: str = "points") -> float:
    """The penalty for an action the mask does not allow: every pattern of the profile's
    catalogue in one hand (no real hand holds them all), lost as 台 or as points at the
    profile's stakes (``base + per_tai × 台``).

        >>> from twmahjong.profiles import load_profile
        >>> default_illegal_reward(load_profile("standard")), default_illegal_reward(load_profile("standard"), "tai")
        (-4080.0, -199.0)
    """
    tai = sum(p.tai for p in profile.patterns.values())
    if reward == "tai":
        return -float(tai)
    return -float(profile.stakes.base + profile.stakes.per_tai * tai)


def env(profile: str | Profile = "standard", *, reward: str = "points", rounds: int | None = None,
        render_mode: str | None = None, seed: int | None = None,
        illegal_reward: float | None = None) -> TwmjEnv:
    """A new environment (PettingZoo's ``env()`` convention); ``seed`` resets it at once."""
    e = TwmjEnv(profile, reward=reward, rounds=rounds, render_mode=render_mode,
                illegal_reward=illegal_reward)
    if seed is not None:
        e.reset(seed=seed)
    return e


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    return spaces.Dict({k: spaces.Box(0, v.high, shape=v.shape, dtype=np.int8)
                        for k, v in space.spaces.items() if isinstance(v, spaces.Box)})


def _seat(agent: str) -> int:
    try:
        return AGENTS.index(agent)
    except ValueError:
        raise EnvError(f"unknown agent {agent!r}; agents are {', '.join(AGENTS)}") from None


def _index(action: object) -> int:
    if action is None:
        return -1
    try:
        i = int(action)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return -1
    return i if i == action else -1


def _label(action: object) -> str:
    i = _index(action)
    return f"{i} ({action_name(i)})" if 0 <= i < ACTION_COUNT else repr(action)


def _render(h: HandState, seat: int) -> str:
    obs = h.observation(seat)
    lines = [f"round {obs['round_wind']}  dealer seat {obs['dealer']} (連{obs['dealer_streak']})  "
             f"tiles left {obs['wall_remaining']}  phase {obs['phase']}"]
    for s in range(4):
        melds = " ".join(m["tiles"] or "[暗槓]" for m in obs["melds"][s])
        lines.append(f"seat {s} {obs['seat_winds'][s]}{' *' if s == seat else '  '} "
                     f"flowers {''.join(obs['flowers'][s]) or '-'}  melds {melds or '-'}  "
                     f"river {' '.join(obs['discards'][s])}")
    lines.append(f"hand {obs['hand']}" + (f" + {obs['drawn']}" if obs["drawn"] else ""))
    if "legal" in obs:
        lines.append("legal " + ", ".join(action_name(i) for i in legal_indices(h.pending()[seat])))
    return "\n".join(lines)

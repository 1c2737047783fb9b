"""twmahjong.env.SingleSeatEnv: one learning seat against named bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from twmahjong.bots import UnknownBot  # noqa: E402
from twmahjong.engine import IllegalAction  # noqa: E402
from twmahjong.env import EnvError, SingleSeatEnv, default_illegal_reward  # noqa: E402
from twmahjong.profiles import load_profile  # noqa: E402


def _episode(g: SingleSeatEnv, seed: int, pick=lambda legal: legal[0]) -> tuple[list, float, dict]:
    obs, info = g.reset(seed=seed)
    trace = []
    total = 0.0
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        assert legal, "the learner is asked only when it has something to decide"
        a = pick(legal)
        trace.append((a, int(obs["observation"].sum())))
        obs, r, done, truncated, info = g.step(a)
        assert not truncated
        total += float(r)
    return trace, total, info


@pytest.mark.parametrize("opponents", ["L1", ("L3", "shark", "random")])
def test_an_episode_pays_the_learner_its_seat_of_the_result(opponents) -> None:
    g = SingleSeatEnv(opponents, seat=1)
    for seed in range(10):
        _, total, info = _episode(g, seed)
        res = info["hand_result"]
        assert total == float((res.get("net") or [0] * 4)[1])
        if total:
            return
    pytest.fail("the learner neither won nor paid in 10 hands")


def test_same_seed_same_episode_and_the_seat_follows_the_seed() -> None:
    g1, g2 = SingleSeatEnv("L2"), SingleSeatEnv("L2")
    assert _episode(g1, 5) == _episode(g2, 5)
    seats = set()
    for seed in range(12):
        g1.reset(seed=seed)
        seats.add(g1.seat)
    assert len(seats) > 1


def test_a_match_episode_and_tai_rewards() -> None:
    g = SingleSeatEnv("efficiency", seat=0, rounds=1, reward="tai")
    _, total, _ = _episode(g, 3)
    m = g.aec.match
    assert m.over and m.hand_no >= 4
    from twmahjong.env import tai_flow
    assert total == sum(tai_flow(r)[0] for r in m.results)


def test_bad_options_are_one_clear_error() -> None:
    with pytest.raises(UnknownBot, match="unknown bot 'L9'"):
        SingleSeatEnv("L9")
    with pytest.raises(EnvError, match="one bot name or three"):
        SingleSeatEnv(["L1", "L2"])
    with pytest.raises(EnvError, match="seat must be 0-3"):
        SingleSeatEnv("L1", seat=4)
    g = SingleSeatEnv("L1")
    with pytest.raises(EnvError, match="reset"):
        g.step(0)
    g.reset(seed=1)
    with pytest.raises(IllegalAction, match="an action is an index 0-145"):
        g.step(146)


def test_an_action_the_mask_forbids_ends_the_episode_with_the_penalty() -> None:
    g = SingleSeatEnv("L1", seat=2, reward="tai")
    obs, _ = g.reset(seed=4)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = g.step(bad)
    assert terminated and not truncated
    assert reward == default_illegal_reward(load_profile("standard"), "tai") == -199.0
    assert "may not play" in info["illegal_action"] and not obs["action_mask"].any()
    with pytest.raises(EnvError, match="the episode is over"):
        g.step(0)
    obs, _ = g.reset(seed=4)                       # and the next episode is a normal one
    assert obs["action_mask"].any()


@pytest.mark.parametrize("seat", [None, 1])
def test_gymnasiums_env_checker_passes(seat) -> None:
    """check_env plays actions drawn from the whole action space: most are not
    allowed by the mask, which ends the episode with the penalty, not an error."""
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        check_env(SingleSeatEnv("L1", seat=seat), skip_render_check=True)
        check_env(SingleSeatEnv(["L3", "shark", "random"], seat=seat, render_mode="ansi"))
    # the one remark left: an environment made without gymnasium.make has no spec
    assert [str(w.message) for w in said if "not having a spec" not in str(w.message)] == []


def test_stable_baselines3s_env_checker_passes() -> None:
    """Needs stable-baselines3 (and torch), which the dev extra does not install; see
    README's reinforcement-learning section for the run that had it."""
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # SB3 says what it cannot use as a warning
        sb3.check_env(SingleSeatEnv("L1", seat=0), warn=True)

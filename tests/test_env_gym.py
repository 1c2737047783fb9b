"""twmahjong.env.SingleSeatEnv: one learning seat against named bots."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from twmahjong.bots import UnknownBot  # noqa: E402
from twmahjong.env import EnvError, SingleSeatEnv  # noqa: E402


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
    with pytest.raises(Exception, match="may not play"):
        obs = g.aec.observe(g.aec.agent_selection)
        g.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))

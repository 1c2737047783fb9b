"""twmahjong.env: the PettingZoo AEC environment and its spaces."""

from __future__ import annotations

import random
import re
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from twmahjong.engine import IllegalAction  # noqa: E402
from twmahjong.engine import actions as A  # noqa: E402
from twmahjong.engine.observe import observation  # noqa: E402
from twmahjong.env import ACTION_COUNT, OBS_SIZE, EnvError, action_name, decode, env  # noqa: E402
from twmahjong.env.spaces import action_index, encode, encode_json, legal_indices, mask_json  # noqa: E402
from twmahjong.profiles import ProfileError  # noqa: E402


def _play(e, rng: random.Random, limit: int = 5000, on_step=None) -> int:
    """Random legal actions until every agent is done; the number of steps."""
    steps = 0
    for agent in e.agent_iter(limit):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        if on_step:
            on_step(e, agent, obs)
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


@pytest.mark.parametrize("profile", ["standard", "casual"])
def test_pettingzoo_api_test(profile: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # Dict observations warn, as in PettingZoo's own
        api_test(env(profile), num_cycles=200)


@pytest.mark.parametrize("options", [{}, {"rounds": 1, "reward": "tai"}])
def test_pettingzoo_seed_test(options: dict) -> None:
    seed_test(lambda: env(**options), num_cycles=200)


def test_same_seed_same_game_other_seed_other_deal() -> None:
    def trace(seed: int) -> list[tuple[str, int]]:
        e = env(seed=seed)
        out: list[tuple[str, int]] = []
        _play(e, random.Random(0), on_step=lambda e, a, o: out.append((a, int(o["observation"].sum()))))
        return out

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_the_pending_seats_are_asked_nearest_after_the_discarder_first() -> None:
    asked: list[tuple[int, int, int]] = []

    def look(e, agent, obs) -> None:
        h = e.hand
        pend = h.pending()
        if h.phase == "claim" and len(pend) > 1:
            d = h.claim_ctx[0]
            nearest = min(pend, key=lambda s: (s - d - 1) % 4)
            asked.append((int(agent[-1]), nearest, len(pend)))

    for seed in range(6):
        _play(env(seed=seed), random.Random(seed), on_step=look)
    assert asked, "no claim with several seats pending in six hands"
    assert all(a == n for a, n, _ in asked)


def test_observation_blocks_and_json_encoding_agree() -> None:
    """The fast encoder and the JSON one (what a pipe bot receives) give the same vector
    in every state of several games, for the seat to move and for a bystander."""
    checked = 0

    def look(e, agent, obs) -> None:
        nonlocal checked
        h = e.hand
        seat = int(agent[-1])
        for s in (seat, (seat + 2) % 4):
            assert np.array_equal(encode(h, s), encode_json(observation(h, s))), h.phase
        assert np.array_equal(obs["observation"], encode(h, seat))
        legal = observation(h, seat)["legal"]
        assert sorted(mask_json(legal)) == np.flatnonzero(obs["action_mask"]).tolist()
        checked += 1

    for seed in range(4):
        _play(env("casual", seed=seed), random.Random(seed), on_step=look)
    assert checked > 100


def test_decode_names_each_block() -> None:
    e = env(seed=5)
    h = e.hand
    seat = int(e.agent_selection[-1])
    d = decode(e.observe(e.agent_selection)["observation"])
    assert d["hand"].tolist() == h.seats[seat].counts
    assert d["melds"].shape == (4, 34) and d["discards"].shape == (4, 32)
    assert int(d["dealer"][(h.dealer - seat) % 4]) == 1
    assert int(d["tiles_left"][0]) == h.drawable()
    assert d["phase"].sum() == 1
    assert sum(v.size for v in d.values()) == OBS_SIZE


def test_action_indices_are_fixed_and_distinct() -> None:
    assert action_index(A.discard(0)) == 0 and action_name(0) == "discard 1m"
    assert action_index(A.declare(33)) == 67 and action_name(67) == "declare_discard 7z"
    assert [action_index(A.chi(4, a, b)) for a, b in ((5, 6), (3, 5), (2, 3))] == [68, 69, 70]
    assert action_index(A.pon(9)) == 71 and action_index(A.kong(9)) == 72
    assert action_index(A.concealed_kong(0)) == 73 and action_index(A.added_kong(33)) == 140
    assert [action_index(a) for a in (A.win(3), A.FLOWER_WIN, A.DECLARE, A.PASS, A.DRAW)] == \
        [141, 142, 143, 144, 145]
    assert len({action_name(i) for i in range(ACTION_COUNT)}) == ACTION_COUNT

    def look(e, agent, obs) -> None:
        legal = e.hand.pending()[int(agent[-1])]
        assert len(legal_indices(legal)) == len(legal)     # no two offers share an index

    for seed in range(4):
        _play(env(seed=seed), random.Random(seed), on_step=look)


def _won_hand(reward: str) -> tuple[object, dict[str, tuple[float, dict]]]:
    """Hands played through the environment by four efficiency bots (each picks an
    action from its JSON observation) until one is won; each seat's ``last()`` at
    the end: (reward, info)."""
    from twmahjong.bots import make_bot
    from twmahjong.engine.actions import Action

    for seed in range(20):
        e = env(reward=reward, seed=seed)
        bots = [make_bot("efficiency", seed * 4 + s) for s in range(4)]
        end: dict[str, tuple[float, dict]] = {}
        for agent in e.agent_iter(5000):
            obs, r, term, _, info = e.last()
            if term:
                end[agent] = (r, info)
                e.step(None)
                continue
            seat = int(agent[-1])
            choice = Action.from_json(bots[seat].act(observation(e.hand, seat)))
            e.step(action_index(choice))
        if e.match.results[-1]["type"] == "win":
            return e, end
    pytest.fail("no won hand in 20 hands")


def test_a_won_hand_pays_its_settlement_to_every_seat() -> None:
    e, end = _won_hand("points")
    res = e.match.results[-1]
    assert sorted(end) == e.possible_agents
    assert [end[a][0] for a in e.possible_agents] == [float(x) for x in res["net"]]
    assert all(info["hand_result"] == res for _, info in end.values())
    assert any(end[a][0] for a in e.possible_agents)


def test_tai_rewards_move_the_winners_tai() -> None:
    e, end = _won_hand("tai")
    res = e.match.results[-1]
    w = res["winners"][0]
    tai = float(res["tai"][w])
    got = [end[a][0] for a in e.possible_agents]
    if res["payer"] is None:
        assert got[w] == 3 * tai and sorted(got)[:3] == [-tai] * 3
    else:
        assert got[w] == tai and got[res["payer"]] == -tai
    assert sum(got) == 0.0


def test_a_match_episode_sums_the_hands() -> None:
    """A one-圈 match as one episode (efficiency bots choose): rewards arrive hand by hand
    and add up to the match's scores."""
    from twmahjong.bots import make_bot
    from twmahjong.engine.actions import Action

    e = env(rounds=1, seed=4)
    bots = [make_bot("efficiency", s) for s in range(4)]
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(100000):
        obs, reward, term, _, _ = e.last()
        total[agent] += reward
        if term:
            e.step(None)
            continue
        seat = int(agent[-1])
        e.step(action_index(Action.from_json(bots[seat].act(observation(e.hand, seat)))))
    m = e.match
    assert m.over and m.hand_no >= 4
    assert [total[a] for a in e.possible_agents] == [float(x) for x in m.scores]


def test_an_action_the_mask_forbids_ends_the_episode_with_the_penalty() -> None:
    """As in PettingZoo's classic games: every seat is done, the seat that played it
    gets the penalty, the others 0, and the info says what was legal; then the
    episode winds down like any other (each seat steps None)."""
    e = env(seed=1)
    obs, *_ = e.last()
    agent = e.agent_selection
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(bad)
    assert all(e.terminations.values())
    assert e._cumulative_rewards == {a: (-4080.0 if a == agent else 0.0) for a in e.agents}
    assert all(re.search(r"may not play .* legal: ", e.infos[a]["illegal_action"]) for a in e.agents)
    _, reward, term, _, _ = e.last()
    assert term and reward == -4080.0 and not e.observe(agent)["action_mask"].any()
    for a in e.agent_iter(10):
        e.step(None)
    assert e.agents == []
    tai = env(seed=1, reward="tai", illegal_reward=-50)
    seat = tai.agent_selection
    tai.step(bad)
    assert tai._cumulative_rewards[seat] == -50.0


def test_the_default_penalty_outweighs_the_catalogue() -> None:
    from twmahjong.env import default_illegal_reward
    from twmahjong.profiles import load_profile
    for name in ("standard", "classic", "casual"):
        p = load_profile(name)
        tai = sum(x.tai for x in p.patterns.values())
        assert default_illegal_reward(p, "tai") == -tai
        assert default_illegal_reward(p) == -(p.stakes.base + p.stakes.per_tai * tai)


def test_bad_input_is_one_clear_error() -> None:
    e = env(seed=1)
    for nonsense in ("discard", ACTION_COUNT, -1, 2.5, None):
        with pytest.raises(IllegalAction, match="may not play .*: an action is an index 0-145"):
            e.step(nonsense)
    assert not any(e.terminations.values())          # nothing changed
    with pytest.raises(EnvError, match="reward must be one of points, tai"):
        env(reward="money")
    with pytest.raises(EnvError, match="rounds must be 1 to 4"):
        env(rounds=9)
    with pytest.raises(ProfileError):
        env("nosuchprofile")
    with pytest.raises(EnvError, match="reset"):
        env().step(0)


def test_render_ansi_shows_the_table() -> None:
    e = env(render_mode="ansi", seed=2)
    text = e.render()
    assert "tiles left" in text and "legal" in text and text.count("seat ") >= 4


def test_the_docstring_examples_run() -> None:
    import doctest

    import twmahjong.env as pkg
    from twmahjong.env import aec, gym, spaces

    for mod in (pkg, aec, gym, spaces):
        r = doctest.testmod(mod)
        assert r.failed == 0 and r.attempted > 0, mod.__name__

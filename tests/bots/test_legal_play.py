"""Every level and personality answers only with legal actions, on real hands."""

import random

from twmahjong.bots.arena import make_seat_bot
from twmahjong.bots.personalities import PERSONALITIES
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile


def test_all_levels_play_legal_actions_on_random_positions():
    # Random bots take some seats so positions stray from what levels would make;
    # HandState.act raises IllegalAction on anything not offered.
    rng = random.Random(11)
    names = ["L1", "L2", "L3", "L4", "L5", "efficiency", "random"]
    checked = 0
    for i, profile in enumerate(["standard", "casual", "classic"] * 4):
        prof = load_profile(profile)
        seats = [rng.choice(names) for _ in range(4)]
        bots = [make_seat_bot(n, seed=i * 4 + s) for s, n in enumerate(seats)]
        h = HandState(prof, dealer=i % 4, seed=1000 + i)
        while not h.over:
            for s in list(h.pending()):
                obs = h.observation(s)
                a = bots[s].act(obs)
                assert a in obs["legal"], (seats[s], a)
                h.act(s, a)
                checked += 1
        assert h.result is not None
    assert checked > 300


def test_personalities_play_legal_actions():
    prof = load_profile("standard")
    for i in range(0, len(PERSONALITIES), 4):
        group = PERSONALITIES[i:i + 4]
        bots = [make_seat_bot(p.id, seed=i + s) for s, p in enumerate(group)]
        h = HandState(prof, dealer=0, seed=77 + i)
        while not h.over:
            for s in list(h.pending()):
                obs = h.observation(s)
                a = bots[s].act(obs)
                assert a in obs["legal"], (group[s].id, a)
                h.act(s, a)

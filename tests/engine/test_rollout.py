"""The rollout API: copies that never touch the hand, worlds sampled from one
seat's view that keep everything it sees and cannot depend on what it does not."""

from __future__ import annotations

import random

import pytest

from twmahjong.bots import make_bot
from twmahjong.engine import HandState
from twmahjong.engine.observe import lazy_observation
from twmahjong.engine.rollout import clone, determinize, rollout, unseen_pool
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots

from .test_malformed import fingerprint


def _positions(profile="standard", hands=12, every=3, level="L2"):
    """Hands part-played by bots, stopped at some decision of some seat: (hand, seat)."""
    for seed in range(hands):
        h = HandState(load_profile(profile), dealer=seed % 4, seed=500 + seed, open_windows=bool(seed % 2))
        bots = make_bots([level] * 4, seed)
        n = 0
        while not h.over:
            pend = list(h.pending())
            if h.phase in ("turn", "claim") and n % every == 0 and n > 8:
                yield h, pend[0]
            n += 1
            for s in pend:
                h.act(s, bots[s].act(lazy_observation(h, s)))


def _hidden_tiles(h, seat):
    """Where each hidden tile is, as the truth has it: other seats' counts, standing wall."""
    from twmahjong.engine.rollout import _wall_positions
    return ([tuple(st.counts) for s, st in enumerate(h.seats) if s != seat],
            [h.wall.kinds[i] for i in _wall_positions(h.wall)])


def test_playing_a_clone_to_the_end_leaves_the_hand_as_it_was():
    bots = [make_bot("efficiency", i) for i in range(4)]
    for h, _ in _positions(hands=4, every=10):
        before = fingerprint(h)
        results = rollout(h, bots, n=2)
        assert fingerprint(h) == before and not h.over
        assert all(r is not None and len(r["net"]) == 4 and sum(r["net"]) == 0 for r in results)


def test_a_world_keeps_everything_the_seat_sees():
    rng = random.Random(3)
    checked = 0
    for h, seat in _positions():
        w = determinize(h, seat, rng)
        assert w.observation(seat) == h.observation(seat)
        for s in range(4):                       # what any other seat shows in public
            pub = lambda o: {k: v for k, v in o.items() if k not in ("hand", "drawn", "legal")}
            assert pub(w.observation(s)) == pub(h.observation(s))
            assert sum(w.seats[s].counts) == sum(h.seats[s].counts)
        # every tile is somewhere, once: 4 of each kind, one of each flower
        assert sorted(unseen_pool(w, seat)) == sorted(unseen_pool(h, seat))
        assert w.wall.remaining == h.wall.remaining and w.drawable() == h.drawable()
        checked += 1
    assert checked > 100


def test_worlds_differ_from_the_truth_and_from_each_other():
    h, seat = next(p for p in _positions() if p[0].wall.remaining < 100)
    truth = _hidden_tiles(h, seat)
    rng = random.Random(5)
    worlds = {repr(_hidden_tiles(determinize(h, seat, rng), seat)) for _ in range(20)}
    assert len(worlds) == 20 and repr(truth) not in worlds


def hidden_swapped(h, seat):
    """A copy of ``h`` with one hidden tile swapped between an undeclared opponent's
    hand and the standing wall — a hand the seat cannot tell from ``h`` — or None."""
    from twmahjong.engine.rollout import _wall_positions
    other = next(s for s in range(4) if s != seat and sum(h.seats[s].counts))
    mine = next(k for k in range(34) if h.seats[other].counts[k])
    standing = _wall_positions(h.wall)
    i = next((i for i in standing if h.wall.kinds[i] < 34 and h.wall.kinds[i] != mine), None)
    if i is None or h.seats[other].declared is not None:
        return None
    alt = clone(h)
    theirs = alt.wall.kinds[i]
    alt.seats[other].take(mine)
    alt.seats[other].add(theirs)
    alt.wall.kinds[i] = mine
    assert alt.observation(seat) == h.observation(seat)
    return alt


def test_a_world_depends_only_on_what_the_seat_knows():
    """Swap a hidden tile between an opponent's hand and the wall: the seat cannot tell,
    so the same random stream must give the very same world."""
    swapped = 0
    for h, seat in _positions(hands=6):
        alt = hidden_swapped(h, seat)
        if alt is None:
            continue
        a = determinize(h, seat, random.Random(9))
        b = determinize(alt, seat, random.Random(9))
        assert _hidden_tiles(a, seat) == _hidden_tiles(b, seat)
        swapped += 1
    assert swapped > 20


def test_a_world_model_chooses_the_hands_and_the_wall_gets_the_rest():
    """``determinize(..., deal=)``: the hand the model chooses is the hand dealt; a
    model that answers None leaves that seat to the uniform deal."""
    checked = 0
    for h, seat in _positions(hands=4):
        chosen = {}

        def lowest(s, free, size):                 # the lowest free kinds, for the first other seat
            if s != min(x for x in range(4) if x != seat):
                return None
            hand = [k for k in range(34) for _ in range(free[k])][:size]
            chosen[s] = hand
            return hand
        w = determinize(h, seat, random.Random(2), lowest)
        (s, hand), = chosen.items()
        assert w.seats[s].counts == [hand.count(k) for k in range(34)]
        assert w.observation(seat) == h.observation(seat)
        assert sorted(unseen_pool(w, seat)) == sorted(unseen_pool(h, seat))
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("bad", ["short", "not_free", "not_a_tile"])
def test_a_world_model_that_deals_what_is_not_there_is_refused_in_one_line(bad):
    h, seat = next(_positions(hands=1))
    other = next(s for s in range(4) if s != seat)

    def model(s, free, size):
        if s != other:
            return None
        if bad == "short":
            return [k for k in range(34) for _ in range(free[k])][:size - 1]
        if bad == "not_free":
            gone = next(k for k in range(34) if free[k] < 4)
            return [gone] * (free[gone] + 1) + [k for k in range(34) for _ in range(free[k])
                                                if k != gone][:size - free[gone] - 1]
        return [40] + [k for k in range(34) for _ in range(free[k])][:size - 1]
    before = fingerprint(h)
    with pytest.raises(ValueError) as e:
        determinize(h, seat, random.Random(1), model)
    assert f"deal() gave seat {other}" in str(e.value) and "\n" not in str(e.value)
    assert fingerprint(h) == before                 # the hand itself is untouched


def test_a_seat_that_declared_holds_a_ready_hand_in_every_world():
    rng = random.Random(1)
    found = 0
    for h, seat in _positions("casual", hands=60, every=1, level="L4"):   # casual 報聽
        declared = [s for s in range(4) if s != seat and h.seats[s].declared is not None
                    and sum(h.seats[s].counts) % 3 == 1]
        if not declared:
            continue
        w = determinize(h, seat, rng)
        for s in declared:
            assert w.seats[s].wait_kinds(w.rules.lilgu), "a declared hand must wait on something"
        found += 1
        if found >= 25:
            break
    assert found >= 25


def test_rollouts_are_reproducible_from_their_random_stream():
    bots = [make_bot("efficiency", i) for i in range(4)]
    h, seat = next(_positions())
    one = rollout(h, bots, n=4, seat=seat, rng=random.Random(7))
    two = rollout(h, bots, n=4, seat=seat, rng=random.Random(7))
    assert one == two and len(one) == 4


def test_a_world_is_sampled_only_where_the_seat_decides():
    h = HandState(load_profile("standard"), seed=2)
    seat = next(iter(h.pending()))
    other = (seat + 1) % 4
    with pytest.raises(ValueError):
        determinize(h, other, random.Random(0))

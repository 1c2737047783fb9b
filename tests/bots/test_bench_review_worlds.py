"""bench/review_worlds.py: the review's worlds judged against the truth. What the
measurement rests on: the "truth" is the true world with only the draws to come
drawn again (every hand as it is, the same tiles standing), and each priced
decision compares the same moves in every kind of world."""

import random

from benchmods import load_bench

from twmahjong.analysis import _playout_bots, _reference_bot
from twmahjong.engine.observe import LazyObservation
from twmahjong.engine.rollout import _wall_positions
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile


def _mid_hand(seed=31, discards=5):
    h = HandState(load_profile("standard"), dealer=0, seed=seed)
    bots = [_reference_bot("L2", s) for s in range(4)]
    while h.phase != "turn" or len(h.seats[h.turn_seat].discards) < discards:
        for s, acts in list(h.pending().items()):
            h.act(s, bots[s].act(LazyObservation(h, s, actions=acts)))
    return h


def test_a_true_world_keeps_every_hand_and_draws_the_wall_again():
    rw = load_bench("review_worlds")
    h = _mid_hand()
    standing = sorted(h.wall.kinds[i] for i in _wall_positions(h.wall))
    worlds = rw._true_hands(h, random.Random(2), 4)
    orders = set()
    for w in worlds:
        assert [st.counts for st in w.seats] == [st.counts for st in h.seats]
        assert w.wall.front == h.wall.front and w.wall.back_taken == h.wall.back_taken
        assert sorted(w.wall.kinds[i] for i in _wall_positions(w.wall)) == standing
        orders.add(tuple(w.wall.kinds))
    assert len(orders) == 4                 # the draws to come differ from world to world


def test_a_priced_decision_is_priced_by_every_estimator_and_the_truth():
    rw = load_bench("review_worlds")
    h = _mid_hand()
    fast = _playout_bots(0, 0)
    same = [("uniform", False, fast), ("developed", True, fast), ("again", True, fast)]
    d = rw.evaluate(h, h.turn_seat, 3, 2, random.Random(3), _reference_bot("L5", 0), same, fast)
    assert d is not None and d["rows"]
    for r in d["rows"]:
        assert set(r) == {"uniform", "developed", "again", "truth", "risk"}
        assert all(isinstance(v, float) for v in r.values())

"""Every kind of illegal action is refused with a message and the table unchanged."""

import random

import pytest

from twmahjong.engine import HandState, IllegalAction
from twmahjong.engine import actions as A
from twmahjong.engine.actions import Action
from twmahjong.engine.observe import lazy_observation
from twmahjong.selfplay import make_bots
from twmahjong.tiles import parse_tile

from .helpers import claim, do, fill, snapshot, table

T = parse_tile

EVERY = ([A.PASS, A.WIN, A.FLOWER_WIN, A.DECLARE]
         + [Action(t, k) for t in ("discard", "pon", "kong", "added_kong", "concealed_kong", "declare",
                                   "win") for k in range(34)]
         + [A.chi(k, a, b) for k in range(27) for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2))
            if 0 <= a and b < 27 and a // 9 == b // 9 == k // 9])


def _refused(h, seat, action):
    before = snapshot(h)
    with pytest.raises(IllegalAction) as e:
        h.act(seat, action)
    assert snapshot(h) == before
    assert str(e.value) and "Traceback" not in str(e.value)
    return str(e.value)


@pytest.mark.parametrize("seed", range(6))
def test_every_action_not_offered_is_refused_at_every_decision(standard, seed):
    h = HandState(standard, dealer=seed % 4, seed=seed)
    bots = make_bots(["random"] * 4, seed)
    rng = random.Random(seed)
    checked = 0
    while not h.over:
        pend = h.pending()
        for seat in range(4):
            offered = pend.get(seat, [])
            for a in rng.sample(EVERY, 25):
                if a not in offered:
                    _refused(h, seat, a)
                    checked += 1
        for s in list(h.pending()):
            h.act(s, bots[s].act(lazy_observation(h, s)))
    assert checked > 100
    _refused(h, 0, A.discard(0))                     # nothing after the end


def test_acting_twice_in_one_claim_window_is_refused():
    h = table(fill({0: "5m", 1: "46m", 2: "55m"}))
    do(h, 0, "discard 5m", others_pass=False)
    h.act(2, A.pon(T("5m")))
    msg = _refused(h, 2, A.PASS)
    assert "already chosen" in msg


def test_the_messages_name_the_rule():
    h = table(fill({0: "5m", 1: "67m58m"}))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 1, "chi 5m 67m")
    assert "行牌禁制 6" in _refused(h, 1, A.discard(T("8m")))
    assert "do not hold" in _refused(h, 1, A.discard(T("3s")) if not h.seats[1].counts[T("3s")]
                                     else A.discard(T("2s")))
    assert "turn" in _refused(h, 1, A.PASS)
    assert "nothing to decide" in _refused(h, 2, A.discard(T("1z")))


def test_a_malformed_action_is_refused_as_a_player_error():
    h = table(fill({}))
    for bad in ({"type": "jump"}, {"type": "discard", "tile": "0m"}, ["discard"], {"type": "discard", "tile": 5}):
        before = snapshot(h)
        with pytest.raises(IllegalAction):
            h.act(0, bad)
        assert snapshot(h) == before

"""Shanten and useful tiles (向聽數, 有效牌): answers worked out by hand."""

import random

from botobs import make_obs

from twmahjong.bots.efficiency import discard_table, shanten, useful_tiles
from twmahjong.bots.policy import LEVELS, PolicyBot
from twmahjong.bots.view import View
from twmahjong.hand_reference import shanten as reference_shanten
from twmahjong.tiles import counts34, parse_tile, parse_tiles


def c(text):
    return counts34(parse_tiles(text))


def test_known_shanten_values():
    assert shanten(c("123m456m789m123p11z46p")) == 0        # ready on 5p (嵌張)
    assert shanten(c("123m456m789m123p11z46p9s")) == 0      # 17 tiles: throw 9s and wait
    assert shanten(c("123m456m789m123p11z469p")) == 0
    assert shanten(c("123m456m789m123p11z4p9s")) == 1
    assert shanten(c("123m456m789m123p456s11z")) == -1       # 5 sets + pair (胡)


def test_matches_the_reference_on_random_hands():
    rng = random.Random(7)
    wall = [k for k in range(34) for _ in range(4)]
    for n in (17, 16, 14, 13, 11, 10, 8, 7, 5, 4, 2, 1):
        for _ in range(60):
            h = counts34(rng.sample(wall, n))
            assert shanten(h) == reference_shanten(h), h


def test_useful_tiles_count_only_unseen_copies():
    # 123m456m789m123p11z + 46p: ready on 5p only; two 5p already visible -> 2 left
    hand = c("123m456m789m123p11z46p")
    unseen = [4] * 34
    unseen[parse_tile("5p")] = 2
    n, kinds = useful_tiles(hand, unseen)
    assert kinds == [parse_tile("5p")]
    assert n == 2


# Three pungs exposed; in hand 123m 45p 8s 1z 2z (8 tiles, two sets needed).
# Two 8s lie in the rivers. Worked out by hand:
#  throw 8s -> 123m 45p 1z 2z: 1 set + 45p, no pair: 1-shanten; a 3p/6p (4+4) or a
#              pair for 1z/2z (3+3) makes it ready: 14 tiles.
#  throw 1z -> pairs for 8s (only 1 left) and 2z (3) + 3p/6p (8): 12 tiles.
#  throw 2z -> symmetric to 1z: 12 tiles.
#  throw 4p/5p/1m/2m/3m -> breaks a shape: 2-shanten.
EFF_OBS = make_obs(
    "123m45p8s12z",
    melds=[[{"type": "pon", "tiles": "777m", "from": 2}, {"type": "pon", "tiles": "333s", "from": 2},
            {"type": "pon", "tiles": "999p", "from": 3}], [], [], []],
    discards=[["8s"], [], ["7m", "3s", "8s"], ["9p"]],
)


def test_discard_table_worked_by_hand():
    v = View.from_observation(EFF_OBS)
    table = {d.kind: d for d in discard_table(v.counts, v.unseen)}
    assert (table[parse_tile("8s")].shanten, table[parse_tile("8s")].useful) == (1, 14)
    assert (table[parse_tile("1z")].shanten, table[parse_tile("1z")].useful) == (1, 12)
    assert (table[parse_tile("2z")].shanten, table[parse_tile("2z")].useful) == (1, 12)
    for t in ("4p", "5p", "1m", "2m", "3m"):
        assert table[parse_tile(t)].shanten == 2


def test_efficiency_levels_throw_the_dead_pair_tile():
    for level in (2, 3, 4, 5):
        assert PolicyBot(LEVELS[level], seed=1).act(EFF_OBS) == {"type": "discard", "tile": "8s"}


# 一向聽 lookahead (L4+): 19m 112356p beside three pungs of winds, one step from
# ready. Throwing 1p keeps more useful tiles (4p 7p to finish 56p, 1m or 9m to
# pair), so efficiency alone throws it; but then most ready hands wait on a lone
# 1m or 9m (單吊). Throwing 1m keeps the 11p pair, and a 4p or 7p then leaves
# 11p + 23p waiting on 1p and 4p. The expected answer is computed here from the
# definition (useful draws × the best ready hand's unseen winning tiles) with the
# slow reference analysis.
LOOK_OBS = make_obs(
    "19m112356p",
    melds=[[{"type": "pon", "tiles": "111z", "from": 2}, {"type": "pon", "tiles": "222z", "from": 2},
            {"type": "pon", "tiles": "333z", "from": 3}], [], [], []],
    discards=[[], [], ["1z", "2z"], ["3z"]],
)


def _wait_weight(hand_text, discard):
    """Σ over draws that make the hand ready: unseen copies × the best ready
    hand's unseen winning tiles (reference shanten and waits)."""
    from twmahjong.hand_reference import waits as ref_waits
    v = View.from_observation(LOOK_OBS)
    unseen = list(v.unseen)
    h = c(hand_text)
    h[parse_tile(discard)] -= 1
    total = 0
    for t in range(34):
        if unseen[t] == 0 or reference_shanten([*h[:t], h[t] + 1, *h[t + 1:]]) != 0:
            continue
        h[t] += 1
        unseen[t] -= 1
        best = 0
        for d in range(34):
            if h[d]:
                h[d] -= 1
                if reference_shanten(h) == 0:
                    best = max(best, sum(unseen[w] for w in ref_waits(h)))
                h[d] += 1
        total += (unseen[t] + 1) * best
        unseen[t] += 1
        h[t] -= 1
    return total


def test_lookahead_weighs_the_waits_a_discard_leads_to():
    assert PolicyBot(LEVELS[2], seed=1).act(LOOK_OBS) == {"type": "discard", "tile": "1p"}
    assert _wait_weight("19m112356p", "1m") > _wait_weight("19m112356p", "1p")
    for level in (4, 5):
        assert PolicyBot(LEVELS[level], seed=1).act(LOOK_OBS) == {"type": "discard", "tile": "1m"}

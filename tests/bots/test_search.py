"""Level 5's sampled completions: when a given future completes a hand."""

import random

from twmahjong.bots.search import completion_round, sampled_win_rates
from twmahjong.tiles import counts34, parse_tiles

READY = "123m456m789m123p456s1z"          # 16 tiles, waiting on 1z alone (單吊)


def c(text):
    return counts34(parse_tiles(text))


def test_own_draw_and_discard_complete_the_hand():
    assert completion_round(c(READY), parse_tiles("9s9s9s1z"), 1) == 0      # 自摸
    assert completion_round(c(READY), parse_tiles("9s1z9s2s"), 1) == 0      # 胡 on a discard
    assert completion_round(c(READY), parse_tiles("9s9s9s2s9m9m9m1z"), 2) == 1
    assert completion_round(c(READY), parse_tiles("9s9s9s2s"), 1) is None


def test_a_ready_hand_completes_in_more_futures_than_one_a_step_behind():
    # 17 tiles 123m 456m 789m 123p 45p 55s 1z: throwing 1z leaves a ready hand on
    # 3p/6p; throwing 5s leaves a hand one step from ready. Same sampled futures.
    hand = c("123m456m789m123p45p55s1z")
    unseen = [4 - n for n in hand]
    one_z, five_s = parse_tiles("1z5s")
    rates = sampled_win_rates(hand, unseen, [one_z, five_s], rounds=4, samples=200,
                              rng=random.Random(3), budget_s=60.0)
    assert rates[one_z] > rates[five_s] > 0

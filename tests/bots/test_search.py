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


class _CountingRandom(random.Random):
    """Counts the sampled futures (one ``sample`` call each)."""

    def __init__(self, seed):
        super().__init__(seed)
        self.futures = 0

    def sample(self, *a, **k):
        self.futures += 1
        return super().sample(*a, **k)


def test_the_deadline_stops_the_search_and_none_lifts_it(monkeypatch):
    # A clock that runs a second per reading: a 0.5 s budget is spent after the
    # first future; with no budget (the arena's exact bots) all 50 are dealt.
    import itertools
    from types import SimpleNamespace

    from twmahjong.bots import search
    clock = itertools.count(0.0, 1.0)
    monkeypatch.setattr(search, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    hand = c("123m456m789m123p45p55s1z")
    unseen = [4 - n for n in hand]
    cands = parse_tiles("1z5s")
    timed, exact = _CountingRandom(3), _CountingRandom(3)
    sampled_win_rates(hand, unseen, cands, rounds=4, samples=50, rng=timed, budget_s=0.5)
    sampled_win_rates(hand, unseen, cands, rounds=4, samples=50, rng=exact, budget_s=None)
    assert (timed.futures, exact.futures) == (1, 50)


def test_arena_bots_are_exact_and_table_bots_keep_the_deadline():
    from twmahjong.bots import make_bot
    from twmahjong.bots.arena import _Seats
    assert _Seats(["L5", "L4", "L4", "L4"], 2.0).bot(0, 1).exact is True
    assert make_bot("L5", 1).exact is False

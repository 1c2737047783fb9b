"""Match flow: 連莊, dealer rotation, 圈 advancing, 1-4 圈, running scores (rules/001 定莊)."""

import pytest

from twmahjong.engine.actions import IllegalAction
from twmahjong.engine.match import Match

from .helpers import claim, do, fill, run_out, stacked_wall


def _dealer_heavenly(m):
    """A hand the dealer wins from the deal (天胡)."""
    d = m.dealer
    hands = fill({d: "123m456m789m123p456p77z"}, dealer=d, avoid="7z")
    h = m.start_hand(wall=stacked_wall(hands, dealer=d))
    do(h, d, "win")
    return m.end_hand()


def _next_seat_wins(m):
    """The seat after the dealer wins on the dealer's first discard."""
    d = m.dealer
    w = (d + 1) % 4
    hands = fill({d: "7z", w: "123m456m789m123p456p7z"}, dealer=d, avoid="7z")
    h = m.start_hand(wall=stacked_wall(hands, dealer=d))
    if h.phase == "declare":
        for s in list(h.pending()):
            h.act(s, h.pending()[s][-1])
    do(h, d, "discard 7z", others_pass=False)
    claim(h, w, "win")
    return m.end_hand()


def test_a_drawn_hand_keeps_the_dealer_and_counts_the_streak(standard):
    m = Match(standard, seed=3, rounds=1)
    d = m.dealer
    h = m.start_hand()
    run_out(h)                                  # nobody takes anything: 荒局
    assert h.result["type"] == "draw_game"
    m.end_hand()
    assert m.dealer == d and m.dealer_streak == 1
    h2 = m.start_hand()
    assert h2.dealer == d and h2.dealer_streak == 1
    assert _last_deal(m)["dealer_streak"] == 1


def test_a_dealer_win_keeps_the_deal_and_the_streak_reaches_the_scorer(standard):
    m = Match(standard, seed=1, rounds=1)
    d = m.dealer
    _dealer_heavenly(m)
    assert m.dealer == d and m.dealer_streak == 1
    res = _dealer_heavenly(m)
    assert "dealer_streak" in res["patterns"][d]          # 連1拉1 counted
    assert m.dealer_streak == 2


def test_another_seats_win_passes_the_deal_on(standard):
    m = Match(standard, seed=1, rounds=1)
    d = m.dealer
    _dealer_heavenly(m)
    _next_seat_wins(m)
    assert m.dealer == (d + 1) % 4 and m.dealer_streak == 0


def test_the_round_wind_advances_when_the_deal_returns_to_the_first_dealer(standard):
    m = Match(standard, seed=2, rounds=2)
    for i in range(3):
        _next_seat_wins(m)
        assert m.round_wind == 0
    _next_seat_wins(m)
    assert m.dealer == m.first_dealer and m.round_wind == 1 and not m.over
    m.start_hand()
    assert _last_deal(m)["round_wind"] == "S"


def test_a_one_round_match_ends_after_four_dealers(standard):
    m = Match(standard, seed=2, rounds=1)
    for _ in range(4):
        assert not m.over
        _next_seat_wins(m)
    assert m.over and m.hand_no == 4
    with pytest.raises(IllegalAction):
        m.start_hand()


def test_scores_run_and_sum_to_zero(standard):
    m = Match(standard, seed=2, rounds=1)
    _dealer_heavenly(m)
    _next_seat_wins(m)
    assert sum(m.scores) == 0 and any(m.scores)


def test_rounds_outside_one_to_four_are_refused(standard):
    with pytest.raises(IllegalAction):
        Match(standard, seed=1, rounds=5)


def test_a_match_defaults_to_the_profiles_four_rounds(standard):
    assert Match(standard, seed=1).rounds == 4


def _last_deal(m):
    return [e for e in m.events if e["type"] == "deal"][-1]

"""起胡台數 (``play.min_tai``): a win worth fewer 台 than the table's minimum is not offered.

The 台 are rules/001's: 門清 1 (item 3), 平和 2 (item 7: 有將、無花、無字、無刻、非獨聽、
非自摸), 不求.自摸 2 (item 4), 作莊 1 (item 9, counted in the dealer's own hand).
"""

import pytest

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile

from .helpers import do, fill, legal, legal_types, play_until, table

T = parse_tile
ONE_TAI = "111m456m789m123p45p99s"      # waits 3p/6p; on a discard: 門清 1
THREE_TAI = "123m456m789m123p45p99s"    # waits 3p/6p; on a discard: 平和 2 + 門清 1


@pytest.fixture
def min3(tmp_path):
    f = tmp_path / "house.toml"
    f.write_text('extends = "standard"\n[play]\nmin_tai = 3\n', encoding="utf-8")
    return str(f)


@pytest.fixture
def min2(tmp_path):
    f = tmp_path / "house2.toml"
    f.write_text('extends = "standard"\n[play]\nmin_tai = 2\n', encoding="utf-8")
    return str(f)


def _seat1_on_3p(hand, profile):
    """Seat 1 holds ``hand``; the dealer (seat 0) throws 3p first."""
    h = table(fill({0: "3p", 1: hand}, avoid="3p6p"), profile=profile)
    do(h, 0, "discard 3p", others_pass=False)
    return h


def test_the_loader_reads_the_nested_override(min3):
    from twmahjong.profiles import load_profile
    p = load_profile(min3)
    assert p.play.min_tai == 3 and p.play.may_decline_last_tile is True
    assert p.patterns == load_profile("standard").patterns


def test_without_a_minimum_the_one_tai_hand_may_win():
    h = _seat1_on_3p(ONE_TAI, "standard")
    assert A.win(T("3p")) in legal(h, 1)


def test_a_one_tai_hand_is_not_offered_a_win_below_three(min3):
    h = _seat1_on_3p(ONE_TAI, min3)
    assert "win" not in legal_types(h, 1)
    assert A.chi(T("3p"), T("4p"), T("5p")) in legal(h, 1)   # the rest of the offer stands


def test_a_three_tai_hand_is_offered_the_win(min3):
    h = _seat1_on_3p(THREE_TAI, min3)
    assert A.win(T("3p")) in legal(h, 1)
    h.act(1, A.win(T("3p")))
    for s in list(h.pending()):
        h.act(s, A.PASS)
    assert h.result["winners"] == [1] and h.result["tai"][1] == 3


def test_passing_a_win_never_offered_is_not_passing_a_win(min3):
    # no 過水 for a hand that could not win: it may still win later
    h = _seat1_on_3p(ONE_TAI, min3)
    h.act(1, A.PASS)
    assert h.phase == "turn" and h.seats[1].passed_win is False


def _self_draw_3p(profile):
    h = table(fill({1: ONE_TAI}, avoid="3p6p"), draws="3p", profile=profile)
    do(h, 0, f"discard {_junk(h)}")
    assert h.turn_seat == 1 and h.drawn == T("3p")
    return h


def test_a_self_draw_is_valued_as_a_self_draw(min3, tmp_path):
    # the same shape self-drawn: 門清 1 + 不求.自摸 2 (it replaces only 自摸) = 3台
    assert "win" in legal_types(_self_draw_3p(min3), 1)
    f = tmp_path / "min4.toml"
    f.write_text('extends = "standard"\n[play]\nmin_tai = 4\n', encoding="utf-8")
    assert "win" not in legal_types(_self_draw_3p(str(f)), 1)


def test_the_dealers_tai_counts_for_the_dealer(min2):
    # 門清 1 alone is below 2 for seat 1; the dealer's 作莊 1 lifts the same shape to 2
    h = _seat1_on_3p(ONE_TAI, min2)
    assert "win" not in legal_types(h, 1)
    h = table(fill({0: ONE_TAI + "1z"}, avoid="3p6p8s1z"), draws="8s 8s 3p", profile=min2)
    do(h, 0, "discard 1z")
    play_until(h, lambda h: h.phase == "claim" and h.claim_ctx == (3, T("3p")))
    assert A.win(T("3p")) in legal(h, 0)


def _junk(h):
    """A dealer discard that is neither of seat 1's waits."""
    from twmahjong.tiles import tile_str
    bad = {T("3p"), T("6p")}
    return tile_str(next(a.tile for a in legal(h, 0) if a.type == "discard" and a.tile not in bad))

"""天聽, 地聽, 報聽 and what they feed the scorer: 天胡, 地胡, 人和 (rules/001 items
31-35, rules/000, rules/003)."""

import pytest

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile, parse_tiles

from .helpers import claim, do, fill, legal, legal_types, nth_draw, pass_claims, play_until, table

T = parse_tile
READY = "111m456m789m123p456p7z"          # seat 1 waits on 7z from the deal


def _win_event(h):
    return next(e for e in h.events if e["type"] == "win")


def _turn(h, seat):
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == seat)


def test_a_ready_non_dealer_is_asked_to_declare_heavenly_ready_before_play():
    h = table(fill({1: READY}, avoid="7z1m"), pass_declare=False)
    assert h.phase == "declare" and h.pending() == {1: [A.DECLARE, A.PASS]}
    h.act(1, A.DECLARE)
    assert {"type": "declare", "seat": 1, "kind": "heavenly_ready"} in h.events
    assert h.phase == "turn" and h.turn_seat == 0


def test_the_dealer_is_never_asked_for_heavenly_ready():
    h = table(fill({0: "123m456m789m123p45p7z" + "9s"}, avoid="7z"), pass_declare=False)
    assert h.phase == "turn" and h.turn_seat == 0


def _declared(undeclared=False, **kw):
    h = table(fill({0: "1m7z", 1: READY}, avoid="7z1m9p"), pass_declare=False, **kw)
    h.act(1, A.PASS if undeclared else A.DECLARE)
    pass_claims(h)                                  # open_windows: the others' pass-only window
    return h


def test_casual_a_declared_hand_is_locked_it_throws_what_it_draws():
    # rules/003: 報聽後不可再換牌
    h = table(fill({0: "123m456m789m123p456p7z9s", 1: "11z"}, avoid="7z9s"), profile="casual",
              draws=nth_draw(4, "9p"))
    h.act(0, A.declare(T("9s")))
    pass_claims(h)
    _turn(h, 0)
    assert h.drawn == T("9p")
    assert legal(h, 0) == [A.discard(T("9p"))]


@pytest.mark.parametrize("profile", ["standard", "classic"])
def test_a_declared_hand_may_still_claim(profile):
    # rules/001 item 31, rules/000 天聽: 宣告天聽後如不換牌或靠張則保持有效，否則解除天聽 —
    # the hand is not locked; seat 1 (111m) is offered 碰 on the dealer's 1m
    h = _declared(profile=profile)
    do(h, 0, "discard 1m", others_pass=False)
    assert A.pon(T("1m")) in legal(h, 1)
    claim(h, 1, "pon 1m")
    assert h.turn_seat == 1 and not h.seats[1].declare_valid   # 換牌: the 天聽 is gone


@pytest.mark.parametrize("open_windows", [False, True])
@pytest.mark.parametrize("profile", ["standard", "classic"])
def test_heavenly_ready_may_change_tiles_and_then_loses_the_declaration(profile, open_windows):
    # seat 1 (天聽 on 7z) draws 9p, keeps it and throws 7z: it now waits on 9p, undeclared
    h = _declared(profile=profile, draws=nth_draw(1, "9p", d2="9p"), open_windows=open_windows)
    do(h, 0, f"discard {_safe(h, 0)}")
    assert h.turn_seat == 1 and h.drawn == T("9p")
    assert A.discard(T("7z")) in legal(h, 1) and A.discard(T("1m")) in legal(h, 1)
    do(h, 1, "discard 7z")
    _turn(h, 2)
    do(h, 2, "discard 9p", others_pass=False)
    claim(h, 1, "win")
    cond = set(_win_event(h)["conditions"])
    assert "heavenly_ready" not in cond and "earthly_win" not in cond
    assert "heavenly_ready_first_win" not in cond


def test_standard_earthly_ready_may_change_tiles_and_then_loses_the_declaration():
    # rules/001 item 32: 宣告地听後如不换牌或靠张则保持有效，否则解除地听. Seat 1 declares
    # on 9s with 1z; at its next draw (1z) it keeps the 1z and throws 9s: no 地聽 any more
    h = table(fill({1: EARTHLY}, avoid="9s1z6p3p"), draws=nth_draw(1, "6p", d5="1z", d6="1z"))
    do(h, 0, f"discard {_junk(h, 0)}")
    h.act(1, A.declare(T("1z")))
    pass_claims(h)
    _turn(h, 1)
    assert h.drawn == T("1z") and A.discard(T("9s")) in legal(h, 1)
    do(h, 1, "discard 9s")
    _turn(h, 2)
    do(h, 2, "discard 1z", others_pass=False)
    claim(h, 1, "win")
    assert _win_event(h)["conditions"] == []


def test_standard_throwing_the_drawn_tile_keeps_the_declaration():
    h = _declared(draws=nth_draw(1, "9p", d5="7z"))
    do(h, 0, f"discard {_safe(h, 0)}")
    do(h, 1, "discard 9p")
    _turn(h, 1)
    do(h, 1, "win")
    assert "heavenly_ready" in _win_event(h)["conditions"]


# 地胡's kong form (rules/000): 閑家摸入第一張牌未打牌前開暗杠或連續暗杠而成胡，視同地胡，
# 並得加計杠上開花1台. Seat 1 declared 天聽 on 7z and draws the fourth 1m first.
@pytest.mark.parametrize("open_windows", [False, True])
def test_classic_earthly_win_by_a_concealed_kong_on_the_first_draw(open_windows):
    h = _declared_kong(draws=nth_draw(1, "1m"), back="7z", open_windows=open_windows)
    do(h, 0, f"discard {_safe(h, 0)}")
    assert h.drawn == T("1m") and A.concealed_kong(T("1m")) in legal(h, 1)
    do(h, 1, "concealed_kong 1m")                   # its waits stay 7z: still 天聽
    assert h.drawn == T("7z") and "win" in legal_types(h, 1)
    do(h, 1, "win")
    assert {"earthly_win", "kong_bloom"} <= set(_win_event(h)["conditions"])


def test_classic_earthly_win_by_consecutive_concealed_kongs():
    h = _declared_kong(hand="111m444p789m123p567p7z", draws=nth_draw(1, "1m"), back="4p 7z")
    do(h, 0, f"discard {_safe(h, 0)}")
    do(h, 1, "concealed_kong 1m")
    assert h.drawn == T("4p") and A.concealed_kong(T("4p")) in legal(h, 1)
    do(h, 1, "concealed_kong 4p")
    do(h, 1, "win")
    assert {"earthly_win", "kong_bloom"} <= set(_win_event(h)["conditions"])


def test_classic_a_concealed_kong_that_changes_the_waits_loses_the_declaration():
    # 天聽 on 1m/4m/5s with 11123m 55s; kongging the fourth 1m leaves 23m 55s: 1m/4m only
    h = _declared_kong(hand="111m23m456p789p123s55s", draws=nth_draw(1, "1m"), back="7z")
    do(h, 0, f"discard {_safe(h, 0)}")
    do(h, 1, "concealed_kong 1m")
    assert not h.seats[1].declare_valid


def test_classic_the_kong_form_needs_heavenly_ready():
    # the reading: 視同地胡 is the 地胡 of a 天聽 hand; undeclared, the kong win is 槓上開花
    h = _declared_kong(draws=nth_draw(1, "1m"), back="7z", undeclared=True)
    do(h, 0, f"discard {_safe(h, 0)}")
    do(h, 1, "concealed_kong 1m")
    do(h, 1, "win")
    cond = set(_win_event(h)["conditions"])
    assert "kong_bloom" in cond and "earthly_win" not in cond


def test_classic_heavenly_win_by_a_concealed_kong_before_the_first_discard():
    # 莊家起手未打牌前開暗杠或連續暗杠而成胡，視同天胡，並得加計杠上開花1台
    h = table(fill({0: "1111m456m789m123p456p7z"}, avoid="7z1m"), profile="classic", back="7z")
    do(h, 0, "concealed_kong 1m")
    do(h, 0, "win")
    assert {"heavenly_win", "kong_bloom"} <= set(_win_event(h)["conditions"])


def _declared_kong(hand=READY, undeclared=False, **kw):
    """Classic; seat 1 (天聽 unless ``undeclared``) holds three 1m, the dealer none."""
    h = table(fill({0: "2s", 1: hand}, avoid="7z1m9p4p5s"), pass_declare=False, profile="classic", **kw)
    h.act(1, A.PASS if undeclared else A.DECLARE)
    pass_claims(h)                                  # open_windows: the others' pass-only window
    return h


def _safe(h, seat):
    """A discard of ``seat`` nobody in these scenarios wants."""
    from twmahjong.tiles import tile_str
    bad = set(parse_tiles("1m7z9p4p4m2s"))
    return tile_str(next(a.tile for a in legal(h, seat) if a.type == "discard" and a.tile not in bad))


def test_heavenly_ready_self_draw_on_the_first_draw_is_earthly_win():
    h = _declared(draws=nth_draw(1, "7z"))
    do(h, 0, "discard 1m")
    assert "win" in legal_types(h, 1)
    do(h, 1, "win")
    assert set(_win_event(h)["conditions"]) == {"heavenly_ready", "earthly_win"}


def test_heavenly_ready_winning_on_a_first_discard_is_earthly_win_in_standard():
    # rules/001 item 34: 地和 — 閒家起牌天聽…或和各家打出其第一張牌
    h = _declared()
    do(h, 0, "discard 7z", others_pass=False)
    claim(h, 1, "win")
    assert set(_win_event(h)["conditions"]) == {"heavenly_ready", "earthly_win"}
    # the discarder alone pays it (a deal-in), and the hand settles
    settle = next(e for e in h.events if e["type"] == "settlement")
    assert settle["net"][0] < 0 and settle["net"][1] > 0
    assert settle["net"][2] == 0 and settle["net"][3] == 0


def test_and_heavenly_ready_first_win_in_classic():
    h = _declared(profile="classic")
    do(h, 0, "discard 7z", others_pass=False)
    claim(h, 1, "win")
    assert set(_win_event(h)["conditions"]) == {"heavenly_ready", "heavenly_ready_first_win"}


def test_a_passed_win_voids_the_declaration():
    # 天聽如…曾過水未和，不計天聽，和牌仍有效
    h = _declared(draws=nth_draw(5, "7z"))
    do(h, 0, "discard 7z", others_pass=False)
    claim(h, 1, "pass")
    _turn(h, 1)
    assert "win" not in legal_types(h, 1)
    _turn(h, 1)
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1 and h.drawn == T("7z"))
    do(h, 1, "win")
    assert _win_event(h)["conditions"] == []


def test_dealer_complete_from_the_deal_is_heavenly_win():
    h = table(fill({0: "123m456m789m123p456p77z"}, avoid="7z"))
    assert "win" in legal_types(h, 0)
    do(h, 0, "win")
    assert "heavenly_win" in _win_event(h)["conditions"]
    assert _win_event(h)["self_drawn"]


# 地聽: seat 1 draws 6p and may declare with a discard that leaves it ready
EARTHLY = "123m456m789m123p45p9s1z"


def test_earthly_ready_is_offered_with_the_discards_that_leave_a_ready_hand():
    h = table(fill({1: EARTHLY}, avoid="9s1z6p3p"), draws=nth_draw(1, "6p", d2="9s"))
    do(h, 0, f"discard {_junk(h, 0)}")
    assert h.drawn == T("6p")
    assert {a.tile for a in legal(h, 1) if a.type == "declare"} == {T("9s"), T("1z")}
    h.act(1, A.declare(T("1z")))
    i = h.events.index({"type": "declare", "seat": 1, "kind": "earthly_ready", "tile": "1z"})
    assert h.events[i + 1] == {"type": "discard", "seat": 1, "tile": "1z"}
    pass_claims(h)
    _turn(h, 2)
    do(h, 2, "discard 9s", others_pass=False)
    claim(h, 1, "win")                          # the first discard after declaring: 人和
    assert set(_win_event(h)["conditions"]) == {"earthly_ready", "ready_first_win"}


def test_earthly_ready_is_only_for_the_first_discard():
    h = table(fill({1: EARTHLY}, avoid="9s1z6p3p"), draws=nth_draw(5, "6p"))
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1 and h.drawn == T("6p"))
    assert "declare" not in legal_types(h, 1)


def test_casual_declares_at_any_time_and_the_dealers_first_is_heavenly():
    h = table(fill({0: "123m456m789m123p456p7z9s"}, avoid="7z9s"), profile="casual")
    assert {a.tile for a in legal(h, 0) if a.type == "declare"} == {T("7z"), T("9s")}
    h.act(0, A.declare(T("9s")))
    assert {"type": "declare", "seat": 0, "kind": "heavenly_ready", "tile": "9s"} in h.events


def _junk(h, seat):
    from twmahjong.tiles import tile_str
    bad = {T("6p"), T("9s"), T("1z"), T("3p")}
    return tile_str(next(a.tile for a in legal(h, seat) if a.type == "discard" and a.tile not in bad))

"""天聽, 地聽, 報聽 and what they feed the scorer: 天胡, 地胡, 人和 (rules/001 items
31-35, rules/000, rules/003)."""

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile

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


def _declared(**kw):
    h = table(fill({0: "1m7z", 1: READY}, avoid="7z1m"), pass_declare=False, **kw)
    h.act(1, A.DECLARE)
    return h


def test_a_declared_hand_is_locked_it_throws_what_it_draws():
    h = _declared(draws=nth_draw(1, "9p"))
    do(h, 0, "discard 1m", others_pass=False)
    # no 碰/槓 of 1m for a declared hand: nobody was asked, seat 1 simply drew
    assert h.events[-2] == {"type": "discard", "seat": 0, "tile": "1m"}
    assert h.turn_seat == 1 and h.drawn == T("9p")
    assert legal(h, 1) == [A.discard(T("9p"))]


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

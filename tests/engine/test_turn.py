"""The turn (打序): draw, then discard, 暗槓, 加槓, 自摸 — what the seat to move is offered."""

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile

from .helpers import do, fill, legal, legal_types, nth_draw, play_until, quiet, table

T = parse_tile


def test_the_dealer_opens_by_discarding_one_of_its_seventeen():
    h = table(quiet())
    offers = legal(h, 0)
    assert {a.type for a in offers} == {"discard"}
    assert sorted(a.tile for a in offers) == sorted({k for k in range(34) if h.seats[0].counts[k]})


def test_after_a_discard_the_next_seat_draws_and_holds_seventeen():
    h = table(quiet(), draws="5m")
    do(h, 0, "discard 9m")
    assert h.turn_seat == 1 and h.drawn == T("5m") and sum(h.seats[1].counts) == 17
    assert h.events[-1] == {"type": "draw", "seat": 1, "tile": "5m", "replacement": False}


def test_four_of_a_kind_in_hand_offers_a_concealed_kong():
    h = table(fill({1: "5555m"}), back="8m")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    assert A.concealed_kong(T("5m")) in legal(h, 1)


def test_the_fourth_tile_of_a_pon_offers_an_added_kong():
    h = table(fill({0: "5m", 2: "55m"}, avoid="5m"), draws=nth_draw(4, "5m"), back="8m")
    do(h, 0, "discard 5m", others_pass=False)
    from .helpers import claim
    claim(h, 2, "pon 5m")
    do(h, 2, f"discard {_junk(h, 2)}")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 2)
    assert h.drawn == T("5m") and A.added_kong(T("5m")) in legal(h, 2)


def test_a_drawn_tile_that_completes_the_hand_offers_a_self_drawn_win():
    h = table(fill({1: "123m456m789m123p456p4z"}, avoid="4z"), draws=nth_draw(1, "4z", d5="4z"))
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    assert h.drawn == T("4z") and A.win(T("4z")) in legal(h, 1)
    do(h, 1, "discard 4z")                       # a self-draw passed is not 過水
    assert not h.seats[1].passed_win


def test_a_drawn_tile_that_does_not_complete_offers_no_win():
    h = table(fill({1: "123m456m789m123p456p4z"}, avoid="4z"), draws=nth_draw(1, "5z"))
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    assert "win" not in legal_types(h, 1)


def _junk(h, seat):
    from twmahjong.tiles import tile_str
    return tile_str(next(a.tile for a in legal(h, seat) if a.type == "discard" and a.tile != T("5m")))

"""補花 (rules/001): at the deal in rounds from the dealer, during play at once, from the 槓尾."""

from twmahjong.tiles import parse_tile

from .helpers import do, quiet, table


def _types(h, start=1):
    return [(e["type"], e.get("seat"), e.get("tile")) for e in h.events[start:]]


def test_opening_replacement_rounds_start_with_the_dealer_and_come_from_the_back():
    # dealer 0 holds 1f, seat 2 holds 2f; seat 2's replacement is 3f, replaced in round two
    hands = quiet(s0="1479m258p369s123456z1f", s2="369m147p258s123456z2f")
    h = table(hands, back="7z 3f 7z")
    assert _types(h)[:6] == [
        ("flower", 0, "1f"), ("draw", 0, "7z"),
        ("flower", 2, "2f"), ("draw", 2, "3f"),
        ("flower", 2, "3f"), ("draw", 2, "7z"),
    ]
    assert [e.get("replacement") for e in h.events[1:7] if e["type"] == "draw"] == [True, True, True]
    assert h.seats[2].flowers == [parse_tile("2f"), parse_tile("3f")]
    assert sum(h.seats[2].counts) == 16 and sum(h.seats[0].counts) == 17
    assert h.wall.back_taken == 3


def test_second_round_waits_until_everyone_replaced_once():
    # seat 0 replaces 1f with 4f; seat 1 replaces 2f — seat 0's second replacement comes after seat 1's first
    hands = quiet(s0="1479m258p369s123456z1f", s1="258m369p147s123456z2f")
    h = table(hands, back="4f 7z 7z")
    assert _types(h)[:6] == [("flower", 0, "1f"), ("draw", 0, "4f"), ("flower", 1, "2f"),
                             ("draw", 1, "7z"), ("flower", 0, "4f"), ("draw", 0, "7z")]


def test_a_flower_drawn_in_play_is_shown_and_replaced_at_once():
    h = table(quiet(), draws="5f", back="5m")
    do(h, 0, "discard 9m")
    assert h.turn_seat == 1 and h.phase == "turn"
    tail = [(e["type"], e.get("tile"), e.get("replacement")) for e in h.events[-3:]]
    assert tail == [("draw", "5f", False), ("flower", "5f", None), ("draw", "5m", True)]
    assert h.seats[1].flowers == [parse_tile("5f")]
    assert h.drawn == parse_tile("5m")
    assert sum(h.seats[1].counts) == 17          # the flower never joins the hand

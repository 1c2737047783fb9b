"""花和: 八仙過海, 七搶一 (both forms), 配牌花和 (rules/001 items 27-30), casual 四槓."""

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile

from .helpers import do, fill, legal, nth_draw, play_until, table

T = parse_tile
BACK = "4m4m4m4m6m6m6m6m"                 # plain replacements for the opening 補花
AVOID = "4m6m8m2p"


def _win(h):
    return next(e for e in h.events if e["type"] == "win")


def _turn(h, seat):
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == seat)


def test_eight_immortals_when_a_seat_draws_its_eighth_flower():
    h = table(fill({1: "1234567f"}, avoid=AVOID), draws=nth_draw(1, "8f"), back=BACK + "8m")
    assert len(h.seats[1].flowers) == 7 and sum(h.seats[1].counts) == 16
    _turn(h, 1)
    assert len(h.seats[1].flowers) == 8 and A.FLOWER_WIN in legal(h, 1)
    h.act(1, A.FLOWER_WIN)
    w = _win(h)
    assert "eight_immortals" in w["conditions"] and w["from"] is None
    assert h.result["net"][1] > 0 and all(h.result["net"][s] < 0 for s in (0, 2, 3))


def test_seven_rob_one_the_seven_flower_seat_robs_the_eighth_as_it_is_drawn():
    # seat 2 holds seven flowers; seat 1 draws the eighth: seat 2 may take it at once
    h = table(fill({2: "1234567f"}, avoid=AVOID), draws=nth_draw(1, "8f"), back=BACK + "8m2p")
    do(h, 0, f"discard {_junk(h, 0)}")
    assert h.phase == "rob_flower" and h.pending() == {2: [A.FLOWER_WIN, A.PASS]}
    h.act(2, A.FLOWER_WIN)
    w = _win(h)
    assert w["seat"] == 2 and w["from"] == 1 and "seven_rob_one" in w["conditions"]
    assert len(h.seats[2].flowers) == 8 and not h.seats[1].flowers
    net = h.result["net"]
    assert net[2] > 0 and net[1] < 0 and net[0] == 0 and net[3] == 0   # the robbed seat pays alone


def test_seven_rob_one_passed_and_the_drawer_replaces_as_usual():
    h = table(fill({2: "1234567f"}, avoid=AVOID), draws=nth_draw(1, "8f"), back=BACK + "8m2p")
    do(h, 0, f"discard {_junk(h, 0)}")
    h.act(2, A.PASS)
    assert h.phase == "turn" and h.turn_seat == 1 and h.drawn == T("6m")   # the 8th tile from the back
    assert h.seats[1].flowers == [T("8f")]


def test_seven_rob_one_second_form_six_flowers_draw_the_seventh_rob_the_eighth():
    # seat 1 holds six, seat 3 holds one, seat 1 draws the seventh: it may rob seat 3's
    h = table(fill({1: "123456f", 3: "8f"}, avoid=AVOID), draws=nth_draw(1, "7f"), back=BACK + "8m")
    _turn(h, 1)
    assert len(h.seats[1].flowers) == 7 and A.FLOWER_WIN in legal(h, 1)
    h.act(1, A.FLOWER_WIN)
    w = _win(h)
    assert w["from"] == 3 and "seven_rob_one" in w["conditions"]
    assert h.result["net"][3] < 0 and h.result["net"][0] == 0 and h.result["net"][2] == 0


def test_seven_flowers_without_drawing_one_this_turn_cannot_rob():
    h = table(fill({1: "1234567f", 3: "8f"}, avoid=AVOID), back=BACK)
    _turn(h, 1)                                 # 配牌花和 applies at the first turn ...
    assert A.FLOWER_WIN in legal(h, 1)
    do(h, 1, f"discard {_junk(h, 1)}")
    _turn(h, 1)                                 # ... and not at later ones
    assert A.FLOWER_WIN not in legal(h, 1)


def test_eight_flowers_from_the_deal_win_at_the_first_draw():
    h = table(fill({1: "12345678f"}, avoid=AVOID), back=BACK)
    assert h.phase == "turn" and h.turn_seat == 0 and A.FLOWER_WIN not in legal(h, 0)
    _turn(h, 1)
    assert A.FLOWER_WIN in legal(h, 1)
    h.act(1, A.FLOWER_WIN)
    assert "eight_immortals" in _win(h)["conditions"]


def test_casual_four_kongs_by_one_seat_is_a_win():
    h = table(fill({1: "1111m2222m3333m9999m"}, avoid="5z"), profile="casual", back="5z5z5z5z")
    _turn(h, 1)
    for k in ("1m", "2m", "3m", "9m"):
        do(h, 1, f"concealed_kong {k}")
    assert h.over and _win(h)["seat"] == 1 and _win(h).get("four_kongs")
    assert "four_kongs" in h.result["patterns"][1]


def test_standard_four_kongs_play_on():
    h = table(fill({1: "1111m2222m3333m9999m"}, avoid="5z"), back="5z5z5z5z")
    _turn(h, 1)
    for k in ("1m", "2m", "3m", "9m"):
        do(h, 1, f"concealed_kong {k}")
    assert not h.over and h.turn_seat == 1


def _junk(h, seat):
    from twmahjong.tiles import tile_str
    return tile_str(next(a.tile for a in legal(h, seat) if a.type == "discard"))


def test_casual_four_kongs_among_several_seats_end_the_hand_drawn():
    # rules/003 四杠牌: 若四家合力完成四杠，則和局
    h = table(fill({1: "1111m2222m", 2: "3333m9999m"}, avoid="5z"), profile="casual",
              back="5z5z5z5z")
    _turn(h, 1)
    do(h, 1, "concealed_kong 1m")
    do(h, 1, "concealed_kong 2m")
    do(h, 1, f"discard {_junk(h, 1)}")
    _turn(h, 2)
    do(h, 2, "concealed_kong 3m")
    assert not h.over
    do(h, 2, "concealed_kong 9m")
    assert h.over and h.result == {"type": "draw_game", "reason": "four_kongs", "winners": []}

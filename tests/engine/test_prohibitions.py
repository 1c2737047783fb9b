"""行牌禁制 (rules/001), one test per item that has a screen form, and rules/003's
casual variants. Item 8 (exposing tiles by accident) has no screen form."""

import pytest

from twmahjong.engine import actions as A
from twmahjong.tiles import counts34, parse_tile

from .helpers import claim, do, fill, legal, legal_types, nth_draw, play_until, table

T = parse_tile


def _to(h, seat):
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == seat)


def test_1_no_kong_right_after_pon_or_chi():
    # seat 2 holds 555m and 2222p; it pons the dealer's 5m: neither 加槓 nor 暗槓 now
    h = table(fill({0: "5m", 2: "555m2222p"}))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pon 5m")
    types = legal_types(h, 2)
    assert "added_kong" not in types and "concealed_kong" not in types
    assert A.discard(T("5m")) not in legal(h, 2)          # and not the same tile (item 6)
    do(h, 2, f"discard {_tile_of(h, 2, avoid='5m2p')}")
    _to(h, 2)                                             # at its next draw both kongs are back
    assert {"added_kong", "concealed_kong"} <= legal_types(h, 2)


# seat 2: 555m and a hand that the replacement 9s completes after 碰槓 5m
KONG = {0: "5m", 2: "555m123p456p789p11s78s"}


def test_2_no_self_draw_on_the_replacement_after_a_kong_from_a_discard():
    h = table(fill(KONG), back="9s")
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "kong 5m")
    assert h.turn_seat == 2 and h.drawn == T("9s")
    assert "win" not in legal_types(h, 2)


def test_2_nor_after_a_flower_drawn_as_that_replacement():
    h = table(fill(KONG), back="3f 9s")
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "kong 5m")
    assert h.seats[2].flowers == [T("3f")] and h.drawn == T("9s")
    assert "win" not in legal_types(h, 2)


def test_2_the_same_replacement_after_a_concealed_kong_may_win():
    h = table(fill({2: "5555m123p456p789p11s7s"}), draws=nth_draw(2, "8s"), back="9s")
    _to(h, 2)
    do(h, 2, "concealed_kong 5m")
    assert h.drawn == T("9s") and "win" in legal_types(h, 2)
    do(h, 2, "win")
    win = next(e for e in h.events if e["type"] == "win")
    assert "kong_bloom" in win["conditions"]


@pytest.mark.parametrize("profile", ["standard", "casual"])
def test_3_no_concealed_kong_after_a_kong_from_a_discard(profile):
    # rules/001 禁制 3: 碰杠補牌之後不得接著暗杠 (casual: rules/003 is silent, kept)
    h = table(fill({0: "5m", 2: "555m2222p"}), back="8m", profile=profile)
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "kong 5m")
    assert "concealed_kong" not in legal_types(h, 2)


# seat 2 碰槓s 5m, replaces 9p (2222p 99p 78s left with 123s456s), 暗槓s 2p: the
# replacement 9s would complete 123s456s789s99p
KONG3 = {0: "5m", 2: "555m2222p123s456s78s9p"}


@pytest.mark.parametrize("open_windows", [False, True])
def test_3_classic_a_concealed_kong_may_follow_a_kong_from_a_discard(open_windows):
    # rules/000 禁制 3: 碰杠補牌之後如接著暗杠補牌不得自摸胡牌 — the 暗槓 itself is allowed
    h = table(fill(KONG3, avoid="9p9s6s"), back="9p 9s", profile="classic", open_windows=open_windows)
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "kong 5m")
    assert h.drawn == T("9p")
    assert A.concealed_kong(T("2p")) in legal(h, 2)
    do(h, 2, "concealed_kong 2p")
    assert h.drawn == T("9s")
    assert "win" not in legal_types(h, 2)              # ... only its replacement may not 自摸
    assert A.discard(T("9s")) in legal(h, 2)


def test_3_classic_nor_after_a_flower_drawn_as_that_kongs_replacement():
    # 此暗杠補得花牌再補後亦然
    h = table(fill(KONG3, avoid="9p9s6s"), back="9p 4f 9s", profile="classic")
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "kong 5m")
    do(h, 2, "concealed_kong 2p")
    assert h.seats[2].flowers == [T("4f")] and h.drawn == T("9s")
    assert "win" not in legal_types(h, 2)


def test_4_a_self_drawn_win_must_start_with_a_draw():
    # seat 1 waits on 5m with 46m; taking it by 吃 leaves a complete hand, but no 自摸
    h = table(fill({0: "5m", 1: "46m123p456p789p11s234s"}))
    do(h, 0, "discard 5m", others_pass=False)
    assert legal_types(h, 1) == {"win", "chi", "pass"}
    claim(h, 1, "chi 5m 46m")
    assert h.turn_seat == 1 and "win" not in legal_types(h, 1)


def test_4_casual_no_self_draw_in_a_turn_entered_by_a_claim():
    # 禁制 4 on its own: in casual a passed win (漏胡) bars only that tile, so nothing but
    # 自摸必須始於摸牌 keeps the complete hand after 吃 from being offered 自摸
    h = table(fill({0: "5m", 1: "46m123p456p789p11s234s"}), profile="casual")
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 1, "chi 5m 46m")
    assert h.turn_seat == 1 and h.seats[1].is_complete(False)
    assert "win" not in legal_types(h, 1)


# item 5: seat 1 (111z, waits 6s/9s) draws 9s and throws it; later it draws the fourth 1z,
# kongs it and the replacement is 6s — a wait that went out in this go-around
FIVE = {1: "111z123p456p789p11s78s"}


def test_5_no_self_draw_after_a_concealed_kong_when_a_wait_went_out_this_go_around():
    h = table(fill(FIVE, avoid="1z6s9s"), draws=nth_draw(1, "9s", d5="1z"), back="6s")
    do(h, 0, "discard 1s" if False else f"discard {_any_discard(h, 0)}")
    assert h.turn_seat == 1 and "win" in legal_types(h, 1)
    do(h, 1, "discard 9s")                     # passes its own self-draw
    _to(h, 1)
    do(h, 1, "concealed_kong 1z")
    assert h.drawn == T("6s") and "win" not in legal_types(h, 1)


def test_5_without_that_discard_the_replacement_wins():
    h = table(fill(FIVE, avoid="1z6s9s"), draws=nth_draw(1, "5z", d5="1z"), back="6s")
    do(h, 0, f"discard {_any_discard(h, 0)}")
    do(h, 1, "discard 5z")
    _to(h, 1)
    do(h, 1, "concealed_kong 1z")
    assert h.drawn == T("6s") and "win" in legal_types(h, 1)


def _any_discard(h, seat):
    from twmahjong.tiles import tile_str
    a = next(a for a in legal(h, seat) if a.type == "discard" and a.tile not in (T("6s"), T("9s")))
    return tile_str(a.tile)


def test_6_after_chi_not_the_same_tile_nor_the_other_end():
    # seat 1 takes 5m with 67m: 5m and 8m may not go out now
    h = table(fill({0: "5m", 1: "67m58m"}))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 1, "chi 5m 67m")
    kinds = {a.tile for a in legal(h, 1) if a.type == "discard"}
    assert T("5m") not in kinds and T("8m") not in kinds
    assert h.seats[1].counts[T("8m")] == 1 and h.seats[1].counts[T("5m")] == 1


def test_6_a_chi_that_would_leave_only_forbidden_discards_is_not_offered():
    h = table(fill({0: "5m", 1: "67m"}))
    st = h.seats[1]
    # seat 1 is down to 5m 6m 7m 8m in hand with four sets shown (set up directly)
    from twmahjong.engine.seat import TableMeld
    st.counts = counts34([T(k) for k in ("5m", "6m", "7m", "8m")])   # the setter keeps the key
    st.melds = [TableMeld("pon", (27, 27, 27), 2, 27)] * 4
    do(h, 0, "discard 5m", others_pass=False)
    chis = [a for a in legal(h, 1) if a.type == "chi"]
    # 5m with 67m would leave 5m and 8m, both forbidden; 5m with 6m7m? also 4m6m is absent
    assert A.chi(T("5m"), T("6m"), T("7m")) not in chis


def test_6_no_chi_of_the_tile_one_discarded_this_go_around():
    # seat 1 throws 5m; before its next discard the dealer throws 5m: seat 1 may not 吃 it
    h = table(fill({0: "5m", 1: "46m5m"}, avoid="5m"), draws=nth_draw(4, "5m"))
    do(h, 0, f"discard {_tile_of(h, 0, avoid='5m')}")
    do(h, 1, "discard 5m")
    _to(h, 0)
    do(h, 0, "discard 5m", others_pass=False)
    assert not any(a.type == "chi" for a in legal(h, 1))


def test_6_nor_the_other_end_of_it():
    # seat 1 threw 2m; with 34m it may not take 5m as 345 (2m is its other end), with 46m it may
    h = table(fill({0: "5m", 1: "2m34m6m"}, avoid="25m"), draws=nth_draw(4, "5m"))
    do(h, 0, f"discard {_tile_of(h, 0, avoid='5m')}")
    do(h, 1, "discard 2m")
    _to(h, 0)
    do(h, 0, "discard 5m", others_pass=False)
    chis = [a for a in legal(h, 1) if a.type == "chi"]
    assert A.chi(T("5m"), T("3m"), T("4m")) not in chis
    assert A.chi(T("5m"), T("4m"), T("6m")) in chis


def _tile_of(h, seat, avoid=""):
    from twmahjong.tiles import parse_tiles, tile_str
    bad = set(parse_tiles(avoid)) if avoid else set()
    a = next(a for a in legal(h, seat) if a.type == "discard" and a.tile not in bad)
    return tile_str(a.tile)


def test_after_pon_not_the_same_tile():
    h = table(fill({0: "5m", 2: "555m"}))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pon 5m")
    assert A.discard(T("5m")) not in legal(h, 2)


def test_casual_no_kong_on_the_upper_players_discard():
    h = table(fill({0: "5m", 1: "555m"}), profile="casual")
    do(h, 0, "discard 5m", others_pass=False)
    assert A.kong(T("5m")) not in legal(h, 1) and A.pon(T("5m")) in legal(h, 1)


def test_casual_kong_from_a_farther_seat_is_allowed():
    h = table(fill({0: "5m", 2: "555m"}), profile="casual")
    do(h, 0, "discard 5m", others_pass=False)
    assert A.kong(T("5m")) in legal(h, 2)


def test_casual_discarding_the_claimed_tile_is_allowed_but_forfeits_the_win():
    h = table(fill({0: "5m", 2: "555m"}), profile="casual")
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pon 5m")
    assert A.discard(T("5m")) in legal(h, 2)              # 碰牌後…如打出，則本局禁止胡牌
    do(h, 2, "discard 5m")
    assert h.seats[2].cannot_win


@pytest.mark.parametrize("profile", ["standard", "classic"])
def test_7_no_pon_on_a_discard_made_with_two_drawable_tiles_left(profile):
    # 禁制 7 on its own (no 漏碰 in play): seat 2 holds 66m and is offered nothing before;
    # seat 1 draws the 61st tile, 6m, leaving 2 drawable, and throws it: no 碰 for seat 2
    from .helpers import quiet
    h = table(quiet(s2="3669m147p258s123456z"), draws=nth_draw(61, "6m"), profile=profile)
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1 and h.drawn == T("6m"))
    assert h.drawable() == 2 and not h.seats[2].passed_pon
    do(h, 1, "discard 6m", others_pass=False)
    # nobody was asked: seat 2 simply drew the next tile
    assert h.events[-2] == {"type": "discard", "seat": 1, "tile": "6m"}
    assert h.phase == "turn" and h.turn_seat == 2 and h.events[-1]["type"] == "draw"

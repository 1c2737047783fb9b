"""鐵八墩, 海底, 荒局 (rules/001 items 25 and 荒局; rules/000 殘牌, 牆頭/槓尾)."""

from twmahjong.tiles import parse_tile

from .helpers import do, legal, legal_types, nth_draw, play_until, quiet, run_out, table


def _normal_draws(h):
    return sum(1 for e in h.events if e["type"] == "draw" and not e["replacement"])


def test_the_last_sixteen_tiles_are_never_drawn_and_the_hand_is_drawn():
    h = table(quiet())
    run_out(h)
    assert h.result == {"type": "draw_game", "reason": "wall_exhausted", "winners": []}
    assert h.events[-1] == {"type": "draw_game", "reason": "wall_exhausted"}
    assert _normal_draws(h) == 144 - 65 - 16
    assert h.wall.remaining == 16


# seat 3 waits on 7z alone; the only free 7z is the 63rd draw: the 17th tile from the end
SEAT0 = "1479m258p1369s123456z"
SEAT3 = "123m456m789m123p456p7z"


def test_the_seventeenth_from_last_tile_is_the_last_drawable_and_wins_as_haidi():
    h = table(quiet(s0=SEAT0, s3=SEAT3), draws=nth_draw(63, "7z"))
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 3 and h.drawn == parse_tile("7z"))
    assert h.drawable() == 0 and h.wall.remaining == 17 - 1
    assert _normal_draws(h) == 63
    assert "win" in legal_types(h, 3)
    do(h, 3, "win")
    assert h.result["winners"] == [3]
    assert "last_tile" in h.events[-2]["conditions"] if h.events[-2]["type"] == "win" else False
    win = next(e for e in h.events if e["type"] == "win")
    assert "last_tile" in win["conditions"] and win["self_drawn"]


def test_a_self_draw_before_the_last_tile_is_not_haidi():
    h = table(quiet(s0=SEAT0, s3=SEAT3), draws=nth_draw(59, "7z"))
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 3 and h.drawn == parse_tile("7z"))
    assert h.drawable() == 4
    do(h, 3, "win")
    win = next(e for e in h.events if e["type"] == "win")
    assert "last_tile" not in win["conditions"]


def test_a_replacement_from_the_back_shortens_the_live_wall():
    # the dealer holds four 1z and makes a concealed kong first: one normal draw fewer
    h = table(quiet(s0="1479m258p369s1111567z", s1="258m369p147s2234567z",
                    s2="369m147p258s2334567z", s3="147m258p369s2344567z"), back="5m")
    do(h, 0, "concealed_kong 1z")
    assert h.wall.back_taken == 1 and h.drawn == parse_tile("5m")
    run_out(h)
    assert _normal_draws(h) == 144 - 65 - 16 - 1
    assert h.wall.remaining == 16


def test_no_claims_on_a_discard_among_the_last_three_drawable_tiles():
    # seat 2 holds 66m. The 60th draw (seat 0) leaves 3 drawable: 碰 allowed on its discard;
    # the 61st (seat 1) leaves 2: no 碰 (行牌禁制 7)
    s2 = "3669m147p258s123456z"
    h = table(quiet(s2=s2), draws=nth_draw(60, "6m", d61="6m"))
    play_until(h, lambda h: h.phase == "claim" and h.claim_ctx[1] == parse_tile("6m"))
    assert h.claim_ctx[0] == 0 and h.drawable() == 3
    assert any(a.type == "pon" for a in legal(h, 2))
    do(h, 2, "pass")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    assert h.drawable() == 2 and h.drawn == parse_tile("6m")
    do(h, 1, "discard 6m")
    # nothing was offered: seat 2 simply drew the 62nd tile (no 碰 in the last three)
    assert h.phase == "turn" and h.turn_seat == 2
    assert h.events[-2] == {"type": "discard", "seat": 1, "tile": "6m"}
    assert h.events[-1]["type"] == "draw" and h.events[-1]["seat"] == 2


def test_a_win_on_a_discard_stays_allowed_in_the_last_three():
    s2 = "123m456m789m123p456p7z"   # seat 2 waits on 7z; seat 1 draws the last free 7z as the 61st
    h = table(quiet(s0=SEAT0, s2=s2, s3="147m258p369s1234566z"), draws=nth_draw(61, "7z"))
    play_until(h, lambda h: h.phase == "claim" and h.claim_ctx[1] == parse_tile("7z"))
    assert h.drawable() == 2
    assert {a.type for a in legal(h, 2)} == {"win", "pass"}


def test_kongs_of_ones_own_stay_allowed_in_the_last_three():
    # 禁制 7 names 吃、碰、碰杠 only: seat 1 draws its fourth 1z as the 61st tile (2 left)
    from .helpers import fill
    h = table(fill({1: "111z"}, avoid="1z"), draws=nth_draw(61, "1z"), back="8m")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1 and h.drawn == parse_tile("1z"))
    assert h.drawable() == 2
    assert "concealed_kong" in legal_types(h, 1)

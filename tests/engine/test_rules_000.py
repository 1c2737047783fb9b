"""rules/000 sentences the classic profile follows, where no other file proves them in
classic itself (docs/rules-coverage.md, "rules/000")."""

import pytest

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile, parse_tiles

from .helpers import claim, do, fill, legal, legal_types, nth_draw, pass_claims, play_until, table

T = parse_tile
WAIT = {0: "2p", 3: "34p123m456m789m11s789s"}      # seat 3 waits on 2p/5p


def _turn(h, seat):
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == seat)


def _win(h):
    return next(e for e in h.events if e["type"] == "win")


@pytest.mark.parametrize("profile", ["classic", "standard"])
def test_a_concealed_kong_while_passed_does_not_lift_it_and_its_replacement_cannot_win(profile):
    # 解除過水: 過水時之暗杠因無實際打出牌，非為解除過水，其補牌不得自摸. Seat 3 holds 111z
    # too: it passes the dealer's 2p, draws the fourth 1z, kongs; the replacement 2p would complete.
    h = table(fill({0: "2p", 3: "34p123m456m789m111z55s"}, avoid="2p5p1z"),
              draws=nth_draw(3, "1z"), back="2p", profile=profile)
    do(h, 0, "discard 2p", others_pass=False)
    claim(h, 3, "pass")
    _turn(h, 3)
    do(h, 3, "concealed_kong 1z")
    assert h.drawn == T("2p") and "win" not in legal_types(h, 3)
    assert h.seats[3].passed_win


@pytest.mark.parametrize("profile", ["classic", "standard"])
def test_an_added_kong_of_a_non_winning_tile_lifts_it_and_its_replacement_may_win(profile):
    # 解除過水: 打出(或加杠)一張非胡之牌即可解除過水，其中加杠補牌如成胡，自摸有效
    h = table(fill({0: "9s", 3: "99s34p123m456m789m11s"}, avoid="9s2p5p"),
              draws=nth_draw(1, "2p", d4="9s"), back="5p", profile=profile)
    do(h, 0, "discard 9s", others_pass=False)
    claim(h, 3, "pon 9s")
    keep = set(parse_tiles("34p123m456m789m1s"))
    h.act(3, A.discard(next(a.tile for a in legal(h, 3) if a.type == "discard" and a.tile not in keep)))
    pass_claims(h)
    _turn(h, 0)
    do(h, 0, "discard 2p", others_pass=False)
    claim(h, 3, "pass")
    _turn(h, 3)
    do(h, 3, "added_kong 9s")
    pass_claims(h)                                     # nobody robs it
    assert h.drawn == T("5p") and "win" in legal_types(h, 3)


@pytest.mark.parametrize("profile", ["classic", "standard"])
def test_the_dealers_first_discard_declaration_is_earthly_ready(profile):
    # 注: 莊家打出第1張牌即宣布聽牌，視為地聽(因門牌等於摸第一張牌)
    h = table(fill({0: "123m456m789m123p456p7z9s"}, avoid="7z9s"), profile=profile)
    assert A.declare(T("9s")) in legal(h, 0)
    h.act(0, A.declare(T("9s")))
    assert {"type": "declare", "seat": 0, "kind": "earthly_ready", "tile": "9s"} in h.events


def test_classic_earthly_win_is_the_heavenly_ready_self_draw_on_the_first_draw():
    # 地胡: 閑家起手天聽摸第1張牌自摸，不論他人吃碰與否
    h = table(fill({0: "1m7z", 1: "111m456m789m123p456p7z"}, avoid="7z1m"), pass_declare=False,
              profile="classic", draws=nth_draw(1, "7z"))
    h.act(1, A.DECLARE)
    do(h, 0, "discard 1m", others_pass=True)
    do(h, 1, "win")
    assert set(_win(h)["conditions"]) == {"heavenly_ready", "earthly_win"}


def test_classic_ready_first_win_is_000s_earthly_ready_first_win():
    # 地聽一發 (000) = 人和 (001 item 35): the first discard after declaring 地聽 wins
    h = table(fill({1: "123m456m789m123p45p9s1z"}, avoid="9s1z6p3p"), profile="classic",
              draws=nth_draw(1, "6p", d2="9s"))
    first = next(a for a in legal(h, 0) if a.type == "discard" and a.tile not in
                 {T("6p"), T("9s"), T("1z"), T("3p")})
    h.act(0, first)
    pass_claims(h)
    h.act(1, A.declare(T("1z")))
    pass_claims(h)
    _turn(h, 2)
    do(h, 2, "discard 9s", others_pass=False)
    claim(h, 1, "win")
    assert set(_win(h)["conditions"]) == {"earthly_ready", "ready_first_win"}


def test_classic_four_kongs_among_seats_is_no_drawn_hand():
    # 施行鐵八墩殘牌之牌局, 得廢止…四杠和局等荒局作法: classic plays on after four kongs
    from twmahjong.profiles import load_profile
    assert load_profile("classic").play.four_kongs_win is False

"""過水 / 解除過水 (rules/001) and 漏胡 / 漏碰 (rules/003), and 同巡第二張不得碰."""

import pytest

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile, parse_tiles

from .helpers import claim, do, fill, legal, legal_types, nth_draw, pass_claims, play_until, table

T = parse_tile
# seat 3 waits on 2p/5p (34p); the dealer opens with 2p
WAIT = {0: "2p", 3: "34p123m456m789m11s789s"}


def _turn(h, seat):
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == seat)


@pytest.mark.parametrize("profile", ["standard", "classic"])
def test_a_passed_win_blocks_every_win_until_the_seat_discards(profile):
    h = table(fill(WAIT, avoid="2p5p9m"), draws=nth_draw(1, "5p", d3="9m", d4="5p"), profile=profile)
    do(h, 0, "discard 2p", others_pass=False)
    assert A.win(T("2p")) in legal(h, 3)
    claim(h, 3, "pass")
    assert h.seats[3].passed_win
    _turn(h, 1)
    do(h, 1, "discard 5p", others_pass=False)
    assert "win" not in legal_types(h, 3)             # another winning tile: still no (過水)
    pass_claims(h)
    _turn(h, 3)
    assert h.drawn == T("9m")
    do(h, 3, "discard 9m")                             # 解除過水: 打出一張非和之牌
    _turn(h, 0)
    do(h, 0, "discard 5p", others_pass=False)
    assert A.win(T("5p")) in legal(h, 3)


@pytest.mark.parametrize("open_windows", [False, True])
@pytest.mark.parametrize("profile", ["standard", "classic"])
def test_throwing_a_winning_tile_does_not_lift_a_passed_win(profile, open_windows):
    # rules/001 解除过水: 打出(或加杠)一张非和之牌即可解除过水 (rules/000: 非胡之牌). Seat 3
    # (34p: 2p/5p) passes 2p, draws 5p — no 自摸, it passed — and throws that 5p.
    h = table(fill(WAIT, avoid="2p5p9m"), draws=nth_draw(3, "5p", d4="2p", d7="9m", d8="2p"),
              profile=profile, open_windows=open_windows)
    do(h, 0, "discard 2p", others_pass=False)
    claim(h, 3, "pass")
    _turn(h, 3)
    assert h.drawn == T("5p") and "win" not in legal_types(h, 3)
    do(h, 3, "discard 5p")
    _turn(h, 0)
    do(h, 0, "discard 2p", others_pass=False)
    assert "win" not in legal_types(h, 3)              # 5p was a winning tile: still 過水
    pass_claims(h)
    _turn(h, 3)
    do(h, 3, "discard 9m")                             # a tile that is not: lifted
    _turn(h, 0)
    do(h, 0, "discard 2p", others_pass=False)
    assert A.win(T("2p")) in legal(h, 3)


def test_casual_passed_win_blocks_only_that_tile_until_the_seats_next_draw():
    h = table(fill(WAIT, avoid="2p5p"), profile="casual", draws=nth_draw(1, "2p", d2="5p", d4="2p"))
    do(h, 0, "discard 2p", others_pass=False)
    claim(h, 3, "pass")
    _turn(h, 1)
    do(h, 1, "discard 2p", others_pass=False)
    assert "win" not in legal_types(h, 3)              # 漏胡: the same tile, before drawing
    pass_claims(h)
    _turn(h, 2)
    do(h, 2, "discard 5p", others_pass=False)
    assert A.win(T("5p")) in legal(h, 3)               # another tile is fine
    claim(h, 3, "pass")
    _turn(h, 3)
    h.act(3, A.discard(h.drawn))
    _turn(h, 0)
    do(h, 0, "discard 2p", others_pass=False)
    assert A.win(T("2p")) in legal(h, 3)               # after its draw, 2p wins again


def test_a_passed_pon_is_not_offered_again_in_the_same_go_around():
    h = table(fill({0: "5m", 2: "55m"}, avoid="5m"), draws=nth_draw(1, "5m"))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pass")
    assert T("5m") in h.seats[2].passed_pon
    _turn(h, 1)
    do(h, 1, "discard 5m", others_pass=False)
    assert A.pon(T("5m")) not in legal(h, 2)           # 同一巡內出現之相同第二張牌不得碰牌


def test_the_passed_pon_ends_with_the_seats_own_discard():
    h = table(fill({0: "5m", 2: "55m"}, avoid="5m"), draws=nth_draw(1, "4z", d5="5m"))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pass")
    _turn(h, 2)
    do(h, 2, f"discard {next(k for k in ('1z', '2z', '3z', '9s') if h.seats[2].counts[T(k)])}")
    assert not h.seats[2].passed_pon
    _turn(h, 1)
    do(h, 1, "discard 5m", others_pass=False)
    assert A.pon(T("5m")) in legal(h, 2)


def test_casual_passed_pon_lasts_until_the_seats_next_draw():
    h = table(fill({0: "5m", 2: "55m"}, avoid="5m"), profile="casual", draws=nth_draw(1, "5m"))
    do(h, 0, "discard 5m", others_pass=False)
    claim(h, 2, "pass")
    _turn(h, 1)
    do(h, 1, "discard 5m", others_pass=False)
    assert A.pon(T("5m")) not in legal(h, 2)           # 漏碰
    pass_claims(h)
    _turn(h, 2)
    assert not h.seats[2].passed_pon


def test_an_added_kong_lifts_a_passed_win():
    # seat 3 pons 9s, waits on 2p/5p, passes the dealer's 2p, then adds the fourth 9s
    h = table(fill({0: "9s", 3: "99s34p123m456m789m11s"}, avoid="9s2p5p"),
              draws=nth_draw(1, "2p", d4="9s"), back="8m")
    do(h, 0, "discard 9s", others_pass=False)
    claim(h, 3, "pon 9s")
    keep = set(parse_tiles("34p123m456m789m1s"))
    filler = next(a.tile for a in legal(h, 3) if a.type == "discard" and a.tile not in keep)
    h.act(3, A.discard(filler))
    pass_claims(h)
    _turn(h, 0)
    do(h, 0, "discard 2p", others_pass=False)
    assert A.win(T("2p")) in legal(h, 3)
    claim(h, 3, "pass")
    assert h.seats[3].passed_win
    _turn(h, 3)
    assert h.drawn == T("9s")
    do(h, 3, "added_kong 9s")
    assert not h.seats[3].passed_win                   # 解除過水: 打出(或加杠)一張非和之牌


def test_the_observation_tells_only_the_seat_itself_that_it_passed_a_win():
    # seat 3 (34p: 2p/5p) passes 2p and draws 5p: no 自摸, and its observation says why;
    # the hints (twmahjong.hints) mark every wait blocked while 過水 holds
    from twmahjong.hints import discard_hints, ready_waits
    h = table(fill(WAIT, avoid="2p5p9m"), draws=nth_draw(3, "5p", d4="2p", d7="9m", d8="2p"))
    do(h, 0, "discard 2p", others_pass=False)
    assert "passed_win" not in h.observation(3)
    claim(h, 3, "pass")
    assert h.observation(3)["passed_win"] == {"until": "until_non_winning_discard", "tiles": None}
    assert all("passed_win" not in h.observation(s) for s in (0, 1, 2))
    obs = h.observation(3)
    assert [(w.tile, w.blocked) for w in ready_waits(obs)] == [("2p", True), ("5p", True)]
    _turn(h, 3)
    obs = h.observation(3)
    assert obs["drawn"] == "5p" and "passed_win" in obs
    hints = discard_hints(obs)
    assert all(w.blocked for w in hints["5p"])        # a winning tile thrown: still 過水
    free = [t for t, ws in hints.items() if t != "5p"]
    assert free and not any(w.blocked for t in free for w in hints[t])


def test_casual_observation_names_the_tile_passed_until_the_next_draw():
    from twmahjong.hints import ready_waits
    h = table(fill(WAIT, avoid="2p5p"), profile="casual", draws=nth_draw(1, "2p", d2="5p", d4="2p"))
    do(h, 0, "discard 2p", others_pass=False)
    claim(h, 3, "pass")
    obs = h.observation(3)
    assert obs["passed_win"] == {"until": "until_own_draw", "tiles": "2p"}
    assert [(w.tile, w.blocked) for w in ready_waits(obs)] == [("2p", True), ("5p", False)]

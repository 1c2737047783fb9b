"""The claim window after a discard: 胡 > 碰/槓 > 吃, 吃 only by the next player with
the choice of tiles, 攔胡 or 一炮多響, 搶槓 (rules/001 行牌的優先權規則, 攔和, 吃牌, 搶杠)."""

from twmahjong.engine import actions as A
from twmahjong.tiles import parse_tile

from .helpers import action, do, legal, nth_draw, pass_all, play_until, table

M5 = parse_tile("5m")

# dealer 0 throws 5m; seat 1 can 吃 (46m), seat 2 can 碰 (55m), seat 3 waits on 5m
PRIORITY = ["179m19p1289s1234567z5m", "468m2578p36s1234567z", "255m369p457s1234567z",
            "123p456p789p123s456s5m"]


def _first_discard(h, tile="5m"):
    h.act(0, action(f"discard {tile}"))


def test_every_seat_with_a_claim_is_asked_at_once_with_pass():
    h = table(PRIORITY)
    _first_discard(h)
    p = h.pending()
    assert set(p) == {1, 2, 3}
    assert p[1] == [A.chi(M5, parse_tile("4m"), parse_tile("6m")), A.PASS]
    assert p[2] == [A.pon(M5), A.PASS]
    assert p[3] == [A.win(M5), A.PASS]


def test_win_beats_pon_and_chi():
    h = table(PRIORITY)
    _first_discard(h)
    h.act(1, action("chi 5m 46m"))
    h.act(2, action("pon 5m"))
    h.act(3, A.win(M5))
    assert h.result["winners"] == [3] and h.result["payer"] == 0
    assert not h.seats[1].melds and not h.seats[2].melds


def test_pon_beats_chi_whatever_the_order_of_answers():
    h = table(PRIORITY)
    _first_discard(h)
    h.act(1, action("chi 5m 46m"))      # the lower player answers first; 碰 still wins
    h.act(3, A.PASS)
    h.act(2, action("pon 5m"))
    assert h.turn_seat == 2 and h.seats[2].melds[0].type == "pon"
    assert h.seats[0].claimed == [True]
    assert h.events[-1] == {"type": "pon", "seat": 2, "from": 0, "tile": "5m"}


def test_chi_when_nobody_wants_more():
    h = table(PRIORITY)
    _first_discard(h)
    h.act(2, A.PASS)
    h.act(3, A.PASS)
    h.act(1, action("chi 5m 46m"))
    assert h.turn_seat == 1 and h.seats[1].melds[0].kinds == (3, 4, 5)
    assert h.events[-1]["type"] == "chi" and h.events[-1]["tiles"] == "456m"
    assert "draw" not in [e["type"] for e in h.events[-2:]]   # a claim replaces the draw


def test_all_pass_and_the_next_player_draws():
    h = table(PRIORITY)
    _first_discard(h)
    pass_all(h)
    assert h.events[-1]["type"] == "draw" and h.events[-1]["seat"] == 1


def test_chi_offers_every_pair_of_tiles_that_makes_a_run():
    # seat 1 holds 3m4m6m7m: 5m can be taken as 345, 456 or 567
    hands = PRIORITY[:]
    hands[1] = "3467m2578p6s1234567z"
    h = table(hands)
    _first_discard(h)
    chis = [a for a in legal(h, 1) if a.type == "chi"]
    assert [a.tiles for a in chis] == [(2, 3), (3, 5), (5, 6)]


def test_only_the_next_player_may_chi():
    # seat 0 throws 5m; seat 3 also holds 46m but sits before the discarder: no 吃 for it
    hands = ["179m19p1289s1234567z5m", "29m258p1369s1234567z", "369m147p258s1234567z",
             "46m147p258s36s123456z"]
    h = table(hands)
    _first_discard(h)
    assert 3 not in h.pending()


# seat 1 and seat 3 both wait on 5m, which the dealer throws
TWO = ["1269m19p159s1234567z5m", "789m234s789s345p678p5m", "479m258p369s1234567z",
       "123p456p789p123s456s5m"]


def test_two_winners_the_nearest_in_turn_order_takes_it():
    h = table(TWO)
    _first_discard(h)
    h.act(3, A.win(M5))                 # seat 3 calls first, but seat 1 is nearer (攔胡)
    h.act(1, A.win(M5))
    assert h.result["winners"] == [1]
    assert [e["seat"] for e in h.events if e["type"] == "win"] == [1]


def test_two_winners_both_win_when_the_profile_allows_it():
    h = table(TWO, multiple_winners="all")
    _first_discard(h)
    h.act(1, A.win(M5))
    h.act(3, A.win(M5))
    assert h.result["winners"] == [1, 3] and h.result["payer"] == 0
    assert sum(h.result["net"]) + h.result["fee"] == 0
    assert h.result["net"][0] < 0 and h.result["net"][2] == 0


def test_a_nearer_seat_that_passes_lets_the_farther_win():
    h = table(TWO)
    _first_discard(h)
    h.act(1, A.PASS)
    h.act(3, A.win(M5))
    assert h.result["winners"] == [3]


# 搶槓: seat 1 pons 5m, later draws the fourth and adds it; seat 3 waits on 5m (46m)
ROB = ["179m19p1289s1234567z5m", "55m2578p36s1234567z8m", "3m47m369p457s1234567z",
       "46m123p456p789p11s234s"]


def _to_added_kong(h):
    _first_discard(h)
    h.act(3, A.PASS)                     # 過水 for seat 3 ...
    h.act(1, A.pon(M5))
    do(h, 1, "discard 8m")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    assert h.seats[3].passed_win is False          # ... lifted by its own discard


def test_robbing_an_added_kong():
    h = table(ROB, draws=nth_draw(4, "5m"))
    _to_added_kong(h)
    assert A.added_kong(M5) in legal(h, 1)
    h.act(1, A.added_kong(M5))
    assert h.phase == "rob_kong" and legal(h, 3) == [A.win(M5), A.PASS]
    h.act(3, A.win(M5))
    win = next(e for e in h.events if e["type"] == "win")
    assert win["seat"] == 3 and win["from"] == 1 and "robbing_kong" in win["conditions"]
    assert h.seats[1].melds[0].type == "pon"       # the robbed tile leaves the kong


def test_an_added_kong_nobody_robs_is_replaced_from_the_back():
    h = table(ROB, draws=nth_draw(4, "5m"), back="9s")
    _to_added_kong(h)
    h.act(1, A.added_kong(M5))
    h.act(3, A.PASS)
    assert h.seats[1].melds[0].type == "added_kong"
    assert h.events[-1] == {"type": "draw", "seat": 1, "tile": "9s", "replacement": True}
    assert h.phase == "turn" and h.turn_seat == 1

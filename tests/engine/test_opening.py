"""搬風, 定莊, 開門, 配牌 (rules/001 麻將玩法)."""

import random

import pytest

from twmahjong.engine import HandState, Wall
from twmahjong.engine.wall import choose_first_dealer, choose_seating, count_seat, roll_dice
from twmahjong.tiles import parse_tiles

from .helpers import QUIET, table


def test_counting_seats_starts_with_the_thrower():
    # 自擲骰者起依逆時針序輪點: 1 and 5 and 9 land on the thrower, 2 on the next seat
    assert count_seat(0, 5) == 0
    assert count_seat(0, 6) == 1
    assert count_seat(2, 3) == 0
    assert count_seat(3, 18) == 0


@pytest.mark.parametrize("seed", range(20))
def test_seating_is_a_permutation_fixed_by_the_seed(seed):
    a, _ = choose_seating(random.Random(seed))
    b, _ = choose_seating(random.Random(seed))
    assert sorted(a) == [0, 1, 2, 3]
    assert a == b


def test_first_dealer_is_the_seat_the_east_seats_dice_count_to():
    rng = random.Random(4)
    dealer, dice = choose_first_dealer(rng)
    assert dealer == count_seat(0, sum(dice))


def test_wall_opens_after_the_dice_stack_of_the_counted_wall():
    rng = random.Random(9)
    w = Wall.build(random.Random(9), breaker=2)
    tiles = list(range(144))
    rng.shuffle(tiles)
    dice = roll_dice(rng)
    side = count_seat(2, sum(dice))
    n = sum(dice)
    # the first tile drawn is the top of the (n+1)-th stack from the right of that wall
    first_stack = side * 18 + n if n < 18 else ((side - 1) % 4) * 18
    assert w.order[0] == tiles[2 * first_stack]
    assert w.break_seat == side
    assert sorted(w.order) == list(range(144))


def test_deal_gives_sixteen_each_and_the_dealer_a_seventeenth():
    hands = QUIET[:]
    h = table(hands, dealer=0)
    assert [sum(st.counts) for st in h.seats] == [17, 16, 16, 16]
    assert h.events[0]["hands"][0] == "1479m258p369s1234567z"
    # 65 tiles dealt from the live end, 16 kept back: 63 drawable
    assert h.drawable() == 144 - 65 - 16
    assert h.phase == "turn" and h.turn_seat == 0


def test_deal_goes_four_tiles_a_turn_from_the_dealer():
    # dealer 2 takes the first four tiles of the wall, then seat 3, 0, 1
    front = parse_tiles("1111m") + parse_tiles("2222m") + parse_tiles("3333m") + parse_tiles("4444m")
    front += parse_tiles("5m5m5m5m6m6m6m6m7m7m7m7m8m8m8m8m") + list(range(9, 9 + 32 // 1))[:0]
    w = Wall.stacked(front)
    from twmahjong.profiles import load_profile
    h = HandState(load_profile("standard"), dealer=2, wall=w)
    assert h.seats[2].counts[0] == 4 and h.seats[2].counts[4] == 4
    assert h.seats[3].counts[1] == 4 and h.seats[0].counts[2] == 4 and h.seats[1].counts[3] == 4


def test_seat_winds_follow_the_wall_opening_in_standard(standard):
    for seed in range(10):
        h = HandState(standard, dealer=1, seed=seed)
        assert h.seat_winds[h.wall.break_seat] == 0           # 開門位即為該一盤之東位
        assert [h.seat_winds[(h.wall.break_seat + i) % 4] for i in range(4)] == [0, 1, 2, 3]


def test_seat_winds_follow_the_dealer_in_casual():
    from twmahjong.profiles import load_profile
    h = HandState(load_profile("casual"), dealer=3, seed=5)
    assert h.seat_winds == [1, 2, 3, 0]


def test_a_seed_fixes_the_whole_deal(standard):
    a = HandState(standard, dealer=0, seed=123)
    b = HandState(standard, dealer=0, seed=123)
    c = HandState(standard, dealer=0, seed=124)
    assert a.events == b.events
    assert a.events != c.events


def test_production_seeds_come_from_the_os(standard, monkeypatch):
    import secrets
    calls = []
    monkeypatch.setattr(secrets, "randbits", lambda n: calls.append(n) or 42)
    h = HandState(standard, dealer=0)
    assert calls and h.seed == 42

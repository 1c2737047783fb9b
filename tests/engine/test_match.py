"""Match flow: 連莊, dealer rotation, 圈 advancing, 1-4 圈, running scores (rules/001 定莊)."""

import pytest

from twmahjong.engine.actions import IllegalAction
from twmahjong.engine.match import Match

from .helpers import claim, do, fill, run_out, stacked_wall


def _dealer_heavenly(m):
    """A hand the dealer wins from the deal (天胡)."""
    d = m.dealer
    hands = fill({d: "123m456m789m123p456p77z"}, dealer=d, avoid="7z")
    h = m.start_hand(wall=stacked_wall(hands, dealer=d))
    do(h, d, "win")
    return m.end_hand()


def _next_seat_wins(m):
    """The seat after the dealer wins on the dealer's first discard."""
    d = m.dealer
    w = (d + 1) % 4
    hands = fill({d: "7z", w: "123m456m789m123p456p7z"}, dealer=d, avoid="7z")
    h = m.start_hand(wall=stacked_wall(hands, dealer=d))
    if h.phase == "declare":
        for s in list(h.pending()):
            h.act(s, h.pending()[s][-1])
    do(h, d, "discard 7z", others_pass=False)
    claim(h, w, "win")
    return m.end_hand()


def test_a_drawn_hand_keeps_the_dealer_and_counts_the_streak(standard):
    m = Match(standard, seed=3, rounds=1)
    d = m.dealer
    h = m.start_hand()
    run_out(h)                                  # nobody takes anything: 荒局
    assert h.result["type"] == "draw_game"
    m.end_hand()
    assert m.dealer == d and m.dealer_streak == 1
    h2 = m.start_hand()
    assert h2.dealer == d and h2.dealer_streak == 1
    assert _last_deal(m)["dealer_streak"] == 1


def test_a_dealer_win_keeps_the_deal_and_the_streak_reaches_the_scorer(standard):
    m = Match(standard, seed=1, rounds=1)
    d = m.dealer
    _dealer_heavenly(m)
    assert m.dealer == d and m.dealer_streak == 1
    res = _dealer_heavenly(m)
    assert "dealer_streak" in res["patterns"][d]          # 連1拉1 counted
    assert m.dealer_streak == 2


def test_another_seats_win_passes_the_deal_on(standard):
    m = Match(standard, seed=1, rounds=1)
    d = m.dealer
    _dealer_heavenly(m)
    _next_seat_wins(m)
    assert m.dealer == (d + 1) % 4 and m.dealer_streak == 0


def test_the_round_wind_advances_when_the_deal_returns_to_the_first_dealer(standard):
    m = Match(standard, seed=2, rounds=2)
    for i in range(3):
        _next_seat_wins(m)
        assert m.round_wind == 0
    _next_seat_wins(m)
    assert m.dealer == m.first_dealer and m.round_wind == 1 and not m.over
    m.start_hand()
    assert _last_deal(m)["round_wind"] == "S"


def test_a_one_round_match_ends_after_four_dealers(standard):
    m = Match(standard, seed=2, rounds=1)
    for _ in range(4):
        assert not m.over
        _next_seat_wins(m)
    assert m.over and m.hand_no == 4
    with pytest.raises(IllegalAction):
        m.start_hand()


def test_scores_run_and_sum_to_zero(standard):
    m = Match(standard, seed=2, rounds=1)
    _dealer_heavenly(m)
    _next_seat_wins(m)
    assert sum(m.scores) == 0 and any(m.scores)


@pytest.mark.parametrize("rounds", [0, -1, 17])
def test_rounds_outside_one_to_sixteen_are_refused(standard, rounds):
    with pytest.raises(IllegalAction):
        Match(standard, seed=1, rounds=rounds)


# 搬風 between 將 (rules/000 and 001 搬風): 次將起每將於原座位搬風，由前一將末盤胡牌者擲骰，
# 依同法更換座位，四人新座位之相互順序不得與前一將完全相同，否則重搬. 依同法: three dice
# counted from the thrower (輪點) pick the seat that draws first; each draws a wind tile in
# turn and takes the seat of that wind. Then 定莊: 每將首盤由東座者擲三骰子.
WINDS = "ESWN"


def _play_game(m):
    """One whole 將: every hand the seat after the dealer wins, so the deal moves 16 times."""
    for _ in range(16):
        last = _next_seat_wins(m)
    return last


def _rotation_of(a, b):
    return any(all(a[i] == b[(i + r) % 4] for i in range(4)) for r in range(4))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_second_game_reseats_the_players_by_wind_tiles(standard, seed):
    m = Match(standard, seed=seed, rounds=8)
    before = list(m.seating)
    last = _play_game(m)
    scores_by_player = {before[s]: m.scores[s] for s in range(4)}
    assert not m.over
    h = m.start_hand()
    ev = next(e for e in m.events if e["type"] == "reseat")
    assert m.events.index(ev) == m.events.index(_last_deal(m)) - 1   # before the new 將's deal
    winner = last["winners"][0]
    assert ev["thrower"] == winner                       # 由前一將末盤胡牌者擲骰
    final = ev["draws"][-1]
    assert len(final["dice"]) == 3 and all(1 <= d <= 6 for d in final["dice"])
    first = (winner + sum(final["dice"]) - 1) % 4          # 輪點 from the thrower, counter-clockwise
    assert final["first"] == first
    assert sorted(final["winds"]) == sorted(WINDS)
    # the seat that drew wind w (in turn from ``first``) goes to the seat of that wind
    expect = [None] * 4
    for i, w in enumerate(final["winds"]):
        expect[WINDS.index(w)] = before[(first + i) % 4]
    assert ev["seating"] == expect == m.seating
    assert not _rotation_of(m.seating, before)            # 相互順序不得與前一將完全相同
    for bad in ev["draws"][:-1]:                          # any draw done again kept the order
        order = [None] * 4
        for i, w in enumerate(bad["winds"]):
            order[WINDS.index(w)] = before[(bad["first"] + i) % 4]
        assert _rotation_of(order, before)
    # 定莊 again, by the East seat's dice; a new 將 starts in the East round
    assert ev["first_dealer"] == (sum(ev["dealer_dice"]) - 1) % 4 == m.first_dealer == h.dealer
    assert m.round_wind == 0 and _last_deal(m)["round_wind"] == "E"
    # each player's running score goes with the player to the new seat
    assert {m.seating[s]: m.scores[s] for s in range(4)} == scores_by_player


def test_a_draw_that_keeps_the_mutual_order_is_drawn_again():
    from twmahjong.engine.wall import reseat

    class Scripted:
        """Dice and wind shuffles in the order given (a rotation first, then not)."""
        def __init__(self):
            self.dice = iter([1, 1, 2, 3, 3, 3])
            self.orders = iter([[1, 2, 3, 0], [0, 1, 3, 2]])

        def randint(self, a, b):
            return next(self.dice)

        def shuffle(self, xs):
            xs[:] = [xs[i] for i in next(self.orders)]

    seating, info = reseat(Scripted(), [0, 1, 2, 3], thrower=0)
    assert len(info["draws"]) == 2
    assert seating not in ([0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2])
    assert sorted(seating) == [0, 1, 2, 3]


def test_a_match_within_one_game_never_reseats(standard):
    m = Match(standard, seed=3, rounds=4)
    _play_game(m)
    assert m.over and not any(e["type"] == "reseat" for e in m.events)


def test_casual_keeps_its_seats_between_games(casual):
    m = Match(casual, seed=3, rounds=5)
    before = list(m.seating)
    _play_game(m)
    assert not m.over
    m.start_hand()
    assert m.seating == before and not any(e["type"] == "reseat" for e in m.events)
    assert m.round_wind == 0 and m.dealer == m.first_dealer


def test_a_two_game_match_replays_from_its_record(classic):
    from twmahjong.engine.record import replay
    from twmahjong.selfplay import make_bots, play_match
    m = play_match(classic, seed=11, rounds=5, bots=make_bots(["L2"] * 4, 11))   # few 荒局: short
    assert any(e["type"] == "reseat" for e in m.events)
    again = replay(m.record())
    assert again.scores == m.scores and again.seating == m.seating


def test_a_match_defaults_to_the_profiles_four_rounds(standard):
    assert Match(standard, seed=1).rounds == 4


def _last_deal(m):
    return [e for e in m.events if e["type"] == "deal"][-1]

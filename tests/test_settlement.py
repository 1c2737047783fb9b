"""Settlement (結算) amounts worked out by hand from the rule texts.

Unless said otherwise stakes are 100/20: a payment of t 台 is 100 + 20·t, and the
dealer's 台 are 作莊 1 + 連N拉N 2N (rules/001 items 9-10), counted only between the
dealer and each other seat (scoring.md, Settlement).
"""

from fractions import Fraction
from types import SimpleNamespace as NS

import pytest
from hypothesis import given, settings, strategies as st

from twmahjong.errors import UserError
from twmahjong.settlement import (
    Settlement, SettlementError, Stakes, Transfer, cap_payments, dealer_tai, false_win,
    full_liability, settle, settle_many, win, win_many,
)

S = Stakes(100, 20)


def scored(*patterns, winning=True):
    """A ScoreResult look-alike: ``scored(("self_draw", 1), ("dealer", 1))``."""
    return NS(winning=winning, tai=sum(t for _, t in patterns),
              patterns=tuple(NS(id=i, tai=t) for i, t in patterns))


def paid(s: Settlement) -> dict:
    """(payer, payee) -> amount, fee transfers included under payee None."""
    return {(t.payer, t.payee): t.amount for t in s.transfers}


# -- who pays ------------------------------------------------------------------

def test_non_dealer_self_draw_dealer_on_streak_2():
    # Seat 1 self-draws a 3-台 hand (自摸 1 + 混一色... any 3); dealer seat 0 on 連2拉2.
    # Dealer's 台 = 1 + 2·2 = 5, between the dealer and the winner only:
    #   dealer pays 100 + (3 + 5)·20 = 260; seats 2 and 3 pay 100 + 3·20 = 160.
    s = settle(scored(("self_draw", 1), ("concealed", 1), ("seat_flower", 1)),
               winner=1, payer=None, dealer=0, streak=2, stakes=S)
    assert paid(s) == {(0, 1): 260, (2, 1): 160, (3, 1): 160}
    assert s.net == (-260, 580, -160, -160)
    assert s.fee == 0
    assert [t.tai for t in s.transfers] == [8, 3, 3]
    assert {t.reason for t in s.transfers} == {"self_draw"}


def test_dealer_self_draw_every_payer_pays_the_dealer_tai():
    # Dealer seat 0 on 連1拉1 self-draws: the scorer counted 作莊 1 + 連1拉1 2 in the hand
    # (total 1 + 2 + 自摸 1 + 混一色 4 = 8). Each of the three pays 100 + 8·20 = 260.
    result = scored(("dealer", 1), ("dealer_streak", 2), ("self_draw", 1), ("half_flush", 4))
    s = settle(result, winner=0, payer=None, dealer=0, stakes=S)
    assert paid(s) == {(1, 0): 260, (2, 0): 260, (3, 0): 260}
    assert s.net == (780, -260, -260, -260)
    # The same with the streak given explicitly; a contradicting streak is refused.
    assert settle(result, winner=0, payer=None, dealer=0, streak=1, stakes=S).net == s.net
    with pytest.raises(SettlementError, match="連2拉2"):
        settle(result, winner=0, payer=None, dealer=0, streak=2, stakes=S)


def test_deal_in_by_the_dealer():
    # Seat 2 wins a 4-台 hand off the dealer's (seat 0, no streak) discard:
    # only the dealer pays, 100 + (4 + 1)·20 = 200 (作莊: 放 also counts 1台).
    s = settle(scored(("all_pungs", 4)), winner=2, payer=0, dealer=0, streak=0, stakes=S)
    assert s.transfers == [Transfer(0, 2, 200, "deal_in", 5, 200)]
    assert s.net == (-200, 0, 200, 0)


def test_dealer_wins_off_a_discard():
    # Dealer seat 0 on 連1拉1 wins off seat 2: hand 2 台 + dealer's 3 = 5 台 → 200.
    s = settle(scored(("dealer", 1), ("dealer_streak", 2), ("ping_hu", 2)),
               winner=0, payer=2, dealer=0, stakes=S)
    assert s.net == (200, 0, -200, 0)


def test_deal_in_between_non_dealers_leaves_the_dealer_untouched():
    # Seat 1 wins 4 台 off seat 3; dealer seat 0 is on 連3拉3 but takes no part:
    # seat 3 pays 100 + 4·20 = 180, nobody else pays anything (rules/003 放槍).
    s = settle(scored(("half_flush", 4)), winner=1, payer=3, dealer=0, streak=3, stakes=S)
    assert s.transfers == [Transfer(3, 1, 180, "deal_in", 4, 180)]
    assert s.net == (0, 180, 0, -180)


def test_plain_numbers_layer_agrees():
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=dealer_tai(2), stakes=S)
    assert s.net == (-260, 580, -160, -160)


def test_dealer_tai_from_profile_values():
    # A profile where 作莊 is 2 and 連N拉N is 3 per N (a house variant) — read, not assumed.
    profile = {"patterns": {"dealer": {"tai": 2}, "dealer_streak": {"tai": 3}}}
    assert dealer_tai(0) == 1 and dealer_tai(3) == 7
    assert dealer_tai(2, profile) == 8


# -- flower wins (花胡) ------------------------------------------------------------

def test_eight_immortals_three_pay_one_base():
    # 八仙過海 by seat 2, hand not complete: 8 台 1 底 from each; dealer seat 0 (no
    # streak) adds 作莊 1: seat 0 pays 100 + 9·20 = 280, seats 1 and 3 pay 100 + 160 = 260.
    s = settle(scored(("eight_immortals", 8)), winner=2, payer=None, dealer=0, stakes=S)
    assert paid(s) == {(0, 2): 280, (1, 2): 260, (3, 2): 260}


def test_eight_immortals_with_kong_bloom_still_one_base():
    # Replacement tile blooms (槓上開花): 牌面台數照算加計八仙過海8台 (底注只計1底).
    # 8 + 槓上開花 1 + 自摸 1 + 對對胡 4 = 14 台: non-dealers pay 100 + 280 = 380, not 480.
    result = scored(("eight_immortals", 8), ("kong_bloom", 1), ("self_draw", 1), ("all_pungs", 4))
    s = settle(result, winner=2, payer=None, dealer=0, stakes=S)
    assert paid(s) == {(0, 2): 400, (1, 2): 380, (3, 2): 380}


def test_seven_rob_one_is_a_deal_in_by_the_robbed():
    # Form 1 (and form 2 without bloom): 視同被搶花者放銃, 8 台 1 底.
    # Robbed seat 3 pays 100 + 8·20 = 260; the dealer and seat 2 are untouched.
    s = settle(scored(("seven_rob_one", 8)), winner=1, payer=3, dealer=0, stakes=S)
    assert s.net == (0, 260, 0, -260)
    # Robbed seat is the dealer on 連1拉1: "涉莊連拉台數照算": 100 + (8 + 3)·20 = 320.
    s = settle(scored(("seven_rob_one", 8)), winner=1, payer=0, dealer=0, streak=1, stakes=S)
    assert s.net == (-320, 320, 0, 0)


def test_seven_rob_one_form_2_with_kong_bloom():
    # 視同自摸，三家賠付，牌面台數照算(不含搶得之花牌)，但花牌台數被搶花者應單獨計七搶一8台.
    # Seat 1 wins, robbed seat 2, dealer seat 0 (no streak). Scored: 七搶一 8 + 槓上開花 1
    # + 自摸 1 + 對對胡 4 = 14; the hand's 台 without 七搶一 = 6.
    #   dealer:  100 + (6 + 1)·20 = 240
    #   seat 3:  100 + 6·20       = 220
    #   robbed:  100 + (6 + 8)·20 = 380   (one 底 in all)
    result = scored(("seven_rob_one", 8), ("kong_bloom", 1), ("self_draw", 1), ("all_pungs", 4))
    s = settle(result, winner=1, payer=None, dealer=0, robbed=2, stakes=S)
    assert paid(s) == {(0, 1): 240, (2, 1): 380, (3, 1): 220}
    assert {t.payer: t.reason for t in s.transfers}[2] == "seven_rob_one"
    assert s.net == (-240, 840, -380, -220)


def test_seven_rob_one_robbed_seat_misuse():
    without_bloom = scored(("seven_rob_one", 8))
    with pytest.raises(SettlementError, match="deal-in"):
        settle(without_bloom, winner=1, payer=None, dealer=0, robbed=2, stakes=S)
    with pytest.raises(SettlementError, match="not 七搶一"):
        settle(scored(("kong_bloom", 1), ("self_draw", 1)), winner=1, payer=None, dealer=0,
               robbed=2, stakes=S)
    with pytest.raises(SettlementError):
        win(6, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=S, robbed=2, robbed_tai=8)


# -- penalties ----------------------------------------------------------------------

def test_false_win_by_a_non_dealer():
    # 詐胡 1): 依底注加牌面台數分別賠付三家，莊連拉之台數則另與莊家單獨計賠.
    # Offender seat 2, 牌面 3 台, dealer seat 0 on 連1拉1 (dealer's 台 3):
    #   seats 1 and 3: 100 + 3·20 = 160; dealer: 100 + (3 + 3)·20 = 220.
    s = false_win(3, offender=2, dealer=0, dealer_tai=dealer_tai(1), stakes=S)
    assert paid(s) == {(2, 0): 220, (2, 1): 160, (2, 3): 160}
    assert s.net == (220, 160, -540, 160)
    assert {t.reason for t in s.transfers} == {"false_win"}


def test_false_win_by_the_dealer():
    # 若莊家詐胡，除底注加牌面台數以外，莊連拉之台數應一並計入分別賠付三家.
    # Dealer seat 0 on 連2拉2 (5 台), 牌面 3 台: each of three gets 100 + 8·20 = 260.
    s = false_win(3, offender=0, dealer=0, dealer_tai=dealer_tai(2), stakes=S)
    assert s.net == (-780, 260, 260, 260)


def test_full_liability():
    # 包賠: 依底注加本身牌面台數賠付三家，涉莊連拉台數另加計. Stakes 50/10,
    # offender seat 3, 牌面 2 台, dealer seat 1 (no streak, dealer's 台 1):
    #   seats 0 and 2: 50 + 2·10 = 70; dealer seat 1: 50 + 3·10 = 80.
    s = full_liability(2, offender=3, dealer=1, dealer_tai=1, stakes=Stakes(50, 10))
    assert paid(s) == {(3, 0): 70, (3, 1): 80, (3, 2): 70}
    assert s.net == (70, 80, 70, -220)
    assert {t.reason for t in s.transfers} == {"full_liability"}


# -- 一炮多響 ----------------------------------------------------------------------

def test_multiple_winners_on_one_discard():
    # Seat 3 discards into seat 1 (2 台) and the dealer seat 0 on 連1拉1 (hand 4 + dealer 3):
    #   to seat 1: 100 + 2·20 = 140; to the dealer: 100 + 7·20 = 240.
    results = {1: scored(("ping_hu", 2)),
               0: scored(("dealer", 1), ("dealer_streak", 2), ("half_flush", 4))}
    s = settle_many(results, payer=3, dealer=0, stakes=S)
    assert paid(s) == {(3, 0): 240, (3, 1): 140}
    assert s.net == (240, 140, 0, -380)


def test_multiple_winners_off_the_dealer():
    # Dealer seat 0 (no streak) discards into seats 1 (2 台) and 2 (3 台): each pair
    # involves the dealer, so each adds 作莊 1: 160 and 180.
    s = win_many({1: 2, 2: 3}, payer=0, dealer=0, dealer_tai=1, stakes=S)
    assert paid(s) == {(0, 1): 160, (0, 2): 180}


# -- 防以小博大 (rules/003) ----------------------------------------------------------

def test_cap_one_loser():
    # Case of the first test (260, 160, 160 to seat 1); seat 2 carried only 100:
    # it loses at most 100, the rest pay in full, the winner gets 260 + 100 + 160.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S,
            carried=[1000, 1000, 100, 1000])
    assert paid(s) == {(0, 1): 260, (2, 1): 100, (3, 1): 160}
    assert s.net == (-260, 520, -100, -160)
    assert [t.owed for t in s.transfers] == [260, 160, 160]


def test_cap_two_losers():
    # Dealer carried 200 (owes 260) and seat 2 carried 100 (owes 160): both pay what
    # they carried; seat 3 pays its full 160.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S,
            carried=[200, 1000, 100, 1000])
    assert s.net == (-200, 460, -100, -160)


def test_capped_winner_shares_pro_rata():
    # Winner carried 300 but is owed 260 + 160 + 160 = 580: each payment scales by
    # 300/580 — 134.48, 82.76, 82.76 — floors 134, 82, 82 (298); the 2 missing units go
    # to the largest remainders (.76, .76): 134, 83, 83 = 300.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S,
            carried=[1000, 300, 1000, 1000])
    assert paid(s) == {(0, 1): 134, (2, 1): 83, (3, 1): 83}
    assert s.net[1] == 300


def test_capped_winner_and_capped_loser():
    # Seat 2 capped first (160 → 50); then the winner's 300 over 260 + 50 + 160 = 470:
    # 165.96, 31.91, 102.13 → floors 165 + 31 + 102 = 298, +1 to .96 and .91: 166, 32, 102.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S,
            carried=[1000, 300, 50, 1000])
    assert paid(s) == {(0, 1): 166, (2, 1): 32, (3, 1): 102}


def test_cap_one_discarder_many_winners():
    # 一炮多響, discarder carried 170 against 160 + 180 = 340: halves, 80 and 90.
    s = win_many({1: 2, 2: 3}, payer=0, dealer=0, dealer_tai=1, stakes=S,
                 carried=[170, 1000, 1000, 1000])
    assert paid(s) == {(0, 1): 80, (0, 2): 90}


def test_winner_who_carried_nothing_wins_nothing():
    s = win(3, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=S, carried=[5, 0, 500, 5])
    assert s.net == (0, 0, 0, 0)


def test_cap_payments_needs_four_seats():
    with pytest.raises(SettlementError, match="four seats"):
        cap_payments([100], [0], [1], [100, 100, 100])


# -- 活動費 -------------------------------------------------------------------------

def test_fee_on_the_winners_gain():
    # rules/003 活動費: 5% of the winner's gain. Gain 580 → fee 29, winner keeps 551.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S, fee_rate=0.05)
    assert s.fee == 29
    assert s.net == (-260, 551, -160, -160)
    assert s.transfers[-1] == Transfer(1, None, 29, "fee")
    assert sum(s.net) + s.fee == 0


def test_fee_rounds_down():
    # 100/30, 1 台 deal-in = 130; 5% = 6.5 → 6.
    s = win(1, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=Stakes(100, 30), fee_rate=0.05)
    assert s.fee == 6 and s.net[1] == 124


def test_fee_rate_is_read_exactly():
    # 0.29 · 100 is 28.999… in floating point; the rate is 29/100, so the fee is 29.
    s = win(3, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=Stakes(70, 10), fee_rate=0.29)
    assert s.fee == 29


def test_fee_after_the_cap():
    # Capped winner (300, see above) pays 5% of what it really gained: 15.
    s = win(3, winner=1, payer=None, dealer=0, dealer_tai=5, stakes=S,
            carried=[1000, 300, 1000, 1000], fee_rate="0.05")
    assert s.fee == 15 and s.net[1] == 285


def test_profile_supplies_stakes_and_fee():
    profile = {"stakes": {"base": 50, "per_tai": 10}, "settlement": {"fee_rate": 0.1},
               "patterns": {"dealer": {"tai": 1}, "dealer_streak": {"tai": 2}}}
    # Seat 1 wins 4 台 off seat 2: 50 + 40 = 90; fee 9.
    s = settle(scored(("half_flush", 4)), winner=1, payer=2, dealer=0, profile=profile)
    assert s.net == (0, 81, -90, 0) and s.fee == 9


def test_max_tai_limits_a_payment():
    # 封頂 10 台: a dealer paying 12 + 1 台 pays as for 10: 100 + 200 = 300.
    s = win(12, winner=1, payer=0, dealer=0, dealer_tai=1, stakes=Stakes(100, 20, max_tai=10))
    assert s.net == (-300, 300, 0, 0)


def test_json_shape():
    s = win(3, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=S, fee_rate=0.05)
    assert s.to_json() == {
        "transfers": [
            {"payer": 2, "payee": 1, "amount": 160, "reason": "deal_in", "tai": 3, "owed": 160},
            {"payer": 1, "payee": None, "amount": 8, "reason": "fee", "tai": None, "owed": None},
        ],
        "net": [0, 152, -160, 0], "fee": 8}


# -- refusals ------------------------------------------------------------------------

def test_stakes_parse():
    assert Stakes.parse("100/20") == Stakes(100, 20)
    assert Stakes.parse(" 50 / 5 ") == Stakes(50, 5)
    for bad in ("100", "100/0", "0/20", "-1/20", "a/b", "100/20/5", "", "1.5/2"):
        with pytest.raises(SettlementError):
            Stakes.parse(bad)


@pytest.mark.parametrize("call", [
    lambda: win(3, winner=1, payer=1, dealer=0, dealer_tai=1, stakes=S),
    lambda: win(3, winner=4, payer=None, dealer=0, dealer_tai=1, stakes=S),
    lambda: win(3, winner=1, payer=-1, dealer=0, dealer_tai=1, stakes=S),
    lambda: win(3, winner=True, payer=None, dealer=0, dealer_tai=1, stakes=S),
    lambda: win(-1, winner=1, payer=None, dealer=0, dealer_tai=1, stakes=S),
    lambda: win(3, winner=1, payer=None, dealer=0, dealer_tai=1, stakes=S, fee_rate=1),
    lambda: win(3, winner=1, payer=None, dealer=0, dealer_tai=1, stakes=S, fee_rate="lots"),
    lambda: win(3, winner=1, payer=None, dealer=0, dealer_tai=1, stakes=S, carried=[1, 2, 3]),
    lambda: win(3, winner=1, payer=None, dealer=0, dealer_tai=1, stakes=S, carried=[1, 2, 3, -4]),
    lambda: win_many({}, payer=0, dealer=0, dealer_tai=1, stakes=S),
    lambda: win_many({0: 3}, payer=0, dealer=0, dealer_tai=1, stakes=S),
    lambda: false_win(3, offender=5, dealer=0, dealer_tai=1, stakes=S),
    lambda: Stakes(0, 20),
    lambda: settle(scored(("ping_hu", 2)), winner=1, payer=None, dealer=0),   # no stakes
])
def test_refused_with_a_user_error(call):
    with pytest.raises(UserError):
        call()


def test_scored_hand_must_match_the_dealer():
    # The scorer counts 作莊 only for the dealer's hand (scoring.md); a mismatch means the
    # hand was scored for another seat.
    with pytest.raises(SettlementError, match="not the dealer"):
        settle(scored(("dealer", 1), ("ping_hu", 2)), winner=1, payer=2, dealer=0, stakes=S)
    with pytest.raises(SettlementError, match="does not count 作莊"):
        settle(scored(("ping_hu", 2)), winner=0, payer=2, dealer=0, stakes=S)
    with pytest.raises(SettlementError, match="does not win"):
        settle(scored(winning=False), winner=1, payer=2, dealer=0, stakes=S)


def test_self_drawn_hand_has_no_discarder():
    # A hand holding 自摸 / 槓上開花 / 八仙過海 was not won on anyone's discard.
    for pattern in ("self_draw", "kong_bloom", "eight_immortals"):
        with pytest.raises(SettlementError, match="self-drawn"):
            settle(scored((pattern, 1), ("ping_hu", 2)), winner=1, payer=2, dealer=0, stakes=S)
    with pytest.raises(SettlementError, match="self-drawn"):
        settle_many({1: scored(("self_draw", 1))}, payer=2, dealer=0, stakes=S)
    # 七搶一 that bloomed is still the robbed seat's deal-in (rules/001 七搶一 form 1):
    # 8 + 槓上開花 1 + 自摸 1 = 10 台, 100 + 200 = 300 from seat 2 alone.
    s = settle(scored(("seven_rob_one", 8), ("kong_bloom", 1), ("self_draw", 1)),
               winner=1, payer=2, dealer=0, stakes=S)
    assert s.net == (0, 300, -300, 0)
    # ... and 七搶一 always has a robbed seat that pays.
    with pytest.raises(SettlementError, match="robbed seat"):
        settle(scored(("seven_rob_one", 8)), winner=1, payer=None, dealer=0, stakes=S)


# -- conservation --------------------------------------------------------------------

seat = st.integers(0, 3)
fees = st.sampled_from(["0", "0.05", "0.1", "0.033", "0.5"])
carried_st = st.none() | st.lists(st.integers(0, 5000), min_size=4, max_size=4)


@st.composite
def events(draw):
    stakes = Stakes(draw(st.integers(1, 500)), draw(st.integers(1, 100)))
    dealer = draw(seat)
    d_tai = dealer_tai(draw(st.integers(0, 8)))
    common = dict(dealer=dealer, dealer_tai=d_tai, stakes=stakes,
                  carried=draw(carried_st), fee_rate=draw(fees))
    kind = draw(st.sampled_from(["win", "many", "false_win", "full_liability"]))
    tai = draw(st.integers(0, 60))
    if kind == "win":
        winner = draw(seat)
        payer = draw(st.none() | seat.filter(lambda s: s != winner))
        return win(tai, winner=winner, payer=payer, **common), common, stakes, d_tai
    if kind == "many":
        payer = draw(seat)
        winners = draw(st.sets(seat.filter(lambda s: s != payer), min_size=1))
        tais = {w: draw(st.integers(0, 60)) for w in winners}
        return win_many(tais, payer=payer, **common), common, stakes, d_tai
    fn = false_win if kind == "false_win" else full_liability
    return fn(tai, offender=draw(seat), **common), common, stakes, d_tai


@settings(max_examples=300, deadline=None)
@given(events())
def test_money_is_conserved(event):
    s, common, stakes, _ = event
    carried = common["carried"]
    assert sum(s.net) + s.fee == 0
    pays = [t for t in s.transfers if t.payee is not None]
    fees_paid = [t for t in s.transfers if t.payee is None]
    assert s.fee == sum(t.amount for t in fees_paid)
    for t in pays:
        assert t.owed == stakes.unit(t.tai)            # 底 + 台 × 台價, once per payment
        assert 0 <= t.amount <= t.owed
        if carried is None:
            assert t.amount == t.owed
    gross = [0] * 4
    for t in pays:
        gross[t.payer] -= t.amount
        gross[t.payee] += t.amount
    for seat_, g in enumerate(gross):
        if carried is not None:
            assert -carried[seat_] <= g <= carried[seat_]   # 防以小博大 both ways
        fee = next((t.amount for t in fees_paid if t.payer == seat_), 0)
        assert fee == (int(g * Fraction(common["fee_rate"])) if g > 0 else 0)
    # With one receiver the cap is exact: it gets min(its carry, Σ min(owed, payer's carry)).
    receivers = {t.payee for t in pays}
    payers = {t.payer for t in pays}
    if carried is not None and len(receivers) == 1 and len(payers) == len(pays):
        (w,) = receivers
        expect = min(carried[w], sum(min(t.owed, carried[t.payer]) for t in pays))
        assert gross[w] == expect


def test_earthly_win_on_a_first_discard_is_paid_by_the_discarder():
    # rules/001 item 34: 地和 16台 — 閒家起牌天聽…或和各家打出其第一張牌: a deal-in.
    # Seat 1 wins 地和 16 off non-dealer seat 2's first discard: 100 + 16·20 = 420,
    # the dealer (seat 0) is untouched.
    s = settle(scored(("earthly_win", 16)), winner=1, payer=2, dealer=0, stakes=S)
    assert paid(s) == {(2, 1): 420}
    assert s.net == (0, 420, -420, 0)

"""The adaptive rule (docs/bots.md): keep the player's win share near 1/4."""

from twmahjong.bots.adaptive import PRACTICE, Outcome, recommend, win_share
from twmahjong.bots.personalities import PERSONALITIES, by_tier


def hands(wins, total, level=3, opponent=None):
    return [Outcome(won=i < wins, level=level, opponent=opponent) for i in range(total)]


def test_share_is_pulled_toward_a_quarter():
    assert win_share([]) == 0.25
    assert win_share(hands(4, 12)) == (4 + 1) / (12 + 4)


def test_too_few_hands_keep_the_level():
    # fewer than 16 hands at a level say too little, even fifteen wins out of fifteen
    assert recommend(hands(7, 7), current_level=3).level == 3
    assert recommend(hands(15, 15), current_level=3).level == 3
    assert recommend(hands(16, 16), current_level=3).level == 5          # 17/20 = 0.85


def test_only_the_last_32_hands_count():
    # 20 old losses then 32 fair hands (8 wins): the losses are outside the window
    c = recommend(hands(0, 20) + hands(8, 32), current_level=3)
    assert c.hands == 32 and c.level == 3                                 # 9/36 = 0.25


def test_a_fair_quarter_keeps_the_level():
    assert recommend(hands(6, 24), current_level=3).level == 3           # (6+1)/28 = 0.25


def test_winning_a_third_moves_one_up():
    assert recommend(hands(8, 24), current_level=3).level == 4           # 9/28 = 0.32


def test_winning_half_moves_two_up_and_stops_at_five():
    assert recommend(hands(12, 24), current_level=3).level == 5          # 13/28 = 0.46
    assert recommend(hands(12, 24, level=4), current_level=4).level == 5


def test_losing_moves_down():
    assert recommend(hands(3, 24), current_level=3).level == 2           # 4/28 = 0.14
    assert recommend(hands(0, 24), current_level=3).level == 1           # 1/28 = 0.04
    # below L1 is the practice table (level 0), and nothing is below that
    assert recommend(hands(0, 24, level=1), current_level=1).level == PRACTICE == 0
    assert recommend(hands(0, 24, level=0), current_level=0).level == 0


def test_the_practice_table_meets_tier_one_personalities():
    c = recommend(hands(2, 24, level=1), current_level=1)                 # 3/28 = 0.11
    assert c.level == 0 and c.personality in {p.id for p in by_tier(1)}


def test_only_hands_since_the_last_change_count():
    # 20 wins at level 2 led to level 3; 8 fair hands at level 3 keep it there.
    history = hands(20, 20, level=2) + hands(2, 8, level=3)
    c = recommend(history, current_level=3)
    assert c.hands == 8 and c.level == 3


def test_the_opponent_is_a_fresh_face_of_the_tier():
    tier4 = [p.id for p in by_tier(4)]
    c = recommend(hands(2, 8, level=4, opponent=tier4[0]), current_level=4)
    assert c.personality == tier4[1]
    assert recommend(hands(2, 8, level=4), current_level=4).personality == tier4[0]


def test_sixteen_personalities_in_five_tiers():
    assert len(PERSONALITIES) == 16
    assert len({p.id for p in PERSONALITIES}) == 16
    assert {p.tier for p in PERSONALITIES} == {1, 2, 3, 4, 5}
    for p in PERSONALITIES:
        assert p.zh and p.en and p.description
        assert p.params.level == p.tier

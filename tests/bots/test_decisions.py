"""Decisions the rule texts and sound play call for, on hand-made observations."""

import pytest
from botobs import make_obs

from twmahjong.bots.defence import danger, danger_table, threat
from twmahjong.bots.policy import LEVELS, PolicyBot, default_action
from twmahjong.bots.view import View
from twmahjong.tiles import parse_tile


def act(level, obs, seed=1):
    return PolicyBot(LEVELS[level], seed=seed).act(obs)


# Seat 2 declared (報聽) and has thrown 9s and 5p, among others. Our hand is far
# from ready (4-shanten: six partial shapes, no set). Pure efficiency throws an
# honor; a defending level throws a tile the ready player threw himself (現物),
# which he cannot be waiting on unless he changed his wait.
DEF_OBS = make_obs(
    "35m 68m 11p 23p 79s 44s 23z 1m5p",
    discards=[["9p"], ["1s", "9m"], ["7z", "9s", "5p", "2s", "4z", "8p"], ["6z"]],
    declared=[False, False, True, False],
    wall_remaining=40,
)


def test_declared_player_is_a_sure_threat():
    v = View.from_observation(DEF_OBS)
    assert threat(v, 2) == 1.0
    assert threat(v, 3) < 0.2               # one discard, no melds


def test_genbutsu_is_safer_than_an_unseen_terminal():
    v = View.from_observation(DEF_OBS)
    assert danger(v, 2, parse_tile("5p")) < danger(v, 2, parse_tile("1m"))


def test_defence_prefers_the_declared_players_own_discard():
    genbutsu = ({"type": "discard", "tile": "5p"}, {"type": "discard", "tile": "9s"})
    assert act(2, DEF_OBS) not in genbutsu                 # efficiency alone
    assert act(3, DEF_OBS) not in genbutsu                 # value, no defence yet
    for level in (4, 5):
        assert act(level, DEF_OBS) in genbutsu


def test_every_visible_copy_means_no_danger():
    obs = make_obs("1z23m", discards=[["1z"], ["1z"], ["1z"], []], declared=[False, True, False, False])
    v = View.from_observation(obs)
    assert danger(v, 1, parse_tile("1z")) == 0.0
    assert danger_table(v, [parse_tile("1z")])[parse_tile("1z")][0] == 0.0


# Concealed (門清) hand, ready (聽牌) on 5p: 123m 456m 789m 567s 11z 46p.
# The left player throws 8s; chowing 67s+8s and throwing 5s leaves the same wait
# on the same 5p while giving up 門清 (and 不求自摸). A level that values 門清
# passes; the chow-happy personality takes it.
CHI_OBS = make_obs(
    "123m456m789m567s11z46p",
    seat=1,
    discards=[["8s"], [], [], []],
    last_discard={"seat": 0, "tile": "8s"},
    legal=[{"type": "chi", "tile": "8s", "tiles": "67s"}, {"type": "pass"}],
    wall_remaining=60,
)


def test_concealed_value_declines_the_cheap_chow():
    for level in (3, 4, 5):
        assert act(level, CHI_OBS) == {"type": "pass"}


def test_from_level_4_a_claim_pays_for_the_concealed_hand():
    # 門清 is 1台 (and 不求自摸 one more): L4+ charge 0.15 × 1.4 台 at 3 units a 台
    # for giving it up; L3 does not weigh it. Same chow, same hand, both levels.
    from twmahjong.bots.view import View
    v = View.from_observation(CHI_OBS)
    chi = next(a for a in v.legal if a[0] == "chi")
    scores = {}
    for level in (3, 4):
        bot = PolicyBot(LEVELS[level], seed=1)
        scores[level] = bot._claim_score(v, "chi", chi[1], chi[2], 0)
    assert scores[3] - scores[4] == pytest.approx(0.15 * 1.4 * 3.0)


def test_level_2_takes_a_claim_that_gains_nothing_and_efficiency_does_not():
    # The chow leaves the same wait on the same four 5p: worth nothing. The plain
    # efficiency player wants a gain before it claims; L2's flaw is claiming
    # whatever does not set the hand back (measured: -21.6 points a hand, docs/bots.md).
    from twmahjong.bots.arena import EFFICIENCY
    assert PolicyBot(EFFICIENCY, seed=1).act(CHI_OBS) == {"type": "pass"}
    assert act(2, CHI_OBS)["type"] == "chi"


def test_the_chow_lover_takes_it():
    from twmahjong.bots.personalities import get_personality
    bot = PolicyBot(get_personality("chi_fan").params, seed=1)
    assert bot.act(CHI_OBS)["type"] == "chi"


def test_pon_of_a_scoring_dragon_is_taken():
    # 中中 in hand, 中 thrown: the pung is a 台 (箭字刻) and a set.
    # 77z 11z 123m 456m 23p 67p 5s 9s: 2-shanten; the pung makes it 1-shanten.
    obs = make_obs("77z 11z 123m 456m 23p 67p 5s 9s", seat=2,
                   discards=[["7z"], [], [], []], last_discard={"seat": 0, "tile": "7z"},
                   legal=[{"type": "pon", "tile": "7z"}, {"type": "pass"}])
    for level in (2, 3, 4):
        assert act(level, obs) == {"type": "pon", "tile": "7z"}


def test_a_win_and_a_flower_win_are_taken():
    obs = make_obs("123m456m789m123p11z4p", legal=[{"type": "win", "tile": "4p"}, {"type": "pass"}],
                   discards=[["4p"], [], [], []], last_discard={"seat": 0, "tile": "4p"}, seat=1)
    for level in range(1, 6):
        assert act(level, obs) == {"type": "win", "tile": "4p"}
    fw = make_obs("123m", legal=[{"type": "flower_win"}, {"type": "pass"}])
    for level in range(1, 6):
        assert act(level, fw) == {"type": "flower_win"}


def test_heavenly_ready_is_declared_when_offered():
    obs = make_obs("123m456m789m123p11z4p", seat=1,
                   legal=[{"type": "declare"}, {"type": "pass"}])
    for level in (2, 3, 4, 5):
        assert act(level, obs) == {"type": "declare"}


def test_default_move_passes_or_throws_the_drawn_tile():
    assert default_action({"legal": [{"type": "chi", "tile": "3m", "tiles": "12m"},
                                     {"type": "pass"}]}) == {"type": "pass"}
    obs = make_obs("123m", drawn="9s")
    assert default_action(obs) == {"type": "discard", "tile": "9s"}


# Ready either way after the draw: throw 4z and wait on 5s (three unseen), or
# throw 5s and wait on 4z (two unseen: one is in seat 2's river). Counting
# copies, 5s is the better wait; counting how often each comes out (牌流: the
# others throw honors and keep middle tiles, 2.33 times as often per copy with
# more than 30 tiles to draw), 4z is: 2 × 2.33 = 4.66 against 3.
FLOW_OBS = make_obs("123m456m789m123p456p5s", drawn="4z",
                    discards=[["9m"], ["1s"], ["4z"], ["9p"]], wall_remaining=50)


def test_tile_flow_prefers_the_wait_that_comes_out():
    from twmahjong.bots.arena import EFFICIENCY
    from twmahjong.bots.policy import level_params
    assert PolicyBot(EFFICIENCY, seed=1).act(FLOW_OBS) == {"type": "discard", "tile": "4z"}
    assert act(4, FLOW_OBS) == {"type": "discard", "tile": "4z"}
    no_search = PolicyBot(level_params(5, rollouts=0), seed=1)
    assert no_search.act(FLOW_OBS) == {"type": "discard", "tile": "5s"}


def test_flow_weights_follow_the_measured_classes():
    from twmahjong.bots.policy import _flow_weighted
    from twmahjong.tiles import parse_tiles
    unseen = [2] * 34
    # one copy each: an honor, a terminal, a 2, a middle tile; early, then late
    kinds = parse_tiles("7z9s2m5p")
    assert _flow_weighted(kinds, unseen, 50) == pytest.approx((2.33 + 1.53 + 1.14 + 1.0) * 2)
    assert _flow_weighted(kinds, unseen, 30) == pytest.approx((1.84 + 2.04 + 1.47 + 1.0) * 2)

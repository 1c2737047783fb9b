"""Decisions the rule texts and sound play call for, on hand-made observations."""

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
    for level in (3, 4, 5):
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

"""Rule profiles as data: the shipped values match the rule texts and the brief, and a
user's file is validated key by key with a message that names the key and the file."""

from __future__ import annotations

import pydantic
import pytest

from twmahjong.errors import UserError
from twmahjong.profiles import ProfileError, load_profile, profile_names
from twmahjong.scoring import HandSpec, score


def test_names_default_first():
    assert profile_names() == ["standard", "classic", "casual"]


def test_builtins_are_cached_and_frozen():
    p = load_profile("standard")
    assert load_profile("standard") is p
    with pytest.raises(pydantic.ValidationError):
        p.id = "other"
    with pytest.raises(pydantic.ValidationError):
        p.play.dead_wall = 8


@pytest.mark.parametrize("name, pattern, tai", [
    # spec/scoring.md table, one column per profile
    ("standard", "four_concealed_pungs", 5), ("classic", "four_concealed_pungs", 6),
    ("casual", "four_concealed_pungs", 5),
    ("standard", "five_concealed_pungs", 12), ("classic", "five_concealed_pungs", 16),
    ("casual", "five_concealed_pungs", 8),
    ("standard", "earthly_ready", 6), ("classic", "earthly_ready", 4), ("casual", "earthly_ready", 8),
    ("standard", "heavenly_ready", 8), ("casual", "heavenly_ready", 16),
    ("standard", "full_flush", 12), ("casual", "full_flush", 8),
    ("casual", "heavenly_win", 24), ("classic", "heavenly_ready_first_win", 16),
    ("standard", "flower_set", 2), ("casual", "flower_set", 1),
    ("standard", "dealer_streak", 2),
])
def test_values_from_scoring_md(name, pattern, tai):
    assert load_profile(name).patterns[pattern].tai == tai


@pytest.mark.parametrize("name, absent", [
    ("standard", {"edge_wait", "closed_wait", "pair_wait", "declared_ready", "four_kongs",
                  "heavenly_ready_first_win"}),
    ("classic", {"edge_wait", "closed_wait", "pair_wait", "declared_ready", "four_kongs"}),
    ("casual", {"round_wind", "half_melded", "single_wait", "all_flowers", "ready_first_win",
                "heavenly_ready_first_win", "earthly_win", "lilgu"}),
])
def test_patterns_marked_dash_are_absent(name, absent):
    assert not absent & set(load_profile(name).patterns)


PLAY = {
    "standard": dict(seat_wind_from="wall_break", dead_wall=16, no_claims_last=3,
                     passed_win="until_non_winning_discard",    # 解除過水: 一張非和之牌
                     passed_pon="until_own_discard",
                     multiple_winners="nearest", after_chi_discard="forbidden_same_and_suji",
                     after_pon_discard="forbidden", no_kong_on_upper_discard=False,
                     declare_ready="heavenly_earthly", four_kongs_win=False, rounds=4, min_tai=0,
                     may_decline_last_tile=True,    # 001 item 25: 海底牌得棄摸
                     concealed_kong_after_exposed_kong="forbidden",   # 001 禁制 3
                     declared_hand="may_change",    # 001 items 31-32: 不換牌則保持有效，否則解除
                     reseat_each_game=True),        # 001 搬風: 次將起每將搬風
    "casual": dict(seat_wind_from="dealer", dead_wall=16, no_claims_last=3,
                   passed_win="until_own_draw", passed_pon="until_own_draw",
                   multiple_winners="nearest", after_chi_discard="forfeits_win_same",
                   after_pon_discard="forfeits_win", no_kong_on_upper_discard=True,
                   declare_ready="any_time", four_kongs_win=True, rounds=4, min_tai=0,
                   may_decline_last_tile=False,   # rules/003 is silent
                   concealed_kong_after_exposed_kong="forbidden", declared_hand="locked",
                   reseat_each_game=False),       # 報聽後不可再換牌; one room, seats stay
}
# rules/000 differs in 禁制 3 only: 碰杠補牌之後如接著暗杠補牌不得自摸胡牌 (the 暗槓 is allowed)
PLAY["classic"] = PLAY["standard"] | {"concealed_kong_after_exposed_kong": "no_self_draw"}


@pytest.mark.parametrize("name", ["standard", "classic", "casual"])
def test_play_toggles(name):
    p = load_profile(name)
    assert p.play.model_dump() == PLAY[name]
    assert (p.stakes.base, p.stakes.per_tai, p.stakes.max_tai) == (100, 20, 0)
    assert p.scoring.lilgu is False


def test_settlement_options():
    assert load_profile("casual").settlement.cap_to_carried is True
    assert load_profile("casual").settlement.fee_rate == 0.05
    assert load_profile("standard").settlement.cap_to_carried is False
    assert load_profile("standard").settlement.fee_rate == 0


def test_ping_hu_requirements_are_data():
    assert load_profile("standard").scoring.ping_hu_requires == (
        "five_chows", "no_flowers", "no_honors", "no_pungs", "not_single_wait", "not_self_drawn")
    assert load_profile("casual").scoring.ping_hu_requires == ("five_chows",)


def test_unknown_name_lists_known_ones():
    with pytest.raises(ProfileError, match="unknown profile 'riichi'; known profiles: standard, classic, casual"):
        load_profile("riichi")


def _user(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return str(f)


def test_unknown_key_names_file_and_path(tmp_path):
    f = _user(tmp_path, "casual.toml", 'extends = "casual"\n[play]\ndead_wal = 8\n')
    with pytest.raises(ProfileError) as e:
        load_profile(f)
    assert str(e.value) == "casual.toml: play.dead_wal: unknown key"
    assert isinstance(e.value, UserError)


def test_wrong_type_names_file_and_path(tmp_path):
    f = _user(tmp_path, "house.toml", 'extends = "standard"\n[play]\ndead_wall = "16"\n')
    with pytest.raises(ProfileError, match=r"^house.toml: play.dead_wall: must be an integer, not str$"):
        load_profile(f)


def test_wrong_type_in_pattern(tmp_path):
    f = _user(tmp_path, "house.toml", 'extends = "standard"\n[patterns.all_pungs]\ntai = 4.5\n')
    with pytest.raises(ProfileError, match=r"house.toml: patterns.all_pungs.tai: must be an integer"):
        load_profile(f)


def test_bad_choice_is_named(tmp_path):
    f = _user(tmp_path, "house.toml", 'extends = "standard"\n[play]\npassed_win = "never"\n')
    with pytest.raises(ProfileError, match=r"house.toml: play.passed_win: "):
        load_profile(f)


def test_bad_toml_is_one_line(tmp_path):
    f = _user(tmp_path, "broken.toml", "extends = \n")
    with pytest.raises(ProfileError, match=r"^broken.toml: not valid TOML"):
        load_profile(f)


def test_extends_unknown(tmp_path):
    f = _user(tmp_path, "x.toml", 'extends = "mine"\n')
    with pytest.raises(ProfileError, match="x.toml: extends: unknown profile 'mine'"):
        load_profile(f)


def test_extends_overrides_one_line_only(tmp_path):
    f = _user(tmp_path, "house.toml", 'extends = "casual"\nid = "house"\n[stakes]\nmax_tai = 30\n')
    p = load_profile(f)
    base = load_profile("casual")
    assert (p.id, p.stakes.max_tai, p.stakes.per_tai) == ("house", 30, 20)
    assert p.patterns == base.patterns and p.play == base.play


def test_full_copy_without_extends_loads(tmp_path):
    from importlib import resources
    text = resources.files("twmahjong.profiles").joinpath("classic.toml").read_text(encoding="utf-8")
    p = load_profile(_user(tmp_path, "copy.toml", text.replace("tai = 16 }  # 000 五暗坎", "tai = 20 }  #")))
    assert p.patterns["five_concealed_pungs"].tai == 20


def test_unknown_pattern_id_is_reported_when_scoring(tmp_path):
    f = _user(tmp_path, "house.toml",
              'extends = "standard"\n[patterns.riichi]\nzh = "立直"\nen = "Riichi"\ntai = 1\n')
    hand = HandSpec.from_json({"concealed": "123s456m789m234p66s88s", "win_tile": "8s"})
    with pytest.raises(ProfileError, match="patterns: unknown pattern 'riichi'"):
        score(hand, load_profile(f))


def test_toml_lines_carry_their_source():
    from importlib import resources
    for name in profile_names():
        text = resources.files("twmahjong.profiles").joinpath(f"{name}.toml").read_text(encoding="utf-8")
        for line in text.splitlines():
            s = line.strip()
            if s and not s.startswith(("#", "[")):
                assert "#" in s, f"{name}.toml: no source comment on: {s}"

"""The help page's data: every pattern of every profile, each example valued by the scorer."""

from __future__ import annotations

import pytest

from twmahjong.profiles import load_profile, profile_names
from twmahjong.web.help import EXAMPLES, help_data


@pytest.mark.parametrize("name", profile_names())
def test_every_pattern_is_listed_with_its_tai_and_a_held_example(name):
    profile = load_profile(name)
    data = help_data(profile)
    assert [p["id"] for p in data["patterns"]] == list(profile.patterns)
    for p in data["patterns"]:
        assert p["tai"] == profile.patterns[p["id"]].tai
        ex = p["example"]
        ids = [q["id"] for q in ex["score"].get("patterns", [])]
        if p["id"] == "lilgu" and not profile.scoring.lilgu:
            # 嚦咕嚦咕 is optional (rules/001 item 36): off, the example is no win.
            assert p["enabled"] is False and ex["score"]["winning"] is False
            continue
        assert p["id"] in ids, (name, p["id"], ids)
        assert p["enabled"] is True


def test_values_differ_by_profile_as_scoring_md_says():
    # scoring.md: 地聽 6 standard / 4 classic / 8 casual; 清一色 12 / 12 / 8.
    tai = {n: {p["id"]: p["tai"] for p in help_data(load_profile(n))["patterns"]} for n in profile_names()}
    assert (tai["standard"]["earthly_ready"], tai["classic"]["earthly_ready"], tai["casual"]["earthly_ready"]) == (6, 4, 8)
    assert (tai["standard"]["full_flush"], tai["classic"]["full_flush"], tai["casual"]["full_flush"]) == (12, 12, 8)
    assert "round_wind" not in tai["casual"] and "edge_wait" in tai["casual"]


def test_examples_cover_every_pattern_any_profile_has():
    every = set().union(*(load_profile(n).patterns for n in profile_names()))
    assert every <= set(EXAMPLES)


def test_example_scores_are_the_scorers_own():
    # 清一色 example: 123m 456m 789m 234m 678m + 55m, 門清 on a discard — full flush
    # replaces half flush (scoring.md), so 湊一色 must not appear.
    data = help_data(load_profile("standard"))
    ff = next(p for p in data["patterns"] if p["id"] == "full_flush")
    ids = [q["id"] for q in ff["example"]["score"]["patterns"]]
    assert "full_flush" in ids and "half_flush" not in ids

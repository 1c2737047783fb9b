"""The rules and 台 help page's data (詳細台型圖文說明), valued by the scorer itself.

Every pattern of a profile comes with an example hand; ``help_data`` scores each
example with ``twmahjong.scoring.score`` under that very profile and ships the
scorer's answer with it, so the page in the browser can never disagree with
the scorer. A test checks that every example really holds its pattern.

    >>> from twmahjong.profiles import load_profile
    >>> d = help_data(load_profile("standard"))
    >>> d["patterns"][0]["id"], d["patterns"][0]["tai"]
    ('dealer', 1)
"""

from __future__ import annotations

from typing import Any

from ..profiles import Profile
from ..scoring import HandSpec, score

__all__ = ["EACH", "EXAMPLES", "example_spec", "help_data"]

# Patterns whose 台 count once per occurrence (each 箭字刻, each 花, each 連).
EACH = frozenset({"dealer_streak", "dragon_pung", "seat_flower"})

# A plain ready hand, 123m 456p 789s 345s 67m + 55p, waiting on 5m/8m (兩面).
_PLAIN = "123m456p789s345s67m55p"

# pattern id -> an example hand (formats.md "A hand to score", without the profile).
# Defaults: South seat, East round, not dealer, won on a discard of 8m.
EXAMPLES: dict[str, dict[str, Any]] = {
    "dealer": {"concealed": _PLAIN, "dealer": True, "seat_wind": "E"},
    "dealer_streak": {"concealed": _PLAIN, "dealer": True, "seat_wind": "E", "dealer_streak": 2},
    "self_draw": {"concealed": "456p789s345s67m55p", "melds": [{"type": "chi", "tiles": "123m"}],
                  "self_drawn": True},
    "concealed": {"concealed": _PLAIN},
    "concealed_self_draw": {"concealed": _PLAIN, "self_drawn": True},
    "seat_wind": {"concealed": "123m456p789s222z67m55p"},
    "round_wind": {"concealed": "123m456p789s111z67m55p"},
    "dragon_pung": {"concealed": "123m456p789s777z67m55p"},
    "all_pungs": {"concealed": "222s555s88m77p",
                  "melds": [{"type": "pon", "tiles": "111m"}, {"type": "pon", "tiles": "999p"}]},
    "ping_hu": {"concealed": _PLAIN},
    "all_melded": {"concealed": "5p", "win_tile": "5p",
                   "melds": [{"type": "chi", "tiles": t} for t in ("123m", "456p", "789s", "345s", "678m")]},
    "half_melded": {"concealed": "5p", "win_tile": "5p", "self_drawn": True,
                    "melds": [{"type": "chi", "tiles": t} for t in ("123m", "456p", "789s", "345s", "678m")]},
    "single_wait": {"concealed": "123m456p789s345s68m55p", "win_tile": "7m"},
    "edge_wait": {"concealed": "123m456p789s345s12m55p", "win_tile": "3m"},
    "closed_wait": {"concealed": "123m456p789s345s68m55p", "win_tile": "7m"},
    "pair_wait": {"concealed": "123m456p789s345s678m9p", "win_tile": "9p"},
    "robbing_kong": {"concealed": _PLAIN, "conditions": ["robbing_kong"]},
    "kong_bloom": {"concealed": "123m456p345s67m55p", "self_drawn": True, "conditions": ["kong_bloom"],
                   "melds": [{"type": "concealed_kong", "tiles": "9999s"}]},
    "last_tile": {"concealed": _PLAIN, "self_drawn": True, "conditions": ["last_tile"]},
    "seat_flower": {"concealed": _PLAIN, "flowers": "2f"},
    "flower_set": {"concealed": _PLAIN, "flowers": "1234f"},
    "all_flowers": {"concealed": _PLAIN, "flowers": "12345678f"},
    "three_concealed_pungs": {"concealed": "111m999p222s345s67m55p"},
    "four_concealed_pungs": {"concealed": "111m999p222s555s67m55p"},
    "five_concealed_pungs": {"concealed": "111m999p222s555s888m5p", "win_tile": "5p"},
    "half_flush": {"concealed": "123m456m789m111z67m22z"},
    "full_flush": {"concealed": "123m456m789m234m67m55m"},
    "all_honors": {"concealed": "111z222z333z555z66z77z", "win_tile": "6z"},
    "little_three_dragons": {"concealed": "555z666z123m456p78s77z", "win_tile": "9s"},
    "big_three_dragons": {"concealed": "555z666z777z123m67p55p", "win_tile": "8p"},
    "little_four_winds": {"concealed": "111z222z333z123m45p44z", "win_tile": "6p"},
    "big_four_winds": {"concealed": "111z222z333z444z12m55p", "win_tile": "3m"},
    "declared_ready": {"concealed": _PLAIN, "conditions": ["declared_ready"]},
    "four_kongs": {"concealed": "67m55p",
                   "melds": [{"type": "kong", "tiles": "1111m"}, {"type": "kong", "tiles": "9999p"},
                             {"type": "kong", "tiles": "2222s"}, {"type": "concealed_kong", "tiles": "5555s"}]},
    "heavenly_ready": {"concealed": _PLAIN, "conditions": ["heavenly_ready"]},
    "earthly_ready": {"concealed": _PLAIN, "conditions": ["earthly_ready"]},
    "ready_first_win": {"concealed": _PLAIN, "conditions": ["ready_first_win"]},
    "heavenly_ready_first_win": {"concealed": _PLAIN, "conditions": ["heavenly_ready_first_win"]},
    "heavenly_win": {"concealed": _PLAIN, "dealer": True, "seat_wind": "E", "self_drawn": True,
                     "conditions": ["heavenly_win"]},
    "earthly_win": {"concealed": _PLAIN, "self_drawn": True, "conditions": ["earthly_win"]},
    "eight_immortals": {"concealed": _PLAIN, "flowers": "12345678f", "self_drawn": True,
                        "conditions": ["eight_immortals"]},
    "seven_rob_one": {"concealed": _PLAIN, "flowers": "12345678f", "conditions": ["seven_rob_one"]},
    "lilgu": {"concealed": "11m22m44p55p66s88s1z555z", "win_tile": "1z"},
}

_DEFAULTS = {"melds": [], "flowers": "", "win_tile": "8m", "self_drawn": False, "seat_wind": "S",
             "round_wind": "E", "dealer": False, "dealer_streak": 0, "conditions": []}


def example_spec(pattern_id: str) -> dict[str, Any]:
    """The full formats.md hand of a pattern's example."""
    return {**_DEFAULTS, **EXAMPLES[pattern_id]}


def help_data(profile: Profile) -> dict[str, Any]:
    """Every pattern of ``profile`` with its 台 and an example the scorer valued.

    A pattern the profile switches off (嚦咕嚦咕 when ``scoring.lilgu`` is false)
    is listed with ``enabled: false`` and its example's score, which then shows
    it not counting — the page says so rather than hiding the pattern."""
    out = []
    for pid, pdef in profile.patterns.items():
        entry: dict[str, Any] = {"id": pid, "zh": pdef.zh, "en": pdef.en, "tai": pdef.tai,
                                 "each": pid in EACH}
        if pid in EXAMPLES:
            spec = example_spec(pid)
            result = score(HandSpec.from_json(spec), profile).to_json()
            entry["example"] = {**spec, "score": result}
            entry["enabled"] = any(p["id"] == pid for p in result.get("patterns", []))
        out.append(entry)
    return {"profile": {"id": profile.id, "name_zh": profile.name_zh, "name_en": profile.name_en},
            "patterns": out}

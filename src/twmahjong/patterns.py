"""The 台 pattern catalogue (計台名堂): one small condition per pattern id.

A condition looks at the ``Facts`` of one *reading* of a winning hand — a split
into sets with the winning tile placed in one of them — and says how many times
the pattern holds (0 = not at all; 箭字刻 and 花牌 count each). Values, exclusions
and requirements are not here: they are profile data (``profiles/*.toml``), so the
same condition serves every rule list.

Each pattern belongs to a ``GROUPS`` entry that names every fact its condition
reads. Most groups read only facts that every ordinary reading of a hand shares
(the dealer, the flowers, the honor pungs — honors never form chows, so an honor
pung is a pung in every split): the scorer asks them once per family of readings
(ordinary, 嚦咕嚦咕, bare flower win) and remembers, per profile, the answer for
those facts, so a group costs a lookup. Only the ``reading`` group (how many pungs,
which are concealed, the wait's shape) is asked for every reading. The slow,
one-object-per-reading form of the same catalogue lives in ``scoring_reference``;
the tests hold the two to the same answers and each condition to its group's facts.

    >>> [p.id for p in CATALOGUE][:3]
    ['dealer', 'dealer_streak', 'self_draw']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .tiles import DRAGONS, WINDS

__all__ = ["Facts", "Pattern", "CATALOGUE", "GROUPS", "GATED", "PER_READING", "PATTERN_IDS",
           "REQUIREMENTS", "CONDITIONS"]

# Condition names a hand may carry (formats.md); each is also the id of its pattern.
CONDITIONS = frozenset({
    "last_tile", "kong_bloom", "robbing_kong", "heavenly_ready", "earthly_ready",
    "ready_first_win", "heavenly_ready_first_win", "heavenly_win", "earthly_win",
    "declared_ready", "eight_immortals", "seven_rob_one",
})

DRAGON_BITS = sum(1 << k for k in DRAGONS)
WIND_BITS = sum(1 << k for k in WINDS)
_FLOWER_SETS = (frozenset(range(34, 38)), frozenset(range(38, 42)))   # 春夏秋冬, 梅蘭菊竹


class Facts:
    """What the conditions read about one reading; the scorer fills one per hand and
    rewrites only the per-reading fields between readings (no object per reading).

    Hand-wide: ``dealer`` ``dealer_streak`` ``self_drawn`` (槓上開花 and 海底 included)
    ``seat_wind`` ``round_wind`` (0-3) ``conditions`` ``flowers`` (kinds 34-41)
    ``one_tile_left`` (one concealed tile before winning) ``exposed_only`` (melds
    exist, none a 暗槓) ``no_exposed`` (門清; 暗槓 allowed) ``single_wait`` (獨聽)
    ``suits`` (how many of 萬筒條 the tiles use) ``has_honor`` ``flower_set_mode``
    ``ping_hu_requires``. Per family of readings (ordinary / 嚦咕嚦咕 / a bare flower
    or four-kong win): ``complete``, ``five_sets``, ``honor_pungs`` (bit k for an
    honor kind k held as a pung or kong), ``honor_pair`` (the pair's kind when it is
    an honor, else -1), ``kongs``, ``lilgu`` (read as seven pairs and a pung). Per
    reading: ``pungs``, ``concealed_pungs``, ``shape`` (edge closed single open
    double_pung; None without a winning tile)."""

    __slots__ = ("dealer", "dealer_streak", "self_drawn", "seat_wind", "round_wind",
                 "conditions", "flowers", "one_tile_left", "exposed_only", "no_exposed",
                 "single_wait", "suits", "has_honor", "flower_set_mode", "ping_hu_requires",
                 "complete", "five_sets", "honor_pungs", "honor_pair", "kongs",
                 "pungs", "concealed_pungs", "shape", "lilgu")

    dealer: bool
    dealer_streak: int
    self_drawn: bool
    seat_wind: int
    round_wind: int
    conditions: frozenset[str]
    flowers: frozenset[int]
    one_tile_left: bool
    exposed_only: bool
    no_exposed: bool
    single_wait: bool
    suits: int
    has_honor: bool
    flower_set_mode: str
    ping_hu_requires: tuple[str, ...]
    complete: bool
    five_sets: bool
    honor_pungs: int
    honor_pair: int
    kongs: int
    pungs: int
    concealed_pungs: int
    shape: str | None
    lilgu: bool


# The facts each group's conditions read. A group whose first fact (its gate) is
# empty holds nothing — no flowers, no 花牌 — and is skipped whole; the others are
# answered from a per-profile memo keyed on the group's facts.
GROUPS: dict[str, tuple[str, ...]] = {
    "dealer": ("dealer", "dealer_streak"),
    "honors": ("honor_pungs", "honor_pair", "seat_wind", "round_wind"),
    "flowers": ("flowers", "seat_wind", "flower_set_mode"),
    "conditions": ("conditions", "flowers"),
    "hand": ("self_drawn", "no_exposed", "complete", "one_tile_left", "exposed_only",
             "single_wait", "suits", "has_honor", "kongs", "lilgu"),
    "reading": ("pungs", "concealed_pungs", "shape", "five_sets", "complete", "flowers",
                "has_honor", "single_wait", "self_drawn", "ping_hu_requires"),
}
GATED = frozenset({"dealer", "honors", "flowers", "conditions"})
PER_READING = "reading"


@dataclass(frozen=True)
class Pattern:
    """A pattern id, its condition — how many times it holds (a bool counts 0 or 1)
    — and the ``GROUPS`` entry naming the facts the condition reads."""
    id: str
    count: Callable[[Facts], int]
    group: str


def _flower_sets(f: Facts) -> int:
    """Complete 花槓 sets held: 春夏秋冬 (1f-4f) and 梅蘭菊竹 (5f-8f)."""
    return sum(1 for s in _FLOWER_SETS if s <= f.flowers)


def _seat_flowers(f: Facts) -> int:
    mine = {34 + f.seat_wind, 38 + f.seat_wind} & f.flowers
    if f.flower_set_mode == "replace":
        for s in _FLOWER_SETS:
            if s <= f.flowers:
                mine -= s
    return len(mine)


def _dragon_pungs(f: Facts) -> int:
    return (f.honor_pungs & DRAGON_BITS).bit_count()


def _wind_pungs(f: Facts) -> int:
    return (f.honor_pungs & WIND_BITS).bit_count()


def _cond(name: str) -> Callable[[Facts], int]:
    return lambda f: name in f.conditions


def _all_eight(name: str) -> Callable[[Facts], int]:
    return lambda f: name in f.conditions and len(f.flowers) == 8


# Requirements a profile may list for 平胡 (scoring.ping_hu_requires).
REQUIREMENTS: dict[str, Callable[[Facts], bool]] = {
    "five_chows": lambda f: f.five_sets and not f.pungs,
    "no_flowers": lambda f: not f.flowers,
    "no_honors": lambda f: not f.has_honor,
    "no_pungs": lambda f: not f.pungs,
    "not_single_wait": lambda f: not f.single_wait,
    "not_self_drawn": lambda f: not f.self_drawn,
}


def _ping_hu(f: Facts) -> int:
    """平胡: every requirement the profile lists (rules/001 item 7 asks six, rules/003 one)."""
    return f.complete and all(REQUIREMENTS[name](f) for name in f.ping_hu_requires)


_D, _H, _F, _C, _N, _R = "dealer", "honors", "flowers", "conditions", "hand", "reading"

# The catalogue, in the order the answer lists patterns.
CATALOGUE: tuple[Pattern, ...] = (
    Pattern("dealer", lambda f: f.dealer, _D),                                    # 作莊
    Pattern("dealer_streak", lambda f: f.dealer_streak if f.dealer else 0, _D),   # 連N拉N
    Pattern("self_draw", lambda f: f.self_drawn, _N),                             # 自摸
    Pattern("concealed", lambda f: f.no_exposed, _N),                             # 門清
    Pattern("concealed_self_draw", lambda f: f.self_drawn and f.no_exposed, _N),  # 不求自摸
    Pattern("seat_wind", lambda f: f.honor_pungs >> WINDS[f.seat_wind] & 1, _H),  # 門風刻
    Pattern("round_wind", lambda f: f.honor_pungs >> WINDS[f.round_wind] & 1, _H),  # 圈風刻
    Pattern("dragon_pung", _dragon_pungs, _H),                                    # 箭字刻, each
    Pattern("all_pungs", lambda f: f.five_sets and f.pungs == 5, _R),             # 對對胡
    Pattern("ping_hu", _ping_hu, _R),                                             # 平胡
    Pattern("all_melded", lambda f: f.complete and f.one_tile_left and f.exposed_only
            and not f.self_drawn, _N),                                            # 全求
    Pattern("half_melded", lambda f: f.complete and f.one_tile_left and f.exposed_only
            and f.self_drawn, _N),                                                # 半求
    Pattern("single_wait", lambda f: f.complete and f.single_wait, _N),           # 獨聽
    Pattern("edge_wait", lambda f: f.shape == "edge", _R),                        # 邊張
    Pattern("closed_wait", lambda f: f.shape == "closed", _R),                    # 中洞
    Pattern("pair_wait", lambda f: f.shape == "single", _R),                      # 單吊
    Pattern("robbing_kong", _cond("robbing_kong"), _C),                           # 搶槓
    Pattern("kong_bloom", _cond("kong_bloom"), _C),                               # 槓上開花
    Pattern("last_tile", _cond("last_tile"), _C),                                 # 海底撈月
    Pattern("declared_ready", _cond("declared_ready"), _C),                       # 報聽
    Pattern("seat_flower", _seat_flowers, _F),                                    # 花牌, each
    Pattern("flower_set", _flower_sets, _F),                                      # 花槓, each set
    Pattern("all_flowers", lambda f: len(f.flowers) == 8, _F),                    # 滿花
    Pattern("three_concealed_pungs", lambda f: f.concealed_pungs >= 3, _R),       # 三暗刻
    Pattern("four_concealed_pungs", lambda f: f.concealed_pungs >= 4, _R),        # 四暗刻
    Pattern("five_concealed_pungs", lambda f: f.concealed_pungs >= 5, _R),        # 五暗刻
    Pattern("half_flush", lambda f: f.complete and f.suits == 1, _N),             # 湊一色
    Pattern("full_flush", lambda f: f.complete and f.suits == 1 and not f.has_honor, _N),  # 清一色
    Pattern("all_honors", lambda f: f.complete and not f.suits, _N),              # 字一色
    Pattern("little_three_dragons",                                               # 小三元
            lambda f: _dragon_pungs(f) == 2 and f.honor_pair in DRAGONS, _H),
    Pattern("big_three_dragons", lambda f: _dragon_pungs(f) == 3, _H),            # 大三元
    Pattern("little_four_winds",                                                  # 小四喜
            lambda f: _wind_pungs(f) == 3 and f.honor_pair in WINDS, _H),
    Pattern("big_four_winds", lambda f: _wind_pungs(f) == 4, _H),                 # 大四喜
    Pattern("four_kongs", lambda f: f.kongs == 4, _N),                            # 四槓
    Pattern("heavenly_ready", _cond("heavenly_ready"), _C),                       # 天聽
    Pattern("earthly_ready", _cond("earthly_ready"), _C),                         # 地聽
    Pattern("ready_first_win", _cond("ready_first_win"), _C),                     # 人和 / 地聽一發
    Pattern("heavenly_ready_first_win", _cond("heavenly_ready_first_win"), _C),   # 人胡
    Pattern("heavenly_win", _cond("heavenly_win"), _C),                           # 天胡
    Pattern("earthly_win", _cond("earthly_win"), _C),                             # 地胡
    Pattern("eight_immortals", _all_eight("eight_immortals"), _C),                # 八仙過海
    Pattern("seven_rob_one", _all_eight("seven_rob_one"), _C),                    # 七搶一
    Pattern("lilgu", lambda f: f.lilgu, _N),                                      # 嚦咕嚦咕
)

PATTERN_IDS = frozenset(p.id for p in CATALOGUE)

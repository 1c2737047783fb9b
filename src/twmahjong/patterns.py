"""The 台 pattern catalogue (計台名堂): one small condition per pattern id.

A condition looks at one *reading* of a winning hand — a split into sets with the
winning tile placed in one of them — and says how many times the pattern holds
(0 = not at all; 箭字刻 and 花牌 count each). Values, exclusions and requirements
are not here: they are profile data (``profiles/*.toml``), so the same condition
serves every rule list.

    >>> [p.id for p in CATALOGUE][:3]
    ['dealer', 'dealer_streak', 'self_draw']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .tiles import DRAGONS, WINDS, is_honor, seat_flowers

__all__ = ["SetInfo", "Reading", "Pattern", "CATALOGUE", "PATTERN_IDS", "REQUIREMENTS",
           "CONDITIONS"]

# Condition names a hand may carry (formats.md); each is also the id of its pattern.
CONDITIONS = frozenset({
    "last_tile", "kong_bloom", "robbing_kong", "heavenly_ready", "earthly_ready",
    "ready_first_win", "heavenly_ready_first_win", "heavenly_win", "earthly_win",
    "declared_ready", "eight_immortals", "seven_rob_one",
})


@dataclass(frozen=True)
class SetInfo:
    """One set of a reading. ``concealed`` is 暗: a pung completed by a discard is not."""
    kind: str            # "chow" | "pung"
    tile: int            # lowest kind of a chow, the kind of a pung
    concealed: bool
    kong: bool = False
    meld: bool = False   # declared on the table (吃碰槓, including 暗槓)


@dataclass(frozen=True)
class Reading:
    """One way to read the hand, plus the facts about the hand every condition needs."""
    sets: tuple[SetInfo, ...]
    pair: int | None            # None for an incomplete (flower) win
    pairs: tuple[int, ...]      # the seven pairs of a 嚦咕嚦咕 reading, else ()
    shape: str | None           # where the winning tile sits: edge closed single open double_pung
    kinds: tuple[int, ...]      # every non-flower tile: concealed + win + melds
    flowers: frozenset[int]
    self_drawn: bool
    seat_wind: int              # 0-3
    round_wind: int             # 0-3
    dealer: bool
    dealer_streak: int
    conditions: frozenset[str]
    one_tile_left: bool         # the hand held one concealed tile before winning
    exposed_only: bool          # melds exist and every one is 吃碰外露 (no 暗槓)
    no_exposed: bool            # no chi, pon or exposed kong (門清; 暗槓 allowed)
    single_wait: bool           # 獨聽: the 16-tile hand waits on exactly one kind
    flower_set_mode: str        # "replace" | "add"
    ping_hu_requires: tuple[str, ...]
    complete: bool

    @property
    def pungs(self) -> tuple[SetInfo, ...]:
        return tuple(s for s in self.sets if s.kind == "pung")

    def pung_of(self, kind: int) -> bool:
        return any(s.kind == "pung" and s.tile == kind for s in self.sets)


@dataclass(frozen=True)
class Pattern:
    id: str
    count: Callable[[Reading], int]


def _flag(cond: bool) -> int:
    return 1 if cond else 0


def _five_sets(r: Reading) -> bool:
    return r.complete and not r.pairs and len(r.sets) == 5


def _concealed_pungs(r: Reading) -> int:
    return sum(1 for s in r.pungs if s.concealed)


def _flower_sets(r: Reading) -> list[frozenset[int]]:
    """Complete 花槓 sets held: 春夏秋冬 (1f-4f) and 梅蘭菊竹 (5f-8f)."""
    sets = (frozenset(range(34, 38)), frozenset(range(38, 42)))
    return [s for s in sets if s <= r.flowers]


def _seat_flowers(r: Reading) -> int:
    mine = set(seat_flowers(r.seat_wind)) & r.flowers
    if r.flower_set_mode == "replace":
        for s in _flower_sets(r):
            mine -= s
    return len(mine)


def _suits(r: Reading) -> set[int]:
    return {k // 9 for k in r.kinds if k < 27}


def _has_honor(r: Reading) -> bool:
    return any(is_honor(k) for k in r.kinds)


def _dragon_pungs(r: Reading) -> int:
    return sum(1 for d in DRAGONS if r.pung_of(d))


def _wind_pungs(r: Reading) -> int:
    return sum(1 for w in WINDS if r.pung_of(w))


def _cond(name: str) -> Callable[[Reading], int]:
    return lambda r: _flag(name in r.conditions)


def _all_eight(name: str) -> Callable[[Reading], int]:
    return lambda r: _flag(name in r.conditions and len(r.flowers) == 8)


def _concealed_self_draw(r: Reading) -> int:
    return _flag(r.self_drawn and r.no_exposed)


# Requirements a profile may list for 平胡 (scoring.ping_hu_requires).
REQUIREMENTS: dict[str, Callable[[Reading], bool]] = {
    "five_chows": lambda r: _five_sets(r) and all(s.kind == "chow" for s in r.sets),
    "no_flowers": lambda r: not r.flowers,
    "no_honors": lambda r: not _has_honor(r),
    "no_pungs": lambda r: not r.pungs,
    "not_single_wait": lambda r: not r.single_wait,
    "not_self_drawn": lambda r: not r.self_drawn,
}


def _ping_hu(r: Reading) -> int:
    """平胡: every requirement the profile lists (rules/001 item 7 asks six, rules/003 one)."""
    return _flag(r.complete and all(REQUIREMENTS[name](r) for name in r.ping_hu_requires))


# The catalogue, in the order the answer lists patterns.
CATALOGUE: tuple[Pattern, ...] = (
    Pattern("dealer", lambda r: _flag(r.dealer)),                       # 作莊
    Pattern("dealer_streak", lambda r: r.dealer_streak if r.dealer else 0),  # 連N拉N
    Pattern("self_draw", lambda r: _flag(r.self_drawn)),                 # 自摸
    Pattern("concealed", lambda r: _flag(r.no_exposed)),                 # 門清
    Pattern("concealed_self_draw", _concealed_self_draw),                # 不求自摸
    Pattern("seat_wind", lambda r: _flag(r.pung_of(WINDS[r.seat_wind]))),    # 門風刻
    Pattern("round_wind", lambda r: _flag(r.pung_of(WINDS[r.round_wind]))),  # 圈風刻
    Pattern("dragon_pung", _dragon_pungs),                               # 箭字刻, each
    Pattern("all_pungs", lambda r: _flag(_five_sets(r) and len(r.pungs) == 5)),  # 對對胡
    Pattern("ping_hu", _ping_hu),                                        # 平胡
    Pattern("all_melded", lambda r: _flag(r.complete and r.one_tile_left and r.exposed_only
                                          and not r.self_drawn)),       # 全求
    Pattern("half_melded", lambda r: _flag(r.complete and r.one_tile_left and r.exposed_only
                                           and r.self_drawn)),          # 半求
    Pattern("single_wait", lambda r: _flag(r.complete and r.single_wait)),   # 獨聽
    Pattern("edge_wait", lambda r: _flag(r.shape == "edge")),            # 邊張
    Pattern("closed_wait", lambda r: _flag(r.shape == "closed")),        # 中洞
    Pattern("pair_wait", lambda r: _flag(r.shape == "single")),          # 單吊
    Pattern("robbing_kong", _cond("robbing_kong")),                      # 搶槓
    Pattern("kong_bloom", _cond("kong_bloom")),                          # 槓上開花
    Pattern("last_tile", _cond("last_tile")),                            # 海底撈月
    Pattern("declared_ready", _cond("declared_ready")),                  # 報聽
    Pattern("seat_flower", _seat_flowers),                               # 花牌, each
    Pattern("flower_set", lambda r: len(_flower_sets(r))),               # 花槓, each set
    Pattern("all_flowers", lambda r: _flag(len(r.flowers) == 8)),        # 滿花
    Pattern("three_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 3)),  # 三暗刻
    Pattern("four_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 4)),   # 四暗刻
    Pattern("five_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 5)),   # 五暗刻
    Pattern("half_flush", lambda r: _flag(r.complete and len(_suits(r)) == 1)),   # 湊一色
    Pattern("full_flush", lambda r: _flag(r.complete and len(_suits(r)) == 1
                                          and not _has_honor(r))),      # 清一色
    Pattern("all_honors", lambda r: _flag(r.complete and not _suits(r))),   # 字一色
    Pattern("little_three_dragons", lambda r: _flag(_dragon_pungs(r) == 2 and r.pair in DRAGONS)),
    Pattern("big_three_dragons", lambda r: _flag(_dragon_pungs(r) == 3)),   # 大三元
    Pattern("little_four_winds", lambda r: _flag(_wind_pungs(r) == 3 and r.pair in WINDS)),
    Pattern("big_four_winds", lambda r: _flag(_wind_pungs(r) == 4)),        # 大四喜
    Pattern("four_kongs", lambda r: _flag(sum(1 for s in r.sets if s.kong) == 4)),  # 四槓
    Pattern("heavenly_ready", _cond("heavenly_ready")),                  # 天聽
    Pattern("earthly_ready", _cond("earthly_ready")),                    # 地聽
    Pattern("ready_first_win", _cond("ready_first_win")),                # 人和 / 地聽一發
    Pattern("heavenly_ready_first_win", _cond("heavenly_ready_first_win")),  # 人胡 (天聽一發)
    Pattern("heavenly_win", _cond("heavenly_win")),                      # 天胡
    Pattern("earthly_win", _cond("earthly_win")),                        # 地胡
    Pattern("eight_immortals", _all_eight("eight_immortals")),           # 八仙過海
    Pattern("seven_rob_one", _all_eight("seven_rob_one")),               # 七搶一
    Pattern("lilgu", lambda r: _flag(bool(r.pairs))),                    # 嚦咕嚦咕
)

PATTERN_IDS = frozenset(p.id for p in CATALOGUE)

"""The table rules one hand obeys, read once from the profile (玩法).

The engine never asks which profile it runs; it asks these fields. A ``TableRules``
can also be made directly, which lets tests pin one rule at a time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..profiles import Profile

__all__ = ["TableRules"]


@dataclass(frozen=True, slots=True)
class TableRules:
    seat_wind_from: str = "wall_break"
    dead_wall: int = 16
    no_claims_last: int = 3
    passed_win: str = "until_own_discard"
    passed_pon: str = "until_own_discard"
    multiple_winners: str = "nearest"
    after_chi_discard: str = "forbidden_same_and_suji"
    after_pon_discard: str = "forbidden"
    no_kong_on_upper_discard: bool = False
    declare_ready: str = "heavenly_earthly"
    four_kongs_win: bool = False
    lilgu: bool = False
    # 人胡 (天聽一發, rules/000) exists as its own pattern in some profiles; where it
    # does, a 天聽 hand winning on a first discard is that, else 地胡 (rules/001 item 34).
    heavenly_ready_first_win: bool = False
    # 海底牌得棄摸 (rules/001 item 25, rules/000 海底撈月): the seat due to draw the last
    # drawable tile is asked first and may decline it, which ends the hand drawn.
    may_decline_last_tile: bool = False
    min_tai: int = 0                    # 起胡台數: a win below it is not offered
    # 行牌禁制 3: after a 碰槓, "forbidden" (001: no 暗槓) or "no_self_draw" (000: the
    # 暗槓 is made but its replacement, like the 碰槓's, may not 自摸)
    concealed_kong_after_exposed_kong: str = "forbidden"
    # "locked" (003 報聽後不可再換牌) or "may_change" (000/001: changing voids the declaration)
    declared_hand: str = "locked"

    @classmethod
    def from_profile(cls, profile: Profile) -> TableRules:
        p = profile.play
        return cls(
            seat_wind_from=p.seat_wind_from, dead_wall=p.dead_wall, no_claims_last=p.no_claims_last,
            passed_win=p.passed_win, passed_pon=p.passed_pon, multiple_winners=p.multiple_winners,
            after_chi_discard=p.after_chi_discard, after_pon_discard=p.after_pon_discard,
            no_kong_on_upper_discard=p.no_kong_on_upper_discard, declare_ready=p.declare_ready,
            four_kongs_win=p.four_kongs_win, lilgu=profile.scoring.lilgu,
            heavenly_ready_first_win="heavenly_ready_first_win" in profile.patterns,
            may_decline_last_tile=p.may_decline_last_tile, min_tai=p.min_tai,
            concealed_kong_after_exposed_kong=p.concealed_kong_after_exposed_kong,
            declared_hand=p.declared_hand,
        )

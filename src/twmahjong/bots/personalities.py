"""The sixteen opponents of the challenge mode (挑戰賽): named parameter sets.

Each personality is a level (its tier) plus a few changed weights, so it plays
recognisably — the 碰碰 uncle claims everything, the 清一色 collector throws off
other suits, the 鐵壁 auntie folds at the first sign of danger — while its
strength stays near its tier's level.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Unpack, cast

from .policy import LEVELS, ParamChanges, Params

__all__ = ["PERSONALITIES", "Personality", "by_tier", "get_personality"]


@dataclass(frozen=True)
class Personality:
    id: str
    zh: str
    en: str
    description: str           # one line, English
    description_zh: str        # the same line in zh-TW
    tier: int                  # 1-5, the challenge-mode ladder
    changes: tuple[tuple[str, object], ...]

    @property
    def params(self) -> Params:
        return replace(LEVELS[self.tier], **cast(ParamChanges, dict(self.changes)))


def _p(id_: str, zh: str, en: str, desc: str, desc_zh: str, tier: int,
       **changes: Unpack[ParamChanges]) -> Personality:
    return Personality(id_, zh, en, desc, desc_zh, tier, tuple(sorted(changes.items())))


PERSONALITIES: tuple[Personality, ...] = (
    # tier 1 — beginners
    _p("newbie", "阿呆", "Newbie", "Plays whatever looks closest to a hand; throws carelessly.",
       "看哪張像就留哪張，出牌隨便。", 1),
    _p("pon_uncle", "碰碰伯", "Pon Uncle", "Claims every pung he can, whatever it costs.",
       "能碰就碰，不管代價。", 1, claim_bias=1.5, chi=True),
    _p("dreamer", "做夢妹", "Dreamer", "Dreams of 清一色 from the first tile and rarely gets there.",
       "第一張牌就夢想清一色，很少做成。", 1, flush_bias=3.0, value=1.0, noise=0.2),
    # tier 2 — plain efficiency
    _p("counter", "算牌仔", "Tile Counter", "Counts useful tiles and nothing else.",
       "只算有效牌，其他都不管。", 2),
    _p("chi_fan", "吃吃樂", "Chow Lover", "Chows at every chance to speed the hand up.",
       "有吃就吃，只求快點聽牌。", 2, claim_bias=1.0),
    _p("hermit", "悶聲仔", "Hermit", "Rarely claims; plays a closed hand and hopes to self-draw.",
       "很少吃碰，守著門清等自摸。", 2, chi=False, claim_bias=-3.0, declare_waits=4),
    # tier 3 — value-aware
    _p("collector", "清一色達人", "Flush Collector", "Chases one-suit hands and gives up other suits early.",
       "專做一色，早早丟掉別門的牌。", 3, flush_bias=2.2),
    _p("dragon_lord", "三元公", "Dragon Lord", "Hoards 中發白 and pungs them for 台.",
       "囤中發白，碰出來賺台。", 3, honor_bias=2.0),
    _p("gambler", "賭神", "Gambler", "Pushes every hand to the end and ignores danger.",
       "每把都拚到底，不看危險牌。", 3, defence=0.0, fold=0.0, claim_bias=0.1, declare_waits=3),
    _p("purist", "門清師", "Purist", "Keeps the hand concealed for 門清 and 不求.",
       "堅持門清，等門清與不求自摸。", 3, concealed_bias=2.0, claim_bias=-0.5),
    # tier 4 — full heuristics
    _p("iron_wall", "鐵壁姨", "Iron Wall", "Folds at the first sign of a ready player; rarely deals in.",
       "有人像聽牌就棄胡，很少放槍。", 4, defence=1.5, fold=2.5, fold_threat=0.5, tie_margin=1.5),
    _p("shark", "老鯊", "Shark", "Balanced and patient; punishes careless discards.",
       "攻守平衡有耐心，專抓亂打的牌。", 4),
    _p("speedster", "快手", "Speedster", "Claims for speed and wins small, often.",
       "吃碰求快，小胡常胡。", 4, claim_bias=0.6, concealed_bias=0.5, flush_bias=0.6),
    # tier 5 — search
    _p("master", "雀聖", "Mahjong Saint", "Reads the table and searches ahead; the strongest player.",
       "讀牌又算牌，全桌最強。", 5),
    _p("big_hunter", "大牌獵人", "Big Game Hunter", "Searches for big hands and turns down cheap wins early.",
       "專找大牌，早巡不胡小牌。", 5, flush_bias=1.6, honor_bias=1.5, min_tai_discard_win=2),
    _p("fortress", "不動城", "Fortress", "Search plus the tightest defence at the table.",
       "會算牌，防守全桌最緊。", 5, defence=1.4, fold=2.2, fold_threat=0.6, tie_margin=1.0),
)

_BY_ID = {p.id: p for p in PERSONALITIES}


def get_personality(pid: str) -> Personality | None:
    return _BY_ID.get(pid)


def by_tier(tier: int) -> list[Personality]:
    return [p for p in PERSONALITIES if p.tier == tier]

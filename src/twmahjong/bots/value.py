"""Hand value (台數潛力): which 台 patterns the hand can still reach.

A fast estimate, not the scorer: the bot asks it hundreds of times per game and
needs only the patterns that change decisions —

* 門清 (concealed) and 不求自摸: lost by any chi/pon/碰槓 — a claim must buy
  more than that;
* 清一色 / 湊一色 (full / half flush): the share of tiles in the best suit says
  whether chasing is realistic, and which discards keep the chase alive;
* 箭字刻, 門風刻, 圈風刻: a pair of 中發白 or of one's own winds is a 台 waiting
  for a third copy;
* 作莊 / 連莊: the dealer's 台 ride on every hand the dealer wins or loses.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tiles import DRAGONS, EAST
from .view import View

__all__ = ["HandShape", "estimate_tai", "shape_of", "valued_honors"]


@dataclass(frozen=True)
class HandShape:
    """The flush picture of concealed + melded tiles."""
    best_suit: int          # 0-2 萬筒條
    in_suit: int            # tiles of best_suit (melds included)
    honors: int             # honor tiles (melds included)
    off_suit: int           # tiles of the other two suits
    open_off_suit: bool     # a meld outside best_suit and honors: no flush possible

    @property
    def flush_reach(self) -> float:
        """0-1: how close the hand is to a one-suit hand (湊一色 or better)."""
        total = self.in_suit + self.honors + self.off_suit
        if self.open_off_suit or total == 0:
            return 0.0
        return (self.in_suit + self.honors) / total


def shape_of(view: View) -> HandShape:
    per = [0, 0, 0]
    honors = 0
    for k in range(34):
        n = view.counts[k]
        if not n:
            continue
        if k >= 27:
            honors += n
        else:
            per[k // 9] += n
    melded_suits = set()
    for m in view.my_melds:
        for k in m.kinds:
            if k >= 27:
                honors += 1
            else:
                per[k // 9] += 1
                melded_suits.add(k // 9)
    best = max(range(3), key=lambda s: (per[s], -s))
    return HandShape(best, per[best], honors, sum(per) - per[best],
                     bool(melded_suits - {best}))


def valued_honors(view: View) -> set[int]:
    """Honor kinds whose pung scores: 中發白, the seat's wind, the round's wind."""
    out = set(DRAGONS)
    out.add(EAST + view.seat_winds[view.seat])
    out.add(EAST + view.round_wind)
    return out


def estimate_tai(view: View, *, self_drawn: bool | None = None) -> int:
    """台 the hand would score if it completed now, roughly (no split search)."""
    tai = 0
    concealed = view.concealed_hand
    sd = self_drawn if self_drawn is not None else False
    if concealed:
        tai += 2 if sd else 1
    elif sd:
        tai += 1
    if view.seat == view.dealer:
        tai += 1 + 2 * view.dealer_streak
    vh = valued_honors(view)
    for k in vh:
        if view.counts[k] >= 3 or any(m.kinds and m.kinds[0] == k and m.type != "chi"
                                      for m in view.my_melds):
            tai += 1
    seat_w = view.seat_winds[view.seat]
    for f in view.flowers[view.seat]:
        if f in (34 + seat_w, 38 + seat_w):
            tai += 1
    sh = shape_of(view)
    if sh.off_suit == 0 and not sh.open_off_suit:
        tai += 12 if sh.honors == 0 else 4
    return tai

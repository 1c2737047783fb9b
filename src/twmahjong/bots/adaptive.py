"""Adaptive difficulty (自動調整難度): keep the player's win share near a fair quarter.

At a four-player table an even match gives each seat about one hand in four.
The rule (docs/bots.md, "Adaptive difficulty"):

1. Look only at hands played since the last change of level, at most the last
   ``WINDOW`` (32) of them; with fewer than ``MIN_HANDS`` (16) keep the level.
   Eight hands said too little: a fair player wins none or one of eight about
   half the time, and the level jumped every other game (bench/adaptive.py: 15-30
   changes in 300 hands at 8, 6-10 at 16, with the same final shares).
2. The player's win share, pulled toward 1/4 by ``PRIOR`` (4) imaginary fair
   hands so a lucky streak does not swing it: ``(wins + 1) / (hands + 4)``.
3. Share above 0.40 → two levels up; above 0.31 → one up; below 0.10 → two
   down; below 0.19 → one down; otherwise stay. Levels stay within 0-5, where
   0 is the practice table (``PRACTICE``): a tier-1 personality and two bots
   that play at random — against L1 bots a beginner who never defends won only
   17-19% of hands, at the practice table 24%.
4. The opponent is the personality of that level's tier the player has met
   least in the window (a fresh face), ties broken by the table's order.

    >>> recommend([Outcome(won=True, level=3)] * 10, current_level=3).level
    5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .personalities import by_tier

__all__ = ["MIN_HANDS", "PRACTICE", "PRIOR", "WINDOW", "Choice", "Outcome", "recommend", "win_share"]

WINDOW = 32
MIN_HANDS = 16
PRACTICE = 0        # the level below L1
PRIOR = 4
FAIR = 0.25


@dataclass(frozen=True)
class Outcome:
    """One finished hand, seen from the player being matched."""
    won: bool
    level: int = 3
    opponent: str | None = None     # personality id faced, if any
    dealt_in: bool = False


@dataclass(frozen=True)
class Choice:
    level: int
    personality: str
    win_share: float                # the shrunk share the decision used
    hands: int                      # how many hands it was based on


def win_share(outcomes: Sequence[Outcome]) -> float:
    wins = sum(1 for o in outcomes if o.won)
    return (wins + PRIOR * FAIR) / (len(outcomes) + PRIOR)


def recommend(history: Sequence[Outcome], current_level: int = 3) -> Choice:
    """The level and personality for the player's next game."""
    recent: list[Outcome] = []
    for o in reversed(history):
        if o.level != current_level or len(recent) >= WINDOW:
            break
        recent.append(o)
    share = win_share(recent)
    level = current_level
    if len(recent) >= MIN_HANDS:
        if share > 0.40:
            level += 2
        elif share > 0.31:
            level += 1
        elif share < 0.10:
            level -= 2
        elif share < 0.19:
            level -= 1
    level = max(PRACTICE, min(5, level))
    met = Counter(o.opponent for o in recent if o.opponent)
    tier = by_tier(max(1, level))
    pick = min(tier, key=lambda p: (met[p.id], tier.index(p)))
    return Choice(level, pick.id, share, len(recent))

"""A position's outlook (牌局期望): chance to win, what a win pays, what a deal-in costs.

Taiwanese stakes are one 底 plus 台 × 台價 (100 + 20 per 台 by default), so a
cheap win is worth most of a big one and speed decides most hands; a deal-in
(放槍) costs the discarder alone about one unit. The upper levels weigh every
choice in these points, so defence and value enter at their true price rather
than by fixed rules:

    expected points = P(win) × value of a win − Σ threat × danger × cost of a deal-in
"""

from __future__ import annotations

import math

BASE = 100                 # 底
PER_TAI = 20               # 台價
SELF_DRAW_SHARE = 0.3      # share of wins that are self-drawn (each of three pays)

__all__ = ["BASE", "PER_TAI", "deal_in_cost", "win_chance", "win_value"]


# Logistic fit of "this seat goes on to win the hand" on 5,709 positions after a
# discard in 150 self-play hands of L2 players (standard profile), with
# T = drawable tiles / 4 (the seat's remaining draws) and L = ln(1 + 有效牌).
_FIT = (-3.4364, -2.678, 1.1268, 2.6104, 1.4801, -0.6768)


def win_chance(shanten: int, useful: int, unseen_total: int = 100, turns_left: float = 10.0,
               *, claims: float = 1.0) -> float:
    """Chance (0-1) that a hand at ``shanten`` with ``useful`` 有效牌 goes on to win.

    Measured, not derived: a logistic in shanten, ln(1 + useful) and the turns
    left, fitted to self-play (the ready rows: 36% with 16-31 tiles left in the
    wall ... 55% with 32-47). ``unseen_total`` and ``claims`` are accepted for
    callers that model them; the fit already averages over both."""
    if shanten < 0:
        return 1.0
    c = _FIT
    t = max(0.0, turns_left) / 10.0
    lu = math.log1p(max(useful, 0))
    z = c[0] + c[1] * shanten + c[2] * lu + c[3] * t + c[4] * shanten * t + c[5] * lu * t
    return 1.0 / (1.0 + math.exp(-z))


def win_value(tai: float) -> float:
    """Average points a win brings: one unit per payer, three payers on a self-draw."""
    return (BASE + PER_TAI * max(tai, 0.0)) * (1.0 + 2.0 * SELF_DRAW_SHARE)


def deal_in_cost(tai: float) -> float:
    """Points lost by throwing another player's winning tile (only the thrower pays)."""
    return BASE + PER_TAI * max(tai, 0.0)

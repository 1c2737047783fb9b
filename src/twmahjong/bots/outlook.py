"""What a deal-in costs (放槍), in the points the upper levels weigh defence in.

Taiwanese stakes are one 底 plus 台 × 台價 (100 + 20 per 台 by default), so a
cheap win is worth most of a big one and speed decides most hands; a deal-in
costs the discarder alone about one unit. The table reader (``reader.py``) and
the danger table (``defence.py``) price each risky discard with it, so defence
enters at its true price rather than by a fixed rule.
"""

from __future__ import annotations

BASE = 100                 # 底
PER_TAI = 20               # 台價

__all__ = ["BASE", "PER_TAI", "deal_in_cost"]


def deal_in_cost(tai: float) -> float:
    """Points lost by throwing another player's winning tile (only the thrower pays)."""
    return BASE + PER_TAI * max(tai, 0.0)

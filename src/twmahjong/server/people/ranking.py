"""Ranked play (積分賽): ratings from the final standings of a game.

A four-player game counts as six head-to-head results (one per pair of seats),
each an Elo game with K split between the three pairs a player is in. Bots have a
fixed rating by level and are not changed, so beating stronger bots is worth more.

    >>> [round(r) for r in elo_update([1500, 1500, 1500, 1500], [1, 2, 3, 4])]
    [1516, 1505, 1495, 1484]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["K", "elo_update"]

K = 32.0


def elo_update(ratings: Sequence[float], ranks: Sequence[int], k: float = K) -> list[float]:
    """New ratings; ``ranks`` are 1-4 (equal ranks are a draw between those two)."""
    n = len(ratings)
    new = list(ratings)
    for i in range(n):
        delta = 0.0
        for j in range(n):
            if i == j:
                continue
            expected = 1.0 / (1.0 + 10 ** ((ratings[j] - ratings[i]) / 400.0))
            score = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
            delta += (k / (n - 1)) * (score - expected)
        new[i] = ratings[i] + delta
    return new

"""Level 5's search (模擬): sampled completions of the unseen tiles.

For each candidate discard the unseen tiles (未見牌: the wall and the other
hands, which this seat cannot tell apart) are shuffled into a possible future:
every round the three others throw one tile each, then the seat draws one. A
future *completes* the hand in round r when the tiles kept so far plus the
seat's own draws contain five sets and a pair — on its own draw (自摸) or with
one of that round's discards as the last tile (胡). The seat is allowed to know
the future (the tiles it draws are the ones it keeps), so this measures how
many futures the hand can use, not how a particular strategy plays them; the
same futures are dealt to every candidate, so the comparison is paired. A
deadline (``budget_s``) bounds the work per decision at a live table; offline
(the arena) it is ``None``, so a loaded machine plays the same game as an idle one.
"""

from __future__ import annotations

import random
import time

from .efficiency import shanten

__all__ = ["completion_round", "sampled_win_rates"]


def completion_round(counts: list[int], future: list[int], rounds: int) -> int | None:
    """The first round in which ``future`` (4 tiles a round: three discards by
    others, then the own draw) completes the 3k+1 hand ``counts``, or None.
    ``counts`` is changed."""
    k = sum(counts) // 3
    for r in range(rounds):
        base = 4 * r
        for t in future[base:base + 3]:
            counts[t] += 1
            done = shanten(counts, k) < 0
            counts[t] -= 1
            if done:
                return r
        counts[future[base + 3]] += 1
        if shanten(counts, k) < 0:
            return r
    return None


def sampled_win_rates(counts: list[int], unseen: list[int], candidates: list[int], rounds: int,
                      samples: int, rng: random.Random,
                      budget_s: float | None) -> dict[int, float]:
    """For each candidate discard: the share of sampled futures in which the hand
    wins within ``rounds`` rounds, a win in round r counting (rounds - r) / rounds
    so that faster wins weigh more."""
    pool = [k for k in range(34) for _ in range(unseen[k])]
    need = 4 * rounds
    if len(pool) < need or not candidates or rounds < 1:
        return {}
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    score = {k: 0.0 for k in candidates}
    done = 0
    for _ in range(samples):
        if done and deadline is not None and time.perf_counter() > deadline:
            break
        future = rng.sample(pool, need)
        for k in candidates:
            c = list(counts)
            c[k] -= 1
            r = completion_round(c, future, rounds)
            if r is not None:
                score[k] += (rounds - r) / rounds
        done += 1
    return {k: v / done for k, v in score.items()}

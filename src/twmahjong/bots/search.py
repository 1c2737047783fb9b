"""Level 5's search (模擬): sampled futures from the unseen tiles.

For each candidate discard the unseen tiles (未見牌: the wall and the other
hands, which this seat cannot tell apart) are shuffled into a possible future:
every round the seat draws one tile and the three others throw one each. The
hand is played greedily by shanten; it wins on its own draw (自摸) or, once
ready, on any of the three discards (胡). Every candidate sees the same sampled
futures, so the comparison between them is paired and a few dozen samples
separate them. A deadline (``budget_s``) bounds the work per decision.
"""

from __future__ import annotations

import random
import time

from .efficiency import shanten

__all__ = ["playout", "sampled_win_rates"]


def playout(counts: list[int], future: list[int], rounds: int) -> int | None:
    """Greedy play of a 3k+1 hand through ``future`` (4 tiles a round: three
    discards by others, then the own draw). The round it wins in, or None.
    ``counts`` is changed."""
    s = shanten(counts)
    for r in range(rounds):
        base = 4 * r
        if s == 0:
            for t in future[base:base + 3]:
                counts[t] += 1
                done = shanten(counts) < 0
                counts[t] -= 1
                if done:
                    return r
        t = future[base + 3]
        counts[t] += 1
        s_new = shanten(counts)
        if s_new < 0:
            return r
        if s_new < s:
            for k in range(34):
                if counts[k] and k != t:
                    counts[k] -= 1
                    if shanten(counts) == s_new:
                        break
                    counts[k] += 1
            else:
                counts[t] -= 1
                continue
            s = s_new
        else:
            counts[t] -= 1
    return None


def sampled_win_rates(counts: list[int], unseen: list[int], candidates: list[int], rounds: int,
                      samples: int, rng: random.Random, budget_s: float) -> dict[int, float]:
    """For each candidate discard: the share of sampled futures in which the hand
    wins within ``rounds`` rounds, a win in round r counting (rounds - r) / rounds
    so that faster wins weigh more."""
    pool = [k for k in range(34) for _ in range(unseen[k])]
    need = 4 * rounds
    if len(pool) < need or not candidates or rounds < 1:
        return {}
    deadline = time.perf_counter() + budget_s
    score = {k: 0.0 for k in candidates}
    done = 0
    for _ in range(samples):
        if done and time.perf_counter() > deadline:
            break
        future = rng.sample(pool, need)
        for k in candidates:
            c = list(counts)
            c[k] -= 1
            r = playout(c, future, rounds)
            if r is not None:
                score[k] += (rounds - r) / rounds
        done += 1
    return {k: v / done for k, v in score.items()}

"""The slow, obviously-correct hand analysis: plain recursion over count arrays.

It is the oracle that the table-driven ``hand`` module is tested against, and
nothing else should call it on a hot path. Written for reading, not speed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

Set = tuple[str, int]   # ("chow", lowest kind) | ("pung", kind)


@dataclass(frozen=True, order=True)
class Split:
    """One reading of complete concealed tiles: a pair and k sets (sorted)."""
    pair: int
    sets: tuple[Set, ...]


def _chow_ok(k: int) -> bool:
    """A chow may start at kind k: suited and rank 1-7."""
    return k < 27 and k % 9 <= 6


def _set_splits(c: list[int]) -> list[tuple[Set, ...]]:
    """All multisets of sets that use every tile in c exactly (c is mutated and restored)."""
    i = next((k for k in range(34) if c[k]), -1)
    if i < 0:
        return [()]
    out: list[tuple[Set, ...]] = []
    if c[i] >= 3:
        c[i] -= 3
        out += [(("pung", i),) + rest for rest in _set_splits(c)]
        c[i] += 3
    if _chow_ok(i) and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        out += [(("chow", i),) + rest for rest in _set_splits(c)]
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
    return out


def splits(counts) -> list[Split]:
    """Every distinct way to read 3k+2 concealed tiles as k sets and one pair."""
    c = list(counts)
    if sum(c) % 3 != 2:
        return []
    found: set[Split] = set()
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            for sets in _set_splits(c):
                found.add(Split(p, tuple(sorted(sets))))
            c[p] += 2
    return sorted(found)


def is_complete(counts) -> bool:
    return bool(splits(counts))


def is_lilgu(counts) -> bool:
    """嚦咕嚦咕 / 八對半: 17 concealed tiles as seven pairs and one pung.

    A kind held four times counts as two pairs (the texts do not forbid it)."""
    c = list(counts)
    if sum(c) != 17:
        return False
    for t in range(34):
        if c[t] >= 3:
            c[t] -= 3
            ok = all(n % 2 == 0 for n in c)
            c[t] += 3
            if ok:
                return True
    return False


def waits(counts, held=None, *, lilgu: bool = False) -> list[int]:
    """Kinds that complete 3k+1 concealed tiles; kinds the hand holds all four of are not waits."""
    c = list(counts)
    h = list(held) if held is not None else c
    out = []
    for k in range(34):
        if h[k] >= 4:
            continue
        c[k] += 1
        if is_complete(c) or (lilgu and is_lilgu(c)):
            out.append(k)
        c[k] -= 1
    return out


def wait_shapes(counts, tile: int) -> frozenset[str]:
    """How ``tile`` can complete the hand: 邊張 edge, 中洞 closed, 單吊 single,
    兩面 open, 對碰 double_pung — one entry per placement in any split."""
    c = list(counts)
    c[tile] += 1
    shapes: set[str] = set()
    for sp in splits(c):
        if sp.pair == tile:
            shapes.add("single")
        for kind, k in sp.sets:
            if kind == "pung" and k == tile:
                shapes.add("double_pung")
            elif kind == "chow" and k <= tile <= k + 2:
                pos, rank = tile - k, k % 9
                if pos == 1:
                    shapes.add("closed")
                elif (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
                    shapes.add("edge")
                else:
                    shapes.add("open")
    return frozenset(shapes)


def shanten(counts, sets_needed: int | None = None) -> int:
    """向聽數 by exhaustive search: 2k - 2·sets - partials - pair, sets + partials <= k.

    -1 means complete, 0 means ready. Partials are pairs, adjacent and one-gap shapes.
    The count alone would call ``1111m`` + three sets ready although its only
    winning tile is a fifth 1m; 0 is kept only for a hand that really waits (3k+1)
    or can discard into one (3k+2), and such a hand counts 1 instead."""
    c = tuple(counts)
    k = sum(c) // 3 if sets_needed is None else sets_needed
    best = 2 * k
    for has_pair in (False, True):
        for p in (range(34) if has_pair else (None,)):
            cc = list(c)
            if p is not None:
                if cc[p] < 2:
                    continue
                cc[p] -= 2
            for m, t in _mt_options(tuple(cc)):
                t = min(t, k - m) if m <= k else 0
                m = min(m, k)
                best = min(best, 2 * k - 2 * m - t - (1 if p is not None else 0))
    if best == 0 and not _really_ready(list(c), k):
        return 1
    return best


def _really_ready(c: list[int], k: int) -> bool:
    """A real wait exists now (3k+1 tiles) or after some discard (3k+2 tiles)."""
    n = sum(c)
    if n == 3 * k + 1:
        return bool(waits(c))
    if n == 3 * k + 2:
        for d in range(34):
            if c[d]:
                c[d] -= 1
                ok = bool(waits(c))
                c[d] += 1
                if ok:
                    return True
        return False
    return True


@lru_cache(maxsize=None)
def _mt_options(c: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    """Pareto set of (sets, partials) reachable from counts c."""
    i = next((k for k in range(34) if c[k]), -1)
    if i < 0:
        return frozenset({(0, 0)})
    res: set[tuple[int, int]] = set()

    def take(removals, dm, dt):
        cc = list(c)
        for r in removals:
            cc[r] -= 1
        for m, t in _mt_options(tuple(cc)):
            res.add((m + dm, t + dt))

    take([i], 0, 0)                                   # i left isolated
    if c[i] >= 3:
        take([i, i, i], 1, 0)
    if c[i] >= 2:
        take([i, i], 0, 1)
    if _chow_ok(i) and c[i + 1] and c[i + 2]:
        take([i, i + 1, i + 2], 1, 0)
    if i < 27 and i % 9 <= 7 and c[i + 1]:
        take([i, i + 1], 0, 1)
    if _chow_ok(i) and c[i + 2]:
        take([i, i + 2], 0, 1)
    return frozenset(res)

"""Tile efficiency (牌效): shanten (向聽數) and useful tiles (有效牌/進張).

A bot asks the same question hundreds of times per decision — "after this
discard, how far am I from ready, and how many unseen tiles bring me closer?" —
so shanten here is computed per suit and memoised: a suit's nine counts are one
int key, each key is analysed once into a small table, and a hand is the
combination of four such tables. The answer is the same as
``twmahjong.hand.shanten`` (the tests check it against the reference); only the
speed differs.

    >>> from twmahjong.tiles import counts34, parse_tiles
    >>> shanten(counts34(parse_tiles("123456789m123p456s1z")))    # 單吊 1z: ready
    0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

__all__ = ["DiscardInfo", "discard_table", "shanten", "suit_keys", "useful_tiles"]

_POW5 = tuple(5 ** i for i in range(9))

# A *table* is the set of Pareto-best readings of some tiles: (readings with no
# pair reserved, readings with one pair reserved as the eye 將). A reading is
# (m, s): m complete sets and s = m + partial shapes (搭子). A hand's value is
# min(m, k) + min(s, k) (+1 for the eye), which grows with both m and s, so
# dominated readings are dropped. Tables are interned as small ints so that the
# hot path only hashes int pairs.
_Readings = tuple[tuple[int, int], ...]
_Table = tuple[_Readings, _Readings]      # (no pair reserved, one pair reserved)
_TABLES: list[_Table] = []
_TABLE_ID: dict[_Table, int] = {}
_SUIT_ID: dict[int, int] = {}          # suited key -> table id
_HONOR_ID: dict[int, int] = {}         # honor key -> table id
_MERGED: dict[tuple[int, int], int] = {}
_FINISHED: dict[tuple[int, int], int] = {}


def _intern(tab: _Table) -> int:
    i = _TABLE_ID.get(tab)
    if i is None:
        i = _TABLE_ID[tab] = len(_TABLES)
        _TABLES.append(tab)
    return i


def _pareto(pairs: Iterable[tuple[int, int]]) -> _Readings:
    best: list[tuple[int, int]] = []
    for m, s in sorted(set(pairs), reverse=True):
        if all(s > bs for bm, bs in best):
            best.append((m, s))
    return tuple(best)


@cache
def _readings(c: tuple[int, ...], chows: bool) -> tuple[tuple[int, int], ...]:
    """Pareto-best (sets, sets + partials) readings of one suit's counts.

    Memoised on the counts with leading zeros stripped, so the many suits that
    share a tail share its work."""
    i = 0
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return ((0, 0),)
    if i:
        return _readings(c[i:], chows)
    out: list[tuple[int, int]] = []
    x = list(c)

    def take(removals: tuple[int, ...], dm: int, ds: int) -> None:
        for r in removals:
            x[r] -= 1
        for m, s in _readings(tuple(x), chows):
            out.append((m + dm, s + ds))
        for r in removals:
            x[r] += 1

    take((0,), 0, 0)                                  # the first tile left alone
    if c[0] >= 3:
        take((0, 0, 0), 1, 1)
    if c[0] >= 2:
        take((0, 0), 0, 1)
    if chows:
        if n > 2 and c[1] and c[2]:
            take((0, 1, 2), 1, 1)
        if n > 1 and c[1]:
            take((0, 1), 0, 1)
        if n > 2 and c[2]:
            take((0, 2), 0, 1)
    return _pareto(out)


def _table(key: int, honors: bool) -> int:
    cache = _HONOR_ID if honors else _SUIT_ID
    tid = cache.get(key)
    if tid is not None:
        return tid
    n = 7 if honors else 9
    c = [(key // _POW5[r]) % 5 for r in range(n)]
    no_pair = _readings(tuple(c), not honors)
    with_pair: list[tuple[int, int]] = []
    for p in range(n):
        if c[p] >= 2:
            c[p] -= 2
            with_pair.extend(_readings(tuple(c), not honors))
            c[p] += 2
    tid = cache[key] = _intern((no_pair, _pareto(with_pair)))
    return tid


def _merge(a: int, b: int) -> int:
    """Two tables as one: sets and shapes add; at most one eye is reserved."""
    r = _MERGED.get((a, b))
    if r is None:
        (a0, a1), (b0, b1) = _TABLES[a], _TABLES[b]
        r0 = _pareto([(m1 + m2, s1 + s2) for m1, s1 in a0 for m2, s2 in b0])
        r1 = _pareto([(m1 + m2, s1 + s2) for m1, s1 in a0 for m2, s2 in b1]
                     + [(m1 + m2, s1 + s2) for m1, s1 in a1 for m2, s2 in b0])
        r = _MERGED[(a, b)] = _MERGED[(b, a)] = _intern((r0, r1))
    return r


def _finish(tid: int, k: int) -> int:
    """Shanten of a whole hand's table when k sets are needed."""
    r = _FINISHED.get((tid, k))
    if r is None:
        no_pair, with_pair = _TABLES[tid]
        best = 0
        for m, s in no_pair:
            best = max(best, min(m, k) + min(s, k))
        for m, s in with_pair:
            best = max(best, min(m, k) + min(s, k) + 1)
        r = _FINISHED[(tid, k)] = 2 * k - best
    return r


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four per-suit keys (萬, 筒, 條, 字) of a count array."""
    keys = [0, 0, 0, 0]
    for s in range(3):
        base = 9 * s
        v = 0
        for r in range(9):
            v += counts[base + r] * _POW5[r]
        keys[s] = v
    v = 0
    for r in range(7):
        v += counts[27 + r] * _POW5[r]
    keys[3] = v
    return keys


def _shanten_keys(k0: int, k1: int, k2: int, k3: int, k: int) -> int:
    return _finish(_merge(_merge(_table(k0, False), _table(k1, False)),
                          _merge(_table(k2, False), _table(k3, True))), k)


def shanten(counts: Sequence[int], sets_needed: int | None = None) -> int:
    """向聽數: -1 complete, 0 ready (聽牌); same contract as ``hand.shanten``."""
    k = sum(counts) // 3 if sets_needed is None else sets_needed
    k0, k1, k2, k3 = suit_keys(counts)
    return _shanten_keys(k0, k1, k2, k3, k)


def _kind_key_delta(kind: int) -> tuple[int, int]:
    if kind < 27:
        return kind // 9, _POW5[kind % 9]
    return 3, _POW5[kind - 27]


_DELTA = tuple(_kind_key_delta(k) for k in range(34))


def _neighbours(counts: Sequence[int]) -> list[int]:
    """Kinds that could possibly lower shanten when drawn: a held kind or a suited
    kind within two ranks of a held one. Others are isolated and never help
    more than a held tile would."""
    out = []
    for k in range(34):
        if counts[k]:
            out.append(k)
            continue
        if k < 27:
            r = k % 9
            if (r >= 1 and counts[k - 1]) or (r >= 2 and counts[k - 2]) or \
               (r <= 7 and counts[k + 1]) or (r <= 6 and counts[k + 2]):
                out.append(k)
                continue
    return out


def useful_tiles(counts: Sequence[int], unseen: Sequence[int],
                 base: int | None = None) -> tuple[int, list[int]]:
    """有效牌 of a 3k+1 hand: (unseen copies that lower shanten, those kinds).

    ``unseen`` is 34 counts of tiles this seat cannot see; a kind that lowers
    shanten but has no unseen copy is still listed (it may matter for waits) but
    adds nothing to the count."""
    k = (sum(counts) + 1) // 3
    keys = suit_keys(counts)
    s0 = _shanten_keys(keys[0], keys[1], keys[2], keys[3], k) if base is None else base
    total = 0
    kinds = []
    cand = _neighbours(counts)
    for t in cand:
        if counts[t] >= 4:
            continue
        si, d = _DELTA[t]
        keys[si] += d
        s = _shanten_keys(keys[0], keys[1], keys[2], keys[3], k)
        keys[si] -= d
        if s < s0:
            kinds.append(t)
            total += unseen[t]
    return total, kinds


@dataclass(frozen=True)
class DiscardInfo:
    """What a 3k+2 hand looks like after throwing ``kind``."""
    kind: int
    shanten: int
    useful: int          # unseen copies of the kinds that lower shanten (進張數)
    useful_kinds: tuple[int, ...]


def _tab_of(si: int, key: int) -> int:
    return _table(key, si == 3)


def discard_table(counts: Sequence[int], unseen: Sequence[int],
                  candidates: Iterable[int] | None = None, slack: int | None = None,
                  count_useful: bool = True) -> list[DiscardInfo]:
    """For every distinct kind held (or each of ``candidates``): shanten and 有效牌
    after discarding it.

    Only the suits a discard and a draw touch change, so the other suits are
    combined once per call and reused for every (discard, draw) pair. With
    ``slack``, 有效牌 are counted only for discards within ``slack`` of the best
    shanten (the rest report ``useful = -1``): a bot never wants them for speed.
    ``count_useful=False`` reports shanten only (useful 0), for the weakest level."""
    k = sum(counts) // 3
    keys = suit_keys(counts)
    tabs = [_tab_of(i, keys[i]) for i in range(4)]
    rest1 = []
    for i in range(4):
        o = [tabs[j] for j in range(4) if j != i]
        rest1.append(_merge(_merge(o[0], o[1]), o[2]))
    rest2 = {}
    for i in range(4):
        for j in range(i + 1, 4):
            o = [tabs[x] for x in range(4) if x != i and x != j]
            rest2[(i, j)] = rest2[(j, i)] = _merge(o[0], o[1])
    kinds = [x for x in range(34) if counts[x]] if candidates is None else list(candidates)
    firsts = []
    for d in kinds:
        di, dd = _DELTA[d]
        td = _tab_of(di, keys[di] - dd)
        firsts.append((d, di, keys[di] - dd, td, _finish(_merge(rest1[di], td), k)))
    limit = min(f[4] for f in firsts) + slack if (slack is not None and firsts) else 99
    out = []
    draws = [t for t in _neighbours(counts) if counts[t] < 4] if count_useful else []
    # other-suit draws: the drawn suit's table with the tile added, merged with the
    # suits neither the discard nor the draw touch — once per discard suit
    cross: dict[tuple[int, int], int] = {}
    merged = _MERGED
    finished = _FINISHED
    m: int | None                       # the merged table of one (discard, draw)
    for d, di, kd, td, s0 in firsts:
        if s0 > limit:
            out.append(DiscardInfo(d, s0, -1, ()))
            continue
        if not count_useful:
            out.append(DiscardInfo(d, s0, 0, ()))
            continue
        total = 0
        useful = []
        r1 = rest1[di]
        for t in draws:
            if t == d and counts[t] >= 4:
                continue
            ti, tdlt = _DELTA[t]
            if ti == di:
                m = _merge(r1, _tab_of(di, kd + tdlt))
            else:
                x = cross.get((di, t))
                if x is None:
                    x = cross[(di, t)] = _merge(rest2[(di, ti)], _tab_of(ti, keys[ti] + tdlt))
                m = merged.get((td, x))
                if m is None:
                    m = _merge(td, x)
            s = finished.get((m, k))
            if s is None:
                s = _finish(m, k)
            if s < s0:
                useful.append(t)
                total += unseen[t]
        out.append(DiscardInfo(d, s0, total, tuple(sorted(useful))))
    return out

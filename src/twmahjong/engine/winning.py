"""Fast win checks for the table (胡牌判定) on count arrays.

The referee asks "does this tile complete that hand?" three times per discard and
"which discards leave me ready (聽牌)?" when a declaration is possible, so every
answer is assembled from per-suit facts cached by the suit's counts: can the suit
be all sets, can it be sets plus the one pair, and which added tile makes it so.
A hand is complete when every suit is sets and exactly one also holds the pair.
This is the contract of ``twmahjong.hand.is_complete``/``waits``; tests compare them.

    >>> is_complete(counts34([0, 1, 2, 3, 3]))
    True
    >>> waits(counts34([0, 1, 2, 3]))
    [0, 3]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import cast

from ..tiles import counts34  # noqa: F401  (doctest)

__all__ = ["completes", "is_complete", "is_lilgu", "is_ready", "waits"]

_SETS, _PAIR = 1, 2
# One suit's facts: (tiles mod 3, all sets, sets + the pair, kinds whose addition completes it)
_Seg = tuple[int, bool, bool, tuple[int, ...]]
_SEGMENTS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _sets_only(c: list[int], honors: bool) -> bool:
    """Whether the suit's counts split into pungs and chows only (leftmost tile first)."""
    i = 0
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _sets_only(c, honors)
        c[i] += 3
        if ok:
            return True
    if not honors and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _sets_only(c, honors)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


@cache
def _mask(key: tuple[int, ...], honors: bool) -> int:
    c = list(key)
    total = sum(c)
    if total % 3 == 0:
        return _SETS if _sets_only(c, honors) else 0
    if total % 3 == 2:
        for i, v in enumerate(c):
            if v >= 2:
                c[i] -= 2
                ok = _sets_only(c, honors)
                c[i] += 2
                if ok:
                    return _PAIR
    return 0


@cache
def _adds(key: tuple[int, ...], honors: bool) -> tuple[int, ...]:
    """Offsets within the suit whose addition makes it sets (r=2) or sets+pair (r=1)."""
    out = []
    c = list(key)
    for i in range(len(c)):
        if c[i] >= 4:
            continue
        c[i] += 1
        if _mask(tuple(c), honors):
            out.append(i)
        c[i] -= 1
    return tuple(out)


def is_complete(counts: Sequence[int]) -> bool:
    """3k+2 tiles -> k sets and one pair (flowers never in ``counts``)."""
    pairs = 0
    for lo, hi, honors in _SEGMENTS:
        key = tuple(counts[lo:hi])
        s = sum(key)
        if s == 0:
            continue
        r = s % 3
        if r == 1:
            return False
        m = _mask(key, honors)
        if r == 0:
            if not m & _SETS:
                return False
        else:
            if not m & _PAIR:
                return False
            pairs += 1
            if pairs > 1:
                return False
    return pairs == 1


def is_lilgu(counts: Sequence[int]) -> bool:
    """17 concealed tiles as seven pairs and one pung (嚦咕嚦咕)."""
    if sum(counts) != 17:
        return False
    pairs = pungs = 0
    for v in counts:
        if v == 2:
            pairs += 1
        elif v == 3:
            pungs += 1
        elif v == 4:
            pairs += 2
        elif v:
            return False
    return pairs == 7 and pungs == 1


def completes(counts: list[int], kind: int, lilgu: bool = False) -> bool:
    """Whether adding one ``kind`` makes the 3k+1 hand complete (mutates and restores)."""
    counts[kind] += 1
    try:
        return is_complete(counts) or (lilgu and is_lilgu(counts))
    finally:
        counts[kind] -= 1


def _info_raw(key: tuple[int, ...], honors: bool, base: int) -> _Seg:
    """(remainder, is sets, is sets+pair, absolute kinds whose addition completes it)."""
    r = sum(key) % 3
    m = _mask(key, honors)
    return r, (r == 0 and (m & _SETS) > 0), (m & _PAIR) > 0, tuple(base + i for i in _adds(key, honors))


_SEG_CACHE: tuple[dict[tuple[int, ...], _Seg], ...] = ({}, {}, {}, {})


def _segments(counts: Sequence[int]) -> list[_Seg]:
    out = []
    for i, (lo, hi, honors) in enumerate(_SEGMENTS):
        key = tuple(counts[lo:hi])
        cache_i = _SEG_CACHE[i]
        v = cache_i.get(key)
        if v is None:
            v = cache_i[key] = _info_raw(key, honors, lo)
        out.append(v)
    return out


def waits(counts: list[int], held: Sequence[int] | None = None, lilgu: bool = False) -> list[int]:
    """Kinds that complete a 3k+1 hand, ascending; ``held`` drops kinds all four in view.

    Case analysis on suit remainders: the tile goes into the one suit of remainder 1
    (which then holds the pair), or into one of two suits of remainder 2 (the other
    holds the pair). Every other suit must already be sets (or be empty).
    """
    one: _Seg | None = None
    twos = []
    n_one = 0
    out: list[int] = []
    for g in _segments(counts):
        r = g[0]
        if r == 0:
            if not g[1]:
                break
        elif r == 1:
            one = g
            n_one += 1
        else:
            twos.append(g)
    else:
        if n_one == 1 and not twos:
            out = list(cast(_Seg, one)[3])     # n_one == 1: ``one`` is that suit
        elif n_one == 0 and len(twos) == 2:
            a, b = twos
            if b[2]:
                out.extend(a[3])
            if a[2]:
                out.extend(b[3])
            out.sort()
    if lilgu and sum(counts) == 16:
        for k in range(34):
            if counts[k] < 4 and k not in out and completes(counts, k, True):
                out.append(k)
        out.sort()
    if held is not None:
        out = [k for k in out if held[k] < 4]
    return out


def is_ready(counts: list[int], lilgu: bool = False) -> bool:
    """聽牌: some tile completes the 3k+1 hand."""
    return bool(waits(counts, lilgu=lilgu))


def _any_wait(segs: list[_Seg]) -> bool:
    ones = twos = 0
    pair_twos = 0
    for g in segs:
        r = g[0]
        if r == 0:
            if not g[1]:
                return False
        elif r == 1:
            ones += 1
            if not g[3]:
                return False
        else:
            twos += 1
            if g[2]:
                pair_twos += 1
    if ones == 1 and twos == 0:
        return True
    if ones == 0 and twos == 2:
        a, b = [g for g in segs if g[0] == 2]
        return bool((b[2] and a[3]) or (a[2] and b[3]))
    return False


def ready_discards(counts: list[int], lilgu: bool = False) -> list[int]:
    """Kinds whose discard leaves a 3k+2 hand ready (聽牌) — what 地聽/報聽 may throw.

    Only the discarded tile's suit changes, so the other three suits' facts are reused."""
    segs = _segments(counts)
    out = []
    for i, (lo, hi, honors) in enumerate(_SEGMENTS):
        key = list(counts[lo:hi])
        cache_i = _SEG_CACHE[i]
        for j in range(hi - lo):
            if not key[j]:
                continue
            key[j] -= 1
            t = tuple(key)
            key[j] += 1
            g = cache_i.get(t)
            if g is None:
                g = cache_i[t] = _info_raw(t, honors, lo)
            trial = segs[:i] + [g] + segs[i + 1:]
            if _any_wait(trial):
                out.append(lo + j)
    if lilgu and sum(counts) == 17:
        for k in range(34):
            if counts[k] and k not in out:
                counts[k] -= 1
                if waits(counts, lilgu=True):
                    out.append(k)
                counts[k] += 1
        out.sort()
    return out

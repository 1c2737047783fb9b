"""Hand analysis (牌型分析): splits, waits (聽牌), shanten (向聽數) — by table lookup.

Two ways in. The *count array* API (34 counts of concealed tiles, melds outside)
is the contract in docs/architecture.md and answers exactly what
``hand_reference`` answers. The *key* API is the same analysis for callers on a
hot path: a hand key is four ints, one per suit (萬 筒 條 字), each the suit's
counts in base 5 with rank 1 as the most significant digit; add a tile with
``keys[g] += KEY_STEP[kind][1]`` where ``g = KEY_STEP[kind][0]``.

    >>> from twmahjong.tiles import counts34, parse_tiles
    >>> waits(counts34(parse_tiles("23m456m678p234s567s99p")))
    [0, 3, 6]

Why tables: chows never cross suits, so a suit's contribution to any question
depends on that suit's counts only. ``_tables`` precomputes per-suit answers once
(cached on disk, about 10 MiB in memory), and each query is four lookups and a
little arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from . import _tables
from . import hand_reference as _ref

__all__ = [
    "Set", "Split", "is_complete", "is_lilgu", "placement_shape", "shanten", "splits",
    "wait_shapes", "waits",
    "KEY_STEP", "hand_key", "is_complete_key", "shanten_key", "splits_key", "waits_key",
]

Set = tuple[str, int]           # ("chow", lowest kind) | ("pung", kind)
Keys = Sequence[int]            # the four suit keys (hand_key), a tuple or a list being updated
Layout = tuple[int, tuple[Set, ...], int]   # (pair or -1, sets in written order, pungs)


@dataclass(frozen=True, order=True)
class Split:
    """One reading of complete concealed tiles: the pair (眼) and k sets, sorted."""
    pair: int
    sets: tuple[Set, ...]


_T = _tables.load()
# bytes / array('H') / read-only maps of the cache file: each indexed by a suit key to an int
# (annotations only: ``typing`` is not imported here, ``Final`` would need it)
_SW: Sequence[int] = _T.suit_win
_HW: Sequence[int] = _T.honor_win
_SWT: Sequence[int] = _T.suit_wait
_HWT: Sequence[int] = _T.honor_wait
_SP: Sequence[int] = _T.suit_prof
_HP: Sequence[int] = _T.honor_prof
_SN: Sequence[int] = _T.suit_size
_HN: Sequence[int] = _T.honor_size
_PROF = _T.profiles
_MM = _PROF.merge_memo
_SH = _PROF.shanten
_merge = _PROF.merge

# (group, key increment) of each kind: rank 1 is the most significant base-5 digit.
KEY_STEP: tuple[tuple[int, int], ...] = tuple(
    (k // 9, 5 ** (8 - k % 9)) if k < 27 else (3, 5 ** (6 - (k - 27))) for k in range(34))

# A ``wait`` entry of one group -> its kinds, ascending: _SET_WAITS when the group
# must become all sets (another group holds the pair), _PAIR_WAITS when it must also
# supply the pair. An entry of the other sort answers ().
def _wait_kinds(pair: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    out: list[tuple[tuple[int, ...], ...]] = []
    for base, n in ((0, 9), (9, 9), (18, 9), (27, 7)):
        out.append(tuple(
            tuple(base + r for r in range(n) if entry >> r & 1)
            if bool(entry & _tables.WAIT_PAIR) == pair else ()
            for entry in range(2 * _tables.WAIT_PAIR)))
    return tuple(out)


_SET_WAITS, _PAIR_WAITS = _wait_kinds(False), _wait_kinds(True)

# bytes.translate table: counts 0-4 become base-5 digits, anything else fails int().
_DIGITS = b"01234" + b"x" * 251


class _BadCounts(ValueError):
    """Counts no real hand has (a fifth copy, a negative count): a caller's bug."""


def hand_key(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The four suit keys of a count array (each count 0-4)."""
    try:
        b = bytes(counts).translate(_DIGITS)
        return int(b[0:9], 5), int(b[9:18], 5), int(b[18:27], 5), int(b[27:34], 5)
    except ValueError:
        raise _BadCounts("a count array holds 34 counts of 0-4") from None


# ---- key API: the hot paths --------------------------------------------------

def is_complete_key(keys: Keys) -> bool:
    """胡牌 shape: every suit all sets, exactly one of them also holding the pair."""
    km, kp, ks, kz = keys
    return _SW[km] + _SW[kp] + _SW[ks] + _HW[kz] == 1


def shanten_key(keys: Keys, sets_needed: int) -> int:
    """向聽數 for ``sets_needed`` (0-5) sets and a pair: -1 complete, 0 ready (聽牌)."""
    km, kp, ks, kz = keys
    a = _SP[km] << 20 | _SP[kp]
    x = _MM.get(a)
    if x is None:
        x = _merge(a >> 20, a & 0xFFFFF)
    a = x << 20 | _SP[ks]
    x = _MM.get(a)
    if x is None:
        x = _merge(a >> 20, a & 0xFFFFF)
    a = x << 20 | _HP[kz]
    x = _MM.get(a)
    if x is None:
        x = _merge(a >> 20, a & 0xFFFFF)
    r = _SH[x][sets_needed]
    if r == 0 and not _really_ready(keys, sets_needed):
        return 1
    return r


_PW = ((0, tuple(5 ** (8 - r) for r in range(9))), (1, tuple(5 ** (8 - r) for r in range(9))),
       (2, tuple(5 ** (8 - r) for r in range(9))), (3, tuple(5 ** (6 - r) for r in range(7))))


def _really_ready(keys: Keys, k: int) -> bool:
    """Shanten 0 only when a wait exists that is not a fifth copy: for 3k+1 tiles
    now, for 3k+2 after some discard (the reference's rule, see there)."""
    km, kp, ks, kz = keys
    n = _SN[km] + _SN[kp] + _SN[ks] + _HN[kz]
    if n == 3 * k + 1:
        return bool(waits_key(keys))
    if n != 3 * k + 2:
        return True
    ks_ = list(keys)
    for g, pw in _PW:
        key = ks_[g]
        for step in pw:
            if key // step % 5:
                ks_[g] = key - step
                if waits_key(ks_):
                    return True
        ks_[g] = key
    return False


def waits_key(keys: Keys) -> list[int]:
    """Kinds that complete a 3k+1 hand, ascending, never a fifth copy of a kind.

    A wait in one suit needs the other three complete as they stand; the pair goes
    to that suit unless another suit already holds it."""
    km, kp, ks, kz = keys
    wm, wp, ws, wz = _SW[km], _SW[kp], _SW[ks], _HW[kz]
    total = wm + wp + ws + wz
    if total >= 18:
        return []
    out: list[int] = []
    o = total - wm
    if o <= 1:
        entry = _SWT[km]
        if entry:
            out.extend((_PAIR_WAITS if o == 0 else _SET_WAITS)[0][entry])
    o = total - wp
    if o <= 1:
        entry = _SWT[kp]
        if entry:
            out.extend((_PAIR_WAITS if o == 0 else _SET_WAITS)[1][entry])
    o = total - ws
    if o <= 1:
        entry = _SWT[ks]
        if entry:
            out.extend((_PAIR_WAITS if o == 0 else _SET_WAITS)[2][entry])
    o = total - wz
    if o <= 1:
        entry = _HWT[kz]
        if entry:
            out.extend((_PAIR_WAITS if o == 0 else _SET_WAITS)[3][entry])
    return out


# ---- count-array API: the contract -------------------------------------------

def is_complete(counts: Sequence[int]) -> bool:
    """3k+2 concealed tiles read as k sets and a pair (胡牌)."""
    try:
        b = bytes(counts).translate(_DIGITS)
        return (_SW[int(b[0:9], 5)] + _SW[int(b[9:18], 5)] + _SW[int(b[18:27], 5)]
                + _HW[int(b[27:34], 5)]) == 1
    except ValueError:
        return _ref.is_complete(counts)


def shanten(counts: Sequence[int], sets_needed: int | None = None) -> int:
    """向聽數: 2k - 2·sets - partials - pair with sets + partials <= k.

    -1 means complete, 0 ready. Partials (搭子) are pairs, adjacent and one-gap
    shapes. Any 1-17 tiles; ``sets_needed`` defaults to len//3 (melds outside)."""
    try:
        keys = hand_key(counts)
    except _BadCounts:
        return _ref.shanten(counts, sets_needed)
    km, kp, ks, kz = keys
    n = _SN[km] + _SN[kp] + _SN[ks] + _HN[kz]
    k = n // 3 if sets_needed is None else sets_needed
    if n > _tables.MAX_TILES or not 0 <= k <= _tables.MAX_BLOCKS:
        return _ref.shanten(counts, sets_needed)
    return shanten_key(keys, k)


def is_lilgu(counts: Sequence[int]) -> bool:
    """嚦咕嚦咕 / 八對半: 17 concealed tiles as seven pairs and one pung.

    Taking the pung's three tiles must leave every count even, so exactly one kind
    is held an odd number of times, and three times. Four of a kind is two pairs."""
    if sum(counts) != 17:
        return False
    odd = [n for n in counts if n & 1]
    return odd == [3]


def _lilgu_waits(c: list[int]) -> list[int]:
    """Kinds turning 16 concealed tiles into 嚦咕嚦咕: fix the one odd kind left."""
    if sum(c) != 16:
        return []
    odd = [k for k in range(34) if c[k] & 1]
    if not odd:                         # eight pairs: any pair may become the pung
        return [k for k in range(34) if c[k] == 2]
    if len(odd) == 2:
        a, b = odd
        return sorted(x for x, y in ((a, b), (b, a)) if c[y] == 3)
    return []


def waits(counts: Sequence[int], held: Sequence[int] | None = None, *,
          lilgu: bool = False) -> list[int]:
    """聽牌: kinds that complete 3k+1 concealed tiles, ascending.

    ``held`` (34 counts of concealed + melded tiles) removes kinds the hand holds
    all four of — a fifth copy does not exist. ``lilgu`` adds 嚦咕嚦咕 waits.
    Exactly one wait is 獨聽."""
    try:
        keys = hand_key(counts)
    except _BadCounts:
        return _ref.waits(counts, held, lilgu=lilgu)
    km, kp, ks, kz = keys
    if _SN[km] + _SN[kp] + _SN[ks] + _HN[kz] > 16:
        return _ref.waits(counts, held, lilgu=lilgu)
    out = waits_key(keys)
    if lilgu:
        extra = _lilgu_waits(list(counts))
        if extra:
            out = sorted(set(out) | set(extra))
    if held is not None:
        out = [k for k in out if held[k] < 4]
    return out


# ---- splits: every reading, for the scorer ----------------------------------

_GROUPS = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
Reading = tuple[int, tuple[Set, ...]]      # (pair or -1, sets) of one group
_split_memo: dict[tuple[int, int], tuple[Reading, ...]] = {}


def _group_readings(g: int, key: int) -> tuple[Reading, ...]:
    """Every (pair or -1, sets) reading of one group's tiles, kinds absolute."""
    memo_key = (g, key)
    found = _split_memo.get(memo_key)
    if found is not None:
        return found
    base, n, chows = _GROUPS[g]
    c = [key // 5 ** (n - 1 - r) % 5 for r in range(n)]
    out: set[Reading] = set()

    def sets_of(c: list[int]) -> list[tuple[Set, ...]]:
        i = next((r for r in range(n) if c[r]), -1)
        if i < 0:
            return [()]
        res: list[tuple[Set, ...]] = []
        if c[i] >= 3:
            c[i] -= 3
            res += [(("pung", base + i),) + rest for rest in sets_of(c)]
            c[i] += 3
        if chows and i + 2 < n and c[i + 1] and c[i + 2]:
            c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
            res += [(("chow", base + i),) + rest for rest in sets_of(c)]
            c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
        return res

    if sum(c) % 3 == 0:
        out.update((-1, s) for s in sets_of(c))
    else:
        for p in range(n):
            if c[p] >= 2:
                c[p] -= 2
                out.update((base + p, s) for s in sets_of(c))
                c[p] += 2
    found = _split_memo[memo_key] = tuple(out)
    return found


_layouts: tuple[dict[int, tuple[Layout, ...]], ...] = ({}, {}, {}, {})


def _group_layouts(g: int, key: int) -> tuple[Layout, ...]:
    """``_group_readings`` laid out for the scorer: (pair or -1, sets by (kind, chow
    before pung) as the split text lists them, pungs among them), memoised per key."""
    found = _layouts[g].get(key)
    if found is None:
        found = _layouts[g][key] = tuple(
            (pair, tuple(sorted(sets, key=lambda st: (st[1], st[0]))),
             sum(1 for st in sets if st[0] == "pung"))
            for pair, sets in _group_readings(g, key))
    return found


def splits_key(keys: Keys) -> list[Layout]:
    """Every reading of a complete hand's keys as (pair, sets, pungs), in the order
    of ``splits()``; the sets are ordered by kind (a chow before a pung of its
    lowest kind), the way a reading is written out. [] for an incomplete hand.

    A typical hand reads one way in each suit, so the answer is one tuple built
    from four memo lookups; only a hand with several readings is combined and sorted."""
    km, kp, ks, kz = keys
    if _SW[km] + _SW[kp] + _SW[ks] + _HW[kz] != 1:
        return []
    a, b, c, d = (_layouts[0].get(km) or _group_layouts(0, km),
                  _layouts[1].get(kp) or _group_layouts(1, kp),
                  _layouts[2].get(ks) or _group_layouts(2, ks),
                  _layouts[3].get(kz) or _group_layouts(3, kz))
    if len(a) == len(b) == len(c) == len(d) == 1:
        (pa, sa, na), (pb, sb, nb), (pc, sc, nc), (pd, sd, nd) = a[0], b[0], c[0], d[0]
        return [(max(pa, pb, pc, pd), sa + sb + sc + sd, na + nb + nc + nd)]
    out = [(max(w[0], x[0], y[0], z[0]), w[1] + x[1] + y[1] + z[1], w[2] + x[2] + y[2] + z[2])
           for w, x, y, z in product(a, b, c, d)]
    out.sort(key=lambda r: (r[0], tuple(sorted(r[1]))))
    return out


def splits(counts: Sequence[int]) -> list[Split]:
    """Every distinct way to read 3k+2 concealed tiles as k sets and one pair."""
    if sum(counts) > _tables.MAX_TILES:
        return [Split(s.pair, s.sets) for s in _ref.splits(counts)]
    try:
        keys = hand_key(counts)
    except _BadCounts:
        return [Split(s.pair, s.sets) for s in _ref.splits(counts)]
    return [Split(pair, tuple(sorted(sets))) for pair, sets, _ in splits_key(keys)]


def placement_shape(kind: str, low: int, tile: int) -> str:
    """The wait a winning ``tile`` placed in one set shows: 對碰 double_pung in a
    pung; in the chow starting at ``low``, 中洞 closed in the middle, 邊張 edge for
    12+3 and 89+7, else 兩面 open. The scorer reads casual's shape 台 from this."""
    if kind == "pung":
        return "double_pung"
    pos, rank = tile - low, low % 9
    if pos == 1:
        return "closed"
    if (pos == 2 and rank == 0) or (pos == 0 and rank == 6):
        return "edge"
    return "open"


def wait_shapes(counts: Sequence[int], tile: int) -> frozenset[str]:
    """How ``tile`` completes 3k+1 tiles, one entry per placement in any split:
    邊張 edge, 中洞 closed, 單吊 single, 兩面 open, 對碰 double_pung.

    12234m + 3m is both edge and closed; rules/003 lets the scorer prefer edge."""
    c = list(counts)
    c[tile] += 1
    shapes: set[str] = set()
    for sp in splits(c):
        if sp.pair == tile:
            shapes.add("single")
        for kind, k in sp.sets:
            holds_tile = (k == tile) if kind == "pung" else (k <= tile <= k + 2)
            if holds_tile:
                shapes.add(placement_shape(kind, k, tile))
    return frozenset(shapes)

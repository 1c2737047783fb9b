"""Per-suit lookup tables behind ``hand`` (牌型查表), built once and cached on disk.

A *suit key* packs one suit's counts into an int, base 5, rank 1 as the most
significant digit: ``1123m`` is ``2·5⁸ + 1·5⁷ + 1·5⁶``. Suits have 9 digits
(keys below 5⁹), honors 7 (below 5⁷). Chows never cross suits, so everything
about a hand follows from its four keys, and each table is indexed by a key.

Tables (indexed by suit key; one byte an entry unless said):

* ``size``: tiles in the key (its digit sum).
* ``win``: 0 if the suit's tiles are all sets, 1 if sets and one pair, 9 if
  neither. A hand is complete (胡牌) iff the four entries sum to exactly 1.
* ``wait`` (two bytes): bits 0-8, bit r set when adding rank r+1 makes the key
  all-sets or sets-and-pair — the waits (聽牌) of that suit; bit 9 set when it is
  sets-and-pair. One table serves both questions because a key of 3k+2 tiles can
  only become all-sets and one of 3k+1 only sets-and-pair.
* ``prof``: id of the suit's *profile*, ``A[0..5] + B[0..5]``, where ``A[j]`` is
  the best ``2·sets + partials`` using at most j blocks (sets or partials) and
  ``B[j]`` the same with one extra pair kept as the head (-1 when no pair can be
  head). Profiles combine across suits by max-plus convolution, and shanten for
  k sets is ``2k - max(A[k], B[k] + 1)`` — the reference's definition exactly.

Memory: the suit tables are 5⁹ ≈ 1.95 M entries each, so their container is the
whole cost. Python lists (8-byte pointers) made ``import twmahjong.hand`` cost
~63 MiB of RSS; one byte an entry (two for ``wait``) is ~10 MiB, read from the
cache file into ``bytes`` and an array — indexing ``bytes`` is a little faster
than indexing a list (bench/hand.py times both). With ``TWMJ_MAP_TABLES=1`` the
file is mapped read-only instead: a process then holds only the pages its lookups
touched and every process on the machine shares them (~10 MiB less per server
worker), at a few per cent on each lookup (a map is indexed more slowly than
``bytes``). Every id fits a byte (a few hundred profiles at most — ``build``
checks), and 255 marks a key of more than 17 tiles, which no hand has.

Building the tables takes a few seconds in pure Python; they are written to the
user cache dir (or ``$TWMJ_CACHE_DIR``) atomically, stamped with ``VERSION``, and
rebuilt silently when the file is missing, stale or unreadable. A cache dir that
cannot be written (a read-only install) only means each start builds in memory.
"""

from __future__ import annotations

import marshal
import mmap
import os
import sys
import tempfile
from array import array
from pathlib import Path

VERSION = 4
NO_PROFILE = 255              # ``prof`` of a key with more than MAX_TILES tiles
WAIT_PAIR = 1 << 9           # ``wait`` bit: the waits make sets and a pair
NEG = -1                       # "no such reading" in a profile entry
MAX_BLOCKS = 5                 # five sets + pair: the 16-tile hand's shape
SUIT_DIGITS, HONOR_DIGITS = 9, 7
MAX_TILES = 17                 # concealed tiles never exceed 16 + the winning one

_FILE = f"hand-tables-v{VERSION}.bin"   # old and new installs side by side keep their own


def cache_dir() -> Path:
    """Where the tables live: ``$TWMJ_CACHE_DIR`` or the platform's user cache."""
    env = os.environ.get("TWMJ_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("twmahjong"))


# ---- profiles: interned tuples, transforms memoised by id -------------------

class Profiles:
    """Interned profile vectors; ids are small ints so tables stay compact."""

    def __init__(self, vectors: list[tuple[int, ...]] | None = None):
        self.vec: list[tuple[int, ...]] = []
        self.index: dict[tuple[int, ...], int] = {}
        self._set: dict[int, int] = {}
        self._part: dict[int, int] = {}
        self._head: dict[int, int] = {}
        self._max: dict[int, int] = {}
        self.merge_memo: dict[int, int] = {}
        self.shanten: list[tuple[int, ...]] = []
        for v in vectors or ():
            self.intern(v)

    def intern(self, v: tuple[int, ...]) -> int:
        i = self.index.get(v)
        if i is None:
            i = self.index[v] = len(self.vec)
            self.vec.append(v)
            a, b = v[:6], v[6:]
            self.shanten.append(tuple(
                2 * k - max(a[k], b[k] + 1 if b[k] >= 0 else NEG) for k in range(6)))
        return i

    def add_set(self, p: int) -> int:
        """Readings that also use one more set: a set is worth 2 and one block."""
        r = self._set.get(p)
        if r is None:
            v = self.vec[p]
            a = (0,) + tuple(x + 2 for x in v[:5])
            b = (v[6],) + tuple(x + 2 if x >= 0 else NEG for x in v[6:11])
            r = self._set[p] = self.intern(a + b)
        return r

    def add_partial(self, p: int) -> int:
        """Readings that also hold a partial (搭子): worth 1 if a block is free."""
        r = self._part.get(p)
        if r is None:
            v = self.vec[p]
            a = (v[0],) + tuple(max(v[j], v[j - 1] + 1) for j in range(1, 6))
            b = (v[6],) + tuple(max(v[j], v[j - 1] + 1 if v[j - 1] >= 0 else NEG)
                                for j in range(7, 12))
            r = self._part[p] = self.intern(a + b)
        return r

    def add_head(self, p: int) -> int:
        """Readings that keep this pair as the head (眼): only B is defined."""
        r = self._head.get(p)
        if r is None:
            r = self._head[p] = self.intern((NEG,) * 6 + self.vec[p][:6])
        return r

    def best(self, p: int, q: int) -> int:
        """Elementwise max: the better of two sets of readings."""
        if p == q:
            return p
        if p > q:
            p, q = q, p
        key = p << 20 | q
        r = self._max.get(key)
        if r is None:
            u, w = self.vec[p], self.vec[q]
            r = self._max[key] = self.intern(tuple(max(x, y) for x, y in zip(u, w)))
        return r

    def merge(self, p: int, q: int) -> int:
        """Two tile groups side by side: blocks add, at most one head in total."""
        key = p << 20 | q
        r = self.merge_memo.get(key)
        if r is None:
            u, w = self.vec[p], self.vec[q]
            a = [NEG] * 6
            b = [NEG] * 6
            for i in range(6):
                ai, bi = u[i], u[6 + i]
                for j in range(6 - i):
                    aj, bj = w[j], w[6 + j]
                    s = ai + aj
                    if s > a[i + j]:
                        a[i + j] = s
                    if bi >= 0 and bi + aj > b[i + j]:
                        b[i + j] = bi + aj
                    if bj >= 0 and ai + bj > b[i + j]:
                        b[i + j] = ai + bj
            r = self.merge_memo[key] = self.intern(tuple(a) + tuple(b))
        return r


ZERO = (0,) * 6 + (NEG,) * 6     # no tiles: no blocks, no head


# ---- building ---------------------------------------------------------------

def _digit_sums(n_digits: int) -> bytearray:
    size = 5 ** n_digits
    ds = bytearray(size)
    for key in range(1, size):
        ds[key] = ds[key // 5] + key % 5
    return ds


def _build_profiles(prof: Profiles, n_digits: int, chows: bool) -> array:
    """Profile id for every key of at most MAX_TILES tiles, smaller keys first.

    Removing tiles always lowers a key, so each key's sub-readings are ready when
    it is reached. The options mirror the reference: the lowest tile is left
    alone, or starts a pung, a pair (partial or head), a chow, or a partial chow."""
    size = 5 ** n_digits
    pw = [5 ** (n_digits - 1 - r) for r in range(n_digits)] + [0, 0]
    ds = _digit_sums(n_digits)
    out = array("i", [-1]) * size
    out[0] = prof.intern(ZERO)
    add_set, add_part, add_head, best = prof.add_set, prof.add_partial, prof.add_head, prof.best
    for key in range(1, size):
        if ds[key] > MAX_TILES:
            continue
        i = 0
        while key // pw[i] % 5 == 0:
            i += 1
        p0 = pw[i]
        c0 = key // p0 % 5
        p = out[key - p0]                                   # lowest tile left alone
        if c0 >= 3:
            p = best(p, add_set(out[key - 3 * p0]))
        if c0 >= 2:
            sub = out[key - 2 * p0]
            p = best(p, add_part(sub))
            p = best(p, add_head(sub))
        if chows:
            c1 = key // pw[i + 1] % 5 if i + 1 < n_digits else 0
            c2 = key // pw[i + 2] % 5 if i + 2 < n_digits else 0
            if c1 and c2:
                p = best(p, add_set(out[key - p0 - pw[i + 1] - pw[i + 2]]))
            if c1:
                p = best(p, add_part(out[key - p0 - pw[i + 1]]))
            if c2:
                p = best(p, add_part(out[key - p0 - pw[i + 2]]))
        out[key] = p
    return out


def _build_wins(n_digits: int, chows: bool) -> tuple[bytes, array]:
    """Every key that is sets only / sets and a pair, and the keys one tile short."""
    size = 5 ** n_digits
    pw = [5 ** (n_digits - 1 - r) for r in range(n_digits)]
    shapes = [3 * pw[r] for r in range(n_digits)]            # pungs
    shape_digits = [(r, r, r) for r in range(n_digits)]
    if chows:
        shapes += [pw[r] + pw[r + 1] + pw[r + 2] for r in range(n_digits - 2)]
        shape_digits += [(r, r + 1, r + 2) for r in range(n_digits - 2)]
    win = bytearray([9]) * size

    all_sets: set[int] = set()

    def grow(start: int, counts: list[int], key: int, n: int) -> None:
        all_sets.add(key)
        if n == MAX_BLOCKS:
            return
        for s in range(start, len(shapes)):
            ds = shape_digits[s]
            for r in ds:
                counts[r] += 1
            if all(counts[r] <= 4 for r in ds):
                grow(s, counts, key + shapes[s], n + 1)
            for r in ds:
                counts[r] -= 1

    grow(0, [0] * n_digits, 0, 0)
    for key in all_sets:
        win[key] = 0
    for key in all_sets:
        for r in range(n_digits):
            if key // pw[r] % 5 <= 2:
                win[key + 2 * pw[r]] = 1
    wait = array("H", [0]) * size
    for key in range(size):
        w = win[key]
        if w > 1:
            continue
        flag = WAIT_PAIR if w else 0
        for r in range(n_digits):
            if key // pw[r] % 5:
                short = key - pw[r]
                entry = wait[short]
                # cannot happen: all-sets waits need 3k+2 tiles, sets-and-pair 3k+1
                if entry and entry & WAIT_PAIR != flag:
                    raise AssertionError(f"key {short} waits both ways")
                wait[short] = entry | 1 << r | flag
    return bytes(win), wait


def _one_byte(ids: array) -> bytes:
    """Profile ids as one byte each, NO_PROFILE where the key has too many tiles."""
    if max(ids) >= NO_PROFILE:
        raise AssertionError("more profiles than one byte holds")
    return bytes(NO_PROFILE if i < 0 else i for i in ids)


def build() -> dict:
    prof = Profiles()
    suit_prof = _build_profiles(prof, SUIT_DIGITS, True)
    honor_prof = _build_profiles(prof, HONOR_DIGITS, False)
    sw, swait = _build_wins(SUIT_DIGITS, True)
    hw, hwait = _build_wins(HONOR_DIGITS, False)
    return {
        "suit_size": bytes(_digit_sums(SUIT_DIGITS)), "honor_size": bytes(_digit_sums(HONOR_DIGITS)),
        "version": VERSION, "byteorder": sys.byteorder, "profiles": prof.vec,
        "suit_prof": _one_byte(suit_prof), "honor_prof": _one_byte(honor_prof),
        "suit_win": sw, "suit_wait": swait.tobytes(),
        "honor_win": hw, "honor_wait": hwait.tobytes(),
    }


# ---- the cache --------------------------------------------------------------
#
# One file: every table at a page-aligned offset, then the marshalled header
# (version, byte order, profile vectors, each table's offset and size), then the
# header's offset and a magic word. A table is one read into ``bytes``, or, mapped,
# no copy at all: pages come in as lookups touch them and every process on the
# machine shares them through the page cache.

_MAGIC = b"TWMJHT\x00\x03"
_TABLES = ("suit_size", "honor_size", "suit_prof", "honor_prof", "suit_win", "honor_win",
           "suit_wait", "honor_wait")
_SHORTS = ("suit_wait", "honor_wait")
_PAGE = mmap.ALLOCATIONGRANULARITY


def _read(path: Path, mapped: bool = False) -> dict | None:
    """The cached tables, read into memory or mapped; None when the file is missing,
    stale or damaged."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            f.seek(size - 16)
            tail = f.read(16)
            if tail[8:] != _MAGIC:
                return None
            start = int.from_bytes(tail[:8], "little")
            f.seek(start)
            header = marshal.loads(f.read(size - 16 - start))
            if not isinstance(header, dict) or header.get("version") != VERSION \
                    or header.get("byteorder") != sys.byteorder:
                return None
            data = {"version": VERSION, "byteorder": sys.byteorder,
                    "profiles": header["profiles"]}
            for name in _TABLES:
                offset, nbytes = header["tables"][name]
                if mapped:
                    table = mmap.mmap(f.fileno(), nbytes, offset=offset, access=mmap.ACCESS_READ)
                    data[name] = memoryview(table).cast("H") if name in _SHORTS else table
                else:
                    f.seek(offset)
                    data[name] = f.read(nbytes)
                    if len(data[name]) != nbytes:
                        return None
            return data
    except (OSError, ValueError, EOFError, TypeError, KeyError, OverflowError):
        return None


def _write(path: Path, data: dict) -> bool:
    """Write beside the target, then rename: readers never see half a file, and a
    process that still maps the old file keeps reading it. False when the cache dir
    cannot be written (a read-only install)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".hand-tables-")
        try:
            with os.fdopen(fd, "wb") as f:
                where = {}
                for name in _TABLES:
                    f.write(b"\x00" * (-f.tell() % _PAGE))
                    where[name] = (f.tell(), memoryview(data[name]).nbytes)
                    f.write(data[name])
                start = f.tell()
                f.write(marshal.dumps({"version": data["version"], "byteorder": data["byteorder"],
                                       "profiles": data["profiles"], "tables": where}))
                f.write(start.to_bytes(8, "little") + _MAGIC)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


class Tables:
    """The tables as looked up: ``bytes`` for the one-byte tables and an unsigned-short
    array for ``wait`` (or read-only maps of the cache file, see ``load``)."""

    def __init__(self, data: dict):
        self.profiles = Profiles(data["profiles"])
        self.suit_prof = data["suit_prof"]
        self.honor_prof = data["honor_prof"]
        self.suit_size = data["suit_size"]
        self.honor_size = data["honor_size"]
        self.suit_win = data["suit_win"]
        self.honor_win = data["honor_win"]
        self.suit_wait = _shorts(data["suit_wait"])
        self.honor_wait = _shorts(data["honor_wait"])
        size_s, size_h = 5 ** SUIT_DIGITS, 5 ** HONOR_DIGITS
        for t, n in ((self.suit_size, size_s), (self.honor_size, size_h),
                     (self.suit_prof, size_s), (self.honor_prof, size_h),
                     (self.suit_win, size_s), (self.honor_win, size_h),
                     (self.suit_wait, size_s), (self.honor_wait, size_h)):
            if len(t) != n:
                raise ValueError("table has the wrong size")
        if len(self.profiles.vec) > NO_PROFILE:
            raise ValueError("more profiles than one byte holds")


def _shorts(raw) -> array | memoryview:
    """A two-byte table: a mapped one as it is, built bytes as an array."""
    if isinstance(raw, memoryview):
        return raw
    a = array("H")
    a.frombytes(raw)
    return a


def load(path: Path | None = None, mapped: bool | None = None) -> Tables:
    """Tables from the cache, rebuilding (and re-caching) whatever is not usable;
    built in memory when the cache cannot be written. ``mapped`` (default: env
    ``TWMJ_MAP_TABLES=1``) maps the file instead of reading it (see the module doc)."""
    if mapped is None:
        mapped = os.environ.get("TWMJ_MAP_TABLES") == "1"
    path = path or cache_dir() / _FILE
    data = _read(path, mapped)
    if data is not None:
        try:
            return Tables(data)
        except (KeyError, ValueError, TypeError, IndexError):
            pass
    data = build()
    if _write(path, data) and mapped:
        found = _read(path, mapped)
        if found is not None:
            return Tables(found)
    return Tables(data)

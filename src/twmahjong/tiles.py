"""Tiles and their notation (牌與記法).

Every other module speaks in *kinds*: small ints that index count arrays, because
the hot paths (win check, waits, shanten) are table lookups over counts.

    >>> parse_tiles("123m5z1f")
    [0, 1, 2, 31, 34]
    >>> format_tiles([31, 0, 1, 2, 34])
    '123m5z1f'

Kind ids:

====== ======= ====================================
0-8    1m-9m   萬 characters
9-17   1p-9p   筒 dots
18-26  1s-9s   條 bamboo
27-30  1z-4z   東 南 西 北
31-33  5z-7z   白 發 中
34-41  1f-8f   春 夏 秋 冬 梅 蘭 菊 竹 (flowers, one each)
====== ======= ====================================

A physical tile (the engine's wall holds 144 of them) is an int 0-143: ids 0-135
are ``kind * 4 + copy`` and ids 136-143 are the eight flowers, so
``physical_kind(t)`` is one division or one subtraction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .errors import UserError

__all__ = [
    "NotationError", "KINDS", "FLOWER_KINDS", "ALL_KINDS", "SUITS", "HONORS",
    "WINDS", "DRAGONS", "EAST", "SOUTH", "WEST", "NORTH", "WHITE", "GREEN", "RED",
    "FIRST_FLOWER", "parse_tiles", "parse_tile", "format_tiles", "tile_str",
    "zh_name", "en_name", "counts34", "is_flower", "is_honor", "suit_of", "rank_of",
    "check_limits", "physical_kind", "WIND_LETTERS", "wind_index", "FULL_SET",
    "seat_flowers", "sort_kinds",
]


class NotationError(UserError):
    """Tile text that cannot be read, or tiles that cannot exist together.

    The message names the bad character and its position, for a player to fix."""


KINDS = 34                      # suited + honor kinds; count arrays have this length
FIRST_FLOWER = 34
FLOWER_KINDS = range(34, 42)
ALL_KINDS = 42
SUITS = "mps"
HONORS = range(27, 34)
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
WIND_LETTERS = "ESWN"

# The 144-tile set as kinds: four of each of the 34, one of each flower.
FULL_SET: tuple[int, ...] = tuple(k for k in range(KINDS) for _ in range(4)) + tuple(FLOWER_KINDS)

_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

# Per-kind lookups for the hot paths (an observation names every tile of four rivers
# at each move the server sends): the suit letter, rank and MPSZ name of kinds 0-41.
_SUIT_OF: tuple[str, ...] = tuple(SUITS[k // 9] if k < 27 else "z" if k < 34 else "f"
                                  for k in range(ALL_KINDS))
_RANK_OF: tuple[int, ...] = tuple(k - _SUIT_BASE[_SUIT_OF[k]] + 1 for k in range(ALL_KINDS))
_RANK_CH: tuple[str, ...] = tuple(str(r) for r in _RANK_OF)
_TILE_STR: tuple[str, ...] = tuple(f"{r}{u}" for r, u in zip(_RANK_OF, _SUIT_OF, strict=True))

_ZH_NUM = "一二三四五六七八九"
_ZH_SUIT = {"m": "萬", "p": "筒", "s": "條"}
_ZH_HONOR = "東南西北白發中"
_ZH_FLOWER = "春夏秋冬梅蘭菊竹"
_EN_SUIT = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_EN_HONOR = ("East", "South", "West", "North", "White", "Green", "Red")
_EN_FLOWER = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum", "Bamboo")

# Chinese input: suit words after a numeral, and single-character tiles.
# Simplified and common alternative forms are accepted, since players type both.
_ZH_SUIT_IN = {
    "萬": "m", "万": "m",
    "筒": "p", "餅": "p", "饼": "p",
    "條": "s", "条": "s", "索": "s",
}
_ZH_SINGLE = {
    **{c: 27 + i for i, c in enumerate(_ZH_HONOR)},
    "发": 32, "紅中": 33, "红中": 33, "白板": 31, "發財": 32, "发财": 32,
    "東風": 27, "东风": 27, "东": 27, "南風": 28, "南风": 28, "西風": 29, "西风": 29,
    "北風": 30, "北风": 30,
    **{c: 34 + i for i, c in enumerate(_ZH_FLOWER)},
    "兰": 39,
}


def is_flower(kind: int) -> bool:
    return kind >= FIRST_FLOWER


def is_honor(kind: int) -> bool:
    return 27 <= kind < 34


def suit_of(kind: int) -> str:
    """'m', 'p', 's', 'z' or 'f'."""
    return _SUIT_OF[kind]


def rank_of(kind: int) -> int:
    """1-9 for suited tiles, 1-7 for honors, 1-8 for flowers (the notation digit)."""
    return _RANK_OF[kind]


def physical_kind(tile: int) -> int:
    """Kind of a physical tile id 0-143."""
    return tile >> 2 if tile < 136 else tile - 102


def tile_str(kind: int) -> str:
    """One kind in MPSZ notation: ``tile_str(31) == '5z'``."""
    return _TILE_STR[kind]


def zh_name(kind: int) -> str:
    """Traditional Chinese name as players say it: 一萬, 東, 中, 春."""
    if kind < 27:
        return _ZH_NUM[kind % 9] + _ZH_SUIT[SUITS[kind // 9]]
    if kind < 34:
        return _ZH_HONOR[kind - 27]
    return _ZH_FLOWER[kind - 34]


def en_name(kind: int) -> str:
    if kind < 27:
        return f"{kind % 9 + 1} {_EN_SUIT[SUITS[kind // 9]]}"
    if kind < 34:
        return _EN_HONOR[kind - 27]
    return _EN_FLOWER[kind - 34]


def wind_index(letter: str) -> int:
    """'E'/'S'/'W'/'N' (any case) to 0-3."""
    i = WIND_LETTERS.find(letter.upper()) if isinstance(letter, str) and len(letter) == 1 else -1
    if i < 0:
        raise NotationError(f"wind must be one of E S W N, not {letter!r}")
    return i


def seat_flowers(wind: int) -> tuple[int, int]:
    """The two flower kinds that match a seat wind 0-3: East 春/梅, South 夏/蘭, ..."""
    return (34 + wind, 38 + wind)


def sort_kinds(kinds: Iterable[int]) -> list[int]:
    return sorted(kinds)


def parse_tile(text: str) -> int:
    """Exactly one tile: ``parse_tile('7z') == 33``."""
    kinds = parse_tiles(text)
    if len(kinds) != 1:
        raise NotationError(f"expected exactly one tile, got {len(kinds)} in {text!r}")
    return kinds[0]


def parse_tiles(text: str) -> list[int]:
    """Read MPSZ notation (``123m55z1f``), Chinese names (一萬 東 春), or a mix.

    Spaces, commas and ``+`` separate freely. Order is kept, so a caller that
    cares about sequence (a meld, a wall) gets its tiles back as written.
    Raises NotationError naming the first bad character and its position.
    """
    if not isinstance(text, str):
        raise NotationError(f"tiles must be text, not {type(text).__name__}")
    out: list[int] = []
    pending: list[tuple[int, int]] = []   # (digit, position) awaiting a suit letter
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isascii() and ch.isdigit():
            pending.append((int(ch), i))
            i += 1
            continue
        if ch in _SUIT_BASE:
            if not pending:
                raise NotationError(f"suit letter {ch!r} at position {i} has no digits before it")
            for digit, pos in pending:
                if not 1 <= digit <= _SUIT_SIZE[ch]:
                    raise NotationError(f"no tile {digit}{ch} (digit at position {pos})")
                out.append(_SUIT_BASE[ch] + digit - 1)
            pending.clear()
            i += 1
            continue
        if pending:
            d, pos = pending[0]
            raise NotationError(
                f"digits at position {pos} have no suit letter (m p s z f) before {ch!r} at position {i}")
        if ch in " ,+\t\n、，":
            i += 1
            continue
        if ch in _ZH_NUM and i + 1 < n and text[i + 1] in _ZH_SUIT_IN:
            suit = _ZH_SUIT_IN[text[i + 1]]
            out.append(_SUIT_BASE[suit] + _ZH_NUM.index(ch))
            i += 2
            continue
        two = text[i:i + 2]
        if two in _ZH_SINGLE:
            out.append(_ZH_SINGLE[two])
            i += 2
            continue
        if ch in _ZH_SINGLE:
            out.append(_ZH_SINGLE[ch])
            i += 1
            continue
        raise NotationError(f"unexpected character {ch!r} at position {i} in {text!r}")
    if pending:
        raise NotationError(f"digits at position {pending[0][1]} have no suit letter (m p s z f)")
    return out


def format_tiles(kinds: Iterable[int], *, sort: bool = True) -> str:
    """MPSZ notation, grouped by suit (``123m55z``). ``sort=False`` keeps order."""
    ks = sorted(kinds) if sort else list(kinds)
    out: list[str] = []
    run_suit = ""
    for k in ks:
        s = _SUIT_OF[k]
        if s != run_suit and out:
            out.append(run_suit)
        run_suit = s
        out.append(_RANK_CH[k])
    if out:
        out.append(run_suit)
    return "".join(out)


def counts34(kinds: Iterable[int]) -> list[int]:
    """Count array over the 34 non-flower kinds (flowers are ignored)."""
    c = [0] * KINDS
    for k in kinds:
        if k < KINDS:
            c[k] += 1
    return c


def check_limits(kinds: Iterable[int], what: str = "hand") -> None:
    """Reject a fifth copy of a kind or a repeated flower: such tiles do not exist."""
    for k, n in Counter(kinds).items():
        if is_flower(k) and n > 1:
            raise NotationError(f"{what} holds flower {tile_str(k)} ({zh_name(k)}) {n} times; there is only one")
        if n > 4:
            raise NotationError(f"{what} holds {n} copies of {tile_str(k)} ({zh_name(k)}); there are only 4")

"""MPSZ text for the table's events at table speed (牌的寫法).

``twmahjong.tiles`` is the authority on notation; the referee writes a tile or a
hand into an event on almost every step, so this module answers the same
questions from tables built once from ``tiles``. Tests compare the two.

    >>> fmt_tiles([27, 0, 1, 34]), tile_text(31)
    ('12m1z1f', '5z')
"""

from __future__ import annotations

from collections.abc import Iterable

from ..tiles import rank_of, suit_of, tile_str

__all__ = ["TILE_TEXT", "fmt_tiles", "tile_text"]

_TEXT = tuple(tile_str(k) for k in range(42))
TILE_TEXT = _TEXT                   # kind -> text, indexed where a call would cost
_DIGIT = tuple(str(rank_of(k)) for k in range(42))
_SUIT = tuple(suit_of(k) for k in range(42))


def tile_text(kind: int) -> str:
    """One kind as text: ``tile_text(0) == '1m'``."""
    return _TEXT[kind]


def fmt_tiles(kinds: Iterable[int]) -> str:
    """Kinds sorted and grouped by suit, exactly as ``tiles.format_tiles`` writes them."""
    parts: list[str] = []
    suit = ""
    for k in sorted(kinds):
        s = _SUIT[k]
        if s != suit and suit:
            parts.append(suit)
        parts.append(_DIGIT[k])
        suit = s
    if suit:
        parts.append(suit)
    return "".join(parts)

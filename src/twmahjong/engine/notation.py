"""MPSZ text for the table's events (牌的寫法), under the engine's names.

``twmahjong.tiles`` is the authority on notation, and its writers are table-driven
(a kind's text is one tuple lookup), so the referee, which writes a tile or a hand
into an event on almost every step, calls them directly under these names.

    >>> fmt_tiles([27, 0, 1, 34]), tile_text(31)
    ('12m1z1f', '5z')
"""

from __future__ import annotations

from collections.abc import Iterable

from ..tiles import ALL_KINDS, format_tiles, tile_str

__all__ = ["TILE_TEXT", "fmt_tiles", "tile_text"]

TILE_TEXT: tuple[str, ...] = tuple(tile_str(k) for k in range(ALL_KINDS))  # kind -> text
tile_text = tile_str


def fmt_tiles(kinds: Iterable[int]) -> str:
    """Kinds sorted and grouped by suit: ``tiles.format_tiles``."""
    return format_tiles(kinds)

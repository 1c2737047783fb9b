"""Tiles as coloured text (牌面): one fixed-width cell per tile, colour per suit.

CJK text renders in every terminal that shows Chinese at all, where the Unicode
mahjong block (🀇…) is missing from many fonts and has ambiguous widths, so a tile
is its name (五萬, 東) on an ivory face: 萬 red, 筒 blue, 條 green, like the
printed tiles. Every tile takes ``CELL`` columns so a click can find its tile.

    >>> tile_text("zh", 4).plain
    '五萬'
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..tiles import parse_tiles
from .strings import tile_label

__all__ = ["CELL", "GAP", "kinds", "tile_style", "tile_text", "tiles_text"]

CELL = 4          # columns per tile face
GAP = 1           # columns between tiles

_FACE = "#f4efe1"
_FG = {"m": "#b3261e", "p": "#1849a9", "s": "#1b7a3e", "wind": "#222222",
       "white": "#1849a9", "green": "#1b7a3e", "red": "#b3261e", "f": "#7b2d8e"}


def kinds(text: str | None) -> list[int]:
    """MPSZ text from an observation as kinds, in its order ('' and None: none)."""
    return parse_tiles(text) if text else []


def _fg(kind: int) -> str:
    if kind < 27:
        return _FG["mps"[kind // 9]]
    if kind < 31:
        return _FG["wind"]
    if kind < 34:
        return _FG[("white", "green", "red")[kind - 31]]
    return _FG["f"]


def tile_style(kind: int, *, selected: bool = False, last: bool = False, dim: bool = False) -> Style:
    """Face colour for a kind; a selected tile turns gold, the last discard orange."""
    bg = "#ffd54f" if selected else "#ffab91" if last else _FACE
    if dim:
        return Style(color="#8a8a8a", bgcolor="#d9d4c7")
    return Style(color=_fg(kind), bgcolor=bg, bold=selected or last or kind >= 27)


def tile_text(lang: str, kind: int, **flags) -> Text:
    """One tile padded to ``CELL`` columns."""
    label = tile_label(lang, kind)
    pad = CELL - cell_len(label)
    left = pad // 2
    return Text(" " * left + label + " " * (pad - left), style=tile_style(kind, **flags))


def tiles_text(lang: str, ks: list[int], *, last_index: int | None = None,
               dim: frozenset[int] = frozenset()) -> Text:
    """A row of tiles separated by ``GAP`` spaces; ``last_index`` is highlighted."""
    out = Text()
    for i, k in enumerate(ks):
        if i:
            out.append(" " * GAP)
        out.append_text(tile_text(lang, k, last=(i == last_index), dim=(i in dim)))
    return out

"""Tiles as coloured text (牌面): one fixed-width cell per tile, colour per suit.

CJK text renders in every terminal that shows Chinese at all, where the Unicode
mahjong block (🀇…) is missing from many fonts and has ambiguous widths, so a tile
is its name (五萬, 東) on an ivory face: 萬 red, 筒 blue, 條 green, like the
printed tiles. Every tile takes ``cell`` columns so a click can find its tile:
``CELL`` (4) for full faces, ``COMPACT`` (3: 5萬, 5m) where 80 columns must hold
seventeen tiles on one row.

Colour is never the only signal: the latest discard is also reversed and
underlined, a claimed one struck through, a tile that may not go out is dimmed
*and* marked x under the hand (render.py).

    >>> tile_text("zh", 4).plain, tile_text("zh", 4, cell=COMPACT).plain
    ('五萬', '5萬')
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from ..tiles import parse_tiles
from .strings import tile_label

__all__ = ["CELL", "COMPACT", "GAP", "kinds", "tile_style", "tile_text", "tiles_text"]

CELL = 4          # columns per tile face
COMPACT = 3       # columns per compact face (5萬, 5m)
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


def tile_style(kind: int, *, selected: bool = False, last: bool = False, dim: bool = False,
               struck: bool = False) -> Style:
    """Face colour for a kind; a selected tile turns gold, the last discard orange
    (and underlined), a claimed one grey and struck through."""
    if dim or struck:
        return Style(color="#8a8a8a", bgcolor="#d9d4c7", strike=struck)
    bg = "#ffd54f" if selected else "#ffab91" if last else _FACE
    return Style(color=_fg(kind), bgcolor=bg, bold=selected or last or kind >= 27,
                 underline=last)


def tile_text(lang: str, kind: int, cell: int = CELL, **flags) -> Text:
    """One tile padded to ``cell`` columns (compact labels when ``cell`` < ``CELL``)."""
    label = tile_label(lang, kind, compact=cell < CELL)
    pad = max(0, cell - cell_len(label))
    left = pad // 2
    return Text(" " * left + label + " " * (pad - left), style=tile_style(kind, **flags))


def tiles_text(lang: str, ks: list[int], *, last_index: int | None = None,
               dim: frozenset[int] = frozenset(), struck: frozenset[int] = frozenset(),
               cell: int = CELL, gap: int = GAP) -> Text:
    """A row of tiles ``gap`` spaces apart; ``last_index`` is highlighted, ``dim`` greyed,
    ``struck`` (claimed discards) struck through."""
    out = Text()
    for i, k in enumerate(ks):
        if i and gap:
            out.append(" " * gap)
        out.append_text(tile_text(lang, k, cell, last=(i == last_index), dim=(i in dim),
                                  struck=(i in struck)))
    return out

"""The table drawn from one observation (觀察): header, seats, rivers, own hand, log.

Pure functions from the human seat's observation to Rich ``Text``; the widgets in
``app.py`` only place them. A river marks the last discard (the one that may be
claimed now) and dims discards another seat took (吃/碰/槓 — the tile stays in the
thrower's river, as docs/architecture.md says).
"""

from __future__ import annotations

from rich.text import Text

from ..hand import waits
from ..tiles import counts34
from .glyphs import CELL, GAP, kinds, tile_text, tiles_text
from .session import relative
from .strings import tile_label, tr, wind_label

__all__ = ["claimed_discards", "event_line", "hand_layout", "header_text", "meld_text",
           "seat_name", "seat_panel", "tiles_label"]

_REL_KEY = ("self", "right", "across", "left")


def seat_name(lang: str, seat: int, me: int, player: int) -> str:
    """你 / 上家 電腦2 (L3): where a seat sits from the person's chair and who plays it."""
    rel = relative(seat, me)
    if rel == 0:
        return tr(lang, "you")
    return tr(lang, "seat_name", rel=tr(lang, _REL_KEY[rel]), bot=tr(lang, "bot", n=player))


def tiles_label(lang: str, text: str) -> str:
    """MPSZ text as plain tile names, for messages: 三四五萬 → '三萬 四萬 五萬'."""
    return " ".join(tile_label(lang, k) for k in kinds(text))


def header_text(lang: str, obs: dict, *, hand_no: int, dealer_name: str) -> Text:
    t = Text()
    t.append(f" {tr(lang, 'title')} ", style="bold #f4efe1 on #8b1a1a")
    t.append("  ")
    t.append(tr(lang, "round", wind=wind_label(lang, obs["round_wind"]), n=hand_no + 1), style="bold")
    t.append("   ")
    t.append(tr(lang, "dealer", name=dealer_name), style="bold #ffd54f")
    if obs["dealer_streak"]:
        t.append(" " + tr(lang, "streak", n=obs["dealer_streak"]), style="#ffd54f")
    t.append("   ")
    t.append(tr(lang, "tiles_left", n=obs["wall_remaining"]), style="bold cyan")
    return t


def meld_text(lang: str, meld: dict) -> Text:
    """One exposed set; a concealed kong of another seat lies face down."""
    if meld["tiles"] is None:
        return Text("[" + tr(lang, "hidden_kong") + "]", style="#a0a0a0")
    return tiles_text(lang, kinds(meld["tiles"]))


def claimed_discards(events: list[dict]) -> tuple[dict[int, set[int]], tuple[int, int] | None]:
    """River positions taken by another seat's 吃/碰/碰槓, and the latest discard
    still lying in a river as (seat, position), from this hand's events."""
    rivers: dict[int, int] = {s: 0 for s in range(4)}
    taken: dict[int, set[int]] = {s: set() for s in range(4)}
    last = None
    for e in events:
        if e["type"] == "discard":
            rivers[e["seat"]] += 1
            last = (e["seat"], rivers[e["seat"]] - 1)
        elif e["type"] in ("chi", "pon") or (e["type"] == "kong" and e.get("kind") == "exposed"):
            d = e["from"]
            taken[d].add(rivers[d] - 1)
            last = None
    return taken, last


def _wrap_tiles(lang: str, ks: list[int], width: int, *, last_index, dim) -> list[Text]:
    per = max(1, (width + GAP) // (CELL + GAP))
    lines = []
    for i in range(0, len(ks), per):
        chunk = ks[i:i + per]
        li = last_index - i if last_index is not None and i <= last_index < i + per else None
        lines.append(tiles_text(lang, chunk, last_index=li,
                                dim=frozenset(d - i for d in dim if i <= d < i + per)))
    return lines or [Text("")]


def seat_panel(lang: str, obs: dict, seat: int, *, title: str, score: int, width: int,
               taken: set[int], last: tuple[int, int] | None = None, river_only: bool = False) -> Text:
    """A seat's corner of the table: wind, score, tiles in hand, melds, flowers, river."""
    out = Text()
    wind = wind_label(lang, obs["seat_winds"][seat])
    out.append(f"{wind} ", style="bold #ffd54f" if seat == obs["dealer"] else "bold")
    out.append(title, style="bold")
    if seat == obs["dealer"]:
        out.append(" " + tr(lang, "dealer_mark"), style="bold #f4efe1 on #8b1a1a")
    if obs["declared"][seat]:
        out.append(" " + tr(lang, "declared_mark"), style="bold #f4efe1 on #1849a9")
    out.append("\n")
    out.append(f"{score:+d}", style="green" if score > 0 else "red" if score < 0 else "")
    if not river_only:
        out.append("  " + tr(lang, "concealed_n", n=obs["concealed_count"][seat]), style="#a0a0a0")
        lines: list[Text] = []
        for m in obs["melds"][seat]:          # a set never breaks across lines
            mt = meld_text(lang, m)
            if lines and lines[-1].cell_len + 2 + mt.cell_len <= width:
                lines[-1].append("  ")
            else:
                lines.append(Text())
            lines[-1].append_text(mt)
        for line in lines:
            out.append("\n")
            out.append_text(line)
        fl = kinds("".join(obs["flowers"][seat]))
        if fl:
            out.append("\n" + tr(lang, "flowers") + " ", style="#a0a0a0")
            out.append_text(tiles_text(lang, fl))
        out.append("\n" + "─" * width, style="#5c8a6e")
    river = kinds("".join(obs["discards"][seat]))
    li = last[1] if last and last[0] == seat else None
    for row in _wrap_tiles(lang, river, width, last_index=li, dim=taken):
        out.append("\n")
        out.append_text(row)
    return out


def hand_layout(hand: list[int], drawn: int | None) -> list[int]:
    """Start column of each tile of the person's hand; the drawn tile stands apart."""
    cols, x = [], 0
    for _ in hand:
        cols.append(x)
        x += CELL + GAP
    if drawn is not None:
        cols.append(x + 2)
    return cols


def hand_text(lang: str, obs: dict, sel: int | None, legal_tiles: set[int]) -> Text:
    """Melds and flowers, then the concealed tiles (drawn apart), then the ▲ marker."""
    me = obs["seat"]
    top = Text()
    for m in obs["melds"][me]:
        top.append_text(meld_text(lang, m))
        top.append("  ")
    fl = kinds("".join(obs["flowers"][me]))
    if fl:
        top.append(tr(lang, "flowers") + " ", style="#a0a0a0")
        top.append_text(tiles_text(lang, fl))
    hand = kinds(obs["hand"])
    drawn = kinds(obs["drawn"]) if obs.get("drawn") else []
    if not drawn and len(hand) % 3 == 1:
        wait = waits(counts34(hand))
        if wait:                       # 聽牌: the tiles that would complete the hand
            top.append("   " + tr(lang, "waits") + " ", style="bold #ffd54f")
            top.append_text(tiles_text(lang, wait))
    tiles = hand + drawn
    cols = hand_layout(hand, drawn[0] if drawn else None)
    row, mark = Text(), Text()
    for i, k in enumerate(tiles):
        pad = cols[i] - row.cell_len
        row.append(" " * pad)
        row.append_text(tile_text(lang, k, selected=(i == sel)))
        if i == sel:
            mark.append(" " * (cols[i] - mark.cell_len) + " ▲", style="bold #ffd54f")
    out = Text()
    out.append_text(top)
    out.append("\n")
    out.append_text(row)
    out.append("\n")
    out.append_text(mark)
    return out


def event_line(lang: str, e: dict, name) -> str | None:
    """One event as a short sentence for the log; ``name(seat)`` names a seat."""
    t = e["type"]
    if t == "discard":
        return tr(lang, "ev_discard", who=name(e["seat"]), tile=tile_label(lang, kinds(e["tile"])[0]))
    if t == "chi":
        return tr(lang, "ev_chi", who=name(e["seat"]), tiles=tiles_label(lang, e["tiles"]))
    if t == "pon":
        return tr(lang, "ev_pon", who=name(e["seat"]), tile=tile_label(lang, kinds(e["tile"])[0]))
    if t == "kong":
        if e["tile"] == "?":
            return tr(lang, "ev_kong_hidden", who=name(e["seat"]))
        return tr(lang, "ev_kong", who=name(e["seat"]), tile=tile_label(lang, kinds(e["tile"])[0]))
    if t == "flower":
        return tr(lang, "ev_flower", who=name(e["seat"]), tile=tile_label(lang, kinds(e["tile"])[0]))
    if t == "declare":
        return tr(lang, "ev_declare", who=name(e["seat"]))
    if t == "win":
        return tr(lang, "ev_self_win" if e["self_drawn"] else "ev_win", who=name(e["seat"]))
    if t == "draw_game":
        if e.get("reason") == "last_tile_declined":
            return tr(lang, "ev_last_declined")
        return tr(lang, "ev_draw_game")
    return None

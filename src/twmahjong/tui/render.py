"""The table drawn from one observation (觀察): header, seats, rivers, own hand, log.

Pure functions from the person's observation to Rich ``Text``; the widgets in
``table.py`` only place them. Everything is sized for the space it gets, 80×24
first: compact faces (5萬), melds as short notation (345萬, 5筒×3), and rivers
that close their gaps and then keep only the latest tiles (``+7`` counts the rest)
rather than spill out of their box. A river marks the last discard (the one that
may be claimed now) and strikes through discards another seat took (吃/碰/槓 —
the tile stays in the thrower's river, as docs/architecture.md says).
"""

from __future__ import annotations

from rich.text import Text

from .glyphs import CELL, COMPACT, GAP, kinds, tile_style, tile_text, tiles_text
from .session import relative
from .strings import STRINGS, tile_label, tr, tr_you, wind_label

__all__ = ["claimed_discards", "event_line", "flowers_text", "hand_layout", "hand_text",
           "header_text", "meld_text", "passed_win_text", "seat_body", "seat_name", "seat_title",
           "seat_to_move", "tiles_label", "waits_text"]

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


def header_text(lang: str, obs: dict, *, hand_no: int, dealer_name: str, width: int = 120,
                extra: str = "") -> Text:
    """One line: round and hand, dealer and 連莊, tiles left (the title only when it fits)."""
    t = Text()
    if width >= 100:
        t.append(f" {tr(lang, 'title')} ", style="bold #f4efe1 on #8b1a1a")
        t.append("  ")
    t.append(tr(lang, "round", wind=wind_label(lang, obs["round_wind"]), n=hand_no + 1), style="bold")
    t.append("   ")
    t.append(tr(lang, "dealer", name=dealer_name), style="bold #ffd54f")
    t.append(f" · {wind_label(lang, obs['seat_winds'][obs['dealer']])}", style="#ffd54f")
    if obs["dealer_streak"]:
        t.append(" " + tr(lang, "streak", n=obs["dealer_streak"]), style="#ffd54f")
    t.append("   ")
    t.append(tr(lang, "tiles_left", n=obs["wall_remaining"]), style="bold cyan")
    if extra:
        t.append("   " + extra, style="bold")
    return t


def meld_text(lang: str, meld: dict, compact: bool = True) -> Text:
    """One exposed set in short notation — a run 345萬 / 345m, a pung 5筒×3, a kong
    東×4 — on a tile face; a concealed kong of another seat lies face down (暗槓),
    your own says it is one ([暗槓 8筒]).
    ``compact`` False draws every tile (the result screen)."""
    if meld["tiles"] is None:
        return Text("[" + tr(lang, "hidden_kong") + "]", style="#a0a0a0")
    ks = kinds(meld["tiles"])
    if meld.get("type") == "concealed_kong":    # your own 暗槓 (or any, once hands are shown)
        return Text(f"[{tr(lang, 'hidden_kong')} {tile_label(lang, ks[0], compact=True)}]",
                    style=tile_style(ks[0]))
    if not compact:
        return tiles_text(lang, ks)
    style = tile_style(ks[0])
    if len(set(ks)) == 1:
        return Text(f"{tile_label(lang, ks[0], compact=True)}×{len(ks)}", style=style)
    suit = tile_label(lang, ks[0], compact=True)[1:]
    return Text("".join(str(k % 9 + 1) for k in ks) + suit, style=style)


def flowers_text(lang: str, flowers: list[str]) -> Text:
    """花 春梅: revealed flowers always carry their 花 label."""
    fl = kinds("".join(flowers))
    out = Text()
    if fl:
        out.append(tr(lang, "flowers") + " ", style="#c9a0dc")
        out.append_text(tiles_text(lang, fl, cell=2, gap=0) if lang != "en"
                        else tiles_text(lang, fl, cell=3, gap=0))
    return out


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


def river_rows(lang: str, ks: list[int], width: int, rows: int, *, last_index, taken,
               cell: int) -> list[Text]:
    """A river in at most ``rows`` rows of ``width``: with gaps if it fits, else
    without, else the latest tiles behind a ``+N`` that counts the hidden ones."""
    rows = max(1, rows)
    gap = GAP
    per = max(1, (width + gap) // (cell + gap))
    if -(-len(ks) // per) > rows:
        gap = 0
        per = max(1, width // cell)
    first, label_slots = 0, 1 if gap else 2     # "+N" needs its own space when tiles touch
    if len(ks) > per * rows:
        first = len(ks) - (per * rows - label_slots)
    out: list[Text] = []
    slots: list[tuple[int | None, int | None]] = []
    if first:
        slots += [(None, first)] + [(None, None)] * (label_slots - 1)
    slots += [(i, None) for i in range(first, len(ks))]
    for r in range(0, len(slots), per):
        line = Text()
        for j, (i, hidden) in enumerate(slots[r:r + per]):
            if j and gap:
                line.append(" " * gap)
            if i is None:
                if hidden is not None:
                    label = f"+{hidden}"
                    line.append(label + " " * max(0, cell * label_slots - len(label)), style="#a0a0a0")
            else:
                line.append_text(tile_text(lang, ks[i], cell, last=(i == last_index),
                                           struck=(i in taken)))
        out.append(line)
    return out or [Text("")]


def seat_to_move(obs: dict, events: list[dict]) -> int | None:
    """The seat that moves next, from this hand's public events: the one that drew,
    claimed or made a kong (to discard), or after a discard the next in turn (to
    draw, unless a claim comes first); None before the first move or once it is over."""
    if obs.get("phase") == "turn" and obs.get("legal") and any(
            a.get("type") == "discard" for a in obs["legal"]):
        return obs["seat"]
    mover = None
    for e in events:
        t = e.get("type")
        if t in ("draw", "chi", "pon", "kong", "flower", "declare") and "seat" in e:
            mover = e["seat"]
        elif t == "discard":
            mover = (e["seat"] + 1) % 4
        elif t in ("win", "draw_game", "settlement"):
            return None
    return mover


def seat_title(lang: str, obs: dict, seat: int, name: str, *, to_move: bool = False) -> Text:
    """The box title: ▶ on the seat to move, seat wind, 莊 and 聽 as words (not colour
    alone), then who sits there."""
    out = Text()
    if to_move:
        out.append("▶ ", style="bold #ffd54f")
    wind = wind_label(lang, obs["seat_winds"][seat])
    out.append(wind[0] if lang == "en" else wind,          # E / 東: the box is narrow
               style="bold #ffd54f" if seat == obs["dealer"] else "bold")
    if seat == obs["dealer"]:
        out.append(" " + tr(lang, "dealer_mark"), style="bold #f4efe1 on #8b1a1a")
    if obs["declared"][seat]:
        out.append(" " + tr(lang, "declared_mark"), style="bold #f4efe1 on #1849a9")
    out.append(" " + name, style="bold")
    return out


def seat_body(lang: str, obs: dict, seat: int, *, score: int, width: int, height: int,
              taken: set[int], last: tuple[int, int] | None = None, river_only: bool = False,
              cell: int = COMPACT) -> Text:
    """A seat's box: score and tiles in hand, melds and flowers (short notation), then
    the river in the rows left. Never taller than ``height`` lines."""
    lines: list[Text] = []
    top = Text()
    top.append(f"{score:+d}", style="green" if score > 0 else "red" if score < 0 else "")
    if not river_only:
        top.append("  " + tr(lang, "concealed_n", n=obs["concealed_count"][seat]), style="#a0a0a0")
    lines.append(top)
    if not river_only:
        items = [meld_text(lang, m) for m in obs["melds"][seat]]
        fl = flowers_text(lang, obs["flowers"][seat])
        if fl.plain:
            items.append(fl)
        row: Text | None = None
        for it in items:                        # a set never breaks across lines
            if row is not None and row.cell_len + 1 + it.cell_len <= width:
                row.append(" ")
                row.append_text(it)
            else:
                row = Text()
                row.append_text(it)
                lines.append(row)
    river = kinds("".join(obs["discards"][seat]))
    li = last[1] if last and last[0] == seat else None
    if river:
        lines += river_rows(lang, river, width, height - len(lines), last_index=li,
                            taken=taken, cell=cell)
    out = Text()
    for i, line in enumerate(lines[:max(1, height)]):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def hand_layout(hand: list[int], drawn: int | None, cell: int = CELL) -> list[int]:
    """Start column of each tile of the person's hand; the drawn tile stands apart."""
    cols, x = [], 0
    for _ in hand:
        cols.append(x)
        x += cell + GAP
    if drawn is not None:
        cols.append(x + 1)
    return cols


def hand_text(lang: str, obs: dict, sel: int | None, *, cell: int = CELL,
              ready: frozenset[int] = frozenset(), forbidden: frozenset[int] = frozenset(),
              risk: dict[int, str] | None = None, pick: int | None = None) -> Text:
    """Three lines: melds and flowers; the concealed tiles (drawn apart) on one row;
    the marks under them — ▲ picked, * leaves the hand ready, x may not go out now,
    and the 教練's: ★ the tile it would throw, ○ 安全 △ 小心 ✕ 危險 (tui/coach.py)."""
    from .coach import PICK, SIGN, STYLE
    risk = risk or {}
    me = obs["seat"]
    top = Text()
    for m in obs["melds"][me]:
        top.append_text(meld_text(lang, m))
        top.append(" ")
    top.append_text(flowers_text(lang, obs["flowers"][me]))
    hand = kinds(obs["hand"])
    drawn = kinds(obs["drawn"]) if obs.get("drawn") else []
    tiles = hand + drawn
    cols = hand_layout(hand, drawn[0] if drawn else None, cell)
    # the coach's tile: the drawn one if it is that kind, else the first of the kind
    at = None if pick is None else len(tiles) - 1 if drawn and drawn[0] == pick else (
        hand.index(pick) if pick in hand else None)
    row, mark = Text(), Text()
    for i, k in enumerate(tiles):
        row.append(" " * (cols[i] - row.cell_len))
        row.append_text(tile_text(lang, k, cell, selected=(i == sel), dim=(k in forbidden)))
        signs = []
        if i == sel:
            signs.append(("▲", "bold #ffd54f"))
        if k in forbidden:
            signs.append(("x", "bold #ff8a80"))
        elif k in ready:
            signs.append(("*", "bold #80d8ff"))
        if i == at:
            signs.append((PICK, "bold #7fd3ff"))
        elif k in risk and k not in forbidden:
            signs.append((SIGN[risk[k]], STYLE[risk[k]]))
        if signs:
            n = sum(len(s) for s, _ in signs)
            mark.append(" " * (cols[i] - mark.cell_len) + " " * max(0, (cell - n) // 2))
            for s, style in signs:
                mark.append(s, style=style)
    out = Text()
    out.append_text(top)
    out.append("\n")
    out.append_text(row)
    out.append("\n")
    out.append_text(mark)
    return out


def waits_text(lang: str, ws) -> str:
    """聽 tiles with their live counts: 3萬(剩2) 6萬(剩0); when none is left of any,
    空聽 said in words (a ready hand that can no longer win is no reason to keep it)."""
    text = " ".join(tr(lang, "wait_blocked" if getattr(w, "blocked", False) else "wait_live",
                       tile=tile_label(lang, kinds(w.tile)[0]), n=w.live) for w in ws)
    if ws and not any(w.live for w in ws):
        text += tr(lang, "wait_dead")
    return text


def event_line(lang: str, e: dict, name, me: int | None = None) -> str | None:
    """One event as a short sentence for the log; ``name(seat)`` names a seat, and
    ``me`` (the person's seat) makes English say "You discard"."""
    t = e["type"]
    you = me is not None and e.get("seat") == me

    def tr(lang, key, **kw):            # noqa: F811 — each sentence's subject may be "You"
        return tr_you(lang, key, you, **kw)
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


def reseat_lines(lang: str, e: dict, before: list[int], name,
                 winds: list[str] | None = None) -> list[str]:
    """搬風 told in order, by players' names (``name(player)``): the seats in the event's
    throw and first draw are the seats *before* the move, ``before[seat]`` their player.
    The new seats are named by the winds the board shows for the new hand (``winds``,
    its ``seat_winds``: counted from the wall break, the East seat of 搬風 need not be
    東 on the board), East first."""
    final = e["draws"][-1]
    sep = "、" if lang == "zh" else ", "
    dice = "+".join(map(str, final["dice"]))
    out = [tr(lang, "reseat_throw", g=e["game"] + 1, who=name(before[e["thrower"]]), dice=dice,
              total=sum(final["dice"]), first=name(before[final["first"]]))]
    if len(e["draws"]) > 1:
        out.append(tr(lang, "reseat_again", n=len(e["draws"]) - 1))
    board = winds or list("ESWN")
    order = sorted(range(4), key=lambda seat: "ESWN".index(board[seat]))
    out.append(tr(lang, "reseat_seats", seats=sep.join(
        f"{wind_label(lang, board[seat])} {name(e['seating'][seat])}" for seat in order)))
    out.append(tr(lang, "reseat_dealer", who=name(e["seating"][0]),
                  dice="+".join(map(str, e["dealer_dice"])), total=sum(e["dealer_dice"]),
                  dealer=name(e["seating"][e["first_dealer"]])))
    return out


def passed_win_text(lang: str, obs: dict | None, tile: str | None = None) -> str:
    """過水 in the player's words, as the profile lifts it (the observation's own
    ``passed_win``: another seat's is never told); '' when the seat may win."""
    pw = (obs or {}).get("passed_win")
    if not pw:
        return ""
    until = pw.get("until", "until_non_winning_discard")
    key = f"passed_{until}" if f"passed_{until}" in STRINGS else "passed_until_non_winning_discard"
    return tr(lang, key, tiles=tiles_label(lang, pw.get("tiles") or tile or ""))

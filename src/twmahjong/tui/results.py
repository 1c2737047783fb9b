"""End of a hand (結算) and end of the match (終局), as screens.

The 台 come straight from the ``win`` events' scorer answers and the money from the
``settlement`` event — the screen computes nothing, so what it shows is what the
engine recorded. Patterns are listed in zh-TW and English side by side, the way
a mixed table reads them out.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from .glyphs import COMPACT, kinds, tile_text, tiles_text
from .render import flowers_text, meld_text
from .strings import STRINGS, tile_label, tr, tr_you

__all__ = ["ReseatScreen", "ResultScreen", "SummaryScreen", "moment_text", "payment_parts", "result_text",
           "summary_text"]

_DEALER_IDS = ("dealer", "dealer_streak")


def _who(lang: str, session, seat: int) -> str:
    return session.seat_name(lang, seat)


def payment_parts(transfer: dict, wins: list[dict], dealer: int, streak: int, profile) -> list[tuple[str, int]] | None:
    """Why a payment counts the 台 it does, as (part, 台) pairs that add up to its ``tai``:
    the hand's own 台, then — only between the dealer and the other seat — 莊 and
    連莊 (rules/001 items 9-10), then anything else (七搶一's 8). None when the
    transfer is not a win's payment."""
    total = transfer.get("tai")
    win = next((w for w in wins if w["seat"] == transfer.get("payee")), None)
    if total is None or win is None or transfer.get("reason") not in ("self_draw", "deal_in",
                                                                       "seven_rob_one"):
        return None
    score = win["score"]
    own = score["tai"] - sum(p["tai"] for p in score["patterns"] if p["id"] in _DEALER_IDS)
    parts = [("hand", own)]
    if dealer in (transfer["payer"], transfer["payee"]):
        pats = profile.patterns
        d = pats["dealer"].tai if "dealer" in pats else 0
        per = pats["dealer_streak"].tai if "dealer_streak" in pats else 0
        if d:
            parts.append(("dealer", d))
        if streak and per:
            parts.append(("streak", streak * per))
    rest = total - sum(n for _, n in parts)
    if rest < 0:
        return None                      # a cap (封頂) or a rule this screen does not explain
    if rest:
        parts.append(("other", rest))
    return parts


def _parts_text(lang: str, parts: list[tuple[str, int]], total: int) -> str:
    words = {"hand": "tai_parts", "dealer": "tai_dealer", "streak": "tai_streak", "other": "tai_other"}
    shown = [tr(lang, words[k], hand=n, n=n) for k, n in parts]
    if len(parts) == 1:
        return shown[0]
    return " + ".join(shown) + " " + tr(lang, "tai_sum", n=total)


def result_text(session, lang: str, width: int = 120, model: dict | None = None) -> Group:
    """The hand's result: winners and their patterns, all hands, payments, scores
    (``model`` as ``session.result_model()`` gave it when the hand ended)."""
    model = model or session.result_model()
    rows: list[Text] = [Text(tr(lang, "result_title", n=model["hand_no"] + 1), style="bold #ffd54f")]
    if model.get("game_ended"):           # the 將 ends here: 搬風 (or not) before the next deal
        rows.append(Text(tr(lang, "game_end_reseat" if model.get("reseat") else "game_end_same",
                            g=model.get("game", 0) + 1), style="bold #80d8ff"))
    if model["draw_game"] is not None:
        reason = model["draw_game"]["reason"]
        rows.append(Text(tr(lang, "draw_game_kongs" if reason == "four_kongs" else "draw_game"),
                         style="bold"))
    for w in model["wins"]:
        tile = tile_label(lang, kinds(w["tile"])[0]) if w["tile"] else "—"
        if w.get("flower_win"):
            how = tr(lang, "flower_win")
        elif w["self_drawn"]:
            how = tr(lang, "self_drawn")
        else:
            how = tr_you(lang, "dealt_in_by", w["from"] == session.seat,
                         who=_who(lang, session, w["from"]))
        rows.append(Text(tr_you(lang, "win_line", w["seat"] == session.seat,
                                who=_who(lang, session, w["seat"]), tile=tile, how=how),
                         style="bold #f4efe1"))
        score = w["score"]
        if not score["patterns"]:
            rows.append(Text("   " + tr(lang, "no_patterns")))
        cells = []
        for p in score["patterns"]:
            cell = Text()
            zh, en = p["zh"], p["en"]
            if p.get("id") == "dealer_streak":     # 連N拉N with its N: 連2拉2
                n = model.get("dealer_streak") or 0
                zh, en = zh.replace("N", str(n)), en.replace("(per N)", f"×{n}").replace("N", str(n))
            cell.append(zh, style="bold")
            cell.append(f" {en}", style="#bcd9c8")
            cell.append(" " + tr(lang, "tai_each", n=p["tai"]), style="#ffd54f")
            cells.append(cell)
        col = max((c.cell_len for c in cells), default=0) + 3
        per = max(1, (width - 3) // col) if len(cells) > 3 else 1      # side by side when narrow
        for i in range(0, len(cells), per):
            line = Text("   ")
            for c in cells[i:i + per]:
                line.append_text(c)
                line.append(" " * (col - c.cell_len))
            line.rstrip()
            rows.append(line)
        rows.append(Text("   " + tr(lang, "tai_total", n=score["tai"]), style="bold #ffd54f"))
    rows.append(Text(""))
    rows.append(Text(tr(lang, "hands_revealed"), style="bold underline"))
    winners = {w["seat"] for w in model["wins"]}
    names = [_who(lang, session, seat) for seat in range(4)]
    col = max(cell_len(n) for n in names) + 4
    for seat in [(session.seat + r) % 4 for r in range(4)]:     # you, 下家, 對家, 上家
        rv = model["revealed"][seat]
        mark = "★ " if seat in winners else "  "
        line = Text(mark + names[seat] + " " * (col - 2 - cell_len(names[seat])),
                    style="bold #ffd54f" if seat in winners else "bold")
        line.append_text(tiles_text(lang, kinds(rv["hand"]), cell=COMPACT, gap=0))
        extras = [meld_text(lang, m) for m in rv["melds"]]
        fl = flowers_text(lang, rv["flowers"])
        if fl.plain:
            extras.append(fl)
        more = line
        for x in extras:                 # melds and 花 after the hand; a new line only when full
            if more.cell_len + 1 + x.cell_len > width - 4:
                rows.append(more)
                more = Text(" " * col)
            more.append(" ")
            more.append_text(x)
        rows.append(more)
    st = model["settlement"]
    if st is not None:
        rows.append(Text(""))
        rows.append(Text(tr(lang, "payments"), style="bold underline"))
        for t in st["transfers"]:
            if t["payee"] is None:
                rows.append(Text("   " + tr(lang, "fee", n=t["amount"])))
                continue
            line = Text("   " + tr_you(lang, "pays", t["payer"] == session.seat,
                                       payer=_who(lang, session, t["payer"]),
                                       payee=_who(lang, session, t["payee"]), amount=t["amount"]))
            reason = f"reason_{t['reason']}"
            extra = tr(lang, reason) if reason in STRINGS else t["reason"]
            parts = payment_parts(t, model["wins"], model["dealer"], model["dealer_streak"],
                                  session.profile)
            if parts is not None:
                extra += ": " + _parts_text(lang, parts, t["tai"])
            elif t.get("tai") is not None:
                extra += ", " + tr(lang, "tai_each", n=t["tai"])
            line.append(f"  ({extra})", style="#bcd9c8")
            rows.append(line)
    rows.append(Text(""))
    rows.append(Text(tr(lang, "running"), style="bold underline"))
    scores = Text("   ")
    for seat in range(4):
        sc = model["scores"][seat]
        scores.append(f"{_who(lang, session, seat)} ", style="bold")
        scores.append(f"{sc:+d}    ", style="green" if sc > 0 else "red" if sc < 0 else "")
    rows.append(scores)
    return Group(*rows)


def moment_text(session, lang: str, model: dict, width: int = 78) -> Group | None:
    """The win before its settlement (胡牌的一刻): who won, 胡 or 自摸 and from whom,
    the hand laid down with the winning tile apart and marked; None for a drawn hand."""
    if not model["wins"]:
        return None
    rows: list[Text] = []
    for w in model["wins"]:
        who = _who(lang, session, w["seat"])
        you = w["seat"] == session.seat
        kind = kinds(w["tile"])[0] if w.get("tile") else None
        if w.get("flower_win"):
            head = tr_you(lang, "moment_flower", you, who=who)
        elif w["self_drawn"]:
            head = tr_you(lang, "moment_self", you, who=who, tile=tile_label(lang, kind))
        else:
            head = tr_you(lang, "moment_ron", you, who=who, tile=tile_label(lang, kind),
                          payer=_who(lang, session, w["from"]))
        rows.append(Text("★ " + head, style="bold #ffd54f"))
        rv = model["revealed"][w["seat"]]
        hand = kinds(rv["hand"])
        if kind is not None and kind in hand:
            hand.remove(kind)                       # the winning tile stands apart
        line = tiles_text(lang, hand, cell=COMPACT, gap=0 if lang == "en" else 1)   # 5萬 6萬 apart
        for m in rv["melds"]:
            line.append(" ")
            line.append_text(meld_text(lang, m))
        marks = Text()
        if kind is not None:
            line.append("  ")
            marks.append(" " * line.cell_len)
            line.append_text(tile_text(lang, kind, COMPACT, last=True))
            marks.append("▲ " + tr(lang, "self_drawn" if w["self_drawn"] else "act_win"),
                         style="bold #ffd54f")
        fl = flowers_text(lang, rv["flowers"])
        if fl.plain:
            line.append("  ")
            line.append_text(fl)
        rows += [Text(""), line, marks]
        rows.append(Text("   " + tr(lang, "tai_total", n=w["score"]["tai"]), style="bold #ffd54f"))
        rows.append(Text(""))
    return Group(*rows)


def summary_text(session, lang: str) -> Group:
    """終局: places by score, wins per seat, where the record went."""
    m = session.summary_model()
    rows = [Text(tr(lang, "summary_title_one" if m["rounds"] == 1 else "summary_title",
                   n=m["rounds"], hands=m["hands"]), style="bold #ffd54f")]
    order = sorted(range(4), key=lambda s: -m["scores"][s])
    labels = [tr(lang, "rank_line", rank=rank, who=_who(lang, session, seat))
              for rank, seat in enumerate(order, 1)]
    col = max(cell_len(x) for x in labels) + 3
    for label, seat in zip(labels, order):
        sc = m["scores"][seat]
        line = Text(label + " " * (col - cell_len(label)), style="bold" if seat == session.seat else "")
        line.append(f"{sc:+7d}", style="green" if sc > 0 else "red" if sc < 0 else "")
        line.append("   " + tr(lang, "wins_n", n=m["wins"][seat]), style="#bcd9c8")
        rows.append(line)
    if m.get("record_path") is not None:
        rows.append(Text(tr(lang, "record_saved", path=str(m["record_path"])), style="#bcd9c8"))
    return Group(*rows)


class _TextScreen(Screen):
    """A page of text that scrolls, with its prompt pinned to the bottom row so it is
    always visible, whatever the terminal's height."""

    DEFAULT_CSS = """
    _TextScreen { background: #0f3d2e; }
    _TextScreen VerticalScroll { padding: 0 1; height: 1fr; }
    _TextScreen #prompt { dock: bottom; height: 1; padding: 0 1; text-style: bold reverse; }
    """

    def __init__(self, session, lang: str):
        super().__init__()
        self.session = session
        self.lang = lang
        self._left = False

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body(), id="body")
        yield Static(self.prompt(), id="prompt")

    def on_resize(self) -> None:
        if self.is_attached and self.query("#body"):     # a resize may reach a page just closed
            self.query_one("#body", Static).update(self.body())

    def body(self):
        raise NotImplementedError

    def prompt(self) -> str:
        raise NotImplementedError

    def leave(self, result=None) -> None:
        """Dismiss once: keys typed fast can arrive after the first one closed it."""
        if not self._left and self.is_current:
            self._left = True
            self.dismiss(result)


class ResultScreen(_TextScreen):
    """結算 of one hand; any key (but the scroll keys) goes on to the next hand. The
    result is taken when the screen opens: online, the next hand may be dealt meanwhile.

    Online the server deals: the prompt counts down to the next deal (``hand_end``'s
    ``next_in``, updated by every ``ready``), a key sends 下一局 (``ready``) and says
    so, and the table comes back by itself when the next hand is dealt (``dealt``)."""

    MOMENT = 2.0                     # s the win is shown before its settlement

    DEFAULT_CSS = """
    ResultScreen #moment { height: 1fr; padding: 1 2; content-align: center middle; }
    """

    def __init__(self, session, lang: str):
        self.model = session.result_model()
        self.ready_sent = False
        super().__init__(session, lang)
        self.moment = moment_text(session, lang, self.model) is not None

    def compose(self) -> ComposeResult:
        yield Static(moment_text(self.session, self.lang, self.model) or "", id="moment")
        yield from super().compose()

    @property
    def server_deals(self) -> bool:
        """Online with a next hand to come. Read live: the match's last ``hand_end``
        (``next_in`` null) comes a moment before ``game_end``, and the screen built on
        it must turn to the summary then, not send 下一局 to a game that is over and
        wait for a deal that never comes."""
        if not getattr(self.session, "online", False) or self.model["match_over"]:
            return False
        if self.session.match_over:
            return False
        end = self.session.link.state.last_hand_end or {}
        return not ("next_in" in end and end["next_in"] is None)

    def on_mount(self) -> None:
        self.show_moment(self.moment)
        if self.moment:
            self.set_timer(self.MOMENT, lambda: self.show_moment(False))
        if self.server_deals:
            self.set_interval(0.5, self.tick)

    def show_moment(self, on: bool) -> None:
        """The win first (about 2 s, or until a key), then the settlement."""
        self.moment = on
        if self.is_attached and self.query("#moment"):
            self.query_one("#moment").display = on
            self.query_one(VerticalScroll).display = not on
            self.tick()

    def tick(self) -> None:
        if self.is_attached and self.query("#prompt"):
            self.query_one("#prompt", Static).update(self.prompt())

    def body(self):
        return result_text(self.session, self.lang, self.app.size[0] - 2, self.model)

    def prompt(self) -> str:
        if self.moment:
            return tr(self.lang, "moment_key")
        if self.server_deals:
            return self.session.next_hand_prompt(self.lang, self.ready_sent)
        over = self.model["match_over"] or getattr(self.session, "match_over", False)
        return tr(self.lang, "to_summary" if over else "next_hand")

    def on_key(self, event) -> None:
        if event.key in ("up", "down", "pageup", "pagedown"):
            return
        event.stop()
        if self.moment:                     # a key ends the win's moment: the settlement
            self.show_moment(False)
            return
        if not self.server_deals:
            self.leave()
        elif not self.ready_sent and self.session.read_result():
            self.ready_sent = True
            self.tick()

    def dealt(self) -> None:
        """The server dealt the next hand: back to the table, whether or not a key was pressed."""
        self.leave("dealt")


class ReseatScreen(_TextScreen):
    """搬風 before a new 將, on a page of its own: who threw, who drew first, the new
    seats with the winds the board shows, who deals first; any key plays on."""

    def __init__(self, session, lang: str, lines: list[str], game: int):
        self.lines, self.game = lines, game
        super().__init__(session, lang)

    def body(self):
        rows = [Text(tr(self.lang, "reseat_title", g=self.game + 1), style="bold #ffd54f"), Text("")]
        return Group(*rows, *(Text(line) for line in self.lines))

    def prompt(self) -> str:
        return tr(self.lang, "reseat_key")

    def on_key(self, event) -> None:
        event.stop()
        self.leave()


class SummaryScreen(_TextScreen):
    """終局; any key leaves."""

    def body(self):
        return summary_text(self.session, self.lang)

    def prompt(self) -> str:
        return tr(self.lang, "quit_hint")

    def on_key(self, event) -> None:
        event.stop()
        self.leave()

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

from .glyphs import kinds, tiles_text
from .render import meld_text, seat_name
from .session import PlaySession
from .strings import STRINGS, tile_label, tr

__all__ = ["ResultScreen", "SummaryScreen", "result_text", "summary_text"]

def _who(lang: str, session: PlaySession, seat: int) -> str:
    return seat_name(lang, seat, session.seat, session.player_at(seat))


def result_text(session: PlaySession, lang: str) -> Group:
    """The hand's result: winners and their patterns, all hands, payments, scores."""
    model = session.result_model()
    rows: list[Text] = [Text(tr(lang, "result_title", n=model["hand_no"] + 1), style="bold #ffd54f")]
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
            how = tr(lang, "dealt_in_by", who=_who(lang, session, w["from"]))
        rows.append(Text(tr(lang, "win_line", who=_who(lang, session, w["seat"]), tile=tile, how=how),
                         style="bold #f4efe1"))
        score = w["score"]
        if not score["patterns"]:
            rows.append(Text("   " + tr(lang, "no_patterns")))
        for p in score["patterns"]:
            line = Text("   ")
            line.append(f"{p['zh']}", style="bold")
            line.append(f"  {p['en']}", style="#bcd9c8")
            line.append("  " + tr(lang, "tai_each", n=p["tai"]), style="#ffd54f")
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
        line.append_text(tiles_text(lang, kinds(rv["hand"])))
        rows.append(line)
        if rv["melds"] or rv["flowers"]:
            more = Text(" " * col)
            for m in rv["melds"]:
                more.append_text(meld_text(lang, m))
                more.append("  ")
            if rv["flowers"]:
                more.append_text(tiles_text(lang, kinds("".join(rv["flowers"]))))
            rows.append(more)
    st = model["settlement"]
    if st is not None:
        rows.append(Text(""))
        rows.append(Text(tr(lang, "payments"), style="bold underline"))
        for t in st["transfers"]:
            if t["payee"] is None:
                rows.append(Text("   " + tr(lang, "fee", n=t["amount"])))
                continue
            line = Text("   " + tr(lang, "pays", payer=_who(lang, session, t["payer"]),
                                   payee=_who(lang, session, t["payee"]), amount=t["amount"]))
            reason = f"reason_{t['reason']}"
            extra = tr(lang, reason) if reason in STRINGS else t["reason"]
            if t.get("tai") is not None:
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
    rows.append(Text(""))
    rows.append(Text(tr(lang, "to_summary" if model["match_over"] else "next_hand"),
                     style="bold reverse"))
    return Group(*rows)


def summary_text(session: PlaySession, lang: str) -> Group:
    """終局: places by score, wins per seat, where the record went."""
    m = session.match
    wins = [0, 0, 0, 0]
    for r in m.results:
        for w in r.get("winners", []):
            wins[w] += 1
    rows = [Text(tr(lang, "summary_title", n=m.rounds, hands=m.hand_no), style="bold #ffd54f")]
    order = sorted(range(4), key=lambda s: -m.scores[s])
    labels = [tr(lang, "rank_line", rank=rank, who=_who(lang, session, seat))
              for rank, seat in enumerate(order, 1)]
    col = max(cell_len(x) for x in labels) + 3
    for label, seat in zip(labels, order):
        sc = m.scores[seat]
        line = Text(label + " " * (col - cell_len(label)), style="bold" if seat == session.seat else "")
        line.append(f"{sc:+7d}", style="green" if sc > 0 else "red" if sc < 0 else "")
        line.append("   " + tr(lang, "wins_n", n=wins[seat]), style="#bcd9c8")
        rows.append(line)
    if session.record_path is not None:
        rows.append(Text(tr(lang, "record_saved", path=str(session.record_path)), style="#bcd9c8"))
    rows.append(Text(""))
    rows.append(Text(tr(lang, "quit_hint"), style="bold reverse"))
    return Group(*rows)


class _TextScreen(Screen):
    DEFAULT_CSS = """
    _TextScreen { background: #0f3d2e; }
    _TextScreen VerticalScroll { padding: 1 2; }
    """

    def __init__(self, session: PlaySession, lang: str):
        super().__init__()
        self.session = session
        self.lang = lang
        self._left = False

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body(), id="body")

    def body(self):
        raise NotImplementedError

    def leave(self) -> None:
        """Dismiss once: keys typed fast can arrive after the first one closed it."""
        if not self._left and self.is_current:
            self._left = True
            self.dismiss()


class ResultScreen(_TextScreen):
    """結算 of one hand; any key (but the scroll keys) goes on to the next hand."""

    def body(self):
        return result_text(self.session, self.lang)

    def on_key(self, event) -> None:
        if event.key in ("up", "down", "pageup", "pagedown"):
            return
        event.stop()
        self.leave()


class SummaryScreen(_TextScreen):
    """終局; any key leaves."""

    def body(self):
        return summary_text(self.session, self.lang)

    def on_key(self, event) -> None:
        event.stop()
        self.leave()

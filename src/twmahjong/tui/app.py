"""The terminal table (終端機牌桌): a Textual app where one person plays three bots.

Keyboard first — ←/→ (h/l) pick a tile, Enter/Space discards it, c 吃 p 碰 k 槓
w 胡 t 聽, x/Esc 過, digits choose when a claim can be made several ways — and every
hint in the status line is also a mouse target, as is every tile of the hand.
The screen reads only the person's own observation; bots play inside the session.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..engine.actions import Action, IllegalAction
from .glyphs import CELL, kinds
from .render import (
    claimed_discards,
    event_line,
    hand_layout,
    hand_text,
    header_text,
    seat_name,
    seat_panel,
)
from .results import ResultScreen, SummaryScreen
from .session import PlaySession, relative
from .strings import tile_label, tr

__all__ = ["KEY_TYPES", "PlayApp", "TableScreen"]

# which key makes which kind of move
KEY_TYPES = {"c": ("chi",), "p": ("pon",), "k": ("kong", "concealed_kong", "added_kong"),
             "w": ("win", "flower_win"), "t": ("declare",), "d": ("draw",), "x": ("pass",)}
_KEY_LABEL = {"c": "act_chi", "p": "act_pon", "k": "act_kong", "w": "act_win", "t": "act_declare",
              "d": "act_draw", "x": "act_pass"}


class HandView(Static):
    """The person's tiles; a click picks a tile, a click on the picked one discards it."""

    def on_click(self, event) -> None:
        off = event.get_content_offset(self)
        if off is None:
            return
        self.screen.click_tile(off.x)


class TableScreen(Screen):
    """The table seen from the person's chair, and the keys that act on it."""

    BINDINGS: ClassVar[list[Binding]] = [
        Binding("left,h", "move(-1)", "←", show=False),
        Binding("right,l", "move(1)", "→", show=False),
        Binding("enter,space", "discard", "打", show=False),
        *[Binding(k, f"press('{k}')", k, show=False) for k in "cpkwtd"],
        Binding("x,escape", "press('x')", "過", show=False),
        *[Binding(str(d), f"pick({d})", str(d), show=False) for d in range(1, 10)],
    ]

    DEFAULT_CSS = """
    TableScreen { layout: vertical; background: #0f3d2e; }
    #header { height: 1; background: #0a2a20; }
    #table { height: 3fr; }
    #middle { width: 1fr; }
    .seat { width: 1fr; height: 1fr; border: round #5c8a6e; padding: 0 1; color: #e8e8e8; }
    #mine-river { border: round #ffd54f; }
    #hand { height: auto; min-height: 5; border: round #ffd54f; padding: 0 1; }
    #status { height: auto; min-height: 1; background: #0a2a20; padding: 0 1; }
    #log { height: 1fr; min-height: 2; max-height: 10; color: #bcd9c8; padding: 0 1; }
    #keys { height: 1; color: #7fa892; padding: 0 1; }
    """

    def __init__(self, session: PlaySession, lang: str):
        super().__init__()
        self.session = session
        self.lang = lang
        self.sel: int | None = None
        self.menu: tuple[str, list[Action]] | None = None
        self.note: str | None = None
        self.log_lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="table"):                    # 上家 left, 對家 across, 下家 right
            yield Static(classes="seat", id="seat-3")
            with Vertical(id="middle"):
                yield Static(classes="seat", id="seat-2")
                yield Static(classes="seat", id="mine-river")
            yield Static(classes="seat", id="seat-1")
        yield HandView(id="hand")
        yield Static(id="status")
        yield Static(id="log")
        yield Static(tr(self.lang, "keys"), id="keys")

    def on_mount(self) -> None:
        self.start_hand()

    # -- flow ----------------------------------------------------------------------

    def start_hand(self) -> None:
        self.log_lines = []
        self.session.start_hand()
        self.after_move()

    def after_move(self) -> None:
        """Collect what happened, pick the drawn tile, redraw; show the result at the end."""
        for e in self.session.new_events():
            line = event_line(self.lang, e, self.short_name)
            if line:
                self.log_lines.append(line)
        self.menu = None
        obs = self.session.observation()
        n = len(kinds(obs["hand"])) + (1 if obs.get("drawn") else 0)
        self.sel = n - 1 if n else None
        self.redraw()
        if self.session.hand.over:
            self.app.push_screen(ResultScreen(self.session, self.lang), self.after_result)

    def after_result(self, _=None) -> None:
        if self.session.match.over:
            self.app.push_screen(SummaryScreen(self.session, self.lang), lambda _=None: self.app.exit())
        else:
            self.start_hand()

    # -- names -----------------------------------------------------------------------

    def seat_label(self, seat: int) -> str:
        s = self.session
        return seat_name(self.lang, seat, s.seat, s.player_at(seat))

    def short_name(self, seat: int) -> str:
        rel = relative(seat, self.session.seat)
        return tr(self.lang, ("you", "right", "across", "left")[rel])

    # -- drawing ----------------------------------------------------------------------

    def redraw(self) -> None:
        s, lang = self.session, self.lang
        obs = s.observation()
        me = s.seat
        taken, last = claimed_discards(s.hand_events())
        self.query_one("#header", Static).update(header_text(
            lang, obs, hand_no=s.match.hand_no, dealer_name=self.seat_label(obs["dealer"])))
        for rel in (1, 2, 3):
            seat = (me + rel) % 4
            w = self.query_one(f"#seat-{rel}", Static)
            width = max(CELL, w.content_region.width or 30)
            level = s.bot_names[s.player_at(seat) - 1]
            w.update(seat_panel(lang, obs, seat, title=f"{self.seat_label(seat)} · {level}",
                                score=s.match.scores[seat],
                                width=width, taken=taken[seat], last=last))
        river = self.query_one("#mine-river", Static)
        river.update(seat_panel(lang, obs, me, title=self.seat_label(me), score=s.match.scores[me],
                                width=max(CELL, river.content_region.width or 90), taken=taken[me],
                                last=last, river_only=True))
        self.query_one("#hand", HandView).update(hand_text(lang, obs, self.sel, set()))
        self.query_one("#status", Static).update(self.status_markup(obs))
        log = self.query_one("#log", Static)
        rows = max(2, log.content_region.height or 2)       # as many recent events as fit
        log.update("\n".join(self.log_lines[-rows:]))

    def on_resize(self) -> None:
        if self.session.hand is not None:
            self.redraw()

    def status_markup(self, obs: dict) -> str:
        """What the person may do now, each choice a key and a click target."""
        lang = self.lang
        if self.note:
            note, self.note = self.note, None
            return f"[b #ff8a80]{note}[/]"
        if self.session.hand.over:
            return tr(lang, "hand_over")
        if self.menu:
            key, acts = self.menu
            parts = [tr(lang, "choose", what=tr(lang, _KEY_LABEL[key]))]
            for i, a in enumerate(acts, 1):
                parts.append(_button(str(i), f"pick({i})", self.action_label(a)))
            parts.append(tr(lang, "cancel"))
            return " ".join(parts)
        legal = self.session.legal()
        if not legal:
            return tr(lang, "waiting")
        phase = obs["phase"]
        head = ""
        if phase == "turn":
            declared = obs["declared"][obs["seat"]]
            head = tr(lang, "your_turn_declared" if declared else "your_turn")
        elif phase == "claim" and obs.get("last_discard"):
            ld = obs["last_discard"]
            head = tr(lang, "claim_on", who=self.seat_label(ld["seat"]),
                      tile=tile_label(lang, kinds(ld["tile"])[0]))
        elif phase == "rob_kong" and obs.get("added_kong"):
            ak = obs["added_kong"]
            head = tr(lang, "rob_kong_on", who=self.seat_label(ak["seat"]),
                      tile=tile_label(lang, kinds(ak["tile"])[0]))
        elif phase == "rob_flower":
            head = tr(lang, "rob_flower_on")
        elif phase == "declare":
            head = tr(lang, "declare_window")
        elif phase == "last_tile":
            head = tr(lang, "last_tile_window")
        parts = [head]
        for key, types in KEY_TYPES.items():
            acts = [a for a in legal if a.type in types]
            if acts:
                label = self.key_label(key, acts, phase)
                parts.append(_button(key if key != "x" else "x/Esc", f"press('{key}')", label))
        return " ".join(p for p in parts if p)

    def key_label(self, key: str, acts: list[Action], phase: str) -> str:
        lang = self.lang
        if key == "x" and phase == "last_tile":
            return tr(lang, "act_decline_last")
        if key == "w":
            if acts[0].type == "flower_win":
                return tr(lang, "act_flower_win")
            return tr(lang, "act_self_win" if phase == "turn" else "act_win")
        return tr(lang, _KEY_LABEL[key])

    def action_label(self, a: Action) -> str:
        lang = self.lang
        if a.type == "chi":
            return " ".join(tile_label(lang, k) for k in sorted((a.tile, *a.tiles)))
        if a.type == "declare" and a.tile is not None:
            return f"{tr(lang, 'act_discard')} {tile_label(lang, a.tile)}"
        if a.tile is not None:
            return tile_label(lang, a.tile)
        return tr(lang, {"win": "act_win", "flower_win": "act_flower_win", "pass": "act_pass",
                         "declare": "act_declare"}.get(a.type, "act_pass"))

    # -- input -------------------------------------------------------------------------

    def hand_tiles(self) -> list[int]:
        obs = self.session.observation()
        return kinds(obs["hand"]) + (kinds(obs["drawn"]) if obs.get("drawn") else [])

    def action_move(self, step: int) -> None:
        n = len(self.hand_tiles())
        if n:
            self.sel = ((self.sel or 0) + step) % n
            self.redraw()

    def action_discard(self) -> None:
        if self.menu or self.sel is None:
            return
        tiles = self.hand_tiles()
        if not 0 <= self.sel < len(tiles):
            return
        k = tiles[self.sel]
        act = next((a for a in self.session.legal() if a.type == "discard" and a.tile == k), None)
        if act is None:
            if any(a.type == "discard" for a in self.session.legal()):
                self.note = tr(self.lang, "not_legal")
                self.redraw()
            return
        self.do(act)

    def action_press(self, key: str) -> None:
        if key == "x" and self.menu:
            self.menu = None
            self.redraw()
            return
        acts = [a for a in self.session.legal() if a.type in KEY_TYPES[key]]
        if not acts:
            return
        if key == "t":
            tiles = self.hand_tiles()
            k = tiles[self.sel] if self.sel is not None and self.sel < len(tiles) else None
            exact = [a for a in acts if a.tile is None or a.tile == k]
            if exact:
                acts = exact[:1]
        if key == "w":
            acts = acts[:1]                   # 胡 before 花胡: one win is enough
        if len(acts) == 1:
            self.do(acts[0])
        else:
            self.menu = (key, acts)
            self.redraw()

    def action_pick(self, n: int) -> None:
        if not self.menu:
            return
        acts = self.menu[1]
        if 1 <= n <= len(acts):
            self.do(acts[n - 1])

    def click_tile(self, x: int) -> None:
        obs = self.session.observation()
        hand = kinds(obs["hand"])
        drawn = kinds(obs["drawn"])[0] if obs.get("drawn") else None
        for i, c in enumerate(hand_layout(hand, drawn)):
            if c <= x < c + CELL:
                if i == self.sel:
                    self.action_discard()
                else:
                    self.sel = i
                    self.redraw()
                return

    def do(self, act: Action) -> None:
        try:
            self.session.act(act)
        except IllegalAction as e:          # the list came from the engine; a race is a bug, shown not raised
            self.note = str(e)
            self.redraw()
            return
        self.after_move()


def _button(key: str, action: str, label: str) -> str:
    return f"[@click=screen.{action}][b #0f3d2e on #ffd54f] {key} [/] {label}[/]"


class PlayApp(App):
    """``twmj play``: one person, three bots, a whole match."""

    TITLE = "twmahjong"
    BINDINGS: ClassVar[list[Binding]] = [Binding("q,ctrl+c", "quit", "quit", show=False)]

    def __init__(self, session: PlaySession, lang: str = "zh"):
        super().__init__()
        self.session = session
        self.lang = lang
        self.table = TableScreen(session, lang)

    def on_mount(self) -> None:
        self.push_screen(self.table)

    def on_unmount(self) -> None:
        self.session.close()

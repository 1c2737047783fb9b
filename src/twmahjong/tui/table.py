"""The table screen (牌桌): the person's chair, drawn from their observation, and the keys.

Keyboard first — ←/→ (h/l) pick a tile, Enter/Space discards it, c 吃 p 碰 k 槓
w 胡 t 聽, x/Esc 過, digits choose when a claim can be made several ways, o asks
the 教練 (tui/coach.py: its line under the hand, its marks under the tiles) — and
every hint in the status line is also a mouse target, as is every tile of the
hand. The screen reads a *session*: ``PlaySession`` offline (bots in-process) or
``OnlineSession`` (a server over the protocol); both give ``observation()``,
``legal()``, ``act()``, ``new_events()``, ``hand_events()``, ``scores``,
``seat_name()``, ``result_model()``; only the offline one has bots to ``step()``
at the table speed.

It is laid out for 80×24 first (compact tiles, rivers that compress, one hand row)
and says so plainly below that size instead of drawing a broken table.
"""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.markup import escape
from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..engine.actions import Action, IllegalAction
from ..hints import discard_hints, ready_waits
from .coach import TableCoach
from .glyphs import CELL, COMPACT, kinds
from .render import (
    claimed_discards,
    event_line,
    hand_layout,
    hand_text,
    header_text,
    passed_win_text,
    seat_body,
    seat_title,
    seat_to_move,
    waits_text,
)
from .session import relative
from .strings import refusal_text, tile_label, tr, wind_label
from .talk import TalkPicker, talk_text

__all__ = ["KEY_TYPES", "MIN_SIZE", "SPEEDS", "TableScreen"]

MIN_SIZE = (80, 24)
SPEEDS = (0.0, 0.5, 1.2)          # seconds between bot moves: instant, normal, slow

# which key makes which kind of move
KEY_TYPES = {"c": ("chi",), "p": ("pon",), "k": ("kong", "concealed_kong", "added_kong"),
             "w": ("win", "flower_win"), "t": ("declare",), "d": ("draw",), "x": ("pass",)}
_KEY_LABEL = {"c": "act_chi", "p": "act_pon", "k": "act_kong", "w": "act_win", "t": "act_declare",
              "d": "act_draw", "x": "act_pass"}


class HandView(Static):
    """The person's tiles on one row; a click picks a tile, a click on the picked one discards it."""

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
        Binding("s", "settings", "settings", show=False),
        Binding("question_mark", "help", "help", show=False),
        Binding("a", "auto", "auto", show=False),
        Binding("g", "log", "log", show=False),
        Binding("e", "talk", "talk", show=False),
        Binding("o", "coach", "coach", show=False),
    ]

    DEFAULT_CSS = """
    TableScreen { layout: vertical; background: #0f3d2e; }
    #main { height: 1fr; }
    #header { height: 1; background: #0a2a20; }
    #table { height: 1fr; }
    #middle { width: 2fr; }
    .seat { width: 1fr; height: 1fr; border: round #5c8a6e; padding: 0 1; color: #e8e8e8;
            border-title-color: #f4efe1; border-subtitle-color: #bcd9c8; }
    #seat-2 { height: 1fr; }
    .seat.to-move { border: round #ffd54f; }
    #mine-river { height: 1fr; }
    #talk { display: none; height: auto; padding: 0 1; color: #f4efe1; }
    #hand { height: 5; border: round #5c8a6e; padding: 0 1; border-title-color: #ffd54f; }
    #hand.to-move { border: round #ffd54f; }
    #status { height: auto; max-height: 2; background: #0a2a20; padding: 0 1; }
    #hint { height: auto; min-height: 1; max-height: 2; padding: 0 1; color: #80d8ff; }
    #coach { display: none; height: auto; max-height: 2; padding: 0 1; color: #e6f6ff;
             background: #123a4a; }
    #log { height: 1; color: #bcd9c8; padding: 0 1; }
    #keys { height: 1; color: #9fc8b2; padding: 0 1; }
    #too-small { display: none; height: 1fr; content-align: center middle; color: #ffd54f;
                 text-style: bold; padding: 1 2; }
    #waiting { display: none; height: 1fr; content-align: center middle; text-align: center;
               color: #f4efe1; padding: 1 2; }
    """

    def __init__(self, session, lang: str, settings):
        super().__init__()
        self.session = session
        self.lang = lang
        self.settings = settings
        self.sel: int | None = None
        self.menu: tuple[str, list[Action]] | None = None
        self.note: str | None = None
        self.log_lines: list[str] = []            # this hand's lines (the log pane)
        self.all_lines: list[str] = []            # the match's lines (g: read them all)
        self.cell = COMPACT
        self.result_for: int | None = None        # the hand whose result screen was shown
        self.hand_key = None                      # (hand, drawn, legal) last drawn: keep the cursor otherwise
        self.small = False                        # the terminal is below MIN_SIZE
        self.coach = TableCoach(session, settings)  # 教練: its answer for the open decision
        self.mover: int | None = None             # the seat to move (▶)

    def compose(self):
        with Vertical(id="main"):
            yield Static(id="header")
            with Horizontal(id="table"):                    # 上家 left, 對家 across, 下家 right
                yield Static(classes="seat", id="seat-3")
                with Vertical(id="middle"):
                    yield Static(classes="seat", id="seat-2")
                    yield Static(classes="seat", id="mine-river")
                yield Static(classes="seat", id="seat-1")
            yield Static(id="talk")                         # 快捷語: the latest lines said
            yield HandView(id="hand")
            yield Static(id="status")
            yield Static(id="hint")
            yield Static(id="coach")
            yield Static(id="log")
            yield Static(id="keys")
        yield Static(id="too-small")
        yield Static(id="waiting")                          # online, before the seat is dealt

    def on_mount(self) -> None:
        self.fit()
        if not self.session.online:
            s = self.session
            if s.hand is None or (s.hand.over and s.ended and not s.match.over):
                self.start_hand()
                return
        self.after_move()
        self.advance()

    def on_screen_resume(self) -> None:
        """Back from a dialog (help, settings, the log, talk, the quit question): what
        came while it was open is shown now — the hand's result, the match's end — or
        the table would sit on a finished hand, or game, with nothing left to press."""
        if not self.is_attached or not self.query("#status") or self.app.screen is not self:
            return
        s = self.session
        if s.online and s.match_over and not (s.hand_over and self.result_for != s.hand_no):
            self.after_result()                 # the game ended under the dialog
            return
        self.after_move()

    # -- flow ----------------------------------------------------------------------

    def start_hand(self) -> None:
        self.log_lines = []
        self.session.start_hand(run=False)
        self.after_move()
        self.advance()

    def advance(self) -> None:
        """Let the bots move: all at once at speed 0, else one move per tick, so a
        person can watch each discard (桌速)."""
        delay = SPEEDS[self.settings.speed]
        if self.session.online:
            return
        if delay <= 0:
            self.session.run_bots()
            self.after_move()
            return
        if self.session.step():
            self.after_move()
            self.set_timer(delay, self.advance)
        else:
            self.after_move()

    def after_move(self) -> None:
        """Collect what happened, pick the drawn tile, redraw; show the result at the end."""
        s = self.session
        moved: list[str] = []               # 搬風 before this deal, kept on the new hand's log
        reseat = None
        for e in s.new_events():
            if e["type"] == "reseat":
                moved = s.reseat_lines(self.lang, e)
                self.all_lines.extend(moved)
                reseat = e
                continue
            if e["type"] == "deal":
                self.log_lines = list(moved)
                self.dealer_note(e)
            line = event_line(self.lang, e, self.short_name, s.seat)
            if line:
                self.log_lines.append(line)
                self.all_lines.append(line)
        obs = s.observation()
        key = None if obs is None else (obs["hand"], obs.get("drawn"), str(obs.get("legal")))
        if key != self.hand_key:                  # a new decision: pick the drawn tile again
            self.hand_key = key
            self.menu = None
            if obs is not None:
                n = len(kinds(obs["hand"])) + (1 if obs.get("drawn") else 0)
                self.sel = n - 1 if n else None
        self.redraw()
        if reseat is not None and self.app.screen is self:     # 搬風 on a page of its own
            from .results import ReseatScreen
            self.app.push_screen(ReseatScreen(s, self.lang, moved, reseat["game"]))
        if s.hand_over and self.result_for != s.hand_no and self.app.screen is self:
            self.result_for = s.hand_no
            from .results import ResultScreen
            self.app.push_screen(ResultScreen(s, self.lang), self.after_result)

    def on_server(self, m: dict) -> None:
        """A server message arrived (online): redraw; the match's end shows the summary."""
        if not self.is_attached or not self.query("#status"):
            return                       # the app is closing: nothing left to draw on
        if m["type"] == "game_end" and self.app.screen is self:
            self.after_result()
            return
        if m["type"] in ("hand_start", "snapshot") and not self.session.hand_over:
            from .results import ResultScreen
            if isinstance(self.app.screen, ResultScreen) and self.session.observation():
                self.app.screen.dealt()         # the next hand is dealt: back to the table
        if m["type"] == "talk" and self.session.talk and self.session.talk[-1] is m:
            self.all_lines.append(self.session.talk_line(self.lang, m))
        self.after_move()

    def refresh_status(self) -> None:
        """The countdown ticks: redraw only the status line."""
        if not self.is_attached or not self.query("#status"):
            return
        self.query_one("#status", Static).update(self.status_markup(self.session.observation()))

    def refresh_clocks(self) -> None:
        """Online, every second while a clock runs: the seats' clocks and the status
        line (a note under the hand stays until the person's next key)."""
        if not self.is_attached or not self.query("#status") or self.session.observation() is None:
            return
        s = self.session
        for rel in (1, 2, 3):
            seat = (s.seat + rel) % 4
            clock = self.seat_clock(seat)
            who = s.seat_player(self.lang, seat)
            self.query_one(f"#seat-{rel}", Static).border_subtitle = " ".join(x for x in (clock, who) if x)
        clock, sc = self.seat_clock(s.seat), s.scores[s.seat]
        self.query_one("#hand", HandView).border_subtitle = f"{clock}  {sc:+d}" if clock else f"{sc:+d}"
        self.refresh_status()

    def after_result(self, _=None) -> None:
        from .results import SummaryScreen
        if self.session.match_over:
            self.app.push_screen(SummaryScreen(self.session, self.lang), lambda _=None: self.app.finish())
        elif not self.session.online:
            self.start_hand()
        else:
            self.after_move()               # online: ready was sent from the result screen

    def dealer_note(self, deal: dict) -> None:
        """標準 counts seat winds from the wall break: say why the dealer is not East."""
        obs = self.session.observation()
        if obs is None:
            return
        d = obs["dealer"]
        self.all_lines.append(tr(self.lang, "round", wind=wind_label(self.lang, obs["round_wind"]),
                                 n=self.session.hand_no + 1))
        if obs["seat_winds"][d] != "E":
            line = tr(self.lang, "dealer_not_east", who=self.short_name(d),
                      wind=wind_label(self.lang, obs["seat_winds"][d]))
            self.log_lines.append(line)
            self.all_lines.append(line)

    # -- names -----------------------------------------------------------------------

    def seat_label(self, seat: int) -> str:
        return self.session.seat_name(self.lang, seat)

    def short_name(self, seat: int) -> str:
        rel = relative(seat, self.session.seat)
        return tr(self.lang, ("you", "right", "across", "left")[rel])

    # -- fitting the terminal -----------------------------------------------------------

    def fit(self) -> None:
        w, h = self.app.size
        small = self.small = w < MIN_SIZE[0] or h < MIN_SIZE[1]
        self.query_one("#main").display = not small and not self.waiting()
        too = self.query_one("#too-small", Static)
        too.display = small
        if small:
            too.update(tr(self.lang, "too_small", w=MIN_SIZE[0], h=MIN_SIZE[1], cw=w, ch=h))
            return
        self.cell = COMPACT if w < 110 else CELL
        self.query_one("#log").styles.height = 1 if h < 30 else min(8, h - 28)

    def on_resize(self) -> None:
        self.fit()
        self.call_after_refresh(self.redraw)

    # -- drawing ----------------------------------------------------------------------

    def waiting(self) -> bool:
        """Online with nothing dealt to this seat yet (connecting, queued, a room whose
        host has not started): a table frame would be empty, so a page of its own says
        what the seat waits for."""
        return self.session.online and self.session.observation() is None

    def show_waiting(self) -> bool:
        """Draw the waiting page, or put the table back once something is dealt."""
        waiting = self.waiting() and not self.small
        page = self.query_one("#waiting", Static)
        page.display = waiting
        self.query_one("#main").display = not self.small and not waiting
        if waiting:
            s, lang = self.session, self.lang
            online = tr(lang, "online_header", profile="").strip()
            lines = [f"[b #ffd54f]twmahjong[/]  {online}", ""]
            if s.room:
                lines.append(f"[b]{escape(tr(lang, 'online_room_code', code=s.room))}[/]")
            notice = s.notice
            if s.hosting and notice in ("", tr(lang, "online_not_started")):
                notice = tr(lang, "online_host_wait")
            lines.append(escape(notice or tr(lang, "online_connecting")))
            if s.hosting and s.start_error:
                lines.append(f"[b #ff8a80]{escape(s.start_error)}[/]")
            info = s.room_info
            if info:
                empty = tr(lang, "online_room_empty")
                names = [escape(n) if n else f"[dim]{empty}[/]" for n in info["players"]]
                lines += ["", tr(lang, "online_room_seats", n=sum(1 for n in info["players"] if n)),
                          "  ".join(names),
                          tr(lang, "online_room_hints_on" if info.get("hints") else "online_room_hints_off")]
            keys = "online_host_keys" if s.hosting else "online_wait_keys"
            lines += ["", tr(lang, keys)]
            page.update("\n".join(lines))
        return waiting

    def redraw(self) -> None:
        s, lang = self.session, self.lang
        obs = s.observation()
        if self.show_waiting():
            return
        if obs is None or not self.query_one("#main").display:
            self.query_one("#status", Static).update(self.status_markup(obs))
            return
        me = s.seat
        events = s.hand_events()
        taken, last = claimed_discards(events)
        self.mover = None if s.hand_over else seat_to_move(obs, events)
        width = self.app.size[0]
        self.query_one("#header", Static).update(header_text(
            lang, obs, hand_no=s.hand_no, dealer_name=self.seat_label(obs["dealer"]), width=width,
            extra=self.header_extra()))
        for rel in (1, 2, 3):
            seat = (me + rel) % 4
            w = self.query_one(f"#seat-{rel}", Static)
            self._seat_box(w, obs, seat, taken, last, river_only=False)
        self._seat_box(self.query_one("#mine-river", Static), obs, me, taken, last, river_only=True)
        hand = self.query_one("#hand", HandView)
        hand.border_title = seat_title(lang, obs, me, tr(lang, "you"), to_move=self.mover == me)
        sc = s.scores[me]
        clock = self.seat_clock(me)
        hand.border_subtitle = f"{clock}  {sc:+d}" if clock else f"{sc:+d}"
        hand.set_class(self.mover == me, "to-move")
        ready, forbidden = self.ready_map(obs), self.forbidden()
        self.coach.sync()
        hand.update(hand_text(lang, obs, self.sel, cell=self.cell, ready=frozenset(
            kinds("".join(ready))), forbidden=frozenset(forbidden), risk=self.coach.risks(),
            pick=self.coach.pick()))
        self.query_one("#status", Static).update(self.status_markup(obs))
        self.query_one("#hint", Static).update(self.hint_text(obs, ready))
        coach = self.coach_text(width - 2)
        self.query_one("#coach", Static).display = bool(coach.plain)
        self.query_one("#coach", Static).update(coach)
        log = self.query_one("#log", Static)
        rows = max(1, log.content_region.height or 1)       # as many recent events as fit
        log.update("\n".join(self.log_lines[-rows:]))
        self.query_one("#keys", Static).update(self.keys_text())
        if self.session.online:
            talk = self.query_one("#talk", Static)
            rows = 2 if self.app.size[1] < 30 else 4          # 80×24: the hand keeps its rows
            text = talk_text(self.session, lang, rows, width - 2)
            talk.display = bool(text.plain)
            talk.update(text)

    def _seat_box(self, w: Static, obs: dict, seat: int, taken, last, *, river_only: bool) -> None:
        s, lang = self.session, self.lang
        region = w.content_region
        width = max(COMPACT, region.width or 16)
        height = max(1, region.height or 4)
        rel = relative(seat, s.seat)
        mover = self.mover == seat
        w.border_title = seat_title(lang, obs, seat, tr(lang, ("you", "right", "across", "left")[rel]),
                                    to_move=mover and not river_only)
        w.set_class(mover and not river_only, "to-move")
        # who plays the seat (a bot's level, a person's name) and its clock on the bottom edge
        clock = self.seat_clock(seat)
        who = s.seat_player(lang, seat) if seat != s.seat else ""
        w.border_subtitle = " ".join(x for x in (clock, who) if x)
        w.update(seat_body(lang, obs, seat, score=s.scores[seat], width=width, height=height,
                           taken=taken[seat], last=last, river_only=river_only, cell=COMPACT))

    def seat_clock(self, seat: int) -> str:
        """Online: the seat's clock as the server counts it (``clocks``)."""
        f = getattr(self.session, "seat_clock", None)
        return f(self.lang, seat) if f is not None else ""

    def header_extra(self) -> str:
        return self.session.header_extra(self.lang) if hasattr(self.session, "header_extra") else ""

    def keys_text(self) -> Text:
        """The key help: only keys this profile uses; q quit always shows."""
        lang, play = self.lang, self.session.profile.play
        keys = ["k_pick", "k_discard", "k_chi", "k_pon", "k_kong", "k_win",
                "k_declare_any" if play.declare_ready == "any_time" else "k_declare_first"]
        if play.may_decline_last_tile:
            keys.append("k_draw")
        keys += ["k_pass", "k_settings", "k_log", "k_help"]
        if self.session.online:
            keys += ["k_auto", "k_talk"]
        if self.coach.allowed() and self.coach.mode != "off":
            keys.append("k_coach")
        keys.append("k_quit")
        width = self.app.size[0] - 2
        for drop in (None, "k_log", "k_settings", "k_pick", "k_talk"):   # ? help lists every key anyway
            if drop in keys:
                keys.remove(drop)
            parts = [p for p in (tr(lang, k) for k in keys) if p]
            for sep in ("  ", " "):
                text = sep.join(parts)
                if cell_len(text) <= width:
                    return Text(text)
        return Text(text)

    # -- hints (聽牌提示) and what may not be thrown ----------------------------------------

    def my_discards(self) -> list[Action]:
        return [a for a in self.session.legal() if a.type == "discard"]

    def ready_map(self, obs: dict) -> dict:
        """Each discard that leaves the hand ready → its waits (only on the person's turn)."""
        discards = self.my_discards()
        if not self.settings.hints or not discards or obs["declared"][obs["seat"]]:
            return {}
        allowed = [a.to_json()["tile"] for a in discards]
        return discard_hints(obs, self.session.hand_events(), allowed=allowed,
                             lilgu=self.session.profile.scoring.lilgu)

    def forbidden(self) -> set[int]:
        """Tiles of the hand that may not be thrown now (禁制 after 吃/碰)."""
        obs = self.session.observation()
        discards = self.my_discards()
        if not discards or obs is None or obs["declared"][obs["seat"]]:
            return set()
        ok = {a.tile for a in discards}
        held = set(kinds(obs["hand"])) | set(kinds(obs.get("drawn")))
        return held - ok

    def forbidden_reason(self) -> str:
        obs = self.session.observation()
        bad = sorted(self.forbidden())
        melds = obs["melds"][obs["seat"]]
        kind = melds[-1]["type"] if melds else "pon"
        tiles = " ".join(tile_label(self.lang, k) for k in bad)
        return tr(self.lang, "forbidden_chi" if kind == "chi" else "forbidden_pon", tiles=tiles)

    def hint_text(self, obs: dict, ready: dict) -> Text:
        """The line under the hand: a note if there is one, else the ready hint or the
        waits; while the person's own 過水 holds, a second line says it."""
        text = self._hint_text(obs, ready)
        passed = passed_win_text(self.lang, obs)
        if passed and passed not in text.plain:
            if text.plain:
                text.append("\n")
            text.append(passed, style="#ffd54f")
        return text

    def _hint_text(self, obs: dict, ready: dict) -> Text:
        lang = self.lang
        if self.note:                   # until the person's next key, whatever redraws meanwhile
            return Text("! " + self.note, style="bold #ff8a80")
        if not self.settings.hints:
            return self.dealer_hint(obs)
        declared = obs["declared"][obs["seat"]]
        if self.my_discards() and not declared:
            tiles = self.hand_tiles()
            if ready and self.sel is not None and self.sel < len(tiles):
                from ..tiles import tile_str
                k = tile_str(tiles[self.sel])
                if k in ready:
                    return Text(tr(lang, "hint_after", tile=tile_label(lang, tiles[self.sel]),
                                   waits=waits_text(lang, ready[k])))
            if ready:
                return Text(tr(lang, "hint_pick"))
        else:                     # between turns, or 聽 declared: the hand's waits (drawn tile aside)
            ws = ready_waits({**obs, "drawn": None}, self.session.hand_events(),
                             lilgu=self.session.profile.scoring.lilgu)
            if ws:
                return Text(tr(lang, "waits_now", waits=waits_text(lang, ws)))
        return self.dealer_hint(obs)

    def dealer_hint(self, obs: dict) -> Text:
        """Until the person's first discard: why the dealer is not East, when it is not."""
        d = obs["dealer"]
        if obs["seat_winds"][d] == "E" or obs["discards"][obs["seat"]]:
            return Text("")
        return Text(tr(self.lang, "dealer_not_east", who=self.short_name(d),
                       wind=wind_label(self.lang, obs["seat_winds"][d])), style="#bcd9c8")

    # -- 教練 --------------------------------------------------------------------------------

    def coach_text(self, width: int) -> Text:
        """The coach's line(s): its choice in words (and the outlook if it fits); then the
        claim advice, or the picked tile's shanten, 進張 and risk, or the marks' legend."""
        c, lang = self.coach, self.lang
        if not c.shows():
            status = c.status(lang)
            return Text(tr(lang, "coach_label") + status, style="#bcd9c8") if status else Text("")
        first = tr(lang, "coach_label") + c.say(lang)
        outlook = c.outlook_line(lang)
        if outlook and cell_len(first) + 3 + cell_len(outlook) <= width:
            first += " · " + outlook
        second = c.claim_line(lang)
        tiles = self.hand_tiles()
        if not second and self.sel is not None and self.sel < len(tiles):
            info = c.tile(tiles[self.sel])
            if info:
                second = c.tile_line(lang, info, self.short_name)
        legend = tr(lang, "coach_legend")
        if not second:
            second = legend if c.risks() else outlook if outlook and outlook not in first else ""
        out = Text()
        out.append(_fit(first, width), style="bold #e6f6ff")
        if second:
            out.append("\n" + _fit(second, width), style="#bcd9c8")
        return out

    def action_coach(self) -> None:
        """o: ask the coach about the open decision (its answer redraws the line)."""
        if self.offline():
            return
        try:
            note = self.coach.ask(self.lang)
        except IllegalAction as e:
            note = refusal_text(self.lang, e)
        if note:
            self.say(note)
        else:
            self.redraw()

    # -- the status line -----------------------------------------------------------------

    def status_markup(self, obs: dict | None) -> str:
        """What the person may do now, each choice a key and a click target."""
        lang = self.lang
        extra = self.session.status_extra(lang) if hasattr(self.session, "status_extra") else ""
        if obs is None or self.session.hand_over:
            return extra or tr(lang, "hand_over" if self.session.hand_over else "waiting")
        if self.menu:
            key, acts = self.menu
            parts = [tr(lang, "choose", what=tr(lang, _KEY_LABEL[key]))]
            for i, a in enumerate(acts, 1):
                parts.append(_button(str(i), f"pick({i})", self.action_label(a)))
            parts.append(tr(lang, "cancel"))
            return " ".join(parts)
        legal = self.session.legal()
        if not legal:
            return " ".join(p for p in (tr(lang, "waiting"), extra) if p)
        if getattr(self.session, "offline", False):
            # the link is down and no key is sent: the banner and the stopped clock, and
            # why nothing moves, in place of a "your turn" prompt that keys would not obey
            return " ".join(p for p in (extra, tr(lang, "online_offline_wait")) if p)
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
        if extra:
            parts.append(extra)
        return " ".join(p for p in parts if p)

    def key_label(self, key: str, acts: list[Action], phase: str) -> str:
        """A choice's words; a claim names its tile (吃 3萬, 碰 白), a 吃 that can be
        made one way names its run."""
        lang = self.lang
        if key == "x" and phase == "last_tile":
            return tr(lang, "act_decline_last")
        if key == "w":
            if acts[0].type == "flower_win":
                return tr(lang, "act_flower_win")
            label = tr(lang, "act_self_win" if phase == "turn" else "act_win")
        else:
            label = tr(lang, _KEY_LABEL[key])
        if phase in ("claim", "rob_kong") and key in "cpkw" and acts[0].tile is not None:
            what = self.action_label(acts[0]) if key == "c" and len(acts) == 1 else \
                tile_label(lang, acts[0].tile)
            label = f"{label} {what}"
        return label

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
        if obs is None:
            return []
        return kinds(obs["hand"]) + (kinds(obs["drawn"]) if obs.get("drawn") else [])

    def say(self, note: str) -> None:
        self.note = note
        self.redraw()

    def offline(self) -> bool:
        """Online with the link lost: a move key is refused with that reason, not sent
        and not answered as if nothing were to decide."""
        if getattr(self.session, "offline", False):
            self.say(tr(self.lang, "online_offline_key"))
            return True
        return False

    def action_move(self, step: int) -> None:
        self.note = None
        n = len(self.hand_tiles())
        if n:
            self.sel = ((self.sel or 0) + step) % n
            self.redraw()

    def action_discard(self) -> None:
        self.note = None
        if self.waiting():
            self.session.start_room()           # the host's Enter starts the room
            return
        if self.offline() or self.menu or self.sel is None:
            return
        tiles = self.hand_tiles()
        if not 0 <= self.sel < len(tiles):
            return
        k = tiles[self.sel]
        legal = self.session.legal()
        act = next((a for a in legal if a.type == "discard" and a.tile == k), None)
        if act is not None:
            self.do(act)
        elif any(a.type == "discard" for a in legal):
            obs = self.session.observation()
            if obs["declared"][obs["seat"]]:
                self.say(tr(self.lang, "your_turn_declared"))
            elif k in self.forbidden():
                self.say(self.forbidden_reason())
            else:
                self.say(tr(self.lang, "not_legal"))
        else:
            self.say(tr(self.lang, "key_not_now", what=tr(self.lang, "act_discard"))
                     if legal else tr(self.lang, "key_nothing"))

    def action_press(self, key: str) -> None:
        self.note = None
        if key == "x" and self.menu:
            self.menu = None
            self.redraw()
            return
        if self.offline():
            return
        legal = self.session.legal()
        acts = [a for a in legal if a.type in KEY_TYPES[key]]
        if not acts:
            passed = passed_win_text(self.lang, self.session.observation()) if key == "w" else ""
            if passed:                          # 過水: say why, not only that it cannot
                self.say(tr(self.lang, "passed_refused", why=passed))
                return
            self.say(tr(self.lang, "key_not_now", what=tr(self.lang, _KEY_LABEL[key]))
                     if legal else tr(self.lang, "key_nothing"))
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
        self.note = None
        if not self.menu or self.offline():
            return
        acts = self.menu[1]
        if 1 <= n <= len(acts):
            self.do(acts[n - 1])

    def action_settings(self) -> None:
        from .dialogs import SettingsScreen
        self.app.push_screen(SettingsScreen(self.settings, self.lang), lambda _=None: self.redraw())

    def action_log(self) -> None:
        from .dialogs import LogScreen
        self.app.push_screen(LogScreen(self.all_lines, self.lang))

    def action_help(self) -> None:
        from .dialogs import HelpScreen
        self.app.push_screen(HelpScreen(self.session.profile, self.lang))

    def action_talk(self) -> None:
        """快捷語: the picker, at a server table once seated."""
        if not self.session.online:
            self.say(tr(self.lang, "talk_offline"))
        elif not self.session.seated:
            self.say(tr(self.lang, "talk_not_seated"))
        else:
            self.app.push_screen(TalkPicker(self.session, self.lang),
                                 lambda why=None: self.say(why) if why else self.redraw())

    def action_auto(self) -> None:
        if self.session.online:
            if self.offline():
                return
            self.session.toggle_auto()
            self.redraw()
        else:
            self.say(tr(self.lang, "key_not_now", what=tr(self.lang, "k_auto")[1:]))

    def click_tile(self, x: int) -> None:
        self.note = None
        obs = self.session.observation()
        if obs is None:
            return
        hand = kinds(obs["hand"])
        drawn = kinds(obs["drawn"])[0] if obs.get("drawn") else None
        for i, c in enumerate(hand_layout(hand, drawn, self.cell)):
            if c <= x < c + self.cell:
                if i == self.sel:
                    self.action_discard()
                else:
                    self.sel = i
                    self.redraw()
                return

    def do(self, act: Action) -> None:
        let_go = act.type == "pass" and any(a.type == "win" for a in self.session.legal())
        try:
            self.session.act(act, run=False)
        except IllegalAction as e:          # the list came from the engine; a race is shown, not raised
            self.say(refusal_text(self.lang, e))
            return
        passed = self.passed_note(act) if let_go else ""
        if passed:                          # a win let go: 過水, in the log (and under the hand while it holds)
            self.log_lines.append("! " + passed)
            self.all_lines.append("! " + passed)
        self.after_move()
        self.advance()

    def passed_note(self, act: Action) -> str:
        """What letting a win go means here: the observation's 過水, or (online, before
        the server's next update) the profile's rule for the tile let go."""
        obs = self.session.observation()
        text = passed_win_text(self.lang, obs)
        if text or obs is None:
            return text
        until = self.session.profile.play.passed_win
        tile = (obs.get("last_discard") or obs.get("added_kong") or {}).get("tile")
        return passed_win_text(self.lang, {"passed_win": {
            "until": until, "tiles": tile if until == "until_own_draw" else None}})


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, with … when cut."""
    if cell_len(text) <= width:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > width - 1:
            break
        out += ch
    return out + "…"


def _button(key: str, action: str, label: str) -> str:
    return f"[@click=screen.{action}][b #0f3d2e on #ffd54f] {key} [/] {label}[/]"

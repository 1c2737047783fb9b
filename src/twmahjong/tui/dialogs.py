"""Small screens over the table: settings (設定), key help (說明), and leaving (離開).

Each is a modal over the table and answers on the keyboard alone; leaving asks
first, because a stray q must not throw a match away.
"""

from __future__ import annotations

from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .strings import tr

__all__ = ["BodyModal", "ConfirmQuit", "HelpScreen", "LogScreen", "OnceModal", "SettingsScreen",
           "modal_css"]

_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{ width: 76; max-width: 100%; height: auto; max-height: 100%;
                    border: round #ffd54f; background: #0a2a20; padding: 0 1; }}
{name} #body {{ width: 100%; height: auto; }}
"""


def modal_css(name: str) -> str:
    """The look of every small screen over the table: a framed box, centred."""
    return _CSS.format(name=name)


class OnceModal(ModalScreen):
    """A modal that closes once. Keys typed fast (Esc then ← within a few ms) are all
    queued for the modal before the first one closes it; ``dismiss`` pops whatever
    screen is on top, so a second key would close the table under it and leave an
    empty screen. ``close`` answers only while this screen is the current one."""

    _closed = False

    def close(self, result=None) -> None:
        if self._closed or not self.is_current:
            return
        self._closed = True
        self.dismiss(result)


class BodyModal(OnceModal):
    """A small screen of one text ``#body`` that ``show()`` draws again after each key."""

    def compose(self):
        with Vertical():
            yield Static(id="body")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        raise NotImplementedError


class SettingsScreen(BodyModal):
    """1 toggles 聽牌提示, 2 cycles the bot speed, 3 the 教練; any other key returns to the table."""

    DEFAULT_CSS = modal_css("SettingsScreen")

    def __init__(self, prefs, lang: str):
        super().__init__()
        self.prefs = prefs
        self.lang = lang

    def show(self) -> None:
        lang, p = self.lang, self.prefs
        text = "\n".join([tr(lang, "settings_title"), "",
                          tr(lang, "set_hints", v=tr(lang, "on" if p.hints else "off")),
                          tr(lang, "set_speed", v=tr(lang, f"speed_{p.speed}")),
                          tr(lang, "set_coach", v=tr(lang, f"coach_mode_{p.coach}")), "",
                          tr(lang, "settings_close")])
        self.query_one("#body", Static).update(text)

    def on_key(self, event) -> None:
        event.stop()
        if event.key == "1":
            self.prefs.hints = not self.prefs.hints
        elif event.key == "2":
            self.prefs.speed = (self.prefs.speed + 1) % 3
        elif event.key == "3":
            modes = ("off", "ask", "always")
            self.prefs.coach = modes[(modes.index(self.prefs.coach) + 1) % 3] if self.prefs.coach in modes else "ask"
        else:
            self.close()
            return
        self.prefs.save()
        self.show()


class HelpScreen(OnceModal):
    """Every key, for this profile (t and d only as the profile uses them); any key returns."""

    DEFAULT_CSS = _CSS.format(name="HelpScreen")

    def __init__(self, profile, lang: str):
        super().__init__()
        self.profile = profile
        self.lang = lang

    def compose(self):
        lang, play = self.lang, self.profile.play
        declare = tr(lang, "help_declare_any" if play.declare_ready == "any_time" else "help_declare_first")
        draw = tr(lang, "help_draw") if play.may_decline_last_tile else ""
        with Vertical():
            yield Static(tr(lang, "help_title") + "\n\n" + tr(lang, "help_body", declare=declare, draw=draw)
                         + "\n" + tr(lang, "tile_legend") + "\n\n" + tr(lang, "press_any"), id="body")

    def on_key(self, event) -> None:
        event.stop()
        self.close()


class ConfirmQuit(OnceModal):
    """y leaves (the app saves first), n / Esc / anything else keeps playing."""

    DEFAULT_CSS = _CSS.format(name="ConfirmQuit")

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self):
        with Vertical():
            yield Static(self.text, id="body")

    def on_key(self, event) -> None:
        event.stop()
        self.close(event.key in ("y", "Y"))


class LogScreen(OnceModal):
    """Every line of the match so far, oldest first, to read linearly (a screen reader's
    review cursor, or the eye after a fast bot turn); ↑↓ PgUp PgDn scroll, other keys return."""

    DEFAULT_CSS = """
    LogScreen { background: #0f3d2e; }
    LogScreen VerticalScroll { height: 1fr; padding: 0 1; }
    LogScreen #prompt { dock: bottom; height: 1; padding: 0 1; text-style: bold reverse; }
    """

    def __init__(self, lines: list[str], lang: str):
        super().__init__()
        self.lines = lines
        self.lang = lang

    def compose(self):
        with VerticalScroll():
            yield Static("\n".join(self.lines) or "-", id="body")
        yield Static(tr(self.lang, "log_prompt"), id="prompt")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def on_key(self, event) -> None:
        if event.key in ("up", "down", "pageup", "pagedown", "home", "end"):
            return
        event.stop()
        self.close()

"""``twmj play``'s Textual app: the table screen, and leaving it safely.

The app only holds the pieces: a session (offline ``PlaySession`` or
``OnlineSession``), the player's ``Prefs``, and the ``TableScreen`` that draws
and takes keys. q and Ctrl-C ask before leaving; an offline match is saved on the
way out (``twmj play --resume``), an online seat is left to the server's auto-play
until its player comes back with the kept ticket.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App
from textual.binding import Binding

from .dialogs import ConfirmQuit
from .prefs import Prefs, clear_saved, saved_path
from .strings import tr
from .table import KEY_TYPES, TableScreen

__all__ = ["KEY_TYPES", "PlayApp", "TableScreen"]


class PlayApp(App):
    """``twmj play``: one person at a table, offline against bots or online."""

    TITLE = "twmahjong"
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("q", "leave", "quit", show=False),
        Binding("ctrl+c", "leave", "quit", show=False, priority=True),
    ]

    def __init__(self, session, lang: str = "zh", prefs: Prefs | None = None,
                 speed: int | None = None, save: bool = True):
        super().__init__()
        self.session = session
        self.lang = lang
        self.prefs = prefs if prefs is not None else Prefs()
        if speed is not None:
            self.prefs.speed = speed
        self.save = save                     # False in tests that must not touch the saved match
        self.saved_to = None
        self.keeps_other = False             # a saved match waits for later: this one is not saved
        self.table = TableScreen(session, lang, self.prefs)

    def on_mount(self) -> None:
        self.push_screen(self.table)
        if getattr(self.session, "online", False):
            self.session.attach(self)

    def action_leave(self) -> None:
        if isinstance(self.screen, ConfirmQuit):
            return
        s = self.session
        if s.online and s.waiting_for_room:
            text = tr(self.lang, "quit_confirm_room_host" if s.hosting else "quit_confirm_room",
                      code=s.room)
        elif s.online:
            text = tr(self.lang, "quit_confirm_online", url=s.url)
        elif self.keeps_other:
            text = tr(self.lang, "quit_confirm_unsaved")
        else:
            text = tr(self.lang, "quit_confirm")
        self.push_screen(ConfirmQuit(text), self._leave_answer)

    def _leave_answer(self, yes: bool | None) -> None:
        if not yes:
            return
        s = self.session
        if not s.online and self.save and not s.match.over and s.walls is None:
            self.saved_to = s.save_progress(saved_path())
        self.exit()

    def finish(self) -> None:
        """The match is over: nothing is left to resume."""
        if not self.session.online and self.save:
            clear_saved()
        self.exit()

    def on_unmount(self) -> None:
        self.session.close()

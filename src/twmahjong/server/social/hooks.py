"""The table's social layer: what the table actor calls at its moments.

A ``Table`` holds one ``TableSocial`` and calls it from a few places — a seated
person's ``talk``, a person's turn that began, a hand that ended, a watcher that
came or went, every change of the game (for the watchers' frames) — so the table
module keeps to the game and this one to the people around it.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from ..net import protocol as P
from .talk import BotTalk, talk_message
from .voice import TableVoice
from .watch import WatchDesk

__all__ = ["TableSocial"]


class TableSocial:
    """A table's social layer, driven by the table actor through a few hooks:
    talk from the seats, bots' lines at their moments, and the watchers (觀戰)."""

    def __init__(self, table: Any):
        self.table = table
        st = table.sv.settings
        self.desk = WatchDesk(table, int(getattr(st, "watch_delay", 4)))
        self.bots = BotTalk(float(getattr(st, "bot_talk", 0.3)),
                            float(getattr(st, "bot_talk_gap", 8.0)),
                            random.Random(f"talk/{table.id}"), table.sv.clock)
        self.voice = TableVoice(table)      # 開黑: the WebRTC signalling between seats

    @property
    def watchable(self) -> bool:
        """The host may forbid watching (room option ``watch: false``)."""
        return bool(self.table.meta["options"].get("watch", True))

    # -- talk -------------------------------------------------------------------------
    def say(self, seat: int, msg: Any) -> None:
        """A seated person's phrase or emote (checked and limited by the connection)."""
        s = self.table.seats[seat]
        if s.bot is not None:
            return
        self._seats(talk_message(seat, phrase=msg.phrase, emote=msg.emote))

    def _bot_says(self, seat: int, moment: str) -> None:
        s = self.table.seats[seat]
        if s.bot is None:
            return
        phrase = self.bots.line(s.bot, moment)
        if phrase is not None:
            self._seats(talk_message(seat, phrase=phrase, bot=True))

    def _seats(self, text: str) -> None:
        for s in self.table.seats:          # never the watchers: 外插 hear nothing
            for c in s.conns:
                c.push(text)

    # -- the moments bots speak at -------------------------------------------------------
    def turn_started(self, seat: int, turn: int) -> None:
        """A person's turn to discard began (public), or they came to the table during
        it: if it runs past its base time from now, a bot at the table may grumble.
        Never for a claim window (that is secret).

        Counted again from an arrival because a line said while the person was not
        there (their turn began before their connection did) reached nobody. Each
        count voids the one before, so a turn gets one line however often it is counted."""
        s = self.table.seats[seat]
        s.long_wait += 1
        asyncio.get_running_loop().call_later(
            s.clock.base, self.table.inbox.put_nowait, ("long_wait", seat, turn, s.long_wait))

    def long_wait(self, seat: int, turn: int, count: int) -> None:
        s = self.table.seats[seat]
        if (seat not in self.table.pending or s.decision_turn != turn or not s.clock.running
                or s.long_wait != count):
            return
        bots = [i for i, o in enumerate(self.table.seats) if o.bot is not None]
        if bots:
            self._bot_says(self.bots.rng.choice(bots), "long_wait")

    def hand_ended(self, result: dict, hand_end: str) -> None:
        self.desk.hand_ended(hand_end)
        for w in result.get("winners") or []:
            self._bot_says(w, "win")
        payer = result.get("payer")
        if payer is not None and not result.get("self_drawn"):
            self._bot_says(payer, "deal_in")

    # -- watchers ----------------------------------------------------------------------
    def watch(self, conn: Any, account_id: int) -> None:
        """``conn`` watches from now on, or is told why not; a refused connection is
        let go (``watch_refused``) so that nobody sees it as watching this table."""
        if (refusal := self.refusal(conn, account_id)) is not None:
            conn.push(P.out(P.Error(code=refusal[0], message=refusal[1])))
            if (let_go := getattr(conn, "watch_refused", None)) is not None:
                let_go(self.table)
            return
        self.desk.add(conn, account_id)
        self._count()

    def refusal(self, conn: Any, account_id: int) -> tuple[str, str] | None:
        """Why ``conn`` of ``account_id`` may not watch this table now (code, message):
        the host forbade it, the game is over, or the table or the account has as
        many watching connections as it may."""
        st = self.table.sv.settings
        if not self.watchable:
            return "watch_forbidden", "the host does not allow watching this table"
        if self.table.finished:
            return "no_table", "this game is over"
        mine = sum(1 for c, a in self.desk.watchers.items() if a == account_id and c is not conn)
        per_account = int(getattr(st, "watch_per_account", 2))
        if mine >= per_account:
            return "watch_limit", (f"you already watch this table from {mine} "
                                   f"connection{'s' if mine > 1 else ''}; close one first")
        if conn not in self.desk.watchers and len(self.desk) >= int(
                getattr(st, "watchers_per_table", 100)):
            return "watch_full", "this table has as many watchers as it can take"
        return None

    def unwatch(self, conn: Any) -> None:
        self.voice.unwatched(conn)
        if self.desk.remove(conn):
            self._count()

    def _count(self) -> None:
        self._seats(P.message("watchers", count=len(self.desk)))

"""``twmj play --server URL --plain``: a server's table as plain lines.

The same lines as the offline ``--plain`` (plain.py) — one per change of the
table, a decision as one line of choices and a ``>`` prompt — fed by the server's
messages instead of a local engine. A line is read only when the seat must
decide, so a script (or a test) can answer decision by decision; meanwhile the
connection keeps running, and a dropped link says ``Reconnected`` when it is back.
``q`` at a prompt (or the end of input) leaves: the server plays the seat until
``twmj play --server`` takes it back.

Table talk is a line too (``下家 電腦 L2：快一點啦，等到花都謝了``); at a prompt
``say`` lists the catalogue, ``say 3`` / ``say hurry`` says one, ``mute left``
mutes (or unmutes) a seat, as ``help`` tells.
"""

from __future__ import annotations

import asyncio
import sys

from .plain import _Plain
from .results import result_text, summary_text
from .strings import tr
from .table import KEY_TYPES, _KEY_LABEL
from .talk import parse_say

_SEAT_WORDS = {1: ("right", "下家"), 2: ("across", "對家"), 3: ("left", "上家")}

__all__ = ["play_plain_online"]


class _PlainOnline(_Plain):
    def __init__(self, session, lang, inp, out, prefs):
        super().__init__(session, lang, inp, out, prefs, None)
        self.notice = ""
        self.results_shown: set[int] = set()
        self.decide_now = asyncio.Event()
        self.done = asyncio.Event()

    def on_message(self, m: dict) -> None:
        s = self.s
        self.events()
        if s.notice and s.notice != self.notice:
            self.notice = s.notice
            self.say(s.notice)
        if m["type"] == "talk" and s.talk and s.talk[-1] is m:
            self.say(s.talk_line(self.lang, m))
        if m["type"] == "error" and s.talk_note:
            self.say(s.talk_note)
        if m["type"] == "hand_end" and m["hand_no"] not in self.results_shown:
            self.results_shown.add(m["hand_no"])
            self.say(self.render(result_text(s, self.lang, 100, s.result_model())))
            if m.get("next_in") is not None:
                s.read_result()             # 下一局: the result stays in the scrollback
        if m["type"] == "game_end":
            self.say(self.render(summary_text(s, self.lang)))
            self.done.set()
        if m["type"] == "notice" and m.get("kind") == "second_connection":
            many = s.link.state.connections > 1
            self.say(tr(self.lang, "online_second_window" if many else "online_second_window_gone"))
        if m["type"] == "link" and m.get("state") == "lost":
            self.say(s.offline_text(self.lang))
        if s.refused:
            self.done.set()
        if m["type"] == "link" and m.get("state") == "gone":
            self.done.set()
        if s.legal():
            self.decide_now.set()

    async def read(self) -> str | None:
        line = await asyncio.get_running_loop().run_in_executor(None, self.inp.readline)
        return None if line == "" else line.strip()

    async def decide(self) -> bool:
        """Prompt, read one line, act. False when the person leaves."""
        s, lang = self.s, self.lang
        self.say(self.prompt_line())
        menu = None
        while s.legal():
            self.out.write("> ")
            self.out.flush()
            cmd = await self.read()
            if cmd is None or cmd.lower() in ("q", "quit", "exit"):
                return False
            low = cmd.lower()
            if menu is not None:
                if low.isdigit() and 1 <= int(low) <= len(menu):
                    s.act(menu[int(low) - 1])
                    return True
                self.say(tr(lang, "cancel"))
                menu = None
                continue
            if low in KEY_TYPES and low not in ("x",):
                acts = [a for a in s.legal() if a.type in KEY_TYPES[low]]
                if len(acts) > 1 and low != "w":
                    for i, a in enumerate(acts, 1):
                        self.say(f"{i} {self.label(a)}")
                    menu = acts
                    continue
                if not acts:
                    self.say(tr(lang, "key_not_now", what=tr(lang, _KEY_LABEL[low])))
                    continue
                s.act(acts[0])
                return True
            act = self.command(cmd)
            if act is False:
                return False
            if act is not None:
                s.act(act)
                return True
        return True

    def command(self, cmd: str):
        """The offline commands, and table talk: ``say [n|id]``, ``mute <seat>``."""
        word, _, rest = cmd.strip().partition(" ")
        word = word.lower()
        if word == "say":
            self.talk(rest.strip())
            return None
        if word == "mute":
            self.mute(rest.strip().lower())
            return None
        if word in ("help", "?", "h"):
            self.say(tr(self.lang, "plain_help"))
            self.say(tr(self.lang, "plain_help_talk"))
            return None
        return super().command(cmd)

    def talk(self, word: str) -> None:
        s, lang = self.s, self.lang
        if not word:
            for i, (what, key) in enumerate(s.book.numbered(), 1):
                self.say(f"{i} {key}: {s.book.text(lang, **{what: key})}")
            if not s.book.numbered():
                self.say(tr(lang, "talk_none"))
            return
        pick = parse_say(s.book, word)
        if pick is None:
            self.say(tr(lang, "plain_say_unknown", word=word))
            return
        why = s.say(**{pick[0]: pick[1]})
        if why:
            self.say(why)

    def mute(self, word: str) -> None:
        s, lang = self.s, self.lang
        rel = next((r for r, words in _SEAT_WORDS.items() if word in words), None)
        if rel is None and word not in ("all", "所有人"):
            self.say(tr(lang, "plain_mute_unknown"))
            return
        s.toggle_mute(-1 if rel is None else (s.seat + rel) % 4)
        who = ", ".join(s.seat_name(lang, x) for x in sorted(s.muted))
        self.say(tr(lang, "plain_muted", who=who) if who else tr(lang, "plain_muted_none"))

    async def run(self) -> None:
        s = self.s
        s.listeners.append(self.on_message)
        pump = asyncio.create_task(s.pump())
        try:
            while not self.done.is_set():
                waiter = asyncio.create_task(self.decide_now.wait())
                finished = asyncio.create_task(self.done.wait())
                await asyncio.wait({waiter, finished}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                finished.cancel()
                self.decide_now.clear()
                if self.done.is_set():
                    break
                if s.legal() and not await self.decide():
                    self.say(tr(self.lang, "online_left"))
                    break
        finally:
            await s.link.close()
            pump.cancel()


async def play_plain_online(session, lang: str = "zh", inp=None, out=None, prefs=None) -> None:
    """Play an ``OnlineSession`` as lines on ``out``, reading answers from ``inp``."""
    from .prefs import Prefs
    session.lang = lang
    await _PlainOnline(session, lang, inp or sys.stdin, out or sys.stdout, prefs or Prefs()).run()

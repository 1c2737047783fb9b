"""``twmj play --server URL --plain``: a server's table as plain lines.

The same lines as the offline ``--plain`` (plain.py) — one per change of the
table, a decision as one line of choices and a ``>`` prompt — fed by the server's
messages instead of a local engine. Lines are read all the time: one typed while
nothing is to decide is answered at once (a tile: ``現在不是你的回合``), never kept
for the next decision. Each decision's line says its time limit (``剩 15 秒``), and
one more line comes 5 s before it runs out. When time ran out the server plays the
seat (託管): a line says so and that ``back`` (``收回``) takes the seat back; the
turn lines keep coming, and the server's moves for the seat are marked. A dropped
link is said (and ``Reconnected`` when it is back). ``q`` (or the end of input)
leaves: the server plays the seat until ``twmj play --server`` takes it back.

Table talk is a line too (``下家 電腦 L2：快一點啦，等到花都謝了``); at a prompt
``say`` lists the catalogue, ``say 3`` / ``say hurry`` says one, ``mute left``
mutes (or unmutes) a seat, as ``help`` tells.
"""

from __future__ import annotations

import asyncio
import sys

from ..engine.actions import IllegalAction
from .plain import _Plain, parse_tile_word
from .render import passed_win_text
from .results import result_text, summary_text
from .strings import refusal_text, tr
from .table import KEY_TYPES, _KEY_LABEL
from .talk import parse_say

_SEAT_WORDS = {1: ("right", "下家"), 2: ("across", "對家"), 3: ("left", "上家")}

__all__ = ["play_plain_online"]


class _PlainOnline(_Plain):
    WARN = 5.0                            # s before the clock runs out: one more line

    def __init__(self, session, lang, inp, out, prefs):
        super().__init__(session, lang, inp, out, prefs, None)
        self.notice = ""
        self.results_shown: set[int] = set()
        self.decide_now = asyncio.Event()
        self.done = asyncio.Event()
        self.server_auto = False          # the server plays this seat (time ran out, 託管)
        self.asked: object = None         # the decision last announced (its turn and legal)
        self.menu: list | None = None     # a numbered choice open (c with several chis)
        self._warn: asyncio.Task | None = None

    def tag(self, e: dict) -> str:
        if self.server_auto and e.get("seat") == self.s.seat:
            return " " + tr(self.lang, "plain_auto_tag")
        return ""

    def on_message(self, m: dict) -> None:
        s = self.s
        if m["type"] == "presence" and m.get("seat") == s.link.state.seat:
            was, self.server_auto = self.server_auto, bool(m.get("auto"))
            if self.server_auto and not was:
                self.say(tr(self.lang, "plain_server_auto"))
            elif was and not self.server_auto:
                self.say(tr(self.lang, "plain_seat_back"))
        self.events()
        if s.notice and s.notice != self.notice:
            self.notice = s.notice
            if s.notice != tr(self.lang, "online_server_auto"):      # said as plain_server_auto
                self.say(s.notice)
        if m["type"] == "talk" and s.talk and s.talk[-1] is m:
            self.say(s.talk_line(self.lang, m))
        if m["type"] == "error" and s.talk_note:
            self.say(s.talk_note)
        if m["type"] in ("hint", "error") and self.coach.asked and s.observation() is not None:
            self.coach_say()                # the coach's answer (or refusal) for this decision
        if m["type"] == "voice" and s.voice:
            self.say(s.voice_line(self.lang))
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

    def decision_key(self):
        st = self.s.link.state
        return (st.turn, str(st.decision())) if st.decision() else None

    def announce(self) -> None:
        """A new decision: its line, with the time it has, and a warning before it ends;
        on 託管 the line too (the server answers it), with how to take the seat back."""
        key = self.decision_key()
        if key is None or key == self.asked:
            return
        self.asked, self.menu = key, None
        s, lang = self.s, self.lang
        left = s.link.state.time_left()
        line = self.prompt_line()
        if left is not None:
            line += ". " + tr(lang, "plain_clock", n=int(left + 0.999))
        if self.server_auto:
            line += ". " + tr(lang, "plain_auto_turn")
        self.say(line)
        self.coach_say()
        if self._warn is not None:
            self._warn.cancel()
        if left is not None and left > self.WARN and not self.server_auto:
            self._warn = asyncio.get_running_loop().create_task(self.warn(key, left - self.WARN))

    async def warn(self, key, after: float) -> None:
        await asyncio.sleep(after)
        if self.decision_key() == key and not self.server_auto:
            self.say(tr(self.lang, "plain_clock_warn", n=int(self.WARN)))

    async def handle(self, cmd: str) -> bool:
        """One typed line, whenever it comes. False when the person leaves."""
        s, lang = self.s, self.lang
        low = cmd.lower()
        if low in ("q", "quit", "exit"):
            return False
        if low in ("back", "收回"):
            if self.server_auto and not s.offline:
                await s.link.auto(False)
            else:
                self.say(tr(lang, "plain_not_auto"))
            return True
        if low in ("look", "l", "table") and s.observation() is None:
            self.say(tr(lang, "waiting"))
            return True
        word = low.partition(" ")[0]
        if word in ("say", "mute", "help", "?", "h", "look", "l", "table", "o", "coach", "教練"):
            self.command(cmd)
            return True
        legal = s.legal()
        if not legal:
            if low in KEY_TYPES or low == "" or parse_tile_word(cmd) is not None or low.isdigit():
                self.say(tr(lang, "plain_not_your_turn"))
            else:
                self.say(tr(lang, "plain_unknown", cmd=cmd))
            return True
        act = None
        if self.menu is not None:
            menu, self.menu = self.menu, None
            if low.isdigit() and 1 <= int(low) <= len(menu):
                act = menu[int(low) - 1]
            else:
                self.say(tr(lang, "cancel"))
                return True
        elif low in KEY_TYPES and low != "x":
            acts = [a for a in legal if a.type in KEY_TYPES[low]]
            if not acts:
                passed = passed_win_text(lang, s.observation()) if low == "w" else ""
                self.say(tr(lang, "passed_refused", why=passed) if passed else
                         tr(lang, "key_not_now", what=tr(lang, _KEY_LABEL[low])))
                return True
            if len(acts) > 1 and low != "w":
                for i, a in enumerate(acts, 1):
                    self.say(f"{i} {self.label(a)}")
                self.menu = acts
                return True
            act = acts[0]
        else:
            act = self.command(cmd)
            if act is False:
                return False
        if act is not None:
            let_go = act.type == "pass" and any(a.type == "win" for a in legal)
            try:
                s.act(act)
            except IllegalAction as e:          # offline: refused, with why
                self.say(refusal_text(self.lang, e))
                return True
            if let_go:
                self.say_passed()
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
            self.say(tr(self.lang, "plain_help_coach"))
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
        lines: asyncio.Queue = asyncio.Queue()

        async def reader() -> None:
            while True:
                line = await self.read()
                await lines.put(line)
                if line is None:
                    return
        typed = asyncio.create_task(reader())
        try:
            while not self.done.is_set():
                self.announce()
                get = asyncio.create_task(lines.get())
                waiter = asyncio.create_task(self.decide_now.wait())
                finished = asyncio.create_task(self.done.wait())
                await asyncio.wait({get, waiter, finished}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                finished.cancel()
                self.decide_now.clear()
                if not get.done():
                    get.cancel()
                    continue
                cmd = get.result()
                if cmd is None or not await self.handle(cmd):
                    self.say(tr(self.lang, "online_left"))
                    break
        finally:
            if self._warn is not None:
                self._warn.cancel()
            await s.link.close()
            pump.cancel()
            typed.cancel()


async def play_plain_online(session, lang: str = "zh", inp=None, out=None, prefs=None) -> None:
    """Play an ``OnlineSession`` as lines on ``out``, reading answers from ``inp``."""
    from .prefs import Prefs
    session.lang = lang
    await _PlainOnline(session, lang, inp or sys.stdin, out or sys.stdout, prefs or Prefs()).run()

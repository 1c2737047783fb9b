"""The table screen's session for a server (線上對戰): ``twmahjong.client`` underneath.

``OnlineSession`` offers the screen what ``PlaySession`` offers — the seat's
observation, its ``legal`` list, the hand's events, the scores, a result — but
reads them from a ``GameLink``'s ``TableState`` and sends the person's choice as
a protocol ``action``. The server deals and runs the table; the session only
shows what arrives: the claim window's countdown (``timer``), the others'
presence and 託管, a dropped link coming back (``GameLink`` reconnects with the
seat's ticket), the next hand when the server starts it.

託管 from the terminal: ``a`` lets the client answer every decision with the safe
move (pass a claim, throw the drawn tile) until ``a`` again. The protocol has no
message to put a seat on the server's auto-play, or to take it off; a seat the
server put on auto-play (time ran out, link dropped) is taken back by acting on
the next decision, as docs/protocol.md says.

Table talk (快捷語, 表情, docs/social.md): the catalogue is read once from the
server (``TalkBook``); ``say`` sends a phrase or emote by id, only while seated;
``toggle_mute`` keeps this seat's mute list and sends all of it (``mute``) — again
after a reconnect, since the server keeps mutes per connection. Each ``talk``
that arrives is kept in ``talk`` (a muted seat's never is), and the screen and the
plain loop show it as ``talk_line``; a refusal (``talk_too_fast``, …) is one line
in the status until the next thing the person does.
"""

from __future__ import annotations

import asyncio
import time
import contextlib

from ..client import Api, ApiError, Credentials, GameLink, LinkError
from ..client.http import base_url
from ..engine.actions import Action, IllegalAction
from ..profiles import load_profile
from .coach import COACH_ERRORS
from .session import relative
from .strings import error_text, mode_label, profile_label, server_error_text, tr
from .talk import TalkBook

__all__ = ["TALK_ERRORS", "OnlineSession", "safe_move"]

# the server's refusals of a ``talk``, each shown as its own line (strings.py talk_err_*)
TALK_ERRORS = ("talk_too_fast", "watcher_silent", "unknown_phrase", "unknown_emote")


def safe_move(obs: dict) -> dict:
    """The move 託管 makes: pass a claim, else throw the drawn tile (else the last tile)."""
    legal = obs.get("legal") or []
    for a in legal:
        if a["type"] == "pass":
            return a
    drawn = obs.get("drawn")
    discards = [a for a in legal if a["type"] == "discard"]
    for a in discards:
        if a.get("tile") == drawn:
            return a
    if discards:
        return discards[-1]
    for a in legal:
        if a["type"] == "draw":
            return a
    return legal[0]


class OnlineSession:
    """A seat at a server's table. ``plan`` says how to sit down: ``("quick", profile,
    stake)`` for 一鍵匹配, ``("ticket", ticket)`` for a room seat or 回到牌桌, and
    ``("ticket", ticket, code)`` for the seat of room ``code`` whose host may not have
    started it yet: the session waits for the host, and leaving before it starts gives
    the seat up (``play_online``). ``("ticket", ticket, code, "host")`` is the host's own
    seat: the waiting page shows who has sat down, and Enter starts the room."""

    online = True
    rejoin_every = 2.0                    # s between asking again for a room not started

    keepalive = 1.0                       # s: a silent server is noticed within ~2 s

    def __init__(self, url: str, token: str | None, plan: tuple, *, creds: Credentials | None = None,
                 retry=None):
        self.url = base_url(url)
        # retry=None: reconnect forever (0.5 s doubling to 5 s); a tuple gives up after it
        self.link = GameLink(url, token, retry=retry, keepalive=self.keepalive)
        self.lost_left: float | None = None   # the decision's clock when the link was lost
        self.plan = plan
        self.room: str | None = plan[2] if plan[0] == "ticket" and len(plan) > 2 else None
        self.hosting = self.room is not None and plan[3:] == ("host",)
        self.room_info: dict | None = None    # the room as last read: who has sat down
        self.start_error = ""                 # why the host's last start was refused
        self.api = Api(url, token)
        self._rejoin = asyncio.Event()        # the host started: ask for the seat at once
        self._watch: asyncio.Task | None = None
        self.creds = creds
        self.app = None
        self.auto = False                 # 託管 by this client
        self.notice = ""                  # the latest word from the connection
        self.profile = load_profile("standard")
        self.changed = asyncio.Event()    # set after every message (tests wait on it)
        self.messages: list[dict] = []
        self.wins = [0, 0, 0, 0]
        self.listeners: list = []         # called with each message (the screen, the plain loop)
        self.lang = "zh"
        self.task = None
        self.book = TalkBook()            # 快捷語/表情, read from the server at connect
        self.talk: list[dict] = []        # the ``talk`` messages heard, oldest first
        self.muted: set[int] = set()      # seats whose talk this person does not want
        self.talk_note = ""               # a refused line, until the person does something
        self.voice: set[int] = set()      # seats in the table's voice (開黑: browsers only)
        self.refused: str | None = None   # the seat was refused (too_many_tables): the lobby offers more
        self.hint_turn: int | None = None     # 教練: the turn a hint was asked for, unanswered
        self.coach_answer: dict | None = None  # its answer: the ``hint``, or the refusal with that turn

    # -- the connection -------------------------------------------------------------------
    def attach(self, app) -> None:
        self.app = app
        self.lang = app.lang
        self.changed = asyncio.Event()
        self.notice = tr(app.lang, "online_connecting")
        self.listeners.append(app.table.on_server)
        self.task = app.run_worker(self.pump(), exclusive=True, exit_on_error=False)
        app.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        if self.app is None:
            return
        if any(c and c.get("running") for c in self.link.state.clocks or []):
            self.app.table.refresh_clocks()      # every seat's clock counts down
        elif self.link.state.decision() or self.offline:
            self.app.table.refresh_status()

    @property
    def offline(self) -> bool:
        """The link was lost and is being got back (after it was up once)."""
        return self.link._lost

    def offline_text(self, lang: str) -> str:
        return tr(lang, "online_reconnecting", n=max(1, self.link.attempt))

    async def pump(self) -> None:
        st = self.link.state
        try:
            await self.link.connect()
            await self.read_talk()
            if self.room is not None:
                self._watch = asyncio.get_running_loop().create_task(self.watch_room())
            if self.plan[0] == "quick":
                _, profile, stake = self.plan
                await self.link.quick_match(profile=profile, stake=stake or "low")
            else:
                await self.link.join(self.plan[1])
            while True:
                m = await self.link.recv()
                self.messages.append(m)
                self.on_message(m)
                self._tell(m)
                if self.refused:                  # no seat to wait for: back to the lobby
                    if self.app is not None:
                        self.app.exit()
                    return
                if self.auto and st.decision() and self.link.up:
                    await self.link.act(safe_move(st.obs))
                if m["type"] == "error" and m["code"] == "not_started" and self.plan[0] == "ticket":
                    # a room's seat whose game is not made yet: sit down once it is (the
                    # room expires if nobody starts it, and then the answer is no_table)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._rejoin.wait(), self.rejoin_every)
                    self._rejoin.clear()
                    await self.link.join(self.plan[1])
        except LinkError as e:
            if not self.link.closed:          # our own close() is not a lost connection
                why = error_text(self._lang(), e, server=self.url)
                # "lost" says the connection was lost in its own words
                self.notice = why if e.code == "lost" else tr(self._lang(), "online_lost", why=why)
        except Exception as e:           # a bug must show as a line, never kill the screen silently
            self.notice = f"{type(e).__name__}: {e}"
        self._tell({"type": "link", "state": "gone"})     # the session's end: no more retries

    def _lang(self) -> str:
        return self.lang

    def _tell(self, m: dict) -> None:
        """A server message, or the session's own word (the room read, the link lost):
        the screen and the plain loop hear it, then whoever waits on ``changed``."""
        for fn in self.listeners:
            fn(m)
        self.changed.set()

    async def watch_room(self) -> None:
        """While the seat waits for its room: who has sat down, read every
        ``rejoin_every`` s for the waiting page. A room gone (its host closed it) ends
        the wait; a failed read is tried again."""
        while self.waiting_for_room:
            try:
                self.room_info = await self.api.room(self.room or "")
            except ApiError as e:
                if e.status == 404:
                    self.room_info = None
                    self.notice = tr(self._lang(), "online_room_gone", code=self.room)
                    self._tell({"type": "room", "room": None})
                    return
            else:
                self._tell({"type": "room", "room": self.room_info})
            await asyncio.sleep(self.rejoin_every)

    def start_room(self) -> None:
        """The host's Enter on the waiting page: start the room (bots fill the empty
        chairs) and sit down at once instead of at the next ask."""
        if not self.hosting or not self.waiting_for_room:
            return
        self.start_error = ""

        async def start() -> None:
            try:
                await self.api.start_room(self.room or "")
            except ApiError as e:
                # kept apart from the notice, which the next ask for the seat (every
                # rejoin_every) sets again: the host reads why until the next Enter
                self.start_error = error_text(self._lang(), e, server=self.url,
                                              code=self.room or "")
                self._tell({"type": "room", "room": self.room_info})
                return
            self.notice = tr(self._lang(), "online_connecting")
            self._rejoin.set()
            self._tell({"type": "room", "room": self.room_info})
        asyncio.get_running_loop().create_task(start())

    async def read_talk(self) -> None:
        """The catalogue; a server without one (or a failed read) leaves talk unreadable
        but the table playable."""
        try:
            self.book = TalkBook(await Api(self.url).talk())
        except (ApiError, KeyError, TypeError):
            self.book = TalkBook()

    def on_message(self, m: dict) -> None:
        st, lang = self.link.state, self._lang()
        t = m["type"]
        if t == "queued":
            self.notice = tr(lang, "online_queued", n=m["waiting"])
        elif t == "snapshot":
            try:
                self.profile = load_profile(st.table.get("profile") or "standard")
            except Exception:
                self.profile = load_profile("standard")
            if self.notice != tr(lang, "online_back"):    # "back" stays until the next move
                self.notice = ""
            if self.creds is not None and st.ticket:
                self.creds.set(ticket=st.ticket)          # 回到牌桌 after the terminal closes
            self.voice = set((st.table.get("voice") or {}).get("seats") or [])
        elif t == "voice":
            self.voice = set(m.get("seats") or [])
        elif t == "matched":
            if self.creds is not None:
                self.creds.set(ticket=m["ticket"])
        elif t == "link" and m.get("state") == "lost":
            # the clock stops here: the server's, not ours, decides what happened meanwhile
            self.lost_left = st.time_left()
            self.notice = ""
        elif t == "link" and m.get("state") == "back":
            self.lost_left = None
            self.notice = tr(lang, "online_back")
            if self.muted:                # the server forgot them with the old connection
                self._send(self.link.mute(sorted(self.muted)))
            if self.plan[0] == "quick" and st.seat is None:
                _, profile, stake = self.plan         # the queue went with the old connection
                self._send(self.link.quick_match(profile=profile, stake=stake or "low"))
        elif t == "talk":
            if m.get("seat") not in self.muted:
                self.talk.append(m)
        elif t == "hint":
            self.coach_answer, self.hint_turn = m, None
        elif t == "error" and self.hint_turn is not None and m["code"] in COACH_ERRORS:
            self.coach_answer = {**m, "turn": self.hint_turn}     # said on the coach's line
            self.hint_turn = None
        elif t == "error" and m["code"] in TALK_ERRORS:
            self.talk_note = tr(lang, f"talk_err_{m['code']}")
        elif t == "error":
            if "too_many_tables" in (m["code"], m.get("reason")) and st.seat is None:
                self.refused = "too_many_tables"  # the lobby offers 進行中的牌局
            if m["code"] == "not_started":
                self.notice = tr(lang, "online_not_started")
            elif m["code"] == "no_table" and self.room and st.seat is None:
                self.notice = tr(lang, "online_room_gone", code=self.room)   # the host left
            elif m["code"] not in ("stale", "not_your_turn"):
                self.notice = server_error_text(lang, m["code"], m.get("reason"),
                                                field=m.get("field"), message=m["message"])
            if m["code"] == "no_table" and self.creds is not None:
                self.creds.set(ticket=None)
        elif t == "hand_end":
            for w in m["result"].get("winners") or []:
                self.wins[w] += 1
        elif t == "game_end":
            if self.creds is not None:
                self.creds.set(ticket=None)
        elif t == "presence" and m["seat"] == st.seat and m["auto"]:
            self.notice = tr(lang, "online_server_auto")

    # -- what the screen reads --------------------------------------------------------------
    @property
    def seat(self) -> int:
        return self.link.state.seat if self.link.state.seat is not None else 0

    def observation(self) -> dict | None:
        return self.link.state.obs

    def legal(self) -> list[Action]:
        if self.auto:
            return []
        return [Action.from_json(a) for a in self.link.state.decision()]

    def act(self, action: Action, run: bool = False) -> None:
        """Send the choice; the decision is taken off the screen until the server answers.
        Offline the choice is refused (IllegalAction, the reason in words), never sent
        into a dead socket: the snapshot after the reconnect says what is still to decide."""
        if self.offline:
            raise IllegalAction(tr(self._lang(), "online_offline_key"))
        st = self.link.state
        if st.obs is not None:
            st.obs = {k: v for k, v in st.obs.items() if k != "legal"}
        if self.notice in (tr(self._lang(), "online_server_auto"), tr(self._lang(), "online_back")):
            self.notice = ""
        self.talk_note = ""
        asyncio.get_running_loop().create_task(self.link.act(action.to_json()))

    def new_events(self) -> list[dict]:
        return self.link.state.take_events()

    def hand_events(self) -> list[dict]:
        return self.link.state.events

    @property
    def scores(self) -> list[int]:
        return self.link.state.scores

    @property
    def hand_no(self) -> int:
        hand = self.link.state.hand or {}
        return max(0, int(hand.get("hand_no", 1)) - 1)

    @property
    def hand_over(self) -> bool:
        st = self.link.state
        return st.hand_end is not None and (st.hand or {}).get("hand_no") == st.hand_end["hand_no"]

    @property
    def match_over(self) -> bool:
        return self.link.state.game_end is not None

    def step(self) -> bool:
        return False

    def run_bots(self) -> None:
        pass

    def read_result(self) -> bool:
        """下一局: the person has read the hand's result; the server deals the next
        hand once everyone at the table has (or its countdown runs out). False when
        it could not be sent (the link is down: the snapshot after it says more)."""
        if self.offline:
            return False
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self.link.ready())
        return True

    def next_hand_prompt(self, lang: str, sent: bool) -> str:
        """The online result's bottom line: what a key does, and when the next hand
        is dealt (``waiting`` names who the deal still waits for)."""
        st = self.link.state
        if self.offline:
            return self.offline_text(lang)
        left = st.next_deal_in()
        n = None if left is None else int(left + 0.999)
        if not sent:
            return (tr(lang, "next_hand_online", n=n) if n is not None
                    else tr(lang, "next_hand_online_any"))
        others = [x for x in (st.next_hand or {}).get("waiting", []) if x != st.seat]
        who = "、".join(self.seat_name(lang, x) for x in others) if lang == "zh" else \
            ", ".join(self.seat_name(lang, x) for x in others)
        if n is None:
            return tr(lang, "ready_sent_any")
        return tr(lang, "ready_sent_wait", who=who, n=n) if others else tr(lang, "ready_sent", n=n)

    def toggle_auto(self) -> None:
        if self.offline:
            raise IllegalAction(tr(self._lang(), "online_offline_key"))
        self.auto = not self.auto
        st = self.link.state
        if self.auto and st.decision():
            asyncio.get_running_loop().create_task(self.link.act(safe_move(st.obs)))

    def ask_hint(self) -> None:
        """教練: ask the server for the open decision's hint (tui/coach.py shows it)."""
        if self.offline:
            raise IllegalAction(tr(self._lang(), "online_offline_key"))
        turn = self.link.state.turn
        self.hint_turn, self.coach_answer = turn, None
        self._send(self.link.send({"type": "hint", "turn": turn}))

    # -- table talk ----------------------------------------------------------------------------
    def _send(self, coro) -> None:
        asyncio.get_running_loop().create_task(coro)

    @property
    def waiting_for_room(self) -> bool:
        """At a room's seat that was never dealt: leaving gives the seat up."""
        return self.room is not None and self.link.state.seat is None

    @property
    def seated(self) -> bool:
        st = self.link.state
        return st.seat is not None and st.obs is not None and not st.over

    def say(self, *, phrase: str | None = None, emote: str | None = None) -> str | None:
        """Send a 快捷語 or 表情 by id; the reason it cannot be sent, else None."""
        if not self.seated:
            return tr(self._lang(), "talk_not_seated")
        self.talk_note = ""
        self._send(self.link.talk(phrase=phrase, emote=emote))
        return None

    def toggle_mute(self, seat: int) -> None:
        """靜音 one seat's talk, or hear it again; ``-1``: all three others at once."""
        others = {(self.seat + rel) % 4 for rel in (1, 2, 3)}
        if seat < 0:
            self.muted = set() if others <= self.muted else set(others)
        else:
            self.muted ^= {seat}
        self._send(self.link.mute(sorted(self.muted)))

    def talk_line(self, lang: str, m: dict) -> str:
        """``下家 電腦 L2：快一點啦，等到花都謝了`` — who said it, as the table names seats."""
        who = self.seat_name(lang, m["seat"])
        if m.get("bot") and tr(lang, "online_bot", name="") not in who:
            who += " " + tr(lang, "online_bot", name="").strip()
        return tr(lang, "talk_line", who=who,
                  text=self.book.text(lang, phrase=m.get("phrase"), emote=m.get("emote")))

    def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(self.link.close())

    # -- names -------------------------------------------------------------------------------
    def _player(self, lang: str, seat: int) -> str:
        seats = self.link.state.seats
        info = seats[seat] if seat < len(seats) else {}
        name = info.get("name") or "?"
        persona = info.get("persona") or {}
        if persona.get("zh"):                 # a personality: its name and its tier as level
            return f"{persona['en'] if lang == 'en' else persona['zh']} L{persona.get('tier', '?')}"
        if info.get("bot") or name.startswith("bot:"):
            name = tr(lang, "online_bot", name=name.removeprefix("bot:"))
        return name

    def seat_name(self, lang: str, seat: int) -> str:
        rel = relative(seat, self.seat)
        if rel == 0:
            return tr(lang, "you")
        return tr(lang, "seat_name", rel=tr(lang, ("self", "right", "across", "left")[rel]),
                  bot=self._player(lang, seat))

    def seat_player(self, lang: str, seat: int) -> str:
        seats = self.link.state.seats
        info = seats[seat] if seat < len(seats) else {}
        out = self._player(lang, seat)
        if info.get("connected") is False:
            out += " " + tr(lang, "online_offline")
        if info.get("auto"):
            out += " " + tr(lang, "online_auto_mark")
        return out

    def seat_clock(self, lang: str, seat: int) -> str:
        """A seat's clock (``clocks``, every seat's as this seat may see it): counted
        down while it runs, else the seat's spare bank; '' for a bot."""
        st = self.link.state
        clocks = st.clocks or []
        c = clocks[seat] if seat < len(clocks) else None
        if not c:
            return ""
        if c.get("running"):
            spent = time.monotonic() - st.timer_at
            left = max(0.0, c.get("base", 0) + c.get("bank", 0) - spent)
            return tr(lang, "online_clock", n=int(left + 0.999))
        return tr(lang, "online_bank", n=int(c.get("bank", 0)))

    def status_extra(self, lang: str) -> str:
        bits = []
        if self.offline:                  # the banner first; the clock stands still
            bits.append(self.offline_text(lang))
            left = self.lost_left if self.link.state.decision() else None
        else:
            left = self.link.state.time_left()
        if left is not None and not self.auto:
            bits.append(tr(lang, "online_clock", n=int(left + 0.999)))
        if self.auto:
            bits.append(tr(lang, "online_auto_on"))
        if self.notice:
            bits.append(self.notice)
        if self.link.state.connections > 1:
            bits.append(tr(lang, "online_second_window"))
        if self.talk_note:
            bits.append(self.talk_note)
        return "  ".join(bits)

    def voice_line(self, lang: str) -> str:
        """Who talks by voice at this table (開黑), and that it takes the browser."""
        who = tr(lang, "voice_sep").join(self.seat_name(lang, s) for s in sorted(self.voice))
        return tr(lang, "voice_in", who=who)

    def header_extra(self, lang: str) -> str:
        """線上 休閒場 · 標準規則: the mode and the rule profile, named apart."""
        table = self.link.state.table
        profile = profile_label(lang, table.get("profile", ""))
        if not table.get("mode"):
            return tr(lang, "online_header", profile=profile)
        return tr(lang, "online_table", mode=mode_label(lang, table["mode"]), profile=profile)

    # -- the result ----------------------------------------------------------------------------
    def result_model(self) -> dict:
        st = self.link.state
        end = st.last_hand_end or {"hand_no": 1, "result": {"type": "draw_game", "hands": []}}
        res = end["result"]
        wins = res.get("wins") or []
        won = {w["seat"]: w for w in wins}
        revealed = []
        for seat, h in enumerate(res.get("hands") or [{} for _ in range(4)]):
            concealed = h.get("concealed", "")
            if seat in won and won[seat].get("tile"):
                concealed += won[seat]["tile"]
            revealed.append({"hand": concealed, "melds": h.get("melds", []), "flowers": h.get("flowers", [])})
        settlement = next((e for e in reversed(st.events) if e["type"] == "settlement"), None)
        obs = st.obs or {}
        return {"hand_no": end["hand_no"] - 1, "wins": wins, "settlement": settlement,
                "draw_game": {"reason": res.get("reason")} if res["type"] == "draw_game" else None,
                "revealed": revealed, "scores": st.scores, "match_over": self.match_over,
                "dealer": obs.get("dealer", 0), "dealer_streak": obs.get("dealer_streak", 0)}

    def summary_model(self) -> dict:
        st = self.link.state
        ge = st.game_end or {}
        return {"scores": ge.get("scores", st.scores), "wins": list(self.wins),
                "rounds": st.table.get("rounds", 1), "hands": self.hand_no + 1, "record_path": None}


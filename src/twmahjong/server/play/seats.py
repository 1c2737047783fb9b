"""Who sits at a table and what each of them is told (the table's seats).

A ``Table`` (table.py) runs the game; this is its other half: the connections
at each seat, and every message a seat receives. Each seat is sent only its own
observation (``snapshot`` from nothing, ``update`` with the events since the
last one). Every seat sees every seat's clock (``clocks``), but another seat's
clock runs only while it is that seat's turn to discard — public at any table —
and its bank shows only what it spent on such turns, so nobody learns who could
claim a discard.

A seat with nobody connected for ``disconnect_grace`` seconds is played by a bot
(托管) and the other seats see that; the player who (re)connects with the seat's
ticket takes it back at once, mid-hand, from a full snapshot. A table with no
person connected for ``pause_after`` seconds waits (``paused``) until one comes
back, instead of letting bots play it out.

``Seating`` is a part of ``Table``, not a class of its own: it reads the table's
state (seats, game, pending decisions) and runs inside the table's actor, so
nothing here needs a lock.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..net import protocol as P
from .coaching import hints_allowed
from .game import commitment, match_commitment
from .timers import TurnClock

__all__ = ["FORFEITED", "Outbox", "SeatState", "Seating", "is_turn"]

log = logging.getLogger("twmahjong.server.play.table")     # the table's own log


FORFEITED = ("you gave up this seat (認輸); a bot plays it to the end of the game "
             "and it cannot be taken back")


class Outbox(Protocol):
    """A connection as the table sees it: push never waits for a slow client."""
    def push(self, text: str) -> None: ...


@dataclass
class SeatState:
    account_id: int | None
    name: str
    bot: str | None                 # a bot's name for a seat filled by a bot
    clock: TurnClock
    conns: list[Outbox] = field(default_factory=list)
    auto: bool = False              # 托管: a bot plays for the absent/silent player
    decision_turn: int | None = None
    bot_scheduled: int | None = None
    player: Any = None              # the bot object, made on first use
    last_obs: dict | None = None
    last_view: tuple | None = None  # (game's view key, own legal) when last_obs was made
    ev_sent: int = 0                # events of this hand already sent to this seat
    public_decision: bool = False   # the running decision is a turn (everyone knows it)
    shown_bank: float = 0.0         # the bank as the other seats see it (turn time only)
    epoch: int = 0                  # bumps on every (re)attach; stale grace timers see it
    long_wait: int = 0              # bumps when a turn's base is counted; a stale count sees it
    forfeited: bool = False         # 認輸: the account gave the seat up; its bot plays it

    def public(self) -> dict:
        out = {"name": self.name, "bot": self.bot is not None,
               "connected": bool(self.conns) or self.bot is not None, "auto": self.auto}
        if self.forfeited:
            out["forfeited"] = True      # the player gave it up (認輸): a bot plays it
        if self.bot is not None:
            from .opponents import level_of, persona
            if (who := persona(self.bot)) is not None:
                out["persona"] = who     # a personality: its name, style line and tier
            if (level := level_of(self.bot)) is not None:
                out["level"] = level     # the strength it plays at (L1-L5, or the tier)
        return out

    def new_hand(self) -> None:
        self.clock.new_hand()
        self.shown_bank = self.clock.bank
        self.public_decision = False

    def stop_clock(self, now: float) -> None:
        """Charge the bank; the others see the charge only for a turn of this seat."""
        before = self.clock.bank
        self.clock.stop(now)
        if self.public_decision:
            self.shown_bank = max(0.0, self.shown_bank - (before - self.clock.bank))
        self.public_decision = False

    def clock_for(self, viewer_is_me: bool, now: float) -> dict | None:
        """This seat's clock as one viewer may see it (None for a bot's seat)."""
        if self.bot is not None:
            return None
        view = self.clock.view(now)
        running = self.clock.running
        if viewer_is_me:
            return {**view, "running": running}
        if running and self.public_decision:
            spent = self.clock.bank - view["bank"]
            return {"base": view["base"], "bank": round(max(0.0, self.shown_bank - spent), 2),
                    "running": True}
        return {"base": self.clock.base, "bank": round(self.shown_bank, 2), "running": False}


def is_turn(legal: list[dict]) -> bool:
    """A decision with a discard in it is the seat's turn, which every seat sees;
    claims, 搶槓 and 天聽 windows are not (who may claim is secret)."""
    return any(a["type"] == "discard" for a in legal)


class Seating:
    """The connections at a table's seats and the messages they are sent (see the
    module docstring); mixed into ``Table``, whose actor calls every method. It
    reads and writes the table state below, and calls back the table's
    ``_sync_pending``, ``_ready``, ``_deciding``, ``_next_in`` and ``state``."""

    id: str
    meta: dict
    seats: list[SeatState]
    game: Any                       # game.TableGame
    sv: Any                         # table.TableServices
    social: Any                     # social.hooks.TableSocial
    inbox: asyncio.Queue
    pending: dict[int, list[dict]]  # seat -> the legal actions it is deciding among
    turn: int
    hand_open: bool
    hand_seed: int | None
    paused: bool
    finished: bool
    window: int | None
    presence_held: dict[int, tuple[bool, bool]]
    conn_epoch: int
    ready_wait: set[int]
    next_deal_at: float | None

    def _attach(self, seat: int, conn: Outbox) -> None:
        s = self.seats[seat]
        if s.forfeited:                  # given up (認輸): nobody sits there again
            conn.push(P.out(P.Error(code="forfeited", message=FORFEITED)))
            return
        before = len(s.conns)
        if conn not in s.conns:         # seated again (a resync): one more snapshot only
            s.conns.append(conn)
        s.epoch += 1
        self.conn_epoch += 1
        if self.paused and s.bot is None:
            self.paused = False          # somebody is back: the table goes on
            for o in self.seats:
                o.bot_scheduled = None
            if self.hand_open:
                self._sync_pending()
        if s.auto:
            s.auto = False
            if seat in self.pending and not s.clock.running:
                s.clock.start(self.sv.clock())
                s.public_decision = is_turn(self.pending[seat])
        self._presence(seat)
        conn.push(self.snapshot(seat))
        if seat in self.pending and s.clock.running and s.public_decision:
            self.social.turn_started(seat, s.decision_turn)   # a bot's line they can hear
        self._connections_changed(seat, before)

    def _connections_changed(self, seat: int, before: int) -> None:
        """One account's seat open in more than one place (a second tab, another
        device): every connection of the seat is told how many there are whenever that
        number changes — down to 1 too, so a client can take its warning away. Any of
        them may play; the table takes the first answer of each decision."""
        s = self.seats[seat]
        k = len(s.conns)
        if k == before or max(k, before) < 2:
            return
        text = P.out(P.Notice(kind="second_connection",
                              data={"game_id": self.id, "seat": seat, "connections": k}))
        for c in s.conns:
            c.push(text)

    def _detach(self, seat: int, conn: Outbox) -> None:
        s = self.seats[seat]
        if conn in s.conns:
            s.conns.remove(conn)
            self._connections_changed(seat, len(s.conns) + 1)
        self.social.voice.detached(seat, conn)
        if not s.conns and seat in self.ready_wait:
            self._ready(seat)            # gone: the next deal does not wait for them
        self.conn_epoch += 1
        self._arm_pause()
        if not s.conns and s.bot is None and not self.finished:
            grace = self.sv.settings.disconnect_grace
            if grace <= 0:
                self._grace_over(seat, s.epoch)
            else:
                self._presence(seat)
                asyncio.get_running_loop().call_later(grace, self.inbox.put_nowait,
                                                      ("grace", seat, s.epoch))

    def _grace_over(self, seat: int, epoch: int) -> None:
        """The player did not come back in time: a bot plays the seat (托管)."""
        s = self.seats[seat]
        if s.conns or s.epoch != epoch or s.auto or self.finished:
            return
        s.auto = True
        log.info("table %s: seat %d did not come back in time; a bot plays it", self.id, seat)
        self._presence(seat)
        if self.hand_open:
            self._sync_pending()

    def _arm_pause(self) -> None:
        """With no person connected, check again after ``pause_after`` seconds."""
        if not self._people_connected() and any(s.bot is None for s in self.seats):
            asyncio.get_running_loop().call_later(
                self.sv.settings.pause_after, self.inbox.put_nowait, ("idle", self.conn_epoch))

    def _people_connected(self) -> bool:
        return any(s.conns for s in self.seats if s.bot is None)

    def _idle_check(self, epoch: int) -> None:
        if epoch == self.conn_epoch and not self._people_connected() and not self.finished:
            self.paused = True
            self.window = None           # reopened, whole, when somebody is back
            log.info("table %s paused: nobody connected", self.id)

    def _presence(self, seat: int, secret: bool = False) -> None:
        """Tell every seat that ``seat`` is (dis)connected or on 托管. ``secret``: the
        change came from a decision in a secret window (its clock ran out, or a
        player on 托管 answered a claim) and would tell the others that the seat
        held an option; the seat itself is told now, the others at the seat's own
        next turn or when the hand ends (``_presence_due``), and any other news of
        that seat waits with it while a window is open."""
        s = self.seats[seat]
        now = (bool(s.conns), s.auto)
        text = P.message("presence", seat=seat, connected=now[0], auto=now[1])
        shown = self.presence_held.get(seat)
        if secret or (shown is not None and self.window is not None):
            # what the others last saw: the change that is held flipped 托管 only
            self.presence_held.setdefault(seat, (now[0], not now[1]))
        elif shown is not None:
            del self.presence_held[seat]
            if shown != now:
                self._broadcast(text)
                return
        else:
            self._broadcast(text)
            return
        for c in s.conns:               # the seat itself; the others saw nothing change
            c.push(text)

    def _presence_due(self, seat: int | None = None) -> None:
        """Tell the others what was held from them: ``seat``'s news at its own turn
        (everyone sees whose turn it is), or everyone's (None) when the hand ends;
        nothing when the seat is as they last saw it."""
        for i in sorted(self.presence_held) if seat is None else [seat]:
            shown = self.presence_held.pop(i, None)
            s = self.seats[i]
            if shown is not None and shown != (bool(s.conns), s.auto):
                self._presence(i)

    def _shown(self, seat: int, viewer: int | None) -> dict:
        """``seat``'s connection and 托管 as ``viewer`` may see them: news held from
        the others is not given away by a snapshot either."""
        s = self.seats[seat]
        shown = self.presence_held.get(seat)
        if shown is None or seat == viewer:
            return {}
        return {"connected": shown[0] or s.bot is not None, "auto": shown[1]}

    def table_info(self, viewer: int | None = None) -> dict:
        seed = self.meta["options"].get("seed")
        seats = [{**s.public(), **self._shown(i, viewer)} for i, s in enumerate(self.seats)]
        return {"game_id": self.id, **{k: self.meta[k] for k in ("mode", "profile", "stake",
                                                                "rounds")},
                "seats": seats, "scores": list(self.game.scores()),
                "finished": self.finished, "state": self.state,
                "speed": self.meta["options"].get("speed", "standard"),
                "tier": self.meta["options"].get("tier"),      # 挑戰賽: the tier played
                "turn_time": {"base": self.seats[0].clock.base,
                              "bank": self.seats[0].clock.bank_size},
                **({"next_hand": {"in": self._next_in(), "waiting": sorted(self.ready_wait)}}
                   if self.next_deal_at is not None else {}),
                "commitment": None if seed is None else match_commitment(int(seed)),
                # 嚦咕嚦咕 counts as a win here: the client's 聽牌提示 lists its waits too
                "lilgu": self.game.lilgu,
                "watchers": len(self.social.desk), "watchable": self.social.watchable,
                # where this table is played (settings.route): a client elsewhere moves here
                "route": self.sv.settings.route or None,
                "hints": hints_allowed(self, viewer),     # 教練: may this seat ask (coaching.py)
                "voice": self.social.voice.info()}

    def snapshot(self, seat: int) -> str:
        """Everything one seat needs to draw the table from nothing (reconnect)."""
        s = self.seats[seat]
        dealt = self.game.hand_no > 0
        obs = self.game.observation(seat) if dealt else None
        s.last_obs = obs
        s.last_view = None
        s.ev_sent = self.game.event_count()
        hand = None
        if dealt:
            hand = {"hand_no": self.game.hand_no, "open": self.hand_open,
                    "commitment": commitment(self.hand_seed or 0), "deal": self._deal_info(seat)}
        now = self.sv.clock()
        timer = s.clock.view(now) if self._deciding(seat) else None
        return P.message("snapshot", table=self.table_info(seat), hand=hand, observation=obs,
                         turn=s.decision_turn if s.decision_turn is not None else self.turn,
                         timer=timer, clocks=self.clocks(seat, now))

    def _deal_info(self, seat: int) -> dict | None:
        """The hand's dice and 開門 (public at the table), for a seat that sits down
        after the deal: who is dealer and why the winds sit where they do."""
        for ev in reversed(self.game.events_for(seat, 0)):
            if ev.get("type") == "deal":
                return {k: ev.get(k) for k in ("dealer", "dice", "wall_break", "seat_winds",
                                               "dealer_streak")}
        return None

    def clocks(self, viewer: int, now: float) -> list[dict | None]:
        """Every seat's clock as ``viewer`` may see it (see the module docstring)."""
        return [s.clock_for(i == viewer, now) for i, s in enumerate(self.seats)]

    def _send_updates(self) -> None:
        """Each seat whose view changed is sent an ``update``. The four observations are
        built at once when the game can (``observations``: the public parts once), and
        every seat's clock as the other seats see it once: only a seat's own clock
        differs in what each is sent."""
        game = self.game
        if game.hand_no > 0 and any(s.conns for s in self.seats):
            now = self.sv.clock()
            key_of = getattr(game, "view_key", None)
            key = key_of() if key_of is not None else None
            due = []
            for i, s in enumerate(self.seats):
                if not s.conns:
                    continue
                view = None if key is None else (key, self.pending.get(i))
                if view is not None and view == s.last_view:
                    continue             # nothing this seat sees has changed
                s.last_view = view
                due.append(i)
            all_of = getattr(game, "observations", None) if len(due) > 1 else None
            built = all_of() if all_of is not None else None
            public: list[dict | None] | None = None
            for i in due:
                s = self.seats[i]
                obs = game.observation(i) if built is None else built[i]
                events = game.events_for(i, s.ev_sent)
                if not events and obs == s.last_obs:
                    continue
                s.last_obs = obs
                s.ev_sent += len(events)
                timer = s.clock.view(now) if self._deciding(i) else None
                turn = s.decision_turn if s.decision_turn is not None else self.turn
                if public is None:       # every clock as a seat other than its own sees it
                    public = [o.clock_for(False, now) for o in self.seats]
                clocks = public.copy()
                clocks[i] = s.clock_for(True, now)
                text = P.message("update", turn=turn, events=events, observation=obs,
                                 timer=timer, clocks=clocks)
                for c in s.conns:
                    c.push(text)
        for i in [i for i in self.presence_held if is_turn(self.pending.get(i) or [])]:
            self._presence_due(i)        # its own turn began (shown above): 托管 news held
        self.social.desk.moved()         # watchers: the public frame, sent turns later

    def _broadcast(self, text: str) -> None:
        for s in self.seats:
            for c in s.conns:
                c.push(text)

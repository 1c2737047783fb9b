"""The table actor (牌桌): one asyncio task owns one game and nothing else touches it.

Everything reaches the table through its inbox — a player's action, a connection
arriving or leaving, a bot's turn, a timer — and everything leaves it as
per-seat messages. Who sits where, who is connected and what each seat is told
(its own observation only, the clocks, auto-play 托管 for a seat with nobody
there) is the table's other half, ``seats.Seating``.

Every decision is stored before anyone is told of it (seed + ordered actions, in
group commits shared by all tables), so a crash can lose only a move nobody saw,
and ``Table.replay`` rebuilds a table after a restart by replaying them.

Secret windows (claims after a discard, 搶槓 after a 加槓, 天聽 at the deal) open
for every seat on every discard and last ``claim_window`` seconds at least. Bots
decide half way through the window and their answers are held, like a person's
early answer; when the minimum has passed, every answer due then — held ones and
the passes of seats that could only pass — is applied in one step, one stored
batch and one update, so the window's end does the same work whatever the seats
held and neither what a seat receives nor when depends on another seat's hidden
tiles (docs/protocol.md, "Claim windows").

No message can stop a table: an unexpected error while handling one is logged
with the table's id, the sender gets an ``error``, and the table rebuilds itself
from what it stored; one that cannot be rebuilt ends cleanly (``aborted``).
A table with no person connected for ``pause_after`` seconds waits (``paused``)
until one comes back, instead of letting bots play it out (``seats.py``); paused
``abandon_after`` seconds more, it ends (``abandoned``). A player may give the
table up (認輸, ``forfeit``): the last person's forfeit ends it, otherwise the
seat's bot plays it to the end. An early end voids the hand in play, keeps the
hands settled, and is stored as finished (``_end_early``). After every item, the
table checks that every pending decision has something to answer it
(``liveness.py``).

Between hands the result (本局結算) stays up until every person at the table has
pressed 下一局 (``ready``) or ``hand_pause`` seconds pass; bots never hurry anyone.
A player may hand their seat to the bot (託管, ``auto``) and take it back; after
taking it back, the next decision waits for them with their clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...errors import UserError
from ..net import protocol as P
from ..store.repository import Fenced, patiently
from .ending import Ending, _Ended, ranks_of
from . import coaching
from .game import PASS_ONLY, TableGame, commitment, safe_default
from .liveness import keep_alive
from .seats import FORFEITED, Outbox, SeatState, Seating, is_turn

__all__ = ["Outbox", "SeatState", "Table", "TableServices", "ranks_of"]

log = logging.getLogger("twmahjong.server.play.table")

# s the result stays up when no person at the table is there to press 下一局
UNWATCHED_PAUSE = 3.0
# how long a stopping table waits for the step under way (a group commit, usually ms)
STEP_GRACE = 5.0


@dataclass
class TableServices:
    """What a table needs from the server, injected so tests can swap any of it."""
    repo: Any
    settings: Any
    tokens: Any
    make_bot: Callable[[str, int], Any]
    on_finished: Callable[[Table], Any]
    game_factory: Callable[[dict], TableGame] | None = None   # to rebuild after an error
    on_aborted: Callable[[Table, str], Any] | None = None
    # a stored write was refused (another process owns the game now): let it go
    on_fenced: Callable[[Table], Any] | None = None
    rng: secrets.SystemRandom = field(default_factory=secrets.SystemRandom)
    clock: Callable[[], float] = time.monotonic
    metrics: Any = None                # server/metrics.py: moves and their latency


class Table(Seating, Ending):
    def __init__(self, game_id: str, meta: dict, seats: list[SeatState], game: TableGame,
                 services: TableServices):
        self.id = game_id
        self.meta = meta            # mode, profile, stake, rounds, options
        self.seats = seats
        self.game = game
        self.sv = services
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.turn = 0
        self.seq = 0
        self.hand_seed: int | None = None
        self.hand_open = False      # dealt and not yet settled
        self.pending: dict[int, list[dict]] = {}
        self.task: asyncio.Task | None = None
        self._idle = asyncio.Event()    # clear while an inbox item is handled (stop waits)
        self._idle.set()
        self.finished = False
        self.aborted = False
        self.paused = False
        self.last_hand: dict | None = None
        self.window: int | None = None     # the open secret window's number
        self.window_seq = 0
        self.window_end = 0.0
        self.window_timer: int | None = None   # the window whose timer item is on its way
        self.bot_calls: Counter[tuple[int, int]] = Counter()  # (seat, token): bot items due
        self.stash: dict[int, dict] = {}   # persons' answers held until a window's minimum
        self.held: dict[int, dict] = {}    # bots' answers, likewise (void if a person is back)
        self.window_passed: int | None = None  # the window whose minimum has passed
        # seat -> (connected, auto) as the others last saw it: 托管 news from a secret
        # window, kept from them until the seat's own turn (seats.py, _presence)
        self.presence_held: dict[int, tuple[bool, bool]] = {}
        self.conn_epoch = 0                # bumps on every attach/detach (pause timer)
        self.owner_epoch: int | None = None  # the fencing token every stored write carries
        self.fenced = False                # a write was refused: this process lost the game
        self.ready_wait: set[int] = set()  # between hands: seats whose 下一局 is awaited
        self.next_deal_at: float | None = None
        self.ended_by: dict | None = None  # an early end: {"ended": why, "forfeited": seats}
        self.paused_at: float | None = None  # wall clock: paused since (abandon_after counts)
        from ..social.hooks import TableSocial
        self.social = TableSocial(self)    # talk, bots' lines, watchers (server/social/talk.py)

    @property
    def state(self) -> str:
        """For /health and the lobby: playing, between_hands, paused, ended, aborted."""
        if self.aborted:
            return "aborted"
        if self.finished:
            return "ended"
        if self.paused:
            return "paused"
        return "playing" if self.hand_open else "between_hands"

    # -- outside API (called from connection handlers) -----------------------------------
    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    def attach(self, seat: int, conn: Outbox) -> None:
        self.inbox.put_nowait(("attach", seat, conn))

    def detach(self, seat: int, conn: Outbox) -> None:
        self.inbox.put_nowait(("detach", seat, conn))

    def submit(self, seat: int, msg: P.ActionMsg | P.Ready | P.AutoPlay | P.Talk | P.Voice
               | P.VoiceSignal, conn: Outbox) -> None:
        self.inbox.put_nowait(("action", seat, msg, conn, time.perf_counter()))

    def watch(self, conn: Outbox, account_id: int) -> None:
        """觀戰: ``conn`` gets the public view, behind the delay (server/social/watch.py)."""
        self.inbox.put_nowait(("watch", conn, account_id))

    def unwatch(self, conn: Outbox) -> None:
        self.inbox.put_nowait(("unwatch", conn))

    def listen(self, msg: P.Voice | P.VoiceSignal, conn: Outbox) -> None:
        """A watcher's voice message (server/social/voice.py: listening, if allowed)."""
        self.inbox.put_nowait(("listen", conn, msg))

    def close(self, reason: str) -> None:
        """An operator ends the table (``twmj admin close``): through the inbox like
        everything else, and then as an abort — the hand in play is void, the hands
        already settled stand, every seat is told why."""
        self.inbox.put_nowait(("close", reason))

    async def stop(self) -> None:
        if self.task and not self.task.done():
            if not self._idle.is_set() and asyncio.current_task() is not self.task:
                # a step under way (a move being stored) finishes first, so a move
                # that is stored is also told: a graceful stop's handover relays every
                # move, and the adopter's snapshot never has to catch a seat up
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._idle.wait(), STEP_GRACE)
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass

    # -- resume ---------------------------------------------------------------------------
    def replay(self, rows: list[dict]) -> None:
        """Bring a fresh game to where the stored rows left it (after a restart)."""
        for r in rows:
            data = r["data"]
            if r["kind"] == "hand":
                self.hand_seed = self.game.start_hand()
                if str(self.hand_seed) != data["seed"]:
                    raise RuntimeError(f"game {self.id}: replayed hand {r['hand_no']} has "
                                       "another wall than the stored one")
                self.hand_open = True
                for s in self.seats:
                    s.new_hand()
            elif r["kind"] == "action":
                self.game.act(r["seat"], data["action"])
                self.turn += 1
            elif r["kind"] == "settled":
                self.last_hand = self.game.finish_hand()
                self.hand_open = False
            self.seq = r["seq"] + 1

    # -- the actor --------------------------------------------------------------------------
    async def _run(self) -> None:
        self._arm_pause()
        try:
            if self.paused_at is not None:   # resumed as it was stored: paused, nobody back
                self.paused = True
                await self._paused_now(self.paused_at)
            while True:
                if self.hand_open and not self.game.hand_over():
                    await self._play()
                if self.hand_open:
                    await self._end_hand()
                if self.game.match_over():
                    break
                if self.game.hand_no > 0:
                    await self._between_hands()
                while self.paused:
                    await self._handle(await self.inbox.get())
                await self._deal()
            await self._finish()
        except asyncio.CancelledError:
            raise
        except Fenced:
            self._let_go()
        except _Ended as ended:
            try:
                await self._end_early(ended.why, ended.answer)
            except Fenced:
                self._let_go()
            except Exception:
                log.exception("table %s could not be ended (%s); ending it as aborted",
                              self.id, ended.why)
                try:
                    await self._abort("the table could not be ended cleanly")
                except Fenced:
                    self._let_go()
            finally:
                if ended.answer is not None and not ended.answer.done():
                    ended.answer.set_result("busy")   # the asker may try again
        except _Closed as closed:
            log.warning("table %s closed by an operator: %s", self.id, closed)
            await self._abort(f"closed by the operator: {closed}")
        except Exception:
            log.exception("table %s cannot go on; ending it", self.id)
            try:
                await self._abort("the table hit an error it could not recover from")
            except Fenced:
                self._let_go()

    def _let_go(self) -> None:
        """Another process took the game on (its epoch is newer than ours): stop here,
        telling nobody anything, and let the server move the seats to the new owner."""
        log.warning("table %s: another process owns this game now; letting it go", self.id)
        self.fenced = True
        if self.sv.on_fenced is not None:
            self.sv.on_fenced(self)

    async def _deal(self) -> None:
        seed = self.game.start_hand()
        await self._persist("hand", None, {"seed": str(seed), "commitment": commitment(seed)})
        self.hand_seed = seed
        self.hand_open = True
        for s in self.seats:
            s.new_hand()
            s.decision_turn = None
        self._broadcast(P.out(P.HandStart(hand_no=self.game.hand_no,
                                          commitment=commitment(seed))))
        self._sync_pending()
        self._send_updates()
        keep_alive(self)

    async def _play(self) -> None:
        self._sync_pending()
        while not self.game.hand_over():
            if self.paused:
                await self._handle(await self.inbox.get())
                continue
            now = self.sv.clock()
            deadlines = [s.clock.deadline() for i, s in enumerate(self.seats)
                         if i in self.pending and self._human_plays(s) and s.clock.running]
            timeout = max(0.0, min(deadlines) - now) if deadlines else None
            try:
                item = await asyncio.wait_for(self.inbox.get(), timeout)
            except TimeoutError:
                item = ("expire",)
            await self._handle(item)

    def _open_result(self) -> None:
        """The hand is over: wait for every person who is here and playing, at most
        ``hand_pause`` s; with nobody to wait for, only a short look at the result."""
        self.ready_wait = {i for i, s in enumerate(self.seats)
                           if self._human_plays(s) and s.conns}
        pause = self.sv.settings.hand_pause
        if not self.ready_wait:
            pause = min(pause, UNWATCHED_PAUSE)
        self.next_deal_at = self.sv.clock() + pause

    def _next_in(self) -> float:
        return round(max(0.0, (self.next_deal_at or 0.0) - self.sv.clock()), 2)

    async def _between_hands(self) -> None:
        """Keep serving joins, leaves and 下一局 while players read the result; deal
        when every awaited player is ready or the time is up."""
        if self.next_deal_at is None:    # resumed between hands
            self._open_result()
        watched = bool(self.ready_wait)
        try:
            while (left := self.next_deal_at - self.sv.clock()) > 0:
                if watched and not self.ready_wait:
                    return               # everyone pressed 下一局 (or left)
                try:
                    item = await asyncio.wait_for(self.inbox.get(), left)
                except TimeoutError:
                    return
                await self._handle(item)
        finally:
            self.ready_wait = set()
            self.next_deal_at = None

    def _ready(self, seat: int, conn: Outbox | None = None) -> None:
        """下一局 from ``seat``: the deal waits for the rest only. Asked while a hand is
        played, the asker is told so (a second 下一局 between hands changes nothing)."""
        if self.hand_open:
            if conn is not None:
                conn.push(P.out(P.Error(code="hand_in_play", message="下一局 is for "
                                        "between hands; this hand is still being played")))
            return
        if seat not in self.ready_wait:
            return
        self.ready_wait.discard(seat)
        self._broadcast(P.out(P.ReadyState(seat=seat, waiting=sorted(self.ready_wait),
                                           next_in=self._next_in())))

    def _set_auto(self, seat: int, on: bool) -> None:
        """託管 on: the bot plays the seat from now on. Off: the player decides
        again, and a decision now pending waits for them with their clock."""
        s = self.seats[seat]
        if s.bot is not None or s.auto == on or self.finished:
            return
        now = self.sv.clock()
        s.auto = on
        if on:
            s.stop_clock(now)
            if seat in self.ready_wait:
                self._ready(seat)
        elif seat in self.pending and self._deciding(seat) and not self.paused:
            s.clock.start(now)
            s.public_decision = is_turn(self.pending[seat])
            if s.public_decision:
                self.social.turn_started(seat, s.decision_turn)
        self._presence(seat)
        if self.hand_open:
            self._sync_pending()
            s.last_obs = None            # resend: the timer (or its end) is news
            self._send_updates()

    async def _handle(self, item: tuple) -> None:
        """One inbox item, as one step that ``stop`` lets finish."""
        self._idle.clear()
        try:
            await self._handle_item(item)
        finally:
            self._idle.set()

    async def _handle_item(self, item: tuple) -> None:
        """One inbox item. Whatever goes wrong in it stays in it: the sender is
        told, and the table rebuilds itself from the moves it stored."""
        kind = item[0]
        try:
            if kind == "attach":
                was = self.paused
                self._attach(item[1], item[2])
                if was and not self.paused:
                    await self._playing_again()
            elif kind == "detach":
                self._detach(item[1], item[2])
            elif kind == "action" and self.seats[item[1]].forfeited:
                item[3].push(P.out(P.Error(code="forfeited", message=FORFEITED)))
            elif kind == "action":
                msg = item[2]
                if isinstance(msg, P.Ready):
                    self._ready(item[1], item[3])
                elif isinstance(msg, P.AutoPlay):
                    self._set_auto(item[1], msg.on)
                elif isinstance(msg, P.Talk):
                    self.social.say(item[1], msg)
                elif isinstance(msg, P.HintAsk):      # 教練 (coaching.py)
                    coaching.ask(self, item[1], msg.turn, item[3])
                elif isinstance(msg, (P.Voice, P.VoiceSignal)):
                    self.social.voice.handle(item[1], msg, item[3])   # social/voice.py
                else:
                    applied = await self._human_action(item[1], msg, item[3])
                    if applied and len(item) > 4 and self.sv.metrics is not None:
                        self.sv.metrics.action_latency.observe(time.perf_counter() - item[4])
            elif kind == "bot":
                s = self.seats[item[1]]
                if s.bot_scheduled == item[2]:
                    s.bot_scheduled = None   # answered or not, this call is spent
                if (left := self.bot_calls.pop((item[1], item[2]), 0) - 1) > 0:
                    self.bot_calls[(item[1], item[2])] = left
                await self._bot_turn(item[1], item[2])
            elif kind == "grace":
                self._grace_over(item[1], item[2])
            elif kind == "window":
                if self.window_timer == item[1]:
                    self.window_timer = None
                await self._window_over(item[1])
            elif kind == "idle":
                was = self.paused
                self._idle_check(item[1])
                if self.paused and not was:
                    await self._paused_now()
            elif kind == "abandon":
                if (self.paused and item[1] == self.conn_epoch
                        and not self._people_connected()):
                    raise _Ended("abandoned")
            elif kind == "expire":
                await self._expire()
            elif kind == "close":
                raise _Closed(item[1])
            elif kind == "forfeit":
                await self._forfeit(item[1], item[2], item[3])
            elif kind == "watch":
                self.social.watch(item[1], item[2])
            elif kind == "unwatch":
                self.social.unwatch(item[1])
            elif kind == "listen":
                self.social.voice.listen(item[1], item[2])
            elif kind == "long_wait":
                self.social.long_wait(item[1], item[2], item[3])
        except (asyncio.CancelledError, Fenced, _Closed, _Ended):
            raise
        except Exception:
            log.exception("table %s: %s from seat %s failed; rebuilding the table",
                          self.id, kind, item[1] if len(item) > 1 else None)
            if kind == "action":
                item[3].push(P.out(P.Error(code="internal_error",
                                           message="that action could not be handled; "
                                                   "the table goes on")))
            await self._recover()
        keep_alive(self)                 # every decision has someone to answer it

    async def _recover(self) -> None:
        """Rebuild the game from its stored rows, so a half-applied change cannot
        linger; then every seat gets a fresh snapshot. Raises if it cannot."""
        if self.sv.game_factory is None:
            raise RuntimeError("no game factory to rebuild the table with")
        await self.sv.repo.flush()
        rows = await patiently(self.sv.repo.game_actions, self.id)
        self.game = self.sv.game_factory(self.meta)
        self.turn = self.seq = 0
        self.hand_open = False
        self.window = None
        self.stash.clear()
        self.held.clear()
        self.replay(rows)
        for s in self.seats:
            s.decision_turn = None
            s.bot_scheduled = None
            s.clock.stop(self.sv.clock())
        self._sync_pending()
        for i, s in enumerate(self.seats):
            for c in s.conns:
                c.push(self.snapshot(i))

    async def _abort(self, reason: str) -> None:
        """End a table that cannot go on: the hand in play is void (no coins move for
        it; hands already settled stand), everyone is told, the game is stored as
        aborted, and /health counts it."""
        self.aborted = True
        self.finished = True
        try:
            if self.sv.on_aborted is not None:
                await self.sv.on_aborted(self, reason)
        except Fenced:
            raise
        except Exception:
            log.exception("table %s: storing the abort failed", self.id)
        scores = list(self.game.scores())
        self._broadcast(P.out(P.Error(code="table_closed", message=reason)))
        end = P.out(P.GameEnd(game_id=self.id, scores=scores, ranks=ranks_of(scores),
                              aborted=True))
        self._broadcast(end)
        self.social.desk.ended(end)

    # -- decisions --------------------------------------------------------------------------
    @staticmethod
    def _human_plays(s: SeatState) -> bool:
        return s.bot is None and not s.auto

    def _deciding(self, seat: int) -> bool:
        """The seat has a real choice now (not just the pass of a window it cannot use)."""
        legal = self.pending.get(seat)
        return legal is not None and (self.window is None or legal != PASS_ONLY)

    def _sync_pending(self) -> None:
        """Start clocks for seats that just became due, and wake bots for theirs.

        In a secret window only seats with a real choice get a clock; bots (and
        seats on 托管) decide half way through it and their answers are held until
        its minimum has passed, when they are applied with the passes of the seats
        that could only pass (``_window_over``)."""
        now = self.sv.clock()
        live = self.hand_open and not self.game.hand_over()
        self.pending = self.game.pending() if live else {}
        loop = asyncio.get_running_loop()
        if live and self.game.in_window():
            if self.window is None and not self.paused:
                self.window_seq += 1
                self.window = self.window_seq
                wait = self.sv.settings.claim_window
                self.window_end = now + wait
                self.window_timer = self.window
                loop.call_later(wait, self.inbox.put_nowait, ("window", self.window))
        else:
            self.window = None
            self.stash.clear()
            self.held.clear()
        for i, s in enumerate(self.seats):
            if i in self.pending:
                if s.decision_turn is None:
                    s.decision_turn = self.turn
                if not self._deciding(i) or self.paused:
                    continue
                if self._human_plays(s):
                    if not s.clock.running:
                        s.clock.start(now)
                        s.public_decision = is_turn(self.pending[i])
                        if s.public_decision:
                            self.social.turn_started(i, s.decision_turn)
                elif s.bot_scheduled != s.decision_turn:
                    s.bot_scheduled = s.decision_turn
                    if self._holding():
                        # half way, when no message of this table is in flight (deciding
                        # as the window opens would delay the sending of its updates)
                        delay = max(0.0, self.window_end - now) / 2
                    elif self.window is not None:
                        delay = 0.0      # the minimum has passed (a person kept it open)
                    else:
                        delay = self.sv.settings.bot_delay
                    self._ask_bot(i, s.decision_turn, delay)
            elif s.decision_turn is not None:
                s.decision_turn = None
                s.stop_clock(now)

    def _ask_bot(self, seat: int, token: int, delay: float) -> None:
        """The seat's bot answers decision ``token`` in ``delay`` s (a ``bot`` item);
        ``bot_calls`` counts the calls on their way, for the liveness check."""
        self.bot_calls[(seat, token)] += 1
        asyncio.get_running_loop().call_later(delay, self.inbox.put_nowait,
                                              ("bot", seat, token))

    def _holding(self) -> bool:
        """A window is open and its minimum has not passed: answers are held."""
        return self.window is not None and self.window != self.window_passed

    async def _window_over(self, number: int) -> None:
        """The window's minimum has passed: every answer due now — the held ones
        (persons' and bots') and the passes of the seats that could only pass — is
        applied in one step, whatever the seats held (``_answer_window``)."""
        if number != self.window or self.paused:
            return
        self.window_passed = number
        answers = {}
        for seat in sorted(self.pending):
            if seat in self.stash:
                answers[seat] = self.stash[seat]
            elif self.pending[seat] == PASS_ONLY:
                answers[seat] = PASS_ONLY[0]
            elif not self._human_plays(self.seats[seat]):
                # decided half way; not yet only with a window too short to hold anything
                held = self.held.get(seat)
                answers[seat] = held if held is not None else self._bot_decides(seat)
        self.stash.clear()
        self.held.clear()
        await self._answer_window(answers)

    async def _answer_window(self, answers: dict[int, dict]) -> None:
        """Apply a window's answers in seat order, all at once: their rows go in one
        batch and every seat is told once. One by one, each answer cost a commit
        round trip before the next draw, and a bot's answer (a seat that held an
        option) made the window end later than the passes alone (the attack on
        claim-window timing, docs/security.md); the answers change nothing anyone
        sees until the window resolves. A seat the window no longer asks (it
        resolved) is skipped; an answer no longer offered falls back to the safe
        move."""
        rows = []
        now = self.sv.clock()
        for seat in sorted(answers):
            legal = self.game.pending().get(seat) if self.game.in_window() else None
            if legal is None:
                continue                 # the window resolved: the rest are not asked
            action = answers[seat]
            if action not in legal:
                action = safe_default(legal)
            self.game.act(seat, action)
            s = self.seats[seat]
            s.stop_clock(now)
            s.decision_turn = None
            self.turn += 1
            rows.append(self._row("action", seat, {"action": action}))
        if not rows:
            return
        if self.sv.metrics is not None:
            self.sv.metrics.actions.inc(len(rows))
        await self._store(rows)
        self._sync_pending()
        self._send_updates()

    async def _human_action(self, seat: int, msg: P.ActionMsg, conn: Outbox) -> bool:
        """True when the action was applied (and every seat told) now."""
        s = self.seats[seat]
        if seat not in self.pending:
            conn.push(P.out(P.Error(code="not_your_turn",
                                    message="it is not your turn to act")))
            return False
        if msg.turn is not None and msg.turn != s.decision_turn:
            conn.push(P.out(P.Error(code="stale", message="that action was for an earlier "
                                    "moment of the hand; choose again")))
            return False
        try:        # the offered action it names, or IllegalAction saying why not
            action = self.game.check(seat, msg.action.model_dump(exclude_none=True))
        except UserError as e:
            conn.push(P.out(P.Error(code="illegal_action", message=str(e))))
            return False
        if s.auto:                       # the player is back: take the seat from the bot
            s.auto = False
            self._presence(seat, secret=self.window is not None)
        if self._holding():
            self.stash[seat] = action    # applied with the window's other answers
            return False
        await self._apply(seat, action)
        return True

    async def _bot_turn(self, seat: int, token: int) -> None:
        s = self.seats[seat]
        if seat not in self.pending or s.decision_turn != token or self._human_plays(s):
            return
        if self.paused:
            s.bot_scheduled = None       # asked again when the table goes on
            return
        action = self._bot_decides(seat)
        if self._holding():
            self.held[seat] = action     # applied with the window's other answers
            return
        await self._apply(seat, action)

    def _bot_decides(self, seat: int) -> dict:
        """The bot's (or 托管's) answer to the seat's pending decision."""
        s = self.seats[seat]
        legal = self.pending[seat]
        obs = self.game.observation(seat)
        action = None
        try:
            if s.player is None:
                s.player = self.sv.make_bot(s.bot or self.sv.settings.autoplay_bot,
                                            self.sv.rng.getrandbits(64))
            rng = getattr(s.player, "rng", None)
            if isinstance(rng, random.Random):
                # seeded from the hand (secret) and the move: after a restart the bot
                # decides a move that was never stored exactly as it would have
                rng.seed(f"{self.hand_seed}/{self.turn}/{seat}")
            action = _as_json(s.player.act(obs))
        except Exception:   # a bot must never stop the table; the safe move goes on
            log.exception("bot at table %s seat %d failed", self.id, seat)
        if action is None or action not in legal:
            action = safe_default(legal, obs.get("drawn"))
        return action

    async def _expire(self) -> None:
        """Time ran out for every seat whose deadline passed: safe move, then 托管."""
        now = self.sv.clock()
        for i, s in enumerate(self.seats):
            if (i in self.pending and self._human_plays(s) and s.clock.running
                    and s.clock.deadline() <= now):
                s.auto = True
                # in a window, the others would learn the seat held an option
                self._presence(i, secret=not s.public_decision)
                obs = self.game.observation(i)
                action = safe_default(self.pending[i], obs.get("drawn"))
                if self._holding():
                    s.stop_clock(now)
                    self.stash[i] = action    # applied with the window's other answers
                else:
                    await self._apply(i, action)
                return

    async def _apply(self, seat: int, action: dict) -> None:
        self.game.act(seat, action)          # raises UserError and changes nothing
        s = self.seats[seat]
        s.stop_clock(self.sv.clock())
        s.decision_turn = None
        self.turn += 1
        if self.sv.metrics is not None:
            self.sv.metrics.actions.inc()
        await self._persist("action", seat, {"action": action})
        self._sync_pending()
        self._send_updates()

    async def _persist(self, kind: str, seat: int | None, data: dict) -> None:
        """Store a row and wait for its commit: only then may anyone be told of it."""
        await self._store([self._row(kind, seat, data)])

    async def _store(self, rows: list[dict]) -> None:
        """Rows stored under this owner's epoch; ``Fenced`` if another process has taken
        the game on since, ``Refused`` if the database refused them (a constraint):
        nothing of them is stored, nobody is told. A refusal is handled like any error
        in a message: the table rebuilds from what is stored, or ends cleanly."""
        repo, epoch = self.sv.repo, self.owner_epoch
        if epoch is None:                # unfenced (a table made without an owner epoch)
            await repo.stored(repo.queue_actions(self.id, rows))
        else:
            await repo.stored(repo.queue_actions(self.id, rows, epoch=epoch))
            if repo.refused(self.id, epoch):
                raise Fenced(self.id, epoch)
        if (refusal := repo.rejected(self.id)) is not None:
            raise refusal

    def _row(self, kind: str, seat: int | None, data: dict) -> dict:
        row = {"seq": self.seq, "hand_no": self.game.hand_no, "kind": kind, "seat": seat,
               "data": data}
        self.seq += 1
        return row

    # -- end of hand and game -----------------------------------------------------------------
    async def _balances(self) -> list[int | None]:
        """Each seat's coins (None for bots): what 防以小博大 caps a hand's losses to.
        Read patiently, as every read the table makes in play: a database away, or a
        connection cut under the read, is waited out (``store.repository.patiently``)."""
        out: list[int | None] = []
        for s in self.seats:
            acc = (await patiently(self.sv.repo.account, s.account_id)
                   if s.account_id is not None else None)
            out.append(int(acc["coins"]) if acc else None)
        return out

    async def _game_coins(self, scores: list[int]) -> list[dict[str, int] | None]:
        """Each person's coins over the whole game, {before, after} (None for bots):
        the balance now, less what the game's hands moved (its scores), so a player who
        left and came back is told the whole game, not the hands since the return."""
        return [None if after is None else {"before": after - int(score), "after": after}
                for after, score in zip(await self._balances(), scores)]

    async def _end_hand(self) -> None:
        repo = self.sv.repo
        outcome = self.game.finish_hand()
        house = await patiently(repo.house_id)
        entries = []
        for s, net in zip(self.seats, outcome["net"]):
            if s.account_id is not None:
                entries.append((s.account_id, int(net), "hand"))
            elif net:
                entries.append((house, int(net), "bot_hand"))
        if outcome.get("fee"):
            entries.append((house, int(outcome["fee"]), "fee"))
        hand_no = self.game.hand_no
        row = {"seq": self.seq, "hand_no": hand_no, "kind": "settled", "seat": None,
               "data": {"net": list(outcome["net"]), "fee": outcome.get("fee", 0)}}
        self.seq += 1
        await repo.settle_hand(self.id, hand_no, entries, row, epoch=self.owner_epoch)
        self.hand_open = False
        self.last_hand = outcome
        coins = await self._balances()
        seed = self.hand_seed or 0
        last = self.game.match_over()
        if not last:
            self._open_result()
        end = P.out(P.HandEnd(hand_no=hand_no, result=outcome["result"], coins=coins,
                              seed=str(seed), commitment=commitment(seed),
                              next_in=None if last else self._next_in(),
                              waiting=None if last else sorted(self.ready_wait)))
        self._presence_due()             # 托管 news held in a window: the hand is over
        self._broadcast(end)
        self._send_updates()
        self.social.hand_ended(outcome["result"], end)

    async def _finish(self) -> None:
        scores = list(self.game.scores())
        ranks = ranks_of(scores)
        extra = await self.sv.on_finished(self, scores, ranks)
        self.finished = True
        end = P.out(P.GameEnd(game_id=self.id, scores=scores, ranks=ranks,
                              rating=extra.get("rating"), challenge=extra.get("challenge"),
                              seed=str(self.meta["options"].get("seed")),
                              coins=await self._game_coins(scores)))
        self._broadcast(end)
        self.social.desk.ended(end)

class _Closed(BaseException):
    """Unwinds the actor from wherever it waits when an operator closes the table
    (a BaseException: the per-message recovery must not catch it)."""


def _as_json(action: Any) -> dict | None:
    if action is None:
        return None
    if isinstance(action, dict):
        return action
    return action.to_json()

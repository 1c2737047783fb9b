"""The WebSocket game channel (``/ws``): one ``Connection`` per socket.

A connection validates every frame (size, rate, JSON, schema) before anything
else sees it, answers problems to its own client only, and forwards the rest:
queue requests to the lobby, actions to its table's inbox. Outgoing messages go
through a bounded queue drained by a writer task, so a slow client can never make
a table wait; a client that falls too far behind is disconnected (its seat goes on
auto-play and it can reconnect with its ticket).

What one client may hold is bounded too: an address (an IPv6 /64) opens at most
``max_connections_per_address`` sockets; a socket says ``hello`` within
``hello_timeout`` and in at most ``pre_hello_frames`` frames; after that one that
sends nothing, not even a ping, for ``idle_timeout`` is closed; and one that keeps
sending past its rate (``flood_burst`` frames refused) is closed, not just told.
Each is closed with a close code and a reason saying which (``CLOSE_*``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson

from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...errors import UserError
from ..people.auth import AuthError, public_account
from ..play import challenge
from ..play.lobby import LobbyError
from ..play.seats import FORFEITED
from ..play.timers import TokenBucket
from ..store.db import UNAVAILABLE, said_database_away, unreachable
from . import protocol as P
from .limits import LimitError, network_of

__all__ = ["Connection"]

_TALK = '{"v":1,"type":"talk"'          # social.talk_message's text begins so
_VOICE = '{"v":1,"type":"voice_signal"'  # social.voice's relayed offers and answers

# close codes: 1008 (policy) for a client that broke a rule, 1013 (try again later)
# for one refused for now, 1001 (going away) for an idle one
CLOSE_POLICY, CLOSE_AGAIN, CLOSE_IDLE = 1008, 1013, 1001
CLOSE_FLUSH = 2.0       # s a closing connection's last messages may take to go out

log = logging.getLogger("twmahjong.server.net.ws")


class Connection:
    def __init__(self, ws: WebSocket, server):
        self.ws = ws
        self.server = server
        st = server.settings
        now = time.monotonic()
        self.bucket = TokenBucket(st.conn_rate, st.conn_burst, now)
        self.refusals = TokenBucket(st.conn_rate, st.flood_burst, now)   # past it: closed
        self.frames = 0                  # frames received (before a hello: a small budget)
        self.address: str | None = None  # network_of(peer), counted while open
        self.account: dict | None = None
        self.table = None
        self.seat: int | None = None
        self.waiting = None
        self.waiter: asyncio.Task | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()   # bounded in push()
        self.closed = False
        self.dropped = False
        self.task: asyncio.Task | None = None
        self._tasks: set[asyncio.Task] = set()
        self.writer: asyncio.Task | None = None
        self._last_limited = 0.0
        self.watching = None             # the table this connection watches (觀戰)
        self.blocked: set[int] = set()   # accounts whose table talk never reaches us
        self.muted: set[int] = set()     # seats of this table whose talk we do not want

    # -- Outbox protocol (used by tables) ------------------------------------------------------
    def push(self, text: str) -> None:
        if self.closed:
            return
        if text.startswith(_TALK) and (self.blocked or self.muted) and self._unwanted(text):
            return                       # a blocked or muted player's phrase never arrives
        if text.startswith(_VOICE) and self.blocked and self._blocked_seat(text):
            return                       # nor a blocked player's call (開黑)
        if self.outbox.qsize() >= self.server.settings.send_queue:
            log.warning("dropping a client that does not read its messages (%s)", self._who())
            self.server.metrics.slow_dropped.inc()
            self._drop()
            return
        self.outbox.put_nowait(text)

    def _drop(self) -> None:
        """End a connection that stopped reading. Its writer may be stuck in a send
        that waits for the client's window to open, and its reader in a receive, so
        both are cancelled: the seat is let go now (托管; the ticket brings it back)
        and nothing keeps queueing for it."""
        self.closed = True
        self.dropped = True
        if self.writer is not None:
            self.writer.cancel()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()

    def _unwanted(self, text: str) -> bool:
        table = self.table
        if table is None:
            return False
        seat = orjson.loads(text).get("seat")
        if seat in self.muted:
            return True
        try:
            return table.seats[seat].account_id in self.blocked
        except (IndexError, TypeError):
            return False

    def _blocked_seat(self, text: str) -> bool:
        seat = orjson.loads(text).get("seat")
        try:
            return self.table is not None and self.table.seats[seat].account_id in self.blocked
        except (IndexError, TypeError):
            return False

    def reload_blocks(self) -> None:
        """The account's block list changed (on any worker): read it again."""
        if self.account is not None:
            task = asyncio.ensure_future(self._load_blocks())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _load_blocks(self) -> None:
        try:
            self.blocked = await self.server.friends.blocked_by(self.account["id"])
        except Exception:
            log.exception("reading the block list of %s", self._who())

    def error(self, code: str, message: str) -> None:
        self.server.metrics.errors.labels(code).inc()
        self.push(P.out(P.Error(code=code, message=message)))

    async def _writer(self) -> None:
        while True:
            text = await self.outbox.get()
            if text is None:
                return
            await self.ws.send_text(text)

    # -- main loop --------------------------------------------------------------------------
    async def run(self) -> None:
        st = self.server.settings
        if self.server.connections >= st.max_connections:
            await self._refuse_full()
            return
        address = network_of(self.ws.client.host if self.ws.client else "?")
        if not self.server.limits.sockets.take(address, st.max_connections_per_address):
            await self._refuse_address(address)
            return
        self.address = address
        self.server.connections += 1         # counted before the first await: a cap holds
        self.server.conns.add(self)
        self.task = asyncio.current_task()
        try:
            await self.ws.accept()
            self.writer = asyncio.create_task(self._writer())
            hello_by = time.monotonic() + st.hello_timeout
            while not self.closed:
                wait = (st.idle_timeout if self.account is not None
                        else hello_by - time.monotonic())
                try:
                    async with asyncio.timeout(max(0.0, wait)):
                        msg = await self.ws.receive()
                except TimeoutError:
                    await self._timed_out()
                    break
                if msg["type"] == "websocket.disconnect":
                    break
                raw = msg.get("text")
                if raw is None:
                    raw = msg.get("bytes") or b""
                await self._frame(raw)
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if not self.dropped:             # a drop ends the handler normally
                raise
        except Exception:
            log.exception("connection handler failed")
        finally:
            self.closed = True
            self.server.connections -= 1
            self.server.limits.sockets.give_back(address)
            self.server.conns.discard(self)
            self._leave()
            if self.account:
                self.server.presence.disconnected(self.account["id"])
                self.server.where.untrack(self)
            if self.writer is not None:
                self.writer.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await self.writer

    async def _refuse_full(self) -> None:
        """Over ``max_connections``: say so and close with 1013 (try again later), so a
        client and a load balancer see a full server, not one that stopped answering."""
        self.server.metrics.refused.inc()
        log.warning("refusing a connection: %d open, the cap is %d", self.server.connections,
                    self.server.settings.max_connections)
        with contextlib.suppress(Exception):
            await self.ws.accept()
            await self.ws.send_text(P.out(P.Error(
                code="server_full", message="this server is full; try again in a moment")))
            await self.ws.close(code=1013)

    async def _refuse_address(self, address: str) -> None:
        """This address (or /64) holds ``max_connections_per_address`` sockets already:
        the others' players still find room."""
        cap = self.server.settings.max_connections_per_address
        self.server.metrics.refused.inc()
        log.warning("refusing a connection: %s holds %d, the cap per address", address, cap)
        with contextlib.suppress(Exception):
            await self.ws.accept()
            await self.ws.send_text(P.out(P.Error(
                code="too_many_connections",
                message=f"your address has {cap} connections open here already; "
                        "close one and try again")))
            await self.ws.close(code=CLOSE_AGAIN, reason="too many connections from "
                                                        "your address")

    async def _timed_out(self) -> None:
        st = self.server.settings
        if self.account is None:
            self.error("hello_timeout", f"say hello within {st.hello_timeout:g} s of "
                                        "connecting")
            await self._close_after_sending(CLOSE_POLICY, "no hello in time")
        else:
            self.error("idle", f"nothing heard for {st.idle_timeout:g} s; "
                               "a client pings to stay connected")
            await self._close_after_sending(CLOSE_IDLE, "idle")

    def _leave(self) -> None:
        if self.watching is not None:
            self.watching.unwatch(self)
            self.watching = None
        if self.waiting is not None:
            self.server.queue.cancel(self.waiting)
            self.waiting = None
        if self.waiter is not None:
            self.waiter.cancel()
            self.waiter = None
        if self.table is not None:
            self.table.detach(self.seat, self)
            self.table = None
            self.seat = None

    def _who(self) -> str:
        peer = self.ws.client.host if self.ws.client else "?"
        return f"account {self.account['id']} at {peer}" if self.account else peer

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        ok = self.bucket.take(now)
        if ok and self.account is not None:
            ok = self.server.limits.messages.take(self.account["id"])
        if not ok and now - self._last_limited >= 1.0:   # one notice a second, not a flood back
            self._last_limited = now
            self.error("rate_limited", "too many messages; slow down")
        return ok

    async def _frame(self, raw: str | bytes) -> None:
        # counted and limited before anything decodes it: a flood costs a count each
        self.frames += 1
        st = self.server.settings
        if self.account is None and self.frames > st.pre_hello_frames:
            log.warning("closing a connection that sent %d frames without a hello (%s)",
                        self.frames, self._who())
            self.error("not_authenticated", "say hello with your token first")
            await self._close_after_sending(CLOSE_POLICY, "no hello")
            return
        if not self._rate_ok():
            if not self.refusals.take(time.monotonic()):
                log.warning("closing a connection that keeps flooding (%s)", self._who())
                self.server.metrics.errors.labels("flooding").inc()
                self.error("flooding", "too many messages for too long; closed")
                await self._close_after_sending(CLOSE_POLICY, "flooding")
            return
        msg = None
        try:
            msg = P.parse_client(raw, st.max_frame_bytes, st.max_json_depth)
            await self._dispatch(msg)
        except P.ProtocolError as e:
            if e.code in ("too_large", "too_deep"):     # one line, no traceback: not our bug
                log.warning("refused a frame from %s: %s", self._who(), e)
            self.error(e.code, str(e))
        except LimitError as e:
            self.error(e.code, str(e))
        except LobbyError as e:
            self.error(e.code, str(e))
        except AuthError as e:
            self.error("auth", str(e))
        except UserError as e:
            self.error("bad_request", str(e))
        except DBAPIError as e:
            if not unreachable(e):
                raise
            # the database is away (a restart, a failover): the player hears so, and the
            # log says it once in a while (a traceback per message filled a chaos run's
            # logs with 644 of them). A hello or a join that failed leaves the connection
            # half set up: it is closed "try again later" (1013), and every client's
            # reconnection says hello again; after any other message it stays.
            said_database_away(log, e)
            self.error("unavailable", UNAVAILABLE)
            if isinstance(msg, (P.Hello, P.Join)):
                await self._close_after_sending(1013)

    async def _close_after_sending(self, code: int, reason: str = "") -> None:
        """Send what is queued (the error saying why), then close with ``code``."""
        self.closed = True
        self.outbox.put_nowait(None)               # the writer sends the rest, then ends
        # bounded: a client that does not read (a flooder often does not) keeps neither
        # the writer nor the close waiting
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, CLOSE_FLUSH)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_FLUSH):
                await self.ws.close(code=code, reason=reason)

    async def _dispatch(self, msg) -> None:
        if isinstance(msg, P.Ping):
            self.push(P.out(P.Pong()))
            return
        if isinstance(msg, P.Hello):
            await self._hello(msg)
            return
        if self.account is None:
            raise P.ProtocolError("not_authenticated", "say hello with your token first")
        if isinstance(msg, P.QuickMatch):
            await self._quick_match(msg)
        elif isinstance(msg, P.CancelMatch):
            if self.waiting is not None:
                self.server.queue.cancel(self.waiting)
                self.waiting = None
        elif isinstance(msg, P.Join):
            await self._join(msg.ticket)
        elif isinstance(msg, P.Talk):
            await self._talk(msg)
        elif isinstance(msg, (P.Voice, P.VoiceSignal)):
            from ..social.voice import check
            check(self, msg)                 # seated, this table, the rate: else an error
            if self.watching is not None:
                self.watching.listen(msg, self)     # a watcher, if the host lets it listen
            else:
                self.table.submit(self.seat, msg, self)
        elif isinstance(msg, P.Watch):
            await self._watch(msg.game_id)
        elif isinstance(msg, P.Mute):
            self.muted = set(msg.seats)
        elif isinstance(msg, P.Unwatch):
            if self.watching is not None:
                self.watching.unwatch(self)
                self.watching = None
                self.server.where.update(self.account["id"])
        elif isinstance(msg, P.HintAsk):         # 教練: the table answers (play/coaching.py)
            from ..play.coaching import gate
            gate(self)
            self.table.submit(self.seat, msg, self)
        elif isinstance(msg, (P.ActionMsg, P.Ready, P.AutoPlay)):
            if self.table is None:
                raise P.ProtocolError("not_seated", "you are not seated at a table")
            if self.table.finished:
                raise LobbyError("no_table", "this game is over")
            self.table.submit(self.seat, msg, self)

    async def _hello(self, msg: P.Hello) -> None:
        if self.account is not None:
            raise P.ProtocolError("bad_message", "this connection has already said hello")
        if not msg.token:
            # a ticket is a seat, not a login: it sits down only the account it names,
            # proved by that account's session token (a guest has one too)
            raise AuthError("say hello with your session token (and a seat's ticket "
                            "to sit back down)")
        acc = await self.server.sessions.account(msg.token)   # ended sessions: refused
        self.account = acc
        self.server.presence.connected(acc["id"])
        await self._load_blocks()
        self.server.where.track(self)
        self.push(P.out(P.Welcome(account=public_account(acc),
                                  route=self.server.settings.route or None)))
        if msg.ticket:
            await self._join(msg.ticket)

    async def _quick_match(self, msg: P.QuickMatch) -> None:
        if self.waiting is not None or self.waiter is not None:
            raise LobbyError("already_queued", "you are already waiting for a table")
        profile = self.server.check_profile(msg.profile)
        if msg.mode == "challenge":
            async with self.server.limits.making_table(self.server, self.account["id"]):
                await self._challenge(profile)
            return
        await self.server.limits.check_new_table(self.server, self.account["id"])
        key = (msg.mode, profile, msg.stake)
        entry = self.server.queue.join(key, (self.account["id"], self.account["name"]))
        self.waiting = entry
        self.push(P.out(P.Queued(mode=msg.mode, profile=profile, stake=msg.stake,
                                 waiting=self.server.queue.waiting(key),
                                 fill_after=self.server.settings.bot_fill_wait)))
        self.waiter = asyncio.create_task(self._await_match(entry))

    async def _await_match(self, entry) -> None:
        try:
            game_id, seat = await entry.future
        except asyncio.CancelledError:
            return
        except Exception as e:
            self.waiting = self.waiter = None
            if isinstance(e, LobbyError):      # requeue (the queue was lost), already_queued
                self.error(e.code, str(e))
                return
            log.exception("could not start a table")
            reason = str(e) if isinstance(e, UserError) else "please try again"
            self.error("bad_request", f"could not start the table: {reason}")
            return
        self.waiting = self.waiter = None
        await self._seat_at(game_id, seat)

    async def _challenge(self, profile: str) -> None:
        tier = challenge.next_tier(int(self.account["challenge_tier"]))
        if tier is None:
            raise LobbyError("bad_request", "you have beaten every challenge tier")
        table = await self.server.create_table(
            mode="challenge", profile=profile, stake="low", rounds=1,
            players=[(self.account["id"], self.account["name"]), None, None, None],
            bots=challenge.tier_bots(tier), options={"tier": tier})
        await self._seat_at(table.id, 0)

    async def _seat_at(self, game_id: str, seat: int) -> None:
        ticket = self.server.tokens.ticket(game_id, seat, self.account["id"])
        self.push(P.out(P.Matched(game_id=game_id, seat=seat, ticket=ticket)))
        await self._join(ticket)

    async def _told_it_ended(self, ticket) -> bool:
        """A seat's player back at a game that ended while they were away (given up,
        abandoned, played out): they get its stored ``game_end``, as the table sent it."""
        row = await self.server.repo.game(ticket.game_id)
        if row is None or row["status"] == "active" or not (
                0 <= ticket.seat < len(row["seats"])
                and row["seats"][ticket.seat].get("account_id") == self.account["id"]):
            return False
        from ..cluster.ownership import stored_end
        self.push(stored_end(row))
        return True

    async def _to_come(self, game_id: str) -> bool:
        row = await self.server.repo.game(game_id)
        return row is None or row["status"] == "active"

    async def _join(self, ticket_text: str) -> None:
        ticket = self.server.tokens.read_ticket(ticket_text)
        if ticket.account_id != self.account["id"]:
            raise AuthError("this ticket belongs to another player")
        table = await self.server.find_table(ticket.game_id)
        if table is None:
            # a started room's game may still be being made (bots chosen, the game
            # stored): it is still to come unless it is stored as over
            room = await self.server.rooms.by_game(ticket.game_id)
            if room is not None and (not room.started or await self._to_come(ticket.game_id)):
                raise LobbyError("not_started", "the room's game has not started yet")
            if await self._told_it_ended(ticket):
                return
            raise LobbyError("no_table", "that game is over or does not exist")
        if table.seats[ticket.seat].account_id != ticket.account_id:
            raise AuthError("this ticket does not match the seat")
        if getattr(table.seats[ticket.seat], "forfeited", False):
            raise LobbyError("forfeited", FORFEITED)
        if self.table is not None:
            self.table.detach(self.seat, self)
        if self.watching is not None:       # sitting down ends watching
            self.watching.unwatch(self)
            self.watching = None
        if self.table is not table:
            self.muted = set()               # mutes are per table
        self.table, self.seat = table, ticket.seat
        table.attach(ticket.seat, self)
        self.server.where.update(self.account["id"])

    # -- table talk and 觀戰 (server/social/) -----------------------------------------------------
    async def _talk(self, msg: P.Talk) -> None:
        """A phrase or emote for the table: seated players only, from the catalogue,
        within the talk limit; anything else is one error and changes nothing."""
        from ..social.talk import EMOTES, PHRASES
        if self.watching is not None:
            raise P.ProtocolError("watcher_silent", "watchers cannot talk to the table "
                                                    "(外插不得以聲音影響行牌)")
        if self.table is None:
            raise P.ProtocolError("not_seated", "you are not seated at a table")
        if self.table.finished:
            raise LobbyError("no_table", "this game is over")
        if (msg.phrase is None) == (msg.emote is None):
            raise P.ProtocolError("bad_message", "talk: give a phrase or an emote, one of them")
        if msg.phrase is not None and msg.phrase not in PHRASES:
            raise P.ProtocolError("unknown_phrase", f"no phrase {msg.phrase[:32]!r}; "
                                                    "see GET /api/v1/talk")
        if msg.emote is not None and msg.emote not in EMOTES:
            raise P.ProtocolError("unknown_emote", f"no emote {msg.emote[:32]!r}; "
                                                   "see GET /api/v1/talk")
        if not await self.server.talk_gate.allow(self.account["id"]):
            st = self.server.settings
            raise P.ProtocolError("talk_too_fast", f"one phrase or emote every "
                                  f"{1 / st.talk_rate:g} s (at most {st.talk_burst} at "
                                  "once); wait a moment")
        self.table.submit(self.seat, msg, self)

    async def _watch(self, game_id: str) -> None:
        """觀戰 a friend's table: public view, behind the delay (server/social/watch.py)."""
        me = self.account["id"]
        if self.account.get("is_guest"):
            raise P.ProtocolError("guest", "register to have friends and watch their tables")
        if self.table is not None and not self.table.finished:
            raise P.ProtocolError("seated", "you are seated at a table; leave it to watch")
        table = await self.server.find_table(game_id)
        if table is None or table.finished:
            raise LobbyError("no_table", "that game is over or does not exist")
        if not hasattr(table, "watch"):
            raise P.ProtocolError("watch_elsewhere", "that table runs on another server "
                                  "process; watching it is not possible from here yet")
        seated = [s.account_id for s in table.seats if s.account_id is not None]
        if me in seated:
            raise P.ProtocolError("seated", "you play at that table")
        friends = await self.server.friends.listing(me)
        if not {f["id"] for f in friends["friend"]} & set(seated):
            raise P.ProtocolError("not_friends", "you can watch a friend's table only")
        # never shown as watching a table one may not (another process's: its owner checks)
        social = getattr(table, "social", None)
        if social is not None and not social.watchable:
            raise P.ProtocolError("watch_forbidden",
                                  "the host does not allow watching this table")
        st = self.server.settings
        mine = [c for c in self.server.where.conns_of(me)
                if c is not self and c.watching is table]
        if len(mine) >= st.watch_per_account:
            raise P.ProtocolError("watch_limit", f"you already watch this table from "
                                  f"{len(mine)} connection{'s' if len(mine) > 1 else ''}; "
                                  "close one first")
        if self.watching is not None:
            self.watching.unwatch(self)
        self.watching = table
        table.watch(self, me)            # the table may still refuse: watch_refused
        self.server.where.update(me)

    def watch_refused(self, table: Any) -> None:
        """The table refused this connection as a watcher (over its cap, or over):
        it watches nothing, and friends do not see it watching."""
        if self.watching is table:
            self.watching = None
            self.server.where.update(self.account["id"])

"""One WebSocket to the server's ``/ws``: say hello, queue, sit, act — and come back.

``GameLink.recv()`` returns the server's messages in order and folds each into
``self.state`` first, so a caller reads the table from the state and reacts to
the message. When the link drops (Wi-Fi, a server restart, or a server gone
silent: a ``keepalive`` ping not answered in time), ``recv`` says so at once with
a ``{"type": "link", "state": "lost"}`` note, then reconnects with the seat's
``ticket`` (or the token before a seat is taken), returning one
``{"type": "link", "state": "retry", "attempt": n, "delay": s}`` note per failed
attempt and ``{"type": "link", "state": "back"}`` when it is back, then the
server's ``snapshot``. With ``retry=None`` it tries forever, ``backoff(n)`` apart
(0.5 s doubling to 5 s, with jitter); with a tuple of delays it raises
``LinkError`` when every one of them failed. It also raises after ``close()``.

In a cluster (docs/protocol.md, ``welcome``) a seat whose table is played on another
worker than the socket's is moved there inside ``recv``: the seat is opened on the
table's worker (its ``route``) with the ticket, the first socket is closed, and the
owner's ``snapshot`` is what ``recv`` returns — no ``link`` note, nothing for the
caller to do. An action sent meanwhile that the owner's snapshot still asks for is
sent again, once, with its ``turn`` (the server takes one answer per turn). When
the routed socket later fails to open, the link goes back to the plain address.

    link = GameLink("http://127.0.0.1:8000", token)
    await link.connect();  await link.quick_match()
    while (m := await link.recv())["type"] != "game_end":
        if link.state.decision(): await link.act(choose(link.state.obs))
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..errors import UserError
from .http import network_reason, route_url, ws_url
from .state import TableState

__all__ = ["GameLink", "LinkError", "backoff"]

log = logging.getLogger("twmahjong.client")

RETRY = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 5.0, 5.0)     # seconds between reconnect attempts
# after a move, the seat counts both sockets until the first one's goes: the
# "open in two places" notices of that moment are ours, held back this long at most
SETTLE = 5.0
# the server's answers to an action that was not applied: it is no longer in flight
REFUSALS = ("stale", "not_your_turn", "illegal_action", "rate_limited", "not_seated",
            "no_table")


def backoff(attempt: int, first: float = 0.5, cap: float = 5.0, rng=random) -> float:
    """Seconds before reconnect attempt ``attempt`` (1, 2, …) when retrying forever:
    ``first`` doubling up to ``cap``, each spread ±20 % so that the clients a server
    restart dropped together do not all knock again in the same instant.

    >>> [round(backoff(n, rng=random.Random(0)), 1) for n in (1, 4, 9)]
    [0.6, 4.6, 5.7]
    """
    base = min(cap, first * 2 ** max(0, attempt - 1))
    return base * rng.uniform(0.8, 1.2)


class LinkError(UserError):
    """The server cannot be reached (``code`` ``"network"``, ``reason`` as
    ``client.http.network_reason``), refused our hello (the server's ``code`` and
    ``reason``), or the link was closed (``code`` ``"closed"``). The text is English;
    the code and reason are what a client in another language translates."""

    def __init__(self, message: str, code: str = "closed", reason: str | None = None):
        super().__init__(message)
        self.code = code
        self.reason = reason


class GameLink:
    def __init__(self, url: str, token: str | None = None, *, ticket: str | None = None,
                 retry=RETRY, open_timeout: float = 10.0, keepalive: float | None = 20.0):
        """``retry``: the delays between reconnect attempts, or None to try forever
        (``backoff``). ``keepalive``: a ping every that many seconds, and the link
        counts as lost when its pong is as late (a silent server, not only a closed
        socket); None: no pings."""
        self.home = ws_url(url)           # the server's plain address (a balancer's)
        self.url = self.home              # the socket's now: a table's worker after a move
        self.route: str | None = None     # the worker this socket is on (welcome), if told
        self.token = token
        self.state = TableState()
        self.state.ticket = ticket
        self.retry = None if retry is None else tuple(retry)
        self.open_timeout = open_timeout
        self.keepalive = keepalive
        self.ws = None
        self.closed = False
        self.up = False                   # the socket is open and said welcome
        self.attempt = 0                  # reconnect attempts since the link was lost
        self.reconnects = 0
        self.moves = 0                    # times the seat moved to its table's worker
        self._lost = False                # lost, and the "lost" note was returned
        self._backlog: list[dict] = []
        self._inflight: dict | None = None    # the last action sent, until answered
        self._settle: dict | None = None      # a move's own second_connection notices


    # -- the socket -----------------------------------------------------------------------
    async def _dial(self, url: str):
        try:
            return await asyncio.wait_for(connect(
                url, max_size=2**20, ping_interval=self.keepalive,
                ping_timeout=self.keepalive, close_timeout=1.0), self.open_timeout)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as e:
            raise LinkError(f"cannot connect to {url}: {e or type(e).__name__}", "network",
                            network_reason(e)) from None

    async def _open(self) -> None:
        """A socket to ``url``; a table's worker that does not answer (gone, its
        table adopted elsewhere) sends the link back to the plain address at once."""
        try:
            self.ws = await self._dial(self.url)
        except LinkError as e:
            if self.url == self.home:
                raise
            log.info("%s; back to %s", e, self.home)
            self.url, self.route = self.home, None
            self.ws = await self._dial(self.url)

    async def _hello(self, *, ticket: str | None) -> dict:
        """hello → welcome; errors on the way are the server's words, raised."""
        # a ticket seats only the account whose session comes with it
        body = {"type": "hello", "token": self.token}
        if ticket:
            body["ticket"] = ticket
        await self.send(body)
        while True:
            m = await self._read()
            if m["type"] == "welcome":
                self.route = m.get("route")
                self.state.apply(m)
                return m
            if m["type"] == "error":
                raise LinkError(f"{m['code']}: {m['message']}", m["code"], m.get("reason"))
            self._backlog.append(m)

    async def connect(self) -> dict:
        """Open the link and authenticate with the token (or sit down with the ticket
        given to the constructor); returns the ``welcome``."""
        self.closed = False
        await self._open()
        ticket = None if self.token else self.state.ticket
        if ticket is None and not self.token:
            raise LinkError("log in first: no token and no ticket")
        welcome = await self._hello(ticket=ticket)
        self.up = True
        return welcome

    async def _read(self) -> dict:
        return self._parse(await self.ws.recv())

    @staticmethod
    def _parse(raw) -> dict:
        try:
            m = json.loads(raw)
        except ValueError:
            return {"type": "error", "code": "bad_json", "message": "the server sent a bad frame"}
        return m if isinstance(m, dict) and "type" in m else {
            "type": "error", "code": "bad_message", "message": "the server sent a bad message"}

    async def send(self, body: dict) -> None:
        if self.ws is None:
            raise LinkError("not connected")
        try:
            await self.ws.send(json.dumps({"v": 1, **body}))
        except ConnectionClosed:
            pass              # recv() notices and reconnects; the decision is offered again

    async def recv(self) -> dict:
        """The next message (already folded into ``state``); reconnects when the link drops."""
        if self._settle is not None and time.monotonic() > self._settle["until"]:
            held, self._settle = self._settle["held"], None
            if held is not None:          # a real second place after all: said now
                self._backlog.insert(0, held)
        if self._backlog:
            m = self._backlog.pop(0)
            self.state.apply(m)
            return m
        while True:
            if self.closed:
                raise LinkError("the link is closed")
            if self._lost:
                return await self._reconnect()
            try:
                m = await self._read()
            except ConnectionClosed:
                if self.closed:
                    raise LinkError("the link is closed") from None
                self.up, self._lost, self.attempt = False, True, 0
                return {"type": "link", "state": "lost"}
            if not self._settled(m):
                continue
            self._answered(m)
            self.state.apply(m)
            if m["type"] == "snapshot" and (url := self._elsewhere(m)) is not None:
                return await self._follow(url) or m
            return m

    # -- following the table to its worker (a cluster's routes) ----------------------------
    def _elsewhere(self, m: dict) -> str | None:
        """The address of the worker that plays this seat's table, when a snapshot
        says it is not the one this socket is on."""
        route, st = (m.get("table") or {}).get("route"), self.state
        if (not route or not self.route or route == self.route or self.closed
                or not st.ticket or st.seat is None or st.over):
            return None
        return route_url(self.home, route)

    async def _follow(self, url: str) -> dict | None:
        """Open the seat at ``url`` with its ticket; once the owner's snapshot came,
        close the first socket and return that snapshot. None: it could not (the seat
        stays where it is, relayed, and nothing was lost)."""
        new = None
        try:
            new = await self._dial(url)
            await new.send(json.dumps({"v": 1, "type": "hello", "token": self.token,
                                       "ticket": self.state.ticket}))
            held, route = [], None
            while True:
                m = self._parse(await asyncio.wait_for(new.recv(), self.open_timeout))
                if m["type"] == "snapshot":
                    break
                if m["type"] == "error":
                    raise LinkError(f"{m['code']}: {m.get('message')}", m["code"])
                if m["type"] == "welcome":
                    route = m.get("route")
                else:
                    held.append(m)
        except (LinkError, ConnectionClosed, OSError, TimeoutError) as e:
            log.info("the seat stays relayed: could not open it at %s (%s)", url, e)
            if new is not None:
                await _close(new)
            return None
        old, self.ws, self.url, self.route = self.ws, new, url, route
        self.moves += 1
        self._settle = {"until": time.monotonic() + SETTLE, "top": None, "held": None}
        await _close(old)
        self.state.apply(m)
        sent = self._inflight
        if sent is not None and m.get("turn") == sent.get("turn") and self.state.decision():
            await self.send(sent)         # the first socket's may never have reached it
        self._answered(m)
        self._backlog.extend(h for h in held if self._settled(h))
        return m

    def _settled(self, m: dict) -> bool:
        """False for a ``second_connection`` notice that only counts our own two sockets
        of a move (the owner counts the first until it has left): held back until the
        count drops again, or said after ``SETTLE`` s if it never does."""
        s = self._settle
        if s is None or m["type"] != "notice" or m.get("kind") != "second_connection":
            return True
        n = int((m.get("data") or {}).get("connections") or 1)
        if n <= 1 or (s["top"] is not None and n < s["top"]):
            self._settle = None           # the first socket has left the seat
            return True
        s["top"], s["held"] = max(n, s["top"] or 0), m
        return False

    def _answered(self, m: dict) -> None:
        sent = self._inflight
        if sent is None:
            return
        t = m["type"]
        if (t in ("hand_end", "game_end") or (t == "error" and m.get("code") in REFUSALS)
                or (t in ("update", "snapshot") and (m.get("turn") or 0) > sent["turn"])):
            self._inflight = None

    def _delay(self, attempt: int) -> float | None:
        if self.retry is None:
            return backoff(attempt)
        return self.retry[attempt - 1] if attempt <= len(self.retry) else None

    async def _reconnect(self) -> dict:
        """One reconnect attempt after its delay: the ``back`` note, or a ``retry`` note
        (the next attempt is the next ``recv``); LinkError when the retries ran out."""
        self.attempt += 1
        delay = self._next if self._next is not None else self._delay(self.attempt)
        self._next = None
        if delay is None:
            self._lost = False
            raise LinkError(f"lost the link to the server and could not get it back "
                            f"({self._last})", "lost", getattr(self._last, "reason", None))
        await asyncio.sleep(delay)
        if self.closed:
            raise LinkError("the link is closed")
        try:
            await self._open()
            seated = self.state.ticket and self.state.seat is not None and not self.state.over
            await self._hello(ticket=self.state.ticket if seated else None)
        except (LinkError, ConnectionClosed, OSError) as e:
            self._last = e
            log.info("reconnect failed: %s", e)
            nxt = self._next = self._delay(self.attempt + 1)
            return {"type": "link", "state": "retry", "attempt": self.attempt,
                    "delay": nxt, "reason": getattr(e, "reason", None)}
        self.reconnects += 1
        self.up, self._lost = True, False
        return {"type": "link", "state": "back", "attempt": self.attempt}

    _last: BaseException | None = None
    _next: float | None = None            # the delay the last retry note announced

    async def close(self) -> None:
        self.closed = True
        self.up = False
        if self.ws is not None:
            await _close(self.ws)

    # -- messages --------------------------------------------------------------------------
    async def quick_match(self, mode: str = "casual", profile: str | None = None,
                          stake: str = "low") -> None:
        """一鍵匹配: queue; ``matched`` then ``snapshot`` follow when a table forms."""
        body = {"type": "quick_match", "mode": mode, "stake": stake}
        if profile:
            body["profile"] = profile
        await self.send(body)

    async def cancel_match(self) -> None:
        await self.send({"type": "cancel_match"})

    async def join(self, ticket: str) -> None:
        """Sit at the seat a ticket names (a room seat, or 回到牌桌 with a kept ticket)."""
        self.state.ticket = ticket
        await self.send({"type": "join", "ticket": ticket})

    async def act(self, action: dict) -> None:
        """One entry of ``state.decision()``, sent with the ``turn`` that offered it."""
        body = {"type": "action", "action": action, "turn": self.state.turn}
        if self.state.turn is not None:
            self._inflight = body
        await self.send(body)

    async def ready(self) -> None:
        """下一局: this player has read the hand's result (the deal waits for it)."""
        await self.send({"type": "ready"})

    async def auto(self, on: bool) -> None:
        """託管 on (a bot plays the seat) or off (the next decision waits for us)."""
        await self.send({"type": "auto", "on": on})

    async def ping(self) -> None:
        await self.send({"type": "ping"})

    # -- table talk and 觀戰 (docs/social.md) -------------------------------------------------
    async def talk(self, *, phrase: str | None = None, emote: str | None = None) -> None:
        """A 快捷語 or 表情 by its catalogue id (``GET /api/v1/talk``); never free text."""
        await self.send({"type": "talk", **({"phrase": phrase} if phrase else {"emote": emote})})

    async def mute(self, seats: list[int]) -> None:
        """The seats whose talk this link no longer wants (``[]``: hear everyone)."""
        await self.send({"type": "mute", "seats": list(seats)})

    async def watch(self, game_id: str) -> None:
        """觀戰 a friend's table: ``watching``, then delayed public ``watch`` frames."""
        await self.send({"type": "watch", "game_id": game_id})

    async def unwatch(self) -> None:
        await self.send({"type": "unwatch"})


async def _close(ws) -> None:
    try:
        await ws.close()
    except Exception:       # closing a dead socket has nothing to report
        pass

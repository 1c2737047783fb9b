"""Voice at the table (開黑): the signalling the server relays, and nothing else.

The sound goes peer to peer (WebRTC, a mesh of up to four browsers); the server
only carries the small messages that set each pair up, over the table's ``/ws``:

- ``voice`` ``{"on": true}`` puts this connection's seat in the table's voice and
  answers ``voice_joined`` with the ICE servers (STUN/TURN) and the seats already in
  voice; ``{"on": false}`` takes it out. Every seat hears ``voice`` with who is in.
- ``voice_signal`` carries one SDP ``offer`` or ``answer`` to one seat in voice;
  that seat receives it as ``voice_signal`` with the sender's seat.

Who may take part: people seated at the table. A room's host may forbid voice
(room option ``voice: false``). At a quick-match (快速配對) table the players are
strangers: a ``voice`` on is refused unless it says ``quick: true``, which a client
sends only when its player has allowed voice at such tables. Watchers take no part
and receive nothing of it — unless the room's host let them listen (room option
``voice_watchers: true``): then a watcher's ``voice`` on makes it a *listener*
(a number of its own), which calls each seat in voice with an offer that receives
only; the seats answer it, never call it, and are told how many listen.

Everything is checked before it reaches the table (``check``): the sender is
seated, the game is the one it sits at, the message is within the frame limit and
its own rate (``VoiceGate``); the table (``TableVoice``, run by the table's actor,
so it works the same when the sender is relayed from another cluster process)
then checks the target is a seat in voice. Each refusal is one ``error`` to the
sender; the table and the other seats are not touched.

ICE servers come from ``TWMJ_ICE_SERVERS``; with ``TWMJ_TURN_SECRET`` every TURN
server gets a time-limited credential by the TURN REST convention (coturn's
``use-auth-secret``): the username ``<expiry>:<account>``, the credential the
base64 HMAC-SHA1 of the username under the shared secret.

    >>> turn_credential("s3cret", 7, now=1_000, ttl=600)
    ('1600:7', 'Av8pWHWxvKXJg9UJ0+1VCEKg/B4=')
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from typing import Any

import orjson

from ..net import protocol as P
from ..net.limits import Limiter

__all__ = ["TableVoice", "VoiceGate", "check", "ice_servers", "parse_ice_servers",
           "turn_credential"]


def parse_ice_servers(text: str) -> list[dict[str, Any]]:
    """``TWMJ_ICE_SERVERS``: a JSON list of RTCIceServer objects
    (``[{"urls": "turn:turn.example.org:3478", "username": "u", "credential": "p"}]``),
    or simply URLs separated by commas or spaces (``stun:stun.example.org:3478``).
    Raises ValueError naming what is wrong.

        >>> parse_ice_servers("stun:a.example:3478, turn:b.example:3478")
        [{'urls': ['stun:a.example:3478']}, {'urls': ['turn:b.example:3478']}]
    """
    text = text.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            raw = orjson.loads(text)
        except orjson.JSONDecodeError:
            raise ValueError("ice_servers: not valid JSON") from None
    else:
        raw = [{"urls": u} for u in text.replace(",", " ").split()]
    if not isinstance(raw, list):
        raise ValueError("ice_servers: a JSON list of {urls, username, credential}")
    servers = []
    for entry in raw:
        if not isinstance(entry, dict) or "urls" not in entry:
            raise ValueError("ice_servers: every entry needs 'urls'")
        urls = entry["urls"] if isinstance(entry["urls"], list) else [entry["urls"]]
        for u in urls:
            if not isinstance(u, str) or not u.startswith(("stun:", "stuns:", "turn:", "turns:")):
                raise ValueError(f"ice_servers: {str(u)[:60]!r} is not a stun: or turn: URL")
        extra = set(entry) - {"urls", "username", "credential"}
        if extra:
            raise ValueError(f"ice_servers: unknown key {sorted(extra)[0]!r}")
        server: dict[str, Any] = {"urls": urls}
        for key in ("username", "credential"):
            if key in entry:
                if not isinstance(entry[key], str):
                    raise ValueError(f"ice_servers: {key} must be a string")
                server[key] = entry[key]
        servers.append(server)
    return servers


def turn_credential(secret: str, account_id: int, *, now: float | None = None,
                    ttl: float = 86_400) -> tuple[str, str]:
    """A TURN REST credential: (``<expiry>:<account>``, base64 HMAC-SHA1 of it)."""
    expiry = int((time.time() if now is None else now) + ttl)
    username = f"{expiry}:{account_id}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return username, base64.b64encode(digest).decode()


def ice_servers(settings: Any, account_id: int | None) -> list[dict[str, Any]]:
    """The ICE servers one seated player is handed (TURN with its own credential)."""
    servers = parse_ice_servers(getattr(settings, "ice_servers", "") or "")
    secret = getattr(settings, "turn_secret", None)
    if not secret:
        return servers
    username, credential = turn_credential(secret, account_id or 0,
                                           ttl=float(getattr(settings, "turn_ttl", 86_400)))
    for s in servers:
        if "username" not in s and any(u.startswith(("turn:", "turns:")) for u in s["urls"]):
            s["username"], s["credential"] = username, credential
    return servers


class VoiceGate:
    """Voice messages per account: ``rate`` a second with bursts of ``burst`` (each
    ``voice`` and ``voice_signal`` counts; a full mesh of four takes six)."""

    def __init__(self, rate: float, burst: int, max_keys: int = 50_000):
        self.rate, self.burst = rate, burst
        self.limit = Limiter(rate, burst, max_keys=max_keys)

    def allow(self, account_id: int) -> bool:
        return self.limit.take(account_id)


def check(conn: Any, msg: P.Voice | P.VoiceSignal) -> None:
    """What the connection can tell before the table: seated (or watching), this
    table, within the rate. Raises ``ProtocolError``; the table sees nothing then."""
    table = conn.table if conn.watching is None else conn.watching
    if table is None:
        raise P.ProtocolError("not_seated", "you are not seated at a table")
    if isinstance(msg, P.VoiceSignal) and (msg.to is None) == (msg.listener is None):
        raise P.ProtocolError("bad_message", "voice_signal: give to (a seat) or listener, "
                                             "one of them")
    if isinstance(msg, P.VoiceSignal) and msg.game_id != table.id:
        raise P.ProtocolError("voice_other_table", "you can talk only with the seats of "
                                                   "the table you sit at")
    if table.finished:
        raise P.ProtocolError("no_table", "this game is over")
    if isinstance(msg, P.VoiceSignal) and not msg.sdp.startswith("v=0"):
        raise P.ProtocolError("bad_message", "voice_signal: sdp is not a session "
                                             "description")
    gate = conn.server.voice_gate
    if not gate.allow(conn.account["id"]):
        raise P.ProtocolError("voice_too_fast", f"at most {gate.burst} voice messages at "
                              f"once and {gate.rate:g} a second; wait a moment")


class TableVoice:
    """Who is in a table's voice (one connection per seat, and the watchers who
    listen) and the relay between them; run by the table's actor."""

    def __init__(self, table: Any):
        self.table = table
        self.on: dict[int, Any] = {}      # seat -> its connection in voice
        self.listeners: dict[int, Any] = {}   # listener number -> a watcher's connection
        self._numbers = 0

    @property
    def allowed(self) -> bool:
        """The host may forbid voice in a room (room option ``voice: false``)."""
        return bool(self.table.meta["options"].get("voice", True))

    @property
    def room(self) -> bool:
        """A private room's table (開房); else its players were matched as strangers."""
        return bool(self.table.meta["options"].get("room", False))

    @property
    def listenable(self) -> bool:
        """The host may let watchers listen (room option ``voice_watchers: true``)."""
        return self.allowed and bool(self.table.meta["options"].get("voice_watchers", False))

    def info(self) -> dict[str, Any]:
        """For the table's snapshot: may voice be used here, who is in, who listens."""
        return {"allowed": self.allowed, "room": self.room, "seats": sorted(self.on),
                "listen": self.listenable, "listeners": sorted(self.listeners)}

    def handle(self, seat: int, msg: Any, conn: Any) -> None:
        if isinstance(msg, P.Voice):
            self._toggle(seat, msg, conn)
        else:
            self._signal(seat, msg, conn)

    def _toggle(self, seat: int, msg: P.Voice, conn: Any) -> None:
        if not msg.on:
            if self.on.get(seat) is conn:
                del self.on[seat]
                self._state()
            return
        if not self.allowed:
            return _error(conn, "voice_forbidden", "the host does not allow voice at this "
                                                   "table")
        if not self.room and not msg.quick:
            return _error(conn, "voice_quick", "this is a quick-match table: voice with "
                                               "strangers needs quick: true")
        self.on[seat] = conn
        settings = self.table.sv.settings
        conn.push(P.message("voice_joined", seat=seat, listener=None,
                            ice_servers=ice_servers(settings, self.table.seats[seat].account_id),
                            peers=sorted(s for s in self.on if s != seat)))
        self._state()

    def _signal(self, seat: int, msg: P.VoiceSignal, conn: Any) -> None:
        if self.on.get(seat) is not conn:
            return _error(conn, "voice_off", "turn voice on at the table first")
        if msg.listener is not None:
            peer = self.listeners.get(msg.listener)
            if peer is None:
                return _error(conn, "voice_no_peer", f"no listener {msg.listener}")
        elif msg.to == seat:
            return _error(conn, "voice_no_peer", "that is your own seat")
        elif (peer := self.on.get(msg.to)) is None:
            return _error(conn, "voice_no_peer", f"nobody at seat {msg.to} is in voice")
        peer.push(P.message("voice_signal", seat=seat, listener=None, kind=msg.kind,
                            sdp=msg.sdp))

    # -- watchers who listen ------------------------------------------------------------
    def listen(self, conn: Any, msg: Any) -> None:
        """A watcher's ``voice`` or ``voice_signal``: refused unless the host lets
        watchers listen; a listener calls the seats in voice, receiving only."""
        desk = self.table.social.desk
        if not self.listenable or conn not in desk.watchers:
            return _error(conn, "voice_watcher", "watchers do not take part in this table's "
                                                 "voice")
        number = next((n for n, c in self.listeners.items() if c is conn), None)
        if isinstance(msg, P.Voice):
            if not msg.on:
                if number is not None:
                    del self.listeners[number]
                    self._state()
                return
            if number is None:
                self._numbers += 1
                number = self._numbers
                self.listeners[number] = conn
            conn.push(P.message("voice_joined", seat=None, listener=number,
                                ice_servers=ice_servers(self.table.sv.settings,
                                                        desk.watchers[conn]),
                                peers=sorted(self.on)))
            self._state()
            return
        if number is None:
            return _error(conn, "voice_off", "turn listening on first")
        if msg.to is None or (peer := self.on.get(msg.to)) is None:
            return _error(conn, "voice_no_peer", "a listener calls the seats in voice only")
        peer.push(P.message("voice_signal", seat=None, listener=number, kind=msg.kind,
                            sdp=msg.sdp))

    def unwatched(self, conn: Any) -> None:
        """A watcher left: it listens no more."""
        for n, c in list(self.listeners.items()):
            if c is conn:
                del self.listeners[n]
                self._state()

    def detached(self, seat: int, conn: Any) -> None:
        """A connection left the table: its seat leaves voice if it was the one in."""
        if self.on.get(seat) is conn:
            del self.on[seat]
            self._state()

    def _state(self) -> None:
        text = P.message("voice", seats=sorted(self.on), listeners=sorted(self.listeners))
        for s in self.table.seats:          # and the listeners: never other watchers
            for c in s.conns:
                c.push(text)
        for c in self.listeners.values():
            c.push(text)


def _error(conn: Any, code: str, message: str) -> None:
    conn.push(P.out(P.Error(code=code, message=message)))

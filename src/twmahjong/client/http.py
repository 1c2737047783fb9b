"""The HTTP half of the protocol (``/api/v1/…``), async, on the standard library.

``urllib`` in a worker thread keeps the package free of another dependency; the
calls are few (log in, open a room, list games), never on a hot path. Every
server error (``{"error": {"code", "message"}}``) and every network failure
becomes one ``ApiError`` whose text a player can read.
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request
from urllib.parse import quote, urlsplit, urlunsplit

from ..errors import UserError

__all__ = ["NETWORK_REASONS", "Api", "ApiError", "base_url", "network_reason", "route_url",
           "ws_url"]


class ApiError(UserError):
    """The server said no (``code`` as docs/protocol.md lists), or could not be reached
    (``code`` ``"network"``).

    The text is the server's English; ``reason`` (which failure: ``wrong_password``,
    ``room_not_found``; for ``network`` one of ``NETWORK_REASONS``) and ``field`` are
    what a client that speaks another language translates, as the web client does."""

    def __init__(self, code: str, message: str, status: int = 0, *,
                 reason: str | None = None, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.status = status
        self.reason = reason
        self.field = field


NETWORK_REASONS = ("refused", "timeout", "unknown_host", "other")


def network_reason(e: BaseException) -> str:
    """Why the server could not be reached, in a word a client can translate: the
    operating system's own text (``[Errno 111] Connection refused``) is English."""
    e = getattr(e, "reason", e) if isinstance(e, urllib.error.URLError) else e
    if isinstance(e, ConnectionRefusedError):
        return "refused"
    if isinstance(e, TimeoutError):
        return "timeout"
    if isinstance(e, socket.gaierror):
        return "unknown_host"
    return "other"


def base_url(url: str) -> str:
    """``host:port``, ``http://host:port/`` or ``ws://host/ws`` → ``http://host:port``."""
    url = url.strip()
    if "://" not in url:
        url = "http://" + url
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise ApiError("bad_url", f"not a server address: {url!r} (try http://host:port)")
    return urlunsplit((scheme, parts.netloc, "", "", ""))


def ws_url(url: str) -> str:
    """The server's WebSocket address for an HTTP (or bare) address."""
    parts = urlsplit(base_url(url))
    return urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc, "/ws", "", ""))


def route_url(ws: str, route: str) -> str:
    """The socket address a cluster worker's ``route`` names (docs/protocol.md,
    ``welcome``): a path on the same host as the socket ``ws``, or a ws:// URL.

    >>> route_url("ws://127.0.0.1:8080/ws", "/ws?w=2")
    'ws://127.0.0.1:8080/ws?w=2'
    """
    if "://" in route:
        return route
    parts = urlsplit(ws)
    return urlunsplit((parts.scheme, parts.netloc, "", "", "")) + route


class Api:
    """The HTTP endpoints of one server; ``token`` is set by ``register``/``login``/``guest``."""

    def __init__(self, url: str, token: str | None = None, timeout: float = 10.0):
        self.base = base_url(url)
        self.token = token
        self.timeout = timeout

    def _call(self, method: str, path: str, body: dict | None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                return json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            reason = field = None
            try:
                err = json.loads(e.read())["error"]
                code, message = str(err["code"]), str(err["message"])
                reason, field = err.get("reason"), err.get("field")
            except (ValueError, KeyError, TypeError, AttributeError):
                code, message = "http", f"the server answered {e.code} {e.reason}"
            raise ApiError(code, message, e.code, reason=reason, field=field) from None
        except (urllib.error.URLError, OSError) as e:
            why = getattr(e, "reason", e)
            raise ApiError("network", f"cannot reach {self.base}: {why}",
                           reason=network_reason(e)) from None

    async def call(self, method: str, path: str, body: dict | None = None) -> dict:
        return await asyncio.to_thread(self._call, method, path, body)

    # -- accounts -------------------------------------------------------------------------
    async def _session(self, path: str, body: dict | None) -> dict:
        out = await self.call("POST", path, body)
        self.token = out["token"]
        return out

    async def register(self, name: str, password: str) -> dict:
        """註冊: ``{"token", "account"}``; a taken name is ``ApiError`` ``conflict``."""
        return await self._session("/accounts", {"name": name, "password": password})

    async def login(self, name: str, password: str) -> dict:
        return await self._session("/sessions", {"name": name, "password": password})

    async def guest(self) -> dict:
        """遊客: a generated guest account."""
        return await self._session("/guests", None)

    async def health(self) -> dict:
        """The server answers (``GET /health``): a client asks before it asks the
        person anything, so a wrong address or a stopped server is said at once."""
        return await self.call("GET", "/health")

    async def me(self) -> dict:
        return await self.call("GET", "/me")

    # -- rooms and games ---------------------------------------------------------------------
    async def open_room(self, profile: str = "standard", stake: str = "low", rounds: int = 1,
                        bots: str | None = None) -> dict:
        """私人房: ``{"code", "game_id", "seat", "ticket", "room"}``."""
        return await self.call("POST", "/rooms", {"profile": profile, "stake": stake,
                                                  "rounds": rounds, "bots": bots})

    async def room(self, code: str) -> dict:
        return (await self.call("GET", f"/rooms/{quote(code.strip().upper())}"))["room"]

    async def join_room(self, code: str) -> dict:
        return await self.call("POST", f"/rooms/{quote(code.strip().upper())}/join")

    async def start_room(self, code: str) -> dict:
        return await self.call("POST", f"/rooms/{quote(code.strip().upper())}/start")

    async def leave_room(self, code: str) -> dict:
        """Give up the seat in a room not started yet (the host's leaving closes it)."""
        return await self.call("POST", f"/rooms/{quote(code.strip().upper())}/leave")

    async def games(self) -> list[dict]:
        return (await self.call("GET", "/games"))["games"]

    async def unfinished(self) -> list[dict]:
        """進行中的牌局: this account's active games still theirs (not forfeited), each
        with its seat's ``ticket``."""
        return [g for g in await self.games()
                if g.get("status") == "active" and not g.get("forfeited") and g.get("ticket")]

    async def forfeit(self, game_id: str) -> dict:
        """認輸: give up an unfinished game — ``{"game_id", "outcome"}``, ``outcome``
        ``"ended"`` (the game settled) or ``"bot_plays"`` (a bot plays the seat to the
        end). ``no_game`` (404), ``game_over`` (409) are ``ApiError``."""
        return await self.call("POST", f"/games/{quote(game_id)}/forfeit")

    async def profiles(self) -> dict:
        return await self.call("GET", "/profiles")

    async def talk(self) -> dict:
        """快捷語 and 表情: ``{"phrases": [{"id", "kind", "zh", "en", "nan", "cmn", …}],
        "emotes": [{"id", "glyph", "zh", "en"}]}`` — the only things a table's talk carries."""
        return await self.call("GET", "/talk")

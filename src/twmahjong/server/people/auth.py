"""Accounts and signed tokens: who a request or a connection speaks for.

Passwords are hashed with argon2 (in a worker thread: a hash costs tens of
milliseconds, which the event loop must not spend). Session tokens and seat
tickets are signed, expiring itsdangerous tokens with different salts, so one can
never be used as the other. A seat ticket names (game, seat, account) and is also
the reconnect token, but it is not a login: it is honoured only on a connection
that proved the same account with its session token, so a ticket that leaks (a
log, a screenshot) seats nobody. It is handed out once, when the seat is
reserved (``matched``, a room's HTTP answer), never in a snapshot.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerifyMismatchError
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from ...errors import UserError
from ..store.repository import NameTaken, Repository
from ..store.schema import name_key

__all__ = ["Accounts", "AuthError", "Busy", "Session", "Sessions", "Ticket", "Tokens", "check_not_banned", "public_account"]

_NAME = re.compile(r"^[A-Za-z0-9\u3400-\u9fff][A-Za-z0-9_\-\u3400-\u9fff]{1,19}$")


class AuthError(UserError):
    """Login, registration or a token that cannot be accepted; ``reason`` names which
    (for clients that say it in the player's language)."""

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        self.reason = reason


def check_not_banned(acc: dict) -> None:
    """A banned account (``twmj admin ban``) may not log in, call the API or connect."""
    if acc.get("banned_at") is not None:
        raise AuthError("this account is banned" + (f": {acc['ban_reason']}"
                                                     if acc.get("ban_reason") else ""), "banned")


@dataclass(frozen=True)
class Session:
    account_id: int
    gen: int                  # the account's session generation when it was issued
    sid: str | None           # its own id (None: a token from before sessions could end)
    expires_at: float


@dataclass(frozen=True)
class Ticket:
    game_id: str
    seat: int
    account_id: int


class Tokens:
    def __init__(self, secret: str, *, session_ttl: float, ticket_ttl: float):
        self._session = URLSafeTimedSerializer(secret, salt="twmj-session-v1")
        self._ticket = URLSafeTimedSerializer(secret, salt="twmj-ticket-v1")
        self.session_ttl = session_ttl
        self.ticket_ttl = ticket_ttl

    def session(self, account_id: int, gen: int = 0) -> str:
        """A session token: the account, the session generation it is issued in, and
        an id of its own (so that it alone can be ended: a logout)."""
        return self._session.dumps({"a": account_id, "g": gen, "s": secrets.token_urlsafe(12)})

    def read_session(self, token: str) -> Session:
        try:
            data, signed = self._session.loads(token, max_age=self.session_ttl,
                                               return_timestamp=True)
        except SignatureExpired:
            raise AuthError("your session has expired; please log in again",
                            "session_expired") from None
        except BadSignature:
            raise AuthError("invalid session token; please log in again",
                            "session_invalid") from None
        return Session(int(data["a"]), int(data.get("g", 0)), data.get("s"),
                       signed.timestamp() + self.session_ttl)

    def account_of(self, token: str) -> int:
        return self.read_session(token).account_id

    def ticket(self, game_id: str, seat: int, account_id: int) -> str:
        return self._ticket.dumps({"g": game_id, "s": seat, "a": account_id})

    def read_ticket(self, token: str) -> Ticket:
        try:
            data = self._ticket.loads(token, max_age=self.ticket_ttl)
        except SignatureExpired:
            raise AuthError("this seat ticket has expired") from None
        except BadSignature:
            raise AuthError("invalid seat ticket") from None
        return Ticket(str(data["g"]), int(data["s"]), int(data["a"]))


def public_account(acc: dict) -> dict:
    """What a client may see of an account: never the password hash."""
    return {"id": acc["id"], "name": acc["name"], "guest": bool(acc["is_guest"]),
            "coins": int(acc["coins"]), "rating": round(float(acc["rating"]), 1),
            "ranked_games": int(acc["ranked_games"]),
            "challenge_tier": int(acc["challenge_tier"])}


class Busy(UserError):
    """Too many password checks are running or waiting: the client may try again soon."""

    status, code = 503, "busy"


class Accounts:
    """Registration, login and guests. Every argon2 hash or check (tens of ms of CPU
    each) runs in a worker thread, at most ``hash_slots`` at once (0: one per core),
    with at most ``hash_queue`` more waiting; past that the request is refused with
    ``Busy`` at once, so a flood of logins from many addresses costs a bounded amount
    of CPU and a real player's login waits at most the queue, not the flood."""

    def __init__(self, repo: Repository, *, starting_coins: int, hash_slots: int = 0,
                 hash_queue: int = 8):
        self.repo = repo
        self.starting_coins = starting_coins
        self._hasher = PasswordHasher()
        self._dummy: str | None = None
        self.hash_slots = hash_slots or os.cpu_count() or 1
        self.hash_queue = hash_queue
        self._slots: asyncio.Semaphore | None = None
        self._hashing = 0          # checks running or waiting for a slot

    async def _hash_work(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self._hashing >= self.hash_slots + self.hash_queue:
            raise Busy("the server is busy checking passwords; try again in a moment")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.hash_slots)
        self._hashing += 1
        try:
            async with self._slots:
                return await asyncio.to_thread(fn, *args)
        finally:
            self._hashing -= 1

    async def _dummy_hash(self) -> str:
        """A hash of a random secret that no password matches (made once, lazily)."""
        if self._dummy is None:
            self._dummy = await self._hash_work(self._hasher.hash, secrets.token_urlsafe(24))
        return self._dummy

    @staticmethod
    def check_name(name: str) -> str:
        name = name.strip()
        if not _NAME.match(name) or name_key(name).startswith("guest"):
            raise AuthError("a name has 2-20 letters, digits, Chinese characters, "
                            "'-' or '_', and may not start with 'guest'", "name_format")
        return name

    async def register(self, name: str, password: str) -> dict:
        """A new account, paid its starting coins (新人禮包)."""
        name = self.check_name(name)
        if not 6 <= len(password) <= 128:
            raise AuthError("a password has 6 to 128 characters", "password_length")
        if await self.repo.lookalike(name) is not None:
            raise AuthError(f"the name {name!r} is taken (or looks like a taken name)",
                            "name_taken")
        digest = await self._hash_work(self._hasher.hash, password)
        try:
            return await self.repo.create_account(name, digest, is_guest=False,
                                                  starting_coins=self.starting_coins)
        except NameTaken:
            raise AuthError(f"the name {name!r} is taken", "name_taken") from None

    async def login(self, name: str, password: str) -> dict:
        acc = await self.repo.account_by_name(name.strip())
        digest = acc["password_hash"] if acc else None
        # an unknown name (or a guest's, which has no password) is checked against a
        # dummy hash: it costs what a wrong password costs, so the time of the answer
        # does not tell which names exist
        try:
            await self._hash_work(self._hasher.verify, digest or await self._dummy_hash(),
                                  password)
        except (VerifyMismatchError, InvalidHashError):
            raise AuthError("wrong name or password", "wrong_password") from None
        if not digest:
            raise AuthError("wrong name or password", "wrong_password")
        check_not_banned(acc)
        return acc  # type: ignore[return-value]

    async def change_password(self, acc: dict, old: str, new: str) -> dict:
        """A new password, the old one proved; every session of the account ends (the
        caller issues the one asking a new token). The account as it is now."""
        if not acc.get("password_hash"):
            raise AuthError("a guest has no password; register to have one", "guest")
        if not 6 <= len(new) <= 128:
            raise AuthError("a password has 6 to 128 characters", "password_length")
        try:
            await self._hash_work(self._hasher.verify, acc["password_hash"], old)
        except (VerifyMismatchError, InvalidHashError):
            raise AuthError("the current password is wrong", "wrong_password") from None
        return await self.set_password(acc["id"], new)

    async def set_password(self, account_id: int, new: str) -> dict:
        """Set a password (a change, an operator's reset) and end every session."""
        digest = await self._hash_work(self._hasher.hash, new)
        await self.repo.set_password(account_id, digest)
        return await self.repo.account(account_id)  # type: ignore[return-value]

    async def guest(self) -> dict:
        """Play without registering: a throwaway account with the same 新人禮包."""
        for _ in range(5):
            try:
                return await self.repo.create_account(
                    f"guest-{secrets.token_hex(4)}", None, is_guest=True,
                    starting_coins=self.starting_coins)
            except NameTaken:
                continue
        raise AuthError("could not create a guest account; try again")


class Sessions:
    """Who a session token speaks for — and whether its session still stands.

    A token is refused (401 ``session_revoked``) when the account's session
    generation has moved since it was issued (a password change, an operator's reset:
    every session ends) or when its own id is among the account's ended sessions (a
    logout). Both live in the database, so an end holds on every worker at once. The
    check costs nothing extra in the usual case: the generation and the count of
    ended sessions come with the account row the request reads anyway, and the list
    of ended ids is read only for an account that has one, then cached for as long as
    that count does not move (bounded, ``cache`` accounts)."""

    def __init__(self, tokens: Tokens, repo: Repository, *, cache: int = 10_000):
        from cachetools import LRUCache
        self.tokens, self.repo = tokens, repo
        self._ended: LRUCache = LRUCache(maxsize=cache)   # account -> (revoked_n, sids)

    def issue(self, acc: dict) -> str:
        return self.tokens.session(acc["id"], int(acc.get("session_gen") or 0))

    async def check(self, token: str) -> tuple[dict, Session]:
        """The account a token speaks for, and its session: AuthError if the token is
        forged or expired, the session ended, the account gone or banned."""
        session = self.tokens.read_session(token)
        acc = await self.repo.account(session.account_id)
        if acc is None or acc["name"].startswith("__"):
            raise AuthError("this account does not exist")
        if session.gen != int(acc.get("session_gen") or 0) or (
                session.sid is not None and session.sid in await self._ended_sids(acc)):
            raise AuthError("this session has ended (logged out, or the password was "
                            "changed); please log in again", "session_revoked")
        check_not_banned(acc)
        return acc, session

    async def account(self, token: str) -> dict:
        return (await self.check(token))[0]

    async def _ended_sids(self, acc: dict) -> frozenset[str]:
        n = int(acc.get("revoked_n") or 0)
        if n == 0:
            return frozenset()
        cached = self._ended.get(acc["id"])
        if cached is not None and cached[0] == n:
            return cached[1]
        sids = frozenset(await self.repo.revoked_sids(acc["id"]))
        self._ended[acc["id"]] = (n, sids)
        return sids

    async def end(self, session: Session) -> None:
        """Log out: this session only (a token from before sessions had ids: all of the
        account's sessions, the only way to end it)."""
        if session.sid is None:
            acc = await self.repo.account(session.account_id)
            if acc is not None:
                await self.repo.set_password(session.account_id, acc["password_hash"])
            return
        await self.repo.revoke_session(session.account_id, session.sid, session.expires_at)

"""How much one client or one account may ask of the server.

Each limit is a token bucket per key — a client address, an account id, an
account name — kept in a bounded cache (cachetools' ``TTLCache``). An entry
expires once its bucket would have refilled anyway, so forgetting a key never
grants more than waiting would have; a flood of fresh keys costs at most
``max_keys`` small buckets, the least recently used being dropped first. Every
clock is injected, so tests move time instead of sleeping.

    >>> t = [0.0]
    >>> lim = Limiter(1.0, 2, clock=lambda: t[0])
    >>> [lim.take("a") for _ in range(3)]
    [True, True, False]

The cap on tables counts what an account sits at: unfinished tables of this
process and private rooms that have not started (in a cluster, rooms are counted
across the cluster, since any worker may be asked to join one). Each process
keeps its own buckets and counts its own tables (docs/security-http.md says so).
"""

from __future__ import annotations

import contextlib
import ipaddress
import time
from collections.abc import AsyncIterator, Callable, Hashable
from typing import Any

from cachetools import TTLCache

from ...errors import UserError
from ..play.timers import TokenBucket

__all__ = ["Counts", "LimitError", "Limiter", "Limits", "active_seats", "network_of",
           "table_state"]

Clock = Callable[[], float]


class LimitError(UserError):
    """A request over a limit: ``code`` for programs, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 429,
                 retry_after: float | None = None):
        super().__init__(message)
        self.code, self.status, self.retry_after = code, status, retry_after


class Limiter:
    """``rate`` per second with bursts of ``burst``, per key, at most ``max_keys`` keys."""

    def __init__(self, rate: float, burst: int, *, max_keys: int = 50_000,
                 clock: Clock = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        # a bucket left alone this long is full again: keeping it would change nothing
        self._buckets: TTLCache = TTLCache(maxsize=max_keys, ttl=burst / rate, timer=clock)

    def __len__(self) -> int:
        self._buckets.expire()
        return len(self._buckets)

    def _bucket(self, key: Hashable, now: float) -> TokenBucket:
        b = self._buckets.get(key)
        return b if b is not None else TokenBucket(self.rate, self.burst, now)

    def take(self, key: Hashable) -> bool:
        """Spend one token of ``key``'s bucket; False (nothing spent) when it is empty."""
        now = self.clock()
        b = self._bucket(key, now)
        ok = b.take(now)
        self._buckets[key] = b          # re-set: its expiry counts from the last use
        return ok

    def allows(self, key: Hashable) -> bool:
        """Whether ``key`` has a token left, spending none (to refuse before trying)."""
        now = self.clock()
        b = self._buckets.get(key)
        return b is None or min(b.burst, b.tokens + (now - b.stamp) * b.rate) >= 1.0


def network_of(address: str, v4_prefix: int = 32) -> str:
    """The key a client address is limited by: an IPv6 address by its /64 (a household
    or a rented server is given a whole /64 and may use any address in it), an IPv4
    address as itself, or by its /``v4_prefix``.

        >>> network_of("2001:db8:1:2:aaaa::1"), network_of("203.0.113.7", 24)
        ('2001:db8:1:2::/64', '203.0.113.0/24')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is None:
            return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
        ip = ip.ipv4_mapped
    if v4_prefix >= 32:
        return str(ip)
    return str(ipaddress.IPv4Network(f"{ip}/{v4_prefix}", strict=False))


class Counts:
    """How many of something (open sockets) each key holds, at most ``cap`` each."""

    def __init__(self) -> None:
        self._n: dict[str, int] = {}

    def __getitem__(self, key: str) -> int:
        return self._n.get(key, 0)

    def take(self, key: str, cap: int) -> bool:
        """One more for ``key``, unless it holds ``cap`` already."""
        n = self._n.get(key, 0)
        if n >= cap:
            return False
        self._n[key] = n + 1
        return True

    def give_back(self, key: str) -> None:
        n = self._n.get(key, 0) - 1
        if n > 0:
            self._n[key] = n
        else:
            self._n.pop(key, None)


class Limits:
    """Every per-key limit of one server, built from its settings."""

    def __init__(self, settings: Any, clock: Clock = time.monotonic):
        st = settings

        def lim(rate: float, burst: int) -> Limiter:
            return Limiter(rate, burst, max_keys=st.limiter_keys, clock=clock)

        self.auth_client = lim(st.auth_rate, st.auth_burst)            # login/register/guest
        self.login_name = lim(st.login_name_rate, st.login_name_burst)  # failures at one name
        self.login_pair = lim(st.login_pair_rate, st.login_pair_burst)  # … from one network
        self.login_fail = lim(st.login_fail_rate, st.login_fail_burst)  # one network's failures
        # networks with a failed login in the last login_fail_memory s (any name)
        self.failed_lately: TTLCache = TTLCache(maxsize=st.limiter_keys,
                                                ttl=st.login_fail_memory, timer=clock)
        self.signup = lim(st.signup_rate, st.signup_burst)              # new accounts
        self.signup_net = lim(st.signup_net_rate, st.signup_net_burst)
        self.signup_all = lim(st.signup_global_rate, st.signup_global_burst)
        self.messages = lim(st.account_rate, st.account_burst)         # WS frames per account
        self.create = lim(st.create_rate, st.create_burst)              # tables asked for
        self.room_miss_client = lim(st.room_miss_rate, st.room_miss_burst)
        self.room_miss_account = lim(st.room_miss_rate, st.room_miss_burst)
        self.replays = lim(st.replay_rate, st.replay_burst)   # replays/records made, per network
        self.friend_requests = lim(st.friend_rate, st.friend_burst)     # per account
        self.social_names = lim(st.social_name_rate, st.social_name_burst)
        self.invites = lim(st.invite_rate, st.invite_burst)             # per sender
        self.invite_pair = lim(st.invite_pair_rate, st.invite_pair_burst)
        # (sender, receiver) pairs told of a friend request lately: a request withdrawn
        # and sent again within the cool-down is stored but not told again
        self.noticed: TTLCache = TTLCache(maxsize=st.limiter_keys,
                                          ttl=max(st.friend_notice_cooldown, 1e-6), timer=clock)
        self.max_active_tables = st.max_active_tables
        self.sockets = Counts()               # open WebSockets per network_of(address)
        self._making: dict[int, int] = {}     # tables being made, not yet in the directory

    def all(self) -> dict[str, Limiter]:
        return {k: v for k, v in vars(self).items() if isinstance(v, Limiter)}

    async def check_new_table(self, server: Any, account_id: int, *,
                              spend: bool = True) -> None:
        """Before an account is given one more table: the cap first, then (when it
        asks for a new one, ``spend``) the rate, so a refusal for the cap spends nothing."""
        if await active_seats(server, account_id) + self._making.get(account_id, 0) \
                >= self.max_active_tables:
            raise LimitError("too_many_tables",
                             f"you already sit at {self.max_active_tables} unfinished tables "
                             "or rooms: go back to one and play it out, or give one up "
                             "(認輸: POST /api/v1/games/{game_id}/forfeit); GET /api/v1/games "
                             "lists them, each with its ticket", status=409)
        if spend and not self.create.take(account_id):
            raise LimitError("rate_limited", "you are starting tables too fast; wait a moment")

    @contextlib.asynccontextmanager
    async def making_table(self, server: Any, account_id: int) -> AsyncIterator[None]:
        """``check_new_table``, then hold the place while the table is made (it awaits
        the database), so two connections of one account cannot both pass the cap."""
        await self.check_new_table(server, account_id)
        self._making[account_id] = self._making.get(account_id, 0) + 1
        try:
            yield
        finally:
            left = self._making.pop(account_id) - 1
            if left:
                self._making[account_id] = left

    def check_login(self, client: str, name: str) -> None:
        """Before a password is checked: refused (429) while this network has failed too
        often at ``name`` or at names in general — and, while ``name`` itself has had too
        many failures from anywhere, refused to networks that failed lately. A network
        with no failures is never refused for the name's sake: a stranger guessing at a
        public name slows the guessing, not its owner's correct login."""
        net = network_of(client)
        if not (self.login_pair.allows((net, name)) and self.login_fail.allows(net)):
            raise LimitError("rate_limited", "too many failed logins from your address; "
                                             "wait a minute")
        if not self.login_name.allows(name) and net in self.failed_lately:
            raise LimitError("rate_limited", "too many failed logins for this name; "
                                             "wait a minute")

    def login_failed(self, client: str, name: str) -> None:
        net = network_of(client)
        self.login_pair.take((net, name))
        self.login_fail.take(net)
        self.login_name.take(name)
        self.failed_lately[net] = True

    def check_signup(self, client: str) -> None:
        """A new account (a guest, a registration; each paid its 新人禮包): limited per
        network (an IPv4 address, an IPv6 /64), per IPv4 /24 and for the whole server.
        Counted only when every limit has room, so a refusal spends nothing."""
        net, wide = network_of(client), network_of(client, 24)
        if not (self.signup.allows(net) and self.signup_net.allows(wide)
                and self.signup_all.allows("all")):
            raise LimitError("rate_limited", "too many new accounts from your network just "
                                             "now; wait a few minutes or log in")
        self.signup.take(net)
        self.signup_net.take(wide)
        self.signup_all.take("all")

    def spend(self, limiter: Limiter, key: Hashable, what: str) -> None:
        """One token of ``limiter`` for ``key``, or 429 saying ``what`` was too fast."""
        if not limiter.take(key):
            raise LimitError("rate_limited", f"{what}; wait a moment")

    def first_notice(self, sender: int, receiver: int) -> bool:
        """True once per cool-down for a (sender, receiver) pair: whether to tell."""
        if (sender, receiver) in self.noticed:
            return False
        self.noticed[(sender, receiver)] = True
        return True

    def check_room_lookup(self, client: str, account_id: int) -> None:
        """Refused while this client or account has guessed too many wrong codes — even
        for a right code, so the refusal says nothing about which codes exist."""
        if not (self.room_miss_client.allows(client)
                and self.room_miss_account.allows(account_id)):
            raise LimitError("rate_limited", "too many room codes that do not exist; "
                                             "wait a moment and check the code")

    def room_missed(self, client: str, account_id: int) -> None:
        self.room_miss_client.take(client)
        self.room_miss_account.take(account_id)


def table_state(table: Any) -> str:
    """The table's own ``state`` when it has one, else what its flags say."""
    state = getattr(table, "state", None)
    if isinstance(state, str):
        return state
    if table.finished:
        return "ended"
    if table.task is not None and table.task.done():
        return "stopped"            # its actor is gone without finishing the game
    return "playing" if table.hand_open else "waiting"


async def active_seats(server: Any, account_id: int) -> int:
    """Unfinished tables and unstarted rooms this process seats ``account_id`` at (a
    table whose actor is gone holds nobody's place, nor a seat given up: 認輸)."""
    n = sum(1 for t in server.tables.all()
            if table_state(t) not in ("ended", "stopped")
            and any(s.account_id == account_id and not getattr(s, "forfeited", False)
                    for s in t.seats))
    return n + await server.rooms.waiting_seats(account_id)

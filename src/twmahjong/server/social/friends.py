"""Friends (好友): requests, blocks, where friends are, invitations, notices.

- ``FriendStore``: the ``friends`` table (schema.py), one row per direction. Add by
  name or from 最近同桌 (recent tablemates: the people at one's last games); accept,
  decline, remove, block. Guests have no friends until they register.
- ``Whereabouts``: each account's place — ``offline``, ``lobby`` (connected, at no
  table), ``table`` (seated; with the game, so a friend may watch) or ``watching``
  — from this process's connections, and with Redis from every process's
  (``where:<process>`` hashes under the process lease, as presence does).
- ``Invitations``: a room's seat offered to a friend; it expires (``invite_ttl``)
  and can be declined. In Redis with a cluster, so any worker accepts it.
- ``Notices``: a message for an account wherever it is connected (a friend
  request, an invitation, a declined invitation, a block list changed): pushed to
  this process's connections, or published on ``<prefix>:social`` for every worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from typing import Any

import sqlalchemy as sa

from ..net import protocol as P
from ..play.lobby import LobbyError
from ..store.schema import accounts, friends

__all__ = ["FriendError", "FriendStore", "Invitations", "Notices", "Whereabouts"]

PLACES = ("offline", "lobby", "watching", "table")      # later wins among connections
RECENT_GAMES = 20


class FriendError(LobbyError):
    """A friends request that cannot be done; ``reason`` says which (for the client)."""

    def __init__(self, message: str, reason: str, code: str = "conflict"):
        super().__init__(code, message, reason)


class FriendStore:
    def __init__(self, engine: Any, repo: Any):
        self.engine, self.repo = engine, repo

    async def _states(self, conn: Any, a: int, b: int) -> tuple[str | None, str | None]:
        rows = (await conn.execute(sa.select(friends.c.account_id, friends.c.state).where(
            sa.or_(sa.and_(friends.c.account_id == a, friends.c.other_id == b),
                   sa.and_(friends.c.account_id == b, friends.c.other_id == a))))).all()
        got = {r.account_id: r.state for r in rows}
        return got.get(a), got.get(b)

    @staticmethod
    async def _set(conn: Any, a: int, b: int, state: str | None) -> None:
        await conn.execute(friends.delete().where(friends.c.account_id == a,
                                                  friends.c.other_id == b))
        if state is not None:
            await conn.execute(friends.insert().values(account_id=a, other_id=b, state=state,
                                                       created_at=time.time()))

    async def request(self, a: int, b: int) -> str:
        """``a`` asks ``b``; "friends" when ``b`` had asked ``a`` already, else "sent"."""
        if a == b:
            raise FriendError("you cannot befriend yourself", "self", "bad_request")
        async with self.engine.begin() as conn:
            mine, theirs = await self._states(conn, a, b)
            if mine == "friend":
                raise FriendError("you are friends already", "already_friends")
            if mine == "blocked":
                raise FriendError("you blocked this player; unblock them first", "blocked")
            if theirs == "blocked":          # they are not told; nothing reaches them
                await self._set(conn, a, b, "sent")
                return "sent"
            if mine == "received":
                await self._set(conn, a, b, "friend")
                await self._set(conn, b, a, "friend")
                return "friends"
            await self._set(conn, a, b, "sent")
            await self._set(conn, b, a, "received")
            return "sent"

    async def accept(self, a: int, b: int) -> None:
        async with self.engine.begin() as conn:
            mine, _ = await self._states(conn, a, b)
            if mine != "received":
                raise FriendError("no friend request from this player", "no_request",
                                  "not_found")
            await self._set(conn, a, b, "friend")
            await self._set(conn, b, a, "friend")

    async def decline(self, a: int, b: int) -> None:
        async with self.engine.begin() as conn:
            mine, _ = await self._states(conn, a, b)
            if mine != "received":
                raise FriendError("no friend request from this player", "no_request",
                                  "not_found")
            await self._set(conn, a, b, None)
            await self._set(conn, b, a, None)

    async def remove(self, a: int, b: int) -> None:
        """Unfriend (or withdraw a request); a block on either side stays."""
        async with self.engine.begin() as conn:
            mine, theirs = await self._states(conn, a, b)
            if mine in (None, "blocked"):
                raise FriendError("this player is not your friend", "not_friends",
                                  "not_found")
            await self._set(conn, a, b, None)
            if theirs != "blocked":
                await self._set(conn, b, a, None)

    async def block(self, a: int, b: int) -> None:
        if a == b:
            raise FriendError("you cannot block yourself", "self", "bad_request")
        async with self.engine.begin() as conn:
            _, theirs = await self._states(conn, a, b)
            await self._set(conn, a, b, "blocked")
            if theirs != "blocked":
                await self._set(conn, b, a, None)

    async def unblock(self, a: int, b: int) -> None:
        async with self.engine.begin() as conn:
            mine, _ = await self._states(conn, a, b)
            if mine != "blocked":
                raise FriendError("this player is not blocked", "not_blocked", "not_found")
            await self._set(conn, a, b, None)

    async def state(self, a: int, b: int) -> str | None:
        async with self.engine.connect() as conn:
            return (await self._states(conn, a, b))[0]

    async def blocked_by(self, a: int) -> set[int]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(friends.c.other_id).where(
                friends.c.account_id == a, friends.c.state == "blocked"))
            return {r.other_id for r in rows}

    async def listing(self, a: int) -> dict[str, list[dict]]:
        """Everyone in ``a``'s lists: ``{"friend": [...], "sent": …, "received": …,
        "blocked": …}``, each ``{"id", "name"}``."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(friends.c.other_id, friends.c.state, accounts.c.name)
                .join(accounts, accounts.c.id == friends.c.other_id)
                .where(friends.c.account_id == a).order_by(accounts.c.name))
            out: dict[str, list[dict]] = {k: [] for k in ("friend", "sent", "received",
                                                           "blocked")}
            for r in rows:
                out.setdefault(r.state, []).append({"id": r.other_id, "name": r.name})
            return out

    async def recent(self, a: int, limit: int = 12) -> list[dict]:
        """最近同桌: registered people ``a`` sat with in their last games, newest first."""
        seen: dict[int, str] = {}
        for g in await self.repo.games_of(a, RECENT_GAMES):
            for s in g["seats"]:
                other = s.get("account_id")
                if other and other != a and other not in seen:
                    seen[other] = s["name"]
        if not seen:
            return []
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(accounts.c.id).where(
                accounts.c.id.in_(list(seen)), accounts.c.is_guest.is_(False)))
            registered = {r.id for r in rows}
        return [{"id": i, "name": n} for i, n in seen.items() if i in registered][:limit]


class Whereabouts:
    """Where each account is (``PLACES``), over this process and — with a Redis
    link — every process of the cluster."""

    def __init__(self, server: Any, link: Any = None):
        self.server, self.link = server, link
        self._mine: dict[int, str] = {}          # account -> "lobby" | "table:<game>" …
        self._conns: dict[int, set] = {}         # account -> its connections here
        self._task: asyncio.Task | None = None

    def track(self, conn: Any) -> None:
        """A connection said hello as its account."""
        self._conns.setdefault(conn.account["id"], set()).add(conn)
        self.update(conn.account["id"])

    def untrack(self, conn: Any) -> None:
        account_id = conn.account["id"]
        conns = self._conns.get(account_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._conns[account_id]
        self.update(account_id)

    def conns_of(self, account_id: int) -> list:
        """This process's open connections of ``account_id``."""
        return [c for c in self._conns.get(account_id, ()) if not c.closed]

    def _key(self, process: str | None = None) -> str:
        return self.link.key("where", process or self.link.process_id)

    def update(self, account_id: int) -> None:
        """Recompute one account's place from this process's connections."""
        best, rank = None, 0
        for c in self.conns_of(account_id):
            if c.table is not None and not c.table.finished:
                place = f"table:{c.table.id}"
            elif c.watching is not None:
                place = f"watching:{c.watching.id}"
            else:
                place = "lobby"
            r = PLACES.index(place.split(":")[0])
            if r > rank:
                best, rank = place, r
        if best is None:
            self._mine.pop(account_id, None)
        else:
            self._mine[account_id] = best
        if self.link is not None:
            if best is None:
                self.link.command("HDEL", self._key(), str(account_id))
            else:
                self.link.command("HSET", self._key(), str(account_id), best)
                self.link.command("PEXPIRE", self._key(), self.link.lease_ms)

    async def places(self, ids: list[int]) -> dict[int, dict]:
        """``{id: {"status": place, "game_id": …}}`` for ``ids`` (offline if nowhere)."""
        raw: dict[int, list[str]] = {i: [self._mine[i]] if i in self._mine else [] for i in ids}
        if self.link is not None and ids:
            r = self.link.r
            async for key in r.scan_iter(match=self.link.key("where", "*"), count=200):
                if key == self._key():
                    continue
                for i, v in zip(ids, await r.hmget(key, [str(i) for i in ids])):
                    if v:
                        raw[i].append(v)
        out = {}
        for i, places in raw.items():
            best = max(places, key=lambda p: PLACES.index(p.split(":")[0]), default="offline")
            status, _, game = best.partition(":")
            out[i] = {"status": status, **({"game_id": game} if game else {})}
        return out

    def start(self) -> None:
        if self.link is not None:
            self._task = asyncio.create_task(self._refresh(), name="twmj-whereabouts")

    async def _refresh(self) -> None:
        """The whole hash each lease/3 (a Redis that restarted gets it back)."""
        while True:
            await asyncio.sleep(self.link.lease_ms / 3000)
            with contextlib.suppress(Exception):
                async with self.link.r.pipeline(transaction=True) as pipe:
                    pipe.delete(self._key())
                    if self._mine:
                        pipe.hset(self._key(), mapping={str(a): p for a, p in self._mine.items()})
                        pipe.pexpire(self._key(), self.link.lease_ms)
                    await pipe.execute()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self.link is not None and self.link.r is not None:
            with contextlib.suppress(Exception):
                await self.link.r.delete(self._key())


class Invitations:
    """Seats in private rooms offered to friends: ``{id, from, from_id, to, code,
    expires_at}``; gone once accepted, declined or expired."""

    def __init__(self, ttl: float, link: Any = None, *, max_invites: int = 10_000,
                 per_account: int = 20):
        self.ttl, self.link = ttl, link
        # bounded: past max_invites the oldest is dropped, and one account holds at most
        # per_account pending (its oldest dropped), whoever sends them
        self.max_invites, self.per_account = max_invites, per_account
        self._local: dict[str, dict] = {}

    async def create(self, sender: dict, to: int, code: str) -> dict:
        inv = {"id": secrets.token_urlsafe(9), "from": sender["name"], "from_id": sender["id"],
               "to": to, "code": code, "expires_at": time.time() + self.ttl}
        if self.link is None:
            self._expire()
            held = [k for k, v in self._local.items() if v["to"] == to]
            for k in held[:max(0, len(held) - self.per_account + 1)]:
                del self._local[k]
            while len(self._local) >= self.max_invites:
                del self._local[next(iter(self._local))]     # the oldest (insertion order)
            self._local[inv["id"]] = inv
        else:
            r = self.link.r
            async with r.pipeline(transaction=True) as pipe:
                pipe.set(self.link.key("invite", inv["id"]), json.dumps(inv),
                         px=int(self.ttl * 1000))
                pipe.zadd(self.link.key("invites", str(to)), {inv["id"]: inv["expires_at"]})
                pipe.zremrangebyrank(self.link.key("invites", str(to)), 0,
                                     -self.per_account - 1)
                pipe.expire(self.link.key("invites", str(to)), int(self.ttl) + 60)
                await pipe.execute()
        return inv

    def _expire(self) -> None:
        now = time.time()
        for k in [k for k, v in self._local.items() if v["expires_at"] <= now]:
            del self._local[k]

    async def get(self, inv_id: str) -> dict | None:
        """The invitation if it has not expired (None: expired, used or never made)."""
        if self.link is None:
            self._expire()
            return self._local.get(inv_id)
        raw = await self.link.r.get(self.link.key("invite", inv_id[:32]))
        inv = json.loads(raw) if raw else None
        return inv if inv and inv["expires_at"] > time.time() else None

    async def drop(self, inv: dict) -> None:
        if self.link is None:
            self._local.pop(inv["id"], None)
        else:
            await self.link.r.delete(self.link.key("invite", inv["id"]))
            await self.link.r.zrem(self.link.key("invites", str(inv["to"])), inv["id"])

    async def for_account(self, account_id: int) -> list[dict]:
        if self.link is None:
            self._expire()
            return sorted((v for v in self._local.values() if v["to"] == account_id),
                          key=lambda v: v["expires_at"])
        key = self.link.key("invites", str(account_id))
        await self.link.r.zremrangebyscore(key, "-inf", time.time())
        out = []
        for inv_id in await self.link.r.zrange(key, 0, -1):
            inv = await self.get(inv_id)
            if inv:
                out.append(inv)
        return out


def public_invite(inv: dict) -> dict:
    return {"id": inv["id"], "from": inv["from"], "code": inv["code"],
            "expires_in": round(max(0.0, inv["expires_at"] - time.time()), 1)}


class Notices:
    """Messages for an account wherever it is connected (every worker, with Redis)."""

    def __init__(self, server: Any, link: Any = None):
        self.server, self.link = server, link
        if link is not None:
            link.on(link.key("social"), self.deliver)

    def send(self, account_id: int, kind: str, data: dict | None = None) -> None:
        msg = {"to": account_id, "kind": kind, "data": data or {}}
        if self.link is None:
            self.deliver(msg)
        else:
            self.link.publish(self.link.key("social"), msg)

    def deliver(self, msg: dict) -> None:
        """On every process: push to this account's connections here. ``blocks`` is
        for the server itself: the account's block list changed (re-read it)."""
        conns = self.server.where.conns_of(msg.get("to"))
        if msg.get("kind") == "blocks":
            for c in conns:
                c.reload_blocks()
            return
        text = P.out(P.Notice(kind=str(msg.get("kind")), data=dict(msg.get("data") or {})))
        for c in conns:
            c.push(text)

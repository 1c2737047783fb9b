"""The repository seam: everything the server keeps, behind one interface.

``SqlRepository`` serves SQLite (embedded) and PostgreSQL alike. Writes go through
one lock — on SQLite that is the "writes from one place" rule; on PostgreSQL it
only costs a little concurrency until the server spreads over processes. Every
coin movement is a ledger row written in the same transaction that updates the
cached balance, so ``accounts.coins`` always equals the ledger sum.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections import deque
from collections.abc import Iterable
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from . import sqlite_moves
from .db import error_reason, unreachable
from .pg_moves import insert_fenced
from .schema import (accounts, game_actions, game_players, games, ledger, name_key,
                     name_skeleton, revoked_sessions)

__all__ = ["HOUSE", "Fenced", "NameTaken", "Refused", "Repository", "SqlRepository",
           "WriteTurns", "patiently"]

HOUSE = "__house__"   # the platform's own account: fees and bots' coins land here

log = logging.getLogger("twmahjong.server.store.repository")


class NameTaken(Exception):
    """Raised when an account name is already in use."""


class Fenced(Exception):
    """A write for a game carried an owner epoch older than the stored one: another
    process has taken the game on since (cluster adoption). Nothing was written; the
    writer must stop running the game and let its players follow it."""

    def __init__(self, game_id: str, epoch: int):
        super().__init__(f"game {game_id}: epoch {epoch} is no longer the owner's")
        self.game_id, self.epoch = game_id, epoch


class Refused(Exception):
    """The database refused a game's rows for good (a constraint: rows are already
    stored where these would go, as when two processes wrote one game before fencing).
    Nothing of them was stored and nobody was told of them; the table rebuilds itself
    from what is stored, or ends cleanly if it cannot. Other games' rows are not held up."""

    def __init__(self, game_id: str, reason: str):
        super().__init__(f"game {game_id}: the database refused its moves ({reason})")
        self.game_id, self.reason = game_id, reason


class _Blocked(Exception):
    """A grant's ``unless`` rows were found: its transaction is rolled back."""


class Repository(Protocol):
    async def create_account(self, name: str, password_hash: str | None, *,
                             is_guest: bool, starting_coins: int) -> dict: ...
    async def account(self, account_id: int) -> dict | None: ...
    async def account_by_name(self, name: str) -> dict | None: ...
    async def lookalike(self, name: str) -> dict | None: ...
    async def house_id(self) -> int: ...
    async def move_coins(self, entries: Iterable[tuple[int, int, str]], *,
                         game_id: str | None = None, hand_no: int | None = None) -> None: ...
    async def take_coins(self, account_id: int, amount: int, reason: str) -> bool: ...
    async def set_ban(self, account_id: int, reason: str | None, *, banned: bool) -> None: ...
    async def set_password(self, account_id: int, password_hash: str) -> int: ...
    async def revoke_session(self, account_id: int, sid: str, expires_at: float) -> None: ...
    async def revoked_sids(self, account_id: int) -> set[str]: ...
    async def find_accounts(self, name: str | None = None, limit: int = 50) -> list[dict]: ...
    async def ledger_sum(self, account_id: int) -> int: ...
    async def grant(self, account_id: int, amount: int, reason: str, key: str, *,
                    unless: tuple[str, ...] = (), since: float = 0.0) -> bool: ...
    async def ledger_rows(self, account_id: int) -> list[dict]: ...
    async def create_game(self, game: dict) -> None: ...
    async def append_actions(self, game_id: str, rows: list[dict]) -> None: ...
    def queue_actions(self, game_id: str, rows: list[dict], *,
                      epoch: int | None = None) -> int: ...
    def refused(self, game_id: str, epoch: int | None) -> bool: ...
    def rejected(self, game_id: str) -> Refused | None: ...
    async def take_game(self, game_id: str) -> int | None: ...
    async def stored(self, ticket: int) -> None: ...
    async def flush(self) -> None: ...
    async def settle_hand(self, game_id: str, hand_no: int,
                          entries: list[tuple[int, int, str]], row: dict, *,
                          epoch: int | None = None) -> None: ...
    async def finish_game(self, game_id: str, result: dict, *,
                          ratings: dict[int, float] | None = None,
                          challenge_tier: tuple[int, int] | None = None,
                          status: str = "finished", epoch: int | None = None) -> bool: ...
    async def forfeit_seat(self, game_id: str, seat: int, bot: str, *,
                           epoch: int | None = None) -> None: ...
    async def mark_paused(self, game_id: str, when: float | None) -> None: ...
    async def game(self, game_id: str) -> dict | None: ...
    async def game_actions(self, game_id: str) -> list[dict]: ...
    async def games_of_seat(self, game_id: str, seat: int) -> int | None: ...
    async def active_games(self) -> list[dict]: ...
    async def games_of(self, account_id: int, limit: int = 50) -> list[dict]: ...
    async def leaderboard(self, limit: int = 50) -> list[dict]: ...


async def patiently(fn, *args):
    """``await fn(*args)`` (a read, or a transaction) until the database answers: a
    table waits out a PostgreSQL restart, or a connection cut under it, instead of
    ending its game. Only a lost connection (``db.unreachable``) is waited out; any
    other error is raised at once. The calls a request makes are not patient: it is
    told ``unavailable`` instead."""
    warned = False
    while True:
        try:
            return await fn(*args)
        except Exception as e:
            if not unreachable(e):
                raise
            if not warned:
                log.warning("the database cannot be reached (%s); waiting for it",
                            error_reason(e))
                warned = True
            await asyncio.sleep(0.5)


def _row(r: Any) -> dict:
    return dict(r._mapping)


class WriteTurns:
    """One write at a time (SQLite's rule), and the moves' group commit first.

    A plain lock is first come, first served: a burst of sign-ups (each holding it
    for its own transaction) put every table's moves — which nobody may see before
    they are stored — behind all of them, ~0.3 s in the load runs of docs/operations.md. The group
    commit asks with ``first()`` and is handed the lock next, ahead of the others;
    it takes whatever moves have gathered, so it cannot starve them for long."""

    def __init__(self) -> None:
        self._held = False
        self._first: deque[asyncio.Future] = deque()
        self._rest: deque[asyncio.Future] = deque()

    def locked(self) -> bool:
        return self._held

    async def acquire(self, first: bool = False) -> None:
        if not self._held:
            self._held = True
            return
        future = asyncio.get_running_loop().create_future()
        line = self._first if first else self._rest
        line.append(future)
        try:
            await future                 # release() hands the lock over: still held
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()           # handed to us as we were cancelled: pass it on
            else:
                line.remove(future)
            raise

    def release(self) -> None:
        for line in (self._first, self._rest):
            while line:
                future = line.popleft()
                if not future.done():
                    future.set_result(None)
                    return
        self._held = False

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    @contextlib.asynccontextmanager
    async def first(self):
        await self.acquire(first=True)
        try:
            yield
        finally:
            self.release()


class SqlRepository:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine
        self._write = WriteTurns()
        self._house: int | None = None
        # group commit of game actions: tables queue rows and go on playing; one
        # writer task stores whatever has gathered in a single transaction
        self._queue: list[dict] = []
        self._queued = 0
        self._written = 0
        self._wake: asyncio.Event | None = None
        # tables waiting for their rows, (ticket, n, future) in a heap: a commit wakes
        # only the tables it stored (a Condition woke every waiting table on every commit)
        self._waiters: list[tuple[int, int, asyncio.Future]] = []
        self._waiter_n = 0
        self._writer: asyncio.Task | None = None
        self._refused: dict[str, int] = {}       # game -> newest epoch a write was refused
        self._rejected: dict[str, Refused] = {}  # game -> its rows the database refused
        self.on_commit: Any = None      # (seconds, rows) after each group commit (metrics)
        self._pg = engine.dialect.name == "postgresql"
        self._lite = engine.dialect.name == "sqlite"     # moves through sqlite_moves

    # -- accounts -----------------------------------------------------------------
    async def create_account(self, name: str, password_hash: str | None, *,
                             is_guest: bool, starting_coins: int) -> dict:
        """Create the account and pay its 新人禮包 as its first ledger row.

        The row comes back from the insert itself (``RETURNING``): a sign-up used to
        read it again on another connection, which cost a quarter of its rate
        (bench/signup.py: 300 -> 390 guests/s idle, 214 -> 274 under 100 tables).
        Taking turns with the other writes stays: without them 32 sign-ups at once
        fought over the pool's connections and were slower, not faster."""
        now = time.time()
        async with self._write:
            try:
                async with self.engine.begin() as conn:
                    res = await conn.execute(accounts.insert().values(
                        name=name, name_key=name_key(name), name_skeleton=name_skeleton(name),
                        password_hash=password_hash, is_guest=is_guest,
                        coins=starting_coins, rating=1500.0, ranked_games=0,
                        challenge_tier=0, created_at=now).returning(*accounts.c))
                    acc = _row(res.one())
                    if starting_coins:
                        await conn.execute(ledger.insert().values(
                            account_id=acc["id"], amount=starting_coins,
                            reason="welcome", grant_key="welcome:", created_at=now))
            except IntegrityError:
                raise NameTaken(name) from None
        return acc

    async def account(self, account_id: int) -> dict | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(accounts).where(accounts.c.id == account_id))).first()
        return _row(r) if r else None

    async def account_by_name(self, name: str) -> dict | None:
        """The account whose name folds to the same key as ``name`` ("Aud" finds "aud");
        the exact spelling first, for two older names that fold alike (migration 0002)."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(accounts).where(accounts.c.name == name))).first()
            if r is None:
                r = (await conn.execute(sa.select(accounts).where(
                    accounts.c.name_key == name_key(name)))).first()
        return _row(r) if r else None

    async def lookalike(self, name: str) -> dict | None:
        """An account whose name looks like ``name`` (the same TR39 skeleton), if any."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(accounts).where(
                accounts.c.name_skeleton == name_skeleton(name)))).first()
        return _row(r) if r else None

    async def house_id(self) -> int:
        if self._house is None:
            acc = await self.account_by_name(HOUSE)
            if acc is None:
                try:
                    acc = await self.create_account(HOUSE, None, is_guest=False,
                                                    starting_coins=0)
                except NameTaken:
                    acc = await self.account_by_name(HOUSE)
            self._house = acc["id"]  # type: ignore[index]
        return self._house

    # -- coins ----------------------------------------------------------------------
    async def move_coins(self, entries: Iterable[tuple[int, int, str]], *,
                         game_id: str | None = None, hand_no: int | None = None) -> None:
        """Apply (account_id, amount, reason) rows atomically: ledger + cached balance."""
        entries = [e for e in entries if e[1] != 0]
        if not entries:
            return
        now = time.time()
        async with self._write, self.engine.begin() as conn:
            for account_id, amount, reason in entries:
                await conn.execute(ledger.insert().values(
                    account_id=account_id, amount=amount, reason=reason,
                    game_id=game_id, hand_no=hand_no, created_at=now))
                await conn.execute(accounts.update().where(accounts.c.id == account_id)
                                   .values(coins=accounts.c.coins + amount))

    async def grant(self, account_id: int, amount: int, reason: str, key: str, *,
                    unless: tuple[str, ...] = (), since: float = 0.0) -> bool:
        """Credit ``amount`` for ``reason`` once per ``key`` (the daily bonus's key is its
        day: 每日登入獎勵), and not at all if a row of a reason in ``unless`` was written
        since ``since``. False: paid before (or blocked), nothing written.

        Once is the database's doing, not a lock's: the ledger row carries
        ``reason:key``, unique per account, and the balance moves in the same
        transaction, so two workers (or two requests of one) asking at once pay one
        credit. The row is inserted first — on SQLite that takes the write lock
        before anything is read, so the check after it sees every committed grant."""
        now = time.time()
        try:
            async with self._write, self.engine.begin() as conn:
                await conn.execute(ledger.insert().values(
                    account_id=account_id, amount=amount, reason=reason,
                    grant_key=f"{reason}:{key}"[:80], created_at=now))
                if unless:
                    seen = await conn.scalar(sa.select(sa.func.count()).select_from(ledger)
                                             .where(ledger.c.account_id == account_id,
                                                    ledger.c.created_at >= since,
                                                    ledger.c.reason.in_(unless)))
                    if seen:
                        raise _Blocked          # leaves the transaction: rolled back
                await conn.execute(accounts.update().where(accounts.c.id == account_id)
                                   .values(coins=accounts.c.coins + amount))
        except (IntegrityError, _Blocked):
            return False                # this key was paid already: nothing written
        return True

    async def take_coins(self, account_id: int, amount: int, reason: str) -> bool:
        """Take ``amount`` through the ledger only if the balance covers it (one
        transaction: a hand settled meanwhile cannot push it below zero)."""
        now = time.time()
        async with self._write, self.engine.begin() as conn:
            res = await conn.execute(accounts.update().where(
                accounts.c.id == account_id, accounts.c.coins >= amount)
                .values(coins=accounts.c.coins - amount))
            if res.rowcount != 1:
                return False
            await conn.execute(ledger.insert().values(
                account_id=account_id, amount=-amount, reason=reason, created_at=now))
        return True

    async def set_ban(self, account_id: int, reason: str | None, *, banned: bool) -> None:
        async with self._write, self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account_id).values(
                banned_at=time.time() if banned else None, ban_reason=reason if banned else None))

    # -- sessions -----------------------------------------------------------------------
    async def set_password(self, account_id: int, password_hash: str) -> int:
        """A new password, and a new session generation: every session issued before
        ends (on every worker: the generation is checked with the account row). The
        new generation."""
        async with self._write, self.engine.begin() as conn:
            await conn.execute(accounts.update().where(accounts.c.id == account_id).values(
                password_hash=password_hash, session_gen=accounts.c.session_gen + 1))
            return int(await conn.scalar(sa.select(accounts.c.session_gen).where(
                accounts.c.id == account_id)))

    async def revoke_session(self, account_id: int, sid: str, expires_at: float) -> None:
        """End one session (a logout): its id is listed until its token would have
        expired anyway, and the account's ``revoked_n`` moves so caches read it again."""
        now = time.time()
        try:
            async with self._write, self.engine.begin() as conn:
                await conn.execute(revoked_sessions.delete().where(
                    revoked_sessions.c.expires_at < now))
                await conn.execute(revoked_sessions.insert().values(
                    sid=sid, account_id=account_id, expires_at=expires_at))
                await conn.execute(accounts.update().where(accounts.c.id == account_id)
                                   .values(revoked_n=accounts.c.revoked_n + 1))
        except IntegrityError:
            return                              # ended already

    async def revoked_sids(self, account_id: int) -> set[str]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(revoked_sessions.c.sid).where(
                revoked_sessions.c.account_id == account_id,
                revoked_sessions.c.expires_at >= time.time()))
        return {r.sid for r in rows}

    async def find_accounts(self, name: str | None = None, limit: int = 50) -> list[dict]:
        """Accounts whose name contains ``name`` (all without one), newest first."""
        q = sa.select(accounts).where(~accounts.c.name.startswith("__", autoescape=True))
        if name:
            q = q.where(accounts.c.name_key.contains(name_key(name), autoescape=True))
        async with self.engine.connect() as conn:
            rows = await conn.execute(q.order_by(accounts.c.id.desc()).limit(limit))
        return [_row(r) for r in rows]

    async def ledger_sum(self, account_id: int) -> int:
        async with self.engine.connect() as conn:
            v = await conn.scalar(sa.select(sa.func.coalesce(sa.func.sum(ledger.c.amount), 0))
                                  .where(ledger.c.account_id == account_id))
        return int(v)

    async def ledger_rows(self, account_id: int) -> list[dict]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(ledger).where(ledger.c.account_id == account_id)
                                      .order_by(ledger.c.id))
        return [_row(r) for r in rows]

    # -- games ----------------------------------------------------------------------
    async def create_game(self, game: dict) -> None:
        async with self._write, self.engine.begin() as conn:
            await conn.execute(games.insert().values(
                id=game["id"], mode=game["mode"], profile=game["profile"],
                stake=game["stake"], rounds=game["rounds"], status="active",
                seats=game["seats"], options=game.get("options", {}), result=None,
                created_at=time.time(), finished_at=None, epoch=game.get("epoch", 1)))
            for seat, s in enumerate(game["seats"]):
                if s.get("account_id") is not None:
                    await conn.execute(game_players.insert().values(
                        game_id=game["id"], seat=seat, account_id=s["account_id"]))

    async def append_actions(self, game_id: str, rows: list[dict]) -> None:
        """Append decisions (each {seq, hand_no, kind, seat, data}) and wait for them."""
        self.queue_actions(game_id, rows)
        await self.flush()

    def queue_actions(self, game_id: str, rows: list[dict], *,
                      epoch: int | None = None) -> int:
        """Queue decisions for the writer; they are stored in order within milliseconds.

        Returns a ticket for ``stored``: a table waits on it before it tells anyone
        of the move, so nothing a player has seen can be lost by a crash, while
        every table's rows that gathered meanwhile share one commit. With ``epoch``
        the rows are stored only while it is still the game's epoch (``refused``)."""
        if not rows:
            return self._queued
        self._queue.extend({"game_id": game_id, **r, "_epoch": epoch} for r in rows)
        self._queued += len(rows)
        if self._writer is None or self._writer.done():
            self._wake = asyncio.Event()
            self._writer = asyncio.create_task(self._write_loop(), name="twmj-writer")
        self._wake.set()
        return self._queued

    async def _write_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                batch = self._queue
                self._queue = []
                try:
                    await self._commit(batch)
                except Exception as e:
                    if unreachable(e):          # the database is away: wait for it
                        log.warning("storing %d game actions failed (%s); retrying",
                                    len(batch), e)
                        self._queue[:0] = batch
                        await asyncio.sleep(0.5)
                        continue
                    # a row of one game broke the shared commit: store game by game, so
                    # that game alone is refused and every other table's moves go in
                    log.warning("storing %d game actions of %d games failed (%s); storing "
                                "them game by game", len(batch),
                                len({r["game_id"] for r in batch}), e)
                    await self._commit_each_game(batch)
                self._written += len(batch)
                self._release()

    async def _commit(self, batch: list[dict]) -> None:
        """One transaction: the rows of ``batch`` whose epoch still holds (one fenced
        statement straight to the driver: ``pg_moves`` on PostgreSQL, ``sqlite_moves``
        on SQLite)."""
        async with self._write.first():
            began = time.perf_counter()
            if self._pg:
                async with self.engine.connect() as conn:
                    now = await insert_fenced(conn, batch)
                if now is not None:
                    self._refuse(batch, now)
            elif self._lite:
                async with self.engine.connect() as conn:
                    now = await sqlite_moves.insert_fenced(conn, batch)
                if now is not None:
                    self._refuse(batch, now)
            else:
                async with self.engine.begin() as conn:
                    rows = await self._fence(conn, batch)
                    if rows:
                        await conn.execute(game_actions.insert(), rows)
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - began, len(batch))

    async def _commit_each_game(self, batch: list[dict]) -> None:
        """Each game's rows of ``batch`` in a transaction of their own (in order). A game
        whose rows the database refuses (a constraint, or an error that comes back)
        is marked ``rejected``: its table hears so instead of waiting for ever, and its
        rows are never retried, so they cannot hold up anyone else's."""
        games: dict[str, list[dict]] = {}
        for r in batch:
            games.setdefault(r["game_id"], []).append(r)
        for game_id, rows in games.items():
            tries = 0
            while True:
                try:
                    await self._commit(rows)
                    break
                except Exception as e:
                    if unreachable(e):
                        await asyncio.sleep(0.5)
                        continue
                    tries += 1
                    if not isinstance(e, IntegrityError) and tries < 3:
                        await asyncio.sleep(0.05)     # e.g. a deadlock: once more
                        continue
                    reason = str(getattr(e, "orig", None) or e).splitlines()[0][:200]
                    log.error("game %s: the database refused %d of its moves (%s); its "
                              "table rebuilds from what is stored", game_id, len(rows),
                              reason)
                    self._rejected[game_id] = Refused(game_id, reason)
                    break

    async def _fence(self, conn: Any, batch: list[dict]) -> list[dict]:
        """The rows of ``batch`` whose epoch is still their game's, in the writing
        transaction: the games' rows are locked (shared) until it commits, so an
        adoption (``take_game``) waits for it, then sees every row it let through."""
        want = {r["game_id"]: r["_epoch"] for r in batch if r["_epoch"] is not None}
        now: dict[str, int] = {}
        if want:
            q = sa.select(games.c.id, games.c.epoch).where(games.c.id.in_(sorted(want)))
            if conn.dialect.name == "postgresql":
                q = q.with_for_update(read=True)
            now = {r.id: r.epoch for r in await conn.execute(q)}
        self._refuse(batch, now)
        return [{k: v for k, v in r.items() if k != "_epoch"} for r in batch
                if r["_epoch"] is None or now.get(r["game_id"]) == r["_epoch"]]

    def _refuse(self, batch: list[dict], now: dict[str, int]) -> None:
        """Note the games of ``batch`` whose rows' epoch is not ``now``'s: not ours."""
        for r in batch:
            e = r["_epoch"]
            if e is not None and now.get(r["game_id"]) != e \
                    and self._refused.get(r["game_id"], -1) < e:
                log.warning("game %s: a write of epoch %s refused (now %s): another "
                            "process owns it", r["game_id"], e, now.get(r["game_id"]))
                self._refused[r["game_id"]] = e

    def refused(self, game_id: str, epoch: int | None) -> bool:
        """True if a write of ``game_id`` at ``epoch`` was refused: the game is not ours."""
        return epoch is not None and self._refused.get(game_id, -1) >= epoch

    def rejected(self, game_id: str) -> Refused | None:
        """The refusal of ``game_id``'s rows since the last call (None: all stored). Its
        table asks after each wait: rows refused for a constraint are not stored."""
        return self._rejected.pop(game_id, None)

    async def take_game(self, game_id: str) -> int | None:
        """Take an active game on (adoption, resume): bump its owner epoch and return
        it; every write of an older epoch is refused from now on. None: not active."""
        async with self._write, self.engine.begin() as conn:
            res = await conn.execute(games.update().where(
                games.c.id == game_id, games.c.status == "active").values(
                epoch=games.c.epoch + 1))
            if res.rowcount != 1:
                return None
            return int(await conn.scalar(sa.select(games.c.epoch).where(
                games.c.id == game_id)))

    async def _check_epoch(self, conn: Any, game_id: str, epoch: int | None) -> None:
        if epoch is None:
            return
        q = sa.select(games.c.epoch).where(games.c.id == game_id)
        if conn.dialect.name == "postgresql":
            q = q.with_for_update(read=True)
        if await conn.scalar(q) != epoch:
            self._refused[game_id] = max(epoch, self._refused.get(game_id, -1))
            raise Fenced(game_id, epoch)

    async def flush(self) -> None:
        """Wait until every action queued so far is stored."""
        await self.stored(self._queued)

    async def stored(self, ticket: int) -> None:
        """Wait until the rows queued up to ``ticket`` (from ``queue_actions``) are committed."""
        if self._written >= ticket:
            return
        future = asyncio.get_running_loop().create_future()
        self._waiter_n += 1
        heapq.heappush(self._waiters, (ticket, self._waiter_n, future))
        await future

    def _release(self) -> None:
        """Wake the waiters whose rows are now stored (and only those)."""
        while self._waiters and self._waiters[0][0] <= self._written:
            future = heapq.heappop(self._waiters)[2]
            if not future.done():
                future.set_result(None)

    async def close(self) -> None:
        await self.flush()
        if self._writer is not None:
            self._writer.cancel()

    async def settle_hand(self, game_id: str, hand_no: int,
                          entries: list[tuple[int, int, str]], row: dict, *,
                          epoch: int | None = None) -> None:
        """A hand's coin movements and its "settled" mark in one transaction, after
        its actions: a crash can never pay a hand twice or lose its payment. Raises
        ``Fenced`` (nothing paid) if ``epoch`` is no longer the game's. Waits for a
        database that cannot be reached."""
        await self.flush()
        await patiently(lambda: self._settle(game_id, hand_no, entries, row, epoch))

    async def _settle(self, game_id: str, hand_no: int, entries: list[tuple[int, int, str]],
                      row: dict, epoch: int | None) -> None:
        now = time.time()
        async with self._write, self.engine.begin() as conn:
            await self._check_epoch(conn, game_id, epoch)
            for account_id, amount, reason in entries:
                if amount == 0:
                    continue
                await conn.execute(ledger.insert().values(
                    account_id=account_id, amount=amount, reason=reason,
                    game_id=game_id, hand_no=hand_no, created_at=now))
                await conn.execute(accounts.update().where(accounts.c.id == account_id)
                                   .values(coins=accounts.c.coins + amount))
            await conn.execute(game_actions.insert(), [{"game_id": game_id, **row}])

    async def finish_game(self, game_id: str, result: dict, *,
                          ratings: dict[int, float] | None = None,
                          challenge_tier: tuple[int, int] | None = None,
                          status: str = "finished", epoch: int | None = None) -> bool:
        """End a game once: its result, and the ratings and challenge progress it
        earned, in one transaction that only an active game passes. A crash at any
        point, and the resumed table ending the game again, apply them exactly once.
        False when the game had already ended (nothing written); ``Fenced`` when
        ``epoch`` is no longer the game's. Waits for a database that cannot be reached."""
        return await patiently(lambda: self._finish(game_id, result, ratings, challenge_tier,
                                                    status, epoch))

    async def _finish(self, game_id: str, result: dict, ratings: dict[int, float] | None,
                      challenge_tier: tuple[int, int] | None, status: str,
                      epoch: int | None) -> bool:
        async with self._write, self.engine.begin() as conn:
            await self._check_epoch(conn, game_id, epoch)
            res = await conn.execute(games.update().where(
                games.c.id == game_id, games.c.status == "active").values(
                status=status, result=result, finished_at=time.time()))
            if res.rowcount != 1:
                return False
            for account_id, rating in (ratings or {}).items():
                await conn.execute(accounts.update().where(accounts.c.id == account_id).values(
                    rating=rating, ranked_games=accounts.c.ranked_games + 1))
            if challenge_tier is not None:
                account_id, tier = challenge_tier
                await conn.execute(accounts.update().where(
                    accounts.c.id == account_id, accounts.c.challenge_tier < tier)
                    .values(challenge_tier=tier))
        return True

    async def forfeit_seat(self, game_id: str, seat: int, bot: str, *,
                           epoch: int | None = None) -> None:
        """認輸 with others playing on: the seat is stored as its bot's (``bot``) and
        ``forfeited``; the account stays on it for the books (``game_players``). Waits
        for a database that cannot be reached."""
        await self.flush()
        await patiently(self._forfeit_seat, game_id, seat, bot, epoch)

    async def _forfeit_seat(self, game_id: str, seat: int, bot: str,
                            epoch: int | None) -> None:
        async with self._write, self.engine.begin() as conn:
            await self._check_epoch(conn, game_id, epoch)
            seats = await conn.scalar(sa.select(games.c.seats).where(games.c.id == game_id))
            seats = [dict(s) for s in seats or []]
            seats[seat] = {**seats[seat], "bot": bot, "forfeited": True}
            await conn.execute(games.update().where(games.c.id == game_id).values(seats=seats))

    async def mark_paused(self, game_id: str, when: float | None) -> None:
        """Since when (wall clock) the game waits with nobody connected (None: it plays
        again): a restart ends a game paused past ``abandon_after`` instead of resuming it.
        Waits for a database that cannot be reached (a table marks it)."""
        await patiently(self._mark_paused, game_id, when)

    async def _mark_paused(self, game_id: str, when: float | None) -> None:
        async with self._write, self.engine.begin() as conn:
            options = await conn.scalar(sa.select(games.c.options)
                                        .where(games.c.id == game_id))
            options = {k: v for k, v in dict(options or {}).items() if k != "paused_at"}
            if when is not None:
                options["paused_at"] = when
            await conn.execute(games.update().where(games.c.id == game_id)
                               .values(options=options))

    async def game(self, game_id: str) -> dict | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(games).where(games.c.id == game_id))).first()
        return _row(r) if r else None

    async def game_actions(self, game_id: str) -> list[dict]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(game_actions.c.seq, game_actions.c.hand_no, game_actions.c.kind,
                          game_actions.c.seat, game_actions.c.data)
                .where(game_actions.c.game_id == game_id).order_by(game_actions.c.seq))
        return [_row(r) for r in rows]

    async def games_of_seat(self, game_id: str, seat: int) -> int | None:
        """The account sitting at ``seat`` of a game (None: a bot)."""
        async with self.engine.connect() as conn:
            return await conn.scalar(sa.select(game_players.c.account_id).where(
                game_players.c.game_id == game_id, game_players.c.seat == seat))

    async def active_games(self) -> list[dict]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(games).where(games.c.status == "active")
                                      .order_by(games.c.created_at))
        return [_row(r) for r in rows]

    async def games_of(self, account_id: int, limit: int = 50) -> list[dict]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(games, game_players.c.seat)
                .join(game_players, game_players.c.game_id == games.c.id)
                .where(game_players.c.account_id == account_id)
                .order_by(games.c.created_at.desc()).limit(limit))
        return [_row(r) for r in rows]

    # -- rankings ---------------------------------------------------------------------
    async def leaderboard(self, limit: int = 50) -> list[dict]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(accounts.c.id, accounts.c.name, accounts.c.rating,
                          accounts.c.ranked_games)
                .where(accounts.c.ranked_games > 0, accounts.c.is_guest.is_(False))
                .order_by(accounts.c.rating.desc(), accounts.c.id).limit(limit))
        return [_row(r) for r in rows]

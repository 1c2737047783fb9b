"""Players' own recorded calls (真人語音) and their reports, in the database.

A clip is one row of ``voice_clips`` (schema.py): the account, the voice (``nan``
台語 or ``cmn`` 普通話), the call (``pon``, ``phrase_hello``, …), its checked media
type, size and length, and the bytes. The database holds them, so any worker of a
cluster serves any clip. Re-recording a call replaces its row with a new one: a
clip id names one recording for good, and its URL may be cached for ever.

Each account has a quota (``quota_clips`` clips, ``quota_bytes`` bytes in all),
checked in the transaction that stores the clip, so two uploads at once cannot
both pass it. The bytes are checked before they come here (social/clips.py).
"""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .schema import accounts, clip_reports, voice_clips

__all__ = ["ClipStore", "OverQuota"]

# what a listing carries of each clip (never the bytes)
_SHOWN = (voice_clips.c.id, voice_clips.c.account_id, voice_clips.c.voice, voice_clips.c.call,
          voice_clips.c.media, voice_clips.c.size, voice_clips.c.duration_ms,
          voice_clips.c.created_at)


class OverQuota(Exception):
    """Storing the clip would take the account past its quota; nothing was stored."""

    def __init__(self, clips: int, size: int, quota_clips: int, quota_bytes: int):
        super().__init__(f"{clips} clips of {size} bytes would pass the quota of "
                         f"{quota_clips} clips and {quota_bytes} bytes")
        self.clips, self.size = clips, size
        self.quota_clips, self.quota_bytes = quota_clips, quota_bytes


def _row(r: Any) -> dict:
    return dict(r._mapping)


class ClipStore:
    """The ``voice_clips`` and ``clip_reports`` tables, for the API and ``twmj admin``.

    >>> ClipStore(None).quota_clips
    80
    """

    def __init__(self, engine: Any, *, quota_clips: int = 80, quota_bytes: int = 2 * 1024 * 1024):
        self.engine = engine
        self.quota_clips, self.quota_bytes = quota_clips, quota_bytes

    async def put(self, account_id: int, voice: str, call: str, media: str, data: bytes,
                  duration_ms: int) -> dict:
        """Store (or replace) one clip; its row without the bytes. ``OverQuota``: the
        account's clips, this one counted instead of the one it replaces, would pass
        the quota (nothing changed)."""
        now = time.time()
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":     # one upload of an account at a time
                await conn.execute(sa.select(accounts.c.id).where(
                    accounts.c.id == account_id).with_for_update())
            # the replaced clip goes first: on SQLite that takes the write lock before
            # anything is counted, so the count sees every committed upload; raising
            # below rolls the deletion back
            await conn.execute(voice_clips.delete().where(
                voice_clips.c.account_id == account_id, voice_clips.c.voice == voice,
                voice_clips.c.call == call))
            n, size = (await conn.execute(
                sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(voice_clips.c.size), 0))
                .where(voice_clips.c.account_id == account_id))).one()
            if n + 1 > self.quota_clips or size + len(data) > self.quota_bytes:
                raise OverQuota(n + 1, size + len(data), self.quota_clips, self.quota_bytes)
            res = await conn.execute(voice_clips.insert().values(
                account_id=account_id, voice=voice, call=call, media=media, size=len(data),
                duration_ms=duration_ms, data=data, created_at=now).returning(*_SHOWN))
            return _row(res.one())

    async def of_account(self, account_id: int) -> list[dict]:
        """The account's clips (no bytes), by voice then call."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(*_SHOWN).where(
                voice_clips.c.account_id == account_id)
                .order_by(voice_clips.c.voice, voice_clips.c.call))
        return [_row(r) for r in rows]

    async def of_accounts(self, account_ids: list[int]) -> dict[int, list[dict]]:
        """The clips (no bytes) of several accounts at once, a table's seats; none of a
        banned account."""
        out: dict[int, list[dict]] = {a: [] for a in account_ids}
        if not account_ids:
            return out
        async with self.engine.connect() as conn:
            rows = await conn.execute(sa.select(*_SHOWN)
                .join(accounts, accounts.c.id == voice_clips.c.account_id)
                .where(voice_clips.c.account_id.in_(account_ids), accounts.c.banned_at.is_(None))
                .order_by(voice_clips.c.id))
        for r in rows:
            out[r.account_id].append(_row(r))
        return out

    async def get(self, clip_id: int) -> dict | None:
        """One clip with its bytes (``data``), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(voice_clips).where(
                voice_clips.c.id == clip_id))).first()
        return _row(r) if r else None

    async def find(self, account_id: int, voice: str, call: str) -> dict | None:
        """One clip of an account (no bytes), or None."""
        async with self.engine.connect() as conn:
            r = (await conn.execute(sa.select(*_SHOWN).where(
                voice_clips.c.account_id == account_id, voice_clips.c.voice == voice,
                voice_clips.c.call == call))).first()
        return _row(r) if r else None

    async def remove(self, account_id: int, voice: str | None = None,
                     call: str | None = None) -> int:
        """Delete the account's clip of ``voice``/``call`` (all of a voice, or all of
        the account, when left out); how many went."""
        q = voice_clips.delete().where(voice_clips.c.account_id == account_id)
        if voice is not None:
            q = q.where(voice_clips.c.voice == voice)
        if call is not None:
            q = q.where(voice_clips.c.call == call)
        async with self.engine.begin() as conn:
            return (await conn.execute(q)).rowcount or 0

    async def remove_id(self, clip_id: int) -> dict | None:
        """Delete one clip by id; its row (no bytes), or None if there was none."""
        async with self.engine.begin() as conn:
            r = (await conn.execute(sa.select(*_SHOWN).where(
                voice_clips.c.id == clip_id))).first()
            if r is None:
                return None
            await conn.execute(voice_clips.delete().where(voice_clips.c.id == clip_id))
        return _row(r)

    async def usage(self, account_id: int) -> dict:
        async with self.engine.connect() as conn:
            n, size = (await conn.execute(sa.select(
                sa.func.count(), sa.func.coalesce(sa.func.sum(voice_clips.c.size), 0))
                .where(voice_clips.c.account_id == account_id))).one()
        return {"clips": int(n), "bytes": int(size)}

    # -- reports ------------------------------------------------------------------------
    async def report(self, clip: dict, reporter_id: int, reason: str,
                     game_id: str | None = None) -> bool:
        """Store a listener's report of ``clip``; False if they had reported it already
        (the first report stands)."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(clip_reports.insert().values(
                    clip_id=clip["id"], owner_id=clip["account_id"], voice=clip["voice"],
                    call=clip["call"], reporter_id=reporter_id, reason=reason[:200],
                    game_id=game_id, created_at=time.time()))
        except IntegrityError:
            return False
        return True

    async def reports(self, limit: int = 100) -> list[dict]:
        """The newest reports, with the names of the clip's owner and the reporter and
        whether the clip is still stored."""
        owner, reporter = accounts.alias("owner"), accounts.alias("reporter")
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(clip_reports, owner.c.name.label("owner"),
                          reporter.c.name.label("reporter"),
                          voice_clips.c.id.is_not(None).label("stored"))
                .join(owner, owner.c.id == clip_reports.c.owner_id)
                .join(reporter, reporter.c.id == clip_reports.c.reporter_id)
                .outerjoin(voice_clips, voice_clips.c.id == clip_reports.c.clip_id)
                .order_by(clip_reports.c.id.desc()).limit(limit))
        return [_row(r) for r in rows]

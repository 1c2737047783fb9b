"""The HTTP API of 真人語音 (``/api/v1``): my recorded calls, a table's voices, reports.

- ``GET /me/clips``: my clips, what may be recorded, the limits and my quota.
- ``PUT /me/clips/{voice}/{call}``: record (or redo) one call; the body is the
  recording itself (social/clips.py says what is kept). Registered players only.
- ``DELETE /me/clips/{voice}/{call}``.
- ``GET /clips/{id}``: one clip's bytes, cacheable for good (a redone call is a new id).
- ``GET /games/{game_id}/voices``: which seats of a game have clips, and their ids.
- ``POST /clips/{id}/report``: a listener reports a clip to the operators.

Errors have the usual shape (http_api.py); ``reason`` names the failure:
``guest_clips``, ``no_such_call``, ``clip_too_big``, ``clip_not_audio``,
``clip_too_long``, ``clip_empty``, ``clip_quota``, ``no_clip``, ``no_game``,
``not_seated``.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from ..net.http_api import Account, ApiError, server_of
from ..store.clips import OverQuota
from . import clips

__all__ = ["router"]

router = APIRouter(prefix="/api/v1")

FOREVER = "private, max-age=31536000, immutable"


def _registered(acc: dict) -> None:
    if acc["is_guest"]:
        raise ApiError(403, "forbidden", "guests cannot record calls; register to keep your "
                                         "voice", "guest_clips")


def _call(voice: str, call: str) -> None:
    if voice not in clips.VOICES or call not in clips.CLIPS:
        raise ApiError(404, "not_found", f"no call {call!r} in voice {voice!r} to record; "
                                         f"voices {', '.join(clips.VOICES)}", "no_such_call")


def _shown(c: dict) -> dict:
    return {"id": c["id"], "voice": c["voice"], "call": c["call"], "media": c["media"],
            "size": c["size"], "duration_ms": c["duration_ms"], "url": f"/api/v1/clips/{c['id']}"}


def _limits(store) -> dict:
    return {"seconds": clips.MAX_SECONDS, "bytes": clips.MAX_BYTES,
            "quota_clips": store.quota_clips, "quota_bytes": store.quota_bytes}


@router.get("/me/clips")
async def my_clips(request: Request, acc: Account) -> dict:
    """My recorded calls, the calls there are to record, the limits and what I use."""
    store = server_of(request).clips
    return {"clips": [_shown(c) for c in await store.of_account(acc["id"])],
            "voices": clips.VOICES, "calls": list(clips.CALLS),
            "phrases": list(clips.PHRASE_CALLS), "limits": _limits(store),
            "used": await store.usage(acc["id"])}


async def _body(request: Request) -> bytes:
    """The body, read no further than one byte past the clip limit."""
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > clips.MAX_BYTES:
            break
    return bytes(data)


@router.put("/me/clips/{voice}/{call}")
async def record_clip(voice: str, call: str, request: Request, acc: Account) -> dict:
    """Keep one recorded call (the body: WebM, Ogg or MP4 audio, whatever its
    Content-Type says); it replaces my clip of that call."""
    _registered(acc)
    _call(voice, call)
    server = server_of(request)
    server.limits.spend(server.clip_limit, acc["id"], "you are recording too fast")
    data = await _body(request)
    try:
        checked = await asyncio.to_thread(clips.check, data)
    except clips.ClipError as e:
        status = 413 if e.reason == "clip_too_big" else 422
        raise ApiError(status, "bad_request", str(e), e.reason) from None
    try:
        row = await server.clips.put(acc["id"], voice, call, checked.media, data,
                                     checked.duration_ms)
    except OverQuota as e:
        raise ApiError(409, "conflict", f"your recordings would pass the quota of "
                                        f"{e.quota_clips} clips and {e.quota_bytes // 1024} KiB; "
                                        "delete some first", "clip_quota") from None
    return {"clip": _shown(row), "used": await server.clips.usage(acc["id"])}


@router.delete("/me/clips/{voice}/{call}")
async def delete_clip(voice: str, call: str, request: Request, acc: Account) -> dict:
    _call(voice, call)
    store = server_of(request).clips
    if not await store.remove(acc["id"], voice, call):
        raise ApiError(404, "not_found", f"you have no recording of {call!r} in {voice!r}",
                       "no_clip")
    return {"deleted": {"voice": voice, "call": call}, "used": await store.usage(acc["id"])}


@router.get("/clips/{clip_id}")
async def clip_bytes(clip_id: int, request: Request, acc: Account) -> Response:
    """One clip, for any player (as the rest of the API: with a session). Its id
    changes when the call is recorded again, so a client may keep it for good."""
    tag = f'"clip-{clip_id}"'
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag, "Cache-Control": FOREVER})
    c = await server_of(request).clips.get(clip_id)
    if c is None:
        raise ApiError(404, "not_found", "this recording is gone (redone or removed)", "no_clip")
    return Response(c["data"], media_type=c["media"],
                    headers={"ETag": tag, "Cache-Control": FOREVER,
                             "X-Content-Type-Options": "nosniff"})


@router.get("/games/{game_id}/voices")
async def game_voices(game_id: str, request: Request, acc: Account) -> Response:
    """Which seats of a game speak in their own recorded voice (asked by a player
    of the game; a watcher's page says no calls): for each seat of a
    registered player with clips, ``{"seat", "version", "clips": {voice: {call: id}}}``
    (``version``: the newest clip id, changed by any new recording). ``on`` is false
    (and ``seats`` empty) when the room's host turned player voices off."""
    server = server_of(request)
    game = await server.repo.game(game_id[:40])
    if game is None:
        raise ApiError(404, "not_found", f"no game {game_id[:40]!r}", "no_game")
    people = {i: s["account_id"] for i, s in enumerate(game["seats"])
              if not s.get("bot") and s.get("account_id")}
    if acc["id"] not in people.values():
        raise ApiError(403, "forbidden", "only the players of a game hear its voices",
                       "not_seated")
    on = (game.get("options") or {}).get("voices", True) is not False
    seats: list[dict] = []
    if on:
        got = await server.clips.of_accounts(sorted(set(people.values())))
        for seat, account_id in people.items():
            rows = got.get(account_id) or []
            if not rows:
                continue
            by_voice: dict[str, dict[str, int]] = {}
            for c in rows:
                by_voice.setdefault(c["voice"], {})[c["call"]] = c["id"]
            seats.append({"seat": seat, "version": max(c["id"] for c in rows),
                          "clips": by_voice})
    from fastapi.responses import JSONResponse
    return JSONResponse({"game_id": game["id"], "on": on, "seats": seats},
                        headers={"Cache-Control": "private, no-cache"})


class Report(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field("", max_length=200)
    game_id: str | None = Field(None, max_length=40)


@router.post("/clips/{clip_id}/report", status_code=201)
async def report_clip(clip_id: int, body: Report, request: Request, acc: Account) -> dict:
    """Report a clip to the operators (``twmj admin voice-reports``); once per clip."""
    server = server_of(request)
    c = await server.clips.get(clip_id)
    if c is None:
        raise ApiError(404, "not_found", "this recording is gone (redone or removed)", "no_clip")
    server.limits.spend(server.clip_limit, acc["id"], "you are reporting too fast")
    new = await server.clips.report(c, acc["id"], body.reason.strip(), body.game_id)
    return {"reported": clip_id, "new": new}

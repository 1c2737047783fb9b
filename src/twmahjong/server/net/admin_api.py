"""The operator's HTTP door (``/admin/v1``): what only the running server can do.

Accounts, coins and bans live in the database, and ``twmj admin`` changes them
there; closing a table or a private room needs the process that runs it, so that
one thing comes here, behind the ``admin_token`` setting (no token set: the whole
API answers 404, as if it did not exist). In a cluster, send it to the worker
that owns the table (``twmj admin tables`` shows which game is where only as far
as the database knows; the Redis directory knows the owner).
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field

from ..play.lobby import LobbyError
from .http_api import ApiError, server_of

__all__ = ["router"]

router = APIRouter(prefix="/admin/v1", include_in_schema=False)


def _operator(request: Request, authorization: str | None) -> None:
    token = server_of(request).settings.admin_token
    if not token:
        raise ApiError(404, "not_found", "the admin API is off (set TWMJ_ADMIN_TOKEN)")
    given = (authorization or "")[7:].strip() if (authorization or "").startswith("Bearer ") else ""
    if not secrets.compare_digest(given.encode(), token.encode()):
        raise ApiError(403, "forbidden", "wrong admin token")


class CloseBody(BaseModel):
    reason: str = Field("closed by the operator", min_length=1, max_length=200)


@router.post("/close/{target}")
async def close(target: str, body: CloseBody, request: Request,
                authorization: Annotated[str | None, Header()] = None) -> dict:
    """Close a running table (by game id) or a private room (by its code)."""
    _operator(request, authorization)
    server = server_of(request)
    table = server.tables.get(target)
    if table is None:
        try:
            room = await server.rooms.get(target)
        except LobbyError:
            room = None
        if room is not None:
            table = server.tables.get(room.game_id)
            if table is None:                    # not started: no game to end yet
                await server.rooms.close(room.code)
                return {"closed": "room", "code": room.code}
    if table is None or not hasattr(table, "close"):
        raise ApiError(404, "not_found", f"no table or room {target!r} runs on this server")
    if table.finished:
        raise ApiError(409, "conflict", f"game {table.id} is already over")
    table.close(body.reason)
    return {"closed": "table", "game_id": table.id}

"""``GET /api/v1/online``: how many people are online now, for the lobby's 「N 人在線」.

The figure is the presence seam's count: accounts with at least one open
connection (in the lobby or at a table; bots and watchers-only pages without an
account are not people online). With ``--redis`` it is the whole cluster's — this
process's own connections at once, the other processes' as of their last heartbeat
(``RedisPresence.sync``). Each process holds the figure for ``online_ttl`` seconds,
so a lobby full of pages asking costs one count per process every few seconds, and
the answer says so to any cache on the way (``Cache-Control: max-age``).

    >>> OnlineCount(lambda: 3, ttl=5.0, clock=lambda: 0.0).get()
    3
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

__all__ = ["OnlineCount", "router"]

router = APIRouter(prefix="/api/v1")


class OnlineCount:
    """``count()`` held for ``ttl`` seconds of ``clock``."""

    def __init__(self, count: Callable[[], int], ttl: float,
                 clock: Callable[[], float] = time.monotonic):
        self.count, self.ttl, self.clock = count, ttl, clock
        self._value = 0
        self._at = -math.inf

    def get(self) -> int:
        now = self.clock()
        if now - self._at >= self.ttl:
            self._value, self._at = self.count(), now
        return self._value


@router.get("/online")
async def online(request: Request) -> JSONResponse:
    state = request.app.state
    holder = getattr(state, "online_count", None)
    if holder is None:
        server = state.server
        holder = state.online_count = OnlineCount(server.presence.count, server.settings.online_ttl)
    max_age = max(0, int(holder.ttl))
    return JSONResponse({"online": holder.get()},
                        headers={"Cache-Control": f"public, max-age={max_age}"})

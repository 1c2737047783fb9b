"""A deadline for each HTTP request to arrive whole (headers and body).

uvicorn has no such timeout: its keep-alive timer only runs between requests, so
a client that sends a request a byte at a time (slowloris) holds a connection —
and a file descriptor — for as long as it likes; 1,500 of them ran a server out
of descriptors, new players' connections were reset and nothing was logged. The
protocol class here is uvicorn's own (httptools) with a timer: armed when the
connection opens and when a request's first byte comes, cancelled once the
request is complete or becomes a WebSocket (whose own rules, in ``ws.py``, take
over). A request not complete in time is closed with a line in the log.

It also warns, at most once a minute, when the open connections near the
process's descriptor limit (``ulimit -n``), before the kernel starts refusing.
"""

from __future__ import annotations

import logging
import resource
import time
from typing import Any

__all__ = ["deadline_protocol"]

log = logging.getLogger("twmahjong.server.net.deadline")

NEAR = 0.8          # of the descriptor limit: say so
WARN_EVERY = 60.0   # s between two such warnings


def fd_limit() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def deadline_protocol(base: type, seconds: float) -> type:
    """``base`` (uvicorn's ``HttpToolsProtocol``) closing requests not whole in ``seconds``."""
    limit = fd_limit()
    said = [-WARN_EVERY]

    class RequestDeadline(base):  # type: ignore[misc, valid-type]
        _deadline: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()
            open_ = len(self.connections)
            if limit > 0 and open_ >= NEAR * limit and time.monotonic() - said[0] >= WARN_EVERY:
                said[0] = time.monotonic()
                log.warning("%d connections open, near this process's limit of %d file "
                            "descriptors (ulimit -n): new ones will soon be refused", open_,
                            limit)

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            who = "%s:%d" % self.client if self.client else "?"
            log.warning("closing a connection from %s: its request did not arrive whole "
                        "within %g s", who, seconds)
            self.transport.close()

        def on_message_begin(self) -> None:
            self._arm()
            super().on_message_begin()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return RequestDeadline

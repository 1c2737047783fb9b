"""The ASGI application: HTTP API, the ``/ws`` game channel, the browser client.

``create_app(settings)`` wires a ``Server`` into FastAPI; start-up runs the
migrations and resumes unfinished tables before the first request is served.
``uvicorn_config`` is how ``twmj serve`` (and the tests) serve it: X-Forwarded-For
is believed only from the proxies the settings name.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError

from ..errors import UserError
from .core import Server
from .metrics import CONTENT_TYPE as METRICS_TYPE
from .net.admin_api import router as admin_router
from .net.http_api import error_response, ops_only, router
from .net.ws import Connection
from .settings import Settings
from .social.api import router as social_router
from .social.clips_api import router as clips_router
from .store.db import UNAVAILABLE, said_database_away, unreachable

__all__ = ["WEB_DIR", "BodyLimit", "create_app", "uvicorn_config"]

log = logging.getLogger("twmahjong.server.app")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def create_app(settings: Settings | None = None, *, server: Server | None = None) -> FastAPI:
    server = server or Server(settings or Settings.from_env())

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(title="twmahjong", version="1", lifespan=lifespan,
                  summary="台灣麻將 game server: accounts, matching, rooms, records")
    app.state.server = server

    @app.exception_handler(UserError)
    async def _user_error(request: Request, exc: UserError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(DBAPIError)
    async def _database_away(request: Request, exc: Exception) -> JSONResponse:
        """The database away (a restart, a failover) is a 503 the client can retry, not
        a 500 with a traceback per request; any other database error stays a 500."""
        if not unreachable(exc):
            raise exc
        said_database_away(log, exc)
        return JSONResponse({"error": {"code": "unavailable", "message": UNAVAILABLE}},
                            status_code=503, headers={"Retry-After": "2"})

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "body"
        return JSONResponse({"error": {"code": "bad_request", "reason": "invalid_field",
                                       "field": where,
                                       "message": f"{where}: {err['msg']}"}}, status_code=422)

    app.include_router(router)
    app.include_router(social_router)
    app.include_router(clips_router)
    app.include_router(admin_router)
    app.add_middleware(BodyLimit, max_bytes=server.settings.max_body_bytes)

    @app.get("/metrics", include_in_schema=False, dependencies=[Depends(ops_only)])
    async def metrics() -> Response:
        """Prometheus' scrape (server/metrics.py)."""
        return Response(server.metrics.exposition(), media_type=METRICS_TYPE)

    @app.get("/livez", include_in_schema=False)
    async def livez() -> dict:
        """The process answers: its event loop is not stuck (a supervisor restarts it if not)."""
        return {"ok": True}

    @app.get("/readyz", include_in_schema=False, dependencies=[Depends(ops_only)])
    async def readyz() -> JSONResponse:
        """Worth sending players to: started, its database (and Redis) answer in time.
        A load balancer takes a worker that says 503 out of rotation."""
        problem = await _not_ready(server)
        if problem:
            return JSONResponse({"ok": False, "problem": problem}, status_code=503)
        return JSONResponse({"ok": True, "connections": server.connections})

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await Connection(websocket, server).run()

    if WEB_DIR.is_dir():
        app.mount("/", ClientFiles(directory=WEB_DIR, html=True), name="web")
    return app


class ClientFiles(StaticFiles):
    """The browser client, every file sent ``no-cache``: the browser asks again each time
    and gets a 304 by ETag when nothing changed. Without a Cache-Control a browser guesses
    a freshness from Last-Modified (a tenth of the file's age): after an upgrade it would
    keep using day-old modules beside new ones, and the service worker's network-first
    fetch goes through that same cache."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


async def _not_ready(server: Server) -> str | None:
    """Why the server should not get players now (None: it should)."""
    if not server.started:
        return "starting: migrating and resuming tables"
    if server.connections >= server.settings.max_connections:
        return "full: at max_connections"
    import sqlalchemy as sa
    try:
        async with asyncio.timeout(READY_TIMEOUT):
            async with server.engine.connect() as conn:
                await conn.execute(sa.text("SELECT 1"))
    except Exception as e:  # noqa: BLE001 - any failure is the answer
        return f"database: {type(e).__name__}"
    link = getattr(server.cluster, "link", None)
    if link is not None and link.r is not None:
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                await link.r.ping()
        except Exception as e:  # noqa: BLE001
            return f"redis: {type(e).__name__}"
    return None


READY_TIMEOUT = 2.0


class BodyLimit:
    """Refuse a request body over ``max_bytes`` with 413 before anything parses it.

    A declared Content-Length over the limit is answered before one byte of the
    body is read; a chunked body is counted as it streams and answered the moment
    it passes the limit — the rest of it is read and dropped (up to a bound) so
    that the answer reaches the client, the route sees a client that went away,
    and whatever it would have answered is dropped. Nothing holds more than the
    limit plus one chunk in memory."""

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        seen, answered, started = 0, False, False

        async def counted() -> dict:
            nonlocal seen, answered
            if answered:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes and not started:
                    answered = True
                    if message.get("more_body", False):
                        await self._drain(receive)
                    await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def guarded(message: dict) -> None:
            nonlocal started
            if not answered:
                started = True
                await send(message)

        await self.app(scope, counted, guarded)

    async def _drain(self, receive: Any) -> None:
        """Read and drop what is still coming, up to ``DRAIN_BYTES`` for at most
        ``DRAIN_SECONDS``, before answering (nginx's lingering close). Closing on
        unread bytes makes the kernel send a reset that can overtake the 413 — the
        client would then see a dropped connection instead of the answer."""
        async def drop() -> None:
            dropped = 0
            while dropped < self.DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                dropped += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return
        try:
            await asyncio.wait_for(drop(), self.DRAIN_SECONDS)
        except asyncio.TimeoutError:
            pass

    DRAIN_BYTES = 1 << 20
    DRAIN_SECONDS = 2.0

    async def _refuse(self, send: Any) -> None:
        body = JSONResponse({"error": {"code": "too_large", "message":
                                       f"the request body is over {self.max_bytes} bytes"}},
                            status_code=413, headers={"connection": "close"})
        await send({"type": "http.response.start", "status": 413,
                    "headers": body.raw_headers})
        await send({"type": "http.response.body", "body": body.body})


def uvicorn_config(app: Any, settings: Settings, **overrides: Any):
    """uvicorn's config for ``app``: proxy headers only from ``forwarded_allow_ips``.

    uvicorn by default believes X-Forwarded-For from 127.0.0.1, so anyone on the
    machine — or a client behind no proxy at all, through a local tunnel — could
    pick the address every per-client limit counts. Empty (the default): no proxy."""
    import uvicorn
    trusted = settings.forwarded_allow_ips.strip()
    options: dict[str, Any] = {
        "host": settings.host, "port": settings.port, "lifespan": "on",
        "log_level": settings.log_level, "ws_max_size": max(65536, 4 * settings.max_frame_bytes),
        "proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or "",
        "ws_per_message_deflate": settings.ws_compression,
        # the C event loop and HTTP parser when present (uvicorn[standard] brings them)
        "loop": _have("uvloop", "uvloop", "asyncio"), "http": _http(settings),
        # a connection idle between two requests; a request itself has request_timeout
        "timeout_keep_alive": 5,
    }
    if settings.log_format == "json":
        options["log_config"] = None       # uvicorn's loggers go to our JSON handler (logs.py)
        options["access_log"] = False
    return uvicorn.Config(app, **{**options, **overrides})


def _http(settings: Settings) -> Any:
    """httptools (uvicorn[standard]) with a deadline for each request to arrive whole
    (net/deadline.py); h11 as uvicorn has it when httptools is missing."""
    if _have("httptools", "httptools", "h11") == "h11":
        log.warning("httptools is not installed: requests have no deadline to arrive "
                    "(slowloris); install uvicorn[standard] or keep nginx in front")
        return "h11"
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    from .net.deadline import deadline_protocol
    return deadline_protocol(HttpToolsProtocol, settings.request_timeout)


def _have(module: str, yes: str, no: str) -> str:
    import importlib.util
    return yes if importlib.util.find_spec(module) is not None else no

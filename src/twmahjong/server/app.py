"""The ASGI application: HTTP API, the ``/ws`` game channel, the browser client.

``create_app(settings)`` wires a ``Server`` into FastAPI; start-up runs the
migrations and resumes unfinished tables before the first request is served.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..errors import UserError
from .core import Server
from .http_api import error_response, router
from .settings import Settings
from .ws import Connection

__all__ = ["WEB_DIR", "create_app"]

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

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"][1:]) or "body"
        return JSONResponse({"error": {"code": "bad_request",
                                       "message": f"{where}: {err['msg']}"}}, status_code=422)

    app.include_router(router)

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await Connection(websocket, server).run()

    if WEB_DIR.is_dir():
        app.mount("/", StaticFiles(directory=WEB_DIR, html=True), name="web")
    return app

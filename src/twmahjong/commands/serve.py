"""`twmj serve` — the game server (一鍵匹配, 真人對局) on its embedded defaults.

With no options it keeps everything in ``./data`` (SQLite in WAL mode) and
listens on 127.0.0.1:8000; ``--database postgresql+asyncpg://…`` moves storage
to PostgreSQL. ``--redis redis://…`` lets several processes (on one or more
machines, same database, same secret key) serve one game world: start one
``twmj serve --port N --redis URL`` per worker. Settings also come from env
``TWMJ_*`` (see server/settings.py).
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Annotated

import typer

from ..errors import UserError


def register(app: typer.Typer) -> None:
    app.command("serve", help="Run the game server: HTTP API, WebSocket games, browser client.")(
        serve_command)


def serve_command(
    host: Annotated[str | None, typer.Option(
        "--host", help="Address to listen on (default: 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(
        "--port", help="Port to listen on (default: 8000).")] = None,
    database: Annotated[str | None, typer.Option(
        "--database", metavar="URL",
        help="postgresql+asyncpg://user:pw@host/db (default: SQLite in the data folder).")] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", metavar="URL",
        help="redis://host:6379/0 shared by several server processes: presence, "
             "quick-match queue, table owners, events (default: one process).")] = None,
    data_dir: Annotated[Path | None, typer.Option(
        "--data-dir", help="Data folder (default: ./data, env TWMJ_DATA_DIR).")] = None,
    log_json: Annotated[bool, typer.Option(
        "--log-json", help="Log one JSON object a line (env TWMJ_LOG_FORMAT=json).")] = False,
    max_connections: Annotated[int | None, typer.Option(
        "--max-connections", help="WebSockets this process holds before it answers "
                                  "'server_full' (default 10000).")] = None,
) -> None:
    from ..server.app import create_app, uvicorn_config
    from ..server.logs import configure
    from ..server.settings import Settings

    settings = Settings.from_env(host=host, port=port, database_url=database, redis_url=redis,
                                 data_dir=data_dir, log_format="json" if log_json else None,
                                 max_connections=max_connections)
    configure(settings.log_format, settings.log_level)
    _check_port(settings.host, settings.port)
    _check_files(settings.max_connections)
    if settings.redis_url:
        _check_redis(settings.redis_url)
    app = create_app(settings)
    config = uvicorn_config(app, settings, loop=_loop())
    _Server(config, settings).run()


class _Server:
    """uvicorn's server, announcing the address once it really listens."""

    def __new__(cls, config, settings):
        import uvicorn

        class Announcing(uvicorn.Server):
            async def startup(self, sockets=None):
                await super().startup(sockets)
                if self.started:
                    _tune_gc()
                    where = settings.database_url or f"SQLite in {settings.data_dir.resolve()}"
                    if settings.redis_url:
                        where += f"; cluster via {settings.redis_url}"
                    print(f"twmj: serving on http://{_shown(settings.host)}:{settings.port}/ "
                          f"— open it in a browser (storage: {where}; Ctrl-C stops)",
                          flush=True)
        return Announcing(config)


# Young collections every 10,000 allocations instead of 700: a busy server makes
# and drops small dicts by the hundred per move, and the collector's pauses were
# the largest single item of issue 12's profile (twmj_gc_seconds on /metrics).
GC_THRESHOLDS = (10_000, 20, 20)


def _tune_gc() -> None:
    """Once started: what start-up built (code, profiles, tables) lives as long as
    the process, so it is frozen out of every later collection's walk."""
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _shown(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host


def _loop() -> str:
    try:
        import uvloop  # noqa: F401
        return "uvloop"
    except ImportError:
        return "asyncio"


def _check_port(host: str, port: int) -> None:
    """Say "port in use" in one line instead of a bind traceback."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as e:
            raise UserError(f"cannot listen on {host}:{port}: {e.strerror}; "
                            "choose another --port") from None


def _check_files(connections: int) -> None:
    """Raise the open-files limit as far as the system lets a process; if the
    connection cap still does not fit, say so now, in one line, rather than stall
    at the limit under load (each WebSocket is a file descriptor)."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + 256          # the database, Redis, logs, listening sockets
    if soft != resource.RLIM_INFINITY and soft < want:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        soft = new
    if soft != resource.RLIM_INFINITY and soft < want:
        raise UserError(f"--max-connections {connections} needs {want} open files but this "
                        f"process may have {soft} (ulimit -n); lower it or raise the limit")


def _check_redis(url: str) -> None:
    """Say "Redis unreachable" in one line before serving, instead of a failed start-up."""
    import redis
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3)
        client.ping()
        client.close()
    except ValueError as e:
        raise UserError(f"--redis {url!r}: {e} (expected redis://host:6379/0)") from None
    except redis.RedisError as e:
        raise UserError(f"cannot reach Redis at {url}: {str(e).rstrip('.')}; start redis-server "
                        "or fix --redis") from None

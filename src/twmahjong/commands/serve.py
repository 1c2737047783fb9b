"""`twmj serve` — the game server (一鍵匹配, 真人對局) on its embedded defaults.

With no options it keeps everything in ``./data`` (SQLite in WAL mode) and
listens on 127.0.0.1:8000; ``--database postgresql+asyncpg://…`` moves storage
to PostgreSQL. ``--redis redis://…`` lets several processes (on one or more
machines, same database, same secret key) serve one game world: start one
``twmj serve --port N --redis URL`` per worker. Settings also come from env
``TWMJ_*`` (see server/settings.py).
"""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..errors import UserError
from ..interrupt import held, leave
from ..server.launch import _loop, _Server


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
    try:
        with held():                  # a Ctrl-C meanwhile arrives at its end, or after exec
            from ..server.settings import Settings

            chosen = {"host": host, "port": port, "database_url": database, "redis_url": redis,
                      "data_dir": data_dir, "log_format": "json" if log_json else None,
                      "max_connections": max_connections}
            settings = Settings.from_env(**chosen)
            _check_port(settings.host, settings.port)
            _check_files(settings.max_connections)
            if settings.redis_url:
                _check_redis(settings.redis_url)
            if HAND_OFF:
                _hand_off(chosen)
            from ..server.app import create_app, uvicorn_config
            from ..server.logs import configure
            configure(settings.log_format, settings.log_level)
            app = create_app(settings)
            config = uvicorn_config(app, settings, loop=_loop())
        _Server(config, settings).run()
    except KeyboardInterrupt:         # Ctrl-C before it serves: one clean exit
        leave()


# Set by the real command line (``cli.main``), never by a test calling serve_command.
HAND_OFF = False


def _hand_off(chosen: dict) -> None:
    """Become the server process proper (``exec``, same PID): the command line's
    parser and its pretty printing (typer, rich, ~10 MiB) and the checks' Redis client
    stay behind, and the hand tables are mapped rather than copied — an idle worker's
    memory is what it serves with. Options travel as ``TWMJ_*`` variables,
    which ``Settings.from_env`` reads exactly as it read them here."""
    env = dict(os.environ)
    for name, value in chosen.items():
        if value is not None:
            env[f"TWMJ_{name.upper()}"] = str(value)
    env.setdefault("TWMJ_MAP_TABLES", "1")
    sys.stdout.flush()
    sys.stderr.flush()
    # Ctrl-C is held (serve_command): pending across the exec (the signal mask
    # survives it) until the server process lets it in
    os.execve(sys.executable, [sys.executable, "-m", "twmahjong.server.launch"], env)


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

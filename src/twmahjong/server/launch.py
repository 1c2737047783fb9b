"""The server process itself: settings from ``TWMJ_*``, the app under uvicorn.

``twmj serve`` checks its options and then ``exec``s ``python -m
twmahjong.server.launch``, so the process that serves imports neither the command
line's parser nor anything it used only to check (see ``commands/serve.py``). Run
directly, it is the same server on the environment's settings.
"""

from __future__ import annotations

import sys

__all__ = ["GC_THRESHOLDS", "main", "run"]


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



def run(settings) -> None:
    import asyncio

    from .app import create_app, uvicorn_config
    from .logs import configure
    from .store.db import wait_for_database
    configure(settings.log_format, settings.log_level)
    # the database answers before uvicorn starts: a start-up failure inside it is a
    # traceback and "Application startup failed", where an operator needs one line
    asyncio.run(wait_for_database(settings.effective_database_url, settings.database_wait))
    app = create_app(settings)
    _Server(uvicorn_config(app, settings, loop=_loop()), settings).run()


def main() -> None:
    from ..errors import UserError
    from .settings import Settings
    try:
        run(Settings.from_env())
    except UserError as e:
        print(f"twmj: error: {e}", file=sys.stderr, flush=True)
        sys.exit(2)


if __name__ == "__main__":
    main()

"""The server process itself: settings from ``TWMJ_*``, the app under uvicorn.

``twmj serve`` checks its options and then ``exec``s ``python -m
twmahjong.server.launch``, so the process that serves imports neither the command
line's parser nor anything it used only to check (see ``commands/serve.py``). Run
directly, it is the same server on the environment's settings.

Ctrl-C stops it without a traceback, whenever it comes: while serving, uvicorn
shuts down gracefully (a second Ctrl-C stops waiting for open connections) and the
process exits 0; before it serves (imports, the database check, building the app) it
exits 130 at once; during the ``exec`` from ``twmj serve`` the signal is held
(blocked, so pending) and delivered once this module's handler is in place.
"""

from __future__ import annotations

import sys

__all__ = ["GC_THRESHOLDS", "main", "run"]


class _Server:
    """uvicorn's server, announcing the address once it really listens."""

    def __new__(cls, config, settings):
        import contextlib
        import signal

        import uvicorn

        from ..interrupt import ignore_further, release

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
                    lan = _lan_address() if settings.host in ("0.0.0.0", "", "::") else None
                    if lan:
                        print(f"twmj: from another device on this network: "
                              f"http://{lan}:{settings.port}/", flush=True)

            @contextlib.contextmanager
            def capture_signals(self):
                ctrl_c = False
                with super().capture_signals():
                    release()       # uvicorn's handler is in: a held Ctrl-C stops it now
                    try:
                        yield
                    finally:
                        # uvicorn handles a Ctrl-C (a graceful shutdown), then raises it
                        # again for whoever runs it: that is this process, which is done
                        # with it; raised inside the event loop it would be a traceback
                        captured = getattr(self, "_captured_signals", None)
                        if captured and signal.SIGINT in captured:
                            ctrl_c = True
                            captured[:] = [s for s in captured if s != signal.SIGINT]
                if ctrl_c:          # stopped by Ctrl-C: another one while leaving is moot
                    ignore_further()

            async def serve(self, sockets=None):
                await super().serve(sockets)
                # uvicorn skips the application's own shutdown when stopped during its
                # start-up, or by a second Ctrl-C (which stops the wait for open
                # connections): run it anyway (tables handed over, database closed),
                # so no task is left to be cancelled with a traceback in the log
                lifespan = getattr(self, "lifespan", None)
                done = getattr(lifespan, "shutdown_event", None)
                if done is not None and not done.is_set() and not lifespan.error_occurred:
                    await lifespan.shutdown()
        return Announcing(config)


# Young collections every 10,000 allocations instead of 700: a busy server makes
# and drops small dicts by the hundred per move, and the collector's pauses were
# the largest single item of a profile of the server under load (twmj_gc_seconds on
# /metrics).
GC_THRESHOLDS = (10_000, 20, 20)


def _tune_gc() -> None:
    """Once started: what start-up built (code, profiles, tables) lives as long as
    the process, so it is frozen out of every later collection's walk."""
    import gc
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _lan_address() -> str | None:
    """This machine's address on its local network: the one a UDP socket would send
    from (connecting a UDP socket sends nothing); None without a network."""
    import socket
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if address.startswith("127.") else address


def _shown(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "") else f"[{host}]" if ":" in host else host


def _loop() -> str:
    try:
        import uvloop  # noqa: F401
        return "uvloop"
    except ImportError:
        return "asyncio"



def _load_driver(url: str) -> None:
    """Import the database driver now, while a Ctrl-C is held (twmahjong.interrupt)."""
    from sqlalchemy.engine import make_url
    make_url(url).get_dialect().import_dbapi()


def run(settings) -> None:
    import asyncio

    from .app import create_app, uvicorn_config
    from .logs import configure
    from .store.db import wait_for_database
    from ..interrupt import hold, release
    configure(settings.log_format, settings.log_level)
    # the database answers before uvicorn starts: a start-up failure inside it is a
    # traceback and "Application startup failed", where an operator needs one line.
    # Waiting for it may take a while, so Ctrl-C is let in (its driver loaded first)
    url = settings.effective_database_url
    _load_driver(url)
    release()
    try:
        asyncio.run(wait_for_database(url, settings.database_wait))
    finally:
        hold()
    app = create_app(settings)
    _Server(uvicorn_config(app, settings, loop=_loop()), settings).run()


def main() -> None:
    import signal

    from ..interrupt import hold, leave, on_ctrl_c
    signal.signal(signal.SIGINT, on_ctrl_c)
    hold()          # as `twmj serve` did before the exec: uvicorn (or run) lets it in
    try:
        from ..errors import UserError
        from .settings import Settings
        try:
            run(Settings.from_env())
        except UserError as e:
            print(f"twmj: error: {e}", file=sys.stderr, flush=True)
            sys.exit(2)
    except KeyboardInterrupt:
        leave()


if __name__ == "__main__":
    main()

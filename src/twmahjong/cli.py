"""`twmj` — the command line. Every command lives in a module of its own under
``twmahjong.commands``; this file wires them and turns user errors into one line."""

from __future__ import annotations

import sys

# A Ctrl-C while the command line loads is held until it has loaded (see
# twmahjong.interrupt: inside an import it can come out as a compiled extension's
# error). `_signal`, not `signal`, which would first import enum and functools.
import _signal

_MASK = getattr(_signal, "pthread_sigmask", None)          # none on Windows
_LOADING = _MASK(_signal.SIG_BLOCK, {_signal.SIGINT}) if _MASK else {_signal.SIGINT}
try:
    try:
        from .interrupt import held, leave

        import typer
        from rich.console import Console

        from .errors import UserError
    finally:
        if _MASK and _signal.SIGINT not in _LOADING:
            _MASK(_signal.SIG_UNBLOCK, {_signal.SIGINT})
except KeyboardInterrupt:
    leave()

app = typer.Typer(
    name="twmj",
    help="Taiwanese 16-tile mahjong (台灣麻將): score hands, list waits, play, serve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True, highlight=False)


@app.callback()
def _root() -> None:
    """Taiwanese 16-tile mahjong (台灣麻將): score hands, list waits, play, serve."""
    # A root callback keeps `twmj <command>` a group even when only one command is
    # registered (Typer would otherwise collapse the app into that command).


def _register(args: list[str] | None = None) -> None:
    """Import command modules; each registers itself on ``app``. When the command
    line ``args`` name a command, only its module is imported (start-up is most of a
    short `twmj` run); otherwise (``--help``, a typo, no ``args``) every one, so the
    help lists them all."""
    from .commands import MODULES, register_all
    named = next((a for a in args or [] if not a.startswith("-")), None)
    register_all(app, only=[named] if named in MODULES else None)


def main(argv: list[str] | None = None) -> None:
    try:
        with held():
            _register(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:       # Ctrl-C while the commands load
        leave()
    from .commands import serve
    # `twmj serve` from the real command line becomes the lean server process (exec);
    # a caller handing ``argv`` in (a test, a program) keeps its own process
    serve.HAND_OFF = argv is None
    try:
        app(args=argv, standalone_mode=True)
    except UserError as e:
        err_console.print(f"twmj: error: {e}", markup=False, soft_wrap=True)
        sys.exit(2)

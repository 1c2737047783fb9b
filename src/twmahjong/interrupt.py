"""Ctrl-C for the command line and the server: one clean exit, never a traceback.

The first Ctrl-C becomes ``KeyboardInterrupt`` where Python raises it; whoever
catches it calls ``leave()``. From then on SIGINT is ignored: a second Ctrl-C
while the process exits would otherwise land in the middle of the exit (a
traceback), or, once the interpreter has reset its handlers during its own
shutdown, kill the process by the signal. An ignored signal stays ignored through
that shutdown.

While modules load, a Ctrl-C is *held* (``held()``: SIGINT blocked, so it stays
pending) and arrives when loading ends: raised inside an import it can hit a
compiled extension's initialisation, which turns it into an ImportError or a
Rust panic with its own message, past any ``except KeyboardInterrupt``.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

__all__ = ["INTERRUPTED", "held", "ignore_further", "leave", "on_ctrl_c", "release"]

INTERRUPTED = 130
"""The exit status after a Ctrl-C: the shell's 128 + SIGINT."""


def ignore_further() -> None:
    """From now on a Ctrl-C changes nothing (the process is already leaving)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:          # not the main thread: nothing of ours to protect
        pass


def on_ctrl_c(signum: int, frame: object) -> None:
    """A SIGINT handler: the first Ctrl-C raises ``KeyboardInterrupt``, later ones are
    ignored (nothing runs between the two, unlike with Python's default handler)."""
    ignore_further()
    raise KeyboardInterrupt


def leave(code: int = INTERRUPTED) -> NoReturn:
    """Exit after a Ctrl-C, ignoring any further one."""
    ignore_further()
    sys.exit(code)


# Holding needs POSIX signal masks; without them (Windows) a Ctrl-C is never held.
_MASKS = hasattr(signal, "pthread_sigmask")


def hold() -> None:
    """Keep a Ctrl-C pending from now on (this thread; it survives ``exec``)."""
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def release() -> None:
    """Let Ctrl-C in again: one sent while held arrives now."""
    if _MASKS:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextmanager
def held() -> Iterator[None]:
    """A Ctrl-C during the block arrives at its end (as KeyboardInterrupt, with
    Python's handler or ``on_ctrl_c``)."""
    was = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if _MASKS else {signal.SIGINT}
    try:
        yield
    finally:
        if signal.SIGINT not in was:
            release()

"""A table's timers on virtual time, for tests that drive a ``Table`` step by step.

The table modules ask ``asyncio.get_running_loop().call_later`` for every clock and
claim window; with ``VirtualAsyncio(loop)`` in their place, the test fires those
timers itself, in order, and no test waits on the wall clock. The window-timing and
update-frame tests use it, and bench/updates_ab.py (whose sides import it from this
folder, whichever source tree they run).
"""

from __future__ import annotations

import asyncio
import heapq


class VirtualLoop:
    """``call_later`` on virtual time: the driver fires the timers in order."""

    def __init__(self):
        self.now = 0.0
        self.timers: list = []
        self.n = 0

    def call_later(self, delay, fn, *args):
        self.n += 1
        heapq.heappush(self.timers, (self.now + delay, self.n, fn, args))


class VirtualAsyncio:
    """The table modules' ``asyncio`` with the virtual loop as the running loop."""

    def __init__(self, loop):
        self._loop = loop

    def get_running_loop(self):
        return self._loop

    def __getattr__(self, name):
        return getattr(asyncio, name)

"""The terminal's monkey, short: random keys at human and burst speed, offline and
online (a real server with bots), at 80×24 — no stall, no exception, no blank screen.
``bench/monkey_tui.py --minutes 20`` is the long run; a failure prints its seed."""

from __future__ import annotations

import pytest

from bench.monkey_tui import monkey

pytestmark = pytest.mark.asyncio


@pytest.mark.parametrize("mode", ["offline", "online"])
async def test_random_keys_never_stall_raise_or_blank_the_table(mode):
    seed = 20261206
    stats = await monkey(seed, 20.0, modes=(mode,), speeds=("human", "burst"))
    print(f"monkey seed {seed} {mode}: {stats}")
    assert not stats.stalls and not stats.errors and not stats.blanks, stats
    assert stats.keys > 50 and stats.moves > 0

"""bench/load.py measures honestly: a small run of it against the real app.

Not a speed test (nothing here has a time budget): it checks the measurement. A
normal server answers every action the bench sent; a server made slow on purpose
(every stored move held back) shows up as latency at least that delay, and, when
the delay is past the bench's timeout, as counted failures — never as actions
quietly left out.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path

import pytest
from server_helpers import Live

from twmahjong.server.settings import Settings

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load.py"
_spec = importlib.util.spec_from_file_location("twmj_bench_load", BENCH)
load = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = load          # its dataclasses look their module up
_spec.loader.exec_module(load)

# fast people at tables of four humans (the 2 left over get bots after 1 s)
PLAN = dict(clients=50, idle=10, seconds=10.0, think=(0.2, 0.6), seed=7, signup_parallel=16)
SETTINGS = dict(secret_key="load-test", bot_fill_wait=1.0, bot_delay=0.0, hand_pause=0.2,
                claim_window=0.05, turn_base=60.0, turn_bank=60.0, pause_after=3600.0,
                auth_rate=10_000, auth_burst=10_000, signup_burst=100_000,
                signup_net_burst=100_000, signup_global_burst=100_000)


def _slowed(live: Live, delay: float) -> None:
    """Every stored move waits ``delay`` s more before the table may tell anyone."""
    repo = live.server.repo
    stored = repo.stored

    async def slow(ticket: int) -> None:
        await asyncio.sleep(delay)
        await stored(ticket)

    repo.stored = slow


def _run(tmp_path, delay: float | None, **plan) -> dict:
    live = Live(Settings(data_dir=tmp_path / "data", **SETTINGS)).start()
    try:
        if delay is not None:
            _slowed(live, delay)
        p = load.Plan(**{**PLAN, **plan})
        return load.measure(p, [live.base], pids=[])
    finally:
        live.stop()


def test_a_normal_server_answers_every_action(tmp_path):
    s = _run(tmp_path, None)
    a = s["actions"]
    assert s["seated"] == 50 and s["seat_failed"] == 0
    assert s["idle_connected"] == 10
    assert a["sent"] > 100                  # 12+ tables really played
    assert a["acked"] == a["sent"]
    assert a["timed_out"] == a["lost"] == a["refused"] == 0
    assert s["latency_ms"]["n"] == a["acked"]


def test_a_slow_server_shows_as_latency(tmp_path):
    s = _run(tmp_path, 0.5, timeout=5.0)
    a = s["actions"]
    assert a["sent"] > 0 and a["acked"] + a["timed_out"] + a["lost"] + a["refused"] == a["sent"]
    # each answer waits for a stored move, and every store waits 0.5 s
    assert s["latency_ms"]["p50"] >= 500


def test_a_server_slower_than_the_timeout_shows_as_failures(tmp_path):
    s = _run(tmp_path, 3.0, timeout=1.0, clients=16, idle=0)
    a = s["actions"]
    assert a["sent"] > 0
    assert a["timed_out"] >= a["sent"] // 2       # counted, not dropped
    assert a["acked"] + a["timed_out"] + a["lost"] + a["refused"] == a["sent"]
    assert a["acked_ratio"] < 0.5


@pytest.mark.parametrize("values,p,want", [([5.0], 99, 5.0), ([1, 2, 3, 4], 50, 2),
                                           (list(range(1, 101)), 99, 99), ([], 50, None)])
def test_percentile_is_nearest_rank(values, p, want):
    got = load.pct(values, p)
    assert (got != got) if want is None else got == want

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
    # own-turn moves and claim-window answers are timed apart, and every answer is one
    assert s["latency_ms"]["n"] + s["pass_latency_ms"]["n"] == a["acked"]
    assert s["latency_ms"]["n"] > 0 and s["pass_latency_ms"]["n"] > 0
    # the client process timed itself: its loop lag and CPU are reported
    (me,) = s["client_processes"]
    assert me["lag_ms"]["n"] > 0 and me["cpu_percent"] > 0


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


def _proc(lag_p99: float, index: int = 0) -> dict:
    return {"index": index, "pid": 1, "cpu_percent": 50.0,
            "lag_ms": {"p50": 1.0, "p99": lag_p99, "max": lag_p99, "n": 100}}


def test_a_p99_the_client_made_is_not_printed():
    # 30 ms of the client's own lag in a p99 of 100 ms is more than the quarter allowed
    plan, tally = load.Plan(), load.Tally(latencies=[10.0] * 98 + [100.0] * 2, acked=100, sent=100,
                                          play_seconds=10.0, procs=[_proc(2.0), _proc(30.0, 1)])
    s = load.summary(plan, tally, [], 0.0)
    assert s["latency_ms"]["p99"] is None and s["latency_ms"]["p99_measured"] == 100.0
    assert s["client_bound"].startswith("client process 1: loop lag p99 30.0 ms = 30%")
    # within the quarter, the p99 stands
    tally.procs = [_proc(2.0), _proc(25.0, 1)]
    s = load.summary(plan, tally, [], 0.0)
    assert s["latency_ms"]["p99"] == 100.0 and s["client_bound"] is None


def test_claim_answers_are_told_from_own_moves():
    assert load.claim_window({"legal": [{"type": "pass"}, {"type": "pong"}]})
    assert not load.claim_window({"legal": [{"type": "discard", "tile": "1m"}]})


def test_a_route_is_found_from_the_socket_s_url():
    assert load.route_url("ws://127.0.0.1:8080/ws", "/ws?w=2") == "ws://127.0.0.1:8080/ws?w=2"
    assert load.route_url("ws://127.0.0.1:8080/ws", "ws://10.0.0.2:8002/ws") == \
        "ws://10.0.0.2:8002/ws"

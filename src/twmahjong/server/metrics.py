"""What a running server tells its operator: ``GET /metrics`` in Prometheus format.

One registry per ``Server`` (tests run several in one process). Counters and
histograms are fed where things happen — a table applies a move, the writer
commits a batch, a connection is refused or dropped; the rest (connections,
tables by state, queue lengths) is read from the server when Prometheus scrapes,
so nothing on the game path keeps a gauge up to date.

    twmj_action_broadcast_seconds   a player's action received -> every seat told
    twmj_db_commit_seconds          one group commit of game moves (moves wait for it)
    twmj_send_queue_messages{stat}  unsent messages over connections (sum, max)
    twmj_liveness_mends_total       tables mended by the liveness check (always 0)
"""

from __future__ import annotations

import gc
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
# seconds: the target is p99 <= 100 ms, so the buckets are fine around it
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


# the garbage collector's pauses, per generation: process-wide, so counted once
_gc_seconds = [0.0, 0.0, 0.0]
_gc_started = [0.0]


def _on_gc(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_started[0] = time.perf_counter()
    else:
        _gc_seconds[info["generation"]] += time.perf_counter() - _gc_started[0]


if _on_gc not in gc.callbacks:
    gc.callbacks.append(_on_gc)


class Metrics:
    def __init__(self, server: Any):
        self.registry = r = CollectorRegistry(auto_describe=True)
        self.actions = Counter("twmj_actions", "Decisions applied at this process's tables "
                               "(players', bots', timeouts')", registry=r)
        self.action_latency = Histogram(
            "twmj_action_broadcast_seconds", "A player's action, from its arrival at the "
            "table to the updates that tell every seat (stored first)", buckets=_LATENCY,
            registry=r)
        self.commit = Histogram("twmj_db_commit_seconds", "One group commit of game moves",
                                buckets=_LATENCY, registry=r)
        self.commit_rows = Histogram("twmj_db_commit_rows", "Moves stored per group commit",
                                     buckets=(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000),
                                     registry=r)
        self.errors = Counter("twmj_errors", "Errors answered to clients, by code", ["code"],
                              registry=r)
        self.refused = Counter("twmj_connections_refused", "WebSockets refused at the "
                               "max_connections cap", registry=r)
        self.slow_dropped = Counter("twmj_slow_clients_dropped", "Connections dropped "
                                    "because they did not read their messages", registry=r)
        self.liveness_mends = Counter(
            "twmj_liveness_mends", "Tables found with a pending decision nothing would "
            "answer, and mended by handing it to the seat's bot (play/liveness.py); "
            "0 on a healthy server", registry=r)
        self.tables_ended = Counter(
            "twmj_tables_ended", "Unfinished tables ended early, by why (forfeited: "
            "the last person left by 認輸; abandoned: nobody came back)", ["why"],
            registry=r)
        r.register(_Live(server))

    def committed(self, seconds: float, rows: int) -> None:
        """The repository's hook: one batch of moves is durable."""
        self.commit.observe(seconds)
        self.commit_rows.observe(rows)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


class _Live:
    """Values read from the server at scrape time."""

    def __init__(self, server: Any):
        self.server = server

    def describe(self) -> list:
        return []

    def collect(self):
        sv = self.server
        yield _gauge("twmj_connections", "Open WebSockets at this process", sv.connections)
        tables = GaugeMetricFamily("twmj_tables", "Tables this process runs, by state",
                                   labels=["state"])
        states = {"playing": 0, "between_hands": 0, "paused": 0, "ended": 0, "aborted": 0}
        inbox_sum = inbox_max = 0
        for t in sv.tables.all():
            state = getattr(t, "state", "remote")
            states[state] = states.get(state, 0) + 1
            inbox = getattr(t, "inbox", None)
            n = inbox.qsize() if inbox is not None else 0
            inbox_sum += n
            inbox_max = max(inbox_max, n)
        for state, n in states.items():
            tables.add_metric([state], n)
        yield tables
        yield _stats("twmj_table_inbox_items", "Items waiting in table inboxes",
                     inbox_sum, inbox_max)
        sizes = [c.outbox.qsize() for c in list(sv.conns)]
        yield _stats("twmj_send_queue_messages", "Messages waiting to be sent, over "
                     "connections", sum(sizes), max(sizes, default=0))
        yield _gauge("twmj_db_queue_rows", "Moves waiting for the next group commit",
                     len(getattr(sv.repo, "_queue", ())))
        yield _gauge("twmj_match_queue_players", "Players waiting in quick match",
                     sv.queue.waiting())
        yield _gauge("twmj_tables_aborted", "Tables ended by an error since start",
                     sv.aborted_tables)
        pauses = CounterMetricFamily("twmj_gc_seconds", "Time in the garbage collector "
                                     "(the whole process), by generation",
                                     labels=["generation"])
        for generation, seconds in enumerate(_gc_seconds):
            pauses.add_metric([str(generation)], seconds)
        yield pauses


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, value=value)


def _stats(name: str, doc: str, total: float, most: float) -> GaugeMetricFamily:
    g = GaugeMetricFamily(name, doc, labels=["stat"])
    g.add_metric(["sum"], total)
    g.add_metric(["max"], most)
    return g

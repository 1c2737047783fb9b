"""The lobby's 「N 人在線」: ``GET /api/v1/online`` counts the accounts with an open
connection — one account's two tabs once — across the processes of a cluster, and
holds the figure for ``online_ttl`` seconds."""

from __future__ import annotations

import asyncio
import time

import pytest
from server_helpers import HANG, Client
from test_redis_cluster import cluster  # noqa: F401  (the fixture)

from twmahjong.server.net.online import OnlineCount


def online(live) -> int:
    r = live.http("GET", "/api/v1/online")
    assert r.status_code == 200, r.text
    return r.json()["online"]


def until(fn, want, what: str):
    """Ask again until ``fn()`` is ``want`` (Redis carries presence at each heartbeat)."""
    end = time.monotonic() + HANG
    while (got := fn()) != want:
        assert time.monotonic() < end, f"{what}: {got}, never {want}"
        time.sleep(0.05)


# presence is no database's business: one database is enough
ONE_DB = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


@ONE_DB
def test_the_figure_counts_accounts_with_a_connection_and_is_cached(make_live):
    live = make_live(online_ttl=0)
    assert online(live) == 0
    r = live.http("GET", "/api/v1/online")
    assert r.headers["cache-control"] == "public, max-age=0"
    a, b = live.guest(), live.guest()

    async def go():
        c1 = await Client.open(live, a)
        assert online(live) == 1
        c2 = await Client.open(live, a)             # the same player's second tab
        assert online(live) == 1
        c3 = await Client.open(live, b)
        assert online(live) == 2
        anon = await Client.open(live)              # a page with no account said hello
        assert online(live) == 2
        for c in (c1, c2, anon):
            await c.close()
        until(lambda: online(live), 1, "after two tabs and a stranger left")
        await c3.close()
        until(lambda: online(live), 0, "after everyone left")
    asyncio.run(go())


def test_the_count_is_held_for_its_ttl():
    now, n = [0.0], [3]
    held = OnlineCount(lambda: n[0], ttl=5.0, clock=lambda: now[0])
    assert held.get() == 3
    n[0], now[0] = 7, 4.9
    assert held.get() == 3          # held: one count per ttl however many pages ask
    now[0] = 5.0
    assert held.get() == 7


@ONE_DB
def test_every_process_of_a_cluster_counts_the_whole_cluster(cluster):  # noqa: F811
    p1, p2 = cluster(online_ttl=0), cluster(online_ttl=0)
    a, b, c = p1.guest(), p1.guest(), p2.guest()

    async def go():
        on1 = [await Client.open(p1, a), await Client.open(p1, b)]
        on2 = [await Client.open(p2, c), await Client.open(p2, a)]     # a on both
        for live in (p1, p2):
            until(lambda live=live: online(live), 3, "three accounts over two processes")
        for cl in on1:
            await cl.close()
        # a is still connected to process 2
        for live in (p1, p2):
            until(lambda live=live: online(live), 2, "b gone, a still on process 2")
        for cl in on2:
            await cl.close()
    asyncio.run(go())

"""When a worker or Redis fails, every player keeps their table.

Real processes: two ``twmj serve`` workers on the test PostgreSQL and a
redis-server of the test's own (so restarting it disturbs nobody else), four
guests playing over WebSockets, two on each worker. A fault is applied right
after a player receives its own discard: kill -9 or SIGTERM of the worker that
owns the table, or ``SHUTDOWN NOSAVE`` and a restart of Redis. Players whose
worker is gone reconnect with their ticket to the other one. Then: every player
got a snapshot after the fault, every discard anyone saw is stored in order, the
game ended for all four, nothing was applied twice, the ledger balances.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import time

import httpx
import pytest
from server_helpers import HANG

from twmahjong.drill import (Player, RedisServer, Worker, audit, bot_policy, drop_postgres,
                             fresh_postgres)

PG = os.environ.get("TWMJ_TEST_POSTGRES")
LEASE = 3.0

pytestmark = pytest.mark.skipif(not PG, reason="the cluster drills need TWMJ_TEST_POSTGRES")


def _db(tag: str) -> str:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return fresh_postgres(PG, f"twmj_test_{os.environ.get('TWMJ_TEST_TAG', '')}{worker}_{tag}")


@pytest.fixture
def drill(tmp_path):
    """A redis-server of our own; ``workers(n, db)`` starts n workers on it."""
    redis = RedisServer(log=tmp_path / "redis.log").start()
    started: list[Worker] = []

    def workers(n: int, db: str, **env) -> list[Worker]:
        ws = [Worker(db, tmp_path / "data", redis_url=redis.url, lease=LEASE,
                     log=tmp_path / f"worker{len(started) + i}.log", **env) for i in range(n)]
        started.extend(ws)
        for w in ws:
            w.spawn()
        return [w.wait_ready() for w in ws]

    yield redis, workers
    for w in started:
        w.kill9()
    redis.stop()


async def _play_four(workers: list[Worker], fault) -> tuple[list[Player], float]:
    """Four guests (two on each worker) play one game; ``fault(player)`` runs once,
    right after a player on the owner's side sees its own discard. Returns the
    players and the moment the fault began."""
    a, b = workers
    live = lambda: [w.port for w in workers if w.alive]  # noqa: E731
    players = [Player(f"p{i}", w.guest(), live, rng=random.Random(i),
                      policy=bot_policy("speedster", i)) for i, w in enumerate((a, a, b, b))]
    fired = asyncio.Event()
    when: list[float] = []

    async def hook(p: Player, m: dict) -> None:
        if fired.is_set() or m.get("type") != "update" or p.hand < 1:
            return
        if any(ev.get("type") == "discard" and ev.get("seat") == p.seat
               for ev in m.get("events", [])):
            fired.set()
            # from the moment the fault begins: a SIGTERM'd worker hands its tables over
            # (and a restarted Redis resyncs) before the fault's call has returned
            when.append(time.monotonic())
            await asyncio.to_thread(fault, p)

    for p in players:
        p.on_message = hook
    starts = [a.port, a.port, b.port, b.port]
    done = await asyncio.wait_for(
        asyncio.gather(*(p.play(port) for p, port in zip(players, starts))), HANG)
    return list(done), when[0]


def _check(players: list[Player], when: float, db: str,
           moved: list[Player] | None = None) -> None:
    """``moved``: the players whose table moved (all, unless told)."""
    for p in players:
        assert p.end is not None, f"{p.name} never saw its game end"
        assert any(t > when for t in p.times), f"{p.name} heard nothing after the fault"
    for p in players if moved is None else moved:
        assert any(t > when for t in p.snapshots), f"{p.name} got no snapshot after the fault"
    assert len({p.game_id for p in players}) == 1
    found = asyncio.run(audit(db, players))
    assert found["lost"] == 0, found
    assert found["twice"] == 0, found
    assert found["unreplayable"] == 0, found
    assert found["ledger_off"] == 0 and found["hand_sum_off"] == 0, found
    assert found["finished"] == 1, found


def _owner_of(workers: list[Worker], game_id: str, redis: RedisServer) -> Worker:
    """The worker whose process id holds the game's lease."""
    import redis as sync_redis
    r = sync_redis.Redis.from_url(redis.url, decode_responses=True)
    deadline = time.monotonic() + HANG
    while True:
        owner = r.get(f"twmj:owner:{game_id}")
        for w in workers:
            if owner and w.alive and w.health().get("process") == owner:
                return w
        assert time.monotonic() < deadline, "no owner found"
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["kill9", "sigterm"])
def test_owner_dies_after_a_players_own_discard_and_every_player_keeps_the_table(drill, how):
    redis, start = drill
    db = _db("own")
    workers = start(2, db, bot_fill_wait=60)

    def fault(p: Player) -> None:
        owner = _owner_of(workers, p.game_id, redis)
        owner.kill9() if how == "kill9" else owner.term()

    players, when = asyncio.run(_play_four(workers, fault))
    _check(players, when, db)


def test_a_redis_restart_mid_hand_keeps_one_table_for_all_four(drill):
    redis, start = drill
    db = _db("redis")
    workers = start(2, db, bot_fill_wait=60)

    relayed: list[int] = []

    def fault(p: Player) -> None:
        import redis as sync_redis
        owner = _owner_of(workers, p.game_id, redis)
        relayed.append(next(w.port for w in workers if w is not owner))
        redis.restart()
        # presence comes back by itself while they play: each worker rewrites its own
        r = sync_redis.Redis.from_url(redis.url, decode_responses=True)
        deadline = time.monotonic() + HANG
        while len(list(r.scan_iter("twmj:presence:*"))) < 2:
            assert time.monotonic() < deadline, "presence never came back"
            time.sleep(0.05)

    players, when = asyncio.run(_play_four(workers, fault))
    # the seats relayed between the workers are seated again (a snapshot each); the
    # owner's own connections just go on
    moved = [p for p in players if p.connections == 1 and p.port == relayed[0]]
    assert len(moved) == 2
    _check(players, when, db, moved=moved)
    assert all(w.alive for w in workers)


def test_a_room_opened_on_one_worker_is_found_and_joined_on_another(drill):
    _, start = drill
    a, b = start(2, _db("rooms"))
    host, guest = a.guest(), b.guest()
    opened = httpx.post(f"{a.base}/api/v1/rooms", json={"stake": "low", "rounds": 1},
                        headers={"Authorization": f"Bearer {host}"}, timeout=30)
    assert opened.status_code == 201, opened.text
    code = opened.json()["code"]
    seen = httpx.get(f"{b.base}/api/v1/rooms/{code}",
                     headers={"Authorization": f"Bearer {guest}"}, timeout=30)
    assert seen.status_code == 200, seen.text
    joined = httpx.post(f"{b.base}/api/v1/rooms/{code}/join",
                        headers={"Authorization": f"Bearer {guest}"}, timeout=30)
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 1
    again = httpx.get(f"{a.base}/api/v1/rooms/{code}",
                      headers={"Authorization": f"Bearer {host}"}, timeout=30).json()
    assert again["room"]["players"][:2] == [opened.json()["room"]["players"][0],
                                            joined.json()["room"]["players"][1]]
    started = httpx.post(f"{a.base}/api/v1/rooms/{code}/start",
                         headers={"Authorization": f"Bearer {host}"}, timeout=30)
    assert started.status_code == 200, started.text
    assert httpx.get(f"{b.base}/api/v1/rooms/{code}", headers={
        "Authorization": f"Bearer {guest}"}, timeout=30).json()["room"]["started"] is True


def test_two_workers_started_at_once_on_an_empty_database_both_come_up(drill):
    _, start = drill
    db = _db("migrate_" + secrets.token_hex(3))
    a, b = start(2, db)          # spawned together, then waited for
    assert a.alive and b.alive
    a.kill9()
    b.kill9()
    drop_postgres(db)            # a database of its own each run: leave none behind


def test_health_counts_the_queue_of_the_whole_cluster(drill):
    _, start = drill
    a, b = start(2, _db("health"), bot_fill_wait=60)
    live = lambda: [a.port, b.port]  # noqa: E731

    async def go() -> list[Player]:
        ps = [Player(f"q{i}", w.guest(), live) for i, w in enumerate((a, b, b, b))]
        first = asyncio.Event()
        t0 = asyncio.create_task(ps[0].play(a.port, matched=None))
        deadline = time.monotonic() + HANG      # a hang guard: fail, never wait for ever
        while a.health()["queued"] != 1:        # waits for the first to be queued
            assert time.monotonic() < deadline, "the first player was never queued"
            await asyncio.sleep(0.05)
        rest = [asyncio.create_task(p.play(b.port, matched=first)) for p in ps[1:]]
        while any(p.game_id is None for p in ps):
            assert time.monotonic() < deadline, [(p.name, p.kinds[:6]) for p in ps]
            for t in (t0, *rest):               # a player that stopped says why at once
                if t.done() and t.exception() is not None:
                    raise t.exception()
            await asyncio.sleep(0.05)
        queued = (a.health()["queued"], b.health()["queued"])
        for t in (t0, *rest):
            t.cancel()
        await asyncio.gather(t0, *rest, return_exceptions=True)
        return queued
    assert asyncio.run(go()) == (0, 0)


def test_a_player_queued_when_redis_restarts_is_asked_to_queue_again(drill):
    """A restarted Redis has no queues: a player who was waiting for quick match must
    hear so (``requeue``) and be able to queue again, instead of waiting for ever (the
    chaos run's stranded player in the queue)."""
    import json

    from websockets.asyncio.client import connect
    redis, start = drill
    (a,) = start(1, _db("queue"), bot_fill_wait=600)

    async def go() -> tuple[dict, dict]:
        async with connect(f"ws://127.0.0.1:{a.port}/ws") as ws:
            async def until(kind: str) -> dict:
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), HANG))
                    if m["type"] == kind:
                        return m
            await ws.send(json.dumps({"type": "hello", "token": a.guest()}))
            await ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
            await until("queued")
            while a.health()["queued"] != 1:      # its entry reached Redis
                await asyncio.sleep(0.05)
            await asyncio.to_thread(redis.restart)
            told = await until("error")
            await ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
            again = await until("queued")
            while a.health()["queued"] != 1:      # and it waits in the new Redis
                await asyncio.sleep(0.05)
            return told, again
    told, again = asyncio.run(go())
    assert told["code"] == "requeue", told
    assert again["type"] == "queued"


def test_players_whose_queue_entries_the_restarted_redis_has_are_matched_once(drill):
    """The chaos run's stranded clients (bench/chaos.py): after a Redis restart the
    worker asked every player it had waiting to queue again — also those whose entries
    were in the new Redis (a push retried onto it) or whose group it was seating. Those
    groups still formed, so players were matched twice, and the first table waited out
    the clock of each seat whose player had gone to the second. Here the worker is
    frozen while Redis restarts and the three waiting entries are put into the new
    Redis, as a retried push puts them; once it notices the restart nobody is asked to
    queue again, and a fourth player makes a table with the three."""
    import contextlib
    import json
    import signal

    import redis as sync_redis
    from websockets.asyncio.client import connect
    redis_server, start = drill
    (a,) = start(1, _db("requeue"), bot_fill_wait=600)
    r = sync_redis.Redis.from_url(redis_server.url)

    async def go() -> list[dict]:
        async with contextlib.AsyncExitStack() as stack:
            socks = [await stack.enter_async_context(connect(f"ws://127.0.0.1:{a.port}/ws"))
                     for _ in range(4)]

            async def until(ws, kind: str) -> dict:
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), HANG))
                    assert m.get("code") != "requeue", "asked to queue again: it was queued"
                    if m["type"] == kind:
                        return m

            async def queue(ws) -> None:
                await ws.send(json.dumps({"type": "hello", "token": a.guest()}))
                await ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
                await until(ws, "queued")
            for ws in socks[:3]:
                await queue(ws)
            while a.health()["queued"] != 3:            # the three entries reached Redis
                await asyncio.sleep(0.05)
            kept = {k: r.dump(k) for k in r.scan_iter("twmj:q*")}
            a.proc.send_signal(signal.SIGSTOP)
            try:
                await asyncio.to_thread(redis_server.restart)
                for k, v in kept.items():               # retried onto the new Redis
                    r.restore(k, 0, v)
            finally:
                a.proc.send_signal(signal.SIGCONT)
            # the worker notices the restart (its heartbeat asks the queue, then
            # rewrites its presence)
            while not list(r.scan_iter("twmj:presence:*")):
                await asyncio.sleep(0.05)
            await queue(socks[3])
            return [await until(ws, "matched") for ws in socks]
    matched = asyncio.run(go())
    assert len({m["game_id"] for m in matched}) == 1
    assert sorted(m["seat"] for m in matched) == [0, 1, 2, 3]

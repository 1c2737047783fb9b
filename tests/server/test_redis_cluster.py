"""Two server processes behind one Redis and one database: one game world.

Each "process" is the real app under its own uvicorn on its own loopback port,
with its own event loop, engine, Redis connection and process id — sharing only
the database, the secret key and Redis, exactly as two ``twmj serve --redis``
workers do. Players connected to different processes meet at one table; a table
whose process stops is adopted by the other and resumed from the stored actions.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from redis_helpers import fresh_prefix, need_redis, purge
from server_helpers import FAST, HANG, Client, Live, simple_policy

from twmahjong.server.settings import Settings
from twmahjong.server.store.db import create_engine
from twmahjong.server.store.repository import SqlRepository


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def cluster(tmp_path, db_url):
    """Start server processes on one database and one Redis key space."""
    url, prefix = need_redis(), fresh_prefix()
    started: list[Live] = []

    def factory(port: int = 0, **over) -> Live:
        settings = Settings(data_dir=tmp_path / "data", database_url=db_url,
                            secret_key="test-secret", redis_url=url, redis_prefix=prefix,
                            cluster_lease=5.0, **{**FAST, **over})
        live = Live(settings)
        live.port = port
        live.start()
        started.append(live)
        return live

    yield factory
    for live in started:
        live.stop()
    purge(url, prefix)


def owner_of(lives: list[Live], game_id: str) -> list[Live]:
    return [lv for lv in lives if lv.server.tables.get(game_id) is not None]


def assert_own_view_only(client: Client) -> None:
    """Relayed or not, a seat sees its own tiles and '?' for the others' hidden ones."""
    for m in client.seen:
        for ev in m.get("events", []):
            if ev["type"] == "deal":
                assert [h == "?" for h in ev["hands"]] == [i != client.seat for i in range(4)]
            if ev["type"] == "draw" and ev["seat"] != client.seat:
                assert ev["tile"] == "?"
        obs = m.get("observation")
        if obs:
            assert obs["seat"] == client.seat


async def stored(db_url, fn):
    engine = create_engine(db_url)
    try:
        return await fn(SqlRepository(engine))
    finally:
        await engine.dispose()


def test_players_on_two_processes_play_one_table_to_settlement(cluster, db_url):
    p1 = cluster(bot_fill_wait=30.0)      # only four humans may start this table
    p2 = cluster(bot_fill_wait=30.0)

    async def go():
        clients = [await Client.open(lv, lv.guest(), f"c{i}")
                   for i, lv in enumerate([p1, p1, p2, p2])]
        for c in clients:
            await c.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        for c in clients:
            await c.expect("matched")
            await c.expect("snapshot")
        ends = await asyncio.gather(*(c.play_hand(timeout=HANG) for c in clients))
        for c in clients:
            await c.close()
        return clients, ends
    clients, ends = run(go())
    game_ids = {c.game_id for c in clients}
    assert len(game_ids) == 1
    (gid,) = game_ids
    assert sorted(c.seat for c in clients) == [0, 1, 2, 3]
    assert len(owner_of([p1, p2], gid)) <= 1          # never run twice (it may be over)
    first = ends[0]
    for end in ends:
        assert end["hand_no"] == 1 and end["result"] == first["result"]
        assert end["coins"] == first["coins"]
    net, fee = first["result"]["net"], first["result"].get("fee", 0)
    assert sum(net) + fee == 0                        # 錢不會憑空出現
    assert first["coins"] == [10_000 + n for n in net]   # four humans, nobody capped
    for c in clients:
        assert_own_view_only(c)

    async def ledgers(repo):
        game = await repo.game(gid)
        return [await repo.ledger_sum(s["account_id"]) for s in game["seats"]]
    assert run(stored(db_url, ledgers)) == first["coins"]


def crash_on_stop(live: Live) -> None:
    """Make ``live.stop()`` leave its leases behind, as a killed process does: the
    other process may adopt its tables only once the leases run out."""
    cl = live.server.cluster

    async def keep_leases() -> None:
        cl._heart.cancel()
        await cl.queue.close()
    cl.release_all = keep_leases


def fail_once(live: Live, method: str) -> list[str]:
    """Make the next call of ``live.server.repo.<method>`` raise as a dropped database
    connection does; the returned list gets the id of the game whose read failed."""
    repo = live.server.repo
    real = getattr(repo, method)
    failed: list[str] = []

    async def once(game_id, *args, **kwargs):
        if not failed:
            failed.append(game_id)
            raise OSError("connection to the database was lost")
        return await real(game_id, *args, **kwargs)
    setattr(repo, method, once)
    return failed


def _why(live: Live) -> str:
    """What a process's cluster side was doing (a full run once waited 600 s for the
    adoption with nothing to say why): its adoptions, orphans, and where its
    heartbeat stands, with the heartbeat's stack if it is stuck."""
    cl = live.server.cluster
    heart = cl._heart
    stack = [f"{f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno} {f.f_code.co_name}"
             for f in heart.get_stack(limit=20)] if heart is not None and not heart.done() else []
    relayed = {g: (p.owner, p.local is not None, p.finished) for g, p in cl._remote.items()}
    return (f"claimed={sorted(cl.directory._claimed)} adopting={cl._adopting} "
            f"relayed (owner, local, finished)={relayed} "
            f"orphans={cl._orphans} released={cl._released} redis_failed={cl._redis_failed} "
            f"heart_done={heart is None or heart.done()} heart_stack={stack}")


async def _matched_across(p1: Live, p2: Live) -> tuple[Client, Client, Live]:
    """A guest on each process, quick-matched to one table (bots in the other seats);
    the two clients and the process that owns the table."""
    a = await Client.open(p1, p1.guest(), "a")
    b = await Client.open(p2, p2.guest(), "b")
    for c in (a, b):
        await c.send({"type": "quick_match", "mode": "casual", "stake": "low"})
    for c in (a, b):
        await c.expect("matched")
        await c.expect("snapshot")
    assert a.game_id == b.game_id
    owners = owner_of([p1, p2], a.game_id)
    assert len(owners) == 1
    return a, b, owners[0]


def test_a_move_being_stored_when_its_owner_stops_is_told_before_the_handover(cluster):
    """A graceful stop (SIGTERM) lets the step under way finish: a move the table was
    storing is told to the seats, then the table goes to the other process. Before,
    the table was cancelled in the middle of the step: the stop's flush stored the
    move, nobody was told it, and a relayed seat caught up only from the adopter's
    snapshot (once in a full run: its last update was a move behind)."""
    from test_trust import _SlowBegin

    p1 = cluster(bot_fill_wait=1.0, disconnect_grace=30.0)
    p2 = cluster(bot_fill_wait=1.0, disconnect_grace=30.0)

    async def go():
        a, b, owner = await _matched_across(p1, p2)
        near, far = (a, b) if owner is p1 else (b, a)
        halt = near.answer_in_background()
        answered = None
        while not any(x["type"] == "discard" for x in far.my_decision() or []):
            if far.my_decision() and far.turn != answered:     # a claim: passed
                answered = far.turn
                await far.act(simple_policy(far.obs))
            await far.recv(HANG)
        await halt()
        storing = threading.Event()                 # set when a commit takes its connection

        class Slow(_SlowBegin):
            def connect(self):
                storing.set()
                return super().connect()
        owner.server.repo.engine = Slow(owner.server.repo.engine, 1.0)
        tile = next(x for x in far.my_decision() if x["type"] == "discard")
        await far.act(tile)
        assert await asyncio.to_thread(storing.wait, HANG), "the discard was never stored"
        await asyncio.to_thread(owner.stop)
        told = False
        while True:                                 # far's messages until the adopter's
            m = await far.recv(HANG)
            if m["type"] == "snapshot":
                break
            told = told or any(ev["type"] == "discard" and ev["seat"] == far.seat
                               for ev in m.get("events", []))
        assert told, "the stored discard was never told before the table moved"
        assert m["observation"]["discards"][far.seat][-1] == tile["tile"]
    run(go())


@pytest.mark.parametrize("how", ["graceful", "crash", "crash, the adoption's read fails"])
def test_a_stopped_process_s_table_is_adopted_and_resumed(cluster, how):
    p1 = cluster(bot_fill_wait=1.0, disconnect_grace=30.0)
    p2 = cluster(bot_fill_wait=1.0, disconnect_grace=30.0)

    async def go():
        a, b, owner = await _matched_across(p1, p2)
        survivor = p2 if owner is p1 else p1
        near, far = (a, b) if owner is p1 else (b, a)     # near: connected to the owner
        halts = [a.answer_in_background(), b.answer_in_background()]
        end = time.monotonic() + HANG
        while (near.turn or 0) < 8 and (far.turn or 0) < 8:
            assert time.monotonic() < end, "the hand did not move"
            await asyncio.sleep(0.05)
        for h in halts:
            await h()
        if how.startswith("crash"):
            crash_on_stop(owner)
        # a read that fails half way through the adoption (once a dropped database
        # connection left the claim held and renewed for ever, and no process ran the
        # table): the claim is given back and the next heartbeat adopts it again
        failed = fail_once(survivor, "game_actions") if "fails" in how else []
        stopped = owner.server.tables.get(a.game_id)
        await asyncio.to_thread(owner.stop)            # its tables stop
        # where the owner's table stopped, for far's seat. Not far's last update: a
        # crash drops the relay of moves already stored, so far may be a move or two
        # behind, and the adopted table brings it up to date (once in a full run, far
        # last saw 7z where the table, stored, had gone on to 4z and a flower)
        where = stopped.game.observation(far.seat)
        while True:                     # read what far was sent until the table moved
            last_far = far.obs
            try:
                snap = await far.recv(timeout=HANG)
            except TimeoutError:
                raise AssertionError(f"far never saw the table again: {_why(survivor)}") from None
            if snap["type"] == "snapshot":   # far's own process adopted the table
                break
        assert survivor.server.tables.get(a.game_id) is not None
        assert failed == ([a.game_id] if "fails" in how else [])
        # The hand that was running when the owner stopped (under load the bots can
        # finish hand 1 before eight turns have passed, so it is not always hand 1).
        running = 1 + sum(m["type"] == "hand_end" for m in far.seen)
        assert snap["hand"]["hand_no"] == running
        assert snap["observation"] == where            # exactly where it stopped
        if how == "graceful":           # a graceful stop relays every move before it goes
            assert last_far == where
        near2 = await Client.open(survivor)
        near2.seat = near.seat
        await near2.send({"type": "hello", "token": near.token, "ticket": near.ticket})
        await near2.expect("welcome")
        snap2 = await near2.expect("snapshot")
        assert snap2["table"]["game_id"] == a.game_id and snap2["hand"]["hand_no"] == running
        ends = await asyncio.gather(far.play_hand(timeout=HANG), near2.play_hand(timeout=HANG))
        for c in (far, near2):
            await c.close()
        await near.close()
        return ends, far, near2, running
    (e1, e2), far, near2, running = run(go())
    assert e1["hand_no"] == e2["hand_no"] == running and e1["result"] == e2["result"]
    assert sum(e1["result"]["net"]) + e1["result"].get("fee", 0) == 0
    assert_own_view_only(far)
    assert_own_view_only(near2)


def test_a_socket_moves_to_its_table_s_worker_and_the_relay_ends(cluster):
    """Each worker says where it is (``welcome``'s route) and where a table is played
    (its snapshot's ``table.route``). The player whose socket is on the other worker
    opens its seat at the owner with its ticket and closes the first socket: the
    owner relays nothing for it any more, and the hand plays to its end."""
    import socket

    def free_port() -> int:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    lives = []
    for _ in range(2):
        port = free_port()
        lives.append(cluster(port=port, route=f"ws://127.0.0.1:{port}/ws", bot_fill_wait=1.0))
    p1, p2 = lives

    async def go():
        a = await Client.open(p1, p1.guest(), "a")
        b = await Client.open(p2, p2.guest(), "b")
        routes = [a.seen[-1]["route"], b.seen[-1]["route"]]
        for c in (a, b):
            await c.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        snaps = []
        for c in (a, b):
            await c.expect("matched")
            snaps.append(await c.expect("snapshot"))
        (owner,) = owner_of([p1, p2], a.game_id)
        near, far = (a, b) if owner is p1 else (b, a)
        other = p2 if owner is p1 else p1
        relayed_before = len(owner.server.cluster._relays)
        # far follows the route: its seat opens at the owner, then the first socket closes
        far2 = await Client.open(owner)
        far2.seat, far2.ticket, far2.game_id = far.seat, far.ticket, far.game_id
        await far2.send({"type": "hello", "token": far.token, "ticket": far.ticket})
        await far2.expect("welcome")
        await far2.expect("snapshot")
        await far.close()
        end = time.monotonic() + HANG
        while owner.server.cluster._relays or other.server.cluster._remote.get(a.game_id):
            assert time.monotonic() < end, "the relay outlived the socket that moved"
            await asyncio.sleep(0.02)
        ends = await asyncio.gather(near.play_hand(timeout=HANG), far2.play_hand(timeout=HANG))
        for c in (near, far2):
            await c.close()
        return routes, snaps, owner, relayed_before, ends
    routes, snaps, owner, relayed_before, ends = run(go())
    assert routes == [p1.settings.route, p2.settings.route] and routes[0] != routes[1]
    assert [s["table"]["route"] for s in snaps] == [owner.settings.route] * 2
    assert relayed_before == 1                  # far's seat, until it moved
    assert ends[0]["result"] == ends[1]["result"]


def routed_pair(cluster, **over) -> list[Live]:
    """Two workers, each with its own ws:// address as its route."""
    import socket

    lives = []
    for _ in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        lives.append(cluster(port=port, route=f"ws://127.0.0.1:{port}/ws", **over))
    return lives


def test_the_client_library_follows_its_table_to_its_worker(cluster):
    """``twmahjong.client.GameLink`` (the terminal's, the benches', a bot author's)
    follows ``table.route`` by itself: the link whose table the other worker plays
    opens its seat there inside ``recv`` and closes its first socket, so the owner
    relays nothing for it any more; its caller only sees the owner's snapshot, and
    the hand plays to its end on both links."""
    from twmahjong.client import GameLink
    from twmahjong.drill import simple_policy
    p1, p2 = routed_pair(cluster, bot_fill_wait=1.0)

    seen: list[dict] = []               # what the callers of recv were given

    async def play_hand(link: GameLink) -> dict:
        while (m := await link.recv())["type"] != "hand_end":
            seen.append(m)
            assert m["type"] != "link", m            # a move is no lost link
            if m["type"] in ("update", "snapshot") and link.state.decision():
                await link.act(simple_policy(link.state.obs))
        return m

    async def go():
        links = [GameLink(p.base, p.guest()) for p in (p1, p2)]
        for link in links:
            await link.connect()
            await link.quick_match(stake="low")
        for link in links:
            while (m := await link.recv())["type"] != "snapshot":
                seen.append(m)
            seen.append(m)
        a, b = links
        assert a.state.game_id == b.state.game_id
        (owner,) = owner_of([p1, p2], a.state.game_id)
        other = p2 if owner is p1 else p1
        near, far = (a, b) if owner is p1 else (b, a)
        # far's socket is on the owner now, and its first one is gone: no relay is left
        where = (far.url, far.moves, near.url, near.moves)
        end = time.monotonic() + HANG
        while owner.server.cluster._relays or other.server.cluster._remote.get(a.state.game_id):
            assert time.monotonic() < end, "the relay outlived the socket that moved"
            await asyncio.sleep(0.02)
        ends = await asyncio.gather(play_hand(near), play_hand(far))
        for link in links:
            await link.close()
        return owner, where, ends
    owner, (far_url, far_moves, near_url, near_moves), ends = run(go())
    assert (far_url, far_moves) == (owner.settings.route, 1)
    assert (near_url, near_moves) == (owner.ws_url, 0)      # on its table's worker already
    assert ends[0]["result"] == ends[1]["result"]
    # the caller saw one snapshot each ...
    assert [m["type"] for m in seen].count("snapshot") == 2
    # ... and never "open in two places" (the count of 1 as the first socket left is
    # said: it takes nothing away)
    assert not [m for m in seen if m.get("kind") == "second_connection"
                and m["data"]["connections"] > 1]


def test_the_drill_s_players_follow_their_table_to_its_worker(cluster):
    """``twmahjong.drill.Player`` (bench/chaos.py's players) follows routes too: the
    player whose socket is on the other worker moves to the table's, its relay ends,
    and the hand plays on to its end."""
    from twmahjong.drill import Player
    p1, p2 = routed_pair(cluster, bot_fill_wait=1.0)

    async def go():
        hand_over = asyncio.Event()

        def heard(player: Player, m: dict) -> None:
            if m["type"] == "hand_end":
                hand_over.set()
        players = [Player(f"p{i}", lv.guest(), lambda: [p1.port, p2.port], on_message=heard)
                   for i, lv in enumerate((p1, p2))]
        tasks = [asyncio.create_task(p.play(lv.port)) for p, lv in zip(players, (p1, p2))]
        try:
            await asyncio.wait_for(hand_over.wait(), HANG)
            assert sorted(p.moved for p in players) == [0, 1]
            (owner,) = owner_of([p1, p2], players[0].game_id)
            other = p2 if owner is p1 else p1
            end = time.monotonic() + HANG
            while owner.server.cluster._relays or other.server.cluster._remote.get(
                    players[0].game_id):
                assert time.monotonic() < end, "the relay outlived the socket that moved"
                await asyncio.sleep(0.02)
        finally:
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return owner, players
    owner, players = run(go())
    assert players[0].game_id == players[1].game_id
    assert [p.port for p in players] == [owner.port, owner.port]


def test_the_database_away_is_not_taken_for_redis_away(cluster, caplog):
    """A PostgreSQL restart under a live cluster: the heartbeat's scan cannot read the
    games. That is said once and adoption waits; it used to count as a Redis failure (a
    warning every beat, then every relayed seat seated again, with fresh snapshots, for
    a Redis restart that never happened)."""
    import logging

    from sqlalchemy.exc import DBAPIError
    p1 = cluster()
    cl, repo = p1.server.cluster, p1.server.repo
    real = repo.active_games
    calls = {"failed": 0, "after": 0}

    async def away():
        if calls["failed"] < 3:
            calls["failed"] += 1
            raise DBAPIError("SELECT games", {}, OSError("connection refused"))
        calls["after"] += 1
        return await real()
    redis_back = cl._redis_back
    with caplog.at_level(logging.WARNING, logger="twmahjong.server.cluster.ownership"):
        repo.active_games = away
        end = time.monotonic() + HANG
        while calls["after"] < 2:              # three failed beats, then two that read
            assert time.monotonic() < end, "the heartbeat stopped scanning"
            time.sleep(0.05)
    said = [r.getMessage() for r in caplog.records]
    assert sum("database does not answer" in m for m in said) == 1, said
    assert sum("database answers again" in m for m in said) == 1, said
    assert not any("Redis is back" in m or "heartbeat failed" in m for m in said), said
    assert cl._redis_back == redis_back                  # no Redis restart was seen


def test_a_relayed_seat_its_owner_never_seated_hears_the_game_end(cluster):
    """Chaos, 2026-12-05: the owner was killed as the last hand ended; two players
    reconnected through another worker, whose attach the dead owner never answered;
    the adopter finished the game (nothing left to play) and gave it up. The relaying
    worker then asked an owner that no longer existed, every 2 s, for 115 s, and the
    players heard nothing until they reconnected. Here the owner drops the relayed
    attach (as a dying one does) and the game ends (an operator closes it): the seat
    must hear the game's end from the relaying worker, as it was stored."""
    admin = "admin-token-for-tests-0123456789"
    p1 = cluster(bot_fill_wait=0.3, admin_token=admin, disconnect_grace=30.0)
    p2 = cluster(bot_fill_wait=0.3, admin_token=admin, disconnect_grace=30.0)

    async def go():
        a = await Client.open(p1, p1.guest(), "a")
        await a.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        await a.expect("matched")
        await a.expect("snapshot")
        gid = a.game_id
        (owner,) = owner_of([p1, p2], gid)
        relaying = p2 if owner is p1 else p1
        ocl = owner.server.cluster
        real = ocl._for_owner

        def deaf(op, m):                        # the attach dies with the owner
            if not (op == "attach" and m.get("game") == gid):
                real(op, m)
        ocl._for_owner = deaf
        b = await Client.open(relaying)
        b.seat = a.seat
        await b.send({"type": "hello", "token": a.token, "ticket": a.ticket})
        await b.expect("welcome")
        rcl = relaying.server.cluster
        end = time.monotonic() + HANG
        while not rcl._remote.get(gid) or not rcl._remote[gid].unacked:
            assert time.monotonic() < end, "the relaying worker never asked the owner"
            await asyncio.sleep(0.02)
        r = await asyncio.to_thread(owner.http, "POST", f"/admin/v1/close/{gid}",
                                    headers={"Authorization": f"Bearer {admin}"},
                                    json={"reason": "closed by the test"})
        assert r.status_code == 200, r.text
        got = await b.expect("game_end")
        await a.close()
        await b.close()
        return gid, got, rcl._remote.get(gid)
    gid, got, proxy = run(go())

    async def row(repo):
        return await repo.game(gid)
    stored_row = run(stored(p1.settings.database_url, row))
    assert stored_row["status"] == "aborted"
    assert got["game_id"] == gid and got["aborted"] is True
    assert got["scores"] == stored_row["result"]["scores"]
    assert proxy is None or (proxy.finished and not proxy.unacked)   # asks no more


def test_a_stored_games_end_is_the_one_its_table_sent():
    """What a never-seated relayed seat hears: a finished game's end reveals the match
    seed (to check with `twmj verify`) with the stored ranks and rating; an aborted
    game's keeps the seed secret, ranks its scores, and says it was aborted."""
    import json

    from twmahjong.server.cluster.ownership import stored_end
    done = json.loads(stored_end({
        "id": "g_1", "status": "finished", "options": {"seed": 12345},
        "result": {"scores": [300, -100, -100, -100], "ranks": [1, 2, 3, 4],
                   "rating": {"before": [1500.0] * 4, "after": [1510.0, 1497.0, 1497.0, 1496.0]}}}))
    assert done["type"] == "game_end" and done["game_id"] == "g_1"
    assert done["seed"] == "12345" and done["ranks"] == [1, 2, 3, 4]
    assert done["rating"]["after"][0] == 1510.0 and done["aborted"] is False
    cut = json.loads(stored_end({
        "id": "g_2", "status": "aborted", "options": {"seed": 99},
        "result": {"scores": [-20, 40, 0, -20], "aborted": "closed by an operator"}}))
    assert cut["aborted"] is True and cut["seed"] is None
    assert cut["ranks"] == [3, 1, 2, 4]           # a tie goes to the lower seat

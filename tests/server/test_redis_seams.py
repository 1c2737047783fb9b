"""The seams' contract, against the in-process and the Redis implementation alike,
and what only several processes can get wrong: two of them popping one queue,
one player queued twice, a dead owner's lease."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Self

import pytest
from redis_helpers import fresh_prefix, need_redis, purge
from server_helpers import HANG

from twmahjong.server.cluster.redis_queue import RedisMatchQueue
from twmahjong.server.play.lobby import LobbyError, LocalMatchQueue, Rooms
from twmahjong.server.cluster.redis_seams import (RedisBus, RedisDirectory, RedisLink, RedisPresence,
                                         RedisRooms)
from twmahjong.server.cluster.seams import LocalBus, LocalDirectory, LocalPresence

KEY = ("casual", "standard", "low")
TOPICS = ("table_started", "game_finished", "table_moved")


def run(coro):
    return asyncio.run(coro)


class Starts:
    """start_table for a queue: records every table it is asked for."""

    def __init__(self, name: str, log: list):
        self.name, self.log = name, log

    async def __call__(self, key, players):
        game_id = f"{self.name}-{len(self.log)}"
        self.log.append((game_id, key, list(players)))
        return game_id


class Proc:
    """One "process": the seams as ``server.core`` wires them (in-process or Redis)."""

    def __init__(self, kind: str, url: str | None, prefix: str, log: list,
                 fill_wait: float = 0.3, lease: float = 10.0):
        self.kind = kind
        self.starts = Starts(secrets.token_hex(3), log)
        if kind == "local":
            self.presence, self.directory, self.bus = LocalPresence(), LocalDirectory(), LocalBus()
            self.queue = LocalMatchQueue(fill_wait, self.starts)
            self.link = None
        else:
            self.link = RedisLink(url, prefix, secrets.token_hex(6), lease)
            self.presence = RedisPresence(self.link)
            self.directory = RedisDirectory(self.link)
            self.bus = RedisBus(self.link, TOPICS)
            self.queue = RedisMatchQueue(self.link, fill_wait, self.starts)
            self.link.on(self.link.inbox(self.link.process_id), self.queue.handle)

    async def __aenter__(self) -> Self:
        if self.link is not None:
            await self.link.start()
            await self.link.beat()
        return self

    async def __aexit__(self, *exc) -> None:
        if self.link is not None:
            await self.queue.close()
            await self.presence.close()
            await self.link.close()

    async def settle(self) -> None:
        """Let write-behind calls reach Redis (a no-op in-process)."""
        if self.link is not None:
            await self.link.drain()


@pytest.fixture(params=["local", "redis"])
def kind(request) -> str:
    if request.param == "redis":
        need_redis()
    return request.param


@pytest.fixture
def space():
    """(url, prefix) of a Redis key space of this test's own; emptied afterwards."""
    url, prefix = need_redis(), fresh_prefix()
    yield url, prefix
    purge(url, prefix)


@pytest.fixture
def proc(kind):
    """Make processes of this test's kind sharing one key space."""
    url = prefix = None
    if kind == "redis":
        url, prefix = need_redis(), fresh_prefix()
    log: list = []
    yield lambda **kw: Proc(kind, url, prefix, log, **kw), log
    if url:
        purge(url, prefix)


class FakeTable:
    def __init__(self, game_id: str):
        self.id = game_id


async def until(cond, timeout: float = HANG) -> None:
    """Wait for an asynchronous delivery; fail (not hang) if it never comes."""
    end = asyncio.get_running_loop().time() + timeout
    while not cond():
        if asyncio.get_running_loop().time() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)


async def reconnected(r, timeout: float = HANG) -> None:
    """Wait until the client answers from a restarted Redis. Its pooled connections to
    the old one are dead: a command on one fails (the client's retries may meet more of
    them — seen once in a full run as "Connection closed by server"), and a fresh
    connection answers. Fail (not hang) if none ever does."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    end = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            await r.ping()
            return
        except RedisConnectionError:
            if asyncio.get_running_loop().time() > end:
                raise
            await asyncio.sleep(0.01)


# -- presence ------------------------------------------------------------------------------------
def test_presence_counts_accounts_not_connections(proc):
    make, _ = proc

    async def go():
        async with make() as p:
            p.presence.connected(7)
            p.presence.connected(7)        # a second tab of the same player
            p.presence.connected(9)
            assert p.presence.count() == 2
            p.presence.disconnected(7)
            assert p.presence.online(7)    # one tab still open
            p.presence.disconnected(7)
            assert not p.presence.online(7) and p.presence.online(9)
            await p.settle()
            await p.presence.sync()
            assert p.presence.count() == 1
    run(go())


def test_presence_is_seen_by_every_process(space):
    url, prefix = space

    async def go():
        async with Proc("redis", url, prefix, []) as a, Proc("redis", url, prefix, []) as b:
            a.presence.connected(11)
            b.presence.connected(12)
            await a.settle()
            await b.settle()
            await b.presence.sync()
            assert b.presence.online(11) and b.presence.count() == 2
            a.presence.disconnected(11)
            await a.settle()
            await b.presence.sync()
            assert not b.presence.online(11) and b.presence.count() == 1
    run(go())


# -- table directory -------------------------------------------------------------------------------
def test_directory_claims_a_game_once_and_releases_it(proc):
    make, _ = proc

    async def go():
        async with make() as p:
            d = p.directory
            assert await d.owner("g1") is None
            assert await d.claim("g1") is True
            assert await d.claim("g1") is False          # never started twice
            assert await d.owner("g1") == d.process_id
            d.add(FakeTable("g1"))
            assert d.get("g1").id == "g1" and [t.id for t in d.all()] == ["g1"]
            d.remove("g1")                                # the game ended here
            await p.settle()
            assert d.get("g1") is None and d.all() == []
            assert await d.owner("g1") is None
            assert await d.claim("g1") is True
            await d.release("g1")
            assert await d.owner("g1") is None
    run(go())


def test_a_lease_keeps_a_game_until_its_owner_stops_renewing(space):
    url, prefix = space

    async def go():
        async with Proc("redis", url, prefix, [], lease=0.6) as a, \
                Proc("redis", url, prefix, [], lease=0.6) as b:
            assert await a.directory.claim("g7")
            assert not await b.directory.claim("g7")
            assert await b.directory.owner("g7") == a.link.process_id
            for _ in range(4):                         # renewed: outlives its lease
                await asyncio.sleep(0.3)
                assert await a.directory.renew() == []
            assert await b.directory.owner("g7") == a.link.process_id
            # a stops renewing (as a dead process does): the game becomes adoptable
            end = asyncio.get_running_loop().time() + 5
            while not await b.directory.claim("g7"):
                assert asyncio.get_running_loop().time() < end, "lease never lapsed"
                await asyncio.sleep(0.1)
            assert await b.directory.owner("g7") == b.link.process_id
            assert await a.directory.renew() == ["g7"]    # a learns it lost the game
            assert await b.directory.owner("g7") == b.link.process_id
    run(go())


# -- event bus ----------------------------------------------------------------------------------------
def test_bus_delivers_each_notice_once_to_its_topic(proc):
    make, _ = proc

    async def go():
        async with make() as p:
            finished, started = [], []
            p.bus.subscribe("game_finished", finished.append)
            p.bus.subscribe("table_started", started.append)
            p.bus.publish("game_finished", {"game_id": "g1", "scores": [1, -1, 0, 0]})
            p.bus.publish("game_finished", {"game_id": "g2", "scores": [0, 0, 0, 0]})
            await until(lambda: len(finished) >= 2)
            await asyncio.sleep(0.05)                  # a duplicate would show by now
            assert finished == [{"game_id": "g1", "scores": [1, -1, 0, 0]},
                                {"game_id": "g2", "scores": [0, 0, 0, 0]}]
            assert started == []
    run(go())


def test_bus_reaches_the_other_process(space):
    url, prefix = space

    async def go():
        async with Proc("redis", url, prefix, []) as a, Proc("redis", url, prefix, []) as b:
            got: list = []
            b.bus.subscribe("table_started", got.append)
            a.bus.publish("table_started", {"game_id": "gX"})
            await until(lambda: got)
            assert got == [{"game_id": "gX"}]
    run(go())


# -- match queue ----------------------------------------------------------------------------------------
def test_four_players_start_a_table_at_once(proc):
    make, log = proc

    async def go():
        async with make(fill_wait=30.0) as p:
            players = [(100 + i, f"p{i}") for i in range(4)]
            entries = [p.queue.join(KEY, players[0])]
            with pytest.raises(LobbyError) as e:
                p.queue.join(KEY, players[0])         # the same player again
            assert e.value.code == "already_queued"
            entries += [p.queue.join(KEY, pl) for pl in players[1:]]
            seats = await asyncio.wait_for(asyncio.gather(*(w.future for w in entries)), 10)
            assert len(log) == 1
            game_id, key, seated = log[0]
            assert key == KEY and None not in seated
            assert sorted(seated) == players
            for pl, (gid, seat) in zip(players, seats):
                assert gid == game_id and seated[seat] == pl
    run(go())


def test_bots_fill_the_table_after_the_wait(proc):
    make, log = proc

    async def go():
        async with make(fill_wait=0.5) as p:
            a = p.queue.join(KEY, (1, "a"))
            b = p.queue.join(KEY, (2, "b"))
            await asyncio.sleep(0.05)
            assert log == []                    # not before the wait
            (ga, sa), (gb, sb) = await asyncio.wait_for(asyncio.gather(a.future, b.future), 10)
            assert len(log) == 1 and ga == gb == log[0][0]
            seated = log[0][2]
            assert seated.count(None) == 2      # two bots
            assert seated[sa] == (1, "a") and seated[sb] == (2, "b")
    run(go())


def test_a_cancelled_player_is_not_seated(proc):
    make, log = proc

    async def go():
        async with make(fill_wait=0.3) as p:
            a = p.queue.join(KEY, (1, "a"))
            await p.settle()
            p.queue.cancel(a)
            assert a.future.cancelled()
            await asyncio.sleep(0.8)            # past the fill wait
            assert log == []
            assert p.queue.waiting(KEY) == 0
            b = p.queue.join(KEY, (1, "a"))     # and may queue again
            _gid, seat = await asyncio.wait_for(b.future, 10)
            assert log[0][2][seat] == (1, "a")
    run(go())


def test_concurrent_processes_never_seat_a_player_twice(space):
    url, prefix = space
    log: list = []

    async def go():
        procs = [Proc("redis", url, prefix, log, fill_wait=0.2) for _ in range(3)]
        async with contextlib.AsyncExitStack() as stack:
            for p in procs:
                await stack.enter_async_context(p)
            players = [(1000 + i, f"p{i}") for i in range(45)]
            entries = {}

            async def arrive(i, pl):
                await asyncio.sleep((i % 7) * 0.01)
                entries[pl] = procs[i % 3].queue.join(KEY, pl)
            await asyncio.gather(*(arrive(i, pl) for i, pl in enumerate(players)))
            results = await asyncio.wait_for(
                asyncio.gather(*(w.future for w in entries.values())), 20)
            seated = [pl for _, _, seats in log for pl in seats if pl is not None]
            assert sorted(seated) == players            # everyone once, nobody twice
            by_game = {gid: seats for gid, _, seats in log}
            for pl, (gid, seat) in zip(entries, results):
                assert by_game[gid][seat] == pl
            assert all(1 <= 4 - seats.count(None) <= 4 for seats in by_game.values())
    run(go())


def test_one_account_waits_in_one_queue_across_processes(space):
    url, prefix = space
    log: list = []

    async def go():
        async with Proc("redis", url, prefix, log, fill_wait=0.3) as a, \
                Proc("redis", url, prefix, log, fill_wait=0.3) as b:
            first = a.queue.join(KEY, (5, "five"))
            await a.settle()
            await asyncio.sleep(0.05)
            second = b.queue.join(KEY, (5, "five"))    # another window, another process
            with pytest.raises(LobbyError) as e:
                await asyncio.wait_for(second.future, 10)
            assert e.value.code == "already_queued"
            _gid, seat = await asyncio.wait_for(first.future, 10)
            assert len(log) == 1 and log[0][2][seat] == (5, "five")
            assert [pl for pl in log[0][2] if pl] == [(5, "five")]
    run(go())


# -- the command line ------------------------------------------------------------------------------
# -- private rooms -----------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def two_room_books(stack, kind: str, url, prefix, clock):
    """The room books of two processes of one game world: one ``Rooms`` seen twice
    (local), or two ``RedisRooms`` on their own links sharing a key space."""
    if kind == "local":
        book = Rooms(idle_ttl=60, clock=clock)
        return book, book
    links = [RedisLink(url, prefix, secrets.token_hex(6), 10.0) for _ in "ab"]
    for link in links:
        link.on(link.inbox(link.process_id), lambda message: None)
        await link.start()
        stack.push_async_callback(link.close)
    return tuple(RedisRooms(link, idle_ttl=60, clock=clock) for link in links)


def test_a_room_is_joined_from_any_process_and_expires_idle(kind):
    """Both RoomBooks: a room opened by one process is found and joined by another;
    five players racing for its three free seats from two processes get three seats,
    each once; an unstarted room is gone for every process ``idle_ttl`` after its last
    change, a started one waits for its game."""
    clock = Clock()
    url, prefix = (need_redis(), fresh_prefix()) if kind == "redis" else (None, None)

    async def go():
        async with contextlib.AsyncExitStack() as stack:
            a, b = await two_room_books(stack, kind, url, prefix, clock)
            room = await a.open((1, "host"), "standard", "low", 1, "g_room")
            assert (await b.get(room.code.lower())).players[0] == (1, "host")
            assert (await b.by_game("g_room")).code == room.code
            joins = await asyncio.gather(*(
                (a, b)[i % 2].join(room.code, (10 + i, f"p{i}")) for i in range(5)),
                return_exceptions=True)
            seats = sorted(j[1] for j in joins if not isinstance(j, Exception))
            refused = [j for j in joins if isinstance(j, LobbyError)]
            assert seats == [1, 2, 3] and len(refused) == 2
            assert all(e.code == "conflict" for e in refused)
            final = await a.get(room.code)
            assert len({p for p in final.players if p}) == 4
            seated = [p[0] for p in final.players[1:]]
            assert (await b.join(room.code, (seated[0], "again")))[1] == 1   # a seat held
            assert await a.waiting_count() == 1
            assert await b.waiting_seats(seated[1]) == 1 and await b.waiting_seats(99) == 0

            other = await b.open((2, "host2"), "standard", "low", 1, "g_other")
            await b.join(other.code, (3, "late"))          # seated on b after a read it
            made = await asyncio.gather(a.start(other.code), b.start(other.code))
            # one start makes the game, with the seats as stored, not as first read
            assert [m is None for m in made].count(False) == 1
            assert next(m for m in made if m).players[1] == (3, "late")
            clock.now += 61
            with pytest.raises(LobbyError) as e:
                await b.get(room.code)
            assert e.value.code == "not_found"
            assert await a.by_game("g_room") is None
            assert await b.waiting_count() == 0 and await a.waiting_seats(seated[1]) == 0
            assert (await a.get(other.code)).started        # a started room stays
            await b.close(other.code)
            assert await a.by_game("g_other") is None
    try:
        run(go())
    finally:
        if url:
            purge(url, prefix)


def test_a_seat_is_given_up_and_the_host_leaving_closes_the_room(kind):
    """Both RoomBooks: a guest who leaves an unstarted room frees the seat (and no longer
    counts it against the table cap, on every process); leaving twice, or a started
    room, is one conflict that changes nothing; the host leaving closes the room."""
    url, prefix = (need_redis(), fresh_prefix()) if kind == "redis" else (None, None)

    async def go():
        async with contextlib.AsyncExitStack() as stack:
            a, b = await two_room_books(stack, kind, url, prefix, Clock())
            room = await a.open((1, "host"), "standard", "low", 1, "g_leave")
            await b.join(room.code, (2, "guest"))
            await b.join(room.code, (3, "third"))
            assert await a.waiting_seats(2) == 1
            left = await a.leave(room.code, 2)
            assert [p and p[1] for p in left.players] == ["host", None, "third", None]
            assert await b.waiting_seats(2) == 0 and await b.waiting_seats(3) == 1
            with pytest.raises(LobbyError) as e:
                await b.leave(room.code, 2)
            assert e.value.reason == "not_in_room"
            assert (await b.get(room.code)).players == left.players      # unchanged
            assert (await b.join(room.code, (4, "late")))[1] == 1         # the seat is free
            assert await b.leave(room.code, 1) is None                    # the host goes
            with pytest.raises(LobbyError) as e:
                await a.get(room.code)
            assert e.value.code == "not_found"
            assert await a.waiting_seats(3) == 0 and await a.waiting_count() == 0
            assert await b.by_game("g_leave") is None

            started = await a.open((5, "host5"), "standard", "low", 1, "g_started")
            await b.join(started.code, (6, "six"))
            await a.start(started.code)
            with pytest.raises(LobbyError) as e:
                await b.leave(started.code, 6)
            assert e.value.reason == "room_started"
            assert (await a.get(started.code)).players[1] == (6, "six")
    try:
        run(go())
    finally:
        if url:
            purge(url, prefix)


def test_a_room_whose_game_was_never_made_is_revived_once(kind):
    """Both RoomBooks: a room marked started remembers when; ``revive`` hands it out
    again only once that is ``after`` seconds old, and to one caller of several racing
    on two processes (the one that makes the game again), then not for ``after`` more."""
    clock = Clock()
    url, prefix = (need_redis(), fresh_prefix()) if kind == "redis" else (None, None)

    async def go():
        async with contextlib.AsyncExitStack() as stack:
            a, b = await two_room_books(stack, kind, url, prefix, clock)
            room = await a.open((1, "host"), "standard", "low", 1, "g_revive")
            assert await a.revive(room.code, 60) is None            # not started
            await b.join(room.code, (2, "guest"))
            await a.start(room.code)
            assert (await b.get(room.code)).started_at == clock.now
            clock.now += 59
            assert await b.revive(room.code, 60) is None            # too soon
            clock.now += 1
            again = await asyncio.gather(*((a, b)[i % 2].revive(room.code, 60)
                                           for i in range(6)))
            made = [r for r in again if r is not None]
            assert len(made) == 1 and made[0].players[1] == (2, "guest")
            assert (await a.get(room.code)).started_at == clock.now
            clock.now += 30
            assert await a.revive(room.code, 60) is None
    try:
        run(go())
    finally:
        if url:
            purge(url, prefix)


def test_writes_dropped_by_a_lost_connection_resynchronise_once_writes_work(tmp_path):
    """A write batch that fails (the writer's connection died: Redis restarted, or the
    connection was killed) is dropped; whatever it carried (a relayed update, move or
    attach) is made good by one resynchronisation as soon as writes work again, even
    when the listener never lost its own connection. A redis-server of our own: killing
    connections on a shared one would disturb others."""
    import redis as sync_redis

    from twmahjong.drill import RedisServer
    srv = RedisServer(log=tmp_path / "redis.log").start()

    async def go() -> list[int]:
        link = RedisLink(srv.url, "t", "p1", 10.0)
        link.on(link.inbox("p1"), lambda message: None)
        resyncs: list[int] = []
        link.on_reconnect = lambda: resyncs.append(link.reconnects)
        await link.start()
        try:
            link.command("SET", "t:a", "1")
            await link.drain()
            # the writer's (normal) connection dies; the listener's (pubsub) does not
            sync_redis.Redis.from_url(srv.url).client_kill_filter(_type="normal")
            link.command("SET", "t:b", "2")          # dropped with its connection
            await link.drain()
            before = list(resyncs)
            link.command("SET", "t:c", "3")          # writes work again
            await link.drain()
            await until(lambda: len(resyncs) > len(before))
            return before
        finally:
            await link.close()
    try:
        assert run(go()) == []                       # not before the writes work again
    finally:
        srv.stop()


def test_a_relayed_attach_the_owner_never_answered_is_sent_again():
    """A seat relayed to another process is seated there by an ``attach``; if no
    snapshot answers it (the message was lost, or reached an owner still adopting the
    game) the relaying side asks again, and stops once a snapshot arrives. Without
    this a player stayed silent while the table played on (chaos run, after SIGTERM)."""
    from types import SimpleNamespace

    from twmahjong.server.cluster.ownership import RemoteTable
    sent: list[dict] = []
    link = SimpleNamespace(publish=lambda channel, msg, **kw: sent.append(msg),
                           inbox=lambda proc: f"inbox:{proc}")
    conns: dict = {}
    cluster = SimpleNamespace(link=link, process_id="here", conn_key=lambda c: f"{id(c):x}",
                              register_conn=lambda c, p: conns.setdefault(f"{id(c):x}", c)
                              and f"{id(c):x}", forget_conn=lambda cid, p: None)

    async def go() -> tuple[list[str], list[str], list[str]]:
        proxy = RemoteTable(cluster, "g1", [{"account_id": 1, "name": "a"}] * 4, "owner")
        conn = object()
        proxy.attach(2, conn)
        first = [m["op"] for m in sent]
        await asyncio.sleep(0.02)
        proxy.reattach(0.01)                       # unanswered: asked again
        again = [m["op"] for m in sent[len(first):]]
        cid = next(iter(proxy.attached))
        proxy.seen('{"v":1,"type":"snapshot","turn":3}', cid)
        await asyncio.sleep(0.02)
        proxy.reattach(0.01)                       # answered: nothing more
        return first, again, [m["op"] for m in sent[len(first) + len(again):]]
    first, again, after = run(go())
    assert first == ["attach"] and again == ["attach"] and after == []
    assert {m["seat"] for m in sent} == {2}


class _Link:
    """A RedisLink's publishing side, recording; ``heard`` says whether anyone listened."""

    def __init__(self, heard: bool = True, alive: bool = False):
        self.sent: list[tuple[str, dict]] = []
        self.heard, self._alive = heard, alive

    def inbox(self, proc: str) -> str:
        return f"inbox:{proc}"

    def publish(self, channel, msg, on_nobody=None):
        self.sent.append((channel, msg))
        if not self.heard and on_nobody is not None:
            on_nobody()

    async def alive(self, proc: str) -> bool:
        return self._alive


def _bare_cluster(link, tables: dict):
    """A Cluster with only its relaying state, around a fake link and directory."""
    from types import SimpleNamespace

    from twmahjong.server.cluster.ownership import Cluster
    c = Cluster.__new__(Cluster)
    c.link, c.process_id, c.lease = link, "owner", 0.02
    c.directory = SimpleNamespace(get=tables.get)
    c._relays, c._conns, c._remote, c._adopting, c._tasks = {}, {}, {}, set(), set()
    c._wake = asyncio.Event()
    return c


class _Table:
    def __init__(self, game_id):
        self.id, self.calls = game_id, []

    def attach(self, seat, conn):
        self.calls.append(("attach", seat))

    def detach(self, seat, conn):
        self.calls.append(("detach", seat))

    def submit(self, seat, msg, conn):
        self.calls.append(("submit", seat))


def _seated_proxy(cluster, seat: int, conn):
    """A RemoteTable of game g1 owned by "owner", with ``conn`` seated and answered."""
    from twmahjong.server.cluster.ownership import RemoteTable
    proxy = RemoteTable(cluster, "g1", [{"account_id": 1, "name": "a"}] * 4, "owner")
    proxy.attach(seat, conn)
    cid = next(iter(proxy.attached))
    proxy.seen('{"v":1,"type":"snapshot"}', cid)
    return proxy, cid


def test_a_liveness_check_never_drops_a_seat_its_process_seated_again_meanwhile():
    """A message to a relayed seat that reaches nobody (Redis restarting) starts a
    check: is the relaying process gone for a lease? If that process seats the
    connection again while the check waits, the seat is live, whatever the lease key
    says; dropping it would leave the player hearing nothing while it thinks itself
    seated (the stranded players of chaos run 1)."""
    link = _Link(heard=False, alive=False)
    table = _Table("g1")
    owner = _bare_cluster(link, {"g1": table})
    dropped: list = []
    owner.drop_relay = dropped.append

    async def go():
        owner._inbox({"op": "attach", "game": "g1", "via": "v", "conn": "c1", "seat": 1})
        relay = owner._relays[("v", "c1")]
        relay.push('{"type":"update"}')             # reaches nobody: the check starts
        assert relay.checking
        owner._inbox({"op": "attach", "game": "g1", "via": "v", "conn": "c1", "seat": 1})
        while relay.checking:
            await asyncio.sleep(0.01)
        return relay
    relay = run(go())
    assert dropped == [] and not relay.gone
    assert table.calls == [("attach", 1), ("attach", 1)]


def test_a_seat_whose_process_stays_unreachable_is_still_dropped():
    """The other side of the check above: nobody seats it again, nobody listens."""
    link = _Link(heard=False, alive=False)
    owner = _bare_cluster(link, {"g1": _Table("g1")})
    dropped: list = []
    owner.drop_relay = dropped.append

    async def go():
        owner._inbox({"op": "attach", "game": "g1", "via": "v", "conn": "c1", "seat": 1})
        relay = owner._relays[("v", "c1")]
        relay.push('{"type":"update"}')
        while relay.checking:
            await asyncio.sleep(0.01)
    run(go())
    assert [r.conn for r in dropped] == ["c1"]


def test_a_move_from_a_connection_the_owner_does_not_seat_gets_it_seated_again():
    """The owner dropped a relayed seat (or lost it in a restart) while its process
    still relays a player there: the player's move used to vanish without a word.
    Now the owner answers ``unseated`` and the relaying process attaches again, so
    the player gets a snapshot that offers the move anew."""
    owner_link, via_link = _Link(), _Link()
    table = _Table("g1")
    owner = _bare_cluster(owner_link, {"g1": table})
    via = _bare_cluster(via_link, {})
    via.process_id = "v"

    async def go():
        _proxy, cid = _seated_proxy(via, 2, object())
        via_link.sent.clear()
        owner._inbox({"op": "action", "game": "g1", "via": "v", "conn": cid, "seat": 2,
                      "msg": {"type": "action", "action": {"type": "pass"}}})
        assert table.calls == []                    # not seated here: not applied
        [(channel, answer)] = owner_link.sent
        assert channel == "inbox:v"
        assert answer == {"op": "unseated", "conn": cid, "game": "g1"}
        via._inbox(answer)
        return cid
    cid = run(go())
    [(channel, again)] = via_link.sent
    assert channel == "inbox:owner"
    assert again["op"] == "attach" and again["conn"] == cid and again["seat"] == 2


def test_a_move_that_reached_no_process_seats_its_connection_again():
    """A relayed move published while the owner's subscription is down reaches nobody.
    The connection is then treated like an unanswered attach: seated again at the next
    heartbeat unless a snapshot arrives first."""
    from types import SimpleNamespace

    from twmahjong.server.net import protocol as P
    link = _Link(heard=False)
    via = _bare_cluster(link, {})

    async def go():
        conn = SimpleNamespace()
        proxy, cid = _seated_proxy(via, 0, conn)
        assert proxy.unacked == {}
        msg = P.seat_message.validate_python({"type": "action", "action": {"type": "pass"}})
        proxy.submit(0, msg, conn)
        await asyncio.sleep(0.02)
        link.sent.clear()
        proxy.reattach(0.01)
        return cid
    cid = run(go())
    assert [(m["op"], m["conn"]) for _, m in link.sent] == [("attach", cid)]


def test_a_process_that_listens_on_its_inbox_is_alive_without_its_lease_key(space):
    """After Redis restarts empty, a process's lease key is gone until its next beat,
    but its subscription is back at once: relayed messages reach it, so it is alive."""
    url, prefix = space

    async def go():
        a = RedisLink(url, prefix, "pa", 10.0)
        b = RedisLink(url, prefix, "pb", 10.0)
        a.on(a.inbox("pa"), lambda m: None)
        b.on(b.inbox("pb"), lambda m: None)
        await a.start()
        await b.start()
        try:
            listening = await a.alive("pb")             # subscribed, never beat
            gone = await a.alive("nobody")
            return listening, gone
        finally:
            await a.close()
            await b.close()
    assert run(go()) == (True, False)


def test_an_account_talking_through_two_workers_has_one_talk_limit(space):
    """The talk limit (3 at once, then one every 3 s) was counted per worker: an
    account with a tab on each of two workers could say 6 lines at once. With the
    bucket in Redis the two workers share it; without Redis each keeps its own."""
    from twmahjong.server.social.talk import TalkGate
    url, prefix = space

    async def go():
        links = [RedisLink(url, prefix, f"p{i}", 10.0) for i in range(2)]
        for ln in links:
            ln.on(ln.inbox(ln.process_id), lambda m: None)
            await ln.start()
        try:
            gates = [TalkGate(1 / 3, 3, link=ln) for ln in links]
            shared = [await gates[i % 2].allow(7) for i in range(8)]
            other = await gates[1].allow(8)              # another account: its own bucket
            alone = [TalkGate(1 / 3, 3), TalkGate(1 / 3, 3)]
            per_worker = [await alone[i % 2].allow(7) for i in range(8)]
            return shared, other, per_worker
        finally:
            for ln in links:
                await ln.close()
    shared, other, per_worker = run(go())
    assert shared == [True, True, True, False, False, False, False, False]
    assert other is True
    assert sum(per_worker) == 6                          # what it was before


def test_the_talk_limit_goes_on_per_worker_while_redis_is_away(tmp_path):
    """Redis stopped: talk is limited by the worker's own bucket, not refused."""
    from twmahjong.drill import RedisServer
    from twmahjong.server.social.talk import TalkGate
    srv = RedisServer(log=tmp_path / "redis.log").start()

    async def go():
        link = RedisLink(srv.url, "t", "p1", 10.0)
        link.on(link.inbox("p1"), lambda m: None)
        await link.start()
        gate = TalkGate(1 / 3, 2, link=link)
        try:
            first = await gate.allow(1)
            srv.stop()
            away = [await gate.allow(1) for _ in range(3)]
            return first, away
        finally:
            with contextlib.suppress(Exception):
                await link.close()
    first, away = run(go())
    assert first is True and away == [True, True, False]


def test_serve_with_an_unreachable_redis_says_so_in_one_line(tmp_path):
    import socket
    import subprocess
    import sys
    with socket.socket() as s:                  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = subprocess.run([sys.executable, "-c", "from twmahjong.cli import main; main()", "serve",
                        "--port", "0", "--data-dir", str(tmp_path),
                        "--redis", f"redis://127.0.0.1:{port}/0"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode != 0
    assert f"cannot reach Redis at redis://127.0.0.1:{port}/0" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_a_redis_restart_asks_to_queue_again_only_the_players_it_lost(tmp_path):
    """The chaos run (bench/chaos.py) found players matched twice: their group formed on
    the new Redis as the restart was noticed, the notice asked them to queue again, and
    the first table waited out the clock of every seat whose player had gone to a second
    one. After a restart only a player the new Redis does not have is asked again; one
    queued there waits on, one whose group is being seated is seated; and a match that
    still arrives for a player asked again seats them there, once."""
    from twmahjong.drill import RedisServer
    redis_server = RedisServer(log=tmp_path / "redis.log").start()
    log: list = []
    other = ("casual", "standard", "mid")

    async def go():
        gate = asyncio.Event()
        async with Proc("redis", redis_server.url, "t", log, fill_wait=600.0) as p:
            plain = p.queue.start_table

            async def gated(key, players):
                game_id = await plain(key, players)
                await gate.wait()               # the table is still starting ...
                return game_id
            p.queue.start_table = gated
            old = p.queue.join(KEY, (1, "old"))
            await until(lambda: p.queue.waiting(KEY) == 1)
            await asyncio.to_thread(redis_server.restart)
            await reconnected(p.link.r)         # the pool finds the new Redis
            # pushed onto the new Redis before this process noticed the restart
            kept = [p.queue.join(KEY, (10 + i, f"k{i}")) for i in range(2)]
            await until(lambda: p.queue.waiting(KEY) == 2)
            # and a group popped from the new Redis, its table still starting
            group = [p.queue.join(other, (20 + i, f"g{i}")) for i in range(4)]
            await until(lambda: len(log) == 1)
            await p.queue.lost()                # ... when the restart is noticed
            gate.set()
            matched = await asyncio.wait_for(asyncio.gather(*(w.future for w in group)), HANG)
            with pytest.raises(LobbyError) as told:
                await old.future
            assert not any(w.future.done() for w in kept)
            # two more make a table with the two kept: nobody is seated twice
            more = [p.queue.join(KEY, (30 + i, f"m{i}")) for i in range(2)]
            seats = await asyncio.wait_for(asyncio.gather(*(w.future for w in kept + more)),
                                           HANG)
            # the player asked to queue again queues again; then the old group's match
            # still arrives: seated there, the new entry withdrawn
            again = p.queue.join(KEY, (1, "old"))
            await until(lambda: p.queue.waiting(KEY) == 1)
            (old_entry,) = p.queue._requeued
            p.queue.handle({"op": "matched", "entry": old_entry, "game_id": "g_late",
                            "seat": 2})
            late = await asyncio.wait_for(again.future, HANG)
            await until(lambda: p.queue.waiting(KEY) == 0)
            left = await p.link.r.llen(p.link.key("queue", "|".join(KEY)))
            return told.value.code, matched, seats, late, left
    try:
        code, matched, seats, late, left = run(go())
    finally:
        redis_server.stop()
    assert code == "requeue"
    assert len({g for g, _ in matched}) == 1 and len(log) == 2
    assert len({g for g, _ in seats}) == 1 and seats[0][0] == log[1][0]
    assert late == ("g_late", 2) and left == 0


def test_an_entry_its_own_process_left_behind_does_not_refuse_the_player(space):
    """A process keeps one entry an account; an older one of its own still in Redis
    (a push that reached the new Redis after the restart was noticed) was left
    behind, and queueing again replaces it instead of answering already_queued."""
    url, prefix = space
    log: list = []

    async def go():
        async with Proc("redis", url, prefix, log, fill_wait=600.0) as p:
            queued = p.link.key("queued")
            first = p.queue.join(KEY, (7, "seven"))
            while not await p.link.r.hget(queued, "7"):         # in Redis
                await asyncio.sleep(0.01)
            p.queue._entries.clear()           # forgotten here, still in Redis
            again = p.queue.join(KEY, (7, "seven"))
            ((text, _),) = p.queue._entries.values()
            # refused (already_queued), or queued in place of the old entry
            while not again.future.done() and await p.link.r.hget(queued, "7") != text:
                await asyncio.sleep(0.01)
            refused = again.future.done()
            left = await p.link.r.llen(p.link.key("queue", "|".join(KEY)))
            return refused, left, first.future.done()
    assert run(go()) == (False, 1, False)


def test_a_match_whose_message_was_lost_still_seats_the_player(space):
    """The chaos run (bench/chaos.py): a group formed on one process, and its
    ``matched`` to the process of one player was published while that process subscribed
    again after a Redis restart (nobody heard it). The player waited in the queue; the
    table waited out their seat's clock. The answer is kept in Redis, and the waiting
    process's poller finds it."""
    url, prefix = space
    log: list = []

    async def go():
        async with Proc("redis", url, prefix, log, fill_wait=600.0) as a, \
                Proc("redis", url, prefix, log, fill_wait=600.0) as b:
            lost = a.link.inbox(a.link.process_id)
            publish = b.link.publish
            b.link.publish = lambda ch, msg, **kw: None if ch == lost else publish(ch, msg, **kw)
            first = a.queue.join(KEY, (1, "a"))
            while not await a.link.r.hget(a.link.key("queued"), "1"):
                await asyncio.sleep(0.01)
            rest = [b.queue.join(KEY, (10 + i, f"b{i}")) for i in range(3)]
            seated = await asyncio.wait_for(asyncio.gather(first.future,
                                                           *(w.future for w in rest)), HANG)
            return seated
    seated = run(go())
    assert len(log) == 1 and len({g for g, _ in seated}) == 1
    assert sorted(s for _, s in seated) == [0, 1, 2, 3]


class Partition:
    """A TCP proxy in front of Redis that can lose its connections silently, as a
    network partition does: ``cut()`` closes every connection's Redis side (Redis
    forgets the client, a subscriber included) and forwards nothing more on it, while
    the client's side stays open and says nothing. New connections pass as before."""

    def __init__(self, port: int):
        self.port = port
        self.cut_off: list[asyncio.StreamWriter] = []     # client sides left hanging
        self._pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self._pumps: set[asyncio.Task] = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    async def _serve(self, r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        ur, uw = await asyncio.open_connection("127.0.0.1", self.port)
        self._pairs.append((w, uw))
        for src, dst in ((r, uw), (ur, w)):
            t = asyncio.create_task(self._pump(src, dst))
            self._pumps.add(t)
            t.add_done_callback(self._pumps.discard)

    @staticmethod
    async def _pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()

    def cut(self) -> None:
        for t in list(self._pumps):
            t.cancel()
        for client, upstream in self._pairs:
            upstream.close()
            self.cut_off.append(client)
        self._pairs = []

    async def close(self) -> None:
        self.cut()
        for w in self.cut_off:
            w.close()
        self.server.close()


def test_a_connection_lost_silently_is_noticed_and_replaced(tmp_path):
    """A partition that swallows the connections without closing them: a command
    gives up (a RedisError, not a wait for ever), the next one works on a new
    connection, and the listener, whose subscription Redis no longer has, notices
    the silence, subscribes again and hears what is sent to it. Before, the listener
    waited for ever on the dead connection and the process heard nothing again."""
    import redis.asyncio as aredis
    from redis.exceptions import RedisError

    from twmahjong.drill import RedisServer
    srv = RedisServer(log=tmp_path / "redis.log").start()

    async def go() -> tuple[bool, list[str], int]:
        proxy = Partition(srv.port)
        link = RedisLink(await proxy.start(), "t", "p1", 2.0)
        heard: list[str] = []
        link.on(link.inbox("p1"), lambda m: heard.append(m["n"]))
        await link.start()
        direct = aredis.from_url(srv.url, decode_responses=True)
        try:
            await direct.publish(link.inbox("p1"), '{"n": "before"}')
            await until(lambda: heard == ["before"])
            await link.beat()                          # the command pool has a connection
            proxy.cut()
            try:
                await asyncio.wait_for(link.beat(), HANG)
                gave_up = False
            except RedisError:
                gave_up = True
            await link.beat()                          # a new connection
            n = 0
            while "after" not in heard:                # until the listener is back
                n += 1
                await direct.publish(link.inbox("p1"), '{"n": "after"}')
                await asyncio.sleep(0.1)
                assert n < HANG * 10, "the listener never heard again"
            return gave_up, heard, link.reconnects
        finally:
            await direct.aclose()
            await link.close()
            await proxy.close()
    try:
        gave_up, heard, reconnects = run(go())
    finally:
        srv.stop()
    assert gave_up
    assert heard[0] == "before" and set(heard[1:]) == {"after"}
    assert reconnects == 1

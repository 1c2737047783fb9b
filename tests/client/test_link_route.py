"""``GameLink`` following its table to the worker that plays it (docs/protocol.md,
``welcome``'s ``route``), against two scripted workers on loopback: what is sent in
the moment of a move, and where the link goes when the table's worker is gone.

The two-worker cluster itself (a real relay that ends) is
tests/server/test_redis_cluster.py's; these pin the edges a real table cannot be
made to hit on purpose: an action in flight while the socket moves, the notices of
the move's own second socket, the routed worker refusing the socket."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest
from websockets.asyncio.server import serve

from twmahjong.client import GameLink

pytestmark = pytest.mark.asyncio

DISCARD = {"type": "discard", "tile": "5s"}


def snapshot(route: str, turn: int, legal=(DISCARD,)) -> dict:
    return {"type": "snapshot", "turn": turn,
            "table": {"game_id": "g1", "route": route, "seats": [{}, {}, {}, {}]},
            "observation": {"seat": 0, "hand": "5s", "legal": list(legal)}}


class Worker:
    """One scripted worker: answers ``hello`` by ``on_hello(ws, hello)``, an action
    with an update of the next turn (unless ``answers`` is off: a relay that never
    carried it), a ping with a pong (everything sent before it has been read), and
    keeps every frame each of its sockets sent."""

    def __init__(self, on_hello, answers: bool = True):
        self.on_hello = on_hello
        self.answers = answers
        self.got: list[dict] = []
        self.sockets: list = []
        self.closed = asyncio.Event()          # a socket of ours was closed by the client
        self.server = None

    async def _serve(self, ws) -> None:
        self.sockets.append(ws)
        try:
            async for raw in ws:
                m = json.loads(raw)
                self.got.append(m)
                if m["type"] == "hello":
                    await self.on_hello(ws, m)
                elif m["type"] == "action" and self.answers:
                    await send(ws, {"type": "update", "turn": m["turn"] + 1, "events": []})
                elif m["type"] == "ping":
                    await send(ws, {"type": "pong"})
        finally:
            self.closed.set()

    async def start(self) -> Worker:
        self.server = await serve(self._serve, "127.0.0.1", 0)
        return self

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/ws"

    async def stop(self) -> None:
        self.server.close()
        await self.server.wait_closed()


async def send(ws, *msgs: dict) -> None:
    for m in msgs:
        await ws.send(json.dumps(m))


@pytest.mark.parametrize("applied", [False, True], ids=["not applied", "applied"])
async def test_a_move_resends_an_unanswered_action_once_and_hides_its_own_notices(applied):
    """The owner's snapshot still asks the decision an action was sent for on the first
    socket: sent again there, once, with the same ``turn``; it shows a later turn (the
    relay did carry it): not sent again. The owner counting both sockets for a moment
    is not said as "open in two places". Then the owner goes away: the next socket
    tries its address, finds nobody, and goes back to the plain one."""
    home = owner = None

    async def home_hello(ws, m):
        if m.get("ticket"):                     # back after the owner went away
            await send(ws, {"type": "welcome", "account": {}, "route": home.url},
                       snapshot(home.url, 9))
            return
        await send(ws, {"type": "welcome", "account": {}, "route": home.url},
                   {"type": "matched", "game_id": "g1", "seat": 0, "ticket": "T1"},
                   snapshot(home.url, 5))

    async def owner_hello(ws, m):
        await send(ws, {"type": "welcome", "account": {}, "route": owner.url},
                   snapshot(owner.url, 6 if applied else 5),
                   {"type": "notice", "kind": "second_connection",
                    "data": {"game_id": "g1", "seat": 0, "connections": 2}})
        await home.closed.wait()                # the first socket has left the seat
        await send(ws, {"type": "notice", "kind": "second_connection",
                        "data": {"game_id": "g1", "seat": 0, "connections": 1}})

    home = await Worker(home_hello, answers=False).start()
    owner = await Worker(owner_hello).start()
    link = GameLink(home.url.removesuffix("/ws").replace("ws:", "http:"), "tok")
    try:
        await link.connect()
        given = [await link.recv(), await link.recv()]         # matched, snapshot
        assert [m["type"] for m in given] == ["matched", "snapshot"] and link.moves == 0
        await link.act(DISCARD)                                 # on the first socket
        # as after an adoption: the first worker's fresh snapshot names another owner
        await send(home.sockets[0], snapshot(owner.url, 5))
        moved = await link.recv()
        assert moved["type"] == "snapshot" and moved["table"]["route"] == owner.url
        assert (link.url, link.route, link.moves) == (owner.url, owner.url, 1)
        notice = await link.recv()
        assert notice["type"] == "notice" and notice["data"]["connections"] == 1
        await link.ping()
        after = [await link.recv()] if applied else [await link.recv(), await link.recv()]
        assert [m["type"] for m in after] == (["pong"] if applied else ["update", "pong"])
        assert link.state.connections == 1
        actions = [m for m in owner.got if m["type"] == "action"]
        assert actions == ([] if applied else [{"v": 1, "type": "action", "action": DISCARD,
                                                "turn": 5}])
        assert [m["turn"] for m in home.got if m["type"] == "action"] == [5]
        assert owner.got[0] == {"v": 1, "type": "hello", "token": "tok", "ticket": "T1"}

        await owner.stop()                                      # the table's worker is gone
        assert (await link.recv()) == {"type": "link", "state": "lost"}
        back = await link.recv()
        assert back["type"] == "link" and back["state"] == "back"
        assert link.url == link.home == home.url and link.route == home.url
        assert (await link.recv())["turn"] == 9
        assert home.got[-1] == {"v": 1, "type": "hello", "token": "tok", "ticket": "T1"}
    finally:
        await link.close()
        await home.stop()


async def test_a_refused_move_leaves_the_seat_where_it_is():
    """The owner's address answers nothing (a worker just gone): the seat stays on the
    first socket, relayed; the caller gets the first worker's snapshot, no link note,
    and its move goes the first way — nothing was lost."""
    with socket.socket() as sock:                   # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        gone = f"ws://127.0.0.1:{sock.getsockname()[1]}/ws"

    async def home_hello(ws, m):
        await send(ws, {"type": "welcome", "account": {}, "route": "/ws?w=1"},
                   {"type": "matched", "game_id": "g1", "seat": 0, "ticket": "T1"},
                   snapshot(gone, 5))

    home = await Worker(home_hello).start()
    link = GameLink(home.url.removesuffix("/ws").replace("ws:", "http:"), "tok")
    try:
        await link.connect()
        assert (await link.recv())["type"] == "matched"
        snap = await link.recv()
        assert snap["type"] == "snapshot" and snap["table"]["route"] == gone
        assert (link.url, link.route, link.moves) == (home.url, "/ws?w=1", 0)
        await link.act(DISCARD)
        assert (await link.recv()) == {"type": "update", "turn": 6, "events": []}
        assert not home.closed.is_set()
    finally:
        await link.close()
        await home.stop()

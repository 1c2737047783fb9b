"""deploy/onebox.sh: the documented one-machine cluster really starts, serves players
through nginx from both workers, and stops (docs/deploy.md).

It starts a PostgreSQL cluster of its own (Debian's pg_createcluster, so root), a
redis-server, two ``twmj serve`` workers and nginx, on free ports, and takes them all
down again. CI has all of these (``.ci/run`` installs them).
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from server_helpers import HANG, simple_policy

from twmahjong.client import GameLink

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "onebox.sh"


def _missing() -> str | None:
    for tool in ("nginx", "redis-server", "pg_createcluster"):
        if shutil.which(tool) is None:
            return tool
    return None


pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or _missing() is not None,
    reason=f"deploy/onebox.sh needs root and nginx, redis-server, pg_createcluster "
           f"(missing: {_missing() or 'root'}); CI installs them")


def _free_ports(n: int) -> list[int]:
    """Ports for the box: the second worker listens on the first's port + 1, so they are
    taken from below the kernel's ephemeral range, where no outgoing connection of
    another test can be sitting on that neighbour (bind(0) hands out ephemeral ports,
    and CI once lost a run to "worker 2 did not come up" that way)."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rng = random.Random(os.getpid())
    while True:
        start = rng.randrange(10_000, low - n)
        socks = []
        try:
            for port in range(start, start + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", port))
            return list(range(start, start + n))
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()


class Balancer:
    """The box's front door: its HTTP address, its WebSocket, a guest's token."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}/ws"

    def guest(self) -> str:
        r = httpx.post(self.base + "/api/v1/guests", timeout=60)
        assert r.status_code == 201, r.text
        return r.json()["token"]


async def play_hand(link: GameLink) -> dict:
    """Answer every decision of the link's seat until its hand ends: the ``hand_end``."""
    while (m := await link.recv())["type"] != "hand_end":
        assert m["type"] != "link", m                # a move is no lost link
        if m["type"] in ("update", "snapshot") and link.state.decision():
            await link.act(simple_policy(link.state.obs))
    return m


@pytest.fixture
def onebox(tmp_path):
    lb, pg, redis, w1, _w2 = _free_ports(5)
    env = {**os.environ, "ONEBOX_PORT": str(lb), "ONEBOX_WORKER_PORT": str(w1),
           "ONEBOX_PG_PORT": str(pg), "ONEBOX_REDIS_PORT": str(redis),
           "TWMJ": str(Path(sys.executable).with_name("twmj")),
           # the workers read TWMJ_* like any server: short windows, as in the other tests
           "TWMJ_CLAIM_WINDOW": "0.02", "TWMJ_BOT_DELAY": "0"}
    env.pop("ONEBOX_DATABASE", None)
    box = tmp_path / "box"

    def run(cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(SCRIPT), cmd, str(box)], env=env, capture_output=True,
                              text=True, timeout=HANG)
    up = run("up")
    try:
        assert up.returncode == 0, up.stdout + up.stderr
        yield run, Balancer(lb), box, (w1, w1 + 1)
    finally:
        down = run("down")
        assert down.returncode == 0, down.stdout + down.stderr


def test_onebox_serves_one_table_through_nginx_from_both_workers_and_stops(onebox):
    run, lb, box, workers = onebox
    # the balancer answers for both workers
    seen = {httpx.get(lb.base + "/api/v1/health", timeout=60).json()["process"]
            for _ in range(6)}
    assert len(seen) == 2
    status = run("status")
    assert status.returncode == 0 and '"ok":true' in status.stdout

    async def play() -> list[dict]:
        # sixteen sockets held open first (a lobby's worth of idle players), one at a
        # time: after each, the workers hold as many as each other, give or take one,
        # whichever nginx process took it (the counts are shared between them; each
        # process used to count only its own, and came out two apart 8 runs in 10)
        idle, spread = [], []
        async with httpx.AsyncClient(timeout=60) as http:
            for _ in range(16):
                idle.append(await connect(lb.ws_url))
                spread.append([(await http.get(f"http://127.0.0.1:{p}/api/v1/health"))
                               .json()["connections"] for p in workers])
        assert all(max(c) - min(c) <= 1 for c in spread), spread
        # four people through the balancer, on twmahjong.client (the terminal's library)
        links = [GameLink(lb.base, lb.guest()) for _ in range(4)]
        for link in links:
            await link.connect()
            await link.quick_match(stake="low")
        for link in links:
            while (await link.recv())["type"] != "matched":
                pass
        # least_conn spread the four sockets over both workers, so the table's owner
        # relays some seats through Redis
        async with httpx.AsyncClient(timeout=60) as http:
            held = [(await http.get(f"http://127.0.0.1:{p}/api/v1/health")).json()
                    for p in workers]
        # each link follows its table's route through nginx (/ws?w=I) by itself as its
        # snapshot comes, and its first socket closes: the owner's worker then holds
        # all four, nothing is relayed
        routes = {link.route for link in links}
        for link in links:
            while (m := await link.recv())["type"] != "snapshot":
                assert m["type"] != "link", m
        owner = {link.state.table["route"] for link in links}
        moved = sorted(link.moves for link in links)
        assert {link.route for link in links} == owner
        async with httpx.AsyncClient(timeout=60) as http:
            end = asyncio.get_running_loop().time() + HANG
            while True:          # the first sockets' closes reach their worker
                assert asyncio.get_running_loop().time() < end, "the first sockets stayed open"
                after = [(await http.get(f"http://127.0.0.1:{p}/api/v1/health")).json()
                         for p in workers]
                if sorted(h["connections"] for h in after) == [8, 12]:
                    break
                await asyncio.sleep(0.05)
        ends = await asyncio.gather(*(play_hand(link) for link in links))
        for link in links:
            await link.close()
        for ws in idle:
            await ws.close()
        game_ids = [link.state.game_id for link in links]
        return game_ids, ends, held, routes, owner, after, moved

    game_ids, ends, held, routes, owner, after, moved = asyncio.run(play())
    assert [h["connections"] for h in held] == [10, 10]
    assert routes == {"/ws?w=1", "/ws?w=2"} and len(owner) == 1
    assert moved == [0, 0, 1, 1]                       # the two on the other worker
    # the owner's worker has the four players' sockets, the other only its idle ones
    assert [h["connections"] for h in after] == ([12, 8] if owner == {"/ws?w=1"} else [8, 12])
    assert sum(h["tables"] for h in held) == 1
    assert len(set(game_ids)) == 1                     # four people, one table
    assert all(e["result"] == ends[0]["result"] for e in ends)

    down = run("down")
    assert down.returncode == 0, down.stderr
    for p in (*workers, int(lb.base.rsplit(":", 1)[1])):
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", p)) != 0, f"port {p} still open after down"
    assert not any(box.glob("worker*.pid")) and not (box / "nginx.pid").exists()


def test_onebox_up_names_a_worker_that_could_not_start_and_down_still_cleans_up(tmp_path):
    """A worker whose port is taken exits at once; ``up`` says so with the worker's own
    words instead of polling a dead process for two minutes."""
    lb, redis, w1, w2 = _free_ports(4)
    box = tmp_path / "box"
    env = {**os.environ, "ONEBOX_PORT": str(lb), "ONEBOX_WORKER_PORT": str(w1),
           "ONEBOX_REDIS_PORT": str(redis),
           "ONEBOX_DATABASE": f"sqlite+aiosqlite:///{tmp_path / 'twmj.db'}",
           "TWMJ": str(Path(sys.executable).with_name("twmj"))}

    def run(cmd: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(SCRIPT), cmd, str(box)], env=env, capture_output=True,
                              text=True, timeout=HANG)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", w2))           # bound, not listening: refuses, and taken
        try:
            up = run("up")
        finally:
            down = run("down")
    assert up.returncode == 2
    assert f"worker 2 exited before it was ready on port {w2}" in up.stderr
    assert "address already in use" in up.stderr.lower()
    assert down.returncode == 0, down.stderr
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", w1)) != 0, "worker 1 still serving after down"

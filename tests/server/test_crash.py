"""Nothing acknowledged is lost, with a real ``kill -9``.

``twmj serve`` runs as a process of its own. A player plays; the moment its own
discard comes back to it, the process is killed with SIGKILL — no shutdown, no
flush — and started again on the same database. The player reconnects with its
ticket: every discard it had seen, of every seat, must be in the table it finds,
in order. Repeated, on SQLite and on PostgreSQL. On the old server the broadcast
went out before the write and 6 of 10 such kills lost the discard.
"""

from __future__ import annotations

import asyncio
import json

import httpx
from server_helpers import HANG, simple_policy
from websockets.asyncio.client import connect

from twmahjong.drill import Worker

KILLS = 3


async def _recv(ws) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), HANG))


async def _join(srv: Worker, hello: dict) -> tuple:
    ws = await connect(f"ws://127.0.0.1:{srv.port}/ws")
    await ws.send(json.dumps(hello))
    assert (await _recv(ws))["type"] == "welcome"
    return ws


async def _play_until_own_discard_shown(ws, state: dict) -> tuple[int, list[list[str]]]:
    """Answer decisions until an update shows this seat's own discard; the hand and
    the rivers as the player saw them at that moment."""
    while True:
        m = await _recv(ws)
        if m["type"] == "matched":
            state["seat"], state["ticket"] = m["seat"], m["ticket"]
            continue
        if m["type"] == "hand_start":
            state["hand"] = m["hand_no"]
        if m["type"] == "snapshot":
            state["ticket"] = m.get("ticket") or state["ticket"]
            if m.get("hand"):
                state["hand"] = m["hand"]["hand_no"]
        if m["type"] not in ("snapshot", "update") or not m.get("observation"):
            continue
        obs = m["observation"]
        if any(ev["type"] == "discard" and ev["seat"] == state["seat"]
               for ev in m.get("events", [])):
            return state["hand"], obs["discards"]
        if obs.get("legal"):
            await ws.send(json.dumps({"type": "action", "action": simple_policy(obs),
                                      "turn": m["turn"]}))


def test_a_discard_its_player_saw_survives_kill_9(tmp_path, db_url):
    srv = Worker(db_url, tmp_path / "data", log=tmp_path / "serve.log").start()
    try:
        token = httpx.post(f"{srv.base}/api/v1/guests", timeout=10).json()["token"]

        async def first() -> tuple[dict, tuple]:
            state: dict = {}
            ws = await _join(srv, {"type": "hello", "token": token})
            await ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
            seen = await _play_until_own_discard_shown(ws, state)
            return state, seen
        state, seen = asyncio.run(first())
        kept = 0
        for _ in range(KILLS):
            hand, rivers = seen
            srv.kill9()
            srv.start()

            async def again() -> tuple[dict, tuple]:
                ws = await _join(srv, {"type": "hello", "token": token,
                                       "ticket": state["ticket"]})
                snap = await _recv(ws)
                while snap["type"] != "snapshot":
                    snap = await _recv(ws)
                state["ticket"] = snap.get("ticket") or state["ticket"]
                if snap["observation"].get("legal"):
                    await ws.send(json.dumps({"type": "action", "turn": snap["turn"],
                                              "action": simple_policy(snap["observation"])}))
                nxt = await _play_until_own_discard_shown(ws, state)
                return snap, nxt
            snap, nxt = asyncio.run(again())
            if snap["hand"]["hand_no"] == hand:
                # every discard the player saw, of every seat, is there and in order
                after = snap["observation"]["discards"]
                for seat in range(4):
                    assert after[seat][:len(rivers[seat])] == rivers[seat], (seat, rivers, after)
                kept += 1
            else:        # a win on that very discard ended the hand: it must be settled
                assert snap["hand"]["hand_no"] == hand + 1
            seen = nxt
        assert kept >= KILLS - 1
    finally:
        srv.stop()

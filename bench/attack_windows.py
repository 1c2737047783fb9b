"""Claim-window timing, attacked end to end: does a window close later when a bot
could claim?

Starts ``twmj serve`` (bench/attack.py's ``Server``: SQLite in a temporary
directory, or ``--database-url`` for PostgreSQL), opens a room against bots of one
level, sits in it and plays the game out with the plain policy. For every discard
by another seat that we ourselves cannot claim, it takes the time from the update
that opens the window to the next update (the draw), as the attacker's client
received them. When the game is over it replays the stored moves through the
engine to learn, for each window, whether a bot could have claimed, and compares
the gaps of windows a bot could claim (and passed) with those nobody could:

- ``later``: how often a claimable window closed later than an unclaimable one
  (the probability of superiority; 0.5 is no signal);
- ``z``: the Mann-Whitney rank test's z (|z| > 3: the two can be told apart);
- the medians of both, in ms.

    .venv/bin/python bench/attack_windows.py --bots L1 --rounds 2
    .venv/bin/python bench/attack_windows.py --bots L5 \\
        --postgres postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj
    .venv/bin/python bench/attack_windows.py --pythonpath /tmp/old/src   # an older server

Only loopback is ever a target; one game, bounded by ``--rounds`` (1-4).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from attack import HTTP, Player, Server, new_guest

CLAIMS = ("chi", "pon", "kong", "win")


async def play(srv: Server, bots: str, rounds: int) -> tuple[str, list[dict]]:
    """One game against ``bots``; every window we could not claim, as we saw it."""
    token = new_guest(srv)
    auth = {"Authorization": f"Bearer {token}"}
    r = httpx.post(srv.base + "/api/v1/rooms", headers=auth, timeout=HTTP,
                   json={"profile": "standard", "stake": "low", "rounds": rounds,
                         "bots": bots})
    r.raise_for_status()
    room = r.json()
    httpx.post(srv.base + f"/api/v1/rooms/{room['code']}/start", headers=auth,
               timeout=HTTP).raise_for_status()
    p = await Player.open(srv, {"type": "hello", "token": token})
    p.seat = room["seat"]
    for _ in range(100):
        await p.ws.send(json.dumps({"type": "join", "ticket": room["ticket"]}))
        m = await p.recv()
        if m["type"] == "snapshot":
            break
        await asyncio.sleep(0.1)                 # not_started: the game is being made
    windows: list[dict] = []
    open_: dict | None = None
    while True:
        raw = await asyncio.wait_for(p.ws.recv(), 60)
        t = time.perf_counter()
        m = json.loads(raw)
        if m["type"] == "game_end":
            break
        if m["type"] in ("snapshot", "update") and m.get("observation"):
            p.obs, p.turn = m["observation"], m["turn"]
        if m["type"] == "hand_end":
            open_ = None
        elif m["type"] == "update":
            evs = m.get("events", [])
            if open_ is not None:
                open_["gap"] = t - open_["t"]
                open_["claimed"] = any(e["type"] in CLAIMS for e in evs)
                open_ = None
            for e in evs:
                if e["type"] == "discard":
                    w = {"discarder": e["seat"], "t": t, "mine": bool(p.obs.get("legal"))}
                    windows.append(w)
                    if e["seat"] != p.seat and not w["mine"]:
                        open_ = w
        await p.answer(m)
        if m["type"] == "hand_end":
            await p.ws.send(json.dumps({"type": "ready"}))
    await p.ws.close()
    return room["game_id"], windows


async def claimable(db_url: str, game_id: str) -> list[bool]:
    """For each claim window of the game, in order: could any seat claim?"""
    from twmahjong.server.play.engine_game import EngineGame
    from twmahjong.server.play.game import PASS_ONLY
    from twmahjong.server.store.db import create_engine
    from twmahjong.server.store.repository import SqlRepository
    engine = create_engine(db_url)
    try:
        repo = SqlRepository(engine)
        row, actions = await repo.game(game_id), await repo.game_actions(game_id)
    finally:
        await engine.dispose()
    meta = {k: row[k] for k in ("profile", "stake", "rounds")}
    meta["options"] = row["options"]
    g = EngineGame(meta)
    out, seen = [], None
    for r in actions:
        if r["kind"] == "hand":
            g.start_hand()
        elif r["kind"] == "settled":
            g.finish_hand()
        elif r["kind"] == "action":
            if g.hand.phase == "claim" and seen != len(g.match.events):
                seen = len(g.match.events)
                out.append(any(a != PASS_ONLY for a in g.pending().values()))
            g.act(r["seat"], r["data"]["action"])
    return out


def rank_z(a: list[float], b: list[float]) -> tuple[float, float]:
    """(P(a > b), Mann-Whitney z) — ties count half."""
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks, i = [0.0] * len(pooled), 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    n1, n2 = len(a), len(b)
    u = sum(r for r, (_, g) in zip(ranks, pooled) if g == 0) - n1 * (n1 + 1) / 2
    return u / (n1 * n2), (u - n1 * n2 / 2) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)


def measure(srv: Server, db_url: str, bots: str, rounds: int) -> dict:
    game_id, seen = asyncio.run(play(srv, bots, rounds))
    kinds = asyncio.run(claimable(db_url, game_id))
    if len(kinds) != len(seen):
        raise SystemExit(f"{len(seen)} windows seen, {len(kinds)} stored: cannot line them up")
    could, nobody = [], []
    for w, k in zip(seen, kinds):
        if "gap" in w and not w["claimed"]:
            (could if k else nobody).append(w["gap"] * 1000)
    later, z = rank_z(could, nobody)
    return {"bots": bots, "windows": len(seen), "claimable": len(could),
            "unclaimable": len(nobody), "later": round(later, 3), "z": round(z, 2),
            "median_claimable_ms": round(statistics.median(could), 2),
            "median_unclaimable_ms": round(statistics.median(nobody), 2)}


async def timeouts(srv: Server, want: int, limit: float = 300.0) -> dict:
    """A claim that runs out of time: does the 托管 it causes name the claimer?

    Two people and two L1 bots. The victim plays its own turns at once and never
    answers a claim, so each claim it is offered runs out of time (the server runs
    with a short turn clock) and its seat goes on 托管; it takes the seat back at
    once. The other person counts the victim's ``presence`` with ``auto: true`` that
    reach it while a claim window is open (between the update that opens it and the
    next), and how many of all such messages came while the victim held an option."""
    tv, to = new_guest(srv), new_guest(srv)
    av, ao = {"Authorization": f"Bearer {tv}"}, {"Authorization": f"Bearer {to}"}
    r = httpx.post(srv.base + "/api/v1/rooms", headers=av, timeout=HTTP,
                   json={"profile": "standard", "stake": "low", "rounds": 4, "bots": "L1"})
    r.raise_for_status()
    rv = r.json()
    ro = httpx.post(srv.base + f"/api/v1/rooms/{rv['code']}/join", headers=ao, timeout=HTTP)
    ro.raise_for_status()
    httpx.post(srv.base + f"/api/v1/rooms/{rv['code']}/start", headers=av,
               timeout=HTTP).raise_for_status()
    seats = {}
    for name, token, room in (("v", tv, rv), ("o", to, ro.json())):
        p = await Player.open(srv, {"type": "hello", "token": token})
        p.seat = room["seat"]
        for _ in range(100):
            await p.ws.send(json.dumps({"type": "join", "ticket": room["ticket"]}))
            if (await p.recv())["type"] == "snapshot":
                break
            await asyncio.sleep(0.1)
        seats[name] = p
    v, o = seats["v"], seats["o"]
    held = {"option": False}         # the victim holds an option in the open window
    seen = {"auto_presence": 0, "inside_window": 0, "victim_held_option": 0}
    done = asyncio.Event()

    async def victim() -> None:
        while not done.is_set():
            m = await v.recv()
            if m["type"] == "game_end":
                done.set()
            elif m["type"] == "hand_end":
                await v.ws.send(json.dumps({"type": "ready"}))
            elif m["type"] == "presence" and m["seat"] == v.seat and m["auto"]:
                await v.ws.send(json.dumps({"type": "auto", "on": False}))
            elif m["type"] in ("snapshot", "update") and v.obs:
                legal = v.obs.get("legal") or []
                held["option"] = v.obs.get("phase") == "claim" and bool(legal)
                if any(a["type"] == "discard" for a in legal):
                    await v.answer(m)        # its own turn: at once

    async def observer() -> None:
        window = False
        while not done.is_set():
            m = await o.recv()
            if m["type"] == "game_end":
                done.set()
            elif m["type"] == "hand_end":
                window = False
                await o.ws.send(json.dumps({"type": "ready"}))
            elif m["type"] == "update":
                window = any(e["type"] == "discard" for e in m.get("events", []))
                await o.answer(m)
            elif m["type"] == "presence" and m["seat"] == v.seat and m["auto"]:
                seen["auto_presence"] += 1
                seen["inside_window"] += window
                seen["victim_held_option"] += held["option"]
                if seen["auto_presence"] >= want:
                    done.set()
            else:
                await o.answer(m)
    tasks = [asyncio.create_task(victim()), asyncio.create_task(observer())]
    try:
        await asyncio.wait_for(done.wait(), limit)
    except (TimeoutError, asyncio.TimeoutError):
        pass
    for t in tasks:
        t.cancel()
    for p in (v, o):
        await p.ws.close()
    return seen


def sqlite_url(data: Path) -> str:
    return f"sqlite+aiosqlite:///{data / 'twmj.sqlite3'}"


def windows_attack(srv: Server, data: Path, bots: str = "L1", rounds: int = 1) -> dict:
    """For bench/attack.py (its SQLite server in ``data``): one game's windows."""
    got = measure(srv, sqlite_url(data), bots, rounds)
    return {f"window_{k}": v for k, v in got.items()}


def timeouts_attack(srv: Server, want: int = 20) -> dict:
    """For bench/attack.py: 托管 news of timed-out claims (needs a short turn clock:
    its server runs with TWMJ_TURN_BASE 60, so this one is asked for by name only)."""
    return {f"timeout_{k}": v for k, v in asyncio.run(timeouts(srv, want)).items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default="L1", help="the level that fills the room (L1-L5)")
    ap.add_argument("--rounds", type=int, default=2, help="圈 in the game, 1-4")
    ap.add_argument("--claim-window", default="0.05", help="s (the server's claim_window)")
    ap.add_argument("--postgres", metavar="URL", help="a PostgreSQL server (postgresql+asyncpg"
                    "://…/db); its database twmj_attack_windows is emptied and used")
    ap.add_argument("--pythonpath", help="attack the twmahjong found here")
    ap.add_argument("--timeouts", type=int, default=0, metavar="N",
                    help="instead: let N claims run out of time (turn clock 0.3 s) and "
                         "count the 托管 news another seat gets inside the window")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not 1 <= a.rounds <= 4:
        raise SystemExit("--rounds 1..4")
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(a.pythonpath, Path(tmp) / "data")
        srv.env["TWMJ_CLAIM_WINDOW"] = a.claim_window
        srv.env["TWMJ_HAND_PAUSE"] = "0.05"
        srv.env["TWMJ_PAUSE_AFTER"] = "600"
        db_url = sqlite_url(Path(tmp) / "data")
        if a.postgres:
            from twmahjong.drill import fresh_postgres
            db_url = fresh_postgres(a.postgres, "twmj_attack_windows")
            srv.env["TWMJ_DATABASE_URL"] = db_url
        if a.timeouts:
            srv.env.update({"TWMJ_TURN_BASE": "0.3", "TWMJ_TURN_BANK": "0",
                            "TWMJ_CLAIM_WINDOW": "0.2"})
        srv.start()
        try:
            res = (asyncio.run(timeouts(srv, a.timeouts)) if a.timeouts
                   else measure(srv, db_url, a.bots, a.rounds))
        finally:
            srv.stop()
    if a.json:
        print(json.dumps(res))
    else:
        for k, v in res.items():
            print(f"{k:<24}  {v}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()

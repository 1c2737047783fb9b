"""A bounded, repeatable attack on a local game server (the defects it once found stay found).

Starts ``twmj serve`` itself (a temporary SQLite database, a free loopback port)
from this checkout or from ``--pythonpath`` (to attack an older checkout), then:

- fuzz: seats a player at a table with bots and sends ``--frames`` fuzzed frames
  (flower tiles in every action type, garbage shapes, deep nesting, bad JSON),
  counting frames that got no ``error`` reply and tables that stopped (the player
  then plays on: the hand must still end);
- leaks: over the hands it watches, counts discards a seat saw *without* the
  claim window every discard must open (each one tells that somebody held a
  claim), and snapshots that resend the seat ticket;
- lost moves: ``--kills`` times, kills the server with SIGKILL the moment a
  player sees its own discard, restarts it and counts seen discards that are gone;
- HTTP: a body over the limit, a nested frame, login guessing with varied
  X-Forwarded-For, case-variant names, room-code guessing, challenge tables
  opened by one account.

Every loop is bounded in count and time; it stops by itself and prints a table
(and ``--json``). Only loopback is ever a target.

    .venv/bin/python bench/attack.py --frames 600 --kills 5
    .venv/bin/python bench/attack.py --pythonpath /tmp/old/src      # the old server
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import attack_accounts                 # bench/attack_accounts.py: accounts, credits, friends
from load import choose as simple      # bench/load.py: win, pass claims, throw the draw
from websockets.asyncio.client import connect

MAX_FRAMES = 50_000
RECV = 30.0
HTTP = 120.0        # argon2 on a loaded machine is slow: a late answer is not a refusal

TILES = ["1f", "8f", "4f", "5m", "9z", "0m", "", "🀄", "1m1m", "x" * 8]
TYPES = ["discard", "declare", "concealed_kong", "added_kong", "chi", "pon", "kong", "win",
         "pass", "draw", "flower_win", "nonsense"]


def fuzz_frame(rng: random.Random, turn: int | None) -> str:
    """One hostile frame: mostly well-formed actions naming what is not offered."""
    r = rng.random()
    if r < 0.6:
        a = {"type": rng.choice(TYPES)}
        if rng.random() < 0.8:
            a["tile"] = rng.choice(TILES)
        if rng.random() < 0.3:
            a["tiles"] = rng.choice(["1f2f", "46m", "", "zz"])
        return json.dumps({"type": "action", "action": a, "turn": turn})
    if r < 0.7:
        return "[" * rng.choice([50, 1500, 3000])
    if r < 0.8:
        return json.dumps({"type": "action", "action": rng.choice([None, [], 7, "x", {}])})
    if r < 0.9:
        return rng.choice(["{", "null", "[]", '{"type": 5}', '{"type": "hello", "token": 7}'])
    return json.dumps({"type": rng.choice(["join", "quick_match", "ping", "??"]),
                       "ticket": "x" * rng.randrange(0, 600)})


class Server:
    def __init__(self, pythonpath: str | None, data: Path, extra_env: dict | None = None):
        self.data = data
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        env.update({"TWMJ_DATA_DIR": str(data), "TWMJ_PORT": str(self.port),
                    "TWMJ_SECRET_KEY": "attack", "TWMJ_BOT_DELAY": "0",
                    "TWMJ_BOT_FILL_WAIT": "0.2", "TWMJ_HAND_PAUSE": "0.05",
                    "TWMJ_DISCONNECT_GRACE": "60", "TWMJ_TURN_BASE": "60",
                    "TWMJ_CLAIM_WINDOW": "0.05", **(extra_env or {})})
        self.env = env
        self.proc: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        cmd = [sys.executable, "-c", "from twmahjong.cli import main; main()", "serve"]
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                if httpx.get(self.base + "/api/v1/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise SystemExit("the server did not start")

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill9()

    def rss_mb(self) -> float:
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")


class Player:
    def __init__(self, ws):
        self.ws = ws
        self.obs: dict | None = None
        self.turn: int | None = None
        self.seat: int | None = None
        self.ticket: str | None = None
        self.hand = 0
        self.windows_missing = 0
        self.discards_seen = 0

    @classmethod
    async def open(cls, srv: Server, hello: dict) -> Player:
        p = cls(await connect(f"ws://127.0.0.1:{srv.port}/ws", max_size=2**22))
        await p.ws.send(json.dumps(hello))
        await p.until("welcome")
        return p

    async def recv(self, timeout: float = RECV) -> dict:
        m = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if m["type"] == "matched":
            self.seat, self.ticket = m["seat"], m["ticket"]
        if m["type"] == "snapshot":
            if m.get("ticket"):
                self.ticket = m["ticket"]
            if m.get("hand"):
                self.hand = m["hand"]["hand_no"]
        if m["type"] == "hand_start":
            self.hand = m["hand_no"]
        if m["type"] in ("snapshot", "update") and m.get("observation"):
            self.obs, self.turn = m["observation"], m["turn"]
            for ev in m.get("events", []):
                if ev["type"] == "discard":
                    self.discards_seen += 1
                    if self.obs["phase"] != "claim":     # nobody could claim: it shows
                        self.windows_missing += 1
        return m

    async def until(self, kind: str) -> dict:
        while True:
            m = await self.recv()
            if m["type"] == kind:
                return m

    async def answer(self, m: dict) -> None:
        if m["type"] in ("snapshot", "update") and self.obs and self.obs.get("legal"):
            await self.ws.send(json.dumps({"type": "action", "action": simple(self.obs),
                                           "turn": self.turn}))

    async def play_until(self, stop) -> dict:
        if self.obs and self.obs.get("legal"):
            await self.ws.send(json.dumps({"type": "action", "action": simple(self.obs),
                                           "turn": self.turn}))
        while True:
            m = await self.recv()
            if stop(m):
                return m
            await self.answer(m)


def patient_post(srv: Server, path: str, **kw) -> httpx.Response:
    """A POST that waits out the server's per-address limits (429): what is measured
    is the answer to the request, not the limit."""
    for _ in range(120):
        r = httpx.post(srv.base + path, timeout=HTTP, **kw)
        if r.status_code != 429:
            return r
        time.sleep(1.0)
    return r


def new_guest(srv: Server) -> str:
    """A guest's token; waits out the server's per-address sign-up limit (a 429)."""
    for _ in range(120):
        r = httpx.post(srv.base + "/api/v1/guests", timeout=HTTP)
        if r.status_code == 201:
            return r.json()["token"]
        time.sleep(1.0)
    raise RuntimeError(f"no guest account: {r.status_code} {r.text[:80]}")


async def seat_player(srv: Server, mode: str = "casual") -> tuple[Player, str]:
    token = new_guest(srv)
    p = await Player.open(srv, {"type": "hello", "token": token})
    await p.ws.send(json.dumps({"type": "quick_match", "mode": mode}))
    await p.until("snapshot")
    return p, token


async def fuzz(srv: Server, frames: int, seed: int) -> dict:
    """Hostile frames between the player's own moves: the player also plays what it
    is offered (so the table moves on, as a hostile client that wants to win
    would), and when its game ends it is seated at the next one. At the end the
    table it sits at must still play a hand to its end; ``/health`` must show no
    aborted table."""
    rng = random.Random(seed)
    p, token = await seat_player(srv)
    unanswered = internal = silent_run = games = 0
    for _ in range(frames):
        if silent_run >= 10:         # its actions go unanswered: the table is dead
            break
        frame = fuzz_frame(rng, p.turn)
        is_action = frame.startswith('{"type": "action"')
        await p.ws.send(frame)
        try:
            while True:             # updates may come first; the reply is an error
                m = await p.recv(3.0)
                if m["type"] == "game_end":
                    games += 1
                    await p.ws.send(json.dumps({"type": "quick_match", "mode": "casual"}))
                elif m["type"] == "error":
                    internal += m["code"] in ("internal_error", "table_error")
                    if is_action:
                        silent_run = 0
                    break
                else:
                    await p.answer(m)
        except (TimeoutError, asyncio.TimeoutError):
            unanswered += 1
            silent_run += is_action
        except Exception:           # the server closed on us: reconnect and go on
            unanswered += 1
            p2 = await Player.open(srv, {"type": "hello", "token": token, "ticket": p.ticket})
            p2.seat, p2.ticket = p.seat, p.ticket
            p = p2
        await asyncio.sleep(0.11)    # under the flood limit (10/s): test answers, not limits
    try:
        await p.play_until(lambda m: m["type"] in ("hand_end", "game_end"))
        stuck = 0
    except (TimeoutError, asyncio.TimeoutError):
        stuck = 1
    health = httpx.get(srv.base + "/api/v1/health", timeout=HTTP).json()
    await p.ws.close()
    aborted = int(health.get("aborted", 0))
    return {"frames": frames, "unanswered": unanswered, "internal_errors": internal,
            "games_played_through": games, "aborted_tables": aborted,
            "dead_tables": stuck + aborted}


async def leaks(srv: Server, hands: int) -> dict:
    """Plays ``hands`` hands as a plain player: every discard must open a window."""
    p, token = await seat_player(srv)
    for _ in range(hands):
        await p.play_until(lambda m: m["type"] in ("hand_end", "game_end"))
    await p.ws.close()
    resent = 0
    for _ in range(2):                   # a reconnect's snapshot should not carry it again
        q = await Player.open(srv, {"type": "hello", "token": token, "ticket": p.ticket})
        snap = await q.until("snapshot")
        resent += bool(snap.get("ticket"))
        await q.ws.close()
    return {"discards_seen": p.discards_seen, "discards_without_window": p.windows_missing,
            "reconnect_snapshots_with_ticket_of_2": resent}


async def kills(srv: Server, n: int) -> dict:
    p, token = await seat_player(srv)
    lost = checked = 0

    async def own_discard() -> tuple[int, list]:
        await p.play_until(lambda m: any(ev["type"] == "discard" and ev["seat"] == p.seat
                                         for ev in m.get("events", [])))
        return p.hand, p.obs["discards"]
    seen = await own_discard()
    for _ in range(n):
        srv.kill9()
        srv.start()
        q = await Player.open(srv, {"type": "hello", "token": token, "ticket": p.ticket})
        q.seat, q.ticket = p.seat, p.ticket
        snap = await q.until("snapshot")
        hand, rivers = seen
        if snap["hand"]["hand_no"] == hand:
            checked += 1
            after = snap["observation"]["discards"]
            lost += sum(len(rivers[s]) - len(os.path.commonprefix([rivers[s], after[s]]))
                        for s in range(4))
        p = q
        seen = await own_discard()
    await p.ws.close()
    return {"kills": n, "checked": checked, "lost_moves": lost}


def body_limit(srv: Server) -> dict:
    """Last: a server without a limit may be left swapping by it."""
    big = b'{"name": "' + b"a" * (200 * 1024 * 1024) + b'"}'
    before = srv.rss_mb()
    try:
        r = httpx.post(srv.base + "/api/v1/sessions", content=big, timeout=HTTP,
                       headers={"content-type": "application/json"})
        status: object = r.status_code
    except httpx.HTTPError as e:
        status = type(e).__name__
    return {"body_200mb_status": status, "body_rss_growth_mb": round(srv.rss_mb() - before, 1)}


def http_attacks(srv: Server) -> dict:
    out: dict = {}
    patient_post(srv, "/api/v1/accounts", json={"name": "Victim", "password": "pw-123456"})
    ok = 0
    for i in range(30):
        r = httpx.post(srv.base + "/api/v1/sessions", timeout=HTTP,
                       json={"name": "Victim", "password": f"guess-{i}"},
                       headers={"X-Forwarded-For": f"10.0.{i}.{i}"})
        ok += r.status_code == 401
    out["login_guesses_checked_of_30"] = ok
    r1 = patient_post(srv, "/api/v1/accounts", json={"name": "Aud", "password": "pw-123456"})
    r2 = patient_post(srv, "/api/v1/accounts", json={"name": "aud", "password": "pw-123456"})
    out["case_variant_names_registered"] = int(r1.status_code == 201) + int(r2.status_code == 201)
    token = new_guest(srv)
    auth = {"Authorization": f"Bearer {token}"}
    tried = answered_404 = 0
    t0 = time.monotonic()
    while tried < 300 and time.monotonic() - t0 < 20:
        code = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        r = httpx.get(srv.base + f"/api/v1/rooms/{code}", headers=auth, timeout=HTTP)
        tried += 1
        answered_404 += r.status_code == 404
    out["room_code_guesses_answered_of_300"] = answered_404
    return out


async def tables_per_account(srv: Server) -> int:
    token = new_guest(srv)
    opened = 0
    for _ in range(25):
        p = await Player.open(srv, {"type": "hello", "token": token})
        await p.ws.send(json.dumps({"type": "quick_match", "mode": "challenge"}))
        try:
            while True:
                m = await p.recv(10)
                if m["type"] == "matched":
                    opened += 1
                    break
                if m["type"] == "error":
                    break
        except (TimeoutError, asyncio.TimeoutError):
            pass
        await p.ws.close()
    return opened


async def nested(srv: Server) -> str:
    p, _ = await seat_player(srv)
    await p.ws.send("[" * 1500)
    try:
        while True:
            m = await p.recv(10)
            if m["type"] == "error":
                return m["code"]
    except Exception as e:
        return type(e).__name__


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--frames", type=int, default=600)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pythonpath", help="attack the twmahjong found here (an older checkout)")
    ap.add_argument("--only", help="comma-separated phases: fuzz,leaks,nested,tables,http,"
                                   "kills,body,windows,accounts,net_sockets,net_flood,net_slow,"
                                   "net_replay,net_analysis (default: all)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if not 0 <= a.frames <= MAX_FRAMES or not 0 <= a.kills <= 50:
        raise SystemExit(f"--frames 0..{MAX_FRAMES}, --kills 0..50")
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(a.pythonpath, Path(tmp) / "data").start()
        res: dict = {}
        phases = [("fuzz", lambda: asyncio.run(fuzz(srv, a.frames, a.seed))),
                  ("leaks", lambda: asyncio.run(leaks(srv, 2))),
                  ("nested", lambda: {"nested_1500_reply": asyncio.run(nested(srv))}),
                  ("tables", lambda: {"challenge_tables_opened_of_25":
                                      asyncio.run(tables_per_account(srv))}),
                  ("http", lambda: http_attacks(srv)),
                  ("kills", lambda: asyncio.run(kills(srv, a.kills))),
                  ("body", lambda: body_limit(srv)),
                  ("windows", lambda: __import__("attack_windows").windows_attack(
                      srv, Path(tmp) / "data")),     # bench/attack_windows.py
                  # accounts, credits, logins, friends (bench/attack_accounts.py): servers
                  # of its own (two workers on one database, X-Forwarded-For believed)
                  ("accounts", lambda: attack_accounts.attacks(
                      lambda env, data=None: Server(a.pythonpath, data or Path(tmp) / "acc",
                                                    env)))]
        from attack_net import phases as net_phases     # sockets, floods, slow requests
        phases += net_phases(srv)
        if a.only:
            wanted = set(a.only.split(","))
            phases = [(n, f) for n, f in phases if n in wanted]
        try:
            for name, phase in phases:
                try:
                    got = phase()
                except Exception as e:          # one failed phase is a finding, not the end
                    got = {f"{name}_failed": f"{type(e).__name__}: {e}"[:120]}
                res.update(got)
                if not a.json:
                    for k, v in got.items():
                        print(f"{k:<34}  {v}", flush=True)
        finally:
            srv.stop()
    if a.json:
        print(json.dumps(res))


if __name__ == "__main__":
    main()

"""Attacks on accounts, credits and the social API, for ``bench/attack.py --only accounts``.

Each is bounded in count, loopback only, and plays many client addresses through
``X-Forwarded-For`` (the server is started believing it from 127.0.0.1, as behind a
proxy), so the figures compare a server before and after its per-network limits:

- daily: two ``twmj serve`` workers on one database; 10 accounts whose 新人禮包 was
  yesterday claim the daily bonus on both at once — accounts paid twice;
- lockout: five wrong guesses at a public name from one address, then the owner's
  right password from their own — its status;
- argon2: 300 unknown-name logins from 100 addresses, 30 at a time — the server's
  CPU seconds, and how long a real login waits meanwhile; then 300 guests from 100
  addresses (each its own /24) and 100 from one /24, 30 at a time — guests made,
  coins minted;
- friends: add and withdraw one player 100 times — notices that player got; requests
  to 40 players — requests sent;
- oracle: ``invite`` and ``DELETE /blocks`` for 20 real and 20 made-up names — how
  many names the answers tell apart;
- invites: 300 invitations to one friend — how many were made.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

HTTP = 120.0
FORWARDED = {"TWMJ_FORWARDED_ALLOW_IPS": "127.0.0.1"}


def _post(base: str, path: str, token: str | None = None, ip: str | None = None,
          **kw) -> httpx.Response:
    headers = {**({"Authorization": f"Bearer {token}"} if token else {}),
               **({"X-Forwarded-For": ip} if ip else {})}
    return httpx.post(base + path, headers=headers, timeout=HTTP, **kw)


def _register(base: str, name: str, ip: str, password: str = "secret-pw") -> str:
    r = _post(base, "/api/v1/accounts", ip=ip, json={"name": name, "password": password})
    if r.status_code != 201:
        raise RuntimeError(f"register {name}: {r.status_code} {r.text[:80]}")
    return r.json()["token"]


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def daily(srv, second) -> dict:
    """Two workers, one database: the daily bonus claimed on both at once."""
    tokens = [_register(srv.base, f"daily{i}", f"10.1.{i}.1") for i in range(10)]
    db = srv.data / "twmj.sqlite3"
    with sqlite3.connect(db) as conn:          # the 新人禮包 was yesterday: today's bonus is due
        conn.execute("UPDATE ledger SET created_at = created_at - 86400 WHERE reason = 'welcome'")
    second.start()

    async def claim_all() -> None:
        async with httpx.AsyncClient(timeout=HTTP) as c:
            await asyncio.gather(*(c.post(base + "/api/v1/me/daily",
                                          headers={"Authorization": f"Bearer {t}"})
                                   for t in tokens for base in (srv.base, second.base)))
    asyncio.run(claim_all())
    twice = 0
    for t in tokens:
        rows = httpx.get(srv.base + "/api/v1/me/ledger", headers={"Authorization": f"Bearer {t}"},
                         timeout=HTTP).json()["rows"]
        twice += sum(r["reason"] == "daily" for r in rows) > 1
    second.stop()
    return {"daily_paid_twice_of_10": twice}


def lockout(srv) -> dict:
    _register(srv.base, "Victim1", "10.2.0.1", "owner-secret")
    for _ in range(6):
        _post(srv.base, "/api/v1/sessions", ip="198.51.100.9",
              json={"name": "victim1", "password": "guess-pw"})
    r = _post(srv.base, "/api/v1/sessions", ip="203.0.113.5",
              json={"name": "Victim1", "password": "owner-secret"})
    return {"owner_login_after_6_guesses": r.status_code}


def argon2_work(srv) -> dict:
    _register(srv.base, "Patient1", "10.3.0.1", "patient-pw")
    before = _cpu_seconds(srv.proc.pid)

    async def flood() -> tuple[dict, float]:
        codes: dict[str, int] = {}
        sem = asyncio.Semaphore(30)
        async with httpx.AsyncClient(timeout=HTTP) as c:
            async def one(i: int) -> None:
                async with sem:
                    r = await c.post(srv.base + "/api/v1/sessions",
                                     headers={"X-Forwarded-For": f"10.4.{i % 100}.7"},
                                     json={"name": f"nobody{i}", "password": "guess-pw"})
                    codes[str(r.status_code)] = codes.get(str(r.status_code), 0) + 1

            async def real() -> float:
                await asyncio.sleep(0.5)        # the flood is under way
                t0 = time.perf_counter()
                await c.post(srv.base + "/api/v1/sessions", headers={"X-Forwarded-For":
                                                                     "192.0.2.50"},
                             json={"name": "Patient1", "password": "patient-pw"})
                return time.perf_counter() - t0
            waited, *_ = await asyncio.gather(real(), *(one(i) for i in range(300)))
        return codes, waited
    codes, waited = asyncio.run(flood())
    cpu = _cpu_seconds(srv.proc.pid) - before
    return {"unknown_logins_300_answers": json.dumps(codes, sort_keys=True),
            "unknown_logins_cpu_s": round(cpu, 1),
            "real_login_wait_s": round(waited, 2)}


def guest_farm(srv) -> dict:
    def guests(ips: list[str]) -> int:
        """As the attack did: 30 at a time, as fast as the server answers."""
        async def go() -> int:
            sem = asyncio.Semaphore(30)
            async with httpx.AsyncClient(timeout=HTTP) as c:
                async def one(ip: str) -> bool:
                    async with sem:
                        r = await c.post(srv.base + "/api/v1/guests",
                                         headers={"X-Forwarded-For": ip})
                        return r.status_code == 201
                return sum(await asyncio.gather(*(one(ip) for ip in ips)))
        return asyncio.run(go())
    spread = guests([f"10.{5 + i // 100}.{i % 100}.1" for i in range(300)])
    one24 = guests([f"10.9.9.{i}" for i in range(100)])
    return {"guests_made_of_300_from_100_nets": spread,
            "guests_made_of_100_from_one_24": one24,
            "welcome_coins_minted_by_guests": (spread + one24) * 10_000}


def friends(srv) -> dict:
    ta = _register(srv.base, "Asker1", "10.6.0.1")
    tb = _register(srv.base, "Target1", "10.6.0.2")
    tc = _register(srv.base, "Marker1", "10.6.0.3")
    for i in range(40):
        _register(srv.base, f"Other{i}", f"10.7.{i}.1")

    def flood() -> int:
        for _ in range(100):
            _post(srv.base, "/api/v1/friends", ta, json={"name": "Target1"})
            httpx.delete(srv.base + "/api/v1/friends/Target1",
                         headers={"Authorization": f"Bearer {ta}"}, timeout=HTTP)
        sent = sum(_post(srv.base, "/api/v1/friends", ta, json={"name": f"Other{i}"})
                   .status_code == 200 for i in range(40))
        _post(srv.base, "/api/v1/friends", tc, json={"name": "Target1"})
        return sent

    async def go() -> tuple[int, int]:
        async with connect(srv.base.replace("http", "ws") + "/ws") as ws:
            await ws.send(json.dumps({"type": "hello", "token": tb}))
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            # in a thread: the socket must go on answering pings meanwhile
            sent = await asyncio.to_thread(flood)
            notices = 0
            while True:                        # every notice before the marker's has come
                m = json.loads(await asyncio.wait_for(ws.recv(), HTTP))
                if m["type"] == "notice":
                    if m["data"].get("from") == "Marker1":
                        return notices, sent
                    notices += 1
    notices, sent = asyncio.run(go())
    return {"notices_from_100_add_withdraw": notices, "requests_sent_of_40": sent}


def oracle_and_invites(srv) -> dict:
    ta = _register(srv.base, "Host1", "10.8.0.1")
    tb = _register(srv.base, "Friend1", "10.8.0.2")
    _post(srv.base, "/api/v1/friends", ta, json={"name": "Friend1"})
    _post(srv.base, "/api/v1/friends/Host1/accept", tb)
    room = _post(srv.base, "/api/v1/rooms", ta, json={}).json()["code"]
    told = 0
    for i in range(20):
        real = f"Other{i}"                   # registered by the friends phase
        fake = f"Ghost{i}x"
        for path in (f"/api/v1/rooms/{room}/invite",):
            a = _post(srv.base, path, ta, json={"name": real})
            b = _post(srv.base, path, ta, json={"name": fake})
            told += (a.status_code, a.text) != (b.status_code, b.text) and \
                429 not in (a.status_code, b.status_code)
        a = httpx.delete(srv.base + f"/api/v1/blocks/{real}",
                         headers={"Authorization": f"Bearer {ta}"}, timeout=HTTP)
        b = httpx.delete(srv.base + f"/api/v1/blocks/{fake}",
                         headers={"Authorization": f"Bearer {ta}"}, timeout=HTTP)
        told += (a.status_code, a.text) != (b.status_code, b.text) and \
            429 not in (a.status_code, b.status_code)
    made = sum(_post(srv.base, f"/api/v1/rooms/{room}/invite", ta,
                     json={"name": "Friend1"}).status_code == 201 for _ in range(300))
    return {"names_told_apart_of_40_pairs": told, "invites_made_of_300_to_one_friend": made}


def attacks(make_server) -> dict:
    """Every phase against fresh servers from ``make_server(extra_env)`` (one database
    for the two workers of ``daily``); one failed phase is a finding, not the end."""
    res: dict = {}
    srv = make_server(FORWARDED).start()
    second = make_server(FORWARDED, data=srv.data)
    try:
        for name, phase in (("daily", lambda: daily(srv, second)),
                            ("lockout", lambda: lockout(srv)),
                            ("argon2", lambda: argon2_work(srv)),
                            ("friends", lambda: friends(srv)),
                            ("oracle", lambda: oracle_and_invites(srv)),
                            ("guests", lambda: guest_farm(srv))):
            try:
                res.update(phase())
            except Exception as e:   # noqa: BLE001
                res[f"{name}_failed"] = f"{type(e).__name__}: {e}"[:120]
    finally:
        second.stop()
        srv.stop()
    return res

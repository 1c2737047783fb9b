"""Helpers for the server tests: the real app under uvicorn on a loopback port and
a real WebSocket client that records what it was sent."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import httpx
import uvicorn
from websockets.asyncio.client import connect

from twmahjong.drill import simple_policy  # noqa: F401  (tests import it from here)
from twmahjong.server.app import create_app, uvicorn_config
from twmahjong.server.core import Server
from twmahjong.server.settings import Settings

# A hang guard, not a budget: tests wait for events (a message, a hand's end) as long
# as a machine busy with other work needs, and fail only if the event never comes.
HANG = 600.0

# The clocks every test server runs on: nothing waits on a real player's 5 s + 20 s,
# and a discard's claim window is 0.02 s, not the 0.8 s a real table gives (each
# discard of a whole hand would wait it). The tests of the window itself set their own.
FAST = {"bot_fill_wait": 0.3, "bot_delay": 0.0, "hand_pause": 0.05, "claim_window": 0.02,
        "turn_base": 8.0, "turn_bank": 4.0, "starting_coins": 10_000,
        # every test's players sign up from 127.0.0.1: the tests of the sign-up limits
        # set their own
        "signup_burst": 100_000, "signup_net_burst": 100_000, "signup_global_burst": 100_000}

# For a test that waits for something to land (a block) by talking until it has: under
# load that is many lines, past talk's limits and the 30 messages and 10 a second a
# connection or an account may send. A refused line has no echo, so a loop waiting
# for one would wait until the idle close.
UNLIMITED_TALK = {"talk_rate": 1000.0, "talk_burst": 1000, "conn_rate": 1000.0,
                  "conn_burst": 1000, "account_rate": 1000.0, "account_burst": 1000}


class Live:
    """The real app served by uvicorn in a thread; ``restart`` keeps the data."""

    def __init__(self, settings: Settings, make_bot=None, game_factory=None):
        self.settings = settings
        self.make_bot = make_bot
        self.game_factory = game_factory
        self.server: Server | None = None
        self._uv: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    def start(self) -> Live:
        self.server = Server(self.settings, make_bot=self.make_bot,
                             game_factory=self.game_factory)
        app = create_app(server=self.server)
        # served the way `twmj serve` serves it (proxy headers follow the settings)
        cfg = uvicorn_config(app, self.settings, host="127.0.0.1", port=self.port)
        self._uv = uvicorn.Server(cfg)
        self._thread = threading.Thread(target=self._uv.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + HANG
        while not self._uv.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        self.port = self._uv.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        if self._uv is not None:
            self._uv.should_exit = True
            self._thread.join(timeout=30)
            self._uv = None

    def restart(self) -> Live:
        self.stop()
        return self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http(self, method: str, path: str, token: str | None = None, **kw) -> httpx.Response:
        headers = {**({"Authorization": f"Bearer {token}"} if token else {}),
                   **kw.pop("headers", {})}
        return httpx.request(method, self.base + path, headers=headers, timeout=60, **kw)

    def guest(self) -> str:
        r = self.http("POST", "/api/v1/guests")
        assert r.status_code == 201, r.text
        return r.json()["token"]

    def register(self, name: str, password: str = "secret-pw") -> str:
        r = self.http("POST", "/api/v1/accounts", json={"name": name, "password": password})
        assert r.status_code == 201, r.text
        return r.json()["token"]


class Client:
    """A real WebSocket client that keeps every message it received."""

    def __init__(self, ws, name: str = ""):
        self.ws = ws
        self.name = name
        self.seen: list[dict] = []
        self.obs: dict | None = None
        self.turn: int | None = None
        self.seat: int | None = None
        self.ticket: str | None = None
        self.token: str | None = None
        self.game_id: str | None = None

    @classmethod
    async def open(cls, live: Live, token: str | None = None, name: str = "") -> Client:
        c = cls(await connect(live.ws_url, max_size=2**20), name)
        c.token = token
        if token:
            await c.send({"type": "hello", "token": token})
            await c.expect("welcome")
        return c

    async def send(self, obj) -> None:
        await self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    async def recv(self, timeout: float = HANG) -> dict:
        m = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.seen.append(m)
        if m["type"] in ("snapshot", "update") and m.get("observation") is not None:
            self.obs, self.turn = m["observation"], m["turn"]
        if m["type"] == "matched":
            self.ticket = m["ticket"]
        if m["type"] == "matched":
            self.seat, self.game_id = m["seat"], m["game_id"]
        return m

    async def expect(self, type_: str, timeout: float = HANG, **fields) -> dict:
        """The next message of ``type_`` (whose ``fields`` have these values)."""
        end = time.monotonic() + timeout
        while True:
            m = await self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == type_ and all(m.get(k) == v for k, v in fields.items()):
                return m

    async def quiet(self, seconds: float = 0.3) -> list[dict]:
        """Whatever arrives within ``seconds`` (used to show nothing did)."""
        got = []
        try:
            while True:
                got.append(await self.recv(seconds))
        except TimeoutError:
            return got

    def my_decision(self) -> list[dict] | None:
        return (self.obs or {}).get("legal")

    async def act(self, action: dict) -> None:
        await self.send({"type": "action", "action": action, "turn": self.turn})

    async def play_hand(self, choose=None, timeout: float = HANG) -> dict:
        """Answer every decision until this hand ends; returns the ``hand_end``."""
        choose = choose or simple_policy
        end = time.monotonic() + timeout
        if self.my_decision():
            await self.act(choose(self.obs))
        while True:
            m = await self.recv(max(0.01, end - time.monotonic()))
            if m["type"] == "hand_end":
                return m
            if m["type"] in ("update", "snapshot") and self.my_decision():
                await self.act(choose(self.obs))

    def answer_in_background(self, choose=None):
        """Answer this seat's decisions in a task until the returned ``halt()``."""
        choose = choose or simple_policy
        stop = asyncio.Event()

        async def loop() -> None:
            if self.my_decision():
                await self.act(choose(self.obs))
            while not stop.is_set():
                try:
                    m = await self.recv(0.05)
                except TimeoutError:
                    continue
                if m["type"] in ("update", "snapshot") and self.my_decision():
                    await self.act(choose(self.obs))
        task = asyncio.create_task(loop())

        async def halt() -> None:
            stop.set()
            await task
        return halt

    async def close(self) -> None:
        await self.ws.close()



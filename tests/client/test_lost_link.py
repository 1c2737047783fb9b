"""A lost link on the terminal, online: said at once, got back by itself, same table.

The server is really stopped (and started again on its port, with its data) or, for
a server that goes silent without closing anything, a proxy in between stops
passing bytes. The person's keys while offline are refused with that reason."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from twmahjong.client import Api
from twmahjong.client.link import GameLink
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.results import ResultScreen

from .test_tui_online import SMALL, app_for, content, next_change, play_by_keys

pytestmark = pytest.mark.asyncio


async def until(session: OnlineSession, pred, timeout: float = 60.0) -> None:
    while not pred():
        await next_change(session, timeout)


async def my_turn(pilot, session) -> None:
    """Pass claims until the person must discard."""
    while not any(a.type == "discard" for a in session.legal()):
        if session.legal():
            await pilot.press("x")
        else:
            await next_change(session)
        await pilot.pause()


def link_notes(session, state):
    return [m for m in session.messages if m["type"] == "link" and m.get("state") == state]


async def test_a_stopped_server_is_said_keys_are_refused_and_the_table_comes_back(make_live):
    live = make_live(disconnect_grace=60.0, hand_pause=30.0)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        await my_turn(pilot, session)
        game, hand = session.link.state.game_id, session.link.state.obs["hand"]
        drawn = session.link.state.obs.get("drawn")
        await asyncio.to_thread(live.stop)
        # said, with the attempt, while the client keeps trying (a retry note came)
        await until(session, lambda: "Connection lost, reconnecting… (attempt"
                    in session.status_extra("en") and link_notes(session, "retry"))
        await pilot.pause()
        status = content(app, "#status")
        assert "Connection lost, reconnecting… (attempt" in status
        assert "⏱" in status and session.lost_left is not None      # the clock stands still
        # no "your turn" prompt that keys would not obey: why nothing moves instead
        assert "moves wait for the link" in status and "Your turn" not in status
        sent = len(session.link.state.events)
        await pilot.press("enter")                                  # a discard, offline
        assert "Offline, reconnecting" in content(app, "#hint")
        assert session.link.state.obs["hand"] == hand and session.link.state.obs.get("drawn") == drawn
        assert session.legal()                                      # still to decide, not sent
        await pilot.press("a")                                      # nor 託管
        assert not session.auto
        assert len(session.link.state.events) == sent
        n_retry = len(link_notes(session, "retry"))
        await until(session, lambda: len(link_notes(session, "retry")) > n_retry)   # tries again
        await asyncio.to_thread(live.start)
        await until(session, lambda: link_notes(session, "back"))   # no key pressed
        await until(session, lambda: session.messages[-1]["type"] == "snapshot"
                    or "snapshot" in [m["type"] for m in session.messages[
                        session.messages.index(link_notes(session, "back")[0]):]])
        await pilot.pause()
        assert not session.offline and session.link.state.game_id == game
        assert "Reconnected" in content(app, "#status") or "Reconnected" in session.notice
        await play_by_keys(pilot, app, session)                     # the same table plays on
        assert isinstance(app.screen, ResultScreen)


class Valve:
    """A TCP proxy to the server that can stop passing bytes both ways (a server, or a
    network, gone silent: nothing is closed, nothing arrives)."""

    def __init__(self, port: int):
        self.port = port
        self.open = asyncio.Event()
        self.open.set()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _pipe(self, r, w) -> None:
        with contextlib.suppress(Exception):
            while data := await r.read(65536):
                await self.open.wait()
                w.write(data)
                await w.drain()
        w.close()

    async def _serve(self, r, w) -> None:
        if not self.open.is_set():          # a silent server does not answer a new knock either
            await self.open.wait()
        ur, uw = await asyncio.open_connection("127.0.0.1", self.port)
        await asyncio.gather(self._pipe(r, uw), self._pipe(ur, w))

    async def close(self) -> None:
        self.server.close()


async def test_a_silent_server_is_noticed_by_the_keepalive_and_the_table_comes_back(live):
    valve = Valve(live.port)
    port = await valve.start()
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(f"http://127.0.0.1:{port}", api.token, ("quick", None, "low"))
    assert session.keepalive <= 1.0          # a ping each second, lost when its pong is 1 s late
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        await my_turn(pilot, session)
        valve.open.clear()                   # nothing closes: only the pings go unanswered
        await until(session, lambda: session.offline)
        await pilot.pause()
        assert "Connection lost, reconnecting…" in content(app, "#status")
        valve.open.set()
        await until(session, lambda: link_notes(session, "back"))
        await play_by_keys(pilot, app, session)
        assert session.link.state.game_id
    await valve.close()


async def test_forever_retries_back_off_to_a_cap_with_jitter():
    import random

    from twmahjong.client.link import backoff
    rng = random.Random(5)
    delays = [backoff(n, rng=rng) for n in range(1, 30)]
    assert 0.4 <= delays[0] <= 0.6 and all(d <= 6.0 for d in delays)
    assert len({round(d, 3) for d in delays[10:]}) > 1          # spread, not in step
    link = GameLink("http://127.0.0.1:9", "t", retry=None)
    assert link._delay(1000) is not None                        # never gives up

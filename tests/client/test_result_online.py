"""The online result screen (本局結算): it counts down to the next deal, a key sends
下一局 and says so, and the table comes back by itself when the server deals —
the person is never left reading a result while their clock runs at the table."""

from __future__ import annotations

import pytest

from twmahjong.client import Api
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.results import ResultScreen

from .test_tui_online import SMALL, app_for, content, next_change, play_by_keys

pytestmark = pytest.mark.asyncio


async def to_result(pilot, app, session):
    await play_by_keys(pilot, app, session)           # Enter throws, x passes, to the result
    assert isinstance(app.screen, ResultScreen)
    await pilot.pause()
    if app.screen.moment:                             # a win's moment: a key shows the settlement
        await pilot.press("space")
        await pilot.pause()
        assert not app.screen.moment and not app.screen.ready_sent


async def test_a_key_sends_ready_says_so_and_the_deal_brings_the_table_back(make_live):
    live = make_live(hand_pause=60.0)                  # the deal waits for this person's key
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        await to_result(pilot, app, session)
        prompt = content(app, "#prompt")
        assert "Any key: ready for the next hand (dealt in" in prompt
        screen = app.screen
        hands = session.link.state.hand["hand_no"]
        await pilot.press("space")
        # the key sends 下一局 and says so; it does not flip back to the table by itself
        # (the server, with nobody else to wait for, may deal at once: then the deal does)
        assert screen.ready_sent and "Ready" in screen.prompt()
        if session.link.state.hand["hand_no"] == hands:
            assert app.screen is screen
        while not (session.link.state.hand["hand_no"] > hands and session.observation()
                   and app.screen is app.table):
            await next_change(session)
            await pilot.pause()
        mine = session.link.state.seat
        assert any(m["type"] == "ready" and m.get("seat") == mine for m in session.messages)


async def test_a_hand_dealt_while_the_result_is_read_brings_the_table_back(make_live):
    live = make_live(hand_pause=1.0)                   # the pause ends before any key
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        await to_result(pilot, app, session)
        hands = session.link.state.hand["hand_no"]
        while session.link.state.hand["hand_no"] == hands:     # no key: the server deals
            await next_change(session)
        while not session.observation().get("hand") or app.screen is not app.table:
            await next_change(session)
            await pilot.pause()
        assert app.screen is app.table

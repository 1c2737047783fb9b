"""The online result screen (本局結算): it counts down to the next deal, a key sends
下一局 and says so, and the table comes back by itself when the server deals —
the person is never left reading a result while their clock runs at the table."""

from __future__ import annotations

import pytest

from twmahjong.client import Api
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.results import ResultScreen, SummaryScreen

from .test_tui_online import SMALL, app_for, content, next_change, play_by_keys

pytestmark = pytest.mark.asyncio


async def quick_match_app(live):
    """A guest's terminal table, quick-matched on ``live``: the session and its app."""
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    return session, app_for(session)


def game_end(st) -> dict:
    """The match's end as the server sends it, for the table ``st`` is at."""
    return {"v": 1, "type": "game_end", "game_id": st.game_id, "scores": st.scores,
            "ranks": [1, 2, 3, 4], "rating": None, "challenge": None, "seed": None,
            "aborted": False, "ended": None}


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
    session, app = await quick_match_app(live)
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
    session, app = await quick_match_app(live)
    async with app.run_test(size=SMALL) as pilot:
        await to_result(pilot, app, session)
        hands = session.link.state.hand["hand_no"]
        while session.link.state.hand["hand_no"] == hands:     # no key: the server deals
            await next_change(session)
        while not session.observation().get("hand") or app.screen is not app.table:
            await next_change(session)
            await pilot.pause()
        assert app.screen is app.table


async def test_the_match_s_end_arriving_under_the_result_turns_it_to_the_summary(make_live):
    """The match's last hand_end and game_end come together, and the result screen may
    be built between them: it sent 下一局 to a game that was over and waited for a
    deal that never came (a monkey run found the player stuck on it). The screen reads
    the match's end live: the prompt says the summary is next, and a key shows it."""
    live = make_live(hand_pause=60.0)
    session, app = await quick_match_app(live)
    async with app.run_test(size=SMALL) as pilot:
        await to_result(pilot, app, session)
        screen = app.screen
        assert screen.server_deals                         # a hand of the match: the server deals
        st = session.link.state
        st.apply(game_end(st))
        await pilot.pause(0.6)                             # the prompt's own tick
        assert not screen.server_deals
        assert "summary" in content(app, "#prompt").lower()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert not any(m["type"] == "ready" and m.get("seat") == st.seat
                       for m in session.messages)          # nothing sent to a finished game


async def test_the_match_s_end_while_a_dialog_is_open_shows_when_it_closes(make_live):
    """The last hand ends and the match with it while the person reads the help (or
    settings, the log, talk): the table used to skip the result for the dialog and,
    once it closed, sat on a finished game with nothing to press. Closing the dialog
    now shows the result, and a key the summary."""
    live = make_live(hand_pause=60.0)
    session, app = await quick_match_app(live)
    async with app.run_test(size=SMALL) as pilot:
        await to_result(pilot, app, session)
        st = session.link.state
        first = dict(st.last_hand_end)                     # a real result, to end the match
        await pilot.press("space")                         # 下一局: alone with bots, dealt at once
        while not (st.hand["hand_no"] > first["hand_no"] and session.observation()
                   and app.screen is app.table):
            await next_change(session)
            await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is not app.table                 # the help is open
        # the match's last hand ends, and the match, while it is open
        for m in ({**first, "hand_no": st.hand["hand_no"], "next_in": None, "waiting": None},
                  game_end(st)):
            st.apply(m)
            session.messages.append(m)
            session.on_message(m)
            session._tell(m)
        await pilot.pause()
        assert not isinstance(app.screen, (ResultScreen, SummaryScreen))   # not over the help
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen)
        await pilot.press("space")                         # a win's moment first, if it was one
        await pilot.pause()
        if isinstance(app.screen, ResultScreen):
            await pilot.press("space")
            await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)

"""教練 on the terminal against a real server: o sends ``hint`` for the open decision,
and the server's answer is the coach line and the marks under the tiles."""

from __future__ import annotations

import pytest

from twmahjong.client import Api
from twmahjong.tui.app import PlayApp
from twmahjong.tui.glyphs import COMPACT, kinds
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.prefs import Prefs
from twmahjong.tui.render import hand_layout

from .test_tui_online import SMALL, content, next_change


@pytest.mark.asyncio
async def test_o_asks_the_server_and_the_answer_marks_a_legal_tile(live):
    host = Api(live.base)
    await host.guest()
    room = await host.open_room(bots="L1")
    await host.start_room(room["code"])
    session = OnlineSession(live.base, host.token, ("ticket", room["ticket"]))
    app = PlayApp(session, "en", prefs=Prefs(speed=0, coach="ask"), save=False)
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(400):                         # pass claims until the seat's own turn
            await pilot.pause()
            legal = session.legal()
            if any(a.type == "discard" for a in legal):
                break
            if legal:
                await pilot.press("x")
            else:
                await next_change(session)
        assert session.link.state.table["hints"] is True
        await pilot.press("o")
        while session.coach_answer is None:
            await next_change(session)
        await pilot.pause()
        answer = session.coach_answer
        assert answer["type"] == "hint" and answer["turn"] == session.link.state.turn
        choice = answer["hint"]["choice"]
        assert choice in session.link.state.decision()
        assert content(app, "#coach").startswith("Coach: ")
        obs = session.observation()
        hand, drawn = kinds(obs["hand"]), kinds(obs["drawn"]) if obs.get("drawn") else []
        marks = content(app, "#hand").rstrip("\n").splitlines()[-1]
        cols = hand_layout(hand, drawn[0] if drawn else None, COMPACT)
        starred = [(hand + drawn)[i] for i, c in enumerate(cols) if "★" in marks[c:c + COMPACT]]
        # a discard (or 聽 with one) is starred; a kong or a win is the call's
        thrown = choice["type"] in ("discard", "declare") and choice.get("tile")
        assert starred == (kinds(choice["tile"]) if thrown else [])


@pytest.mark.asyncio
async def test_plain_online_reads_the_servers_advice_after_the_decision_line(make_live):
    import asyncio
    import io

    from twmahjong.tui.plain_online import play_plain_online

    from .test_plain_clock import Keyboard

    live = make_live(turn_base=600.0, hand_pause=30.0)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    out, keys = io.StringIO(), Keyboard()
    task = asyncio.create_task(play_plain_online(session, "en", keys, out, prefs=Prefs(coach="always")))

    async def said(text):
        while text not in out.getvalue():
            assert not task.done(), out.getvalue()[-1500:]
            await asyncio.sleep(0.05)

    await asyncio.wait_for(said("Coach: "), 60)      # a hang guard, not a time budget
    lines = [x.removeprefix("> ") for x in out.getvalue().splitlines()]
    first = next(i for i, x in enumerate(lines) if x.startswith("Coach: "))
    assert "s left" in lines[first - 1]              # right after the decision's own line
    before = out.getvalue().count("Coach: ")
    keys.type("o 5m")                                # one tile, any tile: an answer, never a raise

    async def answered():
        while out.getvalue().count("Coach: ") == before:
            await asyncio.sleep(0.05)
    await asyncio.wait_for(answered(), 60)
    keys.type("q")
    keys.q.put("")                                   # then the end of input: the reader stops
    await asyncio.wait_for(task, 60)

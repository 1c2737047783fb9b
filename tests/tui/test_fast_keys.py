"""Keys typed faster than a screen closes: a modal answers one key, never two.

At 80×24, ``?`` (or ``s``) then Esc then ← within about 60 ms, in a real terminal:
the Esc closed the help, and the ← that was already queued for it closed the table
under it, leaving an empty screen that took no more keys."""

from __future__ import annotations

import pytest

from twmahjong.tui.dialogs import HelpScreen, LogScreen, SettingsScreen
from twmahjong.tui.table import TableScreen

from .helpers import app_for, session

pytestmark = pytest.mark.asyncio

SMALL = (80, 24)


async def _queued(app, pilot, keys):
    """Post ``keys`` to the app in one go, the way the driver posts a fast typist's
    bytes: the app hands each to the screen that is current when it reads it, which is
    still the modal for both."""
    from textual import events
    for k in keys:
        app.post_message(events.Key(k, None))
    await pilot.pause()
    await pilot.pause()


@pytest.mark.parametrize("opener,kind", [("question_mark", HelpScreen), ("s", SettingsScreen),
                                         ("g", LogScreen)])
async def test_esc_then_arrow_at_once_closes_only_the_modal(opener, kind):
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press(opener)
        assert isinstance(app.screen, kind)
        await _queued(app, pilot, ["escape", "left"])
        assert isinstance(app.screen, TableScreen)
        assert app.screen is app.table
        # and the table still takes keys: ← moves the cursor
        before = app.table.sel
        await pilot.press("left")
        assert app.table.sel != before or len(app.table.hand_tiles()) <= 1

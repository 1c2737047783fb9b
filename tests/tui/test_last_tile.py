"""海底牌得棄摸 (rules/001 item 25) at the terminal: d draws the last tile, x declines it."""

from __future__ import annotations

from functools import cache

import pytest

from twmahjong.profiles import load_profile
from twmahjong.tui.session import PlaySession

from .helpers import ScriptBot, app_for, content

pytestmark = pytest.mark.asyncio


class DrawingBot(ScriptBot):
    """A ScriptBot that always takes the last tile when asked, so the hand reaches the
    person's own 海底 decision whenever the turn order gives it to them."""

    def act(self, obs):
        for a in obs["legal"]:
            if a["type"] == "draw":
                return a
        return super().act(obs)


def _session(seed: int) -> PlaySession:
    return PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=seed, rounds=1,
                       bots=[DrawingBot(), DrawingBot(), DrawingBot()])


def _reaches_last_tile(seed: int) -> bool:
    """Play the person's seat like the bots (throw the drawn tile, pass claims)."""
    s = _session(seed)
    s.start_hand()
    while s.legal():
        acts = s.legal()
        if any(a.type == "draw" for a in acts):
            return True
        s.act(next(a for a in acts if a.type in ("discard", "pass")))
    return False


@cache
def _seed() -> int:
    """The first seed whose hand asks the person about the last tile; searched only
    when a test here runs, not at collection in every worker."""
    return next(seed for seed in range(1, 60) if _reaches_last_tile(seed))


async def _play_to_last_tile(pilot, app):
    for _ in range(400):
        await pilot.pause()
        types = {a.type for a in app.session.legal()}
        if "draw" in types:
            return
        await pilot.press("enter" if "discard" in types else "x")
    raise AssertionError("the person was never asked about the last tile")


async def test_d_draws_the_last_tile_and_the_person_must_then_discard():
    s = _session(_seed())
    app = app_for(s)
    async with app.run_test(size=(100, 32)) as pilot:
        await _play_to_last_tile(pilot, app)
        assert {a.type for a in s.legal()} == {"draw", "pass"}
        assert "摸海底" in content(app, "#status")
        await pilot.press("d")
        await pilot.pause()
        assert s.observation()["drawn"] is not None
        assert "discard" in {a.type for a in s.legal()}


async def test_x_declines_the_last_tile_and_the_hand_is_drawn():
    s = _session(_seed())
    app = app_for(s)
    async with app.run_test(size=(100, 32)) as pilot:
        await _play_to_last_tile(pilot, app)
        await pilot.press("x")
        await pilot.pause()
        last = [e for e in s.hand_events() if e["type"] == "draw_game"]
        assert last and last[0]["reason"] == "last_tile_declined" and last[0]["seat"] == s.seat

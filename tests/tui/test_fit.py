"""80×24, the classic terminal: every part of the table is on the screen."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tiles
from twmahjong.tui.glyphs import COMPACT
from twmahjong.tui.render import hand_layout
from twmahjong.tui.results import ResultScreen

from .helpers import app_for, auto_play, content, session


SMALL = (80, 24)


async def play_until(pilot, app, cond, limit=600):
    """Throw the drawn tile, pass every offer, until ``cond(session)`` holds on the person's turn."""
    s = app.session
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, ResultScreen):
            await pilot.press("space")
            continue
        legal = s.legal()
        if any(a.type == "discard" for a in legal):
            if cond(s):
                return
            await pilot.press("enter")
        elif legal:
            await pilot.press("x")
    raise AssertionError("the condition never held")


def lines(app, selector):
    return content(app, selector).rstrip("\n").splitlines()


def fits(app, selector) -> bool:
    """The widget's text is no wider and no taller than the space it has."""
    w = app.screen.query_one(selector)
    text = lines(app, selector)
    region = w.content_region
    return len(text) <= region.height and all(cell_len(x.rstrip()) <= region.width for x in text)


@pytest.mark.asyncio
async def test_the_seat_across_shows_its_melds_and_river_at_80x24():
    # L2 bots claim often: play on until the seat across (對家) has a meld and a river
    from twmahjong.tui.render import meld_text
    s = session(seed=8)
    app = app_for(s, "en")
    across = (s.seat + 2) % 4
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda s: len(s.observation()["melds"][across]) >= 1
                         and len(s.observation()["discards"][across]) >= 4, limit=3000)
        obs = s.observation()
        shown = content(app, "#seat-2")
        for m in obs["melds"][across]:                          # its melds, in short notation
            assert meld_text("en", m).plain in shown
        river = obs["discards"][across]
        row = " ".join(shown.splitlines()[2:])
        for tile in river:                                      # every discard of its river
            assert tile.replace("1z", "Ea").replace("2z", "So").replace("3z", "We").replace(
                "4z", "No").replace("5z", "Wh").replace("6z", "Gr").replace("7z", "Rd") in row
        for sel in ("#seat-1", "#seat-2", "#seat-3", "#mine-river", "#hand", "#keys"):
            assert fits(app, sel), sel


@pytest.mark.asyncio
async def test_the_hand_is_one_row_and_the_cursor_is_under_the_picked_tile():
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda s: True)
        obs = s.observation()
        hand, drawn = parse_tiles(obs["hand"]), parse_tiles(obs["drawn"])[0]
        assert len(hand) == 16
        await pilot.press("left")                    # from the drawn tile to the hand's last
        rows = lines(app, "#hand")
        assert len(rows) == 3 and fits(app, "#hand")
        cols = hand_layout(hand, drawn, COMPACT)
        sel = app.table.sel
        assert sel == 15
        assert rows[2].index("▲") in range(cols[sel], cols[sel] + COMPACT)
        assert len(rows[1].split()) == 17                        # all seventeen tiles on the row


@pytest.mark.asyncio
async def test_a_click_on_a_tile_picks_that_tile_at_80_columns():
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await play_until(pilot, app, lambda s: True)
        obs = s.observation()
        cols = hand_layout(parse_tiles(obs["hand"]), parse_tiles(obs["drawn"])[0], COMPACT)
        for i in (0, 7, 15, 16):
            # border and one column of padding before the content; the tile row is line 2
            await pilot.click("#hand", offset=(2 + cols[i] + 1, 2))
            assert app.table.sel == i
        before = len([e for e in s.hand_events() if e["type"] == "discard" and e["seat"] == s.seat])
        await pilot.click("#hand", offset=(2 + cols[16] + 1, 2))     # a second click throws it
        await pilot.pause()
        after = [e for e in s.hand_events() if e["type"] == "discard" and e["seat"] == s.seat]
        assert len(after) == before + 1 and after[-1]["tile"] == obs["drawn"]


@pytest.mark.asyncio
@pytest.mark.parametrize("lang, quit_key, help_key", [("en", "q quit", "? help"), ("zh", "q離開", "?說明")])
async def test_the_key_help_is_complete_at_80_columns(lang, quit_key, help_key):
    s = session(seed=8)
    app = app_for(s, lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        keys = content(app, "#keys")
        assert quit_key in keys and help_key in keys and fits(app, "#keys")


@pytest.mark.asyncio
async def test_help_keys_follow_the_profile():
    from twmahjong.tui.session import PlaySession
    casual = PlaySession(load_profile("casual"), bot_names=["L1"] * 3, seed=8, rounds=1)
    app = app_for(casual, "en")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        keys = content(app, "#keys")
        assert "d last" not in keys and "t ready" in keys      # casual: 報聽 any time, no 棄摸
    app = app_for(session(seed=8), "en")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert "d last" in content(app, "#keys")               # standard: 海底牌得棄摸


@pytest.mark.asyncio
async def test_the_result_screen_fits_and_its_prompt_is_visible(tmp_path):
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await auto_play(pilot, app, until=ResultScreen)
        assert "按任意鍵看結算" in content(app, "#prompt")      # the win's moment first
        await pilot.press("space")
        await pilot.pause()
        prompt = app.screen.query_one("#prompt")
        assert "按任意鍵開始下一盤" in content(app, "#prompt")
        assert prompt.region.y + prompt.region.height <= SMALL[1] and prompt.region.height == 1
        body = app.screen.query_one("#body")
        for line in lines(app, "#body"):              # nothing wraps back to column 0
            assert cell_len(line.rstrip()) <= body.content_region.width
        assert "花 " in content(app, "#body")          # revealed flowers carry their 花 label


@pytest.mark.asyncio
async def test_below_80x24_the_screen_says_how_big_it_must_be():
    s = session(seed=8)
    app = app_for(s, "en")
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        too = app.screen.query_one("#too-small")
        assert too.display and not app.screen.query_one("#main").display
        assert "Enlarge the terminal to at least 80×24 (it is 60×20 now)" in content(app, "#too-small")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not too.display and app.screen.query_one("#main").display
        assert "Tiles left" in content(app, "#header")


def test_a_long_river_closes_its_gaps_then_keeps_the_latest_tiles():
    from twmahjong.tui.render import river_rows

    from .helpers import plain
    river = parse_tiles("123456789m123456789p123456789s1234z")       # 31 discards
    roomy = river_rows("en", river, 16, 8, last_index=30, taken={0}, cell=COMPACT)
    assert len(roomy) == 8 and "+" not in plain(roomy[0])            # no gaps: 5 a row
    tight = river_rows("en", river, 16, 4, last_index=30, taken=set(), cell=COMPACT)
    first = plain(tight[0]).split()
    assert len(tight) == 4 and first[0] == "+13"                    # 20 slots: +13 in two, 18 tiles
    assert plain(tight[-1]).split()[-1] == "No"                       # the latest discard stays
    for row in tight:
        assert cell_len(plain(row).rstrip()) <= 16

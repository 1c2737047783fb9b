"""A second tab at the same seat, in the browser against the real game server: the
server's ``second_connection`` notice (``{"kind": "second_connection", "data":
{"game_id", "seat", "connections"}}``, sent to each connection of the seat when their
number changes) is said in both tabs while more than one sits there, and cleared at
one — at 390×844 (touch, zh-TW) and 1366×768 (English).

The notices are the real server's: the second tab sits down through the lobby's
回到牌桌, and closing it leaves one connection.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server
from .test_player_table import _guest_at_table

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]
TWICE = {"zh-TW": "這個帳號在另一個分頁也坐在這桌，兩邊都可以出牌",
         "en": "This account also sits at this table in another tab; either tab can play"}


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_second_tab_at_the_seat_is_said_in_both(player, tmp_path_factory, size, lang):
    with game_server(tmp_path_factory.mktemp("twice"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0) as url:
        p = player(url, size, lang)
        first = p.page
        _guest_at_table(p, url)
        line1 = first.locator(".twice-line")
        expect(line1).to_be_hidden()
        # the same account in a second tab: the lobby's 回到牌桌 sits it at the same seat
        second = p.context.new_page()
        second.on("pageerror", lambda e: p.errors.append(str(e)))
        second.goto(url + "/")
        second.click(".active-panel .resume-btn")
        second.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        line2 = second.locator(".twice-line")
        expect(line1).to_have_text(TWICE[lang])
        expect(line2).to_have_text(TWICE[lang])
        p.shot("twice")
        # the line takes no tap: the board and the hand under it still play
        assert first.evaluate(
            "getComputedStyle(document.querySelector('.twice-line')).pointerEvents") == "none"
        hand = first.locator(".hand-wrap").bounding_box()
        box = line1.bounding_box()
        assert box["y"] + box["height"] <= hand["y"]
        # the second tab goes: one connection is left, and the line with it
        second.close()
        expect(line1).to_be_hidden()

"""A second tab at the same seat, in the browser against the real game server: the
server's ``second_connection`` notice (``{"kind": "second_connection", "data":
{"game_id", "seat", "connections"}}``, sent to each connection of the seat when their
number changes) is said in both tabs while more than one sits there, and cleared at
one — at 390×844 (touch, zh-TW) and 1366×768 (English).

The notice is put on the wire here by ``page.route_web_socket`` (the socket is relayed
to the real server, and the notice added to what the server sends), as the contract
says the server sends it.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server
from .test_player_table import _guest_at_table

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]
TWICE = {"zh-TW": "這個帳號在另一個分頁也坐在這桌，兩邊都可以出牌",
         "en": "This account also sits at this table in another tab; either tab can play"}


def relay(page):
    """Relay the page's game socket to the server; returns a function that sends a
    frame to the page as if from the server (to its newest socket)."""
    sockets = []

    def route(ws):
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket("**/ws", route)
    return lambda msg: sockets[-1].send(json.dumps({"v": 1, **msg}))


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_second_tab_at_the_seat_is_said_in_both(player, tmp_path_factory, size, lang):
    with game_server(tmp_path_factory.mktemp("twice"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0) as url:
        p = player(url, size, lang)
        first = p.page
        to_first = relay(first)
        _guest_at_table(p, url)
        # the same account in a second tab: the lobby's 回到牌桌 sits it at the same seat
        second = p.context.new_page()
        second.on("pageerror", lambda e: p.errors.append(str(e)))
        to_second = relay(second)
        second.goto(url + "/")
        game_id = second.locator(".active-panel .active-game").get_attribute("data-game")
        second.click(".active-panel .resume-btn")
        second.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        line1, line2 = first.locator(".twice-line"), second.locator(".twice-line")
        expect(line1).to_be_hidden()
        for send in (to_first, to_second):
            send({"type": "notice", "kind": "second_connection",
                  "data": {"game_id": game_id, "seat": 0, "connections": 2}})
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
        to_first({"type": "notice", "kind": "second_connection",
                  "data": {"game_id": game_id, "seat": 0, "connections": 1}})
        expect(line1).to_be_hidden()

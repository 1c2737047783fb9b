"""A quick match whose socket drops while it waits: the server gives the place in the
queue up with the connection, so the page must not keep a spinner turning for a match
nobody is making (a browser monkey found it up for 162 s). It stops and says to ask
again — at 1366×768 (English) and 390×844 (touch, zh-TW)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]
LOST = {"zh-TW": "配對已取消", "en": "the match was cancelled"}


@pytest.mark.parametrize("held", [False, True], ids=["answered", "before-its-first-word"])
@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_dropped_socket_stops_the_quick_match_spinner(player, tmp_path_factory, size, lang,
                                                        held):
    """``held``: the server's words never reach the page, so the socket drops open but
    before the welcome — as a busy server's slow first answer lets happen (seen so in a
    loaded run: the spinner turned on, the link never said lost)."""
    with game_server(tmp_path_factory.mktemp("queue"), bot_fill_wait=600.0,
                     pause_after=3600, hand_pause=600.0) as url:
        p = player(url, size, lang)
        page = p.page
        sockets = []

        def route(ws):
            server = ws.connect_to_server()
            if held and not sockets:
                server.on_message(lambda message: None)
            sockets.append(ws)
        page.route_web_socket("**/ws", route)
        page.goto(url + "/")
        page.wait_for_selector(".quick-btn", timeout=EVENT_WAIT_MS)
        page.click(".quick-btn")
        expect(page.locator(".queue")).to_be_visible()
        page.wait_for_function("() => document.body.dataset.socket === 'open'",
                               timeout=EVENT_WAIT_MS)
        sockets[-1].close()                       # the link drops while it waits
        expect(page.locator(".queue")).to_have_count(0, timeout=EVENT_WAIT_MS)
        expect(page.locator(".toast")).to_contain_text(LOST[lang])

"""The link to the server, in the browser, against the real game server: a server
that goes away (stopped, or silent with its socket open) is said at once over the
table's top, the table freezes its clocks and takes no move, the page dials again by
itself, says when it is back, and the same table resumes with no click — at 390×844
(touch, zh-TW) and 1366×768 (English).

Every wait is for something on screen or on the wire (hang guards only).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server
from .test_e2e import PLAYERS_MOMENT
from .test_player_table import _guest_at_table

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]
LOST = {"zh-TW": "連線中斷，正在重新連線…", "en": "Connection lost — reconnecting…"}
BACK = {"zh-TW": "已重新連線", "en": "Reconnected"}
WAIT = {"zh-TW": "連回來之前不能出牌", "en": "moves wait until it is back"}
SERVER = dict(bot_delay=0.3, claim_window=0.02, pause_after=3600, hand_pause=600.0,
              bot_fill_wait=0.2, turn_base=60.0, turn_bank=20.0)


def make_a_discard(page):
    """Play on (passing claims) until this player throws a tile, and see it land in
    their river: the table takes moves again."""
    for _ in range(40):
        page.wait_for_function(PLAYERS_MOMENT, timeout=EVENT_WAIT_MS)
        if page.locator(".result-panel").is_visible():
            page.click(".result-panel .next-hand")
            page.wait_for_selector(".result-wrap", state="hidden")
            continue
        tiles = page.locator(".hand.my-turn .hand-tile:not(.blocked)")
        if tiles.count() and not page.locator(".calls .call-win, .calls .call-flower_win").count():
            before = page.locator(".river.pos-self .tile").count()
            tiles.last.click()
            tiles.last.click()
            page.wait_for_function(
                "(n) => document.querySelectorAll('.river.pos-self .tile').length > n"
                " || document.querySelector('.result-panel')", arg=before, timeout=EVENT_WAIT_MS)
            return
        calls = page.locator(".calls .call")
        if calls.count():
            names = calls.evaluate_all("els => els.map((e) => e.dataset.call)")
            pick = "win" if "win" in names else "flower_win" if "flower_win" in names else \
                "pass" if "pass" in names else names[0]
            page.click(f".calls .call-{pick}")
            if page.locator(".choices .choice").count():
                page.locator(".choices .choice").first.click()
            page.wait_for_function(
                "() => !document.querySelector('.hand-tile.thrown')", timeout=EVENT_WAIT_MS)
    raise AssertionError("no discard of this player's came in 40 decisions")


def _assert_frozen(page, lang):
    """While the link is lost: the hand and the calls take nothing, the prompt says why."""
    assert page.evaluate("document.querySelector('.hand-wrap').inert")
    assert page.evaluate("document.querySelector('.actions-wrap').inert")
    expect(page.locator(".table-view .prompt")).to_contain_text(WAIT[lang])
    # the banner sits over the table's top, clear of the hand and the calls
    banner = page.locator(".link-banner").bounding_box()
    hand = page.locator(".hand-wrap").bounding_box()
    assert banner["y"] + banner["height"] <= hand["y"]


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_stopped_server_is_said_and_the_table_resumes_when_it_is_back(
        player, tmp_path_factory, size, lang):
    """The server stops mid-hand: the banner says so with the attempt count; started
    again on the same port and database, the page sits back down by itself (no click),
    says it is back, and a move can be made. (Before: the table looked normal.)"""
    data = tmp_path_factory.mktemp("restart")
    with game_server(data, **SERVER) as url:
        port = int(url.rsplit(":", 1)[1])
        p = player(url, size, lang)
        page = _guest_at_table(p, url)
        page.wait_for_function(PLAYERS_MOMENT, timeout=EVENT_WAIT_MS)
        hand_no = page.evaluate("document.body.dataset.hand")
    # the server is gone (its graceful end closed the socket)
    banner = page.locator(".link-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(LOST[lang])
    _assert_frozen(page, lang)
    # the page keeps dialing: the attempt count grows
    page.wait_for_function(
        "() => /[2-9]|\\d\\d/.test(document.querySelector('.link-banner').textContent)",
        timeout=EVENT_WAIT_MS)
    p.shot("link-lost")
    with game_server(data, port=port, **SERVER):
        expect(page.locator(".link-banner.back")).to_have_text(BACK[lang])
        p.shot("reconnected")
        expect(banner).to_be_hidden()
        assert page.url.endswith("#/table")
        assert page.evaluate("document.body.dataset.hand") == hand_no
        assert not page.evaluate("document.querySelector('.hand-wrap').inert")
        make_a_discard(page)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_silent_server_is_noticed_without_the_socket_closing(player, tmp_path_factory, size,
                                                               lang):
    """The server stops answering but its socket stays open (a hung process, a dead
    route): the page's ping goes unanswered, and the link is said lost all the same;
    when the server speaks again the banner goes and the table plays on."""
    with game_server(tmp_path_factory.mktemp("silent"), **SERVER) as url:
        p = player(url, size, lang)
        page = p.page
        silent = {"on": False}

        def relay(ws):
            server = ws.connect_to_server()
            server.on_message(lambda m: None if silent["on"] else ws.send(m))

        page.route_web_socket("**/ws", relay)
        _guest_at_table(p, url)
        page.wait_for_function(PLAYERS_MOMENT, timeout=EVENT_WAIT_MS)
        silent["on"] = True
        banner = page.locator(".link-banner")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(LOST[lang])
        _assert_frozen(page, lang)
        silent["on"] = False
        expect(page.locator(".link-banner.back")).to_have_text(BACK[lang])
        expect(banner).to_be_hidden()
        make_a_discard(page)

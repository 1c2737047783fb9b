"""託管 / 取消託管 tapped fast, in the browser against the real game server: each tap
asks the server once, the switch waits for its answer (``presence``) before taking
another, and what it shows is the server's word, never the tap — at 390×844 (touch,
zh-TW) and 1366×768 (English).

A slow link is made with ``page.route_web_socket``: the server's frames are held
while the taps land, then let through in order.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server, pass_claim
from .test_e2e import PLAYERS_MOMENT
from .test_link import make_a_discard
from .test_player_table import _guest_at_table

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]


class SlowLink:
    """The page's socket relayed to the server; ``hold()`` keeps the server's frames
    back until ``release()``; ``sent`` and ``heard`` are the frames each way."""

    def __init__(self, page):
        self.sent: list[dict] = []
        self.heard: list[dict] = []
        self.held: list[str] = []
        self.holding = False
        self.ws = None
        page.route_web_socket("**/ws", self.route)

    def route(self, ws):
        server = ws.connect_to_server()
        self.ws = ws
        ws.on_message(lambda m: (self.sent.append(json.loads(m)), server.send(m)))
        server.on_message(lambda m: self.from_server(ws, m))

    def from_server(self, ws, m):
        if ws is not self.ws:
            return
        if self.holding:
            self.held.append(m)
            return
        self.heard.append(json.loads(m))
        ws.send(m)

    def hold(self):
        self.holding = True

    def release(self):
        self.holding = False
        for m in self.held:
            self.heard.append(json.loads(m))
            self.ws.send(m)
        self.held.clear()

    def autos(self) -> list[bool]:
        return [m["on"] for m in self.sent if m.get("type") == "auto"]

    def server_auto(self, seat: int):
        said = [m["auto"] for m in self.heard if m.get("type") == "presence" and m["seat"] == seat]
        return said[-1] if said else None


def _tap_fast(page, selector: str, times: int):
    """``times`` taps as fast as a finger goes, whether or not the button takes them."""
    for _ in range(times):
        page.locator(selector).click(force=True, no_wait_after=True)


def _to_my_turn(page):
    """Play on until it is this player's own turn to throw: a claim offered first is
    passed (its clock would outlast the wait), a hand the bots ended is followed by
    the next one."""
    for _ in range(40):
        page.wait_for_function(PLAYERS_MOMENT, timeout=EVENT_WAIT_MS)
        if page.locator(".result-panel").is_visible():
            page.click(".result-panel .next-hand")
            page.wait_for_selector(".result-wrap", state="hidden")
            continue
        names = page.locator(".calls .call").evaluate_all(
            "els => els.map((e) => e.dataset.call)")
        if page.locator(".hand.my-turn .hand-tile:not(.blocked)").count() and not names:
            return
        if "pass" in names:
            pass_claim(page)
        elif names:
            page.click(f".calls .call-{names[0]}")
    raise AssertionError("no turn of this player's came in 40 decisions")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_fast_auto_taps_ask_once_each_and_show_the_server_word(player, tmp_path_factory, size,
                                                               lang):
    with game_server(tmp_path_factory.mktemp("autotaps"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0) as url:
        p = player(url, size, lang)
        link = SlowLink(p.page)
        page = _guest_at_table(p, url)
        seat = next(m["observation"]["seat"] for m in link.heard if m.get("type") == "snapshot")
        banner, auto_btn = page.locator(".auto-banner"), page.locator(".auto-btn")
        # 託管 tapped three times while the link is slow: asked once, the switch waits
        link.hold()
        _tap_fast(page, ".auto-btn", 3)
        assert link.autos() == [True]
        expect(auto_btn).to_be_disabled()
        assert auto_btn.get_attribute("aria-busy") == "true"
        expect(banner).to_be_hidden()               # not the tap's word: the server's
        link.release()
        expect(banner).to_be_visible()
        assert link.server_auto(seat) is True
        # 取消託管 then 託管 again, each tapped twice at once
        link.hold()
        _tap_fast(page, ".auto-cancel", 2)
        expect(page.locator(".auto-cancel")).to_be_disabled()
        assert link.autos() == [True, False]
        expect(banner).to_be_visible()
        link.release()
        expect(banner).to_be_hidden()
        link.hold()
        _tap_fast(page, ".auto-btn", 2)
        assert link.autos() == [True, False, True]
        link.release()
        expect(banner).to_be_visible()
        expect(auto_btn).to_be_hidden()
        assert link.server_auto(seat) is True
        page.click(".auto-cancel")
        expect(banner).to_be_hidden()
        assert link.server_auto(seat) is False
        assert link.autos() == [True, False, True, False]
        expect(auto_btn).to_be_enabled()
        p.shot("auto-taps-settled")
        make_a_discard(page)                # the seat is the player's again, and plays


def test_the_table_moves_on_after_auto_on_off_then_on_again(player, tmp_path_factory):
    """On the player's turn: 託管, then 取消託管 within the bot's 2 s delay; then, once
    the player's clock has run 3 s (the bot's call has come and gone), 託管 again. The
    bot must then play the seat (it waited for ever: no move, no clock)."""
    with game_server(tmp_path_factory.mktemp("autofreeze"), bot_delay=2.0, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0) as url:
        p = player(url, "desktop", "en")
        page = _guest_at_table(p, url)
        _to_my_turn(page)
        banner = page.locator(".auto-banner")
        before = page.locator(".river.pos-self .tile").count()
        page.click(".auto-btn")
        expect(banner).to_be_visible()
        page.click(".auto-cancel")
        expect(banner).to_be_hidden()
        # the player's own clock runs again: 3 s of it is past the bot's 2 s call
        page.wait_for_function(
            "() => parseInt(document.querySelector('.badge.pos-self .badge-timer.ticking')"
            "?.textContent || '99') <= 57", timeout=EVENT_WAIT_MS)
        page.click(".auto-btn")
        expect(banner).to_be_visible()
        # the bot moves 2 s after it is asked; 20 s is a hang guard many times over
        page.wait_for_function(
            "(n) => document.querySelectorAll('.river.pos-self .tile').length > n"
            " || document.querySelector('.result-panel')", arg=before, timeout=20_000)

"""The lobby's small things: how many are online (「N 人在線」, the server's figure), the
private room's code shared in one tap (the share sheet where the browser has one, else
the clipboard, with a toast), and the AI review's marks explained by a legend."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from .conftest import game_server
from .test_replay_page import _check_review, _serve_own


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    # the figure is held for the whole test (online_ttl), so the page and the test read
    # the same one however the sockets come and go meanwhile
    with game_server(tmp_path_factory.mktemp("server"), bot_fill_wait=0.2, online_ttl=600.0) as url:
        yield url


def test_the_lobby_says_who_is_online_and_shares_the_room_code(player, server_url):
    # somebody is in the lobby already (a terminal client, say): the figure is at least 1
    token = httpx.post(f"{server_url}/api/v1/guests").json()["token"]
    with connect(server_url.replace("http", "ws") + "/ws") as other:
        other.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(other.recv(timeout=60))["type"] == "welcome"
        p = player(server_url, "phone", "zh-TW")
        page = p.page
        p.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
        # a browser without the share sheet (a desktop Chromium): the clipboard, then
        p.context.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
        page.goto(server_url + "/")
        page.wait_for_selector("body[data-ready] .guest-btn")
        online = page.locator(".play-panel .online-count")
        expect(online).to_have_text(re.compile(r"^[\d,]+ 人在線$"))
        n = httpx.get(f"{server_url}/api/v1/online").json()["online"]
        assert n >= 1 and online.get_attribute("data-n") == str(n)
        page.click(".guest-btn")
        page.wait_for_selector(".account-coins")
        expect(page.locator(".play-panel .online-count")).to_have_text(f"{n} 人在線")
        p.shot("lobby-online")
        page.click(".create-room-btn")
        code = page.locator(".room-code").get_attribute("data-code")
        assert re.fullmatch(r"[A-Z0-9]{4,8}", code), code
        page.click(".share-room-btn")
        expect(page.locator("#toast")).to_have_text(f"已複製房號 {code}，貼給朋友吧")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == f"來打台灣麻將！房號 {code}\n{server_url}/"
        p.shot("room-shared")
        # a phone's share sheet, where there is one
        page.evaluate("""() => {
            navigator.share = async (data) => { window.__shared = data; };
            navigator.canShare = () => true;
        }""")
        page.click(".share-room-btn")
        expect(page.locator("#toast")).to_have_text(f"已分享房號 {code}")
        shared = page.evaluate("window.__shared")
        assert shared["title"] == "台灣麻將" and code in shared["text"]
        # and in English
        page.click(".app-lang")
        expect(page.locator(".play-panel .online-count")).to_have_text(f"{n} online")
        expect(page.locator(".share-room-btn")).to_have_text("Share")


def test_the_reviews_marks_have_a_legend(player, static_url, fixtures):
    p = player(static_url, "desktop", "en")
    _serve_own(p.page, fixtures)
    page = p.page
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    _check_review(page, "en")
    legend = page.locator(".replay-track .analysis-legend li")
    assert legend.all_inner_texts() == ["Same as the AI", "Differs, small loss", "Mistake"]
    # each swatch is the colour of its marks on the track
    colour = "e => getComputedStyle(e).backgroundColor"
    for kind in ("agree", "mistake"):
        swatch = page.locator(f".analysis-legend .legend-{kind} .legend-swatch").evaluate(colour)
        assert swatch == page.locator(f".analysis-marks .analysis-mark.{kind}").evaluate(colour)
    assert page.locator(".analysis-legend .legend-differ .legend-swatch").evaluate(colour) not in (
        page.locator(".analysis-marks .analysis-mark.agree").evaluate(colour),
        page.locator(".analysis-marks .analysis-mark.mistake").evaluate(colour))
    p.shot("review-legend")

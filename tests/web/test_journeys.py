"""Player journeys: a player reaches 胡 on a discard, 自摸,
declares 聽, chooses among several 吃, makes a 槓 and robs one (搶槓) — in the
browser, at 390×844 (touch) and 1366×768, in zh-TW and English.

Each journey deals its first hand from a stacked wall (``server/play/stacked.py``), which
only a server in test mode accepts, against bots that play by rote (they throw what
they draw, take a 碰 or 加槓, never win), so the hand goes where the test says. The
player is seat 0 and deals. Every wait is for something on screen.
"""

from __future__ import annotations

import pytest

from .conftest import EVENT_WAIT_MS, evaluate_async, game_server
from .test_player_table import COMBOS, _guest, _inside, _no_horizontal_scroll

# bots' hands: no pair among them, so no bot can 碰 what the player throws
BOT = "1234568s1234567z45p"
READY = "123m456m789m123p78p99s5z"      # throws 5z, then waits on 6p / 9p


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("server"), test_mode=True, bot_delay=0.02,
                     claim_window=0.02, pause_after=3600, hand_pause=600.0,
                     turn_base=60.0, turn_bank=20.0) as url:
        yield url


def _seated(player, url, size, lang, wall, profile="standard"):
    """A guest at a table whose first hand is dealt from ``wall``."""
    p = _guest(player, url, size, lang)
    page = p.page
    page.wait_for_selector(".account-coins")
    evaluate_async(page, """async ([wall, profile]) => {
        const h = {Authorization: 'Bearer ' + localStorage.getItem('twmj.token'),
                   'Content-Type': 'application/json'};
        const r = await (await fetch('/api/v1/rooms', {method: 'POST', headers: h,
            body: JSON.stringify({wall, profile, rounds: 1})})).json();
        await fetch('/api/v1/rooms/' + r.code + '/start', {method: 'POST', headers: h});
        sessionStorage.setItem('twmj.ticket', r.ticket);
    }""", [wall, profile])
    page.reload()
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    return p, page


def _controls_fit(page):
    """No horizontal scroll; every call button inside the action bar and the screen;
    every choice inside its box."""
    _no_horizontal_scroll(page)
    width = page.viewport_size["width"]
    bar = page.locator(".actions-wrap").bounding_box()
    for b in page.locator(".calls .call").all():
        box = b.bounding_box()
        assert _inside(box, bar), "a call button crosses the action bar"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    if page.locator(".choices").count():
        panel = page.locator(".choices").bounding_box()
        assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width
        for c in page.locator(".choices .choice").all():
            assert _inside(c.bounding_box(), panel), "a choice crosses its panel"


def _overlap(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def _throw(page, tile):
    """On the player's turn, tap a tile to lift it and tap again to throw it."""
    page.wait_for_selector(f'.hand.my-turn .hand-tile[data-tile="{tile}"]:not(.blocked)',
                           timeout=EVENT_WAIT_MS)
    target = page.locator(f'.hand.my-turn .hand-tile[data-tile="{tile}"]').last
    target.click()
    page.locator(".hand-tile.lifted").click()


def _until(page, selector):
    """Play on (過 any other call, throw the drawn tile) until ``selector`` shows."""
    while True:
        page.wait_for_selector(f"{selector}, .calls .call-pass, .hand.my-turn .hand-tile.drawn",
                               timeout=EVENT_WAIT_MS)
        if page.locator(selector).count():
            return page.locator(selector)
        if page.locator(".calls .call-pass").count():
            page.click(".calls .call-pass")
        else:
            page.locator(".hand.my-turn .hand-tile.drawn").click()
            page.locator(".hand-tile.lifted").click()
        page.wait_for_function("() => !document.querySelector('.hand-tile.thrown')",
                               timeout=EVENT_WAIT_MS)


def _won(page, p, lang, how):
    # the win's moment (test_show.py) stands until tapped: tap it if it still does
    page.wait_for_selector(".win-show .win-tile", state="attached", timeout=EVENT_WAIT_MS)
    page.evaluate("() => { const w = document.querySelector('.win-show'); if (!w.hidden) w.click(); }")
    page.wait_for_selector(".result-panel .win-block", timeout=EVENT_WAIT_MS)
    head = page.inner_text(".win-block .win-head")
    assert ("你" if lang == "zh-TW" else "You") in head      # the player is the winner
    p.shot(f"{how}-result")
    _no_horizontal_scroll(page)
    panel = page.locator(".result-panel").bounding_box()
    assert _inside(page.locator(".next-hand").bounding_box(), panel)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_win_on_a_discard(player, server_url, size, lang):
    p, page = _seated(player, server_url, size, lang,
                      {"hands": [READY, BOT, BOT, BOT], "draws": "6p"})
    _throw(page, "5z")
    win = _until(page, ".calls .call-win")
    assert win.inner_text() == ("胡" if lang == "zh-TW" else "Win")
    p.shot("win-offered")
    _controls_fit(page)
    win.click()
    _won(page, p, lang, "win")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_win_by_self_draw(player, server_url, size, lang):
    p, page = _seated(player, server_url, size, lang,
                      {"hands": [READY, BOT, BOT, BOT], "draws": "7s7s7s9p"})
    _throw(page, "5z")
    win = _until(page, ".calls .call-win")
    assert win.inner_text() == ("自摸" if lang == "zh-TW" else "Self-draw")
    p.shot("selfdraw-offered")
    _controls_fit(page)
    win.click()
    _won(page, p, lang, "selfdraw")
    assert page.locator('.patterns tr[data-pattern="self_draw"], '
                        '.patterns tr[data-pattern="concealed_self_draw"]').count() == 1


@pytest.mark.parametrize("size,lang", COMBOS)
def test_declare_ready(player, server_url, size, lang):
    p, page = _seated(player, server_url, size, lang,
                      {"hands": [READY, BOT, BOT, BOT], "draws": "7s7s7s1s"}, profile="casual")
    declare = _until(page, ".calls .call-declare")
    assert declare.inner_text() == ("聽" if lang == "zh-TW" else "Ready")
    declare.click()
    assert page.get_attribute(".call-declare", "aria-pressed") == "true"
    p.shot("declare-choose")
    _controls_fit(page)
    _throw(page, "5z")
    page.wait_for_selector('.badge[data-seat="0"] .badge-ready', timeout=EVENT_WAIT_MS)
    p.shot("declared")
    _no_horizontal_scroll(page)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_choose_among_several_chi(player, server_url, size, lang):
    p, page = _seated(player, server_url, size, lang,
                      {"hands": ["2356m123p456p789p99s7s5z", BOT, BOT, BOT], "draws": "7s7s4m"})
    _throw(page, "5z")
    chi = _until(page, ".calls .call-chi")
    chi.click()
    choices = page.locator(".choices .choice")
    choices.first.wait_for()
    assert [c.get_attribute("data-tiles") for c in choices.all()] == ["2m3m4m", "3m4m5m",
                                                                       "4m5m6m"]
    p.shot("chi-choices")
    _controls_fit(page)
    if size == "desktop":       # room beside it: the panel leaves the player's own badge in view
        panel = page.locator(".choices").bounding_box()
        badge = page.locator('.badge[data-seat="0"]').bounding_box()
        assert not _overlap(panel, badge), (panel, badge)
    choices.nth(1).click()
    meld = page.locator('.band.pos-self .meld[data-type="chi"]')
    meld.wait_for(timeout=EVENT_WAIT_MS)
    assert sorted(t.get_attribute("data-tile") for t in meld.locator(".tile").all()) == [
        "3m", "4m", "5m"]
    p.shot("chi-made")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_concealed_kong(player, server_url, size, lang):
    p, page = _seated(player, server_url, size, lang,
                      {"hands": ["9999s123m456m789m123p5z", BOT, BOT, BOT], "draws": ""})
    kong = _until(page, ".calls .call-kong")
    assert kong.inner_text() == ("槓" if lang == "zh-TW" else "Kong")
    p.shot("kong-offered")
    _controls_fit(page)
    kong.click()
    page.wait_for_selector('.band.pos-self .meld[data-type="concealed_kong"]',
                           timeout=EVENT_WAIT_MS)
    # the replacement tile is drawn: the player throws again
    page.wait_for_selector(".hand.my-turn .hand-tile.drawn", timeout=EVENT_WAIT_MS)
    p.shot("kong-made")
    _no_horizontal_scroll(page)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_rob_a_kong(player, server_url, size, lang):
    # the right-hand bot 碰s the player's 5s, later draws the fourth and adds it (加槓):
    # the player, waiting on 5s, robs the kong (搶槓)
    p, page = _seated(player, server_url, size, lang,
                      {"hands": ["123m456m789m123p46s99s5s", "1234558s1234567z45p",
                                 "1234678s1234567z45p", "1234678s1234567z45p"],
                       "draws": "8p8p8p5s"})
    _throw(page, "5s")
    page.wait_for_selector('.band[data-seat="1"] .meld[data-type="pon"]', timeout=EVENT_WAIT_MS)
    win = _until(page, ".calls .call-win")
    p.shot("rob-offered")
    _controls_fit(page)
    assert page.locator('.band[data-seat="1"] .meld[data-type="added_kong"]').count() == 1
    win.click()
    _won(page, p, lang, "rob")
    assert page.locator('.patterns tr[data-pattern="robbing_kong"]').count() == 1

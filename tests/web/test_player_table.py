"""The player's table (issue #11) in the browser, against the real game server:
the result stays until 下一局, 託管 with 取消託管, 離開 and 回到牌桌, errors in the
page's language with the form kept, table speeds, the countdown's bank, and the
lobby's layout — at 390×844 (touch) and 1366×768, in zh-TW and English.

Every wait is for something on screen (hang guards only, never a time budget).
"""

from __future__ import annotations

import pytest

from .conftest import ACTION_WAIT_MS, EVENT_WAIT_MS, Page, game_server
from .test_e2e import _play_one_hand

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
# each server test runs at both sizes and in both languages, two by two
COMBOS = [("phone", "zh-TW"), ("desktop", "en")]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    # the next deal waits for 下一局 up to hand_pause: long here, so only the press deals
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.02, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=30.0, turn_bank=20.0) as url:
        yield url


@pytest.fixture
def player(browser, shot_dir, request):
    """A page at a size ("phone": touch, 390×844; "desktop": 1366×768) and language."""
    pages = []

    def make(base: str, size: str, lang: str = "zh-TW") -> Page:
        p = Page.__new__(Page)
        touch = size == "phone"
        p.context = browser.new_context(viewport=SIZES[size], locale="zh-TW", has_touch=touch,
                                        is_mobile=touch)
        p.context.set_default_timeout(ACTION_WAIT_MS)
        p.context.add_init_script(f"localStorage.setItem('twmj.lang', {lang!r})")
        p.page = p.context.new_page()
        p.base = base
        p.errors = []
        p.page.on("pageerror", lambda e: p.errors.append(str(e)))
        p.shot_dir = shot_dir
        p.prefix = f"{request.node.name.replace('/', '_')}-{size}"
        pages.append(p)
        return p

    yield make
    for p in pages:
        errors = p.errors
        p.context.close()
        assert not errors, f"script errors in the page: {errors}"


def _no_horizontal_scroll(page):
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width


def _inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def _guest_at_table(p, url, speed=None):
    page = p.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click(".guest-btn")
    page.wait_for_selector(".account-coins")
    page.select_option("#opt-rounds", "4")
    if speed:
        page.select_option("#opt-speed", speed)
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    return page


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_result_stays_until_next_hand_is_pressed(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = _guest_at_table(p, server_url)
    _play_one_hand(p)
    page.wait_for_selector(".result-panel .next-info")
    # the countdown to the next deal is the server's (600 s here), shown on the panel
    left = int(page.locator(".next-info").get_attribute("data-left"))
    assert 500 < left <= 600
    want = "秒後自動開始下一局" if lang == "zh-TW" else "Next hand starts by itself in"
    assert want in page.inner_text(".next-info")
    assert page.evaluate("document.body.dataset.hand") == "1"
    # the player's coins before → after this hand
    coin = page.inner_text(".coin-change")
    assert ("你的籌碼" if lang == "zh-TW" else "Your coins") in coin
    p.shot("result-waits")
    _no_horizontal_scroll(page)
    page.click(".next-hand")
    page.wait_for_selector('body[data-hand="2"]', timeout=EVENT_WAIT_MS)
    page.wait_for_selector(".result-wrap", state="hidden")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_auto_play_can_be_switched_on_and_cancelled(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = _guest_at_table(p, server_url)
    page.click(".auto-btn")
    banner = page.locator(".auto-banner")
    banner.wait_for(state="visible")
    assert ("託管中" if lang == "zh-TW" else "Auto-play") in banner.inner_text()
    # the bot plays the seat: the player's river grows without them
    before = page.locator(".river.pos-self .tile").count()
    page.wait_for_function(
        "(n) => document.querySelectorAll('.river.pos-self .tile').length >= n + 2", arg=before,
        timeout=EVENT_WAIT_MS)
    p.shot("auto-on")
    _no_horizontal_scroll(page)
    page.click(".auto-cancel")
    banner.wait_for(state="hidden")
    # the next decision waits for the player, with their own clock running
    page.wait_for_selector(".hand.my-turn, .calls .call", timeout=EVENT_WAIT_MS)
    page.wait_for_selector(".countdown:not([hidden])")
    n = int(page.inner_text(".countdown .countdown-n"))
    assert n > 5
    p.shot("auto-cancelled")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_leave_confirms_and_the_lobby_brings_the_player_back(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = _guest_at_table(p, server_url)
    page.click(".leave-btn")
    dialog = page.locator(".leave-dialog")
    dialog.wait_for(state="visible")
    text = dialog.inner_text()
    if lang == "zh-TW":
        assert "電腦會替你坐在這個位子" in text and "籌碼" in text and "回到牌桌" in text
    else:
        assert "a bot keeps your seat" in text and "coins" in text and "Rejoin" in text
    p.shot("leave-dialog")
    box = page.locator(".leave-box").bounding_box()
    for b in (".leave-stay", ".leave-confirm"):
        assert _inside(page.locator(b).bounding_box(), box)
    _no_horizontal_scroll(page)
    page.click(".leave-confirm")
    page.wait_for_selector(".active-panel .resume-btn")
    assert page.url.endswith("#/")
    assert page.locator(".games-panel .resume-btn").count() >= 1       # 我的牌局 too
    p.shot("lobby-resume")
    _no_horizontal_scroll(page)
    page.click(".active-panel .resume-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    assert page.url.endswith("#/table")
    # coming back takes the seat back from the bot
    page.locator(".auto-banner").wait_for(state="hidden")
    # the browser's back button: the lobby shows the game in progress, and it resumes
    page.go_back()
    page.wait_for_selector(".active-panel .resume-btn")
    page.click(".active-panel .resume-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_errors_are_said_in_the_page_language_and_forms_keep_what_was_typed(
        player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.fill("#login-name", "阿明的朋友")
    page.fill("#login-pw", "123")
    page.click(".login-form button.ghost")                  # register
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert toast.inner_text() == ("密碼需 6–128 個字元" if lang == "zh-TW"
                                  else "A password has 6 to 128 characters")
    assert page.input_value("#login-name") == "阿明的朋友"
    assert page.input_value("#login-pw") == "123"
    p.shot("error-register")
    page.click(".guest-btn")
    page.wait_for_selector(".account-coins")
    page.fill("#room-code", "ZZZZZZ")
    page.click(".join-form button[type=submit]")
    page.wait_for_function(
        "(want) => document.querySelector('#toast').textContent === want",
        arg="找不到房號 ZZZZZZ 的房間" if lang == "zh-TW" else "No room with code ZZZZZZ")
    assert page.input_value("#room-code") == "ZZZZZZ"
    _no_horizontal_scroll(page)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_table_is_made_at_a_chosen_speed(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click(".guest-btn")
    page.wait_for_selector("#opt-speed option[value=slow]", state="attached")
    labels = page.eval_on_selector_all("#opt-speed option", "els => els.map(e => e.textContent)")
    if lang == "zh-TW":
        assert labels == ["快（每手 15 秒＋備用 10 秒）", "標準（每手 30 秒＋備用 20 秒）",
                          "慢（每手 60 秒＋備用 40 秒）"]
    else:
        assert labels[1] == "Standard (30s a move + 20s bank)"
    assert page.input_value("#opt-speed") == "standard"
    page.select_option("#opt-speed", "slow")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    info = page.inner_text(".table-info")
    assert ("慢（每手 60 秒" if lang == "zh-TW" else "Slow (60s a move") in info
    assert ("休閒" if lang == "zh-TW" else "Casual") in info
    p.shot("table-speed")
    _no_horizontal_scroll(page)
    page.click(".leave-btn")
    page.click(".leave-confirm")
    page.wait_for_selector(".active-panel .resume-btn")


@pytest.mark.parametrize("size,lang", [("phone", "en"), ("desktop", "en"), ("phone", "zh-TW"),
                                       ("desktop", "zh-TW")])
def test_the_lobby_fits_its_panels(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click(".guest-btn")
    page.wait_for_selector("#opt-bots optgroup", state="attached")
    p.shot("lobby")
    _no_horizontal_scroll(page)
    panel = page.locator(".play-panel").bounding_box()
    for sel in ("#opt-profile", "#opt-stake", "#opt-rounds", "#opt-speed", "#opt-bots",
                ".quick-btn", ".bots-btn", ".ranked-btn", ".challenge-btn"):
        assert _inside(page.locator(sel).bounding_box(), panel), sel

"""The player's table in the browser, against the real game server:
the result stays until 下一局, 託管 with 取消託管, 離開 and 回到牌桌, errors in the
page's language with the form kept, table speeds, the countdown's bank, and the
lobby's layout — at 390×844 (touch) and 1366×768, in zh-TW and English.

Every wait is for something on screen (hang guards only, never a time budget).
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server
from .test_e2e import PLAYERS_MOMENT, _play_one_hand, continue_wait

# each server test runs at both sizes and in both languages, two by two
COMBOS = [("phone", "zh-TW"), ("desktop", "en")]


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    # the next deal waits for 下一局 up to hand_pause: long here, so only the press deals
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.02, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=30.0, turn_bank=20.0) as url:
        yield url


@pytest.fixture(scope="module")
def calm_url(tmp_path_factory):
    """The same server, but bots move every 0.3 s: for a seat handed to the bot (託管).
    At 0.02 s the table then plays as fast as the CPU allows (the person's seat is a bot
    too), the page redraws every move, and in a loaded full run a screenshot of it
    waited past its 60 s guard."""
    with game_server(tmp_path_factory.mktemp("calm"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=30.0, turn_bank=20.0) as url:
        yield url


def _no_horizontal_scroll(page):
    width = page.viewport_size["width"]
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width


def _inside(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (inner["x"] >= outer["x"] - slack and inner["y"] >= outer["y"] - slack
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack)


def _beside(box: dict, board: dict) -> bool:
    """Wholly left or right of the board (a sideways screen's margins)."""
    return box["x"] >= board["x"] + board["width"] or box["x"] + box["width"] <= board["x"]


def _guest(player, url, size, lang):
    """A page at ``size`` in ``lang`` whose 訪客 has been tapped (the lobby signs in)."""
    p = player(url, size, lang)
    _tap_guest(p.page, url)
    return p


def _tap_guest(page, url):
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click(".guest-btn")


def _guest_at_table(p, url, speed=None):
    page = p.page
    _tap_guest(page, url)
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


def test_a_desktop_player_plays_a_hand_with_the_keyboard_alone(player, server_url):
    """From the lobby's 與電腦對戰 to the next deal with keys only, against the server:
    ← Enter throws the drawn tile, W takes a win, X passes a call (聽 too), Enter at the
    result deals the next hand."""
    p = player(server_url, "desktop", "en")
    page = p.page
    _tap_guest(page, server_url)
    page.wait_for_selector(".account-coins")
    page.focus(".bots-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    page.focus("body")                          # the lobby's button is gone with the lobby
    done = {"throw": 0, "win": 0, "pass": 0}
    while not page.locator(".result-panel").is_visible():
        calls = page.locator(".calls .call")
        if calls.count():
            names = calls.evaluate_all("els => els.map((e) => e.dataset.call)")
            key = "w" if "win" in names or "flower_win" in names else "x"
            if key == "x" and "pass" not in names:      # only a discard to make
                key = None
            if key:
                page.keyboard.press(key)
                done["win" if key == "w" else "pass"] += 1
                continue_wait(page)
                continue
        if page.locator(".hand.my-turn .hand-tile:not(.blocked)").count():
            page.keyboard.press("ArrowLeft")
            assert page.locator(".hand-tile.lifted").count() == 1
            page.keyboard.press("Enter")
            done["throw"] += 1
            continue_wait(page)
            continue
        page.wait_for_function(PLAYERS_MOMENT, timeout=EVENT_WAIT_MS)
    assert done["throw"] >= 1, done
    p.shot("keyboard-result")
    page.focus("body")
    page.keyboard.press("Enter")                # 下一局
    page.wait_for_selector('body[data-hand="2"]', timeout=EVENT_WAIT_MS)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_auto_play_can_be_switched_on_and_cancelled(player, calm_url, size, lang):
    p = player(calm_url, size, lang)
    page = _guest_at_table(p, calm_url)
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
    # the next decision waits for the player, with their own clock running. The bot may
    # have played the hand to its end meanwhile (once in a loaded full run): then the
    # decision is the next hand's, which this server deals only on 下一局
    page.wait_for_selector(".hand.my-turn, .calls .call, .result-panel .next-hand",
                           timeout=EVENT_WAIT_MS)
    nxt = page.locator(".result-panel .next-hand")
    if nxt.is_visible():
        # unless the bot had already said ready: then the deal takes the panel away
        with contextlib.suppress(PlaywrightError):
            nxt.click(timeout=5000)
    page.wait_for_selector(".hand.my-turn, .calls .call", timeout=EVENT_WAIT_MS)
    ticking = page.locator(".badge.pos-self .badge-timer.ticking")
    ticking.wait_for()
    # "29 秒 ＋20" / "29s +20": the base runs, not the bank
    assert int(ticking.inner_text().split()[0].rstrip("s")) > 5
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
    # the browser's back button (a phone's back gesture) asks the same question: it
    # used to drop the player in the lobby, their seat's clock running at the table
    page.go_back()
    dialog.wait_for(state="visible")
    assert page.url.endswith("#/table")
    assert page.locator(".table-view .hand .hand-tile").count() > 0
    p.shot("back-asks")
    page.go_back()                          # Back again closes the question: stay
    dialog.wait_for(state="hidden")
    assert page.url.endswith("#/table")
    page.go_back()
    dialog.wait_for(state="visible")
    page.click(".leave-confirm")            # leaving from it: the lobby, and it resumes
    page.wait_for_selector(".active-panel .resume-btn")
    assert page.url.endswith("#/")
    page.click(".active-panel .resume-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)


def test_a_lobby_redraw_while_typing_keeps_the_field_the_caret_and_the_keystrokes(
        player, server_url):
    """The lobby redraws whenever its data arrives, also while someone types. It
    used to replace the field being typed in, so the focus (and a phone's keyboard)
    went away and the next keystrokes were lost; a loaded machine showed it as a
    name that never reached the server ("A name has 2–20 letters...")."""
    p = player(server_url, "phone", "zh-TW")
    page = p.page
    page.goto(server_url + "/")
    page.wait_for_selector("body[data-ready] .guest-btn")
    page.click("#login-name")
    page.keyboard.type("阿明朋友")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")                  # the caret between 明 and 朋
    page.evaluate("window.dispatchEvent(new HashChangeEvent('hashchange'))")    # a redraw
    page.keyboard.type("的")
    assert page.input_value("#login-name") == "阿明的朋友"
    assert page.evaluate("document.activeElement.id") == "login-name"


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
    p = _guest(player, server_url, size, lang)
    page = p.page
    # The select is drawn at once with bare names and again with each speed's clock
    # when the profiles arrive, so wait for the clock rather than for the option.
    standard = ("標準（每手 30 秒＋備用 20 秒）" if lang == "zh-TW"
                else "Standard (30s a move + 20s bank)")
    page.wait_for_function(
        "(want) => document.querySelector('#opt-speed option[value=standard]')"
        "?.textContent === want", arg=standard)
    labels = page.eval_on_selector_all("#opt-speed option", "els => els.map(e => e.textContent)")
    if lang == "zh-TW":
        assert labels == ["快（每手 15 秒＋備用 10 秒）", standard, "慢（每手 60 秒＋備用 40 秒）"]
    else:
        assert labels[1] == standard
    assert page.input_value("#opt-speed") == "standard"
    page.select_option("#opt-speed", "slow")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    info = page.inner_text(".table-info")
    assert ("慢（每手 60 秒" if lang == "zh-TW" else "Slow (60s a move") in info
    # the mode and the rules apart: 休閒 was the mode's name and the casual rules' too
    assert ("一般場 · 標準規則" if lang == "zh-TW" else "Unranked · Standard rules") in info
    p.shot("table-speed")
    _no_horizontal_scroll(page)
    page.click(".leave-btn")
    page.click(".leave-confirm")
    page.wait_for_selector(".active-panel .resume-btn")


@pytest.mark.parametrize("size,lang", [("phone", "en"), ("desktop", "en"), ("phone", "zh-TW"),
                                       ("desktop", "zh-TW")])
def test_the_lobby_fits_its_panels(player, server_url, size, lang):
    p = _guest(player, server_url, size, lang)
    page = p.page
    page.wait_for_selector("#opt-bots optgroup", state="attached")
    page.wait_for_selector(".ladder-panel .ladder-tier")      # the lobby's last data is in
    p.shot("lobby")
    _no_horizontal_scroll(page)
    # measured in one go: the lobby is redrawn as its data arrives
    boxes = page.evaluate("""(sels) => Object.fromEntries(['.play-panel', ...sels].map((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return [s, {x: r.x, y: r.y, width: r.width, height: r.height}];
    }))""", ["#opt-profile", "#opt-stake", "#opt-rounds", "#opt-speed", "#opt-bots",
             ".quick-btn", ".bots-btn", ".ranked-btn", ".challenge-btn"])
    panel = boxes.pop(".play-panel")
    for sel, box in boxes.items():
        assert _inside(box, panel), sel
    # every choice reads whole in its box: the rules box showed "Standar…" and
    # "標準（競…" at both sizes, so a newcomer could not read which rules were chosen
    cut = page.evaluate("""() => {
        const ctx = document.createElement("canvas").getContext("2d");
        const out = [];
        for (const s of document.querySelectorAll(".play-panel select")) {
            const cs = getComputedStyle(s);
            ctx.font = cs.font;
            // the text's room: the box less its padding and the drop-down arrow (~20 px)
            const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
            for (const o of s.options) {
                const w = ctx.measureText(o.textContent).width;
                if (w > room) out.push(`${s.id}: ${o.textContent} (${Math.round(w)} > ${Math.round(room)} px)`);
            }
        }
        return out;
    }""")
    assert cut == [], cut
    # the sticky app bar: two lines on a phone (the title with 設定 and the language, then
    # the pages), one on a desktop; it wrapped as it came, three lines (122 px) in English
    bar = page.locator(".app-bar").bounding_box()
    assert bar["height"] <= (80 if size == "phone" else 56), bar
    items = [page.locator(s).bounding_box() for s in
             (".brand", ".app-settings", ".app-lang", ".app-nav a >> nth=0", ".app-nav a >> nth=2")]
    for i, a in enumerate(items):
        assert _inside(a, bar)
        for b in items[i + 1:]:
            apart = (a["x"] + a["width"] <= b["x"] + 0.5 or b["x"] + b["width"] <= a["x"] + 0.5
                     or a["y"] + a["height"] <= b["y"] + 0.5
                     or b["y"] + b["height"] <= a["y"] + 0.5)
            assert apart, "two things of the app bar overlap"


@pytest.mark.parametrize("size,lang", [
    ("phone", "zh-TW"), ("phone-small", "en"), ("landscape", "zh-TW"), ("landscape-small", "en"),
    ("desktop-small", "zh-TW"), ("tablet", "en"), ("desktop", "en")])
def test_the_first_screen_after_signing_in_offers_play(player, server_url, size, lang):
    """A newcomer taps 訪客 and is one tap from a table: 快速配對 and 與電腦對戰 are on the
    first screen, under the welcome gift, without a scroll. They were below the play
    options and the account: at y 858 on a 390×844 phone, 596 on a phone sideways
    (844×390), 798 at 640×360 and 608 in an 800×600 window."""
    p = _guest(player, server_url, size, lang)
    page = p.page
    page.wait_for_selector(".gift-panel.gift-welcome")
    page.wait_for_selector(".ladder-panel .ladder-tier")      # the lobby's last data is in
    p.shot("first-screen")
    _no_horizontal_scroll(page)
    assert page.evaluate("window.scrollY") == 0
    screen = {"x": 0, "y": 0, **page.viewport_size}
    for sel in (".quick-btn", ".bots-btn"):
        box = page.locator(sel).bounding_box()
        assert _inside(box, screen), (sel, box, screen)
    # the choices the buttons play by are still in the play panel, below them
    buttons = page.locator(".play-buttons").bounding_box()
    fields = page.locator(".play-panel .fields").bounding_box()
    assert fields["y"] >= buttons["y"] + buttons["height"]
    # the sticky app bar names the game; where the lobby's own title would push the
    # buttons down it is not drawn, elsewhere it stays
    hero_shown = page.locator(".lobby-hero").is_visible()
    assert hero_shown == (size in ("tablet", "desktop")), hero_shown


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_new_player_is_welcomed_with_the_gift_and_the_daily_bonus_is_shown(
        player, server_url, size, lang):
    p = _guest(player, server_url, size, lang)
    page = p.page
    gift = page.locator(".gift-panel.gift-welcome")
    gift.wait_for(state="visible")
    assert ("新人禮包" if lang == "zh-TW" else "Welcome gift") in gift.inner_text()
    assert "10,000" in gift.inner_text()
    p.shot("welcome-gift")
    _no_horizontal_scroll(page)
    page.click(".gift-close")
    gift.wait_for(state="detached")
    # the next day: the server pays the bonus (tests/server: once a day, in the ledger);
    # here its answer is given, to see how the lobby says it
    page.route("**/api/v1/me/daily", lambda route: route.fulfill(
        json={"paid": 500, "amount": 500, "coins": 10_500, "next_at": 0}))
    page.reload()
    daily = page.locator(".gift-panel.gift-daily")
    daily.wait_for(state="visible")
    assert "+500" in daily.inner_text()
    p.shot("daily-bonus")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_challenge_ladder_and_the_opponents_at_the_table(player, server_url, size, lang):
    p = _guest(player, server_url, size, lang)
    page = p.page
    page.wait_for_selector(".ladder-panel .ladder-tier")
    assert page.locator(".ladder-tier").count() == 5
    assert page.locator(".ladder-bot").count() == 16
    assert page.locator(".ladder-bot .ladder-style").count() == 16      # each a style line
    assert page.locator(".ladder-tier.current").get_attribute("data-tier") == "1"
    assert page.locator(".ladder-tier.locked").count() == 4
    zh = lang == "zh-TW"
    assert page.inner_text(".ladder-progress") == ("已過 0 / 5 關" if zh else "0 of 5 tiers beaten")
    assert page.inner_text(".ladder-unlock") == ("打贏第 1 關（終局拿下第一名）即可解鎖第 2 關" if zh
                                                 else "Finish first in tier 1 to unlock tier 2")
    tier1 = page.eval_on_selector_all('.ladder-tier[data-tier="1"] .ladder-bot strong',
                                      "els => els.map(e => e.textContent)")
    page.locator(".ladder-panel").scroll_into_view_if_needed()
    p.shot("ladder")
    _no_horizontal_scroll(page)
    page.click(".ladder-play")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    # at the table: who each opponent is and their tier, and what is played
    # each opponent's badge: its personality's name, and its tier beside it
    names = [page.inner_text(f'.badge[data-seat="{s}"] .badge-name') for s in (1, 2, 3)]
    tiers = page.eval_on_selector_all(".badge-persona", "els => els.map(e => e.textContent)")
    assert all(name in tier1 for name in names)
    assert tiers == ["1級" if zh else "T1"] * 3
    info = page.inner_text(".table-info")
    assert ("挑戰賽 第 1 關" if zh else "Challenge tier 1") in info
    assert ("小 ×1" if zh else "Low ×1") in info
    p.shot("challenge-table")
    _no_horizontal_scroll(page)


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_deal_shows_the_dice_the_wall_break_and_who_deals(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = _guest_at_table(p, server_url)
    box = page.locator(".deal-info")
    page.wait_for_function("() => document.querySelector('.deal-info').dataset.dealer !== undefined",
                           timeout=EVENT_WAIT_MS)
    # it stands over the board only while nothing is asked of the player (a claim, or
    # the player's own turn, puts it aside until answered): read at one instant, and
    # closed by its button in that instant (at this fast table the seat's first discard,
    # played for it on 託管, takes the banner away for good soon after: a tap a moment
    # later found it gone)
    state = page.evaluate("""() => {
        const box = (e) => { const r = e.getBoundingClientRect();
                             return {x: r.x, y: r.y, width: r.width, height: r.height}; };
        const info = document.querySelector('.deal-info');
        const got = {shown: !info.hidden, asked: !!document.querySelector('.calls .call, .hand.my-turn'),
                     visible: info.checkVisibility(), box: box(info),
                     wrap: box(document.querySelector('.board-wrap')),
                     text: info.textContent, dice: info.querySelector('.deal-dice')?.textContent,
                     sum: info.querySelector('.deal-dice')?.dataset.sum,
                     deal: info.querySelector('.deal-text')?.textContent, dealer: info.dataset.dealer};
        if (got.shown && got.visible) {
            const close = info.querySelector('.deal-close');
            const r = close.getBoundingClientRect();
            // the button is where a tap lands: the topmost element at its centre
            got.tappable = close.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
            close.click();
            got.closed = info.hidden;
        }
        return got; }""")
    assert state["shown"] == (not state["asked"]), state
    dice = state["dice"]
    assert ("骰子" if lang == "zh-TW" else "Dice") in dice
    total = int(state["sum"])
    assert 3 <= total <= 18 and str(total) in dice
    text = state["deal"]
    if lang == "zh-TW":
        assert "作莊" in text and "開門" in text and "本局的東" in text
    else:
        assert "rolled" in text and "East for the hand" in text
    # the 莊 badge is on the dealer the line names
    dealer = state["dealer"]
    assert page.locator(f'.badge[data-seat="{dealer}"] .badge-dealer').count() == 1
    _no_horizontal_scroll(page)
    if state["shown"] and state["visible"]:       # where it stood at that instant
        assert _inside(state["box"], state["wrap"])
        assert state["tappable"] and state["closed"], state
        box.wait_for(state="hidden")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_countdown_shows_the_base_then_the_bank(player, static_url, size, lang):
    p = player(static_url, size, lang)
    page = p.open("dev/table.html?state=claim&clean&frozen")
    # the base is spent, 12 s of bank are left: the bar and the badge count the bank
    page.evaluate("""() => window.__view.setObservation(window.__fixtures.states.claim,
                                                         {timer: {base: 0, bank: 12}})""")
    box = page.locator(".countdown")
    assert page.inner_text(".countdown .countdown-n") == "12"
    assert "bank" in box.get_attribute("class")
    assert page.inner_text(".countdown .countdown-bank") == ("備用" if lang == "zh-TW" else "Bank")
    assert page.inner_text('.badge[data-seat="0"] .badge-timer') == (
        "備用 12 秒" if lang == "zh-TW" else "12s spare")
    p.shot("bank")
    # with base left, the base counts (and the bank waits beside it on the badge)
    page.evaluate("""() => window.__view.setObservation(window.__fixtures.states.claim,
                                                         {timer: {base: 9, bank: 12}})""")
    assert page.inner_text(".countdown .countdown-n") == "9"
    assert "bank" not in page.locator(".countdown").get_attribute("class")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_late_in_a_hand_every_river_stays_in_its_zone(player, static_url, size, lang):
    p = player(static_url, size, lang)
    page = p.open("dev/table.html?state=claim&clean&frozen")
    # 36 discards a seat: more than three rows of full-size tiles hold
    page.evaluate("""() => {
        const obs = structuredClone(window.__fixtures.states.claim);
        const kinds = ['1m','2m','3m','4m','5m','6m','7m','8m','9m','1p','2p','3p'];
        obs.discards = [0, 1, 2, 3].map((s) => Array.from({length: 36}, (_, i) => kinds[(i + s) % 12]));
        obs.last_discard = null;
        window.__view.setObservation(obs, {});
    }""")
    p.shot("late-rivers")
    board = page.locator(".board").bounding_box()
    for seat in range(4):
        river = page.locator(f'.river[data-seat="{seat}"]')
        zone = river.bounding_box()
        tiles = river.locator(".tile").all()
        assert len(tiles) == 36
        for t in (tiles[0], tiles[-1]):
            box = t.bounding_box()
            assert _inside(box, zone, slack=2), f"seat {seat}'s river spills out of its zone"
            assert _inside(box, board)
            assert box["width"] >= 9            # still a tile one can tell apart


@pytest.fixture(scope="module")
def voiced_url(tmp_path_factory):
    """A server with a voice pack holding one recorded 台語 call (碰)."""
    folder = tmp_path_factory.mktemp("voices")
    (folder / "nan").mkdir()
    (folder / "nan" / "pon.ogg").write_bytes(b"OggS" + bytes(64))
    with game_server(tmp_path_factory.mktemp("server"), voice_dir=folder, bot_fill_wait=0.2,
                     bot_delay=0.02, claim_window=0.02, pause_after=3600,
                     turn_base=30.0) as url:
        yield url


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_settings_panel(player, voiced_url, size, lang):
    p = _guest(player, voiced_url, size, lang)
    page = p.page
    page.wait_for_selector(".account-coins")
    page.click(".app-settings")
    box = page.locator(".settings-box")
    box.wait_for()
    zh = lang == "zh-TW"
    # each voice says how it will be heard: 台語 from this server's recordings
    nan_note = page.inner_text('.set-note[data-for="nan"]')
    assert nan_note == ("真人錄音（本伺服器提供）" if zh else "recorded calls from this server")
    assert page.inner_text('.set-note[data-for="cmn"]')        # recorded, browser, or none
    p.shot("settings")
    _no_horizontal_scroll(page)
    panel = box.bounding_box()
    for control in box.locator("input, button").all():
        # a desktop shows every choice at once; a phone's one column scrolls in the
        # panel, and each control, scrolled to, stands whole inside it
        if size != "desktop":
            control.scroll_into_view_if_needed()
        assert _inside(control.bounding_box(), panel), "a control crosses the settings panel"
    page.check('input[name="set-voice"][value="nan"]')
    page.click(".set-try")
    assert page.evaluate("document.documentElement.dataset.lastCall") == "recorded:nan:pon"
    # 普通話 has no recording here and headless Chromium no voice: the 台語 clip stands in
    page.check('input[name="set-voice"][value="cmn"]')
    page.click(".set-try")
    assert page.evaluate("document.documentElement.dataset.lastCall") == "recorded:nan:pon"
    page.check('input[name="set-voice"][value="nan"]')
    # sound off: nothing is said
    page.check('input[name="set-sound"][value="off"]')
    page.evaluate("delete document.documentElement.dataset.lastCall")
    page.click(".set-try")
    assert page.evaluate("document.documentElement.dataset.lastCall") is None
    page.check('input[name="set-sound"][value="on"]')
    # the speed of the tables one makes, and the tile size
    page.check('input[name="set-speed"][value="slow"]')
    page.check('input[name="set-tiles"][value="l"]')
    # the language: the panel and the page switch at once
    other = "en" if zh else "zh-TW"
    page.check(f'input[name="set-lang"][value="{other}"]')
    assert page.inner_text("#settings-title") == ("Settings" if zh else "設定")
    page.click(".settings-close")
    assert page.input_value("#opt-speed") == "slow"
    assert "tiles-l" in page.get_attribute("body", "class")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    # read in one go: the hand is redrawn on every update
    width = page.evaluate("document.querySelector('.hand-tile').getBoundingClientRect().width")
    # a phone keeps two rows of nine, a little larger than 中's (37.5 px): eight a row
    # made three rows, and the board (and the river tiles 大 enlarges) lost their height
    big = (390 - 24) / 9.2 if size == "phone" else 64
    assert width >= big - 1.5                       # large tiles in the hand
    assert "60" in page.inner_text(".table-info")   # a slow table: 60 s a move here
    p.shot("settings-applied")
    _no_horizontal_scroll(page)
    # 設定 at the table too
    page.click(".settings-btn")
    page.locator(".settings-box").wait_for()
    page.click(".settings-close")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_rules_page_is_written_from_the_profile(player, server_url, size, lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/#/rules/standard")
    page.wait_for_selector('.rule[data-rule="streak"]')
    rules = page.eval_on_selector_all(".rule", "els => els.map(e => e.dataset.rule)")
    assert rules == ["controls", "claims", "flowers", "passed", "last", "draw", "streak"]
    zh = lang == "zh-TW"
    # how to throw and call: by touch, and by the keys the table takes (test_table.py)
    controls = page.inner_text('.rule[data-rule="controls"]')
    assert ("往上滑" if zh else "swipe it up") in controls
    assert ("C 吃、P 碰、K 槓、W 胡" if zh else "C chi, P pong, K kong, W win") in controls
    claims = page.inner_text('.rule[data-rule="claims"]')
    assert ("最後 3 張" if zh else "only 3 tiles left") in claims      # standard: no_claims_last 3
    assert page.locator('.rule[data-rule="claims"] .tile').count() == 10  # chi, pon, kong pictured
    last = page.inner_text('.rule[data-rule="last"]')
    assert ("8 墩（16 張）" if zh else "8 stacks (16 tiles)") in last
    streak = page.inner_text('.rule[data-rule="streak"]')
    assert "連N拉N" not in streak and ("連一拉一" if zh else "連1拉1") in streak
    assert ("開門的位子是這局的東" if zh else "where the wall is broken is East") in \
        page.inner_text('.rule[data-rule="streak"]')
    p.shot("rules")
    _no_horizontal_scroll(page)
    # another profile, another page: casual counts the winds from the dealer
    page.goto(server_url + "/#/rules/casual")
    page.wait_for_function(
        "(want) => document.querySelector('.rule[data-rule=\"streak\"]')?.textContent.includes(want)",
        arg="風位從莊家算起" if zh else "counted from the dealer")


def _learn_fits(page, size):
    """The lesson's hand is on the screen without a scroll. With the words above the
    board, the hand was pushed below the foot of a phone held sideways and of a
    1366×768 desktop (by 80 px); there the words now stand beside the board."""
    view = page.viewport_size
    screen = {"x": 0, "y": 0, "width": view["width"], "height": view["height"]}
    for tile in page.locator(".hand .hand-tile").all():
        assert _inside(tile.bounding_box(), screen), "a hand tile off the screen"
    if size == "phone":             # upright, the switches under the hand may scroll in
        return
    assert page.evaluate("document.scrollingElement.scrollHeight") <= view["height"]
    board = page.locator(".board").bounding_box()
    guide = page.locator(".learn-guide").bounding_box()
    assert _inside(guide, screen)
    if size != "tablet":
        assert guide["x"] + guide["width"] <= board["x"], "the words over the board"


@pytest.mark.parametrize("size,lang", COMBOS + [("landscape", "zh-TW"), ("landscape-small", "en"),
                                               ("tablet", "zh-TW")])
def test_the_first_hand_walks_a_newcomer_through_draw_pon_ready_and_win(player, server_url,
                                                                       size, lang):
    p = player(server_url, size, lang)
    page = p.page
    page.goto(server_url + "/#/rules")
    page.click(".learn-link")
    guide = page.locator(".learn-guide")
    page.wait_for_selector('.learn-guide[data-step="draw"]')
    zh = lang == "zh-TW"
    assert ("摸進了「東」" if zh else "drew East") in guide.inner_text()
    p.shot("learn-draw")
    _no_horizontal_scroll(page)
    _learn_fits(page, size)
    page.locator('.hand-tile[data-tile="1z"]').click()
    page.locator(".hand-tile.lifted").click()
    page.wait_for_selector('.learn-guide[data-step="pon"]')
    page.click(".calls .call-pass")                        # not what this step teaches
    page.wait_for_selector(".learn-guide.hint")
    assert ("請按「碰」" if zh else "press Pong") in guide.inner_text()
    page.click(".calls .call-pon")
    page.wait_for_selector('.learn-guide[data-step="after_pon"]')
    page.locator('.hand-tile[data-tile="3s"]').click()
    page.locator(".hand-tile.lifted").click()
    page.wait_for_selector('.learn-guide[data-step="declare"]')
    page.click(".calls .call-declare")
    page.locator('.hand-tile[data-tile="2z"]').click()
    page.locator(".hand-tile.lifted").click()
    page.wait_for_selector('.learn-guide[data-step="win"]')
    p.shot("learn-win")
    _no_horizontal_scroll(page)
    _learn_fits(page, size)
    page.click(".calls .call-win")
    page.wait_for_selector('.learn-guide[data-step="done"]')
    assert ("胡了！" if zh else "You won!") in guide.inner_text()
    p.shot("learn-done")
    page.click(".learn-buttons .btn.primary")
    page.wait_for_selector("body[data-ready] .guest-btn")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_the_match_summary_shows_the_coins_won_or_lost(player, static_url, size, lang):
    p = player(static_url, size, lang)
    page = p.open("dev/table.html?state=turn&clean&frozen")
    page.evaluate("""() => window.__view.showSummary(
        {game_id: "g", scores: [320, -100, -60, -160], ranks: [1, 3, 2, 4]},
        {onLeave: () => {}, coins: [{before: 10000, after: 10160}, {before: 10160, after: 10320}]})""")
    line = page.inner_text(".summary-panel .coin-change")
    assert line == ("你的籌碼 10,000 → 10,320（+320）" if lang == "zh-TW"
                    else "Your coins 10,000 → 10,320 (+320)")
    p.shot("summary-coins")
    _no_horizontal_scroll(page)


def test_on_a_tall_phone_the_calls_and_the_hand_sit_at_the_bottom_edge(player, static_url):
    """At 390×844 the board takes the width and leaves about 200 px of height: the calls
    and the hand go down to the bottom edge, under the thumb, as the apps put them,
    instead of leaving that height empty below the hand; nothing overlaps the board."""
    p = player(static_url, "phone", "zh-TW")
    page = p.open("dev/table.html?state=claim&clean&frozen")
    page.wait_for_selector(".actions-wrap .call")
    p.shot("thumb-zone")
    height = page.viewport_size["height"]
    board = page.locator(".board-area").bounding_box()
    calls = page.locator(".actions-wrap .calls").bounding_box()
    hand = page.locator(".hand-wrap").bounding_box()
    toggles = page.locator(".toggles").bounding_box()
    assert toggles["y"] + toggles["height"] >= height - 24, "empty height left below the hand"
    assert toggles["y"] + toggles["height"] <= height + 0.5
    assert board["y"] + board["height"] <= calls["y"] - 40, "the spare height is between board and calls"
    assert calls["y"] + calls["height"] <= hand["y"] + 0.5
    _no_horizontal_scroll(page)


@pytest.mark.parametrize("size,lang", COMBOS + [("desktop", "zh-TW"), ("phone", "en")])
def test_every_seat_badge_shows_its_whole_name(player, static_url, size, lang):
    """A badge names its seat ("Across", a player's own name) beside the disc that shows
    its wind. With the wind written again after the name, names were cut: "Across
    (Sou…" on a desktop, "bot:穩健（…" on a phone. The whole label (with the wind) is the
    name's title and what a screen reader says."""
    p = player(static_url, size, lang)
    page = p.open("dev/table.html?state=claim&clean&frozen")
    page.wait_for_selector(".badge-name")
    cut = page.eval_on_selector_all(".badge-name", """els => els
        .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
    assert cut == []
    labels = page.eval_on_selector_all(".badge-name", "els => els.map((e) => e.title)")
    zh = lang == "zh-TW"
    assert (["你（東）", "下家（南）"] if zh else ["You (East)", "Right (South)"])[0] in labels
    assert page.eval_on_selector_all(
        ".badge-name", "els => els.every((e) => e.getAttribute('aria-label') === e.title)")
    p.shot("badge-names")


def _sideways_layout(page, board_share: float, beside: tuple[str, ...]):
    """A screen wider than high: nothing scrolls, the board is at least ``board_share`` of
    the height, the hand one row on the screen below it, and each of ``beside`` on the
    screen, left or right of the board, above the hand. The screen's box, the board's
    and the hand tiles'."""
    view, board, _, tiles = _fits_with_hand_and_river(page)
    screen = {"x": 0, "y": 0, "width": view["width"], "height": view["height"]}
    assert board["height"] >= board_share * view["height"], f"board {board['height']:.0f} px high"
    assert len({round(t["y"]) for t in tiles}) == 1, "the hand is one row"
    for t in tiles:
        assert _inside(t, screen)
        assert t["y"] >= board["y"] + board["height"] - 0.5, "a hand tile over the board"
    for side in beside:
        box = page.locator(side).bounding_box()
        assert _inside(box, screen), f"{side} off the screen"
        assert _beside(box, board), f"{side} over the board"
        assert box["y"] + box["height"] <= tiles[0]["y"] + 0.5, f"{side} over the hand"
    return screen, board, tiles


@pytest.mark.parametrize("size,lang", [("landscape", "zh-TW"), ("landscape-small", "en"),
                                       ("landscape-large", "en"), ("desktop-small", "zh-TW")])
@pytest.mark.parametrize("state", ["turn", "claim"])
def test_a_phone_held_sideways_gives_the_board_the_height(player, static_url, size, lang, state):
    """Turned sideways (844×390, 640×360), the portrait stack of top bar, board, prompt,
    calls, hand and toggles left the board 140 px high, its river tiles 6 px wide, and the
    page scrolled. The board now takes the height that one row of hand tiles leaves; the
    top bar, the prompt and the toggles stand beside it, the calls on its lower band. A
    window wider than high but under 900 px (800×600) is laid out the same: stacked, its
    board was 350 px and the page scrolled by 8. A large phone (915×412) is 900 px wide
    or more, where the desktop's rule pulled the hand up over the board."""
    p = player(static_url, size, lang)
    page = p.open(f"dev/table.html?state={state}&clean&frozen")
    page.wait_for_selector(".hand .hand-tile")
    if state == "claim":
        page.wait_for_selector(".actions-wrap .call")
    p.shot(f"sideways-{state}")
    screen, board, tiles = _sideways_layout(page, 0.7, (".toggles", ".prompt", ".table-tools"))
    assert page.locator(".river .tile").first.bounding_box()["width"] >= 10
    assert min(t["width"] for t in tiles) >= 30
    if state == "claim":
        for call in page.locator(".actions-wrap .call").all():
            assert _inside(call.bounding_box(), board), "a call off the board"
        page.click(".call-chi")
        page.wait_for_selector(".choices .choice")
        assert _inside(page.locator(".choices").bounding_box(), screen)
        p.shot("sideways-chi-choice")


@pytest.mark.parametrize("size,lang", [("landscape", "zh-TW"), ("phone", "en")])
def test_next_hand_is_in_view_while_the_result_is_longer_than_the_screen(
        player, static_url, size, lang):
    """A hand's result (台, four hands, payments, scores) is taller than a phone's screen,
    and 下一局 was at its foot: held sideways the player saw the 台 and had to find the
    button by scrolling. It now stays at the panel's foot in view, and scrolling still
    reaches everything above it."""
    p = player(static_url, size, lang)
    page = p.open("dev/table.html?state=end&clean&frozen")
    page.wait_for_selector(".result-panel .next-hand")
    view = page.viewport_size
    screen = {"x": 0, "y": 0, "width": view["width"], "height": view["height"]}
    panel = page.locator(".result-panel").bounding_box()
    assert panel["height"] > view["height"], "the fixture's result fits: nothing to prove"
    assert _inside(page.locator(".next-hand").bounding_box(), screen)
    p.shot("result-top")
    page.locator(".result-wrap").evaluate("e => e.scrollTo(0, e.scrollHeight)")
    last = page.locator(".score-table tr").last
    expect(last).to_be_in_viewport()
    above = last.bounding_box()
    assert above["y"] + above["height"] <= page.locator(".next-bar").bounding_box()["y"] + 0.5
    p.shot("result-foot")


def test_escape_closes_what_is_open_over_the_table_topmost_first(player, static_url):
    """A desktop player closes a dialog with Escape. Nothing closed: the 吃 choice, 設定
    and, at a served table, 離開's question, table talk and the deal's dice each needed
    their own button. One Escape closes the topmost only, sends nothing, and 設定 gives
    the focus back to the button that opened it."""
    p = player(static_url, "desktop", "en")
    page = p.open("dev/table.html?state=claim&clean&frozen")
    page.click(".call-chi")
    page.wait_for_selector(".choices .choice")
    page.click(".settings-btn")
    page.wait_for_selector(".settings-dialog")
    page.keyboard.press("Escape")
    expect(page.locator(".settings-dialog")).to_have_count(0)
    assert page.evaluate("document.activeElement.classList.contains('settings-btn')")
    assert page.locator(".choices").count() == 1, "one Escape closed two things"
    page.keyboard.press("Escape")
    expect(page.locator(".choices")).to_have_count(0)
    assert page.locator(".calls .call-chi").count() == 1        # the claim is still open
    assert p.sent() == []


def test_escape_closes_the_leave_question_talk_and_the_dice_at_a_served_table(
        player, server_url):
    p = player(server_url, "desktop", "en")
    page = _guest_at_table(p, server_url)
    dice = page.locator(".deal-info")
    page.wait_for_function("() => document.querySelector('.deal-info').dataset.dealer !== undefined",
                           timeout=EVENT_WAIT_MS)
    if dice.is_visible():         # (it stands aside while a move is asked of the player)
        page.keyboard.press("Escape")
        expect(dice).to_be_hidden()
    page.click(".leave-btn")
    page.locator(".leave-dialog").wait_for(state="visible")
    page.keyboard.press("Escape")
    expect(page.locator(".leave-dialog")).to_be_hidden()
    assert page.url.endswith("#/table")                          # stayed at the table
    assert page.evaluate("document.activeElement.classList.contains('leave-btn')")
    page.click(".talk-btn")
    page.locator(".talk-panel").wait_for(state="visible")
    page.keyboard.press("Escape")
    expect(page.locator(".talk-panel")).to_be_hidden()
    assert page.locator(".table-view .hand .hand-tile").count() >= 16


def _fits_with_hand_and_river(page):
    """The page fits the screen both ways; then the screen's size, the board's box, the
    width of the player's own river tiles, and the hand tiles' boxes."""
    view = page.viewport_size
    assert page.evaluate("document.scrollingElement.scrollHeight") <= view["height"]
    _no_horizontal_scroll(page)
    board = page.locator(".board").bounding_box()
    river = max(t.bounding_box()["width"] for t in page.locator(".river.pos-self .tile").all())
    hand = [t.bounding_box() for t in page.locator(".hand .hand-tile").all()]
    return view, board, river, hand


@pytest.mark.parametrize("tiles", ["m", "l"])
def test_on_a_big_screen_the_hand_grows_with_the_board(player, static_url, tiles):
    """At 1920×1080 the hand stopped at 58 px a tile (64 px when set large) while the board
    grew to 956 px: the player's own tiles were barely larger than the river's (1.3×).
    They now grow with the height, the board leaves them room, and the calls grow too;
    the page still fits the screen."""
    p = player(static_url, "desktop-fhd", "zh-TW")
    page = p.open("dev/table.html?state=claim&clean&frozen")
    page.wait_for_selector(".actions-wrap .call")
    if tiles == "l":                                # 設定 → 牌的大小 → 大
        page.evaluate("document.body.classList.add('tiles-l')")
    p.shot(f"big-screen-{tiles}")
    view, board, river, hand = _fits_with_hand_and_river(page)
    assert min(t["width"] for t in hand) >= 1.6 * river, (hand[0]["width"], river)
    for t in hand:
        assert t["y"] >= board["y"] + board["height"] - 0.5
        assert t["y"] + t["height"] <= view["height"] + 0.5
    call = page.locator(".actions-wrap .call").first.bounding_box()
    assert _inside(call, board) and call["height"] >= 60


@pytest.mark.parametrize("state", ["turn", "claim"])
def test_on_a_tablet_held_upright_the_hand_is_two_rows_of_big_tiles(player, static_url, state):
    """At 768×1024 the hand was one row of 40 px tiles, hardly larger than the river's
    (36 px), with the foot of the screen empty. A tablet upright now plays like a phone
    upright, bigger: two rows at the bottom edge, the calls between board and hand."""
    p = player(static_url, "tablet", "zh-TW")
    page = p.open(f"dev/table.html?state={state}&clean&frozen")
    page.wait_for_selector(".hand .hand-tile")
    p.shot(f"tablet-{state}")
    view, board, river, hand = _fits_with_hand_and_river(page)
    assert len({round(t["y"]) for t in hand}) == 2, "two rows"
    assert min(t["width"] for t in hand) >= 1.5 * river, (hand[0]["width"], river)
    assert board["height"] >= 0.6 * view["height"]
    for t in hand:
        assert t["y"] >= board["y"] + board["height"] and t["y"] + t["height"] <= view["height"]
    if state == "claim":
        calls = page.locator(".actions-wrap .calls").bounding_box()
        assert board["y"] + board["height"] <= calls["y"]
        assert calls["y"] + calls["height"] <= min(t["y"] for t in hand) + 0.5

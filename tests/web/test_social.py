"""Table talk and friends in the browser: two accounts become friends, one invites the
other to a private room and the other joins from the notification, they exchange a
phrase and an emote (the bubble at the right seat, the voice clip played), mute silences
one of them, and a third account watches the game (觀戰) — with two browser contexts at
390×844 (touch) and 1366×768, one in zh-TW and one in English, both ways round.

Every wait is for something on screen; screenshots of each step go to the shot dir.
"""

from __future__ import annotations

import secrets

import pytest

from .conftest import EVENT_WAIT_MS, game_server
from .test_player_table import _inside, _no_horizontal_scroll

WAV = b"RIFF\x24\x00\x00\x00WAVEfmt " + b"\x00" * 40

# every clip the page plays, and every utterance it speaks, are noted
SPY = """
window.__played = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src);
  return Promise.resolve();
};
"""


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    voices = tmp_path_factory.mktemp("voices")
    for voice in ("cmn", "nan"):
        (voices / voice).mkdir()
        for phrase in ("hello", "thanks"):
            (voices / voice / f"phrase_{phrase}.wav").write_bytes(WAV)
    # bot_delay: once both people hand their seats to the bots (託管) the table plays on
    # by itself while the watcher's page is read. At 0.02 s a move it played as fast as
    # the CPU allowed: the server's thread (in this process) and three pages redrawing
    # every move kept both cores busy, a screenshot or a bounding box of the watcher's
    # page took up to 30 s, and the test 20-85 s. At 0.3 s a move the watcher still
    # sees its first turns within a second or two.
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, turn_base=600.0, turn_bank=60.0,
                     voice_dir=voices, bot_talk=0.0) as url:
        yield url


def _register(player, url, size, lang, name):
    p = player(url, size, lang)
    p.context.add_init_script(SPY)
    page = p.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready] #login-name")
    page.fill("#login-name", name)
    page.fill("#login-pw", "secret-pw")
    page.click(".login-form .btn.ghost")              # 註冊 / Register
    page.wait_for_selector(".friends-panel .friend-add")
    return p, page


def _friend_row(page, name):
    return page.locator(f'.friends-list .friend-row[data-name="{name}"]')


def _bubble_near_seat(page, seat: int):
    """The bubble of ``seat`` is nearer that seat's badge than any other badge."""
    bubble = page.locator(f'.talk-bubble[data-seat="{seat}"]').bounding_box()
    centre = (bubble["x"] + bubble["width"] / 2, bubble["y"] + bubble["height"] / 2)

    def dist(s):
        b = page.locator(f'.badge[data-seat="{s}"]').bounding_box()
        return (b["x"] + b["width"] / 2 - centre[0]) ** 2 + (b["y"] + b["height"] / 2 - centre[1]) ** 2
    assert min(range(4), key=dist) == seat


def _picker_clear_of_hand_and_calls(page):
    panel = page.locator(".talk-panel").bounding_box()
    for sel in (".hand-wrap", ".actions-wrap .calls"):
        if page.locator(sel).count() and page.locator(sel).first.is_visible():
            other = page.locator(sel).first.bounding_box()
            if other and other["height"] > 0:
                assert panel["y"] + panel["height"] <= other["y"] + 0.5, f"the picker covers {sel}"


@pytest.mark.parametrize("a_size,a_lang,b_size,b_lang", [
    ("phone", "en", "desktop", "zh-TW"),
    ("desktop", "en", "phone", "zh-TW"),
    ("phone", "zh-TW", "tablet", "en"),
])
def test_friends_invite_talk_mute_and_watch(player, server_url, a_size, a_lang, b_size, b_lang):
    tag = secrets.token_hex(2)
    na, nb, nc = f"甲{tag}", f"乙{tag}", f"丙{tag}"
    pa, a = _register(player, server_url, a_size, a_lang, na)
    pb, b = _register(player, server_url, b_size, b_lang, nb)
    pc, c = _register(player, server_url, b_size, b_lang, nc)

    # -- two accounts become friends (A asks by name; B and C accept) -------------------
    for name in (nb, nc):
        a.fill("#friend-name", name)
        a.click(".friend-add button")
        a.wait_for_selector(f'.friends-outgoing .friend-row[data-name="{name}"]')
    for page in (b, c):
        page.wait_for_selector(f'.friends-incoming .friend-row[data-name="{na}"] .accept-btn',
                               timeout=EVENT_WAIT_MS)
        page.click(f'.friends-incoming .friend-row[data-name="{na}"] .accept-btn')
        _friend_row(page, na).wait_for()
    _friend_row(a, nb).wait_for(timeout=EVENT_WAIT_MS)
    lobby = "在大廳" if a_lang == "zh-TW" else "In the lobby"
    a.wait_for_selector(f'.friends-list .friend-row[data-name="{nb}"] .status-lobby',
                        timeout=EVENT_WAIT_MS)
    assert _friend_row(a, nb).locator(".friend-status").inner_text() == lobby
    pa.shot("friends")
    pb.shot("friends")

    # -- A invites B to a private room; B joins from the notification ----------------------
    a.click(".create-room-btn")
    a.wait_for_selector(".room-code")
    a.wait_for_selector(f'.friends-list .friend-row[data-name="{nb}"] .invite-btn',
                        timeout=EVENT_WAIT_MS)
    a.click(f'.friends-list .friend-row[data-name="{nb}"] .invite-btn')
    b.wait_for_selector(".invite-notice .join-invite-btn", timeout=EVENT_WAIT_MS)
    assert na in b.inner_text(".invite-notice .notice-text")
    pb.shot("invited")
    _no_horizontal_scroll(b)
    b.click(".invite-notice .join-invite-btn")
    a.wait_for_selector(f'.room-players li:has-text("{nb}")', timeout=EVENT_WAIT_MS)
    a.click(".start-btn")
    for page in (a, b):
        page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        page.wait_for_selector(".talk-btn")
    seat_a = a.evaluate("() => Number(document.querySelector('.badge.pos-self').dataset.seat)")
    seat_b = b.evaluate("() => Number(document.querySelector('.badge.pos-self').dataset.seat)")
    assert seat_a != seat_b

    # -- a phrase in two taps; the bubble at A's seat on B's screen; the clip played --------
    a.click(".talk-btn")                                   # tap 1
    a.wait_for_selector(".talk-panel .talk-phrase")
    pa.shot("picker")
    _picker_clear_of_hand_and_calls(a)
    _no_horizontal_scroll(a)
    a.click('.talk-phrase[data-phrase="hello"]')           # tap 2
    assert a.locator(".talk-panel").is_hidden()
    b.wait_for_selector(f'.talk-bubble[data-seat="{seat_a}"][data-phrase="hello"]',
                        timeout=EVENT_WAIT_MS)
    hello = "大家好，請多指教" if b_lang == "zh-TW" else "Hi all, go easy on me"
    assert b.inner_text(f'.talk-bubble[data-seat="{seat_a}"]') == hello
    _bubble_near_seat(b, seat_a)
    b.wait_for_function("() => window.__played.some((s) => s.endsWith('/phrase_hello'))")
    assert b.evaluate("document.documentElement.dataset.lastCall") == "recorded:nan:phrase_hello"
    pb.shot("phrase")
    # an emote back: at B's seat on A's screen
    b.click(".talk-btn")
    b.click('.talk-emote[data-emote="thumbs"]')
    a.wait_for_selector(f'.talk-bubble.emote[data-seat="{seat_b}"][data-emote="thumbs"]',
                        timeout=EVENT_WAIT_MS)
    _bubble_near_seat(a, seat_b)
    pa.shot("emote")

    # -- mute: B silences A; A's next phrase never shows nor sounds on B's screen -----------
    b.click(".talk-btn")
    b.click(f'.talk-mute .mute-btn[data-seat="{seat_a}"]')
    assert b.get_attribute(f'.talk-mute .mute-btn[data-seat="{seat_a}"]', "aria-pressed") == "true"
    pb.shot("mute")
    b.click(".talk-close")
    played = b.evaluate("window.__played.length")
    a.click(".talk-btn")
    a.click('.talk-phrase[data-phrase="thanks"]')
    a.wait_for_selector(f'.talk-bubble[data-seat="{seat_a}"][data-phrase="thanks"]',
                        timeout=EVENT_WAIT_MS)         # the table said it…
    b.click(".talk-btn")
    b.click('.talk-emote[data-emote="tea"]')           # …before B's own emote, which B sees
    b.wait_for_selector(f'.talk-bubble[data-seat="{seat_b}"][data-emote="tea"]',
                        timeout=EVENT_WAIT_MS)
    assert b.locator('.talk-bubble[data-phrase="thanks"]').count() == 0
    assert b.evaluate("window.__played.length") == played

    # -- a third account watches the game ----------------------------------------------
    c.wait_for_selector(f'.friends-list .friend-row[data-name="{na}"] .watch-btn',
                        timeout=EVENT_WAIT_MS)
    c.click(f'.friends-list .friend-row[data-name="{na}"] .watch-btn')
    c.wait_for_selector(".watch-view .watch-delay", timeout=EVENT_WAIT_MS)
    count = "1 人觀戰" if a_lang == "zh-TW" else "1 watching"
    a.wait_for_selector(f'.watchers-chip:has-text("{count}")', timeout=EVENT_WAIT_MS)
    pa.shot("watched")
    for page in (a, b):                     # 託管: the bots play on, so discards come
        page.click(".auto-btn")
    c.wait_for_selector(".watch-view .board", timeout=EVENT_WAIT_MS)
    c.wait_for_function("() => Number(document.querySelector('.watch-view .board').dataset.turn) >= 2",
                        timeout=EVENT_WAIT_MS)
    # public only: four hands of backs, no hand of one's own, nothing to claim or say
    assert c.locator(".watch-view .hand-tile").count() == 0
    assert c.locator(".watch-view .calls").count() == 0
    assert c.locator(".watch-view .talk-btn").count() == 0
    assert c.locator(".watch-view .band .concealed").count() == 4
    _no_horizontal_scroll(c)
    pc.shot("watching")
    board = c.locator(".watch-view .board-wrap").bounding_box()
    assert board["width"] <= c.viewport_size["width"] + 0.5
    assert c.evaluate("document.scrollingElement.scrollHeight") <= c.viewport_size["height"]
    # no hand of one's own: the board takes the hand's height too (it was 644 px of a
    # 1366×768 desktop, 646 of a 768×1024 tablet)
    view = c.viewport_size
    assert board["height"] >= min(view["width"] - 12, view["height"] - 120), board
    assert _inside(c.locator(".watch-leave").bounding_box(),
                   {"x": 0, "y": 0, **c.viewport_size})


def test_a_name_being_typed_survives_the_lobby_drawn_again_and_clears_once_sent(player, server_url):
    """The lobby is drawn again whenever friends' presence is read (every few seconds,
    and after every friend request). The name being typed in 加好友 used to be thrown
    away by it: the CI run that typed a second name right after the first sent an
    empty request."""
    tag = secrets.token_hex(2)
    _, b = _register(player, server_url, "desktop", "en", f"乙{tag}")
    pa, a = _register(player, server_url, "phone", "zh-TW", f"甲{tag}")
    a.fill("#friend-name", f"乙{tag}")
    for _ in range(2):                        # each language switch draws the lobby again
        a.click(".app-lang")
        a.wait_for_function("document.querySelector('.friend-add button') !== null")
    assert a.input_value("#friend-name") == f"乙{tag}"
    # and it is drawn as the lobby's other fields are (it was the browser's white box)
    style = "(s) => { const c = getComputedStyle(document.querySelector(s)); return [c.backgroundColor, c.color, c.borderRadius]; }"
    assert a.evaluate(style, "#friend-name") == a.evaluate(style, "#room-code")

    # a refused request keeps what was typed (to correct it)
    a.fill("#friend-name", f"甲{tag}")        # oneself
    a.click(".friend-add button")
    a.wait_for_selector("#toast:not([hidden])")
    assert a.input_value("#friend-name") == f"甲{tag}"

    # a sent one frees the field, and the request is there
    a.fill("#friend-name", f"乙{tag}")
    a.click(".friend-add button")
    a.wait_for_selector(f'.friends-outgoing .friend-row[data-name="乙{tag}"]')
    assert a.input_value("#friend-name") == ""
    b.wait_for_selector(f'.friends-incoming .friend-row[data-name="甲{tag}"]', timeout=EVENT_WAIT_MS)
    pa.shot("friend-typed")

"""真人語音 in the browser, with Chromium's fake microphone: a player records calls in
設定 (MediaRecorder), hears the take, keeps it; at a private room the other page plays
it from the server when that player speaks — and not once the seat is muted, nor
for a listener who turned 「玩家真人語音」 off. A refusal reads in the page's language."""

from __future__ import annotations

import secrets
import pytest

from .conftest import EVENT_WAIT_MS, Page, game_server


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, turn_base=600.0, turn_bank=60.0,
                     bot_talk=0.0) as url:
        yield url


def _register(p: Page, url: str, name: str):
    page = p.page
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready] #login-name")
    page.fill("#login-name", name)
    page.fill("#login-pw", "secret-pw")
    page.click(".login-form .btn.ghost")              # 註冊 / Register
    page.wait_for_selector(".friends-panel .friend-add")
    return page


def _record(page, call: str, keep: bool = True):
    row = f'.myvoice-call[data-call="{call}"]'
    page.click(f"{row} .myvoice-rec")
    page.wait_for_selector(f"{row} .myvoice-keep")    # the take stops by itself (2.3 s)
    if keep:
        page.click(f"{row} .myvoice-keep")
        page.wait_for_selector(f'{row}[data-kept="1"]')


def _say(page, phrase: str):
    page.click(".talk-btn")
    page.click(f'.talk-phrase[data-phrase="{phrase}"]')


def test_a_call_recorded_in_one_page_is_heard_in_another(media_player, server_url):
    tag = secrets.token_hex(2)
    pa, pb = media_player(server_url, "desktop", "en"), media_player(server_url, "phone", "zh-TW")
    a, b = _register(pa, server_url, f"Aud{tag}"), _register(pb, server_url, f"乙{tag}")
    # the host's choice for a room: players' recorded voices allowed (the default)
    assert b.is_checked("#room-voices")
    b.locator(".room-panel").scroll_into_view_if_needed()
    pb.shot("lobby")

    # -- A records 碰 and a 快捷語 in 台語, hearing each take before keeping it -------------
    a.click(".app-settings")
    a.click(".myvoice-open")
    a.wait_for_selector('.myvoice-call[data-call="pon"] .myvoice-rec')
    _record(a, "pon")
    a.click(".myvoice-more summary")
    _record(a, "phrase_hello")
    assert a.inner_text(".myvoice-used") == "2 of 80 clips used"
    pa.shot("settings")
    a.click(".myvoice-close")
    a.click(".settings-close")
    # -- B records a phrase too; the take waits to be kept or redone ------------------------
    b.click(".app-settings")
    b.click(".myvoice-open")
    b.wait_for_selector('.myvoice-call[data-call="pon"] .myvoice-rec')
    b.click(".myvoice-more summary")
    _record(b, "phrase_thanks", keep=False)
    assert b.inner_text('.myvoice-call[data-call="phrase_thanks"] .myvoice-status') == "試聽中：保留或重錄？"
    b.locator('.myvoice-call[data-call="phrase_thanks"]').scroll_into_view_if_needed()
    pb.shot("settings-take")
    b.click('.myvoice-call[data-call="phrase_thanks"] .myvoice-keep')
    b.wait_for_selector('.myvoice-call[data-call="phrase_thanks"][data-kept="1"]')
    # a PNG sent as a recording is refused, in the page's language
    said = b.evaluate("""async () => {
      const bytes = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13]);
      const r = await fetch('/api/v1/me/clips/nan/win', {method: 'PUT', body: bytes,
        headers: {Authorization: 'Bearer ' + localStorage.getItem('twmj.token'), 'Content-Type': 'audio/webm'}});
      const {errorText} = await import('./js/i18n.js');
      return [r.status, errorText((await r.json()).error)];
    }""")
    assert said == [422, "這不是遊戲能播放的錄音檔"]
    b.keyboard.press("Escape")                          # the voice panel closes, 設定 stays
    b.wait_for_selector(".myvoice-dialog", state="detached")
    b.click(".settings-close")

    # -- a private room: A hosts, B joins by the code, A starts ---------------------------
    a.click(".create-room-btn")
    code = a.get_attribute(".room-code", "data-code")
    b.fill("#room-code", code)
    b.click(".join-form button[type=submit]")
    a.wait_for_selector(f'.room-players li:has-text("乙{tag}")', timeout=EVENT_WAIT_MS)
    a.click(".start-btn")
    for page in (a, b):
        page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        page.wait_for_selector(".talk-btn")
    seat_a = a.evaluate("() => Number(document.querySelector('.badge.pos-self').dataset.seat)")
    seat_b = b.evaluate("() => Number(document.querySelector('.badge.pos-self').dataset.seat)")
    b.wait_for_function(f"() => (document.documentElement.dataset.seatVoices || '').split(',')"
                        f".includes('{seat_a}')")

    # -- A says 你好: B's page fetches A's own clip from the server and plays it -----------
    fetched: list[str] = []
    b.on("request", lambda r: fetched.append(r.url) if "/api/v1/clips/" in r.url else None)
    _say(a, "hello")
    b.wait_for_selector(f'.talk-bubble[data-seat="{seat_a}"][data-phrase="hello"]',
                        timeout=EVENT_WAIT_MS)
    b.wait_for_function("() => document.querySelector('audio.player-voice')?.dataset.played")
    voice = b.evaluate("""() => { const el = document.querySelector('audio.player-voice');
      return {src: el.src, clip: el.dataset.clip, seat: el.dataset.seat, ready: el.readyState,
              last: document.documentElement.dataset.lastCall}; }""")
    assert voice["src"].startswith("blob:") and voice["ready"] >= 1
    assert voice["seat"] == str(seat_a) and voice["last"] == f"player:{seat_a}:phrase_hello"
    assert fetched == [f"{server_url}/api/v1/clips/{voice['clip']}"]
    pb.shot("table-clip")
    # and B's phrase in B's voice at A's page
    _say(b, "thanks")
    a.wait_for_selector(f'.talk-bubble[data-seat="{seat_b}"][data-phrase="thanks"]',
                        timeout=EVENT_WAIT_MS)
    a.wait_for_function(f"() => document.documentElement.dataset.lastCall === "
                        f"'player:{seat_b}:phrase_thanks'")
    pa.shot("table-clip")

    # -- A's 碰 in A's voice; not once B mutes A's seat, nor with 玩家真人語音 off --------------
    speak = ("async (seat) => (await import('./js/speech.js')).speakCall('pon', seat)")
    assert b.evaluate(speak, seat_a) == f"player:{seat_a}:pon"
    b.click(".talk-btn")
    b.click(f'.talk-mute .mute-btn[data-seat="{seat_a}"]')
    b.click(".talk-close")
    clip = b.evaluate("document.querySelector('audio.player-voice').dataset.clip")
    assert not str(b.evaluate(speak, seat_a)).startswith("player:")
    assert b.evaluate("document.querySelector('audio.player-voice').dataset.clip") == clip
    b.click(".talk-btn")
    b.click(f'.talk-mute .mute-btn[data-seat="{seat_a}"]')          # heard again
    b.click(".talk-close")
    assert b.evaluate(speak, seat_a) == f"player:{seat_a}:pon"
    # B reports A's voice from the talk panel; the server stores it (201)
    b.click(".talk-btn")
    b.click(f'.voice-report .report-btn[data-seat="{seat_a}"]')
    b.wait_for_selector(f'.voice-report .report-btn[data-seat="{seat_a}"]:has-text("已檢舉，謝謝")')
    pb.shot("talk-report")
    b.click(".talk-close")
    b.evaluate("async () => (await import('./js/prefs.js')).setPref('playerVoices', false)")
    assert not str(b.evaluate(speak, seat_a)).startswith("player:")

"""教練 (the coach) in the browser: the panel, the marks on the tiles and the calls,
the setting, and the refusals — first against the table preview with a hint frame
made here (the protocol's shape), then at a real bot table and a ranked one."""

from __future__ import annotations

import contextlib
import json

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, evaluate_async, game_server
from .test_player_table import _guest_at_table, _tap_guest

# a `hint` as the server sends it (docs/protocol.md), for the preview's turn state
TURN_HINT = {
    "decision": "discard", "choice": {"type": "discard", "tile": "1z"},
    "say": {"zh": "打東：沒人要的字，打了仍是一向聽", "en": "Discard East: nobody needs it"},
    "tiles": [{"tile": t, "shanten": 1, "accept": [{"tile": "3p", "live": 2}], "accept_total": 2,
               "risk": ("safe", "careful", "danger")[i % 3], "deal_in": 0.01 * i,
               "why": [{"code": "ready_seat", "seat": 1}] if i % 3 == 2 else []}
              for i, t in enumerate(["2m", "3m", "4m", "5m", "6m", "7m", "9m", "3p", "4p",
                                     "4s", "5s", "6s", "1z"])],
    "claim": None,
    "outlook": {"tai": 2.4, "fold": False, "say": {"zh": "約 2.4 台，可以攻", "en": "About 2.4 tai: attack"}},
}
CLAIM_HINT = {
    "decision": "claim", "choice": {"type": "pon", "tile": "4m"},
    "say": {"zh": "碰四萬", "en": "Pong 4 Characters"}, "tiles": [],
    "claim": {"call": True, "say": {"zh": "碰了一向聽，門清本來就沒了", "en": "Pong: one from ready"}},
    "outlook": {"tai": 1.2, "fold": False, "say": {"zh": "約 1.2 台", "en": "About 1.2 tai"}},
}

SETUP = """async ([turn]) => {
  const { Coach } = await import("/js/coach.js");
  window.__asks = [];
  const c = new Coach(window.__view, { ask: (t) => window.__asks.push(t) });
  window.__coach = c;
  c.setAllowed(true);
  c.observe(window.__view.obs, turn);
}"""


def _preview(p, state, lang):
    page = p.open(f"dev/table.html?state={state}&clean&frozen&lang={lang}")
    page.evaluate(SETUP, [7])
    return page


def test_the_coach_panel_marks_and_setting_in_the_preview(phone):
    # on request (the default): a 教練 button asks once, for this turn
    page = _preview(phone, "turn", "zh-TW")
    expect(page.locator(".coach-ask")).to_have_text("問教練")
    page.click(".coach-ask")
    assert page.evaluate("window.__asks") == [7]
    page.keyboard.press("o")                               # O (a keyboard) asks too, once a decision
    assert page.evaluate("window.__asks") == [7]
    expect(page.locator(".coach-say")).to_contain_text("教練想一下")
    page.evaluate("(h) => window.__coach.receive({type: 'hint', turn: 6, hint: h})", TURN_HINT)
    expect(page.locator(".coach-say")).to_contain_text("教練想一下")     # another turn's answer: ignored
    page.evaluate("(h) => window.__coach.receive({type: 'hint', turn: 7, hint: h})", TURN_HINT)
    expect(page.locator(".coach-say")).to_contain_text("打東：沒人要的字")
    # the AI's tile is ringed once, and it is a legal discard; every tile carries its risk
    pick = page.locator(".hand-tile.coach-pick")
    expect(pick).to_have_count(1)
    legal = page.evaluate("window.__view.obs.legal.filter(a => a.type === 'discard').map(a => a.tile)")
    assert pick.get_attribute("data-tile") in legal
    risks = page.eval_on_selector_all(".hand .hand-tile", "bs => bs.map(b => b.dataset.risk)")
    assert risks and set(risks) <= {"safe", "careful", "danger"}
    assert "危險" in page.locator('.hand-tile[data-risk="danger"]').first.get_attribute("aria-label")
    expect(page.locator(".coach-legend")).to_contain_text("安全")
    expect(page.locator(".coach-outlook")).to_have_text("約 2.4 台，可以攻")
    # the picked tile's line: shanten, 進張 with live counts, risk; lifting a tile shows its own
    expect(page.locator(".coach-tile")).to_contain_text("東：打完一向聽，進張 2 張（三筒剩2）；安全")
    page.locator('.hand-tile[data-risk="danger"]').first.click()
    expect(page.locator(".coach-tile")).to_contain_text("四萬：打完一向聽，進張 2 張（三筒剩2）；危險（小華像是聽牌了）")
    phone.shot("coach-turn")
    # English, and the setting: off hides it all, always asks at once
    page.evaluate("async () => (await import('/js/i18n.js')).setLang('en')")
    expect(page.locator(".coach-say")).to_contain_text("Discard East")
    expect(page.locator(".coach-legend")).to_contain_text("danger")
    page.evaluate("async () => (await import('/js/prefs.js')).setChoice('coach', 'off')")
    expect(page.locator(".coach-wrap")).to_be_hidden()
    expect(page.locator(".hand-tile[data-risk]")).to_have_count(0)
    page.evaluate("async () => (await import('/js/prefs.js')).setChoice('coach', 'always')")
    page.evaluate("() => window.__coach.observe(window.__view.obs, 8)")
    assert page.evaluate("window.__asks") == [7, 8]
    page.evaluate("async () => (await import('/js/prefs.js')).setChoice('coach', 'ask')")
    page.evaluate("() => window.__coach.observe(window.__view.obs, 9)")
    page.keyboard.press("o")
    assert page.evaluate("window.__asks") == [7, 8, 9]
    # refusals are said in the panel; hints_off takes the control away
    page.evaluate("() => window.__coach.refused({type: 'error', code: 'rate_limited'})")
    expect(page.locator(".coach-note")).to_have_text("Too many questions: ask again in a moment")
    assert page.evaluate("() => window.__coach.refused({type: 'error', code: 'hints_off'})")
    expect(page.locator(".coach-wrap")).to_be_hidden()


def test_the_coach_marks_its_call_at_a_claim(phone):
    page = _preview(phone, "claim", "en")
    page.evaluate("() => window.__coach.request()")
    page.evaluate("(h) => window.__coach.receive({type: 'hint', turn: 7, hint: h})", CLAIM_HINT)
    expect(page.locator(".call-pon.coach-pick")).to_have_count(1)
    expect(page.locator(".call-chi.coach-pick")).to_have_count(0)
    expect(page.locator(".coach-claim")).to_have_text("Pong: one from ready")
    phone.shot("coach-claim")


# -- at the real server --------------------------------------------------------------------

@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("coach"), bot_delay=0.02, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=600.0, turn_bank=20.0) as url:
        yield url


def _frames(page) -> list[dict]:
    """Every message the server sends this page, as it arrives."""
    got: list[dict] = []

    def on_socket(ws):
        ws.on("framereceived", lambda payload: got.append(json.loads(payload)))
    page.on("websocket", on_socket)
    return got


def _my_discard(page):
    """Pass every claim until the player's own turn to discard."""
    while True:
        page.wait_for_selector(".hand.my-turn, .calls .call-pass", timeout=EVENT_WAIT_MS)
        if page.locator(".hand.my-turn").count():
            return
        with contextlib.suppress(PlaywrightError):
            page.click(".calls .call-pass", timeout=2000)


# the page opens a second link to its own seat (as a second tab would) and asks there
ASK_OVER_SOCKET = """async () => {
  const token = (await import('/js/api.js')).getToken();
  const ticket = sessionStorage.getItem('twmj.ticket');
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/ws');
  return await new Promise((resolve) => {
    ws.onopen = () => ws.send(JSON.stringify({v: 1, type: 'hello', token, ticket}));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'snapshot') ws.send(JSON.stringify({v: 1, type: 'hint'}));
      if (m.type === 'error' || m.type === 'hint') { ws.close(); resolve(m); }
    };
  });
}"""


def test_the_coach_at_a_bot_table_and_none_at_a_ranked_one(player, server_url):
    # a bot table, phone, zh-TW: 問教練 at the player's turn; the AI's tile is ringed and
    # is the server's choice, one of the legal discards; every tile carries its risk
    p = player(server_url, "phone", "zh-TW")
    frames = _frames(p.page)
    page = _guest_at_table(p, server_url)
    for _ in range(20):
        _my_discard(page)
        page.click(".coach-ask")
        expect(page.locator('.coach[data-state="shown"]')).to_have_count(1)
        hint = next(m for m in reversed(frames) if m["type"] == "hint")
        offered = next(m for m in reversed(frames) if m.get("turn") == hint["turn"] and m.get("observation"))
        legal = offered["observation"]["legal"]
        choice = hint["hint"]["choice"]
        assert choice in legal
        if choice["type"] == "discard":
            break
        # a kong, a win or 聽 offered at this turn: the coach marks that call instead
        expect(page.locator(".calls .call.coach-pick")).to_have_count(1)
        page.locator(".hand.my-turn .hand-tile:not(.blocked)").last.click()
        page.locator(".hand-tile.lifted").click()
        page.wait_for_selector(".hand:not(.my-turn)", timeout=EVENT_WAIT_MS)
    expect(page.locator(".hand-tile.coach-pick")).to_have_attribute("data-tile", choice["tile"])
    throwable = page.eval_on_selector_all(".hand.my-turn .hand-tile:not(.blocked)", "bs => bs.map(b => b.dataset.tile)")
    assert choice["tile"] in throwable
    risks = page.eval_on_selector_all(".hand .hand-tile", "bs => bs.map(b => b.dataset.risk)")
    assert risks and set(risks) <= {"safe", "careful", "danger"}
    expect(page.locator(".coach-say")).to_contain_text(hint["hint"]["say"]["zh"])
    p.shot("coach-bot-table")
    # a ranked table, desktop, English: no coach control at all, and the socket is refused
    r = player(server_url, "desktop", "en")
    page = r.page
    _tap_guest(page, server_url)
    page.wait_for_selector(".account-coins")
    page.click(".ranked-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    assert page.locator(".coach-wrap").is_hidden()
    assert page.locator(".coach-ask, .coach, .hand-tile[data-risk]").count() == 0
    refused = evaluate_async(page, ASK_OVER_SOCKET)
    assert refused["type"] == "error" and refused["code"] == "hints_off"
    assert page.locator(".coach-ask, .coach").count() == 0

"""教練 (the coach) in the browser: the panel, the marks on the tiles and the calls,
the setting, and the refusals — first against the table preview with a hint frame
made here (the protocol's shape), then at a real bot table and a ranked one."""

from __future__ import annotations

import json

from playwright.sync_api import expect

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
    expect(page.locator(".coach-tile")).to_contain_text("東：打後 1 向聽，進張 2 張（三筒剩2）；安全")
    page.locator('.hand-tile[data-risk="danger"]').first.click()
    expect(page.locator(".coach-tile")).to_contain_text("四萬：打後 1 向聽，進張 2 張（三筒剩2）；危險（小華像是聽牌了）")
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

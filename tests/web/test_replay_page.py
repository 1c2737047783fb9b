"""The replay viewer steps through a stored hand, forward and back."""

from __future__ import annotations

import json

import pytest

from .test_player_table import _sideways_layout


def _serve(page, fixtures):
    states = fixtures["states"]
    frames = [
        {"observation": {k: v for k, v in states["waiting"].items()}, "events": []},
        {"observation": states["turn"], "events": []},
        {"observation": states["claim"], "events": []},
        {"observation": states["end"], "events": [],
         "result": {"type": "win", "winners": [0], "payer": 3, "net": [220, 0, 0, -220], "fee": 0,
                    "wins": [{"type": "win", "seat": 0, "from": 3, "tile": "4m", "self_drawn": False,
                              "score": fixtures["result"]["wins"][0]["score"]}]}},
    ]
    bodies = {
        "/api/v1/profiles": {"profiles": ["standard"], "default": "standard", "stakes": {"low": 1}, "modes": []},
        "/api/v1/leaderboard": {"players": []},
        "/api/v1/games/g_1": {"game_id": "g_1", "players": ["阿明", "bot:a", "小華", "bot:b"],
                              "hands": [{"hand_no": 1}, {"hand_no": 2}], "result": None},
        "/api/v1/games/g_1/replay": {"hand_no": 1, "frames": frames},
    }

    def handle(route):
        path = "/" + route.request.url.split("/", 3)[3].split("?")[0]
        body = bodies.get(path)
        route.fulfill(status=200 if body else 404, content_type="application/json",
                      body=json.dumps(body or {"error": {"code": "not_found", "message": "no"}}))

    page.route("**/api/v1/**", handle)


def test_replay_steps_forward_and_back(web, fixtures):
    _serve(web.page, fixtures)
    page = web.open("index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    assert page.locator(".hand .hand-tile").count() == 13
    page.click(".replay-next")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    # The drawn 東 of the second step stands apart; nothing can be thrown in a replay.
    assert page.locator(".hand-tile.drawn").get_attribute("data-tile") == "1z"
    assert page.locator(".hand.my-turn").count() == 0
    page.click(".replay-next")
    assert page.locator(".calls").count() == 0
    page.click(".replay-prev")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    page.click(".replay-last")
    assert page.inner_text(".replay-step") == "第 4 / 4 步"
    assert page.inner_text(".total-tai") == "6 台"
    web.shot("replay-end")
    page.click(".replay-first")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    assert page.locator(".result-wrap").is_hidden()
    # → steps the replay; it lifts no tile, as it does at a table one plays
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    assert page.locator(".hand-tile.lifted").count() == 0


def test_the_replay_s_keys_work_from_arrival_and_step_once(web, fixtures):
    """Arriving by a link the focus is on the page, not in the replay, and ← → did
    nothing; in the slider one press stepped twice (the slider and the replay both)."""
    _serve(web.page, fixtures)
    page = web.open("index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    page.keyboard.press("End")
    assert page.inner_text(".replay-step") == "第 4 / 4 步"
    page.keyboard.press("Home")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    page.keyboard.press("Control+ArrowRight")        # the browser's, not the replay's
    page.keyboard.press("Alt+ArrowRight")
    assert page.inner_text(".replay-step") == "第 1 / 4 步"
    page.focus('.replay-controls input[type="range"]')
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".replay-step") == "第 2 / 4 步"
    page.evaluate("location.hash = '#/'")          # gone: its keys go with it
    page.wait_for_selector(".play-panel")
    page.keyboard.press("ArrowRight")
    assert page.locator(".replay-step").count() == 0


def test_a_missing_replay_says_so(web, fixtures):
    _serve(web.page, fixtures)
    page = web.open("index.html#/replay/g_unknown")
    page.wait_for_selector(".replay-missing")
    assert page.inner_text(".replay-missing p") == "這局的重播暫時無法取得"


# -- 牌譜分析: the AI's review beside the player's own replay --------------------------------------

ANALYSIS = {
    "hand_no": 1, "seat": 0, "bot": "L5", "worlds": 32, "threshold": 20.0,
    "stakes": {"base": 100, "per_tai": 20}, "costliest": [2], "total_loss": 45.2,
    "decisions": [
        {"n": 1, "step": 1, "turn": 1, "phase": "turn", "hand": "234m567m99m34p456s", "drawn": "1z",
         "played": {"type": "discard", "tile": "1z"}, "bot": {"type": "discard", "tile": "1z"},
         "agrees": True, "options": [], "loss": 9.6, "spread": 14.1, "mistake": False},
        {"n": 2, "step": 2, "turn": 2, "phase": "turn", "hand": "234m567m99m34p456s", "drawn": "5s",
         "played": {"type": "discard", "tile": "5s"}, "bot": {"type": "discard", "tile": "1z"},
         "agrees": False, "options": [], "loss": 45.2, "spread": 12.4, "mistake": True},
    ],
}


def _serve_own(page, fixtures, me="阿明"):
    """The replay of 阿明's game, with 阿明 signed in (or someone else): what was asked.
    Signed in, the page also tries the game channel, which the static server lacks."""
    _serve(page, fixtures)
    asked = []
    from twmahjong.server.play.opponents import catalogue
    # what a signed-in page asks at once (a refusal there would be the page's error)
    bodies = {"/api/v1/me": {"id": 1, "name": me, "guest": True, "coins": 1000},
              "/api/v1/games": {"games": []}, "/api/v1/bots": catalogue(),
              "/api/v1/me/daily": {"paid": 0}}
    page.add_init_script("localStorage.setItem('twmj.token', 'tok')")

    def handle(route):
        path = "/" + route.request.url.split("/", 3)[3].split("?")[0]
        asked.append(path)
        if path == "/api/v1/games/g_1/analysis":
            # the stream the viewer asks for (progress=1): where the review stands, then it
            assert "progress=1" in route.request.url
            lines = [{"ahead": 1}, {"done": 0, "total": 2}, {"done": 2, "total": 2},
                     {"review": ANALYSIS}]
            route.fulfill(status=200, content_type="application/x-ndjson",
                          body="".join(json.dumps(x) + "\n" for x in lines))
        elif path in bodies:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(bodies[path]))
        else:
            route.fallback()

    page.route("**/api/v1/**", handle)
    return asked


def _check_review(page, lang):
    zh = lang == "zh-TW"
    page.wait_for_selector(".analysis-mark")
    assert page.locator(".analysis-mark").count() == 2
    assert page.locator(".analysis-mark.mistake").count() == 1
    assert page.locator(".analysis-mark.agree").count() == 1
    # before any decision: the hand's summary and its costliest decision first
    summary = page.inner_text(".analysis-summary")
    assert summary == ("本局 1 個失誤，共損失約 45 分" if zh else "1 mistake this hand, about 45 points given away")
    # the AI's own move (its rollouts' 10 ± 14) is neither costly nor counted
    assert page.locator(".analysis-worst li").count() == 1
    page.click(".analysis-mark.mistake")
    assert page.inner_text(".replay-step") == ("第 3 / 4 步" if zh else "Step 3 of 4")
    assert page.inner_text(".analysis-badge.mistake") == ("失誤" if zh else "Mistake")
    assert page.inner_text(".analysis-move").startswith("你：打出 五條" if zh else "You: discard 5 Bamboo")
    assert page.inner_text(".analysis-ai") == ("AI：打出 東" if zh else "AI: discard East")
    assert page.inner_text(".analysis-loss") == ("期望損失 45 ± 12 分" if zh else "Expected loss 45 ± 12 points")
    page.click(".replay-prev")
    assert page.inner_text(".analysis-badge.agree") == ("與 AI 相同" if zh else "Same as the AI")
    assert page.locator(".analysis-loss").count() == 0


@pytest.mark.parametrize("size, lang", [("phone", "zh-TW"), ("desktop", "zh-TW"), ("phone", "en"),
                                        ("desktop-fhd", "zh-TW"), ("tablet", "en")])
def test_the_players_own_replay_marks_the_ais_review(player, static_url, fixtures, size, lang):
    p = player(static_url, size, lang)
    asked = _serve_own(p.page, fixtures)
    page = p.page
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    _check_review(page, lang)
    page.click(".analysis-mark.mistake")
    p.shot("analysis-mistake")
    # the whole hand is in view above the sticky controls, without scrolling (the
    # board once took the desktop's full height and a phone's controls hid the
    # hand's second row; a big screen's taller hand and a tablet's two rows went
    # under the controls while the board kept a one-row hand's height)
    tiles = page.eval_on_selector_all(".hand .hand-tile",
                                      "els => els.map(e => e.getBoundingClientRect().bottom)")
    controls = page.eval_on_selector(".replay-controls", "e => e.getBoundingClientRect().top")
    assert len(tiles) == 13 and max(tiles) <= controls <= page.viewport_size["height"]
    assert asked.count("/api/v1/games/g_1/analysis") == 1


# The analysis stream answered by hand: __say(line) sends each line when the test says
# so (null ends it); __asked lists each request's hand and whether it was called off.
HELD_STREAM = """(() => {
  const real = window.fetch;
  window.__say = null;
  window.__asked = [];
  window.fetch = (url, opts) => {
    if (!String(url).includes("/analysis?")) return real(url, opts);
    const ask = { hand: new URL(String(url), location.href).searchParams.get("hand"),
                  aborted: false };
    window.__asked.push(ask);
    opts?.signal?.addEventListener("abort", () => { ask.aborted = true; });
    const body = new ReadableStream({ start(c) {
      const enc = new TextEncoder();
      window.__say = (line) => line === null ? c.close() : c.enqueue(enc.encode(line + "\\n"));
    } });
    return Promise.resolve(new Response(body, { status: 200,
      headers: { "Content-Type": "application/x-ndjson" } }));
  };
})()"""


def _held_replay(p, static_url, fixtures):
    """The player's own replay of g_1, with its review's stream held (HELD_STREAM)."""
    _serve_own(p.page, fixtures)
    page = p.page
    page.add_init_script(HELD_STREAM)
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    page.wait_for_function("window.__asked.length === 1")
    return page


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_a_player_waiting_for_the_review_sees_how_far_it_is(player, static_url, fixtures, lang):
    """The review takes seconds, longer behind other players' hands: the panel said
    only "AI 分析中…" all that time. It now says how many hands are ahead, then how many
    decisions are done, as the server's stream tells it, and then shows the review."""
    p = player(static_url, "phone", lang)
    page = _held_replay(p, static_url, fixtures)
    zh = lang == "zh-TW"
    assert page.inner_text(".analysis") == ("AI 分析中…" if zh else "The AI is reviewing this hand…")
    assert page.get_attribute(".analysis", "aria-busy") == "true"
    page.evaluate("window.__say(JSON.stringify({ahead: 2}))")
    page.wait_for_function("document.querySelector('.analysis').innerText.includes('2')")
    assert page.inner_text(".analysis") == (
        "AI 分析排隊中：前面還有 2 局" if zh else "The AI's review is queued: 2 hands ahead")
    page.evaluate("window.__say(JSON.stringify({done: 0, total: 2}))")
    page.evaluate("window.__say(JSON.stringify({done: 1, total: 2}))")
    want = "AI 分析中：1 / 2 個決定" if zh else "The AI is reviewing this hand: 1 of 2 decisions"
    page.wait_for_function(f"document.querySelector('.analysis').innerText === {json.dumps(want)}")
    p.shot("analysis-progress")
    assert page.locator(".analysis-mark").count() == 0
    page.evaluate(f"window.__say({json.dumps(json.dumps({'review': ANALYSIS}))}); window.__say(null)")
    _check_review(page, lang)
    assert page.get_attribute(".analysis", "aria-busy") is None


def test_leaving_a_hand_before_its_review_calls_the_review_off(player, static_url, fixtures):
    """A player leafing through a game's hands left every hand's review queued in the
    server's one worker, ahead of other players' hands. Going on to another hand, or
    to another screen, now closes the hand's stream (the server calls off a review
    nobody waits for)."""
    p = player(static_url, "desktop")
    page = _held_replay(p, static_url, fixtures)
    page.evaluate("window.__say(JSON.stringify({ahead: 3}))")
    page.click(".replay-hands a:nth-child(2)")
    page.wait_for_function("window.__asked.length === 2")
    assert page.evaluate("window.__asked") == [{"hand": "1", "aborted": True},
                                                {"hand": "2", "aborted": False}]
    page.click(".app-nav a[href='#/']")
    page.wait_for_function("window.__asked[1].aborted")
    assert len(page.evaluate("window.__asked")) == 2


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_a_player_over_the_review_cap_is_told_why(player, static_url, fixtures, lang):
    """Three of a player's hands under review at once is the most: the fourth is 429,
    which the panel said was "not available"; it now says the AI is on the others."""
    p = player(static_url, "phone", lang)
    _serve_own(p.page, fixtures)
    page = p.page
    body = {"error": {"code": "rate_limited", "message": "the AI is still reviewing"}}
    page.route("**/api/v1/games/g_1/analysis?*", lambda route: route.fulfill(
        status=429, content_type="application/json", body=json.dumps(body)))
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    page.wait_for_function("!document.querySelector('.analysis').hasAttribute('aria-busy')")
    assert page.inner_text(".analysis") == (
        "AI 還在分析你的其他牌局，請稍後再看這局" if lang == "zh-TW"
        else "The AI is still reviewing your other hands; come back to this one in a moment")


def test_a_clean_hands_review_shows_no_stray_words(player, static_url, fixtures):
    """A hand with nothing costly (a good hand, or one 託管 played) showed "本局 0 個失誤，
    共損失約 0 分 nullnull", an agreeing move "… null" after it and a move apart from the AI's
    that cost nothing "null 你：…": the panel wrote out each absent part as "null"."""
    p = player(static_url, "phone", "zh-TW")
    page = _held_replay(p, static_url, fixtures)
    clean = {**ANALYSIS, "costliest": [], "total_loss": 0.0, "decisions": [
        {**ANALYSIS["decisions"][0]},
        {**ANALYSIS["decisions"][1], "mistake": False, "loss": 0.0, "spread": 0.0}]}
    page.evaluate(f"window.__say({json.dumps(json.dumps({'review': clean}))}); window.__say(null)")
    page.wait_for_selector(".analysis-summary")
    texts = [page.inner_text(".analysis")]
    assert texts[0].split("\n") == ["AI 牌譜分析", "本局沒有失誤，也沒有損失"]
    for step in (1, 2):
        page.click(f".analysis-mark[data-step='{step}']")
        texts.append(page.inner_text(".analysis"))
    assert texts[1].split("\n") == ["AI 牌譜分析", "與 AI 相同", "你：打出 東", "AI：打出 東"]
    assert texts[2].split("\n") == ["AI 牌譜分析", "你：打出 五條", "AI：打出 東",
                                     "期望損失 0 ± 0 分"]
    assert page.locator(".analysis :text('null')").count() == 0


def test_someone_elses_replay_asks_for_no_review(player, static_url, fixtures):
    p = player(static_url, "desktop")
    asked = _serve_own(p.page, fixtures, me="路人")
    page = p.page
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    page.click(".replay-next")
    assert page.locator(".analysis, .analysis-mark").count() == 0
    assert "/api/v1/games/g_1/analysis" not in asked


@pytest.mark.parametrize("size, lang", [("landscape", "zh-TW"), ("landscape-small", "en")])
def test_a_replay_on_a_phone_held_sideways_gives_the_board_the_height(
        player, static_url, fixtures, size, lang):
    """Sideways (844×390, 640×360), the replay stacked its title, board, hand and controls,
    which left the board 60 px (30 px) high. The board now takes the height the app bar
    and one row of hand tiles leave; the title and the controls with the AI's review stand
    beside it, all on one screen, and they still work."""
    p = player(static_url, size, lang)
    _serve_own(p.page, fixtures)
    page = p.page
    page.goto(f"{static_url}/index.html#/replay/g_1")
    page.wait_for_selector(".replay-step")
    _check_review(page, lang)
    p.shot("replay-sideways")
    _, _, tiles = _sideways_layout(page, 0.6, (".replay-head", ".replay-controls"))
    assert len(tiles) >= 13
    # every control in view, none scrolled away inside its panel (English is the longer)
    assert page.eval_on_selector(".replay-controls", "e => e.scrollHeight <= e.clientHeight")
    page.click(".replay-last")
    assert page.inner_text(".replay-step") == ("第 4 / 4 步" if lang == "zh-TW" else "Step 4 of 4")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_counts_read_as_words(player, static_url, lang):
    """English said "1 round(s)", "2 hand(s) ahead", "1 mistake(s)", "1 other
    player(s)": one and many now read as English does; Chinese has one form."""
    p = player(static_url, "desktop", lang)
    page = p.page
    page.goto(f"{static_url}/index.html")
    page.wait_for_selector("body[data-ready]")
    got = page.evaluate("""async () => {
      const m = await import("./js/i18n.js");
      return [m.tn("play.rounds.n", 1), m.tn("play.rounds.n", 4), m.tn("next.waiting", 1),
              m.tn("next.waiting", 3), m.tn("analysis.queued", 1),
              m.tn("analysis.summary", 1, { loss: 5 }), m.tn("analysis.summary", 0, { loss: 5 })];
    }""")
    if lang == "en":
        assert got == ["1 round", "4 rounds", "Ready — waiting for 1 other player…",
                       "Ready — waiting for 3 other players…", "The AI's review is queued: 1 hand ahead",
                       "1 mistake this hand, about 5 points given away",
                       "0 mistakes this hand, about 5 points given away"]
    else:
        assert got == ["1 圈", "4 圈", "已準備，等待其他玩家（1 位）…", "已準備，等待其他玩家（3 位）…",
                       "AI 分析排隊中：前面還有 1 局", "本局 1 個失誤，共損失約 5 分", "本局 0 個失誤，共損失約 5 分"]
    options = page.eval_on_selector_all("#opt-rounds option", "os => os.map(o => o.textContent)")
    assert options == (["1 round", "2 rounds", "3 rounds", "4 rounds"] if lang == "en"
                       else ["1 圈", "2 圈", "3 圈", "4 圈"])

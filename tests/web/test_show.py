"""The table shows what happened: the win's moment before the settlement, the tile a
claim takes (on its button, in the prompt, gone dim from the thrower's river), whose
turn it is and their clock, who the others are and how their game goes, a watcher's
hand end turned up, the match summary's own rating and whole-game coins, and labels
that say what they mean — in the browser, at 390×844 (touch, zh-TW) and 1366×768
(English).

The journey deals from a stacked wall (``server/play/stacked.py``) against bots that
play by rote, as ``test_journeys.py`` does: the player (seat 0, dealer) throws 5z,
the right bot throws 1p (碰), the player throws 2p, and the bot across throws 9p (胡).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, evaluate_async
from .test_journeys import BOT, _seated, _throw
from .test_journeys import server_url  # noqa: F401  (the stacked-wall server)
from .test_player_table import COMBOS, _no_horizontal_scroll

# 123m 456m 789m 11p 78p 99s, and 2p 5z to throw: pon 1p, then wait on 6p / 9p
PLAYER = "123m456m789m11p78p99s2p5z"

# the order the win's moment and the settlement first showed in (a win shown for 2 s
# could be gone before a test looks: the page notes it as it happens)
ORDER = """
window.__order = [];
new MutationObserver(() => {
  const seen = (what) => { if (!window.__order.includes(what)) window.__order.push(what); };
  if (document.querySelector('.win-show:not([hidden]) .win-tile')) seen('win');
  if (document.querySelector('.result-wrap:not([hidden]) .result-panel')) seen('result');
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_claim_and_a_win_are_shown(player, server_url, size, lang):
    zh = lang == "zh-TW"
    p, page = _seated(player, server_url, size, lang,
                      {"hands": [PLAYER, BOT, BOT, BOT], "draws": "1p7s9p"})
    page.evaluate(ORDER)
    # the header names the mode and the rules apart (a room plays the 標準 rules)
    info = page.inner_text(".table-info")
    assert ("一般場 · 標準規則" if zh else "Unranked · Standard rules") in info
    # the seat to move is marked, with its clock running
    page.wait_for_selector(".hand.my-turn")
    expect(page.locator('.badge[data-seat="0"]')).to_have_class("badge pos-self active")
    clock = page.locator('.badge[data-seat="0"] .badge-timer.ticking')
    expect(clock).to_contain_text("秒" if zh else "s")
    prompt = "往上滑" if zh else "click a tile to lift it"       # touch, or a mouse
    assert prompt in page.inner_text(".prompt")
    _throw(page, "5z")

    # 碰 names the tile it takes, on the button and in the prompt; nothing over the board
    pon = page.locator(".calls .call-pon")
    pon.wait_for(timeout=EVENT_WAIT_MS)
    assert pon.get_attribute("data-tile") == "1p"
    assert pon.locator("img.call-tile").get_attribute("alt") == ("一筒" if zh else "1 Dots")
    assert page.locator(".prompt .prompt-tile").get_attribute("data-tile") == "1p"
    assert page.locator(".deal-info").is_hidden()
    p.shot("claim-offered")
    pon.click()
    # the claimed 1p leaves the right seat's river dimmed, without the last-discard mark
    meld = page.locator('.band[data-seat="0"] .meld[data-type="pon"]')
    meld.wait_for(timeout=EVENT_WAIT_MS)
    assert meld.locator(".tile.from-river").get_attribute("data-tile") == "1p"
    taken = page.locator('.river[data-seat="1"] .tile').last
    assert taken.get_attribute("data-tile") == "1p"
    assert "claimed" in taken.get_attribute("class")
    assert page.locator('.river[data-seat="1"] .last-discard').count() == 0
    p.shot("claimed")
    _throw(page, "2p")

    win = page.locator(".calls .call-win")
    win.wait_for(timeout=EVENT_WAIT_MS)
    assert win.get_attribute("data-tile") == "9p"
    win.click()
    # the win's moment: 胡, who and from whom, the hand laid down and the 9p marked
    shown = page.locator(".win-show")
    shown.locator(".win-tile").wait_for(state="attached", timeout=EVENT_WAIT_MS)
    assert shown.locator(".win-tile").get_attribute("data-tile") == "9p"
    assert shown.locator(".win-show-call").inner_text() == ("胡" if zh else "Win")
    assert shown.locator(".win-show-who").inner_text() == (
        "你 胡 對家 打的牌" if zh else "You win on Across's discard")
    assert shown.locator(".revealed .tile").count() == 17     # 13 in hand, the 9p, the 碰 1p
    # a look at it once its entrance is over (if it still stands)
    page.wait_for_function("() => document.querySelector('.win-show').getAnimations()"
                           ".every((a) => a.playState === 'finished')")
    if page.evaluate("!document.querySelector('.win-show').hidden"):
        p.shot("win-show")
    # a tap (while it still stands) brings the settlement at once
    page.evaluate("() => { const w = document.querySelector('.win-show'); if (!w.hidden) w.click(); }")
    page.wait_for_selector(".result-wrap:not([hidden]) .result-panel .win-block")
    assert page.evaluate("window.__order") == ["win", "result"]
    next_hand = page.inner_text(".result-panel .next-hand")
    assert "（" not in next_hand if not zh else "（" in next_hand    # "Next hand (600)"
    p.shot("settlement")
    _no_horizontal_scroll(page)


# a persona bot, a level bot, a person: each badge says who and how strong, and the game so far
PLAYERS = [
    {"name": "阿明", "bot": False, "coins": 10240, "score": 120},
    {"name": None, "bot": True, "score": -40,
     "persona": {"id": "dummy", "zh": "阿呆", "en": "Dozy", "tier": 1, "description": "Throws anything",
                 "description_zh": "亂打"}},
    {"name": None, "bot": True, "level": 3, "score": 0},
    {"name": "小美", "bot": False, "coins": 9060, "score": -80},
]


def _turn_of_seat_2(fixtures):
    """The 'waiting' table, seat 2 to throw (it holds 17), and seat 0's pon of seat 2's 7p."""
    obs = dict(fixtures["states"]["waiting"])
    obs["phase"] = "turn"
    obs["last_discard"] = None
    obs["concealed_count"] = [13, 13, 17, 10]
    obs["melds"] = [[{"type": "pon", "tiles": "777p", "from": 2, "claimed": "7p"}],
                    [{"type": "chi", "tiles": "345s", "from": 0, "claimed": "4s"}], [],
                    [{"type": "pon", "tiles": "666z", "from": 1, "claimed": "6z"},
                     {"type": "concealed_kong", "tiles": None}]]
    obs["discards"] = [["9p", "2z", "4s", "8m"], ["1m", "6z", "5z"], ["4z", "7p"], ["6m", "2s"]]
    return obs


def test_badges_summary_and_labels_in_an_english_browser(browser, static_url, fixtures, shot_dir):
    """An English browser opens in English (its first language), the player's switch is
    kept; badges name each seat with its level and game so far; the seat to throw is
    marked; claimed tiles are dimmed; the summary says the player's own rating change and
    the whole game's coins; counts and parentheses read as English."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{static_url}/dev/table.html?state=waiting&clean&frozen")
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("document.documentElement.lang") == "en"
        page.evaluate("players => window.__view.setPlayers(players)", PLAYERS)
        page.evaluate("obs => window.__view.setObservation(obs)", _turn_of_seat_2(fixtures))
        badge = lambda seat, part: page.inner_text(f'.badge[data-seat="{seat}"] .badge-{part}')  # noqa: E731
        assert badge(1, "name") == "Dozy" and badge(1, "level") == "T1"
        assert badge(2, "name") == "Across" and badge(2, "level") == "Bot L3"
        # coins where the seat has them, else the game so far (a bot's)
        assert [badge(s, "coins") for s in (0, 3)] == ["10,240", "9,060"]
        assert [badge(s, "score") for s in (1, 2)] == ["Game -40", "Game 0"]
        assert page.locator(".badge-score").count() == 2
        assert "active" in page.get_attribute('.badge[data-seat="2"]', "class")
        assert page.locator(".badge.active").count() == 1
        # each claimed tile dim in its thrower's river: 7p (seat 2), 4s (seat 0), 6z (seat 1)
        dim = page.eval_on_selector_all(".river .tile.claimed",
                                        "els => els.map(e => e.closest('.river').dataset.seat + e.dataset.tile)")
        assert sorted(dim) == ["04s", "16z", "27p"]
        page.screenshot(path=str(shot_dir / "show-badges-desktop-en.png"))

        page.evaluate("""r => window.__view.showResult(r, {scores: [220, 0, 0, -220],
            onNext: () => {}, next: {in: 19, waiting: [0]}})""", fixtures["result"])
        assert page.inner_text(".result-panel .next-hand") == "Next hand (19)"
        page.evaluate("""() => window.__view.showSummary(
            {game_id: "g", scores: [400, -40, 0, -360], ranks: [1, 2, 3, 4],
             rating: {before: [1500, 1500, 1500, 1500], after: [1516, 1505.3, 1494.7, 1484]},
             coins: [{before: 10000, after: 10400}, null, null, null]},
            {onLeave: () => {}, coins: [{before: 10120, after: 10400}]})""")
        summary = page.locator(".summary-panel")
        assert summary.locator(".rating-change").inner_text() == "Rating 1500 → 1516 (+16)"
        assert summary.locator(".coin-change").inner_text() == "Your coins 10,000 → 10,400 (+400)"
        assert "Dozy" in summary.inner_text()
        for stray in ("NaN", "undefined", "null", ","):
            assert stray not in summary.locator(".rating-change").inner_text()
        page.screenshot(path=str(shot_dir / "show-summary-desktop-en.png"))
        # a count of one is singular, and the rules spell the streak out
        one = evaluate_async(page, "async () => (await import('../js/i18n.js')).tn('leaderboard.games', 1)")
        assert one == "1 game"
        # the player's own choice is kept over the browser's
        page.evaluate("async () => (await import('../js/i18n.js')).setLang('zh-TW')")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        assert page.evaluate("document.documentElement.lang") == "zh-TW"
    finally:
        ctx.close()
    assert not errors, errors


def _hand_end(fixtures):
    """A server's hand_end for the fixture result: seat 0 won on seat 3's 4m."""
    r = fixtures["result"]
    win = dict(r["wins"][0])
    win["tile"] = win.pop("win_tile")
    return {"type": "hand_end", "hand_no": 1, "coins": [None] * 4,
            "result": {"type": "win", "winners": [0], "payer": 3, "self_drawn": False,
                       "net": r["net"], "fee": 0, "wins": [win], "hands": r["hands"]}}


def test_a_watcher_sees_the_hand_end_turned_up(player, static_url, fixtures):
    """A watcher read 「第 1 局結束，牌已攤開」 over a board of backs: the hands are now
    turned up on the board and the result is shown; a personality's name shows once."""
    p = player(static_url, "phone", "zh-TW")
    page = p.open("dev/table.html?state=turn&clean&frozen")
    seats = [{"name": "阿明", "bot": False}, {"name": "bot:dummy", "bot": True, "persona": PLAYERS[1]["persona"]},
             {"name": "bot:L3", "bot": True, "level": 3}, {"name": "小美", "bot": False}]
    view = {k: v for k, v in fixtures["states"]["waiting"].items() if k not in ("hand", "legal", "seat")}
    evaluate_async(page, """async ([seats, view, end]) => {
        const { WatchView } = await import('../js/watch.js');
        document.querySelector('#table').remove();
        const root = document.createElement('main');
        document.body.prepend(root);
        const w = new WatchView(root, { onLeave: () => {} });
        w.handle({type: 'watching', game_id: 'g', delay: 4, table: {seats, scores: [0, 0, 0, 0]}});
        w.handle({type: 'watch', hand_no: 1, turn: 9, view, events: [], scores: [0, 0, 0, 0]});
        w.handle(end);
        window.__watch = w;
    }""", [seats, view, _hand_end(fixtures)])
    # every seat's hand face up on the board (no backs), the winning tile marked
    assert page.locator(".watch-view .band .concealed .tile.back").count() == 0
    assert page.locator('.watch-view .band[data-seat="2"] .revealed-up .tile').count() == 16
    assert page.locator('.watch-view .band[data-seat="0"] .win-tile').get_attribute("data-tile") == "4m"
    panel = page.locator(".watch-view .result-wrap .result-panel")
    expect(panel).to_be_visible()
    assert "阿明 胡牌" in panel.locator(".win-head").inner_text()
    # the personality's name once on its badge (its tier beside it), not twice
    assert page.inner_text('.watch-view .badge[data-seat="1"]').count("阿呆") == 1
    assert page.inner_text('.watch-view .badge[data-seat="2"] .badge-level') == "電腦 L3"
    p.shot("watch-hand-end")
    page.click(".watch-view .result-panel .next-hand")            # 看牌桌: the board turned up
    expect(panel).to_be_hidden()
    p.shot("watch-board-up")

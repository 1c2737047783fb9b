"""Too many unfinished tables, and 認輸, in the browser against the real game server
(its cap set to one table): a refused quick match stops its spinner and says what to
do, with the games in progress (回到牌桌, 認輸) right there; 認輸 says what happens
before it does — at 390×844 (touch, zh-TW) and 1366×768 (English).

The first test forfeits for real (``POST /api/v1/games/{id}/forfeit``, the server
ends the game and ``GET /api/v1/games`` marks it ``"forfeited": true`` without its
ticket). A table with another person at it takes two people; the second test stands
one in by the contract instead (``page.route``: ``{"game_id", "outcome":
"bot_plays"}``, a person's name in the players) — the server's side of that case is
tests/server/test_server_forfeit.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import EVENT_WAIT_MS, game_server
from .test_player_table import _guest_at_table

COMBOS = [("phone", "zh-TW"), ("desktop", "en")]
TEXT = {
    "zh-TW": {"refusal": "回到其中一桌打完，或認輸結束一桌", "alone": "牌局現在結束",
              "settled": "已經結算的各局照算", "others": "電腦會替你把這個位子打到終局",
              "ended": "牌局已結束", "bot": "電腦會替你打完這一局", "forfeited": "已認輸"},
    "en": {"refusal": "Go back to one and finish it, or forfeit one", "alone": "the game ends now",
           "settled": "Hands already settled stand", "others": "a bot plays your seat to the end",
           "ended": "The game has ended", "bot": "A bot plays your seat to the end",
           "forfeited": "Forfeited"},
}


@pytest.fixture(scope="module")
def capped_url(tmp_path_factory):
    with game_server(tmp_path_factory.mktemp("capped"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0, max_active_tables=1) as url:
        yield url


def stub_forfeit(page, outcome: str, person_at_table: bool = False):
    """The forfeit endpoint by its contract, and GET /games marking what it ended."""
    forfeited: set[str] = set()

    def forfeit(route):
        gid = route.request.url.split("/games/")[1].split("/")[0]
        forfeited.add(gid)
        route.fulfill(json={"game_id": gid, "outcome": outcome})

    def games(route):
        r = route.fetch()
        data = r.json()
        for g in data["games"]:
            if g["game_id"] in forfeited:
                g["forfeited"] = True
                g.pop("ticket", None)
            if person_at_table and g["status"] == "active":
                g["players"][(g["seat"] + 1) % 4] = "阿明"
        route.fulfill(response=r, json=data)

    page.route("**/api/v1/games/*/forfeit", forfeit)
    page.route("**/api/v1/games", games)
    return forfeited


def spy_forfeit(page) -> set[str]:
    """The games the page asked the real server to forfeit."""
    asked: set[str] = set()

    def seen(request):
        if request.method == "POST" and request.url.endswith("/forfeit"):
            asked.add(request.url.split("/games/")[1].split("/")[0])
    page.on("request", seen)
    return asked


def _leave(page):
    page.click(".leave-btn")
    page.click(".leave-confirm")
    page.wait_for_selector(".active-panel .forfeit-btn")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_a_refused_quick_match_stops_and_offers_the_games_to_finish_or_forfeit(
        player, capped_url, size, lang):
    """At the cap, 快速配對 is refused: the spinner used to stay up reading
    「配對中…0 秒後由電腦補位」. Now it stops, the lobby says what to do with the game
    in progress right there, and 認輸 (asked first, saying the game ends now at a table
    of bots) takes it off the list."""
    text = TEXT[lang]
    p = player(capped_url, size, lang)
    page = _guest_at_table(p, capped_url)
    forfeited = spy_forfeit(page)
    _leave(page)
    page.click(".quick-btn")
    panel = page.locator(".active-panel.refused")
    expect(panel).to_be_visible()
    expect(page.locator(".queue")).to_have_count(0)          # no spinner left turning
    expect(panel.locator(".refusal-text")).to_contain_text(text["refusal"])
    row = panel.locator(".active-game")
    expect(row).to_have_count(1)
    expect(row.locator(".resume-btn")).to_be_visible()
    expect(row.locator(".forfeit-btn")).to_be_visible()
    assert panel.evaluate("(e) => e.getBoundingClientRect().top >= 0"
                          " && e.getBoundingClientRect().top < innerHeight")
    p.shot("refused")
    game_id = row.get_attribute("data-game")
    # 與電腦對戰 is refused the same way (an HTTP refusal, not the socket's)
    page.click(".refusal-close")
    expect(page.locator(".active-panel.refused")).to_have_count(0)
    page.click(".bots-btn")
    expect(page.locator(".active-panel.refused")).to_be_visible()
    # 認輸: asked first, in plain words
    row.locator(".forfeit-btn").click()
    dialog = page.locator(".forfeit-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text(text["alone"])
    expect(dialog).to_contain_text(text["settled"])
    p.shot("forfeit-ask")
    page.click(".forfeit-keep")                       # not yet: nothing is sent
    expect(dialog).to_have_count(0)
    assert not forfeited
    row.locator(".forfeit-btn").click()
    page.click(".forfeit-confirm")
    expect(page.locator(".toast")).to_contain_text(text["ended"])
    assert forfeited == {game_id}
    expect(page.locator(".active-panel")).to_have_count(0)
    mine = page.locator(f'.games-panel .game-row[data-game="{game_id}"]')
    expect(mine.locator(".tag.forfeited")).to_have_text(text["forfeited"])
    expect(mine.locator(".resume-btn")).to_have_count(0)
    p.shot("forfeit-done")


@pytest.mark.parametrize("size,lang", COMBOS)
def test_forfeit_at_a_table_with_another_person_says_the_bot_plays_on(
        player, tmp_path_factory, size, lang):
    text = TEXT[lang]
    with game_server(tmp_path_factory.mktemp("others"), bot_delay=0.3, claim_window=0.02,
                     pause_after=3600, hand_pause=600.0, bot_fill_wait=0.2,
                     turn_base=60.0, turn_bank=20.0) as url:
        p = player(url, size, lang)
        page = _guest_at_table(p, url)
        stub_forfeit(page, "bot_plays", person_at_table=True)
        _leave(page)
        page.click(".active-panel .forfeit-btn")
        dialog = page.locator(".forfeit-dialog")
        expect(dialog).to_contain_text(text["others"])
        p.shot("forfeit-ask-others")
        page.click(".forfeit-confirm")
        expect(page.locator(".toast")).to_contain_text(text["bot"])
        expect(page.locator(".active-panel .forfeit-btn")).to_have_count(0, timeout=EVENT_WAIT_MS)

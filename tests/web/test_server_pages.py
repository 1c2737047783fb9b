"""The client's pages against the real game server: the 台 help from
``GET /profiles/{id}/patterns``, the opponent selector from ``GET /bots``, the
replay viewer over a game the server really played, and every seat's clock.

The server's turn timer is short here, so a seat nobody sits at times out at
once and plays itself (托管): a whole game finishes without a player, which is
what the replay test needs. Waits are for something on screen or a stored game,
never a fixed sleep.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tiles
from twmahjong.web.help import EACH

from .conftest import EVENT_WAIT_MS, evaluate_async, game_server, wait_for_game_over


@pytest.fixture(scope="module")
def server_url(tmp_path_factory):
    # bots think a little, so a match lasts a few seconds: the browser sits down first.
    # No claim window to wait out: nobody at these tables answers a claim (a seat left
    # alone is on 托管 after its first 0.2 s), and 0.02 s on every discard made a hand
    # of a match that plays itself last ~1.5 times as long.
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.02, claim_window=0.0,
                     pause_after=3600, hand_pause=0.2,
                     bot_fill_wait=0.2, turn_base=0.2, turn_bank=0.0) as url:
        yield url


@pytest.fixture(scope="module")
def table_url(tmp_path_factory):
    """A server with live-play timers, for a player who sits down and looks."""
    with game_server(tmp_path_factory.mktemp("server"), bot_delay=0.02, claim_window=0.02,
                     pause_after=3600, hand_pause=0.5,
                     bot_fill_wait=0.2, turn_base=30.0) as url:
        yield url


def _guest_token(url: str) -> str:
    r = httpx.post(url + "/api/v1/guests", timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["token"]


def _signed_in(p, url: str, token: str):
    """A page whose player is already logged in (the token the app keeps)."""
    p.page.add_init_script(f"localStorage.setItem('twmj.token', {token!r})")
    return p.page


@pytest.mark.parametrize("name", ["standard", "casual"])
def test_help_page_from_the_real_endpoint_lists_every_pattern(make_page, server_url, name):
    p = make_page(server_url, "desktop")
    page = p.page
    page.goto(f"{server_url}/#/help/{name}")
    profile = load_profile(name)
    want = [f"{pid}={'每組 ' if pid in EACH else ''}{pat.tai} 台"
            for pid, pat in profile.patterns.items()]
    # the list may be drawn again as the page settles: read it whole, in one go, until
    # it is every pattern of the profile in order with its 台 (fails if it never is)
    page.wait_for_function(
        "(want) => [...document.querySelectorAll('.help-pattern')].map(e => e.dataset.pattern"
        " + '=' + e.querySelector('.help-tai').textContent).join('|') === want",
        arg="|".join(want))
    p.shot(f"help-live-{name}")


def test_the_lobby_offers_levels_personalities_and_adaptive_and_starts_that_game(make_page, table_url):
    p = make_page(table_url, "desktop")
    page = _signed_in(p, table_url, _guest_token(table_url))
    page.goto(table_url + "/")
    page.wait_for_selector("#opt-bots optgroup", state="attached")
    values = page.eval_on_selector_all("#opt-bots option", "els => els.map(e => e.value)")
    assert values[:7] == ["", "adaptive", "L1", "L2", "L3", "L4", "L5"]
    assert len(values) == 7 + 16
    groups = page.eval_on_selector_all("#opt-bots optgroup", "els => els.map(e => e.label)")
    assert groups == ["等級", "第 1 級角色", "第 2 級角色", "第 3 級角色", "第 4 級角色", "第 5 級角色"]
    assert page.inner_text('#opt-bots option[value="shark"]') == "老鯊"
    # the style line is the hover text, in the page's language (zh-TW here)
    assert page.get_attribute('#opt-bots option[value="shark"]', "title") == "攻守平衡有耐心，專抓亂打的牌。"
    assert page.inner_text('#opt-bots option[value="L2"]') == "L2 入門"
    p.shot("lobby-bots")
    page.select_option("#opt-bots", "L2")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    players = evaluate_async(page, """async () => {
        const r = await fetch('/api/v1/games', {headers: {Authorization: 'Bearer ' + localStorage.getItem('twmj.token')}});
        return (await r.json()).games[0].players; }""")
    assert players[1:] == ["bot:L2", "bot:L2", "bot:L2"]


def _finished_game(url: str, token: str) -> str:
    """A 1-round game against L1 bots that plays itself; its id once it is over."""
    auth = {"Authorization": f"Bearer {token}"}
    seat = httpx.post(url + "/api/v1/rooms", headers=auth, timeout=10,
                      json={"bots": "L1", "rounds": 1}).json()
    httpx.post(url + f"/api/v1/rooms/{seat['code']}/start", headers=auth, timeout=10)
    wait_for_game_over(url, seat["game_id"])
    return seat["game_id"]


@pytest.fixture(scope="module")
def replay_game(tmp_path_factory):
    """``(url, token, game_id)``: a finished 1-圈 game of ``token``'s guest, which the
    replay tests only read. Nobody watches it being played, so nobody waits: bots answer
    at once and claim windows close at once. (At the other server's 0.02 s bot delay
    and claim window a match took 13-18 s here, nearly all of it those waits; this one
    takes 3-4 s, once for both tests.)

    A replay opened by its player asks for the 牌譜分析, whatever the test looks at:
    one sampled world keeps it to a moment of CPU (32, the default, is about a minute
    on a busy machine, in a process that outlives the page that asked)."""
    with game_server(tmp_path_factory.mktemp("replay"), bot_delay=0.0, claim_window=0.0,
                     pause_after=3600, hand_pause=0.2,
                     turn_base=0.2, turn_bank=0.0, analysis_worlds=1) as url:
        token = _guest_token(url)
        yield url, token, _finished_game(url, token)


def _hand_size(obs: dict) -> int:
    return len(parse_tiles(obs["hand"])) + (1 if obs.get("drawn") else 0)


def test_replay_of_a_real_finished_game_steps_forward_and_back(make_page, replay_game):
    server_url, token, gid = replay_game
    frames = httpx.get(f"{server_url}/api/v1/games/{gid}/replay?hand=1&seat=0",
                       timeout=30).json()["frames"]
    n = len(frames)
    p = make_page(server_url, "desktop")
    page = _signed_in(p, server_url, token)
    page.goto(f"{server_url}/#/replay/{gid}")
    page.wait_for_selector(".replay-step")
    expect(page.locator(".replay-step")).to_have_text(f"第 1 / {n} 步")
    assert page.locator(".hand .hand-tile").count() == _hand_size(frames[0]["observation"])
    assert page.locator(".replay-hands .chip-btn").count() >= 4     # one 圈: four hands or more
    page.click(".replay-next")
    expect(page.locator(".replay-step")).to_have_text(f"第 2 / {n} 步")
    assert page.locator(".hand .hand-tile").count() == _hand_size(frames[1]["observation"])
    # the river of every seat as the frame has it
    page.click(".replay-next")
    obs = frames[2]["observation"]
    for s in range(4):
        assert page.locator(f'.river[data-seat="{s}"] .tile').count() == len(obs["discards"][s])
    page.click(".replay-prev")
    expect(page.locator(".replay-step")).to_have_text(f"第 2 / {n} 步")
    page.click(".replay-last")
    expect(page.locator(".replay-step")).to_have_text(f"第 {n} / {n} 步")
    page.wait_for_selector(".result-panel")
    # the end of the hand: every hand turned up, as the server revealed them
    result = frames[-1]["result"]
    rows = page.locator(".all-hands .hand-row")
    assert rows.count() == 4
    for s in range(4):
        h = result["hands"][s]
        want = len(parse_tiles(h["concealed"])) + sum(len(parse_tiles(m["tiles"])) for m in h["melds"]) \
            + len(h["flowers"]) + (1 if any(w["seat"] == s and w.get("tile") for w in result.get("wins", [])) else 0)
        assert rows.nth(s).locator(".revealed .tile").count() == want
    p.shot("replay-live-end")
    page.click(".replay-prev")
    expect(page.locator(".replay-step")).to_have_text(f"第 {n - 1} / {n} 步")
    assert page.locator(".result-wrap").is_hidden()
    page.click(".replay-first")
    expect(page.locator(".replay-step")).to_have_text(f"第 1 / {n} 步")


def test_a_replay_keeps_its_step_when_the_lobby_data_arrives_late(make_page, replay_game):
    """On a busy machine the lobby's data (account, games) came back after the reader
    had stepped on, and drawing the page again put the replay back at step 1."""
    server_url, token, gid = replay_game
    me = httpx.get(server_url + "/api/v1/me", headers={"Authorization": f"Bearer {token}"},
                   timeout=30).json()
    record = httpx.get(f"{server_url}/api/v1/games/{gid}", timeout=30).json()
    mine = record["players"].index(me["name"])
    p = make_page(server_url, "desktop")
    page = _signed_in(p, server_url, token)
    held, asked = [], []
    page.route("**/api/v1/games", lambda route: held.append(route))      # the lobby's list, late
    page.on("request", lambda r: asked.append(r.url) if "/replay?" in r.url else None)
    page.goto(f"{server_url}/#/replay/{gid}")
    page.wait_for_selector(".replay-step")
    page.click(".replay-next")
    page.click(".replay-next")
    expect(page.locator(".replay-step")).to_have_text(re.compile(r"第 3 / \d+ 步"))
    assert held, "the lobby asked for its games"
    with page.expect_response("**/api/v1/games"):
        for route in held:
            route.continue_()
    page.wait_for_load_state("networkidle")
    expect(page.locator(".replay-step")).to_have_text(re.compile(r"第 3 / \d+ 步"))
    assert len(asked) == 1 and f"seat={mine}" in asked[0]      # drawn once, from my own seat


def test_a_replay_opened_from_the_lobby_opens_at_its_top(make_page, replay_game):
    """The 重播 link is far down the lobby's page, and the replay kept that scroll: on a
    phone it opened 20 px down, its title under the app bar (further with more games)."""
    server_url, token, gid = replay_game
    p = make_page(server_url, "phone")
    page = _signed_in(p, server_url, token)
    page.goto(f"{server_url}/")
    link = page.locator(f'.games-panel a[href="#/replay/{gid}"]')
    link.scroll_into_view_if_needed()
    assert page.evaluate("scrollY") > 0
    link.click()
    page.wait_for_selector(".replay-step")
    assert page.evaluate("scrollY") == 0
    bar = page.locator(".app-bar").bounding_box()
    title = page.locator(".replay-head h2").bounding_box()
    assert title["y"] >= bar["y"] + bar["height"]


def test_every_seats_clock_is_on_its_badge(web):
    page = web.open("dev/table.html?state=waiting&clean&clocks&frozen")
    # 下家 (seat 1) is thinking: its base and bank count down, and its badge is lit
    t1 = page.locator('.badge-timer[data-seat="1"]')
    assert t1.inner_text() == "3 秒 ＋12"
    assert "ticking" in t1.get_attribute("class")
    assert "active" in page.locator('.badge[data-seat="1"]').get_attribute("class")
    # an idle player shows the spare bank; a bot has no clock; nobody else is lit
    assert page.inner_text('.badge-timer[data-seat="3"]') == "備用 20 秒"
    assert page.inner_text('.badge-timer[data-seat="2"]') == ""
    assert page.locator(".badge.active").count() == 1
    web.shot("clocks")


def test_the_last_hands_result_stays_until_read_then_the_match_summary(make_page, server_url):
    """A seat that does not answer goes on auto-play (托管) and the 1-圈 match plays
    itself; the last hand's result is not swept away by the match's end."""
    p = make_page(server_url, "desktop")
    token = _guest_token(server_url)
    page = _signed_in(p, server_url, token)
    page.goto(server_url + "/")
    page.wait_for_selector("#opt-bots optgroup", state="attached")
    page.select_option("#opt-bots", "L1")
    page.click(".bots-btn")
    page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
    auth = {"Authorization": f"Bearer {token}"}
    gid = httpx.get(server_url + "/api/v1/games", headers=auth, timeout=10).json()["games"][0]["game_id"]
    scores = wait_for_game_over(server_url, gid).json()["result"]["scores"]
    # the last hand's panel: its running totals are the match's final scores
    page.wait_for_function(
        """(want) => { const cells = [...document.querySelectorAll('.result-panel .score-table .running')];
                       return cells.length === 4 && cells.every((c, i) => c.textContent === String(want[i])); }""",
        arg=scores, timeout=EVENT_WAIT_MS)
    assert page.locator(".summary-panel").count() == 0
    assert page.locator(".all-hands .hand-row").count() == 4
    p.shot("last-hand")
    page.click(".next-hand")
    page.wait_for_selector(".summary-panel")
    assert page.locator(".summary-table tr").count() == 4
    for i in range(4):                      # "#1" and the name apart, not "#1Right"
        row = page.locator(".summary-table tr").nth(i)
        rank, name = row.locator("td.rank").bounding_box(), row.locator("th").bounding_box()
        gap = page.evaluate("""th => th.getBoundingClientRect().left
            + parseFloat(getComputedStyle(th).paddingLeft)""", row.locator("th").element_handle())
        rank_text_end = page.evaluate("""td => { const r = document.createRange();
            r.selectNodeContents(td); return r.getBoundingClientRect().right; }""",
                                      row.locator("td.rank").element_handle())
        assert gap - rank_text_end >= 8, (i, rank, name)
    p.shot("summary")


def test_the_last_tile_is_offered_as_a_button_and_never_auto_passed(web):
    """海底牌得棄摸 (rules/001 item 25): the seat due to draw the last tile may take it
    or decline it; the view offers both and 自動過 does not decide for the player."""
    page = web.open("dev/table.html?state=waiting&clean")
    page.click('.pref-btn[data-pref="autoPass"]')
    page.evaluate("""() => window.__view.setObservation({...window.__fixtures.states.waiting,
        phase: "last_tile", legal: [{type: "draw"}, {type: "pass"}]})""")
    calls = page.locator(".calls .call")
    assert [calls.nth(i).get_attribute("data-call") for i in range(calls.count())] == ["draw", "pass"]
    assert page.inner_text(".calls .call-draw") == "摸海底"
    assert page.inner_text(".prompt") == "可以鳴牌：摸海底"
    assert web.sent() == []
    page.click(".calls .call-draw")
    assert web.sent() == [{"type": "draw"}]

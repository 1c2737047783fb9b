"""The guided first hand (``learn.js``) teaches 16-tile mahjong, so every step must
be a position of the real game: the seat whose turn it is holds 17 tiles (16 and
the one drawn), a seat facing a discard holds 16, counting each exposed meld as
three (rules/000, 配牌: 每人16張, 莊家多抓一張得17張). Each step's hand follows
from the move the step before taught, the declared hand is ready and the winning
hand is complete by the engine. The first version of the hand showed 15 tiles and
the drawn East, and the next step's hand had gained a tile from nowhere."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from twmahjong.engine.winning import is_complete, is_ready
from twmahjong.tiles import counts34, parse_tiles


def _steps(player, static_url):
    page = player(static_url, "desktop", "en").open("index.html")
    return page.evaluate("async () => (await import('./js/learn.js')).STEPS")


def _held(obs) -> list[int]:
    return parse_tiles(obs["hand"]) + (parse_tiles(obs["drawn"]) if obs["drawn"] else [])


def test_every_step_holds_the_tiles_of_a_16_tile_hand(player, static_url):
    steps = _steps(player, static_url)
    assert [s["key"] for s in steps] == ["draw", "pon", "after_pon", "declare", "win"]
    for s in steps:
        obs = s["obs"]
        shown = len(_held(obs)) + 3 * len(obs["melds"][obs["seat"]])
        want = 17 if obs["phase"] == "turn" else 16
        assert shown == want, (s["key"], obs["hand"], obs["drawn"], shown)


def test_each_step_follows_from_the_move_taught_before_and_ends_in_a_win(player, static_url):
    steps = _steps(player, static_url)
    for before, after in zip(steps, steps[1:]):
        held = sorted(_held(before["obs"]))
        move = next(a for a in before["obs"]["legal"] if a["type"] == before["want"])
        tile = parse_tiles(move["tile"])[0]
        if move["type"] in ("discard", "declare"):
            held.remove(tile)
        elif move["type"] == "pon":
            held.remove(tile)
            held.remove(tile)
        else:
            pytest.fail(f"no rule for a step teaching {move['type']}")
        now = sorted(parse_tiles(after["obs"]["hand"]))
        assert now == held, (after["key"], after["obs"]["hand"])
    declared = steps[3]["obs"]
    rest = sorted(_held(declared))
    rest.remove(parse_tiles(declared["legal"][0]["tile"])[0])
    assert is_ready(counts34(rest))
    win = steps[4]["obs"]
    assert is_complete(counts34(parse_tiles(win["hand"]) + parse_tiles(win["legal"][0]["tile"])))


def test_the_coach_s_answers_shipped_with_the_first_hand_are_the_library_s(player, static_url,
                                                                            tmp_path):
    """The tutorial has no server table to ask, so the coach's answers for its steps
    ship with the page (learn_hints.js): they must be what twmahjong.coach says for the
    steps as learn.js has them, and the coach must teach the move the step teaches."""
    import json

    from twmahjong.web.dev.learn_hints import hints
    page = player(static_url, "desktop", "en").open("index.html")
    steps = page.evaluate("async () => (await import('./js/learn.js')).STEPS")
    shipped = page.evaluate("async () => (await import('./js/learn_hints.js')).LEARN_HINTS")
    want = hints(steps)
    if shipped != want:
        path = tmp_path / "steps.json"
        path.write_text(json.dumps(steps, ensure_ascii=False), encoding="utf-8")
        pytest.fail(f"learn_hints.js is stale: .venv/bin/python src/twmahjong/web/dev/"
                    f"learn_hints.py {path} > src/twmahjong/web/js/learn_hints.js")
    assert sorted(want) == ["declare", "pon", "win"]       # every step with a choice
    for s in steps:
        if s["key"] in want:
            assert want[s["key"]]["choice"]["type"] == s["want"], s["key"]


def _fits(page, size):
    """The lesson's hand is on the screen, and (but on an upright phone, whose switches
    under the hand may scroll in) the page is no higher than the screen."""
    view = page.viewport_size
    for box in [t.bounding_box() for t in page.locator(".hand .hand-tile").all()]:
        assert box["y"] >= 0 and box["y"] + box["height"] <= view["height"] + 0.5, "a hand tile off the screen"
    if size != "phone":
        assert page.evaluate("document.scrollingElement.scrollHeight") <= view["height"]


def _uncovered(page, selector):
    """Nothing stands over the middle of the element the step asks the player to press."""
    return page.evaluate("""(sel) => { const e = document.querySelector(sel);
        const r = e.getBoundingClientRect();
        return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }""", selector)


@pytest.mark.parametrize("size,lang", [("phone", "zh-TW"), ("tablet", "en"), ("desktop", "zh-TW")])
def test_the_tutorial_s_coach_speaks_in_the_step_s_box_and_marks_the_move(player, static_url,
                                                                         size, lang):
    """教練 in the first hand: at the 碰 step 問教練 rings 碰 and says why. Its words stand
    in the step's own box, so the lesson still fits the screen (a panel of its own made
    an upright tablet's page 1,069 px high), and nothing covers the move asked. 設定 →
    教練 is the table's: always answers at each choice at once, off shows nothing."""
    p = player(static_url, size, lang)
    page = p.open("index.html#/learn")
    zh = lang == "zh-TW"
    page.wait_for_selector('.learn-guide[data-step="draw"]')
    expect(page.locator(".learn-coach")).to_be_hidden()          # a single move: nothing to advise
    page.locator(".hand-tile").last.click()
    page.locator(".hand-tile.lifted").click()
    page.wait_for_selector('.learn-guide[data-step="pon"]')
    page.click(".learn-guide .coach-ask")
    say = page.locator('.learn-guide .coach[data-state="shown"] .coach-say')
    expect(say).to_contain_text("碰了從一向聽變聽牌" if zh else "Pung: 1 from ready becomes ready")
    expect(page.locator(".calls .call-pon.coach-pick")).to_have_count(1)
    assert _uncovered(page, ".calls .call-pon")
    _fits(page, size)
    p.shot("learn-coach-pon")
    # 設定 → 教練 always: the next choice is answered as it comes, its tile and call ringed
    page.click(".app-settings")
    page.click('[data-set="coach"] input[value="always"]')
    page.click(".settings-close")
    page.click(".calls .call-pon")
    page.wait_for_selector('.learn-guide[data-step="after_pon"]')
    expect(page.locator(".learn-coach")).to_be_hidden()
    page.locator('.hand-tile[data-tile="3s"]').click()
    page.locator(".hand-tile.lifted").click()
    page.wait_for_selector('.learn-guide[data-step="declare"]')
    expect(say).to_contain_text("報聽，打南" if zh else "Declare ready throwing South")
    expect(page.locator(".calls .call-declare.coach-pick")).to_have_count(1)
    expect(page.locator('.hand-tile.coach-pick[data-tile="2z"]')).to_have_count(1)
    assert _uncovered(page, ".calls .call-declare")
    assert _uncovered(page, '.hand-tile[data-tile="2z"]')
    _fits(page, size)
    p.shot("learn-coach-declare")
    # off: no words and no marks
    page.evaluate("async () => (await import('./js/prefs.js')).setChoice('coach', 'off')")
    expect(page.locator(".learn-coach")).to_be_hidden()
    expect(page.locator(".coach-pick")).to_have_count(0)

"""waits.js, the browser's 聽牌提示, gives the Python library's answers (twmahjong.hints,
twmahjong.hand.waits) on every observation of self-played hands and on random hands."""

from __future__ import annotations

import random

import pytest

from twmahjong.engine.record import replay
from twmahjong.hand import waits
from twmahjong.hints import discard_hints, ready_waits
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots, play_match
from twmahjong.tiles import tile_str

from .conftest import evaluate_async

IMPORT = "async (args) => { const w = await import('/js/waits.js'); return (%s)(w, args); }"


def _observations(seed: int, hands: int) -> list[dict]:
    """Every seat's observation at every decision of ``hands`` self-played hands."""
    m = play_match(load_profile("standard"), seed=seed, rounds=1, max_hands=hands,
                   bots=make_bots(["L3", "L2", "L3", "L1"], seed))
    seen: list[dict] = []
    replay(m.record(), watch=lambda h, _: seen.extend(h.observation(s) for s in range(4)))
    return seen


def _python(obs: dict) -> dict:
    return {"discard": {t: [w.to_json() for w in ws] for t, ws in discard_hints(obs).items()},
            "ready": [w.to_json() for w in ready_waits(obs)]}


@pytest.fixture
def page(web):
    return web.open("dev/table.html?state=turn&clean")


def test_the_browser_s_hints_equal_the_library_s_on_self_played_hands(page):
    observations = _observations(seed=21, hands=6)
    # 過水 as each profile lifts it: the hints mark the waits it blocks
    passed = [{"until": "until_non_winning_discard", "tiles": None},
              {"until": "until_own_discard", "tiles": None},
              {"until": "until_own_draw", "tiles": "2m5p7s1z"}]
    observations += [{**o, "passed_win": pw} for o in observations[::5] for pw in passed]
    want = [_python(o) for o in observations]
    blocked = [w.get("blocked", False) for x in want for ws in (*x["discard"].values(), x["ready"])
               for w in ws]
    assert 0 < sum(blocked) < len(blocked)
    assert sum(bool(w["discard"]) for w in want) > 20      # ready discards were offered
    assert sum(bool(w["ready"]) for w in want) > 20        # and ready hands waited
    assert any(m.get("claimed") for o in observations for ms in o["melds"] for m in ms)
    got = evaluate_async(page, IMPORT % """(w, obs) => obs.map((o) => ({
        discard: w.discardHints(o), ready: w.readyWaits(o)}))""", observations)
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert bad == [], bad[:3]


def _complete(rng: random.Random, sets: int) -> list[int] | None:
    """``sets`` random pungs and chows and a pair, no kind more than four times."""
    c = [0] * 34
    for _ in range(sets):
        k = rng.randrange(34)
        if k < 27 and k % 9 < 7 and rng.random() < 0.6:
            for x in (k, k + 1, k + 2):
                c[x] += 1
        else:
            c[k] += 3
    c[rng.randrange(34)] += 2
    return None if max(c) > 4 else [k for k in range(34) for _ in range(c[k])]


def test_the_browser_s_waits_equal_the_library_s_on_random_hands(page):
    rng = random.Random(5)
    hands = []
    while len(hands) < 3000:
        sets = rng.choice((1, 2, 3, 4, 5))
        full = _complete(rng, sets)
        if full is None:
            continue
        full.pop(rng.randrange(len(full)))          # a ready hand of 3k+1 tiles
        if rng.random() < 0.4:                      # or one tile from it
            full[rng.randrange(len(full))] = rng.randrange(34)
            if max(full.count(k) for k in full) > 4:
                continue
        hands.append(sorted(full))
    for _ in range(200):                            # 嚦咕嚦咕 shapes: 7 pairs and a pung, less one
        ks = rng.sample(range(34), 8)
        full = [k for k in ks for _ in range(2)] + [ks[0]]
        full.pop(rng.randrange(len(full)))
        hands.append(sorted(full))
    want = []
    for h in hands:
        c = [h.count(k) for k in range(34)]
        want.append([waits(c), waits(c, lilgu=True)])
    assert sum(bool(w[0]) for w in want) > 1500
    assert sum(w[0] != w[1] for w in want) > 100            # 嚦咕嚦咕 waits were asked
    got = evaluate_async(page, IMPORT % """(w, hands) => hands.map((h) => {
        const c = new Array(34).fill(0);
        for (const k of h) c[k] += 1;
        return [w.waitsOf(c), w.waitsOf(c, {lilgu: true})];
    })""", hands)
    bad = [([tile_str(k) for k in h], g, w) for h, g, w in zip(hands, got, want) if g != w]
    assert bad == [], bad[:3]


SET = "(obs) => window.__view.setObservation(obs)"


@pytest.mark.parametrize("lang", ["zh-TW", "en"])
def test_passed_win_is_said_under_the_prompt_and_marks_the_waits_it_blocks(web, fixtures, lang):
    """A player let a win go and then drew the tile: no win was offered and nothing said
    why. The prompt now says 過水 in the profile's words for as long as it holds, and
    the waits it blocks are marked in the 聽牌提示; once lifted, both go."""
    if lang == "en":
        web.context.add_init_script("localStorage.setItem('twmj.lang', 'en')")
    page = web.open("dev/table.html?state=waiting&clean")
    waiting = fixtures["states"]["waiting"]
    prompt = page.locator(".table-view .prompt")
    assert prompt.locator(".hint-wait").count() > 0        # a ready hand's waits, none blocked
    assert prompt.locator(".hint-wait.blocked").count() == 0
    page.evaluate(SET, {**waiting, "passed_win": {"until": "until_non_winning_discard",
                                                  "tiles": None}})
    note = {"zh-TW": "過水：放過了胡，要等你打出一張不是胡牌的牌，才能再胡",
            "en": "Passed win (過水): no win until you discard a tile that is not one"}[lang]
    assert note in prompt.locator(".passed-note").inner_text()
    blocked = prompt.locator(".hint-wait.blocked")
    assert blocked.count() > 0
    assert ("過水" if lang == "zh-TW" else "not now") in blocked.first.inner_text()
    page.evaluate(SET, waiting)                             # lifted: said no more
    assert prompt.locator(".passed-note").count() == 0
    assert prompt.locator(".hint-wait.blocked").count() == 0

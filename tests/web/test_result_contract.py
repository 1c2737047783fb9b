"""The end-of-hand panel from a result the engine really produced (not a fixture)."""

from __future__ import annotations

import pytest

from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots, play_hand

from .conftest import evaluate_async


@pytest.fixture(scope="module")
def won_hand():
    """The first seed whose hand ends in a win, with the server's hand_end shape."""
    profile = load_profile("standard")
    for seed in range(1, 400):
        h = HandState(profile, dealer=0, seed=seed)
        res = play_hand(h, make_bots(["random"] * 4, seed))
        if res.get("winners"):
            events = [e for e in h.events if e["type"] in ("win", "settlement")]
            wins = [e for e in events if e["type"] == "win"]
            # server/play/engine_game.py: the result keeps the win events, drops tai/patterns.
            result = {k: v for k, v in res.items() if k not in ("tai", "patterns")} | {"wins": wins}
            return result, events
    pytest.fail("no won hand in 400 seeded self-play hands")


def test_real_result_shows_the_scorers_patterns_and_the_payments(web, won_hand):
    result, events = won_hand
    page = web.open("dev/table.html?state=waiting&clean")
    evaluate_async(
        page,
        """async ([result, events]) => {
            const { handResult } = await import('/js/game.js');
            window.__view.showResult(handResult(result, events), {});
        }""",
        [result, events],
    )
    win = result["wins"][0]
    score = win["score"]
    rows = page.locator(".win-block .patterns tr.pattern")
    assert [rows.nth(i).get_attribute("data-pattern") for i in range(rows.count())] == [
        p["id"] for p in score["patterns"]
    ]
    assert page.inner_text(".win-block .total-tai") == f"{score['tai']} 台"
    # The winner's hand is drawn: concealed tiles, the winning tile marked, melds, flowers.
    row = page.locator(f'.hand-row[data-seat="{win["seat"]}"]')
    assert row.locator(".win-tile").get_attribute("data-tile") == win["tile"]
    assert row.locator(".meld").count() == len(win["hand"]["melds"])
    # Every payment of the settlement event, and nets that sum to minus the fee.
    settlement = next(e for e in events if e["type"] == "settlement")
    paid = [t for t in settlement["transfers"] if t["payee"] is not None]
    assert page.locator(".transfer").count() == len(paid)
    nets = [int(page.inner_text(f'.score-table tr[data-seat="{s}"] .net')) for s in range(4)]
    assert nets == result["net"] and sum(nets) == -result["fee"]
    web.shot("real-result")

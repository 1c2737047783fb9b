"""The guided first hand (``learn.js``) teaches 16-tile mahjong, so every step must
be a position of the real game: the seat whose turn it is holds 17 tiles (16 and
the one drawn), a seat facing a discard holds 16, counting each exposed meld as
three (rules/000, 配牌: 每人16張, 莊家多抓一張得17張). Each step's hand follows
from the move the step before taught, the declared hand is ready and the winning
hand is complete by the engine. The first version of the hand showed 15 tiles and
the drawn East, and the next step's hand had gained a tile from nowhere."""

from __future__ import annotations

import pytest

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

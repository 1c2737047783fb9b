"""The table screen driven by keys and clicks: what the engine receives."""

from __future__ import annotations

import pytest

from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tiles, tile_str
from twmahjong.tui.glyphs import CELL, GAP
from twmahjong.tui.session import PlaySession

from .helpers import ScriptBot, app_for, content, session, stacked_wall

pytestmark = pytest.mark.asyncio

SIZE = (100, 32)


def my_discards(s) -> list[str]:
    return [e["tile"] for e in s.match.events if e["type"] == "discard" and e["seat"] == s.seat]


async def wait_turn(pilot, app):
    """Pass claims (x) until the person must discard."""
    for _ in range(100):
        await pilot.pause()
        legal = app.session.legal()
        if any(a.type == "discard" for a in legal):
            return
        await pilot.press("x")
    raise AssertionError("the person never got a turn")


async def test_enter_discards_the_drawn_tile():
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await wait_turn(pilot, app)
        drawn = s.observation()["drawn"]
        assert drawn is not None            # a turn begun by a draw shows the drawn tile apart
        before = len(my_discards(s))
        await pilot.press("enter")
        await pilot.pause()
        assert my_discards(s)[before:] == [drawn]


async def test_left_arrow_then_space_discards_the_tile_before_the_drawn_one():
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await wait_turn(pilot, app)
        hand = s.observation()["hand"]          # sorted, without the drawn tile
        await pilot.press("left", "h", "l")     # h and l move too: back, back, forward = one left
        await pilot.press("space")
        await pilot.pause()
        assert my_discards(s)[-1] == tile_str(parse_tiles(hand)[-1])


async def test_clicking_a_tile_picks_it_and_clicking_again_discards_it():
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await wait_turn(pilot, app)
        first = parse_tiles(s.observation()["hand"])[0]
        n = len(my_discards(s))
        # the hand box has a border and one column of padding; tile 0 starts there
        await pilot.click("#hand", offset=(2 + 1, 2))
        await pilot.pause()
        assert app.table.sel == 0 and len(my_discards(s)) == n      # the first click only picks
        await pilot.click("#hand", offset=(2 + 1, 2))
        await pilot.pause()
        assert parse_tiles(my_discards(s)[-1]) == [first]
        assert CELL + GAP == 5                                       # the layout the offsets assume


# seed 1 seats the person at seat 0 and makes seat 1 the first dealer (搬風, 定莊).
# The dealer's 門牌 is 白 (5z) and the scripted dealer throws what it drew; the person
# holds the only other 白s, as a pair, so 碰 is offered (rules/001: 碰牌 on any
# seat's discard) and 吃 is not (a 吃 takes only from 上家, and never an honor).
PERSON = "55z147m147p147s12346z"
DEALER_HAND = "258m369p1478s123466z5z"
OTHER_A = "258m258p258s12347z99m"
OTHER_B = "369m369p369s12347z99p"


def claim_session() -> PlaySession:
    probe = session(seed=1, bots=("random",) * 3)
    me, dealer = probe.seat, probe.match.dealer
    assert (me, dealer) == (0, 1)
    hands = {me: PERSON, dealer: DEALER_HAND, 2: OTHER_A, 3: OTHER_B}
    wall = stacked_wall(hands, dealer)
    return PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=1, rounds=1,
                       bots=[ScriptBot(), ScriptBot(), ScriptBot()],
                       walls=lambda n: wall if n == 0 else None)


async def test_a_pon_offer_shows_a_prompt_and_x_passes_it():
    s = claim_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert {a.type for a in s.legal()} == {"pon", "pass"}
        status = content(app, "#status")
        assert "打出 白" in status and "碰" in status and "過" in status and "吃" not in status
        await pilot.press("x")
        await pilot.pause()
        types = [e["type"] for e in s.hand_events()]
        assert "pon" not in types
        assert parse_tiles(s.observation()["hand"]).count(31) == 2     # the pair stays in hand
        assert types[-1] in ("draw", "discard")                          # play went on


async def test_p_takes_the_pon():
    s = claim_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        pons = [e for e in s.hand_events() if e["type"] == "pon"]
        assert pons == [{"type": "pon", "seat": 0, "from": 1, "tile": "5z"}]
        obs = s.observation()
        assert obs["melds"][0] == [{"type": "pon", "tiles": "555z", "from": 1, "claimed": "5z"}]
        assert obs["drawn"] is None and any(a.type == "discard" for a in s.legal())


async def test_english_screen():
    s = session(seed=8)
    app = app_for(s, "en")
    async with app.run_test(size=SIZE) as pilot:
        await wait_turn(pilot, app)
        assert "Your turn" in content(app, "#status")
        header = content(app, "#header")
        assert "Tiles left" in header and "East round" in header
        assert "萬" not in content(app, "#hand") and "輪到你" not in content(app, "#status")


# seed 3 seats the person at seat 0 right after the first dealer, seat 3 (下家 of the
# dealer), the only seat that may 吃 its discard (rules/001 吃牌: 只能吃上家). Holding
# 三四六七萬, the dealer's 五萬 can be taken three ways: 345, 456, 567.
CHI_PERSON = "3467m147p1479s12346z"
CHI_DEALER = "258m36988p258s12346z5m"


def chi_session() -> PlaySession:
    probe = session(seed=3, bots=("random",) * 3)
    assert (probe.seat, probe.match.dealer) == (0, 3)
    wall = stacked_wall({0: CHI_PERSON, 3: CHI_DEALER, 1: OTHER_A, 2: OTHER_B}, 3)
    return PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=3, rounds=1,
                       bots=[ScriptBot(), ScriptBot(), ScriptBot()],
                       walls=lambda n: wall if n == 0 else None)


async def test_chi_with_three_runs_asks_which_and_a_digit_takes_it():
    s = chi_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert sorted(a.type for a in s.legal()) == ["chi", "chi", "chi", "pass"]
        await pilot.press("c")
        await pilot.pause()
        status = content(app, "#status")
        assert "選擇 吃" in status
        for run in ("三萬 四萬 五萬", "四萬 五萬 六萬", "五萬 六萬 七萬"):
            assert run in status
        assert not [e for e in s.hand_events() if e["type"] == "chi"]      # nothing taken yet
        # the digit in front of 四五六萬 takes that run
        before = status[:status.index("四萬 五萬 六萬")]
        digit = next(ch for ch in reversed(before) if ch.isdigit())
        await pilot.press(digit)
        await pilot.pause()
        chis = [e for e in s.hand_events() if e["type"] == "chi"]
        assert chis == [{"type": "chi", "seat": 0, "from": 3, "tile": "5m", "tiles": "456m"}]


async def test_escape_closes_the_chi_menu_and_a_second_escape_passes():
    s = chi_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("c", "escape")
        await pilot.pause()
        assert "選擇" not in content(app, "#status") and s.legal()       # still asked
        await pilot.press("escape")
        await pilot.pause()
        assert not [e for e in s.hand_events() if e["type"] == "chi"]
        assert s.observation()["hand"].startswith("3467m")


async def test_clicking_the_pon_hint_takes_the_pon():
    from rich.cells import cell_len
    from textual.content import Content

    s = claim_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        plain = Content.from_markup(content(app, "#status")).plain
        x = cell_len(plain[:plain.index(" p ")]) + 1 + 1      # padding, then inside the key box
        await pilot.click("#status", offset=(x, 0))
        await pilot.pause()
        assert [e["type"] for e in s.hand_events() if e["type"] == "pon"] == ["pon"]


# seed 7 makes the person (seat 0) the first dealer. Their 17 tiles are five sets, a
# lone 東 and the 門牌 九條: throwing 九條 leaves a ready hand, so the first discard
# may be 地聽 (rules/001: the dealer's first discard counts). t declares it.
READY_DEALER = "123m456m789m123p456p1z9s"


async def test_t_declares_ready_with_the_picked_discard():
    probe = session(seed=7, bots=("random",) * 3)
    assert (probe.seat, probe.match.dealer) == (0, 0)
    wall = stacked_wall({0: READY_DEALER, 1: OTHER_A, 2: OTHER_B, 3: "258m369p258s12346z88p"}, 0)
    s = PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=7, rounds=1,
                    bots=[ScriptBot(), ScriptBot(), ScriptBot()],
                    walls=lambda n: wall if n == 0 else None)
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert s.observation()["drawn"] == "9s"
        assert "聽" in content(app, "#status")
        await pilot.press("t")
        await pilot.pause()
        ev = [e for e in s.hand_events() if e["type"] in ("declare", "discard") and e["seat"] == 0]
        assert ev[0] == {"type": "declare", "seat": 0, "kind": "earthly_ready", "tile": "9s"}
        assert ev[1] == {"type": "discard", "seat": 0, "tile": "9s"}
        assert s.observation()["declared"][0] is True


async def test_the_talk_key_offline_says_talk_is_for_server_tables():
    app = app_for(session(), "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("e")
        assert "Table talk is for server tables" in content(app, "#hint")
        assert app.screen is app.table

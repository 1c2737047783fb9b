"""聽牌提示 and the 禁制 after a claim: the library piece and the screen."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from twmahjong.hints import Wait, discard_hints, live_counts, ready_waits
from twmahjong.profiles import load_profile
from twmahjong.tui.session import PlaySession

from .helpers import ScriptBot, app_for, content, session, stacked_wall
from .test_table import CHI_DEALER, OTHER_A, OTHER_B, READY_DEALER

SMALL = (80, 24)


def _obs(**kw):
    base = {"seat": 0, "hand": "", "drawn": None, "melds": [[], [], [], []],
            "discards": [[], [], [], []]}
    base.update(kw)
    return base


# -- the library piece -------------------------------------------------------------------------

def test_each_ready_discard_lists_its_waits_with_live_counts():
    obs = _obs(hand="123m456m789m123p456p1z", drawn="9s", discards=[[], ["1z"], [], []])
    hints = discard_hints(obs)
    assert set(hints) == {"9s", "1z"}                        # throw 九條 (wait 東) or 東 (wait 九條)
    assert hints["9s"] == [Wait("1z", 2)]                    # 4 − mine − one in a river
    assert hints["1z"] == [Wait("9s", 3)]


def test_a_claimed_discard_is_counted_once():
    # seat 1 threw 5m, seat 2 pung it: the 5m lies in seat 1's river and in seat 2's meld
    obs = _obs(hand="1m", discards=[[], ["5m"], [], []],
               melds=[[], [], [{"type": "pon", "tiles": "555m", "from": 1}], []])
    events = [{"type": "discard", "seat": 1, "tile": "5m"},
              {"type": "pon", "seat": 2, "from": 1, "tile": "5m"}]
    assert live_counts(obs)[4] == 1 and live_counts(obs, events)[4] == 1
    chi = _obs(discards=[[], ["4p"], [], []],
               melds=[[], [], [{"type": "chi", "tiles": "345p", "from": 1}], []])
    live = live_counts(chi)
    assert (live[9 + 2], live[9 + 3], live[9 + 4]) == (3, 3, 3)


def test_a_chow_s_claimed_tile_is_read_from_the_meld_not_guessed():
    """Seat 1 threw 3m early, then 5m, which seat 2 took for 345m. Read from the river,
    the guess took the lowest of the run there (3m): 3m counted once, 5m twice. The
    observation names the claimed tile; the hint reads it."""
    obs = _obs(discards=[[], ["3m", "5m"], [], []],
               melds=[[], [], [{"type": "chi", "tiles": "345m", "from": 1, "claimed": "5m"}],
                      []])
    live = live_counts(obs)
    assert (live[2], live[3], live[4]) == (2, 3, 3)        # 3m seen twice, 4m and 5m once
    del obs["melds"][2][0]["claimed"]                        # an older record: the guess
    assert (live_counts(obs)[2], live_counts(obs)[4]) == (3, 2)


def test_no_hint_when_no_discard_leaves_the_hand_ready_and_waits_between_turns():
    assert discard_hints(_obs(hand="147m258p369s1234z5z", drawn="6z")) == {}
    assert ready_waits(_obs(hand="123m456m789m123p456p1z")) == [Wait("1z", 3)]
    assert ready_waits(_obs(hand="123m456m789m123p456p1z", drawn="2z")) == []
    assert discard_hints(_obs(hand="123m456m789m123p456p1z", drawn="9s"), allowed=["1z"]) == {
        "1z": [Wait("9s", 3)]}


def test_a_wait_with_no_copy_left_says_so_in_words():
    """A single wait on 東 whose other three copies lie in the rivers: ready, but 空聽 —
    the line says it, rather than leaving "東(剩0)" for the player to work out."""
    from twmahjong.tui.render import waits_text
    obs = _obs(hand="123m456m789m123p456p1z", discards=[[], ["1z"], ["1z"], ["1z"]])
    ws = ready_waits(obs)
    assert ws == [Wait("1z", 0)]
    assert waits_text("zh", ws) == "東(剩0)（空聽：一張都不剩）"
    assert waits_text("en", ws) == "Ea (0 left) (a dead wait: none left)"
    alive = ready_waits(_obs(hand="123m456m789m123p456p1z", discards=[[], ["1z"], [], []]))
    assert waits_text("zh", alive) == "東(剩2)"


# -- on the screen --------------------------------------------------------------------------------

def ready_session(bot=ScriptBot) -> PlaySession:
    """seed 7: the person deals; throwing the 門牌 九條 leaves 東 alone, ready (地聽 allowed)."""
    wall = stacked_wall({0: READY_DEALER, 1: OTHER_A, 2: OTHER_B, 3: "258m369p258s12346z88p"}, 0)
    return PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=7, rounds=1,
                       bots=[bot(), bot(), bot()],
                       walls=lambda n: wall if n == 0 else None)


@pytest.mark.asyncio
async def test_the_ready_discard_is_marked_and_its_waits_shown_with_live_counts():
    s = ready_session()
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert s.observation()["drawn"] == "9s"
        marks = content(app, "#hand").splitlines()[2]
        assert "▲*" in marks                                    # the picked 九條 leaves you ready
        assert "打 九條 聽：東(剩3)" in content(app, "#hint")
        assert "聽" not in content(app, "#hand").splitlines()[1]
        await pilot.press("left")                              # 東: also ready, waiting on 九條
        assert "打 東 聽：九條(剩3)" in content(app, "#hint")
        await pilot.press("left")                              # 六筒 leaves nothing ready
        assert content(app, "#hint").strip() == "聽牌提示：打出標 * 的牌就聽牌"


@pytest.mark.asyncio
async def test_after_declaring_the_waits_stay_on_the_hint_line_not_in_the_hand():
    s = ready_session()
    app = app_for(s, "en")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("t")                               # 地聽 with 九條
        await pilot.pause()
        assert s.observation()["declared"][0]
        assert "Waits: Ea (3 left)" in content(app, "#hint")
        assert "Waits" not in content(app, "#hand")


@pytest.mark.asyncio
async def test_the_hints_can_be_turned_off_in_the_settings():
    s = ready_session()
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("s")
        assert "聽牌提示：開" in content(app, "#body")
        await pilot.press("1")
        assert "聽牌提示：關" in content(app, "#body")
        await pilot.press("escape")
        await pilot.pause()
        assert app.prefs.hints is False
        assert "*" not in content(app, "#hand").splitlines()[2]
        assert "聽" not in content(app, "#hint")


# seed 3: the person sits after the dealer and holds 三四五六萬; the dealer's 五萬 may be
# chowed 3-4-(5) or 4-(5)-6. After 3-4-(5), rules/001 吃牌 forbids throwing the 五萬
# still in hand (the same tile) and 二萬 (the run's other end, 絡牌).
CHI_FORBID = "3456m147p1479s12346z"


def chi_forbid_session() -> PlaySession:
    probe = session(seed=3, bots=("random",) * 3)
    assert (probe.seat, probe.match.dealer) == (0, 3)
    wall = stacked_wall({0: CHI_FORBID, 3: CHI_DEALER, 1: OTHER_A, 2: OTHER_B}, 3)
    return PlaySession(load_profile("standard"), bot_names=["script"] * 3, seed=3, rounds=1,
                       bots=[ScriptBot(), ScriptBot(), ScriptBot()],
                       walls=lambda n: wall if n == 0 else None)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang, why, prompt", [
    ("zh", "吃牌後不能打吃進的牌或另一頭的同類牌", "輪到你打牌"),
    ("en", "After a chow you may not discard the claimed tile", "Your turn")])
async def test_after_a_chow_the_forbidden_tile_is_marked_and_the_refusal_says_why(lang, why, prompt):
    s = chi_forbid_session()
    app = app_for(s, lang)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("c")
        status = content(app, "#status")
        three = "三萬 四萬 五萬" if lang == "zh" else "3m 4m 5m"
        before = status[:status.index(three)]
        await pilot.press(next(ch for ch in reversed(before) if ch.isdigit()))
        await pilot.pause()
        assert s.observation()["melds"][0] == [{"type": "chi", "tiles": "345m", "from": 3, "claimed": "5m"}]
        hand = s.observation()["hand"]
        tiles = hand  # 3k+2 after the chow, no drawn tile
        from twmahjong.tiles import parse_tiles
        ks = parse_tiles(tiles)
        five = ks.index(4)
        marks = content(app, "#hand").splitlines()[2]
        assert marks.count("x") == 1                           # one tile marked: the 五萬
        while app.table.sel != five:
            await pilot.press("left")
        await pilot.press("enter")
        await pilot.pause()
        hint = content(app, "#hint")
        assert why in hint and ("5萬" in hint or "五萬" in hint or "5m" in hint)
        assert prompt in content(app, "#status")              # the prompt stays
        assert not [e for e in s.hand_events() if e["type"] == "discard" and e["seat"] == 0]


@pytest.mark.asyncio
async def test_a_key_that_is_not_legal_now_says_so():
    s = ready_session()
    app = app_for(s, "en")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("p")
        assert "You cannot pung now" in content(app, "#hint")
        assert "Your turn" in content(app, "#status")


class EastFirstBot(ScriptBot):
    """Throws a 東 while it holds one (passing every claim): the person's single wait
    on 東 goes dead one river tile at a time."""

    def act(self, obs):
        for a in obs["legal"]:
            if a["type"] == "discard" and a["tile"] == "1z":
                return a
        return super().act(obs)


@pytest.mark.asyncio
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("lang, dead", [("zh", "東(剩0)（空聽：一張都不剩）"),
                                        ("en", "Ea (0 left) (a dead wait: none left)")])
async def test_a_dead_wait_is_said_in_full_on_the_screen(size, lang, dead):
    """The three other 東 go to the rivers while the person waits on 東 alone: at the
    person's next turn the hint line says 空聽 in words, whole and on one line, on an
    80×24 and a 120×40 terminal."""
    s = ready_session(EastFirstBot)
    app = app_for(s, lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert s.observation()["drawn"] == "9s"
        await pilot.press("enter")                         # 九條 out: ready on 東 alone
        for _ in range(200):                               # until the person's next turn
            await pilot.pause()
            legal = s.legal()
            if any(a.type == "discard" for a in legal):
                break
            if legal:                                      # the first 東 is a win offered;
                await pilot.press("x")                     # passed, 過水 offers no other
        else:
            raise AssertionError("the person's turn never came back")
        rivers = s.observation()["discards"]
        assert sum(r.count("1z") for r in rivers) == 3     # every other 東 is in sight
        w = app.screen.query_one("#hint")               # as drawn, at the terminal's width
        drawn = [line.text for line in w.render_lines(Region(0, 0, *w.size))]
        assert any(dead in line for line in drawn), drawn

"""What the table shows of what just happened and why: 過水 said and marked, the
claimed tile named, the seat to move, the win before its settlement."""

from __future__ import annotations

import pytest
from rich.text import Text

from twmahjong.profiles import load_profile
from twmahjong.tui.session import PlaySession

from .helpers import ScriptBot, app_for, content, session, stacked_wall

pytestmark = pytest.mark.asyncio

SIZE = (80, 24)
# the person (seat 0) waits on 2p/5p; the dealer (seat 1) opens with 2p; the person
# lets that win go, then draws 5p
WAITING = "34p123m456m789m11s789s"
DEALER_2P = "258m369p148s123466z5z2p"
OTHER_A = "258m258p258s12347z99m"
OTHER_B = "369m369p369s12347z99p"


def passed_session(profile: str = "standard") -> PlaySession:
    probe = session(seed=1, bots=("random",) * 3)
    assert (probe.seat, probe.match.dealer) == (0, 1)
    wall = stacked_wall({0: WAITING, 1: DEALER_2P, 2: OTHER_A, 3: OTHER_B}, 1, draws="6z6z5p")
    return PlaySession(load_profile(profile), bot_names=["script"] * 3, seed=1, rounds=1,
                       bots=[ScriptBot(), ScriptBot(), ScriptBot()],
                       walls=lambda n: wall if n == 0 else None)


@pytest.mark.parametrize("lang,said,mark", [
    ("zh", "過水：放過了胡，要等你打出一張不是胡牌的牌，才能再胡", "·過水)"),
    ("en", "Passed win (過水): no win until you discard a tile that is not one of your "
           "winning tiles", "過水: not now)")])
async def test_letting_a_win_go_says_passed_win_and_the_hints_mark_it(lang, said, mark):
    s = passed_session()
    app = app_for(s, lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("x")                  # no 天聽
        await pilot.pause()
        assert {a.type for a in s.legal()} == {"win", "pass"}
        await pilot.press("x")                  # the win on 2p let go
        await pilot.pause()
        assert said in content(app, "#hint")    # said at once
        assert s.observation()["drawn"] == "5p"  # and the 5p drawn: no 自摸 offered
        assert not any(a.type == "win" for a in s.legal())
        hint = content(app, "#hint")
        assert said in hint.replace("\n", "")
        await pilot.press("w")                  # refused, and why
        await pilot.pause()
        refused = content(app, "#hint").replace("\n", "")
        assert ("現在不能胡 — " if lang == "zh" else "You cannot win now — ") + said in refused
        await pilot.press("left", "right")      # the drawn 5p picked: throwing it keeps 過水
        await pilot.pause()
        hint = content(app, "#hint").replace("\n", "")
        assert hint.count(mark) == 2, hint       # both waits (2p, 5p) marked
        await pilot.press("left")               # 9s is no winning tile: throwing it lifts 過水
        await pilot.pause()
        assert mark not in content(app, "#hint")


@pytest.mark.parametrize("lang,named", [("zh", " p  碰 白 "), ("en", " p  pung Wh ")])
async def test_the_claim_prompt_names_the_tile(lang, named):
    from .test_table import claim_session
    s = claim_session()
    app = app_for(s, lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert {a.type for a in s.legal()} == {"pon", "pass"}
        assert named in Text.from_markup(content(app, "#status")).plain

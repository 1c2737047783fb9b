"""What the table shows of what just happened and why: 過水 said and marked, the
claimed tile named, the seat to move, the win before its settlement."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
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


async def test_the_seat_to_move_is_marked():
    from .test_table import claim_session, wait_turn
    s = claim_session()
    app = app_for(s)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        # 下家 (the dealer) threw 白: the person may pon, else 對家 draws next
        marked = [sel for sel in ("#seat-1", "#seat-2", "#seat-3", "#hand")
                  if app.screen.query_one(sel).has_class("to-move")]
        titles = {sel: Text.from_markup(str(app.screen.query_one(sel).border_title)).plain for sel in
                  ("#seat-1", "#seat-2", "#seat-3", "#hand")}
        assert marked == ["#seat-2"] and titles["#seat-2"].startswith("▶ ")
        assert not any(t.startswith("▶") for sel, t in titles.items() if sel != "#seat-2")
        await pilot.press("x")
        await wait_turn(pilot, app)
        hand = app.screen.query_one("#hand")
        assert hand.has_class("to-move") and Text.from_markup(str(hand.border_title)).plain.startswith("▶ ")
        assert not app.screen.query_one("#seat-2").has_class("to-move")


async def test_online_every_seat_shows_its_clock_and_a_personality_its_name():
    import time

    from twmahjong.tui.online import OnlineSession
    o = OnlineSession("http://127.0.0.1:9", None, ("quick", "standard", "low"))
    st = o.link.state
    st.table = {"seats": [{"name": "me"}, {"name": "bot:shark", "bot": True, "persona": {
        "id": "shark", "zh": "老鯊", "en": "Shark", "tier": 4}}, {"name": "小華"}, {"name": "bot:L2", "bot": True}]}
    st.clocks = [{"base": 5.0, "bank": 20.0, "running": False}, None,
                 {"base": 5.0, "bank": 7.0, "running": True}, None]
    st.timer_at = time.monotonic()
    assert o.seat_clock("zh", 0) == "庫 20 秒" and o.seat_clock("en", 1) == ""
    running = o.seat_clock("en", 2)                     # counted down from 5 + 7 s
    assert running.startswith("⏱ ") and 0 <= int(running[2:-1]) <= 12
    assert o.seat_player("zh", 1) == "老鯊 L4" and o.seat_player("en", 1) == "Shark L4"
    assert o.seat_player("en", 3) == "bot L2"


async def test_offline_a_personality_is_named_at_the_table_and_in_the_log():
    s = PlaySession(load_profile("standard"), bot_names=["pon_uncle", "newbie", "L3"], seed=1,
                    rounds=1)
    names = {s.seat_player("zh", seat) for seat in range(4)}
    assert {"碰碰伯 L1", "阿呆 L1", "電腦3 L3", "你"} == names
    assert {s.seat_name("en", seat) for seat in range(4)} >= {"You"}
    assert any("Pon Uncle" in s.seat_name("en", seat) for seat in range(4))


@pytest.mark.parametrize("lang,head,mark", [
    ("zh", "★ 你 胡 二筒！ 下家 電腦", "▲ 胡"), ("en", "★ You win on 2p! Dealt in by Bot", "▲ win")])
async def test_the_win_has_its_moment_before_the_settlement(lang, head, mark):
    from twmahjong.tui.results import ResultScreen
    s = passed_session()
    app = app_for(s, lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("x")                  # no 天聽
        await pilot.pause()
        await pilot.press("w")                  # 胡 the dealer's 2p
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen) and app.screen.moment
        assert app.screen.query_one("#moment").display
        assert not app.screen.query_one("#body").parent.display     # the settlement waits
        shown = content(app, "#moment")
        assert head in shown
        rows = shown.splitlines()
        i = next(i for i, r in enumerate(rows) if mark in r)
        col = cell_len(rows[i][:rows[i].index("▲")])
        laid = rows[i - 1].rstrip()
        tile = "2筒" if lang == "zh" else "2p"
        assert laid.endswith("  " + tile)                            # the winning tile apart
        assert cell_len(laid) - cell_len(tile) == col                # and marked under it
        assert laid.count("3筒" if lang == "zh" else "3p") == 1     # the hand laid down
        await pilot.press("space")              # a key: the settlement at once
        await pilot.pause()
        assert isinstance(app.screen, ResultScreen) and not app.screen.moment
        assert app.screen.query_one("#body").parent.display
        assert not app.screen.query_one("#moment").display


async def test_your_own_concealed_kong_says_it_is_one():
    from twmahjong.tui.render import meld_text
    own = {"type": "concealed_kong", "tiles": "8888p"}
    assert meld_text("zh", own).plain == "[暗槓 8筒]" and meld_text("en", own).plain == "[hidden kong 8p]"
    assert meld_text("zh", {"type": "kong", "tiles": "8888p", "from": 1, "claimed": "8p"}).plain == "8筒×4"
    assert meld_text("zh", {"type": "concealed_kong", "tiles": None}).plain == "[暗槓]"


async def test_the_help_screen_explains_the_english_tile_names():
    s = session(seed=8)
    app = app_for(s, "en")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        body = " ".join(content(app, "#body").split())
        for words in ("We West", "Au Autumn", "Wi Winter", "Pl Plum", "Rd Red", "1p-9p dots"):
            assert words in body, words


async def test_the_streak_pattern_names_its_n_and_the_header_names_mode_and_rules_apart():
    from twmahjong.tui.results import result_text
    from twmahjong.tui.strings import mode_label, profile_label

    from .helpers import plain
    s = session(seed=8)
    win = {"seat": 0, "from": 1, "tile": "2p", "self_drawn": False, "score": {"tai": 5, "patterns": [
        {"id": "dealer_streak", "zh": "連N拉N", "en": "Dealer streak (per N)", "tai": 4}]}}
    model = {"hand_no": 0, "wins": [win], "settlement": None, "draw_game": None,
             "revealed": [{"hand": "", "melds": [], "flowers": []}] * 4, "scores": [0] * 4,
             "match_over": False, "dealer": 0, "dealer_streak": 2}
    zh, en = plain(result_text(s, "zh", 120, model)), plain(result_text(s, "en", 120, model))
    assert "連2拉2" in zh and "N" not in zh.replace("Dealer", "")
    assert "Dealer streak ×2" in en and "per N" not in en
    assert profile_label("zh", "casual") == "休閒規則（線上報聽）" != mode_label("zh", "casual") == "休閒場"

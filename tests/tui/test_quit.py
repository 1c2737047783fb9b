"""Leaving and coming back, the table speed, English verb forms, the dealer who is not East."""

from __future__ import annotations

import json

import pytest

from twmahjong.tui.dialogs import ConfirmQuit
from twmahjong.tui.prefs import load_saved, saved_path
from twmahjong.tui.render import event_line
from twmahjong.tui.session import PlaySession

from .helpers import app_for, content, session
from .test_fit import play_until


SMALL = (80, 24)


@pytest.mark.asyncio
async def test_q_asks_first_and_n_keeps_playing():
    s = session(seed=8)
    app = app_for(s, save=True)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        assert "牌局會存檔" in content(app, "#body")
        await pilot.press("n")
        assert app.screen is app.table and app.is_running
        await pilot.press("ctrl+c")                     # Ctrl-C asks too
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("escape")
        assert app.screen is app.table
    assert load_saved() is None


@pytest.mark.asyncio
async def test_leaving_saves_the_match_and_resume_puts_the_person_back_where_they_were():
    s = session(seed=8)
    app = app_for(s, "en", save=True)
    async with app.run_test(size=SMALL) as pilot:
        # three of the person's turns into the hand, nothing finished yet
        await play_until(pilot, app, lambda s: len(s.observation()["discards"][s.seat]) >= 3)
        before = s.observation()
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.saved_to == saved_path()
    saved = load_saved()
    assert saved is not None and saved["seed"] == 8 and saved["hand_no"] == 0
    back = PlaySession.resume(saved)
    assert back.observation() == before                 # the same table, the same tiles
    assert back.legal() == s.legal()
    app2 = app_for(back, "en", save=True)
    async with app2.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert "Your turn" in content(app2, "#status")
        await pilot.press("enter")                      # and play goes on from there
        await pilot.pause()
        assert len(back.observation()["discards"][back.seat]) == 4


@pytest.mark.asyncio
async def test_a_damaged_save_is_one_clear_error(config_home):
    from twmahjong.engine.actions import IllegalAction
    data = session(seed=8).progress()
    data["actions"] = [[0, 0, {"type": "discard", "tile": "9z"}]]
    with pytest.raises(IllegalAction):
        PlaySession.resume(data)


def run(argv) -> int:
    from twmahjong.cli import main
    try:
        main(argv)
    except SystemExit as e:
        return e.code or 0
    return 0


def test_play_resume_and_the_next_play_offers_the_saved_match(monkeypatch, config_home, capsys):
    from twmahjong.tui import app as app_mod
    ran = []
    monkeypatch.setattr(app_mod.PlayApp, "run", lambda self: ran.append(self.session))
    assert run(["play", "--resume"]) == 2               # nothing saved: one clear line
    assert "no unfinished match to resume" in capsys.readouterr().err
    s = session(seed=8)
    s.start_hand()
    s.save_progress(saved_path())
    assert run(["play", "--resume", "--lang", "en"]) == 0
    assert ran[-1].seed == 8 and ran[-1].observation() == s.observation()
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("y\n"))
    assert run(["play", "--lang", "en"]) == 0           # no flag: asked, y resumes
    assert ran[-1].seed == 8 and ran[-1].actions == s.actions
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("n\n"))
    assert run(["play", "--lang", "en", "--seed", "5"]) == 0
    assert ran[-1].seed == 5


def test_english_says_you_discard_not_you_discards():
    name = {0: "You", 1: "Right"}.get
    assert event_line("en", {"type": "discard", "seat": 0, "tile": "5m"}, name, 0) == "You discard 5m"
    assert event_line("en", {"type": "discard", "seat": 1, "tile": "5m"}, name, 0) == "Right discards 5m"
    assert event_line("en", {"type": "win", "seat": 0, "self_drawn": False}, name, 0) == "You win!"
    assert event_line("en", {"type": "pon", "seat": 0, "tile": "5m"}, name, 0) == "You pung 5m"


@pytest.mark.asyncio
async def test_the_result_screen_says_you_win_and_you_pay_in_english():
    from twmahjong.tui.results import result_text

    from .helpers import plain
    s = session(seed=8)
    s.start_hand()
    while not s.hand.over:
        legal = s.legal()
        d = [a for a in legal if a.type == "discard"]
        s.act(d[-1] if d else next(a for a in legal if a.type == "pass"))
    text = plain(result_text(s, "en", 78))
    assert "You wins" not in text and "You pays" not in text


@pytest.mark.asyncio
async def test_a_table_speed_lets_each_bot_move_be_seen(monkeypatch):
    from twmahjong.tui.table import SPEEDS, TableScreen
    s = session(seed=8)
    app = app_for(s, speed=1)
    ticks = []
    # the clock is ours from the first tick on: a real timer set before the test could
    # replace it would move a bot on its own on a slow machine
    monkeypatch.setattr(TableScreen, "set_timer", lambda self, delay, cb: ticks.append((delay, cb)))
    async with app.run_test(size=SMALL) as pilot:
        # the first bot moves come one tick at a time until the person's first turn
        for _ in range(400):
            await pilot.pause()
            legal = s.legal()
            if any(a.type == "discard" for a in legal):
                break
            if legal:
                await pilot.press("x")
                continue
            assert ticks, "the table waits for a tick between bot moves"
            delay, cb = ticks.pop()
            assert delay == SPEEDS[1]
            moves = len(s.actions)
            cb()
            assert len(s.actions) <= moves + 1                            # one move per tick
        moves = len(s.actions)
        await pilot.press("enter")
        assert len(s.actions) <= moves + 2 and ticks                      # mine, then one bot
        assert "等待其他玩家" in content(app, "#status")


@pytest.mark.asyncio
async def test_the_dealer_not_east_is_explained(config_home):
    # seed 8: the first dealer (上家) sits East; find a deal where it is not, by playing on
    s = session(seed=8)
    app = app_for(s)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        obs = s.observation()
        d = obs["dealer"]
        hint = content(app, "#hint")
        if obs["seat_winds"][d] != "E":
            assert "本規則從開門位數門風" in hint
        else:
            assert "開門位" not in hint
    # the standard profile counts winds from the wall break: a dealer sitting North
    from twmahjong.tui.table import TableScreen
    fake = {"seat": 0, "dealer": 1, "seat_winds": ["E", "N", "S", "W"], "discards": [[], ["1m"], [], []]}
    t = TableScreen.__new__(TableScreen)
    t.lang, t.session = "en", type("S", (), {"seat": 0})()
    assert "winds count from the wall break" in t.dealer_hint(fake).plain
    json.dumps(fake)


def test_a_saved_match_is_kept_unless_the_player_says_to_delete_it(monkeypatch, config_home, capsys):
    """Answering "not now" to resume used to keep the save silently, then delete it when
    the new match finished: one unfinished match lost. Now 2 keeps it, says so, and the
    new match neither saves over it nor clears it; only 3 deletes it, and says so."""
    from twmahjong.tui import app as app_mod
    apps = []
    monkeypatch.setattr(app_mod.PlayApp, "run", lambda self: apps.append(self))
    monkeypatch.setattr(app_mod.PlayApp, "exit", lambda self, *a, **k: None)
    s = session(seed=8)
    s.start_hand()
    s.save_progress(saved_path())
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("2\n"))
    assert run(["play", "--lang", "en", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "1 resume it  2 new match, keep it for later" in out
    assert "The saved match is kept" in out
    new = apps[-1]
    assert new.session.seed == 5
    new.finish()                                        # the new match ends
    assert load_saved() is not None and load_saved()["seed"] == 8
    assert "not saved" in __import__("twmahjong.tui.strings", fromlist=["tr"]).tr(
        "en", "quit_confirm_unsaved") and new.keeps_other
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("x\n3\n"))
    assert run(["play", "--lang", "zh", "--seed", "6"]) == 0
    out = capsys.readouterr().out
    assert "請輸入 1、2 或 3" in out and "已刪掉未完成牌局的存檔" in out
    assert load_saved() is None

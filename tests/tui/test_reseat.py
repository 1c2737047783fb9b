"""搬風 between 將 in ``twmj play`` (rules/000-001 搬風: 次將起每將於
原座位搬風，由前一將末盤胡牌者擲骰…四人新座位之相互順序不得與前一將完全相同).

A match of more than four 圈 crosses into a second 將: every player, the person
too, moves to the seat of the wind tile they drew, and the screen tells who threw,
who drew first, where everyone sits now and who deals first."""

from __future__ import annotations

import io

import pytest

from twmahjong.bots import make_bot
from twmahjong.engine.actions import Action
from twmahjong.engine.observe import lazy_observation
from twmahjong.profiles import load_profile
from twmahjong.tui.plain import run_plain
from twmahjong.tui.session import HUMAN, PlaySession

from .helpers import app_for, content

WINDS_ZH = "東南西北"


def _to_second_game(seed: int, rounds: int = 5) -> tuple[PlaySession, list[int]]:
    """Play the person's seat with a bot until the first hand of the second 將 is dealt;
    returns the session and the seating (seat -> player) of the first 將."""
    s = PlaySession(load_profile("standard"), bot_names=["L1"] * 3, seed=seed, rounds=rounds)
    me = make_bot("L1", seed)
    first_game = list(s.match.seating)
    while True:
        s.start_hand()
        if s.match.game == 1:
            return s, first_game
        while not s.hand_over:
            s.act(Action.from_json(me.act(lazy_observation(s.hand, s.seat))))
        s.step()                                        # the hand is counted


def test_the_person_moves_with_the_wind_tile_they_drew_and_is_asked_at_the_new_seat():
    s, before = _to_second_game(seed=14)
    ev = next(e for e in s.match.events if e["type"] == "reseat")
    assert s.match.seating == ev["seating"] and sorted(ev["seating"]) == [0, 1, 2, 3]
    # the new order around the table is not the last 將's (nor a turn of it)
    assert ev["seating"] not in [before[r:] + before[:r] for r in range(4)]
    assert s.seat == ev["seating"].index(HUMAN) != before.index(HUMAN)   # (seed 14: 東 → 南)
    assert s.observation()["seat"] == s.seat
    pend = s.hand.pending()
    assert s.legal() == list(pend.get(s.seat, []))       # asked where they sit now
    # the first 將's players, seen by player: each running score went with its player
    for seat, player in enumerate(s.match.seating):
        assert s.player_at(seat) == player


def test_the_reseat_is_told_by_name_throw_first_draw_seats_and_dealer():
    s, before = _to_second_game(seed=14)
    ev = next(e for e in s.match.events if e["type"] == "reseat")
    final = ev["draws"][-1]
    lines = s.reseat_lines("zh", ev)
    names = {p: s.player_name("zh", p) for p in range(4)}
    assert lines[0].startswith("第2將搬風：")
    assert f"{names[before[ev['thrower']]]}擲骰 {'+'.join(map(str, final['dice']))}" in lines[0]
    assert f"{names[before[final['first']]]}先摸風牌" in lines[0]
    # the new seats with the winds the board shows (counted from the wall break), East first
    winds = s.observation()["seat_winds"]
    seats = next(line for line in lines if line.startswith("新座位（本盤門風）："))
    order = sorted(range(4), key=lambda seat: "ESWN".index(winds[seat]))
    assert seats == "新座位（本盤門風）：" + "、".join(
        f"{WINDS_ZH['ESWN'.index(winds[seat])]} {names[ev['seating'][seat]]}" for seat in order)
    mine = f"{WINDS_ZH['ESWN'.index(winds[s.seat])]} {names[HUMAN]}"
    assert mine in seats                                  # as the person's box title says
    dealer = ev["seating"][ev["first_dealer"]]
    assert lines[-1].endswith(f"{names[dealer]}起莊。")
    assert len(ev["draws"]) == 2 and lines[1] == "前1次摸完座次順序與上一將相同，重搬。"   # (seed 14)
    en = s.reseat_lines("en", ev)
    assert en[0].startswith("Game 2, re-seating (搬風)") and "You" in " ".join(en)


def test_plain_mode_prints_the_reseat_before_the_new_games_first_hand():
    s, _ = _to_second_game(seed=14)
    s.seen = s.hand_start                     # the new hand's events, 搬風 first, not yet shown
    out = io.StringIO()
    run_plain(s, "en", io.StringIO("q\ny\n"), out, save_path=None)
    text = out.getvalue()
    assert "re-seating (搬風)" in text and "New seats (this hand's winds): East" in text
    assert text.index("re-seating") < text.index("First dealer")


@pytest.mark.asyncio
async def test_the_table_screen_keeps_the_reseat_on_the_new_hands_log():
    s, _ = _to_second_game(seed=14)
    s.seen = s.hand_start
    app = app_for(s, "zh")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        table = app.table
        log = "\n".join(table.log_lines)
        assert "第2將搬風" in log and "新座位（本盤門風）：東 " in log and "起莊" in log
        # and on a page of its own before the new 將's first move
        from twmahjong.tui.results import ReseatScreen
        assert isinstance(app.screen, ReseatScreen)
        page = content(app, "#body")
        assert page.startswith("第2將：搬風") and "新座位（本盤門風）" in page and "起莊" in page
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is app.table


@pytest.mark.asyncio
async def test_the_result_of_a_games_last_hand_says_the_game_ends_and_the_players_reseat():
    from twmahjong.tui.results import result_text

    from .helpers import plain
    s = PlaySession(load_profile("standard"), bot_names=["L1"] * 3, seed=14, rounds=5)
    me = make_bot("L1", 14)
    while True:
        s.start_hand()
        while not s.hand_over:
            s.act(Action.from_json(me.act(lazy_observation(s.hand, s.seat))))
        s.step()
        text = plain(result_text(s, "zh", 120))
        if s.match.game_ended:
            break
        assert "將結束" not in text
    assert "第1將結束：下一盤前搬風" in text
    assert "Game 1 is over: before the next hand everyone re-seats" in plain(result_text(s, "en", 120))

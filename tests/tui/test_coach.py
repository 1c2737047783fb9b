"""教練 in the terminal: the coach line and the marks under the tiles at 80×24 in both
languages, and in plain mode the coach's lines in reading order."""

from __future__ import annotations

import io

import pytest

from twmahjong.tui import coach as coach_mod
from twmahjong.tui.glyphs import COMPACT, kinds
from twmahjong.tui.plain import run_plain
from twmahjong.tui.prefs import Prefs
from twmahjong.tui.render import hand_layout
from twmahjong.tui.strings import tr

from .helpers import app_for, content, session


def _fake_hint(obs, legal):
    """A hint of the protocol's shape: the last legal discard, risks by position."""
    ds = [a for a in legal if a["type"] == "discard"]
    if not ds:
        return {"decision": "claim", "choice": {"type": "pass"}, "say": {"zh": "不叫", "en": "Let it go"},
                "tiles": [], "claim": {"call": False, "say": {"zh": "碰了只剩單吊，不如不碰",
                                                               "en": "A pong leaves a single wait"}},
                "outlook": {"tai": 1.5, "fold": False, "say": None}}
    risks = ("safe", "careful", "danger")
    return {"decision": "discard", "choice": ds[-1],
            "say": {"zh": "打這張：孤張先走", "en": "Throw it: a lone tile goes first"},
            "tiles": [{"tile": a["tile"], "shanten": 1, "accept": [{"tile": "3p", "live": 2}],
                       "accept_total": 2, "risk": risks[i % 3], "deal_in": 0.01,
                       "why": [{"code": "suji", "seat": 1}]} for i, a in enumerate(ds)],
            "claim": None, "outlook": {"tai": 2.4, "fold": False, "say": None}}


@pytest.fixture
def fake_coach(monkeypatch):
    monkeypatch.setattr(coach_mod, "local_hint", _fake_hint)


async def _first_turn(pilot, s):
    for _ in range(400):
        await pilot.pause()
        legal = s.legal()
        if any(a.type == "discard" for a in legal):
            return
        if legal:
            await pilot.press("x")
    raise AssertionError("no turn came")


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_coach_line_and_marks_at_80x24(lang):
    # the library's own hint (twmahjong.coach, L6), asked offline with o
    s = session(seed=8)
    app = app_for(s, lang)
    app.prefs.coach = "ask"
    async with app.run_test(size=(80, 24)) as pilot:
        await _first_turn(pilot, s)
        assert not app.screen.query_one("#coach").display        # on request: nothing yet
        assert tr(lang, "k_coach") in content(app, "#keys")
        await pilot.press("o")
        await pilot.pause()
        line = content(app, "#coach")
        assert line.startswith(tr(lang, "coach_label")) and app.screen.query_one("#coach").display
        assert len(line.rstrip("\n").splitlines()) <= 2
        # ★ stands under a tile that may be thrown; every other tile has its risk sign
        rows = content(app, "#hand").rstrip("\n").splitlines()
        marks = rows[-1]
        obs = s.observation()
        hand, drawn = kinds(obs["hand"]), kinds(obs["drawn"]) if obs.get("drawn") else []
        tiles = hand + drawn
        cols = hand_layout(hand, drawn[0] if drawn else None, COMPACT)
        starred = [tiles[i] for i, c in enumerate(cols) if "★" in marks[c:c + COMPACT]]
        assert len(starred) == 1
        assert starred[0] in {a.tile for a in s.legal() if a.type == "discard"}
        choice = app.screen.coach.hint["choice"]
        assert choice["type"] == "discard" and kinds(choice["tile"]) == [starred[0]]
        said = tr(lang, "coach_label") + app.screen.coach.hint["say"][lang]
        assert line.startswith(said[:30])
        assert sum(marks.count(sign) for sign in "○△✕") >= len(tiles) - 2


def test_plain_mode_says_the_coach_lines_in_reading_order(fake_coach, config_home):
    s = session(seed=8)
    out = io.StringIO()
    run_plain(s, "en", io.StringIO("x\nx\no\no 5m\n\nq\ny\n"), out, prefs=Prefs(coach="ask"))
    lines = [x.removeprefix("> ") for x in out.getvalue().splitlines()]
    at = next(i for i, x in enumerate(lines) if x.startswith("Coach: Throw it"))
    assert "Your turn" in lines[at - 1] or "Your turn" in lines[at - 2]
    assert lines[at + 1].startswith("Coach: This hand looks worth about 2.4 tai")
    assert lines[at + 2].startswith("Coach: danger: ") and "the rest safe" in lines[at + 2]
    # o 5m: one tile's line (5m is in this seat's first hand)
    assert lines[at + 3].startswith("Coach: 5m: 1 from ready after it; 2 improve it (3p:2); ")
    # always: the lines come with the decision's line, unasked
    s = session(seed=8)
    out = io.StringIO()
    run_plain(s, "zh", io.StringIO("x\nx\n\nq\ny\n"), out, prefs=Prefs(coach="always"))
    text = out.getvalue()
    assert "教練：不叫" in text and "教練：碰了只剩單吊，不如不碰" in text and "教練：打這張：孤張先走" in text


def test_plain_mode_reads_the_librarys_advice_after_the_turn_line(config_home):
    s = session(seed=8)
    out = io.StringIO()
    run_plain(s, "zh", io.StringIO("x\nx\n\nq\ny\n"), out, prefs=Prefs(coach="always"))
    lines = [x.removeprefix("> ") for x in out.getvalue().splitlines()]
    turn = next(i for i, x in enumerate(lines) if "輪到你" in x)
    coach = lines[turn + 1:turn + 4]
    assert all(x.startswith("教練：") for x in coach), coach
    assert coach[0].startswith("教練：打") and any("台" in x for x in coach[1:])

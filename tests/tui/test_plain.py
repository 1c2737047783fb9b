"""``twmj play --plain``: one plain line per change, commands as lines."""

from __future__ import annotations

import io

import pytest

from twmahjong.tui.plain import parse_tile_word, run_plain
from twmahjong.tui.prefs import load_saved, saved_path
from twmahjong.tui.strings import tile_label

from .helpers import session


def play(lines: list[str], lang="en", seed=8):
    s = session(seed=seed)
    out = io.StringIO()
    run_plain(s, lang, io.StringIO("".join(x + "\n" for x in lines)), out, save_path=saved_path())
    return s, out.getvalue()


class _Reader:
    """stdin that answers by the table: look once, x to every claim, Enter (the drawn
    tile) on the first turn, then q and y."""

    def __init__(self, s):
        self.s, self.script = s, ["look\n"]

    def readline(self):
        if self.script:
            return self.script.pop(0)
        mine = [e for e in self.s.hand_events() if e["type"] == "discard" and e["seat"] == self.s.seat]
        if mine:
            self.script = ["y\n"]
            return "q\n"
        return "\n" if any(a.type == "discard" for a in self.s.legal()) else "x\n"


def test_each_change_is_one_plain_line_and_enter_throws_the_drawn_tile(config_home):
    s = session(seed=8)
    out = io.StringIO()
    run_plain(s, "en", _Reader(s), out, save_path=saved_path())
    text = out.getvalue()
    assert "\x1b" not in text                                # no colour codes, no cursor moves
    lines = text.splitlines()
    obs = s.observation()
    rel = ("You", "Right", "Across", "Left")[(obs["dealer"] - s.seat) % 4]
    assert f"East round, hand 1. Dealer {rel}" in lines
    wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[obs["seat_winds"][s.seat]]
    assert any(x.startswith(f"> You {wind}; ") for x in lines)            # look reads the table
    assert any(x.startswith("Your turn") or "Your turn: type a tile" in x for x in lines)
    mine = [e for e in s.hand_events() if e["type"] == "discard" and e["seat"] == s.seat]
    assert len(mine) == 1 and f"You discard {mine[0]['tile']}" in text
    assert "Match saved" in text and load_saved()["seed"] == 8


def test_bad_commands_are_answered_not_raised(config_home):
    s, text = play(["5q", "d", "9z", "q", "n", "q", "y"])
    assert "Not understood: '5q'" in text
    assert "You cannot draw the last tile now" in text          # d: only at the last tile
    assert "Not understood: '9z'" in text
    assert not [e for e in s.hand_events() if e["type"] == "discard" and e["seat"] == s.seat]


def test_an_end_of_input_saves_and_leaves(config_home):
    s, text = play([], lang="zh")
    assert "牌局已存檔" in text and load_saved() is not None


def test_tiles_are_read_as_people_type_them():
    assert parse_tile_word("5m") == parse_tile_word("5萬") == parse_tile_word("五萬") == 4
    assert parse_tile_word("東") == parse_tile_word("Ea") == parse_tile_word("east") == 27
    assert parse_tile_word("Rd") == parse_tile_word("中") == parse_tile_word("Red") == 33
    assert parse_tile_word("xyz") is None


def test_tile_names_are_unambiguous_and_full_names_are_read():
    # W was both West and w (胡): a tile is never one letter, and West is We, west, 西, 西風
    for word in ("We", "we", "West", "west", "西", "西風", "西风", "3z"):
        assert parse_tile_word(word) == 29, word
    assert parse_tile_word("w") is parse_tile_word("W") is parse_tile_word("E") is None
    assert [tile_label("en", k) for k in range(27, 34)] == ["Ea", "So", "We", "No", "Wh", "Gr", "Rd"]
    assert len({tile_label("en", k).lower() for k in range(42)} | set("cpkwtdx")) == 42 + 7


def test_enter_after_a_pung_never_guesses_a_discard(config_home):
    from .test_table import claim_session
    s = claim_session()
    out = io.StringIO()
    run_plain(s, "en", io.StringIO("p\n\nq\ny\n"), out)     # pung 白, then Enter
    text = out.getvalue()
    assert "type the tile to discard" in text and "Enter throws the drawn one" not in text.split(
        "pung")[-1]
    assert "You drew no tile: type the tile to discard" in text
    assert [e["type"] for e in s.hand_events()][-1] == "pon"        # nothing was thrown


@pytest.mark.parametrize("lang,said,refused", [
    ("en", "Passed win (過水): no win until you discard a tile that is not one of your winning tiles",
     "You cannot win now — Passed win (過水)"),
    ("zh", "過水：放過了胡，要等你打出一張不是胡牌的牌，才能再胡", "現在不能胡 — 過水")])
def test_plain_says_passed_win_when_a_win_is_let_go_and_when_w_is_refused(config_home, lang, said,
                                                                           refused):
    from .test_show import passed_session
    s = passed_session()
    out = io.StringIO()
    run_plain(s, lang, io.StringIO("x\nx\nw\nq\ny\n"), out)   # no 天聽, let 2p go, w on 5p
    text = out.getvalue()
    assert said in text and refused in text
    assert ("·過水)" if lang == "zh" else "過水: not now)") in text      # the waits marked


@pytest.mark.asyncio
async def test_g_opens_the_whole_log_to_read_linearly():
    from twmahjong.tui.dialogs import LogScreen

    from .helpers import app_for, content
    from .test_fit import play_until
    s = session(seed=8)
    app = app_for(s, "en")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_until(pilot, app, lambda s: len(s.observation()["discards"][s.seat]) >= 2)
        await pilot.press("g")
        assert isinstance(app.screen, LogScreen)
        text = content(app, "#body")
        lines = text.splitlines()
        assert lines[0] == "East round, hand 1"
        mine = [e["tile"] for e in s.hand_events() if e["type"] == "discard" and e["seat"] == s.seat]
        from twmahjong.tiles import parse_tile
        from twmahjong.tui.strings import tile_label
        for tile in mine:                                   # every line of the hand
            assert f"You discard {tile_label('en', parse_tile(tile))}" in lines
        assert len(lines) > 10                              # far more than the one-row pane shows
        await pilot.press("x")
        assert app.screen is app.table

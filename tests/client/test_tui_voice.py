"""The terminal at a table where people talk by voice (開黑): it says who is in voice
and that voice needs the browser, in both languages — from the snapshot and from
each ``voice`` message, atop the table-talk pane and in plain mode. The terminal
itself never joins (it sends no ``voice``)."""

from __future__ import annotations

import io

import pytest

from twmahjong.tui.online import OnlineSession
from twmahjong.tui.plain_online import _PlainOnline
from twmahjong.tui.prefs import Prefs
from twmahjong.tui.talk import talk_text


def feed(session, m) -> None:
    session.link.state.apply(m)
    session.on_message(m)
    session._tell(m)


def seated(seat: int = 0) -> OnlineSession:
    s = OnlineSession("http://127.0.0.1:9", "t", ("ticket", "tk"))
    s.link.state.seat = seat
    s.link.state.table = {"seats": [{"name": n} for n in ("阿明", "Bea", "小華", "bot:L2")]}
    return s


@pytest.mark.parametrize("lang,text", [
    ("zh", "語音中：你、對家 小華（語音聊天要用瀏覽器）"),
    ("en", "In voice: You, 小華 (Across) (voice chat needs the browser)")])
def test_the_talk_pane_says_who_is_in_voice_and_that_it_needs_the_browser(lang, text):
    s = seated(0)
    s.lang = lang
    assert talk_text(s, lang, 2, 78).plain == ""
    feed(s, {"type": "voice", "seats": [0, 2]})
    assert talk_text(s, lang, 2, 78).plain == text
    feed(s, {"type": "talk", "seat": 2, "phrase": None, "emote": "tea", "bot": False})
    lines = talk_text(s, lang, 2, 78).plain.split("\n")
    assert lines[0] == text and len(lines) == 2        # the voice line, then the talk
    feed(s, {"type": "voice", "seats": []})
    assert "語音中" not in talk_text(s, lang, 2, 78).plain
    assert "In voice" not in talk_text(s, lang, 2, 78).plain


def test_plain_mode_says_it_when_someone_joins():
    s = seated(1)
    out = io.StringIO()
    p = _PlainOnline(s, "en", io.StringIO(""), out, Prefs())
    s.listeners.append(p.on_message)
    feed(s, {"type": "voice", "seats": [2, 3]})
    assert out.getvalue().splitlines()[-1] == ("In voice: 小華 (Right), bot L2 (Across) "
                                               "(voice chat needs the browser)")

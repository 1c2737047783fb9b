"""A second window on the same account at the same table: both say so while there are
two (the server's ``notice`` ``second_connection``), and stop saying it at one.

The server's side of this notice is tested with the server; here the terminal is fed
the message as the protocol gives it."""

from __future__ import annotations

import io

import pytest

from twmahjong.tui.online import OnlineSession
from twmahjong.tui.plain_online import _PlainOnline
from twmahjong.tui.prefs import Prefs


def notice(game: str, k: int) -> dict:
    return {"type": "notice", "kind": "second_connection",
            "data": {"game_id": game, "seat": 0, "connections": k}}


def feed(session, m) -> None:
    session.link.state.apply(m)
    session.on_message(m)
    session._tell(m)


@pytest.mark.parametrize("lang,text", [("zh", "此帳號在另一個視窗也在這一桌"),
                                       ("en", "This account is at this table in another window too")])
def test_the_status_says_another_window_while_there_are_two(lang, text):
    s = OnlineSession("http://127.0.0.1:9", "t", ("ticket", "tk"))
    s.lang = lang
    s.link.state.game_id = "g1"
    feed(s, notice("g1", 2))
    assert text in s.status_extra(lang)
    feed(s, notice("other-game", 1))                 # another table's count is not this one's
    assert text in s.status_extra(lang)
    feed(s, notice("g1", 1))
    assert text not in s.status_extra(lang)


def test_plain_says_it_when_it_changes():
    s = OnlineSession("http://127.0.0.1:9", "t", ("ticket", "tk"))
    s.link.state.game_id = "g1"
    out = io.StringIO()
    p = _PlainOnline(s, "en", io.StringIO(""), out, Prefs())
    s.listeners.append(p.on_message)
    feed(s, notice("g1", 2))
    feed(s, notice("g1", 1))
    lines = out.getvalue().splitlines()
    assert "This account is at this table in another window too" in lines
    assert lines[-1] == "Only this window is at this table now"

"""The session behind the screen: bots play, the person is asked, and sees only their seat."""

from __future__ import annotations

import pytest

from twmahjong.engine.actions import PASS

from .helpers import session


def test_the_bots_play_until_the_person_must_decide():
    s = session(seed=8)
    s.start_hand()
    pend = s.hand.pending()
    assert list(pend) == [s.seat] and s.legal() == list(pend[s.seat])
    assert not (len(s.legal()) == 1 and s.legal()[0] is PASS)      # a pass-only window is taken for them


def test_the_person_sees_only_their_own_tiles():
    s = session(seed=8)
    s.start_hand()
    obs = s.observation()
    assert obs["seat"] == s.seat
    for e in s.new_events():
        if e["type"] == "deal":
            assert [h == "?" for h in e["hands"]] == [i != s.seat for i in range(4)]
        if e["type"] == "draw" and e["seat"] != s.seat:
            assert e["tile"] == "?"


def test_tiles_are_revealed_only_once_the_hand_is_over():
    s = session(seed=8)
    s.start_hand()
    with pytest.raises(RuntimeError):
        s.revealed()

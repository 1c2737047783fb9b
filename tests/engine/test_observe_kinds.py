"""An in-process bot reads the table as numbers (``observe.seat_kinds``), not as the
observation's text: the view it builds must be the one the text gives, at every
moment of every seat — or the bots would decide on something the seat cannot see,
or play differently in process than over the pipe."""

from __future__ import annotations

import dataclasses

from twmahjong.bots.view import Meld, View
from twmahjong.engine import HandState
from twmahjong.engine.observe import LazyObservation, observation, seat_kinds
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots

LEVELS = ["L2", "L5", "efficiency", "gambler"]
HANDS = 16          # per profile


def _fields(v: View) -> dict:
    out = {f.name: getattr(v, f.name) for f in dataclasses.fields(v) if f.name != "legal"}
    out["legal"] = [m[:3] for m in v.legal]            # the move as offered: JSON or Action
    return out


def test_the_view_from_numbers_is_the_view_from_the_text():
    seen = {"chi": 0, "claim_window": 0, "own_drawn": 0, "declared": 0}
    for profile, seed in [(p, n) for p in ("standard", "casual", "classic") for n in range(HANDS)]:
        h = HandState(load_profile(profile), dealer=seed % 4, seed=900 + seed,
                      open_windows=bool(seed % 2))
        bots = make_bots([LEVELS[(seed + i) % 4] for i in range(4)], seed)
        while not h.over:
            pend = h.pending()
            for s in range(4):
                acts = pend.get(s)
                fast = View.from_observation(LazyObservation(h, s, actions=acts))
                text = dict(observation(h, s))              # a plain dict: read as text
                assert _fields(fast) == _fields(View.from_observation(text))
                seen["chi"] += any(m.type == "chi" for ms in fast.melds for m in ms)
                seen["claim_window"] += fast.last_discard is not None
                seen["own_drawn"] += fast.drawn is not None
                seen["declared"] += any(fast.declared)
            for s, acts in list(pend.items()):
                h.act(s, bots[s].act(LazyObservation(h, s, actions=acts)))
    # the moments that differ most between the two readings all came up
    assert all(seen.values()), seen


def test_another_seats_concealed_kong_stays_face_down():
    from .helpers import do, fill, play_until, table
    h = table(fill({1: "5555m"}), back="8m")
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    do(h, 1, "concealed_kong 5m")
    other, own = (View.from_observation(LazyObservation(h, s)) for s in (0, 1))
    assert other.melds[1] == [Meld("concealed_kong", (), None, None)]
    assert own.melds[1] == [Meld("concealed_kong", (4, 4, 4, 4), None, None)]
    for s in range(4):
        acts = h.pending().get(s)
        assert _fields(View.from_observation(LazyObservation(h, s, actions=acts))) == \
            _fields(View.from_observation(dict(observation(h, s))))


def test_hidden_tiles_do_not_change_the_numbers_a_seat_reads():
    """Swap a tile between seat 2's concealed hand and the standing wall: what seat 0
    reads is the same (the text observation's own test, tests/engine/test_observations.py)."""
    for seed in range(8):
        h = HandState(load_profile("standard"), dealer=seed % 4, seed=seed)
        bots = make_bots(["random"] * 4, seed)
        for _ in range(20):
            for s, acts in list(h.pending().items()):
                h.act(s, bots[s].act(LazyObservation(h, s, actions=acts)))
        assert not h.over
        before = seat_kinds(h, 0)
        st = h.seats[2]
        a = next(k for k in range(34) if st.counts[k])
        j = next(i for i in range(h.wall.front, 120) if h.wall.kinds[i] not in (a,) and
                 h.wall.kinds[i] < 34)
        b = h.wall.kinds[j]
        st.counts[a] -= 1
        st.counts[b] += 1
        h.wall.kinds[j] = a
        assert seat_kinds(h, 0) == before

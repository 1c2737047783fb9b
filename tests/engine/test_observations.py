"""Each seat sees its own hand, everything exposed, the river and the wall count —
never another seat's concealed tiles or the wall's order."""

import json

from twmahjong.engine import HandState
from twmahjong.engine.observe import event_view, observation
from twmahjong.selfplay import make_bots
from twmahjong.tiles import parse_tiles

KEYS = {"seat", "dealer", "dealer_streak", "round_wind", "seat_winds", "wall_remaining", "phase",
        "hand", "drawn", "melds", "flowers", "discards", "drawn_out", "concealed_count", "declared",
        "last_discard"}


def _mid_hand(standard, seed, steps=30):
    h = HandState(standard, dealer=seed % 4, seed=seed)
    bots = make_bots(["random"] * 4, seed)
    for _ in range(steps):
        if h.over:
            break
        for s in list(h.pending()):
            h.act(s, bots[s].act(observation(h, s)))
    return h


def test_the_observation_has_the_documented_keys_and_own_tiles(standard):
    h = _mid_hand(standard, 5)
    for seat in range(4):
        obs = observation(h, seat)
        assert KEYS <= set(obs) <= KEYS | {"legal", "added_kong"}
        mine = parse_tiles(obs["hand"]) + (parse_tiles(obs["drawn"]) if obs["drawn"] else [])
        assert sorted(mine) == [k for k in range(34) for _ in range(h.seats[seat].counts[k])]
        assert ("legal" in obs) == (seat in h.pending())
        json.dumps(obs)


def test_hidden_tiles_do_not_change_what_a_seat_sees(standard):
    # swap a tile between seat 2's concealed hand and the live wall: seat 0's view is identical
    for seed in range(8):
        h = _mid_hand(standard, seed, steps=20)
        if h.over:
            continue
        before = json.dumps(observation(h, 0), sort_keys=True)
        st = h.seats[2]
        a = next(k for k in range(34) if st.counts[k])
        j = next(i for i in range(h.wall.front, 120) if h.wall.kinds[i] != a and h.wall.kinds[i] < 34)
        b = h.wall.kinds[j]
        st.counts[a] -= 1
        st.counts[b] += 1
        h.wall.kinds[j] = a
        assert json.dumps(observation(h, 0), sort_keys=True) == before


def test_a_concealed_kong_is_face_down_to_the_others():
    from .helpers import do, fill, table
    h = table(fill({1: "5555m"}), back="8m")
    from .helpers import play_until
    play_until(h, lambda h: h.phase == "turn" and h.turn_seat == 1)
    do(h, 1, "concealed_kong 5m")
    assert observation(h, 0)["melds"][1] == [{"type": "concealed_kong", "tiles": None}]
    assert observation(h, 1)["melds"][1] == [{"type": "concealed_kong", "tiles": "5555m"}]
    kong = next(e for e in h.events if e["type"] == "kong")
    assert event_view(kong, 0)["tile"] == "?" and event_view(kong, 1)["tile"] == "5m"


def test_event_views_hide_other_seats_draws_and_dealt_hands(standard):
    h = _mid_hand(standard, 3)
    deal = event_view(h.events[0], 1)
    assert deal["hands"][1] == h.events[0]["hands"][1]
    assert all(deal["hands"][s] == "?" for s in (0, 2, 3))
    for ev in h.events:
        if ev["type"] == "draw":
            v = event_view(ev, (ev["seat"] + 1) % 4)
            assert v["tile"] == "?" and event_view(ev, ev["seat"])["tile"] == ev["tile"]

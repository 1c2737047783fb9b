"""教練 (the coach): L6's move and why, from one seat's observation alone.

The positions come from games bots play here (a few hands, fast) or from a file of
recorded ones (tests/data/coach_positions.json, ``bench/coach.py record``); every
expectation is L6's own move or a rule of the hint's shape, never a past run's
numbers."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twmahjong.analysis import decision_points
from twmahjong.bots.arena import make_seat_bot
from twmahjong.coach import DECISIONS, NoDecision, coach
from twmahjong.engine import HandState
from twmahjong.engine.actions import legal_json
from twmahjong.engine.observe import LazyObservation
from twmahjong.engine.rollout import determinize
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots, play_match

POSITIONS = Path(__file__).parent / "data" / "coach_positions.json"


def _check_shape(h: dict, obs: dict) -> None:
    assert h["decision"] in DECISIONS
    assert h["choice"] in obs["legal"]                 # one of the legal moves, exactly
    assert h["say"]["zh"] and h["say"]["en"]
    hand = set(obs["hand"] and _kinds(obs))
    for t in h["tiles"]:
        assert t["tile"] in hand
        assert t["risk"] in ("safe", "careful", "danger") and 0 <= t["deal_in"] <= 1
        assert t["accept_total"] == sum(a["live"] for a in t["accept"])
        assert all(w["code"] in ("genbutsu", "suji", "kabe", "ready_seat", "declared")
                   and w["seat"] != obs["seat"] for w in t["why"])
    if h["claim"] is not None:
        assert h["claim"]["say"]["zh"] and h["claim"]["say"]["en"]
    assert h["outlook"]["tai"] >= 0 and isinstance(h["outlook"]["fold"], bool)
    json.dumps(h)


def _kinds(obs: dict) -> list[str]:
    from twmahjong.tiles import parse_tiles, tile_str
    return [tile_str(k) for k in parse_tiles(obs["hand"] + (obs.get("drawn") or ""))]


def test_the_hint_is_l6s_own_move_on_recorded_positions():
    data = json.loads(POSITIONS.read_text(encoding="utf-8"))["positions"]
    assert {coach(p["observation"]).decision for p in data} >= {"discard", "claim", "win",
                                                                "kong", "ready"}
    for p in data:
        obs = p["observation"]
        h = coach(obs).to_json()
        assert h["choice"] == p["l6"], obs
        _check_shape(h, obs)
        # and L6 made now, from the same observation, agrees
        move = make_seat_bot("L6", 0, exact=True).act(dict(obs))
        assert h["choice"] == (move if isinstance(move, dict) else move.to_json())


def _twin(h: HandState, seat: int) -> HandState:
    return determinize(h, seat, random.Random(99))


def _hidden(h: HandState, seat: int):
    return [tuple(s.counts) for i, s in enumerate(h.seats) if i != seat], list(h.wall.kinds)


def test_the_same_view_with_other_hidden_tiles_gives_the_same_hint():
    m = play_match(load_profile("casual"), seed=5, rounds=1, max_hands=1,
                   bots=make_bots(["L3", "gambler", "L2", "hermit"], 5))
    rec = m.record()
    checked = 0
    for seat in range(4):
        _, points = decision_points(rec, seat)
        for p in points[2::5][:3]:
            h = p.state
            t = _twin(h, seat)
            assert t.observation(seat) == h.observation(seat)
            assert _hidden(t, seat) != _hidden(h, seat)
            legal = legal_json(h.pending()[seat])
            a = coach(LazyObservation(h, seat, legal)).to_json()
            b = coach(LazyObservation(t, seat, legal_json(t.pending()[seat]))).to_json()
            c = coach(h.observation(seat)).to_json()          # as JSON, the way the server asks
            assert a == b == c
            checked += 1
    assert checked >= 6


def test_nothing_to_choose_is_one_clear_error():
    for legal in ([], [{"type": "pass"}]):
        try:
            coach({"seat": 0, "hand": "123m", "legal": legal})
        except NoDecision as e:
            assert "no decision" in str(e)
        else:
            raise AssertionError("a hint without a choice")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), profile=st.sampled_from(
    ["standard", "casual"]))
def test_the_choice_is_always_one_of_the_legal_moves(seed, steps, profile):
    """A random hand played some random steps by random-ish bots; the hint at the next
    real choice of any seat."""
    h = HandState(load_profile(profile), dealer=seed % 4, seed=seed)
    bots = make_bots(["random", "L1", "random", "L2"], seed)
    n = 0
    while not h.over:
        pend = h.pending()
        choosing = [s for s, acts in pend.items() if len(acts) >= 2]
        if choosing and n >= steps:
            s = choosing[0]
            obs = h.observation(s)
            _check_shape(coach(obs).to_json(), obs)
            return
        for s in list(pend):
            h.act(s, bots[s].act(h.observation(s)))
        n += 1


def test_a_claim_says_why_in_one_line():
    # 吃 3m (with 12m) takes a set from the river, and costs 門清
    obs = {"seat": 0, "hand": "1245678m2457p1399s5z", "drawn": None, "phase": "claim",
           "melds": [[], [], [], []], "discards": [[], [], [], ["3m"]],
           "last_discard": {"seat": 3, "tile": "3m"},
           "legal": [{"type": "chi", "tile": "3m", "tiles": "12m"}, {"type": "pass"}]}
    h = coach(obs).to_json()
    assert h["decision"] == "claim" and h["tiles"] == []
    line = h["claim"]["say"]["zh"]
    assert ("吃了" in line or "不如不吃" in line) and "\n" not in line
    if h["claim"]["call"]:
        assert h["choice"]["type"] == "chi" and "門清沒了（−1 台）" in line
    else:
        assert h["choice"] == {"type": "pass"}


def test_each_tile_says_why_it_is_safe_or_not_and_a_far_hand_folds():
    """Seat 1 declared 聽 and threw 5m and 7p; seat 0 is three from ready."""
    obs = {"seat": 0, "hand": "1135m467p2389s2z5z", "drawn": "5z", "phase": "turn",
           "wall_remaining": 30, "declared": [False, True, False, False],
           "melds": [[], [], [], []],
           "discards": [["1z", "9p", "1p"], ["9m", "5m", "1s", "4z", "6s", "3z", "7p", "8p"],
                        ["1z", "2z", "9s", "1m"], ["3z", "4z", "7z", "9m"]],
           "legal": [{"type": "discard", "tile": t} for t in
                     ("1m", "3m", "5m", "4p", "6p", "7p", "2s", "3s", "8s", "9s", "2z", "5z")]}
    h = coach(obs).to_json()
    _check_shape(h, obs)
    tiles = {t["tile"]: t for t in h["tiles"]}
    assert {"code": "genbutsu", "seat": 1} in tiles["5m"]["why"]        # 現物
    assert {"code": "genbutsu", "seat": 1} in tiles["7p"]["why"]
    assert tiles["6p"]["risk"] == "danger" and tiles["6p"]["why"] == [{"code": "declared",
                                                                        "seat": 1}]
    for t in tiles.values():                     # the class is the chance's
        p = t["deal_in"]
        assert t["risk"] == ("safe" if p < 0.02 else "careful" if p < 0.06 else "danger")
    assert h["outlook"]["fold"] is True and "棄胡" in h["outlook"]["say"]["zh"]
    assert tiles[h["choice"]["tile"]]["risk"] == "safe"


def test_a_flower_win_is_taken_and_said_so():
    obs = {"seat": 0, "hand": "123456789m123p11s", "drawn": "1z",
           "legal": [{"type": "flower_win"}, {"type": "discard", "tile": "1z"}]}
    h = coach(obs).to_json()
    assert h["decision"] == "win" and h["choice"] == {"type": "flower_win"}
    assert "8 台" in h["say"]["zh"] and "8 tai" in h["say"]["en"]


def test_the_docstring_example_runs():
    import doctest

    import twmahjong.coach as mod
    r = doctest.testmod(mod)
    assert r.attempted and not r.failed

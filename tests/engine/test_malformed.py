"""Whatever a client sends as an action, a table that did not offer it refuses it with
``IllegalAction`` and stays exactly as it was (one message naming a flower used to
raise IndexError and kill the table for all four players)."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twmahjong.engine import HandState, IllegalAction
from twmahjong.engine import actions as A
from twmahjong.engine.actions import ACTION_TYPES, Action
from twmahjong.engine.observe import lazy_observation
from twmahjong.selfplay import make_bots
from twmahjong.errors import UserError
from twmahjong.profiles import load_profile

from .helpers import fill, table

FLOWERS = ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]
TILE_TEXT = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]


def fingerprint(h: HandState) -> tuple:
    """Everything a refused action could have touched: every seat's tiles, melds,
    flowers, river and restrictions; the wall; the decision under way; the record."""
    seats = tuple(
        (tuple(s.counts), tuple(s.key), tuple((m.type, m.kinds, m.from_seat, m.claimed) for m in s.melds),
         tuple(s.flowers), tuple(s.discards), tuple(s.claimed), s.declared, s.declare_valid,
         s.first_window, s.passed_win, frozenset(s.passed_win_kinds), frozenset(s.passed_pon),
         s.cannot_win, s.last_discard, s.n_discards, s.n_draws, frozenset(s.since), s.waits)
        for s in h.seats)
    return (seats, h.wall.front, h.wall.back_taken, h.wall.left, h.phase, h.turn_seat, h.drawn,
            h.claim_ctx, tuple(sorted((s, tuple(a)) for s, a in h._pending.items())),
            tuple(sorted(h._choices.items())), len(h.events), h.forbidden, h.no_kong,
            h.no_self_win, h.no_concealed_kong, h.turn_src, h.result is None)


# JSON as a client could send it: anything at all, and near-misses of real actions
_scalars = (st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
            | st.floats(allow_nan=True) | st.text(max_size=12))
_any_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
_tileish = (st.sampled_from(TILE_TEXT + FLOWERS + ["0m", "9f", "8z", "", " 5m", "5M", "m5", "4m6m", "1f2f"])
            | st.text(max_size=10) | _any_json)
_near_action = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES) | st.text(max_size=8) | _any_json},
    optional={"tile": _tileish, "tiles": _tileish, "extra": _any_json})
ACTION_JSON = _near_action | _any_json


def _offered(h, seat, obj) -> bool:
    """True when ``obj`` reads as an action offered to ``seat``: a spelling the protocol
    allows for an offered action (``"tile": null`` for no tile, say) is that action."""
    try:
        a = Action.from_json(obj)
    except IllegalAction:
        return False
    return a in h.pending().get(seat, [])


CHECKED: dict[str, int] = {}   # refusals checked, by profile (read by the report)


@pytest.mark.parametrize("profile", ["standard", "classic", "casual"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pool=st.lists(ACTION_JSON, min_size=4, max_size=16))
def test_arbitrary_json_actions_are_refused_and_change_nothing(profile, seed, pool):
    """One seeded hand per example, played by bots; at every decision point every seat
    is sent some of the example's JSON actions (pending or not)."""
    h = HandState(load_profile(profile), dealer=seed % 4, seed=seed, open_windows=bool(seed % 2))
    bots = make_bots(["random"] * 4, seed)
    rng = random.Random(seed)
    while not h.over:
        for seat in range(4):
            for obj in rng.sample(pool, min(4, len(pool))):
                if _offered(h, seat, obj):
                    continue
                before = fingerprint(h)
                with pytest.raises(IllegalAction) as e:
                    h.act(seat, obj)
                assert isinstance(e.value, UserError) and str(e.value)
                assert fingerprint(h) == before
                CHECKED[profile] = CHECKED.get(profile, 0) + 1
        for s in list(h.pending()):
            h.act(s, bots[s].act(lazy_observation(h, s)))
    for obj in pool:                                   # and after the end, nothing is offered
        with pytest.raises(IllegalAction):
            h.act(0, obj)


@pytest.mark.parametrize("kind", ["discard", "declare", "concealed_kong", "added_kong", "pon", "kong",
                                  "win", "chi"])
@pytest.mark.parametrize("flower", FLOWERS)
def test_an_action_naming_a_flower_is_refused_with_a_message(kind, flower):
    h = table(fill({}))
    before = fingerprint(h)
    obj = {"type": kind, "tile": flower}
    if kind == "chi":
        obj["tiles"] = "2f3f"
    with pytest.raises(IllegalAction) as e:
        h.act(0, obj)
    assert "花" in str(e.value) or "flower" in str(e.value)
    assert fingerprint(h) == before


@pytest.mark.parametrize("bad", [
    {"type": "discard", "tile": 5}, {"type": "discard", "tile": 2**80}, {"type": "discard", "tile": ["5m"]},
    {"type": "discard", "tile": {"5m": 1}}, {"type": ["discard"]}, {"type": {"a": 1}}, {"type": None},
    {}, {"tile": "5m"}, {"type": "discard", "tile": "5m", "seat": 1}, {"type": "discard", "tile": "5m" * 40},
    {"type": "chi", "tile": "3m", "tiles": "45m" * 30}, [[[]]], "discard", 3, None,
    {"type": "pass", "tile": "5m"}, {"type": "chi", "tile": "3m", "tiles": "4m"},
    {"type": "chi", "tile": "1z", "tiles": "2z3z"}, {"type": "discard", "tile": "9f"},
])
def test_malformed_actions_are_player_errors(bad):
    h = table(fill({}))
    before = fingerprint(h)
    with pytest.raises(IllegalAction):
        h.act(0, bad)
    assert fingerprint(h) == before


def test_the_action_cache_stays_bounded_under_a_flood_of_distinct_bad_actions():
    from twmahjong.engine import actions as mod
    rng = random.Random(7)
    h = table(fill({}))
    for i in range(50_000):
        r = rng.randrange(5)
        if r == 0:
            obj = {"type": "discard", "tile": rng.choice(FLOWERS + TILE_TEXT) + " " * rng.randrange(3)}
        elif r == 1:
            obj = {"type": "chi", "tile": rng.choice(TILE_TEXT + FLOWERS),
                   "tiles": rng.choice(TILE_TEXT + FLOWERS) + rng.choice(TILE_TEXT + FLOWERS)}
        elif r == 2:
            obj = {"type": "declare", "tile": f" {rng.choice(TILE_TEXT)}"}
        elif r == 3:
            obj = {"type": "pon", "tile": rng.choice(TILE_TEXT), "tiles": f"{i % 9 + 1}m"}
        else:
            obj = {"type": rng.choice(ACTION_TYPES), "tile": rng.choice(TILE_TEXT + FLOWERS),
                   "tiles": f"{i % 9 + 1}{'mps'[i % 3]}{(i // 9) % 9 + 1}p"}
        try:
            h.act(1 + i % 3, obj)
        except IllegalAction:
            pass
    assert len(mod._FROM_CACHE) <= mod._CACHE_MAX
    assert len(mod._CHI) <= 63                        # the real runs, and nothing else


def test_a_legal_action_read_twice_is_the_same_shared_object():
    a = Action.from_json({"type": "discard", "tile": "5m"})
    assert a is A.discard(4) is Action.from_json({"type": "discard", "tile": "5m"})
    assert Action.from_json({"type": "chi", "tile": "3m", "tiles": "45m"}) is A.chi(2, 3, 4)

"""Uniform secret windows (``open_windows=True``): a seat must not learn from the
shape of the table's decisions that another seat holds a pair, a run or a wait.

Two hands are dealt from the same seed, one with ``open_windows`` and one without,
and played with the same choices. The open hand must put every discard, every
加槓 and (in standard's 天聽 window) the deal through a window in which all the
other seats are pending; everything a seat can see apart from its own ``legal`` is
then the same whether or not somebody could claim; and the events — the record —
are identical to the plain hand's.
"""

from __future__ import annotations

import random

import pytest

from twmahjong.engine import HandState
from twmahjong.engine import actions as A
from twmahjong.profiles import load_profile

PROFILES = {n: load_profile(n) for n in ("standard", "classic", "casual")}
SECRET = ("claim", "rob_kong", "declare")


def _choose(rng: random.Random, legal: list) -> A.Action:
    """Claims and wins now and then, so windows with real options resolve both ways."""
    wins = [a for a in legal if a.type in ("win", "flower_win")]
    if wins and rng.random() < 0.7:
        return wins[0]
    kongs = [a for a in legal if a.type in ("concealed_kong", "added_kong")]
    if kongs and rng.random() < 0.5:
        return kongs[0]
    return rng.choice(legal)


def _public(obs: dict) -> dict:
    return {k: v for k, v in obs.items() if k != "legal"}


def _play_pair(profile: str, seed: int) -> tuple[int, int, int]:
    """Play the plain and the open hand side by side; (windows, empty windows, 加槓 windows)."""
    plain = HandState(PROFILES[profile], dealer=seed % 4, seed=seed)
    open_ = HandState(PROFILES[profile], dealer=seed % 4, seed=seed, open_windows=True)
    rng = random.Random(seed)
    windows = empty = robs = 0
    while not open_.over:
        pend = open_.pending()
        if open_.phase in SECRET:
            others = {s for s in range(4) if s != (open_.dealer if open_.phase == "declare"
                                                       else open_.claim_ctx[0])}
            if open_.phase != "declare" or open_.rules.declare_ready == "heavenly_earthly":
                assert set(pend) == others, (open_.phase, sorted(pend))
            real = {s for s, acts in pend.items() if acts != [A.PASS]}
            assert real == set(plain.pending()) or plain.phase != open_.phase
            windows += 1
            empty += not real
            robs += open_.phase == "rob_kong"
            views = [_public(open_.observation(s)) for s in range(4)]
            for s in sorted(pend):
                choice = A.PASS if s not in real else _choose(rng, pend[s])
                open_.act(s, choice)
                if s in real:
                    plain.act(s, choice)
            if not real:
                assert plain.phase != "claim" or plain.claim_ctx != open_.claim_ctx
            for s in range(4):
                assert views[s]["phase"] == views[0]["phase"]
        else:
            assert open_.phase == plain.phase
            assert set(pend) == set(plain.pending())
            for s in sorted(pend):
                choice = _choose(rng, pend[s])
                open_.act(s, choice)
                plain.act(s, choice)
    assert plain.over
    assert open_.events == plain.events
    assert open_.result == plain.result
    return windows, empty, robs


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_every_discard_opens_the_same_window_and_the_record_is_unchanged(profile):
    windows = empty = 0
    for seed in range(40):
        w, e, _ = _play_pair(profile, 1000 + seed)
        windows += w
        empty += e
    # most discards give nobody anything: without open windows those would be invisible
    assert empty > windows // 2 > 0


def test_a_seat_with_nothing_to_claim_sees_the_same_observation_as_one_beside_a_claimant():
    """Whatever another seat holds, a seat's view after a discard is phase claim with
    the discard named: compare two windows, one where nobody can claim, one where
    somebody can."""
    seen = {}
    for seed in range(200):
        h = HandState(PROFILES["standard"], dealer=0, seed=seed, open_windows=True)
        while not h.over and len(seen) < 2:
            pend = h.pending()
            if h.phase == "claim":
                real = any(acts != [A.PASS] for acts in pend.values())
                viewer = next(s for s, acts in pend.items() if acts == [A.PASS])  \
                    if any(acts == [A.PASS] for acts in pend.values()) else None
                if viewer is not None:
                    obs = h.observation(viewer)
                    seen.setdefault(real, (obs["phase"], obs["last_discard"]["seat"],
                                           obs.get("legal")))
                for s in sorted(pend):
                    h.act(s, A.PASS)
            else:
                s = next(iter(pend))
                h.act(s, next(a for a in pend[s] if a.type in ("discard", "pass", "draw")))
        if len(seen) == 2:
            break
    assert set(seen) == {True, False}
    assert seen[True][0] == seen[False][0] == "claim"
    assert seen[True][2] == seen[False][2] == [{"type": "pass"}]

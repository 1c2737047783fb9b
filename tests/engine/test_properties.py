"""Properties over many random-legal hands (hypothesis picks the seeds): no crash, all
144 tiles accounted for after every event, observations that hide what they must,
records that replay to the same state, settlements that sum to zero."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twmahjong.engine import HandState
from twmahjong.engine.observe import lazy_observation, observation
from twmahjong.engine.record import replay
from twmahjong.selfplay import make_bots, play_match
from twmahjong.profiles import load_profile

from .helpers import account

PROFILES = {n: load_profile(n) for n in ("standard", "classic", "casual")}
FULL = [4] * 34 + [1] * 8
seeds = st.integers(min_value=0, max_value=2**63 - 1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, profile=st.sampled_from(sorted(PROFILES)), dealer=st.integers(0, 3))
def test_every_tile_is_somewhere_after_every_step(seed, profile, dealer):
    h = HandState(PROFILES[profile], dealer=dealer, seed=seed)
    bots = make_bots(["random"] * 4, seed % 1000)
    assert account(h) == FULL
    while not h.over:
        for s in list(h.pending()):
            h.act(s, bots[s].act(lazy_observation(h, s)))
            assert account(h) == FULL
        hands = [sum(x.counts) + 3 * len(x.melds) for x in h.seats]
        for s, n in enumerate(hands):
            # 16 tiles, or 17 for the seat to move (kongs count as three)
            assert n == 16 or (n == 17 and h.phase == "turn" and s == h.turn_seat) or h.over
    if h.result["type"] == "win":
        assert sum(h.result["net"]) + h.result["fee"] == 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, profile=st.sampled_from(sorted(PROFILES)))
def test_observations_never_show_other_concealed_tiles(seed, profile):
    h = HandState(PROFILES[profile], dealer=seed % 4, seed=seed)
    bots = make_bots(["random"] * 4, seed % 1000)
    while not h.over:
        for seat in range(4):
            obs = observation(h, seat)
            text = json.dumps(obs)
            assert "wall" not in text.replace("wall_remaining", "")
            for other in range(4):
                for m in obs["melds"][other]:
                    if m["type"] == "concealed_kong" and other != seat:
                        assert m["tiles"] is None
            assert obs["concealed_count"] == [sum(x.counts) for x in h.seats]
        for s in list(h.pending()):
            h.act(s, bots[s].act(lazy_observation(h, s)))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, profile=st.sampled_from(sorted(PROFILES)))
def test_every_record_replays_to_the_identical_final_state(seed, profile):
    m = play_match(PROFILES[profile], seed=seed, rounds=1, max_hands=8)
    rec = json.loads(json.dumps(m.record()))
    again = replay(rec)
    assert again.events == m.events
    assert again.scores == m.scores and again.dealer == m.dealer
    assert again.dealer_streak == m.dealer_streak and again.round_wind == m.round_wind
    assert sum(m.scores) == -sum(r.get("fee", 0) for r in m.results)


def test_thousands_of_hands_run_and_settle_to_zero():
    """Many whole hands through the match (stops early to keep the suite quick)."""
    total = 0
    won = 0
    seed = 1000
    while total < 2100:        # a match of random bots may end at any hand: play on
        for name in ("standard", "classic", "casual"):
            m = play_match(PROFILES[name], seed=seed, rounds=4, max_hands=700)
            seed += 1
            total += m.hand_no
            won += sum(1 for r in m.results if r["type"] == "win")
            assert sum(m.scores) == -sum(r.get("fee", 0) for r in m.results)
    assert total >= 2100 and won > 0

"""What a bot counts as unseen is what is truly unseen from its seat: every tile it
holds, every river tile not taken, every exposed meld — a 吃's claimed tile counted
once, whichever tile of the run it was. Checked against the engine's own state at
every decision of many seeded hands."""

from __future__ import annotations

import pytest

from twmahjong.bots.view import View
from twmahjong.engine import HandState
from twmahjong.engine.observe import lazy_observation
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots


def true_unseen(h: HandState, seat: int) -> list[int]:
    """4 minus what ``seat`` can see, from the engine's state (not from any observation)."""
    seen = list(h.seats[seat].counts[:34])
    for st in h.seats:
        for k, taken in zip(st.discards, st.claimed):
            if not taken and k < 34:           # a taken tile lies in a meld now
                seen[k] += 1
    for owner, st in enumerate(h.seats):
        for m in st.melds:
            if m.type == "concealed_kong" and owner != seat:
                continue                       # face down
            for k in m.kinds:
                seen[k] += 1
    return [4 - n for n in seen]


def _positions(profile: str, hands: int):
    """(hand, seat) at every decision of ``hands`` bot-played hands."""
    for seed in range(hands):
        h = HandState(load_profile(profile), dealer=seed % 4, seed=1000 + seed)
        bots = make_bots(["L2"] * 4, seed)
        while not h.over:
            for s in list(h.pending()):
                yield h, s
                h.act(s, bots[s].act(lazy_observation(h, s)))


@pytest.mark.parametrize("profile", ["standard", "casual"])
def test_unseen_counts_match_the_engine_at_every_decision(profile):
    checked = wrong = chi_positions = 0
    for h, s in _positions(profile, 40):
        view = View.from_observation(h.observation(s))
        truth = true_unseen(h, s)
        checked += 1
        chi_positions += any(m.type == "chi" for st in h.seats for m in st.melds)
        if view.unseen != truth:
            wrong += 1
            bad = [k for k in range(34) if view.unseen[k] != truth[k]]
            pytest.fail(f"seat {s}, hand seed {h.seed}: unseen differs on kinds {bad}")
    print(f"\n{profile}: {checked} decisions checked ({chi_positions} with a 吃 on the table), {wrong} wrong")
    assert chi_positions > 100          # the case the old guess got wrong is well represented


def test_the_observation_names_the_tile_each_claimed_meld_took():
    for h, s in _positions("standard", 30):
        obs = h.observation(s)
        for owner, melds in enumerate(obs["melds"]):
            for shown, m in zip(melds, h.seats[owner].melds):
                if m.from_seat is None:
                    assert "claimed" not in shown
                else:
                    assert shown["from"] == m.from_seat and shown["claimed"] in _tiles(m.kinds)
                    assert shown["claimed"] == _tiles([m.claimed])[0]


def _tiles(kinds):
    from twmahjong.tiles import tile_str
    return [tile_str(k) for k in kinds]

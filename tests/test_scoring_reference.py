"""The table-driven scorer against the scorer it replaced (``scoring_reference``):
the same answer — total, every pattern line with its 台, the split text, the
reason — on every hand the scoring tests hold, under every built-in profile and
house variants that switch the less common rules on (嚦咕嚦咕, 花槓 added, no 平胡
requirements, a different shape preference), and on seeded random hands.
bench/score.py runs the same comparison on 100,000 hands.

The catalogue's bookkeeping is checked too: a condition reads only the facts its
group names (the scorer remembers a group's answers keyed on those facts), and a
gated group holds nothing when its gate fact is empty (the scorer skips it).
"""

from __future__ import annotations

import random

import pytest

from twmahjong import scoring, scoring_reference
from twmahjong.patterns import CATALOGUE, CONDITIONS, GATED, GROUPS, REQUIREMENTS, Facts
from twmahjong.profiles import load_profile
from twmahjong.scoring import HandSpec

from test_scoring import BAD, CASES, H


def _variant(base: str, **scoring_rules):
    p = load_profile(base)
    return p.model_copy(update={"scoring": p.scoring.model_copy(update=scoring_rules)})


PROFILES = {
    "standard": load_profile("standard"),
    "classic": load_profile("classic"),
    "casual": load_profile("casual"),
    "standard+lilgu": _variant("standard", lilgu=True),
    "classic+lilgu": _variant("classic", lilgu=True),
    "standard+add_flowers+bare_ping_hu": _variant("standard", flower_set_mode="add",
                                                  ping_hu_requires=()),
    "casual+prefer_closed": _variant("casual", prefer=("closed_wait", "edge_wait")),
}

# The hands of tests/test_scoring.py's fine-point tests, beside its CASES table.
FINE_POINTS = [
    H("111222333m456s99p88p", "9p"),
    H("123m456p789s22z55s", "2z", melds="pon:777p", rnd="S"),
    H("1479m258p369s123456z", "7z"),
    H("456m7p", "8p", melds="kong:1111m kong:2222p ckong:3333s akong:9999s"),
    H("1479m258p369s1234567z", None, flowers="12345678f"),
    H("1479m258p369s1234567z", None, flowers="12345678f", cond=["eight_immortals"]),
    H("11m22m33p44p55s66s77s99s", "9s"),
    H("11m22m33p44p55s66s78s99s", "9s"),
    H("555s77s88s", "8s", melds="pon:999p pon:111m pon:333p"),
    H("12234m456p789p66s", "3m", melds="chi:123s"),
]


def _held_hands() -> list[dict]:
    hands = [hand for _, hand, _ in CASES] + FINE_POINTS
    hands += [hand for _, hand, _ in BAD if isinstance(hand, dict)]
    return hands


def _same(spec: HandSpec, profile) -> None:
    new, old = scoring.score(spec, profile), scoring_reference.score(spec, profile)
    assert new == old, f"{profile.id}: {spec}"
    assert new.to_json() == old.to_json()


@pytest.mark.parametrize("name", PROFILES)
def test_every_held_hand_scores_as_before(name):
    compared = 0
    for hand in _held_hands():
        try:
            spec = HandSpec.from_json(hand)
        except scoring.ScoreInputError:
            continue
        _same(spec, PROFILES[name])
        compared += 1
    assert compared >= len(CASES) + len(FINE_POINTS) - 1


def test_seeded_random_hands_score_as_before():
    rng = random.Random(20261201)
    profiles = list(PROFILES.values())
    winners = 0
    for i in range(5000):
        spec = HandSpec.from_json(scoring_reference.random_hand(rng, complete=i % 8 != 7))
        profile = profiles[i % len(profiles)]
        _same(spec, profile)
        winners += scoring.score(spec, profile).winning
    assert winners > 3300          # the comparison is mostly about real wins


# --- the catalogue's bookkeeping ---------------------------------------------------------

class _Recorder:
    """Facts that write down every field a condition reads."""

    def __init__(self, facts: Facts):
        object.__setattr__(self, "_facts", facts)
        object.__setattr__(self, "read", set())

    def __getattr__(self, name):
        self.read.add(name)
        return getattr(self._facts, name)


def _random_facts(rng: random.Random) -> Facts:
    f = Facts()
    f.dealer, f.dealer_streak = rng.random() < 0.5, rng.randrange(4)
    f.self_drawn, f.no_exposed, f.exposed_only = (rng.random() < 0.5 for _ in range(3))
    f.one_tile_left, f.single_wait, f.has_honor = (rng.random() < 0.5 for _ in range(3))
    f.complete, f.five_sets, f.lilgu = (rng.random() < 0.7 for _ in range(3))
    f.seat_wind, f.round_wind = rng.randrange(4), rng.randrange(4)
    f.conditions = frozenset(c for c in CONDITIONS if rng.random() < 0.3)
    f.flowers = frozenset(k for k in range(34, 42) if rng.random() < rng.choice((0.3, 1.0)))
    f.suits, f.kongs = rng.randrange(4), rng.randrange(5)
    f.flower_set_mode = rng.choice(("replace", "add"))
    f.ping_hu_requires = tuple(r for r in REQUIREMENTS if rng.random() < 0.5)
    f.honor_pungs = sum(1 << k for k in range(27, 34) if rng.random() < 0.5)
    f.honor_pair = rng.choice((-1, *range(27, 34)))
    f.pungs, f.concealed_pungs = rng.randrange(6), rng.randrange(6)
    f.shape = rng.choice((None, "edge", "closed", "single", "open", "double_pung"))
    return f


def test_conditions_read_only_their_groups_facts():
    rng = random.Random(7)
    for _ in range(500):
        facts = _random_facts(rng)
        for p in CATALOGUE:
            rec = _Recorder(facts)
            p.count(rec)
            assert rec.read <= set(GROUPS[p.group]), (p.id, rec.read - set(GROUPS[p.group]))


def test_a_gated_group_holds_nothing_without_its_gate():
    rng = random.Random(8)
    empty = {"dealer": False, "honor_pungs": 0, "flowers": frozenset(), "conditions": frozenset()}
    for _ in range(500):
        f = _random_facts(rng)
        for p in CATALOGUE:
            if p.group in GATED:
                gate = GROUPS[p.group][0]
                setattr(f, gate, empty[gate])
                assert not p.count(f), p.id

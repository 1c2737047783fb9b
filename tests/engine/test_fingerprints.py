"""Self-play gives byte-identical hands to main before the hot-path speed work: the
first hands of every group of bench/fingerprint.py (each profile; random, efficiency,
L1-L4 and mixed tables; open windows) hash as they did at c229b97.
The full comparison (30,000 hands and whole matches) is
``.venv/bin/python bench/fingerprint.py``."""

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def _fingerprint():
    spec = importlib.util.spec_from_file_location("fingerprint", BENCH / "fingerprint.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


FP = _fingerprint()
REFERENCE = json.loads((BENCH / "fingerprints.json").read_text())


@pytest.mark.parametrize("profile_id", ["standard", "classic", "casual"])
@pytest.mark.parametrize("group", FP.GROUPS, ids=[g[0] for g in FP.GROUPS])
def test_the_first_hands_of_each_group_are_those_main_played(profile_id, group):
    name, bots, _hands, open_windows = group
    check, _, _ = FP.group_hashes(profile_id, bots, FP.CHECK, open_windows)
    assert check == REFERENCE[f"{profile_id}/{name}"]["check"]

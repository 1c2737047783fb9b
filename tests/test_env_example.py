"""examples/linear_policy.py runs end to end in seconds (the full run is minutes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "linear_policy.py"


def _load():
    spec = importlib.util.spec_from_file_location("linear_policy", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_smoke_trains_saves_and_plays_the_arena(tmp_path: Path, capsys) -> None:
    mod = _load()
    weights = tmp_path / "policy.npz"
    assert mod.main(["--smoke", "--weights", str(weights), "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "trained on" in out and "held-out" in out
    assert "arena: 8 hands (2 duplicate deals)" in out and "linear - random:" in out
    data = np.load(weights)
    assert data["W"].shape == (mod.OBS_SIZE, mod.ACTION_COUNT) and data["b"].shape == (146,)


def test_the_policy_answers_a_bot_observation_with_a_legal_action() -> None:
    from twmahjong.engine import HandState
    from twmahjong.engine.observe import observation
    from twmahjong.profiles import load_profile

    mod = _load()
    rng = np.random.default_rng(0)
    params = {"W": rng.normal(size=(mod.OBS_SIZE, 146)).astype(np.float32),
              "b": np.zeros(146, np.float32)}
    h = HandState(load_profile("standard"), dealer=0, seed=9)
    seat = next(iter(h.pending()))
    obs = observation(h, seat)
    assert mod.choose(params, obs) in obs["legal"]

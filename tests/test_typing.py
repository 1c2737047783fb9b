"""The typed public modules pass mypy in strict mode (config: pyproject.toml [tool.mypy]).

Gated: the public modules — tiles, hand, profiles, scoring (with its
pattern catalogue), settlement, engine, bots, env — and selfplay.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GATED = {"src/twmahjong/tiles.py", "src/twmahjong/hand.py", "src/twmahjong/profiles",
         "src/twmahjong/patterns.py", "src/twmahjong/scoring.py", "src/twmahjong/settlement.py",
         "src/twmahjong/engine", "src/twmahjong/bots", "src/twmahjong/env",
         "src/twmahjong/selfplay.py"}

pytest.importorskip("mypy")


def test_the_gated_modules_are_configured_strict() -> None:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert cfg["strict"] is True
    assert GATED <= set(cfg["files"])
    assert (ROOT / "src" / "twmahjong" / "py.typed").is_file()


def test_mypy_strict_passes() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]

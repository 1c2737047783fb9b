"""The docs site — hand-written guides plus the API reference from the docstrings —
builds offline with ``mkdocs build --strict`` (any broken link or bad reference fails)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    env_page = (site / "api" / "env" / "index.html").read_text(encoding="utf-8")
    for name in ("SingleSeatEnv", "TwmjEnv", "encode_json", "chi_low"):
        assert name in env_page, name
    assert "HandState" in (site / "api" / "engine" / "index.html").read_text(encoding="utf-8")
    assert (site / "architecture" / "index.html").is_file()

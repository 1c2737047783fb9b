"""The docs site — hand-written guides plus the API reference from the docstrings —
builds offline with ``mkdocs build --strict`` (any broken link or bad reference fails),
and the docs speak of the software alone: no issue numbers, no story of who did what."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent



def test_mkdocs_build_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    env_page = (site / "api" / "env" / "index.html").read_text(encoding="utf-8")
    for name in ("SingleSeatEnv", "TwmjEnv", "encode_json", "chi_low"):
        assert name in env_page, name
    assert "HandState" in (site / "api" / "engine" / "index.html").read_text(encoding="utf-8")
    assert (site / "architecture" / "index.html").is_file()


# What a reader of the docs, the README, a docstring or a comment must not meet: the
# tracker's issue numbers ("issue 12", "issues 7, 10 and 17", "(#10)"), work stories
# ("three other engineers' work") and status marks ("(done)"). A measurement keeps its
# command, commit and date; those are not matched.
NOT_FOR_READERS = re.compile(
    r"\bissues? #?\d+|\bissue #?\d+'s|\(#\d+[,)]|^\| #\d+ |engineers?'? work|\((done|todo|wip)\)",
    re.IGNORECASE | re.MULTILINE)
READ = ("*.md", "*.py", "*.js", "*.css", "*.html", "*.toml", "*.yml")


def _read_by_users() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "mkdocs.yml"]
    for top in (ROOT / "docs", ROOT / "src" / "twmahjong"):
        for pattern in READ:
            files += sorted(top.rglob(pattern))
    return files


def test_the_docs_speak_of_the_software_alone() -> None:
    found = []
    for path in _read_by_users():
        text = path.read_text(encoding="utf-8")
        for m in NOT_FOR_READERS.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)!r}")
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("text", [
    "# Running the server (issue 12)", "see issues 7, 10 and 17", "Issue #14's comparison",
    "(自動調整難度, issue #4)", "| #10 an action", "shared with three other engineers' work",
    "## tiles.py (done)"])
def test_the_check_catches_what_it_is_for(text: str) -> None:
    assert NOT_FOR_READERS.search(text)


@pytest.mark.parametrize("text", [
    "main c229b97 before the change", "`issue_id`", "2026-12-01, on this 2-core machine",
    "| # | rule | where | tests |", "color: #10a0ff"])
def test_the_check_leaves_alone_what_readers_need(text: str) -> None:
    assert not NOT_FOR_READERS.search(text)

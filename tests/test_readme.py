"""The README's examples are what the program prints, from a fresh clone.

A library user copies the README first, so a drifted example is a broken promise:
the README once showed `twmj selfplay --hands 200 --seed 1` winning 52 hands for
seat 0 and 2.23 台 a win long after the bots and the profile had changed the run
to 44. Every command of every shell block (```sh and ```console) is either run
here — from the checkout's top folder, as a newcomer would after `make run` and
`. .venv/bin/activate`: the venv's bin first on PATH, no file but the clone's —
or listed in NOT_RUN with the reason and the test that covers it instead. A
console example's shown lines must come out, in order; the library example's
printed lines must equal its comments.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RUNNABLE = re.compile(r"^(twmj (score|settle|waits|profiles|selfplay)\b|twmj --help$|echo |"
                      r"cat examples/[\w.]+$)")

# Commands of the README's shell blocks that this file does not run: why, and what
# tests them instead. A new example must be runnable (RUNNABLE) or named here.
NOT_RUN = {
    "make run": "creates .venv and serves until Ctrl-C: tests/test_packaging.py checks what "
                "it installs and the HOST/PORT it passes, tests/server/test_ctrl_c.py the stop",
    "make test": "is this test suite",
    ". .venv/bin/activate": "changes the calling shell's PATH; every command here runs with the "
                            "venv's bin first on PATH, which is what it does",
    "twmj serve": "serves until stopped: tests/server/test_serve_process.py, tests/test_packaging.py",
    "export TWMJ_SECRET_KEY=": "sets the cluster's shared key for the two `twmj serve` lines after "
                              "it (tests/server/test_redis_*)",
    "twmj play ": "an interactive terminal game: tests/tui/test_cli.py",
    "curl ": "fetches a finished game from a running server: tests/server/test_fairness.py",
    "twmj verify ": "checks a game record saved from a server: tests/server/test_fairness.py",
    "twmj arena --hands 4000 ": "4,000 duplicate deals take minutes of CPU: "
                                "tests/bots/test_cli_bots.py runs the command on a few",
}


def blocks(lang: str) -> list[str]:
    text = README.read_text(encoding="utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def steps(block: str) -> list[tuple[str, list[str]]]:
    """A console block as (command, the lines the README shows it printing)."""
    out: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            out.append((line[2:].split("  #")[0].strip(), []))
        elif out:
            out[-1][1].append(line)
    return out


def sh_commands(block: str) -> list[str]:
    """A ```sh block's commands, comments cut."""
    return [cmd for line in block.splitlines()
            if (cmd := line.split("  #")[0].strip()) and not cmd.startswith("#")]


def is_runnable(cmd: str) -> bool:
    return all(RUNNABLE.match(part.strip()) for part in cmd.split("|"))


def not_run(cmd: str) -> str | None:
    return next((why for start, why in NOT_RUN.items() if cmd.startswith(start)), None)


def runnable(block: str) -> bool:
    """Every command of the block, each part of a pipe, is quick and offline."""
    cmds = [cmd for cmd, _ in steps(block)]
    return bool(cmds) and all(is_runnable(c) for c in cmds)


def runnable_blocks() -> list[str]:
    return [b for b in blocks("console") if runnable(b)]


def every_command() -> list[str]:
    return ([cmd for b in blocks("console") for cmd, _ in steps(b)]
            + [cmd for b in blocks("sh") for cmd in sh_commands(b)])


def _env() -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
            "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}


def test_every_shell_example_is_run_or_says_why_not():
    unaccounted = [c for c in every_command() if not is_runnable(c) and not_run(c) is None]
    assert unaccounted == [], ("README shell commands neither run by tests/test_readme.py nor "
                               f"listed in its NOT_RUN: {unaccounted}")
    assert [c for c in every_command() if is_runnable(c) and not_run(c)] == []
    for start in NOT_RUN:                      # no stale entries
        assert any(c.startswith(start) for c in every_command()), start


def test_the_files_the_examples_read_are_in_the_clone():
    for cmd in every_command():
        for name in re.findall(r"(?:<|cat) ((?:examples|docs)/[\w./-]+)", cmd):
            tracked = subprocess.run(["git", "ls-files", "--error-unmatch", name], cwd=ROOT,
                                     capture_output=True, text=True)
            assert (ROOT / name).is_file() and tracked.returncode == 0, name


@pytest.mark.parametrize("cmd", [c for b in blocks("sh") for c in sh_commands(b) if is_runnable(c)])
def test_a_readme_shell_line_runs(cmd: str):
    run = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=_env(), capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, (cmd, run.stderr)
    assert "Traceback" not in run.stderr


def test_the_readme_has_the_examples_this_file_runs():
    commands = [cmd for b in runnable_blocks() for cmd, _ in steps(b)]
    for expected in ("twmj score < examples/hand.json", "twmj waits", "twmj selfplay", "twmj profiles",
                     "twmj settle"):
        assert any(expected in c for c in commands), expected


def shown_in_order(shown: list[str], printed: str) -> None:
    """Every line the README shows appears in what was printed, in the same order
    (the README may leave lines out: a table's title, the rows after the ones it makes a
    point of)."""
    lines = [line.rstrip() for line in printed.splitlines()]
    at = 0
    for want in (s.rstrip() for s in shown):
        if not want.strip():
            continue
        try:
            at = lines.index(want, at) + 1
        except ValueError:
            raise AssertionError(f"the README shows {want!r}, which is not printed "
                                 f"(after line {at}):\n{printed}") from None


@pytest.mark.parametrize("block", runnable_blocks(), ids=lambda b: steps(b)[0][0][:40])
def test_a_readme_console_example_prints_what_it_shows(block: str):
    for cmd, shown in steps(block):
        run = subprocess.run(["bash", "-c", cmd], cwd=ROOT, env=_env(), capture_output=True,
                             text=True, timeout=300)
        errors = [s for s in shown if s.startswith("twmj: error:")]
        if errors:
            assert run.returncode == 2, (cmd, run.returncode, run.stderr)
            assert run.stderr.strip().splitlines()[-1] == errors[0], run.stderr
            assert "Traceback" not in run.stderr
            shown = [s for s in shown if s not in errors]
        else:
            assert run.returncode == 0, (cmd, run.stderr)
        shown_in_order(shown, run.stdout)


def test_the_readme_library_example_prints_its_comments():
    """The library block's printed lines are written as comments: on the print line
    itself, or on the lines right after the last print."""
    code = next(b for b in blocks("python") if "from twmahjong.scoring import" in b)
    expected: list[str] = []
    for line in code.splitlines():
        if line.startswith("print(") and "  # " in line:
            expected.append(line.split("  # ", 1)[1].strip())
        elif line.startswith("# "):
            expected.append(line[2:].strip())
    assert len(expected) >= 2
    buf = io.StringIO()
    with redirect_stdout(buf):
        exec(compile(code, "README.md", "exec"), {})
    assert [line.strip() for line in buf.getvalue().splitlines()] == expected

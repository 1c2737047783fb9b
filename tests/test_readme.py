"""The README's examples are what the program prints.

A library user copies the README first, so a drifted example is a broken promise:
the README once showed `twmj selfplay --hands 200 --seed 1` winning 52 hands for
seat 0 and 2.23 台 a win long after the bots and the profile had changed the run
to 44. Every console example whose commands are quick and offline (score, settle,
waits, profiles, selfplay, a bad hand) is run here, and each line the README
shows must come out, in order; the library example's printed lines must equal
its comments. Examples that need a server, a terminal or a record (play, serve,
verify, curl) are left to the tests of those commands.
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

README = Path(__file__).resolve().parents[1] / "README.md"
RUNNABLE = re.compile(r"^(twmj (score|settle|waits|profiles|selfplay)\b|echo |cat hand\.json$)")


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


def runnable(block: str) -> bool:
    """Every command of the block, each part of a pipe, is quick and offline."""
    cmds = [cmd for cmd, _ in steps(block)]
    return bool(cmds) and all(RUNNABLE.match(part.strip()) for cmd in cmds for part in cmd.split("|"))


def runnable_blocks() -> list[str]:
    return [b for b in blocks("console") if runnable(b)]


def input_files() -> dict[str, str]:
    """``$ cat FILE`` anywhere in the README shows a file that later examples read."""
    return {cmd.split()[1]: "\n".join(shown) + "\n"
            for b in blocks("console") for cmd, shown in steps(b) if cmd.startswith("cat ")}


def test_the_readme_has_the_examples_this_file_runs():
    commands = [cmd for b in runnable_blocks() for cmd, _ in steps(b)]
    for expected in ("twmj score < hand.json", "twmj waits", "twmj selfplay", "twmj profiles",
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
def test_a_readme_console_example_prints_what_it_shows(block: str, tmp_path: Path):
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
           "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}
    for name, text in input_files().items():       # the README shows its input files: write them
        (tmp_path / name).write_text(text, encoding="utf-8")
    for cmd, shown in steps(block):
        if cmd.startswith("cat "):
            continue
        run = subprocess.run(["bash", "-c", cmd], cwd=tmp_path, env=env, capture_output=True,
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

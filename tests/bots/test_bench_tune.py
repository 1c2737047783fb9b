"""bench/tune.py reads its seat specs or says, in one line, which one it cannot."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from twmahjong.bots.policy import LEVELS

TUNE = Path(__file__).resolve().parents[2] / "bench" / "tune.py"


def _tune():
    spec = importlib.util.spec_from_file_location("tune", TUNE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_spec_changes_only_the_named_weights():
    p = _tune().parse("L4:flush_bias=0,lookahead=0,declare_waits=3")
    assert (p.flush_bias, p.lookahead, p.declare_waits) == (0.0, False, 3)
    assert p.defence == LEVELS[4].defence and p.level == 4


@pytest.mark.parametrize("bad, says", [
    ("L4:nope=1", "'nope=1' in 'L4:nope=1' is not name=value for a Params weight"),
    ("L4:flow", "'flow' in 'L4:flow' is not name=value"),
    ("L4:noise=lots", "noise='lots' in 'L4:noise=lots': not a float"),
    ("L9", "unknown seat 'L9'"),
])
def test_a_bad_spec_is_one_line_not_a_traceback(bad, says):
    r = subprocess.run([sys.executable, str(TUNE), bad, "L4", "--deals", "1"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and says in r.stderr and "Traceback" not in r.stderr

"""A player checks a finished game's fairness from its record alone.

The old server drew every hand seed from a Mersenne Twister over a 63-bit match
seed and committed only to hands. Now the match seed is 128 bits from ``secrets``,
its hash is shown at the table before the first deal, every wall seed is SHA-256
of it, and ``twmj verify`` checks all of that and replays the moves.
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_helpers import HANG, Client

from twmahjong.bots.policy import PolicyBot, level_params
from twmahjong.server.play.fairness import FairnessError, verify


@pytest.fixture
def finished(make_live):
    """A whole 1-圈 game played out by level-2 bots; its record and the snapshot's table."""
    live = make_live(disconnect_grace=0.0,
                     make_bot=lambda name, seed: PolicyBot(level_params(2), seed))
    token = live.register("checker")

    async def start():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "casual", "stake": "low"})
        await c.expect("matched")
        snap = await c.expect("snapshot")
        await c.close()
        return c, snap
    c, snap = asyncio.run(start())
    deadline = time.monotonic() + HANG
    while (r := live.http("GET", f"/api/v1/games/{c.game_id}")).status_code != 200:
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.2)
    return r.json(), snap["table"]


def test_a_real_games_record_verifies_and_every_broken_promise_is_named(finished, tmp_path):
    """One whole game (they are slow to play), every check on it."""
    rec, table = finished
    _verifies(rec, table)
    _breaks_are_named(rec)
    _cli(rec, tmp_path)


def _verifies(rec, table):
    assert table["commitment"] == rec["commitment"]        # shown before the first deal
    assert int(rec["seed"]).bit_length() > 64               # 128 random bits (p ≈ 2^-64 to fail)
    out = verify(rec)
    assert out["hands"] == len(rec["hands"]) >= 4


def _breaks_are_named(rec):
    bad = copy.deepcopy(rec)
    bad["seed"] = str(int(rec["seed"]) + 1)
    with pytest.raises(FairnessError, match="commitment shown at the table"):
        verify(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][1]["seed"] = str(int(rec["hands"][1]["seed"]) ^ 1)
    with pytest.raises(FairnessError, match="hand 2: its wall seed is not the one"):
        verify(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][0]["commitment"] = "0" * 64
    with pytest.raises(FairnessError, match="hand 1: .*commitment published at its deal"):
        verify(bad)
    bad = copy.deepcopy(rec)
    bad["hands"][0]["net"] = [n + 1 if i == 0 else n for i, n in enumerate(rec["hands"][0]["net"])]
    with pytest.raises(FairnessError, match="hand 1: the moves give"):
        verify(bad)
    bad = copy.deepcopy(rec)
    moves = bad["hands"][0]["actions"]
    first_discard = next(m for m in moves if m["action"]["type"] == "discard")
    first_discard["action"]["tile"] = "1f"          # a move the rules never offered
    with pytest.raises(FairnessError, match="hand 1, move .*: does not replay"):
        verify(bad)


def _cli(rec, tmp_path):
    """`twmj verify` says fair, or names the break in one line (exit 2)."""
    twmj = [sys.executable, "-c", "from twmahjong.cli import main; main()"]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    r = subprocess.run([*twmj, "verify", str(good)], capture_output=True, text=True,
                       timeout=HANG)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("fair: game " + rec["game_id"])
    rec["seed"] = "12345"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    r = subprocess.run([*twmj, "verify", str(bad)], capture_output=True, text=True,
                       timeout=HANG)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "twmj: error: the match seed does not hash to the commitment shown at the table"]
    r = subprocess.run([*twmj, "verify", str(Path(tmp_path) / "missing.json")],
                       capture_output=True, text=True, timeout=HANG)
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr

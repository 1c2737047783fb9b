"""What one move's observations cost: this tree against a reference tree, in one run.

At every change of a table the server builds each seated player's observation and
encodes it (``Seating._send_updates``: ``observation`` then ``protocol.message``);
in a load run's profile that is the largest share of a worker's CPU after the event
loop. This bench plays the same seeded hands with random bots in two source trees
— this checkout and ``--ref`` (for example a ``git worktree add`` of the commit
before a change) — and after every move times the four observations and their
encoding, in CPU time. The two sides run in their own processes, alternating round
by round, so the machine's load falls on both alike.

    git worktree add /tmp/ref HEAD~1
    .venv/bin/python bench/observe_ab.py --ref /tmp/ref --hands 40 --rounds 6

Prints CPU µs per move (four observations encoded) for each side, the median of the
rounds, and the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve()
TREE = HERE.parent.parent


def _work(hands: int, seed: int) -> dict:
    """One side's round, run inside the side's own process (its tree on sys.path)."""
    import orjson

    from twmahjong.engine.actions import legal_json
    from twmahjong.engine.observe import LazyObservation, observation
    from twmahjong.engine.table import HandState
    from twmahjong.profiles import load_profile
    from twmahjong.selfplay import make_bots

    profile = load_profile("standard")
    spent = 0.0
    moves = 0
    for n in range(hands):
        bots = make_bots(["random"] * 4, seed + n)
        h = HandState(profile, dealer=n % 4, seed=seed + n)
        while not h.over:
            for s, acts in h.pending().items():
                h.act(s, bots[s].act(LazyObservation(h, s, legal_json(acts))))
                if h.over:
                    break
            t = time.process_time()
            for seat in range(4):
                orjson.dumps({"v": 1, "type": "update", "observation": observation(h, seat)})
            spent += time.process_time() - t
            moves += 1
    return {"us_per_move": spent / moves * 1e6, "moves": moves}


def _side(tree: Path, hands: int, seed: int) -> dict:
    env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}"}
    code = (f"import sys, json; sys.path.insert(0, {str(HERE.parent)!r}); "
            f"import observe_ab; print(json.dumps(observe_ab._work({hands}, {seed})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode:
        sys.exit(f"observe_ab: the side at {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", type=Path, required=True, help="the reference source tree")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    if not (a.ref / "src" / "twmahjong").is_dir():
        sys.exit(f"observe_ab: {a.ref} has no src/twmahjong")
    runs: dict[str, list[float]] = {"ref": [], "this": []}
    moves = 0
    for r in range(a.rounds):
        for name, tree in (("ref", a.ref), ("this", TREE))[:: 1 if r % 2 == 0 else -1]:
            res = _side(tree, a.hands, a.seed)
            runs[name].append(res["us_per_move"])
            moves = res["moves"]
    ref, this = statistics.median(runs["ref"]), statistics.median(runs["this"])
    print(f"observations of a move, 4 seats encoded ({a.hands} hands, {moves} moves, "
          f"{a.rounds} rounds, CPU time):")
    print(f"  ref  {ref:8.1f} µs  rounds {' '.join(f'{x:.0f}' for x in runs['ref'])}")
    print(f"  this {this:8.1f} µs  rounds {' '.join(f'{x:.0f}' for x in runs['this'])}")
    print(f"  this / ref = {this / ref:.3f}")


if __name__ == "__main__":
    main()

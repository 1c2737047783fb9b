"""Fingerprints of self-play records: the same seeds must give byte-identical
hands (events and results) before and after any change to the engine's hot path.

    .venv/bin/python bench/fingerprint.py            # compare with bench/fingerprints.json
    .venv/bin/python bench/fingerprint.py --write    # record them (done once, on main c229b97)

Each group plays ``hands`` hands of one profile with one table of bots, in process
as ``twmj selfplay`` does (``play_hand``), each hand from its own seed and dealer,
and hashes every hand's events and result as canonical JSON (SHA-256, chained).
A group of whole matches hashes ``Match.record()`` and the scores too. The
fingerprint after the first ``CHECK`` hands of every group is kept as well, for
``tests/engine/test_fingerprints.py`` (the same comparison in a few seconds).

The reference was written by this script at main commit c229b97, before the
hot-path changes; a changed hash names the group and the first hand
that differs only by re-running both trees, so keep the groups small and many.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile, profile_names
from twmahjong.selfplay import make_bots, play_hand, play_match

REFERENCE = Path(__file__).with_name("fingerprints.json")
CHECK = 40                      # hands per group in the quick test

# (name, bots, hands in the full run, open_windows)
GROUPS: list[tuple[str, list[str], int, bool]] = [
    ("random", ["random"] * 4, 5000, False),
    ("random-open", ["random"] * 4, 1000, True),
    ("efficiency", ["efficiency"] * 4, 1000, False),
    ("L1", ["L1"] * 4, 500, False),
    ("L2", ["L2"] * 4, 500, False),
    ("L3", ["L3"] * 4, 500, False),
    ("L4", ["L4"] * 4, 500, False),
    ("mixed", ["L1", "L2", "L3", "L4"], 500, False),
    ("mixed-open", ["random", "efficiency", "L2", "L4"], 500, True),
]
MATCH_SEEDS = 4                 # whole one-round matches per profile (random and mixed bots)


def _canon(obj: object) -> bytes:
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=sorted).encode()


def group_hashes(profile_id: str, bots_spec: list[str], hands: int, open_windows: bool,
                 check: int = CHECK) -> tuple[str, str, int]:
    """(hash after ``check`` hands, hash after ``hands``, hands won) for one group."""
    profile = load_profile(profile_id)
    seed = 7 + sum(map(ord, profile_id))
    bots = make_bots(bots_spec, seed)
    h_all = hashlib.sha256()
    first = ""
    wins = 0
    for i in range(hands):
        h = HandState(profile, dealer=i % 4, seed=seed * 1_000_003 + i, open_windows=open_windows)
        play_hand(h, bots)
        wins += h.result is not None and h.result["type"] == "win"
        h_all.update(_canon(h.events))
        h_all.update(_canon(h.result))
        if i + 1 == check:
            first = h_all.hexdigest()
    return first, h_all.hexdigest(), wins


def match_hashes(profile_id: str, n: int) -> str:
    h_all = hashlib.sha256()
    profile = load_profile(profile_id)
    for seed in range(n):
        for spec in (["random"] * 4, ["L1", "L2", "L3", "L4"]):
            m = play_match(profile, seed=seed, rounds=1, bots=make_bots(spec, seed))
            h_all.update(_canon(m.record()))
            h_all.update(_canon(m.scores))
    return h_all.hexdigest()


def fingerprints(full: bool, out=sys.stdout) -> dict[str, dict[str, object]]:
    res: dict[str, dict[str, object]] = {}
    for pid in profile_names():
        for name, spec, hands, ow in GROUPS:
            t0 = time.perf_counter()
            first, whole, wins = group_hashes(pid, spec, hands if full else CHECK, ow)
            key = f"{pid}/{name}"
            res[key] = {"hands": hands, "check": first}
            if full:
                res[key].update(all=whole, wins=wins)
            print(f"{key:24} {hands if full else CHECK:5} hands {wins:4} won  "
                  f"{whole[:16]}  {time.perf_counter() - t0:6.1f} s", file=out, flush=True)
        if full:
            res[f"{pid}/matches"] = {"all": match_hashes(pid, MATCH_SEEDS)}
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write {REFERENCE.name} instead of comparing")
    ap.add_argument("--quick", action="store_true", help=f"only the first {CHECK} hands of each group")
    args = ap.parse_args()
    got = fingerprints(full=not args.quick)
    if args.write:
        REFERENCE.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"wrote {REFERENCE}")
        return
    ref = json.loads(REFERENCE.read_text())
    bad = []
    total = 0
    for key, val in got.items():
        want = ref[key]
        for field in ("check", "all"):
            if field in val and val[field] != want.get(field):
                bad.append(f"{key} {field}")
        total += int(val.get("hands", 0)) if "all" in val else CHECK if "check" in val else 0
    print(f"{total} hands (+ matches) compared: " + ("identical" if not bad else "DIFFER: " + ", ".join(bad)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

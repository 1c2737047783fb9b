"""Hands per second of the table with four random-legal bots, on one core.

    .venv/bin/python bench/selfplay.py --hands 2000 --profile standard

Each hand is dealt, played to its end (win or 荒局), scored and settled; bots get
each seat's observation exactly as in ``twmj selfplay``. The figure is CPU time
(``time.process_time``), so other load on the machine does not count against it.
Target: >= 300 hands/s in CPython.
"""

from __future__ import annotations

import argparse
import time

from twmahjong.engine.selfplay import Summary, make_bots, play_hand
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    profile = load_profile(args.profile)
    bots = make_bots(["random"] * 4, args.seed)
    summary = Summary()
    HandState(profile, dealer=0, seed=0)          # warm the caches
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(args.hands):
        h = HandState(profile, dealer=i % 4, seed=args.seed * 1_000_003 + i)
        play_hand(h, bots)
        summary.add(h)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    s = summary.to_json()
    print(f"{args.hands} hands ({s['drawn_hands']} drawn) profile {args.profile}: "
          f"{args.hands / cpu:.0f} hands/s CPU, {args.hands / wall:.0f} hands/s wall "
          f"(target >= 300)")


if __name__ == "__main__":
    main()

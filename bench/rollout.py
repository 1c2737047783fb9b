"""Rollouts per second from the middle of a hand, as a search would run them.

    .venv/bin/python bench/rollout.py --positions 30 --n 20 --policy efficiency

Positions are taken from hands played by L2 bots (one every few decisions, in the
turn or a claim window of the seat to decide). From each, ``--n`` playouts run to
the end with ``--policy`` at every seat, three ways: the true hand copied
(perfect information), a world sampled from the deciding seat's view
(``determinize``), and the sampling alone. Figures are CPU time
(``time.process_time``) so other load on the machine counts against them less;
compare the rows of one run.
"""

from __future__ import annotations

import argparse
import random
import time

from twmahjong.bots import make_bot
from twmahjong.engine.observe import lazy_observation
from twmahjong.engine.rollout import determinize, rollout
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots


def positions(profile, count: int, seed: int):
    out, i = [], 0
    while len(out) < count:
        h = HandState(profile, dealer=i % 4, seed=seed * 1_000_003 + i)
        bots = make_bots(["L2"] * 4, i)
        step, i = 0, i + 1
        while not h.over and len(out) < count:
            pend = list(h.pending())
            if h.phase in ("turn", "claim") and step > 12 and step % 17 == 0:
                out.append((h, pend[0]))
                break                  # one position a hand: the hand object is kept as is
            step += 1
            for s in pend:
                h.act(s, bots[s].act(lazy_observation(h, s)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--n", type=int, default=20, help="playouts per position")
    ap.add_argument("--policy", default="efficiency")
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    prof = load_profile(args.profile)
    pos = positions(prof, args.positions, args.seed)
    bots = [make_bot(args.policy, i) for i in range(4)]
    total = args.positions * args.n
    rows = []
    for label, sampled in (("true hand copied", False), ("world sampled per playout", True)):
        rng = random.Random(args.seed)
        t0 = time.process_time()
        for h, seat in pos:
            rollout(h, bots, n=args.n, seat=seat if sampled else None, rng=rng)
        dt = time.process_time() - t0
        rows.append((label, total / dt, 1000 * dt / total))
    rng = random.Random(args.seed)
    t0 = time.process_time()
    for h, seat in pos:
        for _ in range(args.n):
            determinize(h, seat, rng)
    dt = time.process_time() - t0
    print(f"{args.positions} positions x {args.n} playouts, policy {args.policy}, {args.profile}")
    print(f"{'':28} {'playouts/s':>11} {'ms each':>9}")
    for label, rate, ms in rows:
        print(f"{label:28} {rate:11.1f} {ms:9.2f}")
    print(f"{'sampling a world alone':28} {total / dt:11.1f} {1000 * dt / total:9.3f}")


if __name__ == "__main__":
    main()

"""Steps per second of ``twmahjong.env`` against the raw engine loop, in one run.

    .venv/bin/python bench/env.py --hands 300 --repeat 3

A *step* is one decision by one seat. Three loops deal the same hands (same seeds)
and play uniformly random legal moves (so the games differ, and the step counts
printed beside each rate differ a little):

* ``engine``: ``HandState.pending()`` / ``act()`` with a random offered ``Action`` —
  the floor any wrapper stands on;
* ``env step``: the AEC environment, choosing from the legal indices without building
  observations (``last(observe=False)``) — the cost of the wrapper's bookkeeping;
* ``env observe+step``: ``last()`` every step, the observation vector and action
  mask built, then ``step`` — what a learner pays.

CPU time (``time.process_time``), the median of ``--repeat`` runs; the ratio to the
engine line is printed beside each env line.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from twmahjong.engine.table import HandState
from twmahjong.env import env
from twmahjong.profiles import load_profile


def engine_loop(profile: str, hands: int, seed: int) -> int:
    prof = load_profile(profile)
    rng = random.Random(seed)
    steps = 0
    for i in range(hands):
        h = HandState(prof, dealer=i % 4, seed=seed * 1_000_003 + i)
        while not h.over:
            pend = h.pending()
            s = min(pend)
            h.act(s, rng.choice(pend[s]))
            steps += 1
    return steps


def env_loop(profile: str, hands: int, seed: int, observe: bool) -> int:
    e = env(profile)
    rng = random.Random(seed)
    steps = 0
    for i in range(hands):
        e.reset(seed=seed * 1_000_003 + i)
        for _ in e.agent_iter():
            if observe:
                obs, _, term, trunc, _ = e.last()
                if term or trunc:
                    e.step(None)
                    continue
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            else:
                _, _, term, trunc, _ = e.last(observe=False)
                if term or trunc:
                    e.step(None)
                    continue
                e.step(rng.choice(list(e._legal)))
            steps += 1
    return steps


def timed(fn, *args) -> tuple[float, int]:
    t0 = time.process_time()
    steps = fn(*args)
    return steps / (time.process_time() - t0), steps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.hands < 1 or a.repeat < 1:
        ap.error("--hands and --repeat must be at least 1")
    rows = [("engine", engine_loop, ()), ("env step", env_loop, (False,)),
            ("env observe+step", env_loop, (True,))]
    rates: dict[str, list[float]] = {name: [] for name, _, _ in rows}
    steps: dict[str, int] = {}
    for _ in range(a.repeat):
        for name, fn, extra in rows:
            r, n = timed(fn, a.profile, a.hands, a.seed, *extra)
            rates[name].append(r)
            steps[name] = n
    base = statistics.median(rates["engine"])
    print(f"{a.hands} hands of random legal play, profile {a.profile}, "
          f"median of {a.repeat} (CPU time)")
    for name, _, _ in rows:
        med = statistics.median(rates[name])
        print(f"  {name:18s} {med:10,.0f} steps/s  ({steps[name]} steps)  "
              f"{med / base:5.2f}x engine")


if __name__ == "__main__":
    main()

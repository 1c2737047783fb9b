"""Hands per second of the table with four random-legal bots, on one core.

    .venv/bin/python bench/selfplay.py --hands 2000 --profile standard casual classic --repeat 3

Each hand is dealt, played to its end (win or 荒局), scored and settled; bots get
each seat's observation exactly as in ``twmj selfplay``. The figure is CPU time
(``time.process_time``), so other load on the machine counts against it less —
not at all only on an idle machine: on the shared build machine a loaded core runs
slower, so ``--repeat`` prints every run and the median. Target: >= 300 hands/s
in CPython on every profile.

    .venv/bin/python bench/selfplay.py --hands 2000 --repeat 3 --riichienv /work/.benchenv/bin/python

``--riichienv PY`` also runs riichienv's Python loop (``RiichiEnv`` stepped by its
``RandomAgent``, one kyoku a hand) under the interpreter ``PY`` — a separate
environment with ``pip install riichienv``, never a dependency of this project —
alternating with ours run by run, and prints the ratio of the medians.

``--cli`` also times the command people run, ``twmj selfplay --hands N --seed S
--json`` (the ``twmj`` beside this interpreter), as a whole process: its CPU time
from start to exit, start-up included, alternating with the library loop run by run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

from twmahjong.selfplay import Summary, make_bots, play_hand
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile, profile_names

TARGET = 300


def run(profile, hands: int, seed: int) -> tuple[float, float, dict]:
    """(hands/s CPU, hands/s wall, summary) for ``hands`` hands from ``seed``."""
    bots = make_bots(["random"] * 4, seed)
    summary = Summary()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for i in range(hands):
        h = HandState(profile, dealer=i % 4, seed=seed * 1_000_003 + i)
        play_hand(h, bots)
        summary.add(h)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    return hands / cpu, hands / wall, summary.to_json()


RIICHIENV_LOOP = r"""
import json, sys, time
from riichienv import RiichiEnv
from riichienv.agents import RandomAgent
hands, seed = int(sys.argv[1]), int(sys.argv[2])
agents = [RandomAgent(seed * 4 + i) for i in range(4)]
t0 = time.process_time()
for i in range(hands):
    env = RiichiEnv(seed=seed * 1_000_003 + i)
    obs = env.reset()
    while not env.done():
        obs = env.step({p: agents[p].act(o) for p, o in obs.items()})
print(json.dumps({"cpu": time.process_time() - t0}))
"""


def run_riichienv(python: str, hands: int, seed: int) -> float:
    """riichienv's hands/s (CPU) for ``hands`` kyoku of four random agents."""
    out = subprocess.run([python, "-c", RIICHIENV_LOOP, str(hands), str(seed)],
                         capture_output=True, text=True, check=True)
    return hands / json.loads(out.stdout.strip().splitlines()[-1])["cpu"]


def run_cli(hands: int, seed: int) -> float:
    """``twmj selfplay``'s hands/s (CPU of the whole process, start-up included)."""
    twmj = os.path.join(os.path.dirname(sys.executable), "twmj")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([twmj, "selfplay", "--hands", str(hands), "--seed", str(seed), "--json"],
                   capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return hands / ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--profile", nargs="+", default=["standard"],
                    help=f"profile ids or .toml paths, or 'all' ({', '.join(profile_names())})")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1, help="runs per profile; the median is reported")
    ap.add_argument("--riichienv", metavar="PY", help="an interpreter with riichienv installed: "
                    "its random loop runs alternately with ours, in the same run")
    ap.add_argument("--cli", action="store_true", help="also time `twmj selfplay` as a process "
                    "(CPU from start to exit), alternating with the library loop")
    args = ap.parse_args()
    names = profile_names() if args.profile == ["all"] else args.profile
    for name in names:
        profile = load_profile(name)
        HandState(profile, dealer=0, seed=0)          # warm the caches
        cpus, refs, clis = [], [], []
        for _ in range(args.repeat):
            cpu, wall, s = run(profile, args.hands, args.seed)
            cpus.append(cpu)
            print(f"{args.hands} hands ({s['drawn_hands']} drawn) profile {name}: "
                  f"{cpu:.0f} hands/s CPU, {wall:.0f} hands/s wall (target >= {TARGET}), "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
            if args.cli and name == "standard":
                clis.append(run_cli(args.hands, args.seed))
                print(f"{args.hands} hands twmj selfplay (whole process): {clis[-1]:.0f} hands/s CPU",
                      flush=True)
            if args.riichienv:
                refs.append(run_riichienv(args.riichienv, args.hands, args.seed))
                print(f"{args.hands} kyoku riichienv RandomAgent loop: {refs[-1]:.0f} hands/s CPU", flush=True)
        if args.repeat > 1:
            print(f"profile {name}: median {statistics.median(cpus):.0f} hands/s CPU over "
                  f"{args.repeat} runs (min {min(cpus):.0f}, max {max(cpus):.0f})", flush=True)
        if refs:
            theirs = statistics.median(refs)
            for what, runs in (("library loop", cpus), ("twmj selfplay", clis)):
                if not runs:
                    continue
                ours = statistics.median(runs)
                ratios = [a / b for a, b in zip(runs, refs)]
                print(f"profile {name}: {what} {ours:.0f} vs riichienv {theirs:.0f} hands/s = "
                      f"{ours / theirs:.2f}x (target >= 2x); run by run {min(ratios):.2f}-"
                      f"{max(ratios):.2f}x, load {os.getloadavg()[0]:.2f}", flush=True)
        elif clis:
            print(f"profile {name}: twmj selfplay {statistics.median(clis):.0f} hands/s = "
                  f"{statistics.median(clis) / statistics.median(cpus):.2f} of the library loop",
                  flush=True)


if __name__ == "__main__":
    main()

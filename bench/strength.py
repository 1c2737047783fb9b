"""Strength runs that survive interruption: duplicate deals in chunks, appended
to ``out/arena/<name>.jsonl`` (one line per deal), summarised on demand.

    .venv/bin/python bench/strength.py run L4,L3,L3,L3 --deals 4000 --seed 1
    .venv/bin/python bench/strength.py report L4,L3,L3,L3

The deals are exactly those of ``twmj arena --duplicate --seed S`` (same walls,
same bot seeds: ``arena.play_deal``), so a finished file equals one arena run;
a partial file is its first N deals. ``report`` prints the arena's JSON report.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from twmahjong.bots.arena import play_deal, summarise
from twmahjong.profiles import load_profile

OUT = Path("out/arena")


def path_for(seats: str, seed: int) -> Path:
    return OUT / f"{seats.replace(',', '-')}_s{seed}.jsonl"


def run(seats: str, deals: int, seed: int) -> None:
    specs = seats.split(",")
    p = path_for(seats, seed)
    OUT.mkdir(parents=True, exist_ok=True)
    done = sum(1 for _ in p.open()) if p.exists() else 0
    prof = load_profile("standard")
    with p.open("a") as f:
        for d in range(done, deals):
            plays = play_deal(specs, d, seed, duplicate=True, profile=prof)
            f.write(json.dumps({"deal": d, "plays": plays}) + "\n")
            f.flush()


def report(seats: str, seed: int) -> dict:
    specs = seats.split(",")
    rows = []
    for line in path_for(seats, seed).open():
        try:
            rows.append(json.loads(line))
        except ValueError:
            break                      # a run stopped mid-line: keep the whole deals
    deals = [[[tuple(x) for x in row] for row in r["plays"]] for r in rows]
    rep = summarise(specs, deals)
    rep.update(seed=seed, deals=len(deals), duplicate=True, profile="standard", seats=specs)
    return rep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["run", "report"])
    ap.add_argument("seats")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.mode == "run":
        run(a.seats, a.deals, a.seed)
    else:
        print(json.dumps(report(a.seats, a.seed)))


if __name__ == "__main__":
    main()

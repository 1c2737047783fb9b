"""Strength runs that survive interruption: duplicate deals in chunks, appended
to ``out/arena/<name>.jsonl`` (one line per deal), summarised on demand.

    .venv/bin/python bench/strength.py run L4,L3,L3,L3 --deals 4000 --seed 1
    .venv/bin/python bench/strength.py report L4,L3,L3,L3

The deals are exactly those of ``twmj arena --duplicate --seed S`` (same walls,
same bot seeds: ``arena.play_deal``), so a finished file equals one arena run;
a partial file is its first N deals. ``report`` prints the arena's JSON report.

``--shard I/K`` plays only the deals whose number is I modulo K, into a file of
its own, so K processes share one match; ``report`` reads the main file and every
shard file together and reports the deals 0..N-1 that are all there (a run still
going reports its longest complete prefix).
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


def _read(p: Path) -> dict[int, list]:
    out: dict[int, list] = {}
    if not p.exists():
        return out
    for line in p.open():
        try:
            r = json.loads(line)
        except ValueError:
            break                      # a run stopped mid-line: keep the whole deals
        out[r["deal"]] = r["plays"]
    return out


def run(seats: str, deals: int, seed: int, shard: tuple[int, int] = (0, 1)) -> None:
    specs = seats.split(",")
    i, k = shard
    p = path_for(seats, seed)
    if k > 1:
        p = p.with_name(p.stem + f".shard{i}-of-{k}.jsonl")
    OUT.mkdir(parents=True, exist_ok=True)
    done = set(_read(p))
    prof = load_profile("standard")
    with p.open("a") as f:
        for d in range(i, deals, k):
            if d in done:
                continue
            plays = play_deal(specs, d, seed, duplicate=True, profile=prof)
            f.write(json.dumps({"deal": d, "plays": plays}) + "\n")
            f.flush()


def report(seats: str, seed: int) -> dict:
    specs = seats.split(",")
    main = path_for(seats, seed)
    found = _read(main)
    for part in sorted(main.parent.glob(main.stem + ".shard*.jsonl")):
        found.update(_read(part))
    n = 0
    while n in found:
        n += 1
    deals = [[[tuple(x) for x in row] for row in found[d]] for d in range(n)]
    rep = summarise(specs, deals)
    rep.update(seed=seed, deals=len(deals), duplicate=True, profile="standard", seats=specs)
    return rep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["run", "report"])
    ap.add_argument("seats")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shard", default="0/1", help="I/K: play the deals numbered I modulo K")
    a = ap.parse_args()
    if a.mode == "run":
        i, k = (int(x) for x in a.shard.split("/"))
        run(a.seats, a.deals, a.seed, (i, k))
    else:
        print(json.dumps(report(a.seats, a.seed)))


if __name__ == "__main__":
    main()

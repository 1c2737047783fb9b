"""Strength runs that survive interruption: duplicate deals in chunks, appended
to ``out/arena/<name>.jsonl`` (one line per deal), summarised on demand.

    .venv/bin/python bench/strength.py run L4,L3,L3,L3 --deals 4000 --seed 1
    .venv/bin/python bench/strength.py report L4,L3,L3,L3

The deals are exactly those of ``twmj arena --duplicate --seed S`` (same walls,
same bot seeds: ``arena.play_deal``), so a finished file equals one arena run;
a partial file is its first N deals. ``report`` prints the arena's JSON report.

``compare SEATS --with DIR`` sets this run beside the same match played earlier
into another folder (another version of the first seat's bot, the same deals and
opponents): deal by deal, the first seat's net points and 台 a hand here minus
there, with a 95% interval. Where the two versions choose alike their hands are
the same, so this is far tighter than the difference of the two reports.

``--shard I/K`` plays only the deals whose number is I modulo K, into a file of
its own, so K processes share one match; ``report`` reads the main file and every
shard file together and reports the deals 0..N-1 that are all there (a run still
going reports its longest complete prefix).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

from twmahjong.bots.arena import ArenaReport, _mean_ci, play_deal, summarise
from twmahjong.profiles import load_profile

OUT = Path("out/arena")


def shard(text: str) -> tuple[int, int]:
    """``--shard I/K``: the deals numbered I modulo K, I from 0 to K-1. A run given
    ``K/K`` (counting from one) would leave deal 0 unplayed and no complete prefix to
    report, so it is refused here, in one line."""
    try:
        i, k = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard is I/K (e.g. 0/2), got {text!r}") from None
    if not 0 <= i < k:
        raise argparse.ArgumentTypeError(f"--shard I/K counts I from 0 to K-1, got {text!r}")
    return i, k


def path_for(seats: str, seed: int, out: Path | None = None) -> Path:
    return (out or OUT) / f"{seats.replace(',', '-')}_s{seed}.jsonl"


def records(p: Path) -> Iterator[dict[str, Any]]:
    """The records of a results file (one JSON object a line), skipping a line a
    stopped run left cut short."""
    if not p.exists():
        return
    for line in p.open():
        try:
            yield json.loads(line)
        except ValueError:
            continue


def _append_records(p: Path) -> TextIO:
    """The results file opened to append, after dropping the tail a killed run left
    cut mid-line: appended to, that tail would make the next record unreadable too."""
    if p.exists():
        with p.open("rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
    return p.open("a")


def play_missing(p: Path, shard: tuple[int, int], deals: int, done: set[int],
                 record: Callable[[int], dict[str, Any]]) -> None:
    """Appends ``record(d)`` for each deal ``d`` of the shard (I/K: I, I+K, ... below
    ``deals``) not in ``done``, a line each, flushed as it ends: a run stopped or
    extended goes on from there, and a killed one loses only the deal in play."""
    i, k = shard
    with _append_records(p) as f:
        for d in range(i, deals, k):
            if d not in done:
                f.write(json.dumps(record(d)) + "\n")
                f.flush()


def _read(p: Path) -> dict[int, list[Any]]:
    return {r["deal"]: r["plays"] for r in records(p)}


def run(seats: str, deals: int, seed: int, shard: tuple[int, int] = (0, 1)) -> None:
    specs = seats.split(",")
    i, k = shard
    p = path_for(seats, seed)
    if k > 1:
        p = p.with_name(p.stem + f".shard{i}-of-{k}.jsonl")
    OUT.mkdir(parents=True, exist_ok=True)
    prof = load_profile("standard")
    play_missing(p, shard, deals, set(_read(p)), lambda d: {
        "deal": d, "plays": play_deal(specs, d, seed, duplicate=True, profile=prof)})


def _deals(seats: str, seed: int, out: Path | None = None) -> list[Any]:
    """The complete prefix of deals 0..N-1, over the main file and its shards."""
    main = path_for(seats, seed, out)
    found = _read(main)
    for part in sorted(main.parent.glob(main.stem + ".shard*.jsonl")):
        found.update(_read(part))
    n = 0
    while n in found:
        n += 1
    return [[[tuple(x) for x in row] for row in found[d]] for d in range(n)]


def _first_seat(deal: list[Any]) -> tuple[float, float]:
    """The first entrant's mean net points and 台 a hand over a deal's plays."""
    mine = [(x[1], x[2]) for row in deal for x in row if x[0] == 0]
    return sum(m[0] for m in mine) / len(mine), sum(m[1] for m in mine) / len(mine)


def compare(seats: str, seed: int, other: Path) -> dict[str, Any]:
    here, there = _deals(seats, seed), _deals(seats, seed, other)
    n = min(len(here), len(there))
    if n == 0:
        raise SystemExit(f"no complete deals of {seats} (seed {seed}) in both {OUT} and {other}")
    a = [_first_seat(d) for d in here[:n]]
    b = [_first_seat(d) for d in there[:n]]
    m, lo, hi = _mean_ci([x[0] - y[0] for x, y in zip(a, b)])
    tm, tlo, thi = _mean_ci([x[1] - y[1] for x, y in zip(a, b)])
    same = sum(1 for x, y in zip(here[:n], there[:n]) if x == y)
    return {"seats": seats.split(","), "seed": seed, "deals": n, "identical_deals": same,
            "net_diff": m, "net_diff_ci95": [lo, hi], "tai_diff": tm, "tai_diff_ci95": [tlo, thi]}


def report(seats: str, seed: int) -> ArenaReport:
    specs = seats.split(",")
    deals = _deals(seats, seed)
    rep = summarise(specs, deals)
    rep["seed"], rep["deals"], rep["duplicate"] = seed, len(deals), True
    rep["profile"], rep["seats"] = "standard", specs
    return rep


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["run", "report", "compare"])
    ap.add_argument("seats")
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shard", type=shard, default=(0, 1),
                    help="I/K: play the deals numbered I modulo K (0 <= I < K)")
    ap.add_argument("--with", dest="other", type=Path,
                    help="compare: the folder holding the earlier run of the same match")
    a = ap.parse_args()
    if a.mode == "run":
        run(a.seats, a.deals, a.seed, a.shard)
    elif a.mode == "compare":
        if a.other is None:
            ap.error("compare needs --with DIR")
        print(json.dumps(compare(a.seats, a.seed, a.other)))
    else:
        print(json.dumps(report(a.seats, a.seed)))


if __name__ == "__main__":
    main()

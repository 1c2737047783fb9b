"""Time per decision of each bot level (bench, not a test): median and 99th percentile.

    .venv/bin/python bench/bots.py [--hands 12] [--levels 1,2,3,4,5,6] [--search-ms 40]

Each level plays whole hands in all four seats of the standard profile; every
``act`` call with more than one legal action is timed. Targets:
levels 1-4 <= 2 ms median, level 5 <= 50 ms median; level 6 <= 50 ms
median and <= 250 ms at the 99th percentile, with its live-table budget (``BUDGET_MS``). The first hands warm the
per-suit shanten tables, as a long-running server would be warm. ``--lazy`` hands
each bot the observation self-play gives it (``LazyObservation`` over the engine's
actions), so building what the bot reads is inside the timed call.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from twmahjong.bots.master import MasterBot
from twmahjong.bots.policy import LEVELS, PolicyBot
from twmahjong.engine import HandState
from twmahjong.engine.observe import LazyObservation
from twmahjong.profiles import load_profile


def bench_level(level: int, hands: int, search_ms: float, warm: int = 3,
                lazy: bool = False) -> list[float]:
    prof = load_profile("standard")
    params = replace(LEVELS[min(level, 5)], search_ms=search_ms)
    times: list[float] = []
    for i in range(warm + hands):
        bots = [MasterBot(seed=100 * i + s, params=replace(params, level=6)) if level == 6
                else PolicyBot(params, seed=100 * i + s) for s in range(4)]
        h = HandState(prof, dealer=i % 4, seed=5000 + i)
        while not h.over:
            for s, acts in list(h.pending().items()):
                obs = LazyObservation(h, s, actions=acts) if lazy else h.observation(s)
                t0 = time.perf_counter()
                a = bots[s].act(obs)
                dt = time.perf_counter() - t0
                if i >= warm and len(acts) > 1:
                    times.append(dt)
                h.act(s, a)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--levels", default="1,2,3,4,5,6")
    ap.add_argument("--search-ms", type=float, default=LEVELS[5].search_ms)
    ap.add_argument("--lazy", action="store_true", help="observations as self-play gives them "
                    "(LazyObservation with the engine's actions), built inside the timed call")
    args = ap.parse_args()
    print(f"{'level':>5} {'decisions':>9} {'median ms':>10} {'mean ms':>8} {'p99 ms':>8} {'target':>7}")
    for lv in (int(x) for x in args.levels.split(",")):
        ts = sorted(bench_level(lv, args.hands, args.search_ms, lazy=args.lazy))
        med = statistics.median(ts) * 1000
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))] * 1000
        target = 50.0 if lv >= 5 else 2.0
        mean = statistics.fmean(ts) * 1000
        ok = med <= target and (lv < 6 or p99 <= 250.0)
        print(f"{f'L{lv}':>5} {len(ts):>9} {med:>10.3f} {mean:>8.3f} {p99:>8.2f} "
              f"{'ok' if ok else 'SLOW':>7}")


if __name__ == "__main__":
    main()

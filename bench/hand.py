"""Microseconds per call of the hand analysis, next to the `mahjong` package's shanten,
and the tables' memory: compact (bytes, two-byte array) against Python lists.

    .venv/bin/python bench/hand.py --n 10000 --rounds 15

Hands are random draws from the 136 non-flower tiles (seeded); a tenth of the
17-tile hands are built complete so the win check sees both answers. The
reference row is riichi shanten (`mahjong.shanten.Shanten`) on random 14-tile
hands — a different game's rule, but the same kind of work, in the same run.

Every row is timed with three layouts of the same tables, swapped under the same
code: ``bytes`` (the default), the cache file mapped read-only
(``TWMJ_MAP_TABLES=1``), and Python lists — the layout before the tables were made
compact (``import twmahjong.hand`` then cost ~63 MiB of RSS) — so "no slower" is
measured in one run. Times are CPU time, best of ``--rounds`` rounds per row, the
three layouts of a row timed back to back in rotating order (so a burst of load
from elsewhere hits them alike). The last lines give the RSS that importing ``twmahjong.hand`` adds
in a fresh interpreter (both ways), what the lists would add, and how much of the
mapped file this process ended up holding.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

from rich.console import Console
from rich.table import Table

from twmahjong import _tables, hand
from twmahjong.tiles import counts34

WALL = [k for k in range(34) for _ in range(4)]


def complete_hand(rng: random.Random) -> list[int]:
    """Five sets and a pair, drawn while copies last (retry on the rare dead end)."""
    while True:
        left = [4] * 34
        c = [0] * 34
        for _ in range(5):
            if rng.random() < 0.3:
                t = rng.randrange(34)
                need = [t, t, t]
            else:
                t = 9 * rng.randrange(3) + rng.randrange(7)
                need = [t, t + 1, t + 2]
            if all(left[x] >= need.count(x) for x in need):
                for x in need:
                    left[x] -= 1; c[x] += 1
        t = rng.randrange(34)
        if sum(c) == 15 and left[t] >= 2:
            c[t] += 2
            return c


def per_call(fn, inputs) -> float:
    t0 = time.process_time()
    for x in inputs:
        fn(x)
    return (time.process_time() - t0) / len(inputs) * 1e6


# The module globals that hold the tables, and the Tables attribute behind each;
# swapping them gives another layout under the same functions.
TABLES = {"_SW": "suit_win", "_HW": "honor_win", "_SWT": "suit_wait", "_HWT": "honor_wait",
          "_SP": "suit_prof", "_HP": "honor_prof", "_SN": "suit_size", "_HN": "honor_size"}


def rss_mib() -> float:
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def mapped_mib(path: str) -> float:
    """Resident MiB of this process's mappings of ``path`` (from /proc/self/smaps)."""
    total, inside = 0, False
    for line in open("/proc/self/smaps"):
        if line[:1].isdigit() or line[:1] in "abcdef":
            inside = line.rstrip().endswith(path)
        elif inside and line.startswith("Rss:"):
            total += int(line.split()[1])
    return total / 1024


IMPORT_RSS = """
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) / 1024
import twmahjong.tiles
before = rss()
import twmahjong.hand
print(rss() - before)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000, help="hands per measurement")
    ap.add_argument("--rounds", type=int, default=15, help="rounds per row (the best counts)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = args.n
    rng = random.Random(args.seed)

    h17 = [complete_hand(rng) if i % 10 == 0 else counts34(rng.sample(WALL, 17)) for i in range(n)]
    h16 = [counts34(rng.sample(WALL, 16)) for _ in range(n)]
    h14 = [counts34(rng.sample(WALL, 14)) for _ in range(n)]
    k17 = [hand.hand_key(c) for c in h17]
    k16 = [hand.hand_key(c) for c in h16]
    wins = sum(map(hand.is_complete, h17))

    from mahjong.shanten import Shanten
    sh = Shanten()
    rows = [
        ("riichi shanten, mahjong pkg (14 tiles)", sh.calculate_shanten, h14),
        ("win check is_complete (17)", hand.is_complete, h17),
        ("win check is_complete_key (17)", hand.is_complete_key, k17),
        ("shanten (16)", hand.shanten, h16),
        ("shanten_key (16)", lambda k: hand.shanten_key(k, 5), k16),
        ("waits (16)", hand.waits, h16),
        ("waits_key (16)", hand.waits_key, k16),
        ("hand_key (34 counts -> keys)", hand.hand_key, h16),
    ]
    compact = {name: getattr(hand, name) for name in TABLES}
    mapped_tables = _tables.load(mapped=True)
    mapped = {name: getattr(mapped_tables, attr) for name, attr in TABLES.items()}
    before = rss_mib()
    lists = {name: memoryview(t).tolist() for name, t in compact.items()}
    list_cost = rss_mib() - before
    layouts = [("compact", compact), ("mapped", mapped), ("lists", lists)]
    best: dict[tuple[str, str], float] = {}
    for row, fn, inputs in rows:          # a row's layouts side by side, so noise hits all
        for r in range(args.rounds):
            for layout, tables in layouts[r % 3:] + layouts[:r % 3]:
                for name, t in tables.items():
                    setattr(hand, name, t)
                us = per_call(fn, inputs)
                best[row, layout] = min(best.get((row, layout), us), us)
    for name, t in compact.items():
        setattr(hand, name, t)

    ref = best[rows[0][0], "compact"]
    table = Table(title=f"hand analysis, {n} hands per row ({wins} complete 17-tile hands), "
                        f"CPU µs, best of {args.rounds}")
    table.add_column("operation")
    table.add_column("bytes µs", justify="right")
    table.add_column("mapped µs", justify="right")
    table.add_column("lists µs", justify="right")
    table.add_column("lists/bytes", justify="right")
    table.add_column("× faster than mahjong pkg", justify="right")
    for row, _, _ in rows:
        us, mp, old = best[row, "compact"], best[row, "mapped"], best[row, "lists"]
        table.add_row(row, f"{us:.3f}", f"{mp:.3f}", f"{old:.3f}", f"{old / us:.2f}",
                      f"{ref / us:.1f}")
    Console(width=130).print(table)
    resident = mapped_mib(str(_tables.cache_dir() / _tables._FILE))
    costs = [float(subprocess.run([sys.executable, "-c", IMPORT_RSS], capture_output=True,
                                  text=True, check=True, env={**os.environ, **env}).stdout)
             for env in ({"TWMJ_MAP_TABLES": "0"}, {"TWMJ_MAP_TABLES": "1"})]
    print(f"RSS added by `import twmahjong.hand` (fresh interpreter): {costs[0]:.1f} MiB "
          f"(bytes), {costs[1]:.1f} MiB (mapped); the same tables as lists add "
          f"{list_cost:.1f} MiB more")
    print(f"mapped file pages resident in this process after the run: {resident:.1f} MiB "
          f"(a read-only file mapping: shared with every other process mapping it)")


if __name__ == "__main__":
    main()

"""Microseconds per call of the hand analysis, next to the `mahjong` package's shanten.

    .venv/bin/python bench/hand.py --n 100000

Hands are random draws from the 136 non-flower tiles (seeded); a tenth of the
17-tile hands are built complete so the win check sees both answers. The
reference row is riichi shanten (`mahjong.shanten.Shanten`) on random 14-tile
hands — a different game's rule, but the same kind of work, in the same run.
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from twmahjong import hand
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
    t0 = time.perf_counter()
    for x in inputs:
        fn(x)
    return (time.perf_counter() - t0) / len(inputs) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000, help="hands per measurement")
    ap.add_argument("--seed", type=int, default=1)
    n = ap.parse_args().n
    rng = random.Random(ap.parse_args().seed)

    h17 = [complete_hand(rng) if i % 10 == 0 else counts34(rng.sample(WALL, 17)) for i in range(n)]
    h16 = [counts34(rng.sample(WALL, 16)) for _ in range(n)]
    h14 = [counts34(rng.sample(WALL, 14)) for _ in range(n)]
    k17 = [hand.hand_key(c) for c in h17]
    k16 = [hand.hand_key(c) for c in h16]
    wins = sum(map(hand.is_complete, h17))

    from mahjong.shanten import Shanten
    sh = Shanten()
    ref = per_call(sh.calculate_shanten, h14)

    rows = [
        ("riichi shanten, mahjong pkg (14 tiles)", ref),
        ("win check is_complete (17)", per_call(hand.is_complete, h17)),
        ("win check is_complete_key (17)", per_call(hand.is_complete_key, k17)),
        ("shanten (16)", per_call(hand.shanten, h16)),
        ("shanten_key (16)", per_call(lambda k: hand.shanten_key(k, 5), k16)),
        ("waits (16)", per_call(hand.waits, h16)),
        ("waits_key (16)", per_call(hand.waits_key, k16)),
        ("hand_key (34 counts -> keys)", per_call(hand.hand_key, h16)),
    ]
    table = Table(title=f"hand analysis, {n} hands per row ({wins} complete 17-tile hands)")
    table.add_column("operation")
    table.add_column("µs/call", justify="right")
    table.add_column("× faster than mahjong pkg", justify="right")
    for name, us in rows:
        table.add_row(name, f"{us:.3f}", f"{ref / us:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()

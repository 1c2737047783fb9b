"""Microseconds per complete hand of the 台 scorer, before and after, next to the
`mahjong` package's riichi scorer — and the differential that says "same answers".

    .venv/bin/python bench/score.py                  # timing + 100,000-hand differential
    .venv/bin/python bench/score.py --diff 0 --n 3000 # timing only, quick

Rows, timed in the same run and interleaved round by round in CPU time (the best
round of each counts, so a neighbour's burst of load hurts every row alike):
  * ``scoring.score`` — the table-driven scorer;
  * ``scoring_reference.score`` — the scorer as it was (one Reading object per
    reading, every pattern asked of every reading), kept as the oracle;
  * ``mahjong``'s ``HandCalculator.estimate_hand_value`` on random closed riichi
    hands (14 tiles, riichi, ron or tsumo): a different game's rules, the same work
    (split every way, value every split, report the best).
The hands are ``scoring_reference.random_hand`` (seeded) that win under standard.

The differential scores ``--diff`` seeded random hands under standard, classic,
casual and standard with 嚦咕嚦咕 on (in turn) with both scorers and counts the
answers that differ in anything (total, patterns with their 台, split text); a
tenth are random non-winning tile sets (which must agree on not winning, or on a
flower win). It exits 1 on any mismatch.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from twmahjong import scoring, scoring_reference
from twmahjong.profiles import load_profile
from twmahjong.scoring import HandSpec


def profiles() -> list:
    """standard, classic, casual, and standard with 嚦咕嚦咕 switched on."""
    std = load_profile("standard")
    lilgu = std.model_copy(update={"scoring": std.scoring.model_copy(update={"lilgu": True})})
    return [std, load_profile("classic"), load_profile("casual"), lilgu]


def differential(n: int, seed: int) -> tuple[int, int, int]:
    """(hands compared, complete ones among them, mismatches)."""
    rng = random.Random(seed)
    profs = profiles()
    bad = complete = 0
    for i in range(n):
        spec = HandSpec.from_json(scoring_reference.random_hand(rng, complete=i % 10 != 9))
        p = profs[i % len(profs)]
        old, new = scoring_reference.score(spec, p), scoring.score(spec, p)
        complete += i % 10 != 9
        if old != new:
            bad += 1
            if bad <= 3:
                print(f"MISMATCH under {p.id}: {spec}\n  reference {old}\n  new       {new}")
    return n, complete, bad


def riichi_hands(n: int, rng: random.Random) -> list[tuple]:
    """Closed riichi hands in `mahjong`'s 136 ids: four sets and a pair, one tile the winner."""
    from mahjong.hand_calculating.hand_config import HandConfig
    out = []
    while len(out) < n:
        left = [4] * 34
        kinds = []
        for _ in range(4):
            if rng.random() < 0.3:
                k = rng.randrange(34)
                need = [k] * 3
            else:
                k = 9 * rng.randrange(3) + rng.randrange(7)
                need = [k, k + 1, k + 2]
            if all(left[x] >= need.count(x) for x in set(need)):
                for x in need:
                    left[x] -= 1
                kinds += need
        pair = rng.randrange(34)
        if len(kinds) != 12 or left[pair] < 2:
            continue
        kinds += [pair, pair]
        used = [0] * 34
        tiles = []
        for k in kinds:
            tiles.append(4 * k + used[k])
            used[k] += 1
        config = HandConfig(is_riichi=True, is_tsumo=rng.random() < 0.4)
        out.append((tiles, rng.choice(tiles), config))
    return out


def per_hand(fn, items, rounds: list[float]) -> None:
    """CPU µs per item (process time: on a shared machine, time spent waiting for a
    core is not the scorer's)."""
    t0 = time.process_time()
    for x in items:
        fn(x)
    rounds.append((time.process_time() - t0) / len(items) * 1e6)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=3000, help="hands per timing round")
    ap.add_argument("--rounds", type=int, default=7, help="timing rounds (the best counts)")
    ap.add_argument("--diff", type=int, default=100_000, help="hands in the differential")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    std = load_profile("standard")
    hands: list[HandSpec] = []
    while len(hands) < args.n:
        spec = HandSpec.from_json(scoring_reference.random_hand(rng))
        if scoring.score(spec, std).winning:
            hands.append(spec)
    riichi = riichi_hands(args.n, rng)
    from mahjong.hand_calculating.hand import HandCalculator
    estimate = HandCalculator.estimate_hand_value

    rows = {"scoring.score (new)": (lambda s: scoring.score(s, std), hands),
            "scoring_reference.score (old)": (lambda s: scoring_reference.score(s, std), hands),
            "mahjong estimate_hand_value (riichi)": (lambda h: estimate(h[0], h[1], config=h[2]),
                                                     riichi)}
    times: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(args.rounds):
        for name, (fn, items) in rows.items():
            per_hand(fn, items, times[name])
    best = {name: min(t) for name, t in times.items()}
    new, old = best["scoring.score (new)"], best["scoring_reference.score (old)"]
    ref = best["mahjong estimate_hand_value (riichi)"]
    print(f"台 scoring, {args.n} complete hands a round, best of {args.rounds} rounds "
          f"(seed {args.seed})")
    print(f"{'row (CPU µs per hand)':40} {'best':>9} {'median':>9} {'new is ×':>9}")
    for name, t in times.items():
        med = sorted(t)[len(t) // 2]
        print(f"{name:40} {best[name]:9.1f} {med:9.1f} {best[name] / new:9.2f}")
    print(f"new vs old: {old / new:.2f}× faster; new vs mahjong: {ref / new:.2f}× faster "
          f"(target ≥ 3×); new ≤ 50 µs: {'yes' if new <= 50 else 'NO'}")

    if args.diff:
        t0 = time.perf_counter()
        n, complete, bad = differential(args.diff, args.seed)
        print(f"differential: {n} hands ({complete} complete, {n - complete} random tiles) "
              f"under standard/classic/casual/standard+嚦咕: {bad} mismatches "
              f"({time.perf_counter() - t0:.0f} s)")
        if bad:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

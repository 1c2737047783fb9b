"""Which sampled worlds bring the game review's estimates closest to the truth (bench).

The review (``twmahjong.analysis``) prices a move by dealing the hidden tiles again
and playing each compared move out with ``efficiency`` bots. It first dealt
*uniform* worlds (``analysis.sample_world`` without a reading); docs/bots.md found
they give the opponents random, slow hands, so that pushing looks cheaper than it
is, and built *developed* worlds (``analysis.deal_developed``, first in
``bench/worlds.py``: each opponent ready with the reader's chance, else about as
far along as its discards say). Results: docs/analysis.md, "Which worlds".

Here both are judged against the truth. Four L5 play self-play hands; at sampled
turn decisions, the review's compared moves (L5's, the two most efficient, the
safest) are priced by ``--worlds`` uniform and as many developed worlds, and each is
also played out, by the same playout bots, in the *true* world (the real hands and
wall, the wall's order drawn again ``--truths`` times). The true world's outcome is
one draw from what the seat's information allows, so over many decisions the squared
error of an estimate against it is the truth's own spread (the same for both) plus
the estimate's error: the world model with the smaller mean squared error estimates
better. Differences (a move minus L5's), in points at the standard stakes; the
interval of the MSE difference is over decisions.

    .venv/bin/python bench/review_worlds.py --hands 150 --seed 1 --worlds 16 --truths 16 \\
        --out /tmp/rw1.json
    .venv/bin/python bench/review_worlds.py --report /tmp/rw1.json /tmp/rw2.json
    # playouts by efficiency or L4, the truth played out by the table's own players
    .venv/bin/python bench/review_worlds.py --hands 110 --seed 3 --worlds 8 --truths 8 \\
        --playouts L4 --truth-bots L5 --out /tmp/rwp3.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, cast

from twmahjong.analysis import (_playout_bots, _reference_bot, is_decision, options_at,
                                passed_waits, play_worlds, sample_world)
from twmahjong.bots.arena import _mean_ci
from twmahjong.bots.reader import TableRead
from twmahjong.bots.view import View
from twmahjong.engine.observe import LazyObservation
from twmahjong.engine.rollout import _wall_positions, clone
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile


def _true_hands(h: HandState, rng: random.Random, n: int) -> list[HandState]:
    """The true world with the standing wall shuffled: every hand as it truly is, only
    the order of the draws to come drawn again — ``n`` of them average away the luck of
    the draws, which no world model can know, and keep what the models guess at."""
    out = []
    for _ in range(n):
        w = clone(h)
        pos = _wall_positions(w.wall)
        pairs = [(w.wall.order[i], w.wall.kinds[i]) for i in pos]
        rng.shuffle(pairs)
        for i, (o, k) in zip(pos, pairs):
            w.wall.order[i], w.wall.kinds[i] = o, k
        out.append(w)
    return out


Estimator = tuple[str, bool, list[Any]]     # (name, developed worlds?, playout bots)


def evaluate(h: HandState, seat: int, worlds: int, truths: int, rng: random.Random,
             ref: Any, estimators: list[Estimator], truth_bots: list[Any]
             ) -> dict[str, Any] | None:
    """One decision: the review's compared moves, each estimator's price of every move
    against L5's, and the truth's."""
    legal = h.pending()[seat]
    obs = LazyObservation(h, seat, actions=legal)
    choice = ref.act(cast(Any, obs))
    choice = next((a for a in legal if a == choice), legal[0])
    opts = options_at(h, seat, choice, choice)
    if len(opts) < 2:
        return None
    facts = passed_waits(h, seat)
    read = TableRead(View.from_observation(cast(Any, obs)))
    est = {name: play_worlds([sample_world(h, seat, rng, facts, read if developed else None)
                              for _ in range(worlds)], seat, opts, bots)
           for name, developed, bots in estimators}
    truth = play_worlds(_true_hands(h, rng, truths), seat, opts, truth_bots)
    rows = []
    for j in range(1, len(opts)):
        row = {name: (sum(x[j]) - sum(x[0])) / worlds for name, x in est.items()}
        row["truth"] = (sum(truth[j]) - sum(truth[0])) / truths
        k0, kj = opts[0].tile, opts[j].tile
        row["risk"] = (read.deal_in(kj) - read.deal_in(k0)) \
            if k0 is not None and kj is not None else 0.0
        rows.append(row)
    return {"wall": h.drawable(), "ready": read.ready_sum(), "rows": rows}


def _bots(name: str, seed: int) -> list[Any]:
    return [_reference_bot(name, seed + s) for s in range(4)]


def collect(a: argparse.Namespace) -> None:
    prof = load_profile("standard")
    rng = random.Random(f"review-worlds/{a.seed}")
    ref = _reference_bot("L5", a.seed)
    efficiency = _playout_bots(0, a.seed)          # efficiency at every seat, as the review
    if a.playouts:
        # the review's worlds (developed), played out by efficiency or by another bot
        estimators: list[Estimator] = [("efficiency", True, efficiency),
                                       (a.playouts, True, _bots(a.playouts, a.seed))]
    else:
        estimators = [("uniform", False, efficiency), ("developed", True, efficiency)]
    truth_bots = _bots(a.truth_bots, a.seed + 100) if a.truth_bots else efficiency
    out: list[dict[str, Any]] = []
    t0 = time.monotonic()
    for i in range(a.hands):
        h = HandState(prof, dealer=i % 4, seed=a.seed * 1_000_003 + i)
        bots = [_reference_bot("L5", a.seed * 10 + s) for s in range(4)]
        while not h.over:
            pend = h.pending()
            if h.phase == "turn":
                s = h.turn_seat
                if s in pend and is_decision(h, s) and rng.random() < a.every:
                    d = evaluate(h, s, a.worlds, a.truths, rng, ref, estimators, truth_bots)
                    if d is not None:
                        out.append(d)
            for s, acts in list(pend.items()):
                h.act(s, bots[s].act(cast(Any, LazyObservation(h, s, actions=acts))))
        if (i + 1) % 10 == 0:
            print(f"{i + 1} hands, {len(out)} decisions, {time.monotonic() - t0:.0f} s",
                  file=sys.stderr)
    Path(a.out).write_text(json.dumps({
        "seed": a.seed, "worlds": a.worlds, "hands": a.hands, "truth_bots": a.truth_bots,
        "estimators": [e[0] for e in estimators], "decisions": out}))
    report([a.out])


def report(paths: list[str]) -> None:
    docs = [json.loads(Path(p).read_text()) for p in paths]
    ua, ub = docs[0].get("estimators", ["uniform", "developed"])
    decs = [d for doc in docs for d in doc["decisions"]]

    def safer(d: dict[str, Any]) -> dict[str, Any]:
        return {**d, "rows": [r for r in d["rows"] if r["risk"] <= -0.03]}

    groups = {"all": decs,
              "a move 3+ points of deal-in chance safer than L5's (those moves)":
                  [x for x in map(safer, decs) if x["rows"]],
              "an opponent ready in expectation (reader >= 0.5)":
                  [d for d in decs if d["ready"] >= 0.5]}
    print(f"{len(decs)} decisions, {sum(len(d['rows']) for d in decs)} compared moves")
    print(f"| decisions | n | {ua}: bias, RMSE | {ub}: bias, RMSE | MSE {ua} - {ub} (95%) |")
    print("|---|---|---|---|---|")
    for name, ds in groups.items():
        if len(ds) < 2:
            continue
        rows = [r for d in ds for r in d["rows"]]
        cells = []
        for e in (ua, ub):
            bias = sum(r[e] - r["truth"] for r in rows) / len(rows)
            rmse = math.sqrt(sum((r[e] - r["truth"]) ** 2 for r in rows) / len(rows))
            cells.append(f"{bias:+.1f}, {rmse:.1f}")
        per = [sum((r[ua] - r["truth"]) ** 2 - (r[ub] - r["truth"]) ** 2
                   for r in d["rows"]) / len(d["rows"]) for d in ds]
        m, _lo, hi = _mean_ci(per)
        print(f"| {name} | {len(ds)} | {cells[0]} | {cells[1]} | {m:+.0f} ± {hi - m:.0f} |")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--worlds", type=int, default=16)
    p.add_argument("--truths", type=int, default=16,
                   help="true worlds (the wall shuffled) averaged for the truth")
    p.add_argument("--playouts", metavar="BOT",
                   help="compare playout bots instead: efficiency against BOT, both in "
                        "developed worlds")
    p.add_argument("--truth-bots", metavar="BOT",
                   help="who plays the true worlds out (default: efficiency, as the review's "
                        "playouts); L5 is the table's own players")
    p.add_argument("--every", type=float, default=0.25, help="chance a turn decision is priced")
    p.add_argument("--out", default="review_worlds.json")
    p.add_argument("--report", nargs="+", metavar="FILE", help="only report these runs")
    a = p.parse_args()
    if a.report:
        report(a.report)
    else:
        collect(a)


if __name__ == "__main__":
    main()

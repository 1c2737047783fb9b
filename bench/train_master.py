"""Fit L6's corrections to L5 (bots/advantage.py) on randomised self-play.

    .venv/bin/python bench/train_master.py collect --hands 20000 --seed 5 --workers 2 --out out/master
    .venv/bin/python bench/train_master.py fit --data out/master [--target tai|points] [--write]
    .venv/bin/python bench/train_master.py ceiling --hands 300 [--weights PATH]

``collect`` plays hands of four L5 seats (``MasterBot`` with an ``Explorer``):
at each of its decisions a seat makes, with a known small chance, one of its
other candidates (another of L5's best discards or one of the reader's safest,
the opposite claim, passing a discard win) instead of L5's choice. Per seat and
hand it writes the summed centred features of those choices and the hand's
outcome for the seat (net 台 flow and net points).

``collect --risky CHANCE,AT,GAP`` adds a targeted arm: when the policy's discard
reads at least AT likely to deal in and the reader's safest candidate is GAP less
likely, that candidate is thrown with chance CHANCE. Uniform exploration rarely
makes the choice that avoids a real deal-in, so the risk weights stay unresolved
without it; the arm's chances are known, so the sums stay centred.

``fit`` regresses the outcome on those sums by least squares (plus the dealer
seat, which only lowers the variance). The choices were random, so the
regressors have mean zero in every position and the coefficients estimate, with
no model of the position's value, how much each feature of a move changes the
hand's outcome against L5's own choice. It prints each weight with its standard
error; ``--write`` stores them in ``src/twmahjong/bots/advantage.json`` with the
command, seed, data size and time; ``--groups discard`` writes only that group
from these rows and keeps the others as ``--base`` fitted them (each group's
weights are estimated apart). Everything derives from ``--seed``.

``ceiling`` asks what a fit can be worth at most: over L5 self-play it adds up,
per seat and hand, the advantage the fit itself predicts for the moves L6 would
make instead of L5's — with the lower bound (as L6 plays) and with the point
estimates (every correction the fit believes in, as if it were exact). If even
the point estimates add up to little, more data cannot lift the level: the
features and candidates must change.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

import numpy as np

from twmahjong.bots.advantage import (_PATH, CLAIM_FEATURES, DISCARD_FEATURES, FOLD_FEATURES,
                                      WIN_FEATURES, Weights, load_stages, load_weights, score)
from twmahjong.bots.arena import _tai_flow
from twmahjong.bots.master import Explorer, MasterBot
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile

GROUPS = (("discard", DISCARD_FEATURES), ("claim", CLAIM_FEATURES), ("win", WIN_FEATURES),
          ("fold", FOLD_FEATURES))
WIDTH = sum(len(f) for _, f in GROUPS)
OFFSET = {g: sum(len(f) for _, f in GROUPS[:i]) for i, (g, _) in enumerate(GROUPS)}


def play(hand_no: int, seed: int, rates: tuple[float, float, float], stages: int = 0,
         fold: float = 0.0, risky: tuple[float, float, float] = (0.0, 0.04, 0.02)) -> np.ndarray:
    """One randomised hand: four rows (one a seat) of [features..., dealer, 台, points,
    explored discards, claims, wins, folds, targeted discards]. The seats play L5
    corrected by the first ``stages`` shipped stages (0: plain L5), and explore
    around that policy; ``fold`` is the chance of folding for the rest of the hand
    when that is asked; ``risky`` is the targeted arm (chance, from which deal-in
    chance of the policy's tile, by how much safer the reader's safest must be)."""
    rng = random.Random(f"master/{seed}/{hand_no}")
    prof = load_profile("standard")
    bots = []
    for _ in range(4):
        ex = Explorer(random.Random(rng.getrandbits(62)), *rates, fold=fold, risky=risky[0],
                      risky_at=risky[1], risky_gap=risky[2])
        bots.append(MasterBot(rng.getrandbits(31), exact=True, weights=load_stages(stages),
                              explorer=ex))
    dealer = hand_no % 4
    h = HandState(prof, dealer=dealer, seed=rng.getrandbits(62))
    while not h.over:
        for s in list(h.pending()):
            h.act(s, bots[s].act(h.observation(s)))
    r = h.result or {}
    flow = _tai_flow(r)
    net = r.get("net") or [0, 0, 0, 0]
    rows = np.zeros((4, WIDTH + 8), dtype=np.float64)
    for s, b in enumerate(bots):
        ex = b.explorer
        assert ex is not None
        rows[s, :WIDTH] = [x for g, _ in GROUPS for x in ex.sums[g]]
        rows[s, WIDTH:] = [1.0 if s == dealer else 0.0, flow[s], net[s],
                           ex.counts["discard"], ex.counts["claim"], ex.counts["win"],
                           ex.counts["fold"], ex.counts["targeted"]]
    return rows


def _play_many(args: tuple[list[int], int, tuple[float, float, float], int, float,
                          tuple[float, float, float]]) -> np.ndarray:
    hands, seed, rates, stages, fold, risky = args
    return np.concatenate([play(i, seed, rates, stages, fold, risky) for i in hands])


def collect(hands: int, seed: int, workers: int, out: Path, rates: tuple[float, float, float],
            stages: int = 0, fold: float = 0.0,
            risky: tuple[float, float, float] = (0.0, 0.04, 0.02)) -> None:
    if len(load_stages(stages)) < stages:
        raise SystemExit(f"--stages {stages}: only {len(load_stages())} stage(s) are shipped")
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    chunks = [list(range(i, min(hands, i + 50))) for i in range(0, hands, 50)]
    parts: list[np.ndarray] = []
    done = 0
    with mp.get_context("spawn").Pool(workers) as pool:
        for rows in pool.imap(_play_many, [(c, seed, rates, stages, fold, risky)
                                                  for c in chunks]):
            parts.append(rows)
            done += len(rows) // 4
            if done % 1000 < 50:
                print(f"{done}/{hands} hands, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    data = np.concatenate(parts)
    np.save(out / f"rows-{seed}.npy", data)
    meta = {"hands": hands, "seed": seed, "workers": workers, "rates": rates, "stages": stages,
            "fold": fold, "risky": risky, "targeted": int(data[:, -1].sum()),
            "seconds": round(time.perf_counter() - t0, 1),
            "features": {g: list(f) for g, f in GROUPS}}
    (out / f"rows-{seed}.json").write_text(json.dumps(meta), encoding="utf-8")
    print(json.dumps(meta))


V1_CLAIM = ("claim", "gain", "concealed", "late", "ready", "pon", "shanten")


def load(data: Path) -> tuple[list[tuple[np.ndarray, dict]], list[dict]]:
    """Every ``rows-*.npy`` with its metadata (a file without a feature list is the
    first experiment's, whose claims had the first seven claim features; a file
    without the fold group explored no folding, so its fold sums are zero)."""
    parts, metas = [], []
    for f in sorted(data.glob("rows-*.npy")):
        meta = json.loads(f.with_suffix(".json").read_text(encoding="utf-8"))
        meta.setdefault("features", {"discard": list(DISCARD_FEATURES), "claim": list(V1_CLAIM),
                                     "win": list(WIN_FEATURES)})
        parts.append((np.load(f), meta))
        metas.append(meta)
    if not parts:
        raise SystemExit(f"no rows-*.npy in {data}")
    return parts, metas


def design(parts: list[tuple[np.ndarray, dict]]) -> tuple[np.ndarray, np.ndarray]:
    """One matrix over every file: [the current features, each older file's
    differing groups in a block of its own, 1 and dealer per file] and the
    outcome columns [台, points, explored discards, claims, wins, folds].

    A group whose features changed between experiments cannot share columns (the
    older rows lack the new sums, and their randomised choices drove the old
    and new sums together), so the older rows get that group in columns of their
    own; the groups that did not change are fitted on all the rows. Each
    experiment's choices were random on their own, so the blocks do not bias
    one another."""
    blocks: list[np.ndarray] = []
    outs: list[np.ndarray] = []
    n_total = sum(len(r) for r, _ in parts)
    extra_cols: list[np.ndarray] = []
    at = 0
    for rows, meta in parts:
        n = len(rows)
        x = np.zeros((n, WIDTH))
        col = 0
        for g, names in GROUPS:
            have = meta["features"].get(g)
            if have is None:                # not explored then: zero in these rows
                continue
            width = len(have)
            if list(have) == list(names):
                x[:, OFFSET[g]:OFFSET[g] + width] = rows[:, col:col + width]
            else:
                e = np.zeros((n_total, width))
                e[at:at + n] = rows[:, col:col + width]
                extra_cols.append(e)
            col += width
        nuis = np.zeros((n_total, 2))
        nuis[at:at + n, 0] = 1.0
        nuis[at:at + n, 1] = rows[:, col]
        extra_cols.append(nuis)
        blocks.append(x)
        o = np.zeros((n, 6))
        o[:, :5] = rows[:, col + 1:col + 6]
        if rows.shape[1] > col + 6:         # the explored folds (files since the group)
            o[:, 5] = rows[:, col + 6]
        outs.append(o)
        at += n
    x = np.column_stack([np.concatenate(blocks)] + extra_cols)
    return x, np.concatenate(outs)


def fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Least squares of the outcome ``y`` on ``x`` (the current features first, then
    nuisance columns): (weights, standard errors, covariance) of the features only."""
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ beta
    sigma2 = resid @ resid / max(1, len(y) - x.shape[1])
    cov = sigma2 * np.linalg.pinv(x.T @ x)
    return beta[:WIDTH], np.sqrt(np.clip(np.diag(cov), 0, None))[:WIDTH], cov[:WIDTH, :WIDTH]


class _Probe(MasterBot):
    """L5 (no stages) that, at each decision, scores the other candidates with
    ``fit`` and adds up what the corrections would be predicted to gain."""

    def __init__(self, seed: int, fit: Weights, tally: dict[str, float]):
        super().__init__(seed, exact=True, weights=Weights())
        self.fit, self.tally = fit, tally

    def _improve(self, group, cands, base, feats):
        xs = [feats(c, base) for c in cands if c != base]
        point = [score(self.fit.groups[group], x) for x in xs]
        bound = [self.fit.advantage(group, x) for x in xs]
        t = self.tally
        t[f"{group} decisions"] += 1
        if point and max(point) > 0:
            t[f"{group} point changes"] += 1
            t[f"{group} point gain"] += max(point)
        if bound and max(bound) > 0:
            t[f"{group} bound changes"] += 1
            t[f"{group} bound gain"] += point[bound.index(max(bound))]
        return super()._improve(group, cands, base, feats)


def ceiling(hands: int, seed: int, fit: Weights) -> dict[str, float]:
    """Per group: decisions, how many the bounded and the point-estimate
    corrections change, and their predicted gain in 台 per seat and hand."""
    keys = [f"{g} {k}" for g, _ in GROUPS for k in
            ("decisions", "point changes", "point gain", "bound changes", "bound gain")]
    tally = dict.fromkeys(keys, 0.0)
    prof = load_profile("standard")
    for n in range(hands):
        rng = random.Random(f"ceiling/{seed}/{n}")
        bots = [_Probe(rng.getrandbits(31), fit, tally) for _ in range(4)]
        h = HandState(prof, dealer=n % 4, seed=rng.getrandbits(62))
        while not h.over:
            for s in list(h.pending()):
                h.act(s, bots[s].act(h.observation(s)))
    for g, _ in GROUPS:
        for k in ("point gain", "bound gain"):
            tally[f"{g} {k}"] /= 4 * hands
    return tally


def _rates(text: str) -> tuple[float, float, float]:
    try:
        r = tuple(float(x) for x in text.split(","))
    except ValueError:
        r = ()
    if len(r) != 3 or not all(0.0 <= x <= 1.0 for x in r):
        raise argparse.ArgumentTypeError(f"{text!r}: three chances between 0 and 1, e.g. 0.15,0.25,0.15")
    return r[0], r[1], r[2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--hands", type=int, default=20000)
    c.add_argument("--seed", type=int, default=5)
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", type=Path, default=Path("out/master"))
    c.add_argument("--rates", type=_rates, default=(0.15, 0.25, 0.15),
                   help="exploration chances: discard,claim,win (each 0-1)")
    c.add_argument("--stages", type=int, choices=(0, 1), default=0,
                   help="the policy explored: L5 (0) or L5 with the shipped stage 1 (1)")
    c.add_argument("--fold", type=float, default=0.0,
                   help="chance of folding for the rest of the hand when it is asked (0-1)")
    c.add_argument("--risky", type=_rates, default=(0.0, 0.04, 0.02),
                   help="the targeted arm: chance,at,gap — with that chance throw the reader's "
                        "safest candidate when the policy's tile deals in with chance >= at "
                        "and the safest's is lower by >= gap (e.g. 0.4,0.04,0.02)")
    e = sub.add_parser("ceiling")
    e.add_argument("--hands", type=int, default=300)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--weights", type=Path, default=_PATH, help="the fit to weigh (default: stage 1)")
    f = sub.add_parser("fit")
    f.add_argument("--data", type=Path, default=Path("out/master"))
    f.add_argument("--target", choices=("tai", "points"), default="tai")
    f.add_argument("--shrink", type=float, default=0.0,
                   help="zero every weight within this many standard errors of 0")
    f.add_argument("--write", action="store_true")
    f.add_argument("--to", type=Path, default=_PATH, help="where --write stores the fit")
    f.add_argument("--groups", default="discard,claim,win,fold",
                   help="the groups --write takes from this fit; the others are kept from "
                        "--base (a fit on other, often more, hands: each group's weights are "
                        "estimated apart, the other groups' random choices being noise to it)")
    f.add_argument("--base", type=Path, default=_PATH,
                   help="where the groups not in --groups come from (default: stage 1)")
    a = ap.parse_args()
    if a.cmd == "collect":
        if not 0.0 <= a.fold <= 1.0:
            raise SystemExit(f"--fold {a.fold}: a chance between 0 and 1")
        collect(a.hands, a.seed, a.workers, a.out, a.rates, a.stages, a.fold, a.risky)
        return
    if a.cmd == "ceiling":
        if not a.weights.exists():
            raise SystemExit(f"no fit at {a.weights}")
        t = ceiling(a.hands, a.seed, load_weights(str(a.weights)))
        print(f"{a.hands} hands of L5 self-play (seed {a.seed}), the fit {a.weights}")
        for g, _ in GROUPS:
            print(f"  {g:8s} {int(t[g + ' decisions']):6d} decisions; point estimates change "
                  f"{int(t[g + ' point changes']):5d}, predicted {t[g + ' point gain']:+.4f} 台/hand; "
                  f"the bound changes {int(t[g + ' bound changes']):5d}, predicted "
                  f"{t[g + ' bound gain']:+.4f} 台/hand")
        print(f"  total: point estimates {sum(t[g + ' point gain'] for g, _ in GROUPS):+.4f}, "
              f"the bound {sum(t[g + ' bound gain'] for g, _ in GROUPS):+.4f} 台/hand")
        return
    groups = [g for g in a.groups.split(",") if g]
    if not groups or set(groups) - {g for g, _ in GROUPS}:
        raise SystemExit(f"--groups {a.groups!r}: some of discard,claim,win,fold")
    base = None
    if set(groups) != {g for g, _ in GROUPS}:
        if not a.base.exists():
            raise SystemExit(f"--base {a.base}: no such fit")
        base = json.loads(a.base.read_text(encoding="utf-8"))
    parts, metas = load(a.data)
    x, outs = design(parts)
    y = outs[:, 0] if a.target == "tai" else outs[:, 1] / 20.0
    beta, se, cov = fit(x, y)
    print(f"{len(y) // 4} hands, {len(y)} seat-hands; explored discards {int(outs[:, 2].sum())}, "
          f"claims {int(outs[:, 3].sum())}, wins {int(outs[:, 4].sum())}, folds "
          f"{int(outs[:, 5].sum())}; target {a.target}")
    out: dict[str, list[float]] = {}
    i = 0
    for group, names in GROUPS:
        ws = []
        for name in names:
            b, e = float(beta[i]), float(se[i])
            # a feature no row explored has no estimate (least squares leaves dust)
            explored = bool(np.any(x[:, i]))
            keep = explored and abs(b) > a.shrink * e
            note = "" if keep else "(zeroed)" if explored else "(not explored)"
            print(f"  {group:8s} {name:16s} {b:+9.4f} ± {e:.4f}  {note}")
            ws.append(round(b, 5) if keep else 0.0)
            i += 1
        out[group] = ws
    if a.write:
        starts = np.cumsum([0] + [len(f) for _, f in GROUPS])
        spans = [(g, f, int(j)) for (g, f), j in zip(GROUPS, starts)]
        doc = {"command": " ".join(sys.argv), "target": a.target, "data": metas,
               "features": {g: list(f) for g, f in GROUPS},
               "weights": out,
               "stderr": {g: [round(float(x), 6) for x in se[j:j + len(f)]] for g, f, j in spans},
               "cov": {g: [[float(f"{x:.4g}") for x in row[j:j + len(f)]] for row in cov[j:j + len(f)]]
                       for g, f, j in spans}}
        if base is not None:        # the other groups as --base fitted them
            for g, _ in GROUPS:
                if g not in groups:
                    for key in ("weights", "stderr", "cov"):
                        if g in base.get(key, {}):
                            doc[key][g] = base[key][g]
                        else:
                            doc[key].pop(g, None)
                    if g in base.get("features", {}):
                        doc["features"][g] = base["features"][g]
                    else:
                        doc["features"].pop(g, None)
            doc["groups"] = {"this data": groups, "from": str(a.base), "its data": base.get("data")}
        a.to.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {a.to}")


if __name__ == "__main__":
    main()

"""Fit the table reader (bots/reader.py) on self-play, with the engine's truth as labels.

    .venv/bin/python bench/train_reader.py --hands 3000 --seed 7 [--workers 2] [--write]

Self-play hands at mixed tables (L4, L5, efficiency; every seat's bot drawn
from the hand's seed) are played in process. At every turn where a seat must
throw a tile, for each opponent the model's features are read from the seat's
own observation (``View``), and the labels from the engine: is that opponent ready
(its ``waits`` are not empty), and for a ready one, which kinds are its waits.
The last ``--holdout`` share of hands (by hand number) is never fitted: on it the
script prints the log-loss and the reliability tables — the predicted chance
that the tile the seat actually threw was an opponent's winning tile (deal-in
risk) against how often it was, by bins. ``--write`` saves the weights to
``src/twmahjong/bots/reader.json`` with the seed, data size and time.

Two logistic regressions, fitted by Newton's method with a small L2 penalty
(numpy). Everything derives from ``--seed``: the same command writes the same file.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from twmahjong.bots.arena import make_seat_bot
from twmahjong.bots.reader import (READY_FEATURES, WEIGHTS, WIN_FEATURES,
                                   _river, possible, ready_features,
                                   win_features)
from twmahjong.bots.view import View
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tile

POOL = ["L5", "L5", "L4", "efficiency", "efficiency"]


def discard_turns(hand_no: int, seed: int) -> Iterator[tuple[HandState, View, dict]]:
    """One self-play hand at a mixed table (every seat's bot drawn from the hand's
    seed): at every turn where a seat must throw a tile, the engine's hand, the
    seat's own view and the move it chose, before it is made."""
    rng = random.Random(f"reader/{seed}/{hand_no}")
    prof = load_profile("standard")
    specs = [rng.choice(POOL) for _ in range(4)]
    bots = [make_seat_bot(sp, rng.getrandbits(31), exact=True) for sp in specs]
    h = HandState(prof, dealer=hand_no % 4, seed=rng.getrandbits(62))
    while not h.over:
        for s in list(h.pending()):
            obs = h.observation(s)
            acts = h.pending()[s]
            a = bots[s].act(obs)
            if len(acts) > 1 and any(x.type == "discard" for x in acts):
                yield h, View.from_observation(obs), (a if isinstance(a, dict) else a.to_json())
            h.act(s, a)


def thrown_kind(js: dict) -> int | None:
    """The tile a move throws (a discard, or a declaration's discard), if any."""
    return parse_tile(js["tile"]) if js.get("type") in ("discard", "declare") and js.get("tile") else None


def play(hand_no: int, seed: int) -> dict:
    """One self-play hand's rows: ready (features, label), wins (features, label),
    and per thrown tile the rows the reliability table needs."""
    ready_x: list[list[float]] = []
    ready_y: list[int] = []
    win_x: list[list[float]] = []
    win_y: list[int] = []
    thrown: list[dict] = []
    for h, v, js in discard_turns(hand_no, seed):
        rows: dict[int, tuple] = {}
        for o in v.opponents():
            waits = h.seats[o].waits           # the truth: this seat never reads it
            rf = ready_features(v, o)
            rv = _river(v, o)
            rows[o] = (rf, v.declared[o], waits, rv)
            if not v.declared[o]:
                ready_x.append(rf)
                ready_y.append(1 if waits else 0)
            if waits:
                for k in range(34):
                    if possible(v.unseen, k):
                        win_x.append(win_features(v, o, k, rv))
                        win_y.append(1 if k in waits else 0)
        k = thrown_kind(js)
        if k is not None:
            poss = possible(v.unseen, k)
            thrown.append({
                "opps": [(rf, decl, poss, win_features(v, o, k, rv) if poss else None)
                         for o, (rf, decl, _w, rv) in rows.items()],
                "dealt": int(any(k in w for _rf, _d, w, _rv in rows.values())),
            })
    f32 = np.float32
    return {"ready": (np.asarray(ready_x, dtype=f32).reshape(-1, len(READY_FEATURES)),
                      np.asarray(ready_y, dtype=f32)),
            "wins": (np.asarray(win_x, dtype=f32).reshape(-1, len(WIN_FEATURES)),
                     np.asarray(win_y, dtype=f32)),
            "thrown": thrown}


def _play_many(args: tuple[list[int], int, Callable[[int, int], dict]]) -> list[dict]:
    hands, seed, play_one = args
    return [play_one(i, seed) for i in hands]


def play_hands(hands: int, seed: int, workers: int = 1,
               play_one: Callable[[int, int], dict] = play) -> list[dict]:
    """Every hand's rows (``play_one``: ``play``, or another bench's rows of the same
    hands), in hand order; with ``workers``, the hands are split by number over that
    many processes, so the rows are the same."""
    if workers <= 1:
        return [play_one(i, seed) for i in range(hands)]
    chunks = [(list(range(i, hands, workers)), seed, play_one) for i in range(workers)]
    with mp.get_context("spawn").Pool(workers) as pool:
        parts = pool.map(_play_many, chunks)
    by_hand: dict[int, dict] = {}
    for (numbers, _, _), res in zip(chunks, parts):
        by_hand.update(zip(numbers, res))
    return [by_hand[i] for i in range(hands)]


def stack(data: list[dict], part: str, which: range) -> tuple[np.ndarray, np.ndarray]:
    """The ``part`` rows ("ready" or "wins") of hands ``which``: features and labels."""
    xs = np.concatenate([data[i][part][0] for i in which]).astype(np.float64)
    ys = np.concatenate([data[i][part][1] for i in which]).astype(np.float64)
    return xs, ys


def thrown_chances(data: list[dict], which: range, ready_p: Callable, win_p: Callable
                   ) -> tuple[list[float], list[int]]:
    """Per tile thrown in hands ``which``: the chance it was an opponent's winning
    tile, 1 − Π(1 − ready × wins) over the opponents (a declared one is ready), by
    the models ``ready_p`` and ``win_p`` (a feature row → a chance); and whether it was."""
    pred: list[float] = []
    obs: list[int] = []
    for i in which:
        for t in data[i]["thrown"]:
            safe = 1.0
            for rf, declared, poss, wf in t["opps"]:
                pr = 1.0 if declared else ready_p(rf)
                pw = win_p(wf) if poss else 0.0
                safe *= 1.0 - pr * pw
            pred.append(1.0 - safe)
            obs.append(t["dealt"])
    return pred, obs


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, iters: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method (IRLS); the bias is not penalised."""
    w = np.zeros(x.shape[1])
    pen = np.full(x.shape[1], l2 * len(y))
    pen[0] = 0.0
    for _ in range(iters):
        z = np.clip(x @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        g = x.T @ (p - y) + pen * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(pen + 1e-9)
        step = np.linalg.solve(hess, g)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def _prob(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30, 30)))


def logloss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def auc(p, y) -> float:
    """Area under the ROC curve: the chance a positive row is ranked above a negative
    one (ties count half), by ranks (Mann-Whitney)."""
    p = np.asarray(p, dtype=float)
    y = np.asarray(y, dtype=float)
    _, where, count = np.unique(p, return_inverse=True, return_counts=True)
    ranks = (np.cumsum(count) - (count - 1) / 2.0)[where]       # 1-based, ties averaged
    pos = float(y.sum())
    neg = len(y) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    return float((ranks[y == 1].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


def recalibrate(ready: np.ndarray, z: np.ndarray, group: np.ndarray, dealt: np.ndarray,
                a_grid: np.ndarray) -> tuple[float, float]:
    """One scale and shift of a winning-tile model's log-odds, p = σ(a + b·z) (``z``
    −inf where the tile cannot win), chosen on a grid by the log-loss of each thrown
    tile's deal-in chance 1 − Π(1 − ready·wins) over its rows (``group``: the thrown
    tile's number, 0 to ``len(dealt)`` − 1). Returns (a, b)."""
    finite = np.isfinite(z)
    zz = np.where(finite, z, 0.0)
    best = (math.inf, 0.0, 1.0)
    for a_ in a_grid:
        for b_ in np.arange(0.6, 1.61, 0.05):
            w_ = np.where(finite, 1.0 / (1.0 + np.exp(-(a_ + b_ * zz))), 0.0)
            safe = np.ones(len(dealt))
            np.multiply.at(safe, group, 1.0 - ready * w_)
            loss = logloss(1.0 - safe, dealt)
            if loss < best[0]:
                best = (loss, float(a_), float(b_))
    return best[1], best[2]


def reliability(pred: list[float], obs: list[int], edges: list[float]) -> list[tuple[str, int, float, float]]:
    """(bin, count, mean predicted, observed rate) per bin."""
    out = []
    for lo, hi in zip(edges, edges[1:]):
        idx = [i for i, p in enumerate(pred) if lo <= p < hi]
        if idx:
            out.append((f"{lo:.2f}-{hi:.2f}", len(idx), sum(pred[i] for i in idx) / len(idx),
                        sum(obs[i] for i in idx) / len(idx)))
    return out


def data_options(ap: argparse.ArgumentParser, workers: int = 1) -> None:
    """Which self-play hands, and which of them are held out (this bench's and
    ``reader_net.py``'s: the same options give the same hands)."""
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--holdout", type=float, default=0.2)
    ap.add_argument("--workers", type=int, default=workers)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_options(ap)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    a = ap.parse_args()
    t0 = time.time()
    split = int(a.hands * (1 - a.holdout))
    data = play_hands(a.hands, a.seed, a.workers)
    t_play = time.time() - t0
    train, test = range(split), range(split, a.hands)
    rx, ry = stack(data, "ready", train)
    wx, wy = stack(data, "wins", train)
    t1 = time.time()
    rw = fit(rx, ry)
    ww = fit(wx, wy)

    # Recalibrate ``wins`` on the tiles players actually threw (fitted hands only):
    # the shapes model is fitted over every possible kind, but a thrown tile is one
    # its holder did not need, and there the raw model under-predicts (by about half
    # above 10%). One scale and shift of its log-odds, p = σ(a + b·z), chosen by
    # the log-loss of 1 − Π(1 − ready·wins) over a grid, is folded into the weights.
    cal_r, cal_z, cal_y, cal_g = [], [], [], []
    for g, i in enumerate(train):
        for t in data[i]["thrown"]:
            for rf, declared, poss, wf in t["opps"]:
                cal_r.append(1.0 if declared else float(_prob(np.asarray([rf]), rw)[0]))
                cal_z.append(float(np.asarray(wf) @ ww) if poss else -np.inf)
                cal_g.append(len(cal_y))
            cal_y.append(t["dealt"])
    cal_a, cal_b = recalibrate(np.asarray(cal_r), np.asarray(cal_z), np.asarray(cal_g),
                               np.asarray(cal_y, dtype=float), np.arange(-0.5, 2.01, 0.1))
    ww = ww * cal_b
    ww[0] += cal_a
    print(f"wins recalibrated on {len(cal_y)} thrown tiles: log-odds × {cal_b:.2f} + {cal_a:.2f}")

    t_fit = time.time() - t1
    trx, tr_y = stack(data, "ready", test)
    twx, tw_y = stack(data, "wins", test)
    print(f"seed {a.seed}; {a.hands} hands ({split} fitted, {a.hands - split} held out); "
          f"ready rows {len(ry)} (+{len(tr_y)} held out), win rows {len(wy)} (+{len(tw_y)} held out); "
          f"self-play {t_play:.0f} s, fit {t_fit:.1f} s")
    base_r = float(ry.mean())
    base_w = float(wy.mean())
    print(f"held-out log-loss: ready {logloss(_prob(trx, rw), tr_y):.4f} (base rate {logloss(np.full(len(tr_y), base_r), tr_y):.4f}); "
          f"wins {logloss(_prob(twx, ww), tw_y):.4f} (base rate {logloss(np.full(len(tw_y), base_w), tw_y):.4f})")
    # reliability: the chance the thrown tile was an opponent's winning tile
    pred, obs = thrown_chances(data, test, lambda rf: float(_prob(np.asarray([rf]), rw)[0]),
                               lambda wf: float(_prob(np.asarray([wf]), ww)[0]))
    print(f"held-out AUC: ready {auc(_prob(trx, rw), tr_y):.4f}, wins {auc(_prob(twx, ww), tw_y):.4f}, "
          f"thrown tile dealt in {auc(pred, obs):.4f}")
    edges = [0.0, 0.01, 0.02, 0.04, 0.07, 0.10, 0.15, 0.25, 1.01]
    print(f"\nheld-out deal-in risk of the tile thrown ({len(pred)} discards)")
    print(f"{'predicted':>11} {'discards':>9} {'mean predicted':>15} {'observed':>9}")
    for b, n, mp_, ob in reliability(pred, obs, edges):
        print(f"{b:>11} {n:>9} {mp_:>15.4f} {ob:>9.4f}")
    print(f"{'all':>11} {len(pred):>9} {sum(pred) / max(1, len(pred)):>15.4f} "
          f"{sum(obs) / max(1, len(obs)):>9.4f}")
    rp = _prob(trx, rw)
    print("\nheld-out readiness (opponents not declared)")
    for b, n, mp_, ob in reliability(list(map(float, rp)), list(map(int, tr_y)),
                                     [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01]):
        print(f"{b:>11} {n:>9} {mp_:>15.4f} {ob:>9.4f}")
    if a.write:
        doc = {"about": "bots/reader.py weights, written by bench/train_reader.py",
               "seed": a.seed, "hands": a.hands, "fitted_hands": split,
               "ready_rows": int(len(ry)), "win_rows": int(len(wy)),
               "seconds": round(time.time() - t0, 1),
               "ready": {"features": list(READY_FEATURES), "weights": [round(float(x), 6) for x in rw]},
               "wins": {"features": list(WIN_FEATURES), "weights": [round(float(x), 6) for x in ww]}}
        a.out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

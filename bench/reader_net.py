"""Does a small network over each opponent's river read its waits better than the
reader's logistic? (The reader needs the order of the discards.)

    .venv/bin/python bench/reader_net.py --hands 12000 --seed 7 --workers 2 --cache /tmp/rn.npz
    .venv/bin/python bench/reader_net.py --cache /tmp/rn.npz --epochs 1 --write --out /tmp/net.json

(the first plays and fits, 24 minutes on the shared 2-core machine and a 4 GB
cache; the second fits again from the cache in 2 minutes and writes a fit with the
network, which ``paired.py L6:reader=PATH``, ``oracle.py RL6:θ:PATH`` and
``oracle.py pools --reader PATH`` take).

The same self-play hands and hold-out as ``bench/train_reader.py`` (same seed, same
tables, the last ``--holdout`` share never fitted). Every winning-tile row (a
ready opponent, a kind that could still win for it) gets, beside the reader's own
features, a window of the nine kinds around it in its suit — for each: whether the
opponent threw it, how early (its first copy's place in the river), whether late,
whether from the hand (手切), whether in its melds, whether thrown by anyone since
its hand last changed, and how many copies this seat cannot see — its rank, and
the opponent's readiness features. A one-hidden-layer network (numpy, Adam, early
stopping on the last tenth of the fitted hands) is fitted beside the logistic on
the reader's features alone, and both are scored on the held-out hands: the AUC
of the winning tiles, and of the tiles players actually threw (with the shipped
readiness model), which is what a discard decision needs. With ``--write`` the
network's log-odds are recalibrated on the thrown tiles of the fitted hands, as
``train_reader.py`` does the logistic's, and read back from the written file.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from twmahjong.bots.reader import (READY_FEATURES, WEIGHTS, WIDE_INPUTS, WIN_FEATURES, _river, _window,
                                   possible, ready_features, weights, wide_features, win_features)

from train_reader import (auc, data_options, discard_turns, fit, logloss, play_hands, recalibrate,
                          thrown_kind)


def play(hand_no: int, seed: int) -> dict:
    """One self-play hand's winning-tile rows (the reader's features, the wide ones,
    the label) and, per tile thrown, per opponent, what the deal-in chance needs."""
    base_x, wide_x, ys = [], [], []
    t_rf, t_flags, t_wf, t_wide, t_group, t_dealt = [], [], [], [], [], []
    nb, nw = len(WIN_FEATURES), WIDE_INPUTS + len(READY_FEATURES)
    for h, v, js in discard_turns(hand_no, seed):
        rows = {}
        for o in v.opponents():
            waits = h.seats[o].waits           # the truth: this seat never reads it
            rv = _river(v, o)
            rf = ready_features(v, o)
            rows[o] = (rf, waits, rv, _window(v, o, rv))
            if waits:
                for k in range(34):
                    if possible(v.unseen, k):
                        base_x.append(win_features(v, o, k, rv))
                        wide_x.append(wide_features(v, k, rows[o][3]) + rf)
                        ys.append(1 if k in waits else 0)
        k = thrown_kind(js)
        if k is not None:
            poss = possible(v.unseen, k)
            for o, (rf, _w, rv, win) in rows.items():
                t_rf.append(rf)
                t_flags.append((1.0 if v.declared[o] else 0.0, 1.0 if poss else 0.0))
                t_wf.append(win_features(v, o, k, rv) if poss else [0.0] * nb)
                t_wide.append(wide_features(v, k, win) + rf if poss else [0.0] * nw)
                t_group.append(len(t_dealt))
            t_dealt.append(int(any(k in w for _rf, w, _rv, _win in rows.values())))
    f32 = np.float32
    return {"base": np.asarray(base_x, dtype=f32).reshape(-1, nb),
            "wide": np.asarray(wide_x, dtype=f32).reshape(-1, nw),
            "y": np.asarray(ys, dtype=f32),
            "t_rf": np.asarray(t_rf, dtype=f32).reshape(-1, len(READY_FEATURES)),
            "t_flags": np.asarray(t_flags, dtype=f32).reshape(-1, 2),
            "t_wf": np.asarray(t_wf, dtype=f32).reshape(-1, nb),
            "t_wide": np.asarray(t_wide, dtype=f32).reshape(-1, nw),
            "t_group": np.asarray(t_group, dtype=np.int32), "t_dealt": np.asarray(t_dealt, dtype=f32)}


class Net:
    """logit = w·x_base (the reader's logistic, a skip) + v·relu(W·[x_base, x_wide] + b)."""

    def __init__(self, d_base: int, d_all: int, hidden: int, rng: np.random.Generator):
        self.p = {"w": np.zeros(d_base, np.float32),
                  "W": (rng.standard_normal((d_all, hidden)) * np.sqrt(2.0 / d_all)).astype(np.float32),
                  "b": np.zeros(hidden, np.float32),
                  "v": np.zeros(hidden, np.float32)}
        self.m = {k: np.zeros_like(x) for k, x in self.p.items()}
        self.s = {k: np.zeros_like(x) for k, x in self.p.items()}
        self.t = 0

    def logit(self, xb: np.ndarray, xa: np.ndarray) -> np.ndarray:
        h = np.maximum(xa @ self.p["W"] + self.p["b"], 0.0)
        return xb @ self.p["w"] + h @ self.p["v"]

    def step(self, xb: np.ndarray, xa: np.ndarray, y: np.ndarray, lr: float, l2: float) -> None:
        pre = xa @ self.p["W"] + self.p["b"]
        h = np.maximum(pre, 0.0)
        z = xb @ self.p["w"] + h @ self.p["v"]
        g = (1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))) - y) / len(y)
        gh = np.outer(g, self.p["v"]) * (pre > 0)
        grads = {"w": xb.T @ g, "v": h.T @ g + l2 * self.p["v"],
                 "W": xa.T @ gh + l2 * self.p["W"], "b": gh.sum(0)}
        self.t += 1
        for k, gr in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * gr
            self.s[k] = 0.999 * self.s[k] + 0.001 * gr * gr
            mh = self.m[k] / (1 - 0.9 ** self.t)
            sh = self.s[k] / (1 - 0.999 ** self.t)
            self.p[k] -= (lr * mh / (np.sqrt(sh) + 1e-8)).astype(np.float32)


def _sig(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))


def load_or_play(a: argparse.Namespace) -> dict[str, np.ndarray]:
    """Every hand's rows stacked, with ``hand`` (each row's hand number) per part;
    cached in ``--cache`` so a second fit does not play again."""
    if a.cache and a.cache.exists():
        with np.load(a.cache) as z:
            return dict(z)
    t0 = time.time()
    data = play_hands(a.hands, a.seed, a.workers, play)
    print(f"self-play {time.time() - t0:.0f} s", flush=True)
    out: dict[str, np.ndarray] = {}
    for key in data[0]:
        parts = [d[key] for d in data]
        if key == "t_group":                      # group numbers run on across hands
            base, shifted = 0, []
            for d in data:
                shifted.append(d[key] + base)
                base += len(d["t_dealt"])
            parts = shifted
        out[key] = np.concatenate(parts)
    out["hand"] = np.concatenate([np.full(len(d["y"]), i, np.int32) for i, d in enumerate(data)])
    out["t_hand"] = np.concatenate([np.full(len(d["t_dealt"]), i, np.int32) for i, d in enumerate(data)])
    if a.cache:
        np.savez(a.cache, **out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    data_options(ap, workers=2)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--write", action="store_true", help="add the network to the reader's fit")
    ap.add_argument("--out", type=Path, default=WEIGHTS)
    a = ap.parse_args()
    d = load_or_play(a)
    hands = int(d["hand"].max()) + 1
    split = int(hands * (1 - a.holdout))
    val_from = int(split * 0.9)
    tr = d["hand"] < val_from
    va = (d["hand"] >= val_from) & (d["hand"] < split)
    te = d["hand"] >= split
    xb, xw, y = d["base"], d["wide"], d["y"]
    print(f"{hands} hands; win rows: {tr.sum()} train, {va.sum()} validation, {te.sum()} held out; "
          f"{xb.shape[1]} reader features + {xw.shape[1]} wide", flush=True)
    fitted = tr | va
    w_log = fit(xb[fitted].astype(np.float64), y[fitted].astype(np.float64))
    xa = np.concatenate([xb, xw], 1)
    mu, sd = xa[tr].mean(0), xa[tr].std(0) + 1e-6
    xa = ((xa - mu) / sd).astype(np.float32)
    rng = np.random.default_rng(a.seed)
    net = Net(xb.shape[1], xa.shape[1], a.hidden, rng)
    net.p["w"] = w_log.astype(np.float32)
    xb_tr, xa_tr, y_tr = xb[tr], xa[tr], y[tr]
    xb_va, xa_va, y_va = xb[va], xa[va], y[va]

    def check(label: str) -> float:
        z = net.logit(xb_va, xa_va)
        ll = logloss(_sig(z), y_va)
        print(f"{label}: validation log-loss {ll:.4f}, AUC {auc(z, y_va):.4f}", flush=True)
        return ll

    best = (check("start (the logistic)"), {k: x.copy() for k, x in net.p.items()})
    bs, quarter = 2048, max(1, len(y_tr) // 4)
    for ep in range(1, a.epochs + 1):
        order = rng.permutation(len(y_tr))
        for q in range(4):
            part = order[q * quarter:(q + 1) * quarter]
            for i in range(0, len(part), bs):
                j = part[i:i + bs]
                net.step(xb_tr[j], xa_tr[j], y_tr[j], a.lr, a.l2)
            ll = check(f"epoch {ep - 1}.{q + 1}/4")
            if ll < best[0]:
                best = (ll, {k: x.copy() for k, x in net.p.items()})
    net.p = best[1]
    z_log = xb[te] @ w_log
    z_net = net.logit(xb[te], xa[te])
    print(f"\nheld out ({te.sum()} win rows): logistic log-loss {logloss(_sig(z_log), y[te]):.4f} "
          f"AUC {auc(z_log, y[te]):.4f}; network log-loss {logloss(_sig(z_net), y[te]):.4f} "
          f"AUC {auc(z_net, y[te]):.4f}")
    # the tiles thrown, with the shipped readiness model: 1 − Π(1 − ready·wins)
    rw = np.asarray(weights()[0])
    pr = np.where(d["t_flags"][:, 0] > 0, 1.0, _sig(d["t_rf"] @ rw))
    poss = d["t_flags"][:, 1] > 0
    ta = ((np.concatenate([d["t_wf"], d["t_wide"]], 1) - mu) / sd).astype(np.float32)
    for name, pw in (("logistic", _sig(d["t_wf"] @ w_log)), ("network", _sig(net.logit(d["t_wf"], ta)))):
        safe = np.ones(len(d["t_dealt"]))
        np.multiply.at(safe, d["t_group"], 1.0 - pr * np.where(poss, pw, 0.0))
        held = d["t_hand"] >= split
        p_, o_ = 1.0 - safe[held], d["t_dealt"][held]
        print(f"thrown tiles held out ({len(o_)}, {int(o_.sum())} dealt in), {name}: AUC {auc(p_, o_):.4f}, "
              f"log-loss {logloss(p_, o_):.4f}")
    # Recalibrate on the tiles players threw in the fitted hands (as train_reader.py
    # does the logistic): one scale and shift of the network's log-odds, p = σ(a + b·z),
    # chosen by the log-loss of 1 − Π(1 − ready·wins), folded into the weights.
    z_t = net.logit(d["t_wf"], ta)
    fit_t = d["t_hand"] < split
    fit_rows = fit_t[d["t_group"]]
    groups = np.unique(d["t_group"][fit_rows], return_inverse=True)[1]
    cal_a, cal_b = recalibrate(pr[fit_rows], np.where(poss[fit_rows], z_t[fit_rows], -np.inf), groups,
                               d["t_dealt"][fit_t], np.arange(-1.0, 1.01, 0.1))
    print(f"network recalibrated on {int(fit_t.sum())} thrown tiles: log-odds × {cal_b:.2f} + {cal_a:.2f}")
    pw = np.where(poss, _sig(cal_a + cal_b * z_t), 0.0)
    safe = np.ones(len(d["t_dealt"]))
    np.multiply.at(safe, d["t_group"], 1.0 - pr * pw)
    held = d["t_hand"] >= split
    print(f"thrown tiles held out, network recalibrated: AUC {auc(1.0 - safe[held], d['t_dealt'][held]):.4f}, "
          f"log-loss {logloss(1.0 - safe[held], d['t_dealt'][held]):.4f}")
    if a.write:
        W = net.p["W"].astype(np.float64) / sd[:, None]
        b = net.p["b"].astype(np.float64) - (mu / sd) @ net.p["W"].astype(np.float64)
        skip = net.p["w"].astype(np.float64) * cal_b
        skip[0] += cal_a
        doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
        doc["wins_net"] = {
            "about": "the winning-tile network, written by bench/reader_net.py "
                     f"(--hands {hands} --seed {a.seed} --hidden {a.hidden}); inputs: WIN_FEATURES, "
                     "wide_features, READY_FEATURES; standardisation folded into W and b",
            "inputs": int(W.shape[0]), "hidden": int(W.shape[1]),
            "skip": [round(float(x), 6) for x in skip],
            "W": [[round(float(x), 5) for x in row] for row in W],
            "b": [round(float(x), 5) for x in b],
            "v": [round(float(x) * cal_b, 6) for x in net.p["v"]]}
        a.out.write_text(json.dumps(doc, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
        # the written fit reads as the network does: the same log-odds on held-out rows
        back = weights(a.out).net
        rows = np.flatnonzero(te)[:2000]
        mine = cal_a + cal_b * net.logit(xb[rows], xa[rows])
        theirs = np.asarray([back.logit(list(map(float, xb[i])), list(map(float, xw[i][:WIDE_INPUTS])),
                                        list(map(float, xw[i][WIDE_INPUTS:]))) for i in rows])
        print(f"wrote {a.out}; read back: largest log-odds difference over {len(rows)} held-out rows "
              f"{float(np.max(np.abs(mine - theirs))):.2e}")


if __name__ == "__main__":
    main()

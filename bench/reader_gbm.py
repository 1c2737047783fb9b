"""Would a model with interactions read the table better on the reader's own features?
(bench, not a test; needs scikit-learn, which the project does not)

    .venv/bin/pip install scikit-learn
    .venv/bin/python bench/reader_gbm.py --hands 3000 --seed 7

The same self-play rows as ``train_reader.py`` (same hands, same features, the same
last 20% held out) fitted twice: the reader's logistic regressions, and gradient-
boosted trees (``HistGradientBoostingClassifier``), which find the interactions and
non-linear shapes a logistic cannot. Printed: held-out log-loss and AUC of each,
for readiness, for winning tiles, and for the combined chance that a thrown tile
dealt in (neither recalibrated). If the trees read barely better, the reader is
limited by what its features say, not by the model's form.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import train_reader as tr  # noqa: E402  (bench/train_reader.py: the rows and the logistic fit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.metrics import roc_auc_score
    except ImportError:
        raise SystemExit("reader_gbm.py needs scikit-learn: .venv/bin/pip install scikit-learn") from None
    t0 = time.time()
    data = tr.play_hands(a.hands, a.seed, a.workers)
    split = int(a.hands * 0.8)
    train, test = range(split), range(split, a.hands)
    print(f"seed {a.seed}, {a.hands} hands ({split} fitted), self-play {time.time() - t0:.0f} s")
    models = {}
    for part in ("ready", "wins"):
        x, y = tr.stack(data, part, train)
        tx, ty = tr.stack(data, part, test)
        w = tr.fit(x, y)
        trees = HistGradientBoostingClassifier(max_iter=300, max_leaf_nodes=31, early_stopping=True,
                                               random_state=a.seed).fit(x, y)
        pl, pt = tr._prob(tx, w), trees.predict_proba(tx)[:, 1]
        print(f"{part:>5}: {len(y)} rows, {len(ty)} held out; logistic log-loss {tr.logloss(pl, ty):.4f} "
              f"AUC {roc_auc_score(ty, pl):.4f}; trees log-loss {tr.logloss(pt, ty):.4f} "
              f"AUC {roc_auc_score(ty, pt):.4f}")
        models[part] = (w, trees)
    (rw, rt), (ww, wt) = models["ready"], models["wins"]
    by_logistic, dealt = tr.thrown_chances(data, test, lambda f: float(tr._prob(np.asarray([f]), rw)[0]),
                                           lambda f: float(tr._prob(np.asarray([f]), ww)[0]))
    by_trees, _ = tr.thrown_chances(data, test, lambda f: float(rt.predict_proba(np.asarray([f]))[0, 1]),
                                    lambda f: float(wt.predict_proba(np.asarray([f]))[0, 1]))
    print(f"thrown tiles held out: {len(dealt)} ({sum(dealt)} dealt in); deal-in AUC logistic "
          f"{roc_auc_score(dealt, by_logistic):.4f}, trees {roc_auc_score(dealt, by_trees):.4f}")

if __name__ == "__main__":
    main()

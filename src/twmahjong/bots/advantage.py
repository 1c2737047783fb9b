"""What L6 knows that L5 does not: how much better (or worse) than L5's own choice
each other choice turned out, fitted on L5's self-play.

L5 is a weighted heuristic; its weights (efficiency first, safety inside half a
unit, claims by a fixed margin, every win taken) were tuned by whole matches,
which can only resolve a few knobs. Here every decision is an experiment: in
self-play (``bench/train_master.py``) an L5 seat now and then makes another of
its candidate moves, chosen at random with known chances, and the hand's outcome
for that seat (net 台) is regressed on the randomised part of those choices.
Because the choice is random, the fit needs no model of the position's value:
the regressors are centred on their expectation under the random choice, so
anything the position itself is worth averages out. What it estimates is
``A(c) = Q(c) − Q(L5's choice)`` with L5 playing on, as a linear function of the
features below; L6 then makes the candidate whose ``A`` has the largest lower
bound (``Weights.advantage``), when that bound is above zero — one step of
policy improvement over L5, measured rather than modelled.

Every feature is a difference against L5's choice, so L5's choice scores 0:

* a discard: L5's efficiency units (speed, 有效牌, lookahead, 牌流, value) and the
  reader's deal-in risk in points (``reader.py``), each also scaled by the
  position (far from ready, late in the wall, opponents expected ready), and the
  shanten it gives up;
* a claim (吃 碰 槓) against passing: the gain L5 sees, 門清 given up, 碰 or 吃,
  a scoring honor pung, the melds already shown, whether it leaves the hand
  ready, dealer, how late, how many opponents look ready;
* a discard win (胡) against passing it for a self-draw (自摸 pays three): the
  台 it would score, how late, the waits left;
* folding (棄胡) for the rest of the hand — safest tiles only, no claims, wins
  still taken — against playing on, asked at each of the seat's turns with an
  opponent likely ready until it folds: how far the hand is, how many opponents look
  ready, how late, dealer, whether L5's own fold rule fires, a declared opponent.
  A whole-hand choice, so its advantage counts everything folding changes after
  it, which one-move corrections of the discard cannot see.

The weights ship as ``advantage.json`` (the training command, seeds, data size,
each weight's standard error and the covariance beside them); none at all means
L6 plays as L5. A second stage (``advantage2.json``) has the same features, but
measured against the first stage's choice in the first stage's self-play — the
next step of policy iteration — and applies after it.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

__all__ = ["CLAIM_FEATURES", "CONFIDENCE", "DISCARD_FEATURES", "FOLD_FEATURES", "FOLD_READY",
           "WIN_FEATURES", "Weights", "claim_context", "discard_features", "fold_context",
           "load_stages", "load_weights", "score", "win_context"]

DISCARD_FEATURES = (
    "eff", "eff*late", "eff*ready", "eff*far",
    "risk", "risk*far", "risk*one", "risk*late", "risk*ready",
    "shanten", "shanten*ready", "shanten*late",
    "value", "value*far",
)
CLAIM_FEATURES = ("claim", "gain", "concealed", "late", "ready", "pon", "shanten",
                  "gain*concealed", "ready_after", "dealer", "melds", "honor")
WIN_FEATURES = ("pass", "tai", "late", "waits", "ready")
FOLD_FEATURES = ("fold", "fold*one", "fold*ready", "fold*late", "fold*dealer", "fold*l5",
                 "fold*declared")
FOLD_READY = 0.5          # opponents ready in expectation from which folding is asked

LATE_WALL = 24            # tiles left to draw below which a hand is "late"

_PATH = Path(__file__).with_name("advantage.json")
STAGES = ("advantage.json", "advantage2.json")   # stage 1 fitted on L5, stage 2 on stage 1


def discard_features(eff: float, risk: float, dshanten: int, *, best_shanten: int,
                     wall_remaining: int, ready: float, value: float = 0.0) -> list[float]:
    """One candidate discard against L5's choice: ``eff`` its efficiency units
    minus L5's, ``risk`` its deal-in points minus L5's (/20: in 台), ``dshanten``
    how many shanten more it leaves, ``value`` the part of ``eff`` that is L5's
    台 term (so a fit can price the hand's value apart from its speed); the rest
    is the position. A fit from before ``value`` has fewer weights: they pair
    with the leading features, so it reads the new ones as zero."""
    late = 1.0 if wall_remaining < LATE_WALL else 0.0
    far = 1.0 if best_shanten >= 2 else 0.0
    one = 1.0 if best_shanten == 1 else 0.0
    r = risk / 20.0
    return [eff, eff * late, eff * ready, eff * far,
            r, r * far, r * one, r * late, r * ready,
            float(dshanten), dshanten * ready, dshanten * late,
            value, value * far]


def claim_context(gain: float, *, concealed: bool, wall_remaining: int, ready: float,
                  pon: bool, shanten_now: int, ready_after: bool = False, dealer: bool = False,
                  melds: int = 0, honor: bool = False) -> list[float]:
    """Claiming against passing: the sign is the caller's (+ claiming, − passing).
    ``gain`` is L5's units for the claim over passing, ``ready_after`` whether the
    claim leaves the hand ready, ``melds`` the seat's exposed melds before it,
    ``honor`` a pung of a scoring honor (中發白, own winds)."""
    c = 1.0 if concealed else 0.0
    return [1.0, gain, c, 1.0 if wall_remaining < LATE_WALL else 0.0, ready, 1.0 if pon else 0.0,
            float(shanten_now), gain * c, 1.0 if ready_after else 0.0, 1.0 if dealer else 0.0,
            float(melds), 1.0 if honor else 0.0]


def win_context(tai: float, *, wall_remaining: int, waits: int, ready: float) -> list[float]:
    """Passing a discard win against taking it (the sign is the caller's)."""
    return [1.0, tai, 1.0 if wall_remaining < LATE_WALL else 0.0,
            math.log1p(max(0, waits)), ready]


def fold_context(best_shanten: int, *, ready: float, wall_remaining: int, dealer: bool,
                 l5_folds: bool, declared: bool) -> list[float]:
    """Folding for the rest of the hand against playing on (the sign is the caller's):
    ``ready`` opponents ready in expectation, ``l5_folds`` whether L5's own rule
    (two from ready, an opponent surely ready) folds its discards already,
    ``declared`` an opponent who declared 聽."""
    return [1.0, 1.0 if best_shanten == 1 else 0.0, ready,
            1.0 if wall_remaining < LATE_WALL else 0.0, 1.0 if dealer else 0.0,
            1.0 if l5_folds else 0.0, 1.0 if declared else 0.0]


CONFIDENCE = 2.0          # standard errors an advantage must clear (a lower bound > 0)


class Weights:
    """The fitted weights and their covariance; a missing group is all zeros (L5's
    choice stands). A move replaces L5's only when its advantage is measured:
    ``w·x − confidence × √(xᵀΣx) > margin`` — the fit's own uncertainty about
    that very move, so a weight the data barely supports cannot steer play (the
    argmax of noisy estimates would otherwise pick noise)."""

    def __init__(self, raw: dict[str, list[float]] | None = None,
                 cov: dict[str, list[list[float]]] | None = None, *,
                 margin: float = 0.0, confidence: float = CONFIDENCE):
        raw = raw or {}
        self.groups = {"discard": tuple(raw.get("discard") or [0.0] * len(DISCARD_FEATURES)),
                       "claim": tuple(raw.get("claim") or [0.0] * len(CLAIM_FEATURES)),
                       "win": tuple(raw.get("win") or [0.0] * len(WIN_FEATURES)),
                       "fold": tuple(raw.get("fold") or [0.0] * len(FOLD_FEATURES))}
        self.cov = {g: tuple(tuple(r) for r in m) for g, m in (cov or {}).items()}
        self.margin = margin
        self.confidence = confidence

    def changed(self, *, margin: float | None = None, confidence: float | None = None) -> Weights:
        return Weights({g: list(w) for g, w in self.groups.items()},
                       {g: [list(r) for r in m] for g, m in self.cov.items()},
                       margin=self.margin if margin is None else margin,
                       confidence=self.confidence if confidence is None else confidence)

    def advantage(self, group: str, x: list[float]) -> float:
        """The lower bound of the measured advantage of a move over L5's (台)."""
        a = score(self.groups[group], x)
        m = self.cov.get(group)
        if m and self.confidence:
            var = sum(xi * sum(mij * xj for mij, xj in zip(row, x)) for xi, row in zip(x, m))
            a -= self.confidence * math.sqrt(max(0.0, var))
        return a


def score(w: tuple[float, ...], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x))


@cache
def load_weights(path: str | None = None) -> Weights:
    p = Path(path) if path else _PATH
    if not p.exists():
        return Weights()
    data = json.loads(p.read_text(encoding="utf-8"))
    return Weights(data.get("weights"), data.get("cov"))


@cache
def load_stages(count: int | None = None) -> tuple[Weights, ...]:
    """The shipped stages of corrections, in the order they apply (the first
    ``count`` of them; a stage whose file is missing ends the list)."""
    out = []
    for name in STAGES[:count]:
        p = Path(__file__).with_name(name)
        if not p.exists():
            break
        out.append(load_weights(str(p)))
    return tuple(out)

"""Level 6 (宗師): L5's play, corrected where self-play measured L5 wrong.

L6 first works out what L5 would do — its discard (efficiency, lookahead, 牌流,
門清, safety among near-equals, sampled search for ties), its claim, its win —
then looks at L5's other candidates: the four best discards by L5's own score
and the two the table reader (``reader.py``) finds safest, claiming or passing,
passing a discard win to play for the self-draw. Each is scored by
``advantage.py``: how much better than L5's choice such a move turned out in
L5's self-play, as a function of its efficiency, its deal-in risk and the
position. L6 makes the best of them when it is measured better than L5's, and
L5's choice otherwise. That is one step of policy improvement; a second stage,
fitted the same way on the first stage's own self-play, then corrects the
first stage's choice (policy iteration).

The same bot, given an ``Explorer``, is the experiment the weights are fitted
from (``bench/train_master.py``): it then makes one of the other candidates at
random with known chances, instead of the move its stages chose, and adds up,
per hand, the centred features of what it made.

At a live table the whole decision has a hard budget (``budget_ms``): L5's
search gets what is left of it and, when nothing is left, the best move so far
is played; in the arena (``exact``) there is no deadline, so runs replay exactly.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from .advantage import (CLAIM_FEATURES, DISCARD_FEATURES, FOLD_FEATURES, FOLD_READY,
                        WIN_FEATURES, Weights, claim_context, discard_features, fold_context,
                        load_stages, win_context)
from .defence import max_threat
from .efficiency import DiscardInfo, discard_table, shanten, useful_tiles
from .policy import LEVELS, Params, PolicyBot, _offered
from .reader import Fit, TableRead, read_table
from .value import estimate_tai, valued_honors
from .view import View

if TYPE_CHECKING:
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["BUDGET_MS", "MASTER", "Explorer", "MasterBot", "SUMMARY"]

SUMMARY = ("Experimental (arena and offline play, not yet at server tables). "
           "L5's play corrected where self-play measured it wrong: every other "
           "candidate discard, claim and discard win scored by how much better than "
           "L5's choice it turned out (fitted on L5's self-play), with a table "
           "reader's deal-in risk among its features")

MASTER: Params = replace(LEVELS[5], level=6)
BUDGET_MS = 200.0           # the whole decision at a live table (p99 target 250 ms)
TOP = 4                     # L5's best discards looked at ...
SAFEST = 2                  # ... and the reader's safest

K = TypeVar("K", int, bool)   # a candidate: a discard's kind, or claim / take the win


@dataclass
class Explorer:
    """Self-play's experiment: with chance ``discard`` (``claim``, ``win``) a seat
    makes one of its other candidates, uniformly, instead of the move its policy
    chose (L5's, or L5's corrected by the stages it plays with). Per hand
    it sums each group's centred features: what was chosen minus what the random
    choice makes on average, so the sum has mean zero whatever the position."""
    rng: random.Random
    discard: float = 0.15
    claim: float = 0.25
    win: float = 0.15
    fold: float = 0.0
    # the targeted arm: when the policy's discard reads at least ``risky_at`` likely
    # to deal in and the reader's safest candidate ``risky_gap`` less, that one is
    # thrown with chance ``risky`` — uniform exploration rarely makes the choice that
    # carries the price of risk (docs/bots.md, "A safer discard avoids the risk")
    risky: float = 0.0
    risky_at: float = 0.04
    risky_gap: float = 0.02
    sums: dict[str, list[float]] = field(init=False)
    counts: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.sums = {"discard": [0.0] * len(DISCARD_FEATURES), "claim": [0.0] * len(CLAIM_FEATURES),
                     "win": [0.0] * len(WIN_FEATURES), "fold": [0.0] * len(FOLD_FEATURES)}
        self.counts = {"discard": 0, "claim": 0, "win": 0, "fold": 0, "targeted": 0}

    def choose(self, group: str, others: list[list[float]], target: int = -1) -> int:
        """Index into ``others`` of the move made, or -1 for the policy's own choice.
        ``target`` (an index, discards only) is the targeted arm's candidate: made
        with chance ``risky`` before the uniform draw. Either way each candidate's
        chance is known, so the centred sums keep mean zero."""
        eps = getattr(self, group)
        boost = self.risky if target >= 0 else 0.0
        pick = -1
        if target >= 0 and self.rng.random() < boost:
            pick = target
            self.counts["targeted"] += 1
            self.counts[group] += 1
        elif others and self.rng.random() < eps:
            pick = self.rng.randrange(len(others))
            self.counts[group] += 1
        acc = self.sums[group]
        n = len(others)
        for j, x in enumerate(others):                # minus the expectation
            p = (1.0 - boost) * eps / n + (boost if j == target else 0.0)
            for i, xi in enumerate(x):
                acc[i] -= p * xi
        if pick >= 0:
            for i, xi in enumerate(others[pick]):
                acc[i] += xi
        return pick


class MasterBot(PolicyBot):
    """Level 6. ``budget_ms`` bounds a decision at a live table; ``exact`` (the
    arena) lifts it. ``clock`` is the time source (a test may pass its own).
    ``weights`` overrides the shipped stages of corrections (``advantage.json``,
    then ``advantage2.json``): one ``Weights`` or a sequence applied in turn, and
    an empty ``Weights()`` plays as L5; ``explorer`` turns the bot into the
    training experiment; ``reader`` is another fit of the table reader's weights
    (``reader.weights(path)``)."""

    def __init__(self, seed: int = 0, name: str = "L6", *, exact: bool = False,
                 budget_ms: float = BUDGET_MS, clock: Callable[[], float] = time.perf_counter,
                 params: Params = MASTER, weights: Weights | Sequence[Weights] | None = None,
                 explorer: Explorer | None = None,
                 reader: Fit | None = None):
        super().__init__(params, seed, name, exact=exact)
        self.reader = reader                        # another fit of the reader (a bench), else the shipped one
        self.stages: tuple[Weights, ...] = (
            load_stages() if weights is None
            else (weights,) if isinstance(weights, Weights) else tuple(weights))
        self.explorer = explorer
        self.budget_ms = budget_ms
        self.clock = clock
        self._deadline: float | None = None
        self._read: TableRead | None = None
        self._eff: dict[int, float] = {}
        self._value: dict[int, float] = {}          # L5's 台 term of each discard, within _eff
        self.last_plan: dict[str, float] = {}     # the numbers behind the last correction
        # 棄胡 for the rest of the hand: asked only when a stage weighs it or the
        # experiment explores it (otherwise L6 plays exactly as without it)
        self._folds = (any(any(w.groups["fold"]) for w in self.stages)
                       or (explorer is not None and explorer.fold > 0))
        self._fold_on = False
        self._wall = -1                            # the wall when last seen: a new hand

    def act(self, observation: Observation) -> ActionJSON | Action:
        self._deadline = None if self.exact else self.clock() + self.budget_ms / 1000.0
        self._read = None
        return super().act(observation)

    def _reading(self, v: View) -> TableRead:
        if self._read is None or self._read.view is not v:
            self._read = read_table(v, self.reader)
        return self._read

    def _improve(self, group: str, cands: list[K], base: K,
                 feats: Callable[[K, K], list[float]],
                 target: Callable[[K], K | None] | None = None) -> K:
        """The move made out of ``cands``, starting from L5's ``base``. Each stage of
        corrections in turn moves to the candidate whose measured advantage over the
        current choice is best, when that clears the margin: stage 1 was fitted on
        L5's self-play, stage 2 on stage 1's (policy iteration). An explorer then
        deviates from the final choice, so its experiment measures that policy."""
        changed, best_a = 0.0, 0.0
        for w in self.stages:
            pick, top = None, w.margin
            for c in cands:
                if c != base:
                    a = w.advantage(group, feats(c, base))
                    if a > top:
                        pick, top = c, a
            if pick is not None:
                base, changed, best_a = pick, 1.0, best_a + top
        if self.explorer is not None:
            others = [c for c in cands if c != base]
            aim = target(base) if target is not None else None
            i = self.explorer.choose(group, [feats(c, base) for c in others],
                                     others.index(aim) if aim in others else -1)
            if i >= 0:
                base = others[i]
        self.last_plan = {"group": float(("discard", "claim", "win", "fold").index(group)),
                          "advantage": best_a, "changed": changed}
        return base

    # ---- folding for the rest of the hand (棄胡) --------------------------------------------

    def _new_hand(self, v: View) -> None:
        if v.wall_remaining > self._wall:          # the wall only shrinks within a hand
            self._fold_on = False
        self._wall = v.wall_remaining

    def _own_turn(self, v: View) -> ActionJSON | Action:
        if self._folds:
            self._new_hand(v)
            if not self._fold_on:
                self._ask_fold(v)
            if self._fold_on:
                return self._fold_discard(v)
        return super()._own_turn(v)

    def _ask_fold(self, v: View) -> None:
        """At each turn with an opponent likely ready and the hand not ready, until
        it folds: fold for the rest of the hand when that is measured better."""
        best_s = shanten(v.counts)
        read = self._reading(v)
        ready = read.ready_sum()
        if best_s < 1 or ready < FOLD_READY:
            return
        declared = any(v.declared[s] for s in v.opponents())
        ctx = fold_context(best_s, ready=ready, wall_remaining=v.wall_remaining,
                           dealer=v.seat == v.dealer, declared=declared,
                           l5_folds=best_s >= self.params.fold_shanten
                           and max_threat(v) >= self.params.fold_threat)
        self._fold_on = self._improve("fold", [True, False], False,
                                      lambda fold, _: ctx if fold else [-x for x in ctx])

    def _fold_discard(self, v: View) -> ActionJSON | Action:
        """Folded: the tile least likely to deal in, then the one that keeps the hand
        best (a hand that folds can still win by a self-draw)."""
        read = self._reading(v)
        kinds = sorted({int(a[1]) for a in v.legal if a[0] == "discard" and a[1] is not None})
        info = {d.kind: d for d in discard_table(v.counts, v.unseen, kinds, slack=None)}
        k = min(kinds, key=lambda k: (round(read.deal_in_points(k), 2), info[k].shanten,
                                      -info[k].useful, k))
        return _offered(v.find("discard", k))

    # ---- discards -------------------------------------------------------------------------

    def _valued_scores(self, v: View, table: list[DiscardInfo], best_s: int) -> dict[int, float]:
        self._value = {}
        self._eff = super()._valued_scores(v, table, best_s)
        return self._eff

    def _value_adjust(self, v: View, kinds: list[int]) -> dict[int, float]:
        """L5's 台 term, kept apart: the corrections weigh it on its own."""
        adj = super()._value_adjust(v, kinds)
        self._value = {k: self.params.value * a for k, a in adj.items()}
        return adj

    def _search_budget(self) -> float | None:
        if self.exact or self._deadline is None:
            return None
        return min(self.params.search_ms / 1000.0, self._deadline - self.clock())

    def _search(self, v: View, ranked: list[tuple[int, float]], table: list[DiscardInfo]) -> int:
        budget = self._search_budget()
        if budget is not None and budget <= 0:
            return ranked[0][0]              # out of time: the best move so far
        choice = super()._search(v, ranked, table)
        return self._correct_discard(v, ranked, table, choice)

    def _correct_discard(self, v: View, ranked: list[tuple[int, float]],
                         table: list[DiscardInfo], d: int) -> int:
        if self._deadline is not None and self.clock() >= self._deadline:
            return d
        read = self._reading(v)
        kinds = [k for k, _ in ranked]
        risk = {k: read.deal_in_points(k) for k in kinds}
        cands = [d] + [k for k in kinds[:TOP] if k != d]
        for k in sorted(kinds, key=lambda k: (risk[k], k))[:SAFEST]:
            if k not in cands:
                cands.append(k)
        if len(cands) == 1:
            return d
        info = {x.kind: x for x in table}
        best_s = min(x.shanten for x in table)
        ready = read.ready_sum()
        eff = {k: self._eff.get(k, self._eff.get(d, 0.0)) for k in cands}
        value = {k: self._value.get(k, 0.0) for k in cands}

        def feats(k: int, b: int) -> list[float]:
            return discard_features(eff[k] - eff[b], risk[k] - risk[b],
                                    info[k].shanten - info[b].shanten, best_shanten=best_s,
                                    wall_remaining=v.wall_remaining, ready=ready,
                                    value=value[k] - value[b])
        ex = self.explorer
        if ex is None or ex.risky <= 0:
            return self._improve("discard", cands, d, feats)

        return self._improve("discard", cands, d, feats,
                             lambda b: safer_discard(read, cands, b, ex.risky_at, ex.risky_gap))

    # ---- claims ---------------------------------------------------------------------------

    def _claim(self, v: View) -> ActionJSON | Action:
        """L5's claim (or pass), and the other of the two — passing where L5 claims,
        L5's best-scoring claim where it passes — made when it is measured better."""
        passed = v.find("pass")
        if self._folds:
            self._new_hand(v)
            if self._fold_on and passed is not None:
                return _offered(passed)            # folded: nothing claimed
        if not v.legal_types() & {"chi", "pon", "kong"} or passed is None:
            return super()._claim(v)
        base, scored, l5 = self._claim_options(v)
        if not scored:
            return super()._claim(v)
        c = l5 or max(scored, key=lambda o: o.score)
        ctx = claim_context(c.score - base, concealed=v.concealed_hand,
                            wall_remaining=v.wall_remaining, ready=self._reading(v).ready_sum(),
                            pon=c.type != "chi", shanten_now=shanten(v.counts),
                            ready_after=_shanten_after(v, c.type, c.tile, c.tiles) <= 0,
                            dealer=v.seat == v.dealer,
                            melds=sum(1 for m in v.my_melds if m.type != "concealed_kong"),
                            honor=c.type != "chi" and c.tile in valued_honors(v))
        take = self._improve("claim", [True, False], l5 is not None,
                             lambda claim, _: ctx if claim else [-x for x in ctx])
        return _offered(c.action if take else passed)

    # ---- wins -----------------------------------------------------------------------------

    def _decide_win(self, v: View) -> ActionJSON | Action | None:
        win = v.find("win")
        passed = v.find("pass")
        if v.drawn is not None or passed is None or win is None:
            return _offered(win)               # a self-draw is always taken
        waits = useful_tiles(v.counts, v.unseen, 0)[0] if shanten(v.counts) == 0 else 0
        ctx = win_context(estimate_tai(v), wall_remaining=v.wall_remaining, waits=waits,
                          ready=self._reading(v).ready_sum())
        if self._improve("win", [True, False], True,
                         lambda take, _: [-x for x in ctx] if take else ctx):
            return _offered(win)
        return _offered(passed)                # 等自摸: passed for a self-draw (過水 applies)


def safer_discard(read: TableRead, cands: list[int], b: int, at: float, gap: float) -> int | None:
    """The reader's safest of ``cands`` when ``b`` reads at least ``at`` likely to
    deal in and that one at least ``gap`` less (the experiment's targeted arm, and
    bench/worlds.py's risky decisions); else None."""
    chance = {k: read.deal_in(k) for k in cands}
    if chance[b] < at:
        return None
    safest = min(cands, key=lambda k: (chance[k], k))
    return safest if chance[safest] <= chance[b] - gap else None


def _shanten_after(v: View, t: str, tile: int, tiles: tuple[int, ...]) -> int:
    """The hand's shanten after the claim (and, for 吃 and 碰, its best discard)."""
    c = list(v.counts)
    for k in (tiles if t == "chi" else (tile,) * (2 if t == "pon" else 3)):
        c[k] -= 1
    if t == "kong":
        return shanten(c)
    return min(d.shanten for d in discard_table(c, v.unseen, slack=0, count_useful=False))

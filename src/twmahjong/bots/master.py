"""Level 6 (宗師): L5's hand, played by expected points against a read of the table.

L5 weighs safety only among discards its efficiency cannot tell apart, and folds
(棄胡) only against a declared player. L6 reads the table (``reader.py``: how likely
each opponent is ready, which tiles win for it) and decides each discard by the
expected points of the hand:

    push:  P(win) × what a win pays − this tile's deal-in risk
           − P(a later deal-in while pushing) × what it costs
    fold:  − the safest tile's deal-in risk − the later deal-ins while folding

``P(win)`` and the later deal-ins are ``reader.outlook`` of the hand after the
discard (shanten, 有效牌, turns left, opponents expected ready), fitted on
self-play; what a win pays counts the hand's 台 (``value.estimate_tai``: 門清,
dealer and 連莊, flowers, honor pungs) and the self-draw share; what a deal-in
costs counts the opponent's visible 台 and the dealer's. While pushing, every
candidate's efficiency (L5's units, lookahead and 牌流 included) is traded against
its deal-in risk at the rate the race sets: a unit of efficiency is worth
``V × ΔP(win)`` points (a tenth of what one shanten changes the win chance by),
small late in the hand or far from ready — where safety then decides — and large
when the hand is close. A claim (吃 碰 槓) is passed while folding; 胡, 花胡 and
天聽/地聽 are always taken, as at L5.

Near-ties are broken by L5's sampled search. At a live table the whole decision
has a hard budget (``budget_ms``): the search gets what is left of it and, when
nothing is left, the best move so far is played; in the arena (``exact``) there is
no deadline, so runs replay exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from .efficiency import DiscardInfo, shanten, useful_tiles
from .outlook import win_value
from .policy import LEVELS, Params, PolicyBot
from .reader import TableRead, outlook, read_table
from .value import estimate_tai
from .view import View

if TYPE_CHECKING:
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["BUDGET_MS", "MASTER", "PUSH_BIAS", "MasterBot", "SUMMARY"]

SUMMARY = ("Experimental (arena and offline play; measured below L5, so not offered at "
           "server tables). L5's hand read against the table: each opponent's readiness and winning tiles "
           "(learned from self-play, 摸切/手切 included), every discard, claim and 棄胡 by "
           "expected points")

MASTER: Params = replace(LEVELS[5], level=6)
BUDGET_MS = 200.0           # the whole decision at a live table (p99 target 250 ms)

_PPU_RANGE = (1.5, 12.0)    # points per efficiency unit, clamped
# Points added to pushing's side of the fold decision. The paired tuning run
# (docs/bots.md, seed 11, 288 deals against three L5) measured less defence doing
# better: 0 → −4.8 points a hand against L5 in the same seat, 30 → −2.4 (neither
# interval excludes zero).
PUSH_BIAS = 30.0


class MasterBot(PolicyBot):
    """Level 6. ``budget_ms`` bounds a decision at a live table; ``exact`` (the
    arena) lifts it. ``clock`` is the time source (a test may pass its own).
    ``risk_weight`` scales the deal-in risk a pushing hand weighs against its
    efficiency (1: the expectation as it stands) and ``push_bias`` (points) is
    added to pushing's side of the fold decision; the tuning runs try others."""

    def __init__(self, seed: int = 0, name: str = "L6", *, exact: bool = False,
                 budget_ms: float = BUDGET_MS, clock: Callable[[], float] = time.perf_counter,
                 params: Params = MASTER, risk_weight: float = 1.0,
                 push_bias: float = PUSH_BIAS):
        super().__init__(params, seed, name, exact=exact)
        self.risk_weight = risk_weight
        self.push_bias = push_bias
        self.budget_ms = budget_ms
        self.clock = clock
        self._deadline: float | None = None
        self._read: TableRead | None = None
        self._folding = False
        self.last_plan: dict[str, float] = {}     # the numbers behind the last own-turn choice

    def act(self, observation: Observation) -> ActionJSON | Action:
        self._deadline = None if self.exact else self.clock() + self.budget_ms / 1000.0
        self._read = None
        return super().act(observation)

    # ---- the read and the exchange rate -------------------------------------------------

    def _reading(self, v: View) -> TableRead:
        if self._read is None or self._read.view is not v:
            self._read = read_table(v)
        return self._read

    def _win_points(self, v: View) -> float:
        return win_value(estimate_tai(v) + 0.3)

    def _plan(self, v: View, read: TableRead, s: int, u: int,
              risks: list[float]) -> tuple[float, float, float]:
        """(P(win), points per efficiency unit, push − fold in points) for a hand at
        shanten ``s`` with ``u`` 有效牌 after its discard, given the deal-in risks
        (points) of the tiles it holds.

        The race (``reader.outlook``, fitted on self-play): the chance to win and
        the chance to deal in on a later discard while pushing, both against the
        expected number of ready opponents. Folding throws the safest tiles, so
        its later deal-ins are the pushing ones scaled by safest / typical risk."""
        turns = v.wall_remaining / 4.0
        value = self._win_points(v)
        ready = read.ready_sum()
        dealer = v.seat == v.dealer
        p, later = outlook(s, u, turns, ready, dealer)
        slower, _ = outlook(s + 1, u, turns, ready, dealer)
        ppu = min(max(value * (p - slower) / 10.0, _PPU_RANGE[0]), _PPU_RANGE[1])
        ordered = sorted(risks) or [0.0]
        typical = ordered[len(ordered) // 2]
        safest = ordered[0]
        later_cost = later * read.mean_cost()
        fold_later = later_cost * (safest / typical) if typical > 0 else 0.0
        return p, ppu, p * value - later_cost + fold_later + self.push_bias

    # ---- discards -------------------------------------------------------------------------

    def _discard_slack(self, v: View) -> int | None:
        return None if self._reading(v).max_ready() > 0.2 else 1

    def _score_discards(self, v: View, table: list[DiscardInfo], best_s: int) -> dict[int, float]:
        scores = self._valued_scores(v, table, best_s)
        read = self._reading(v)
        risk = read.table(scores)
        info = {d.kind: d for d in table}
        best = max(scores, key=lambda k: (scores[k], -k))
        d = info[best]
        p, ppu, margin = self._plan(v, read, d.shanten, d.useful, list(risk.values()))
        margin -= risk[best] - min(risk.values())
        self._folding = margin < 0 and read.max_ready() > 0.05
        self.last_plan = {"win": p, "points_per_unit": ppu, "push_minus_fold": margin,
                          "max_ready": read.max_ready(), "folding": float(self._folding)}
        if self._folding:
            return {k: -risk[k] + 0.001 * scores[k] for k in scores}
        w = self.risk_weight / ppu
        return {k: sc - w * risk[k] for k, sc in scores.items()}

    def _search_budget(self) -> float | None:
        if self.exact or self._deadline is None:
            return None
        return min(self.params.search_ms / 1000.0, self._deadline - self.clock())

    def _search(self, v: View, ranked: list[tuple[int, float]], table: list[DiscardInfo]) -> int:
        budget = self._search_budget()
        if budget is not None and budget <= 0:
            return ranked[0][0]              # out of time: the best move so far
        return super()._search(v, ranked, table)

    # ---- claims ---------------------------------------------------------------------------

    def _claim(self, v: View) -> ActionJSON | Action:
        """L5's claims, but none while the hand is not worth pushing."""
        types = v.legal_types()
        if types & {"chi", "pon", "kong"}:
            read = self._reading(v)
            if read.max_ready() > 0.05:
                s = shanten(v.counts)
                u = useful_tiles(v.counts, v.unseen, s)[0]
                risks = [read.deal_in_points(k) for k in range(34) if v.counts[k]]
                _p, _ppu, margin = self._plan(v, read, s, u, risks)
                if margin < 0:
                    passed = v.find("pass")
                    if passed is not None:
                        return passed.copy() if isinstance(passed, dict) else passed
        return super()._claim(v)

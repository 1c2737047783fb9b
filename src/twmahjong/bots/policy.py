"""Level policies (電腦等級): one decision procedure, five parameter sets.

Every level answers the same four questions from the seat's view — which tile to
throw (打牌), whether to claim (吃 碰 槓 胡), whether to declare (天聽 地聽 報聽),
whether to take a flower win (花胡) — and differs only in what it weighs:

====== ==================================================================
L1     shanten only, often careless (a random tile that keeps shanten);
       claims only 碰 that advance the hand; never declares.
L2     shanten + useful tiles (有效牌) counted against unseen copies, but
       careless with claims: takes any 吃 碰 that does not set the hand back.
L3     L2's efficiency with disciplined claims (only when the hand gains),
       plus hand value: scoring honor pairs kept and pung'd, flush odds
       (湊一色/清一色) followed in discards and claims.
L4     L3 + 門清 weighed in claims; defence: among discards within half a
       unit of the best, the safest; folds (棄胡) against a declared player
       when two or more from ready; lookahead at 1-shanten (一向聽): each
       useful draw followed to the best ready hand, weighed by its winning
       tiles.
L5     L4 with value weighed as measured (門清 kept, flushes and honor
       pairs no longer chased), winning tiles weighed by how often they come
       out (牌流), lookahead at 2-shanten, and search: sampled futures of the
       unseen tiles break ties (within 0.05 units) within ``search_ms``.
====== ==================================================================

Efficiency is scored in units: -10 a shanten, +3·ln(1 + 有效牌). Safety and
value are converted into the same units. A personality (personalities.py) is a
level plus a few changed weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict, Unpack, cast

from .defence import danger_table, max_threat
from .efficiency import DiscardInfo, discard_table, shanten, useful_tiles
from .search import sampled_win_rates
from .value import estimate_tai, shape_of, valued_honors
from .view import View

if TYPE_CHECKING:                       # types only: importing the bots loads no engine
    from ..engine.actions import Action, ActionJSON
    from ..engine.observe import Observation

__all__ = ["ClaimOption", "LEVELS", "LEVEL_SUMMARY", "ParamChanges", "Params", "PolicyBot", "default_action",
           "level_params"]


class ClaimOption(NamedTuple):
    """One legal 吃 碰 槓, scored as ``_claim_outlook`` scores the hand after it."""
    score: float
    type: str
    tile: int
    tiles: tuple[int, ...]
    action: ActionJSON | Action


@dataclass(frozen=True)
class Params:
    """The weights a level (or a personality on top of one) decides by."""
    level: int
    useful: bool = True          # count 有效牌, not shanten alone
    noise: float = 0.0           # chance of a careless discard (any that keeps shanten)
    value: float = 0.0           # weight of hand value (門清, flush, honor pairs)
    defence: float = 0.0         # weight of deal-in danger
    fold: float = 0.0            # extra defence per shanten behind (棄胡)
    flush_bias: float = 1.0      # appetite for 清一色/湊一色
    concealed_bias: float = 1.0  # how much 門清 is worth keeping
    honor_bias: float = 1.0      # how much a scoring honor pair is worth keeping
    chi: bool = True             # claims chows at all
    claim_bias: float = 0.0      # >0 claims more readily, <0 less
    declare_waits: int = 99      # 報聽 only with at least this many unseen winning tiles
    min_tai_discard_win: int = 0  # pass a win on a discard worth fewer 台 (early only)
    rollouts: int = 0            # L5 search: sampled draw sequences per candidate
    search_ms: float = 40.0      # L5 search: time budget per decision
    search_window: float = 1.0   # L5 search: only candidates this close to the best (units)
    tie_margin: float = 0.8      # efficiency units within which safety decides
    lookahead: bool = False      # at 1-shanten, weigh the waits each useful draw leads to
    lookahead_far: bool = False  # at 2-shanten, weigh the 1-shanten hands each draw leads to
    fold_threat: float = 1.01    # fold when an opponent is this likely ready ...
    fold_shanten: int = 2        # ... and the hand is this far from ready
    horizon: int = 8             # L5 search: own draws played out per sample
    flow: bool = False           # weigh winning tiles by how often each kind comes out (牌流)


class ParamChanges(TypedDict, total=False):
    """Some of ``Params``' weights (all but the level), changed: ``level_params``, a
    personality."""
    useful: bool
    noise: float
    value: float
    defence: float
    fold: float
    flush_bias: float
    concealed_bias: float
    honor_bias: float
    chi: bool
    claim_bias: float
    declare_waits: int
    min_tai_discard_win: int
    rollouts: int
    search_ms: float
    search_window: float
    tie_margin: float
    lookahead: bool
    lookahead_far: bool
    fold_threat: float
    fold_shanten: int
    horizon: int
    flow: bool


LEVELS: dict[int, Params] = {
    1: Params(1, useful=False, noise=0.35, chi=False, claim_bias=-1.0),
    2: Params(2, claim_bias=0.2),
    3: Params(3, value=1.0, concealed_bias=0.0, declare_waits=6),
    4: Params(4, value=1.0, defence=1.0, fold=1.0, concealed_bias=0.15, declare_waits=5,
              tie_margin=0.5, fold_threat=1.0, lookahead=True),
    5: Params(5, value=1.0, defence=1.0, fold=1.0, concealed_bias=0.15, flush_bias=0.0,
              honor_bias=0.0, declare_waits=5, tie_margin=0.5, fold_threat=1.0,
              lookahead=True, lookahead_far=True, flow=True, rollouts=24, search_window=0.05),
}

LEVEL_SUMMARY = {
    1: "shanten only, often careless; claims only pungs that advance the hand",
    2: "tile efficiency (shanten + useful tiles), but takes any claim that does not set it back",
    3: "efficiency with disciplined claims + hand value (flushes, honor pairs)",
    4: "L3 + 門清 in claims, defence (safest of the near-equal discards, 棄胡 against "
       "declared players), lookahead to the waits (一向聽)",
    5: "L4 with measured value, tile flow (牌流) weighing the waits, and sampled search",
}



_SAMPLE_W = 15.0        # efficiency units per 1.0 of sampled win rate (L5)


def default_action(obs: Mapping[str, Any]) -> ActionJSON:
    """The safe move a seat makes when it does not answer (server-shape.md):
    pass a claim, otherwise throw the drawn tile, otherwise the first legal move."""
    legal: list[ActionJSON] = obs.get("legal") or []
    for a in legal:
        if a.get("type") == "pass":
            return a.copy()
    drawn = obs.get("drawn")
    for a in legal:
        if a.get("type") == "discard" and a.get("tile") == drawn:
            return a.copy()
    for a in legal:
        if a.get("type") == "discard":
            return a.copy()
    return legal[0].copy() if legal else {"type": "pass"}


class PolicyBot:
    """A bot that plays by a ``Params`` set; seeded, so a game replays exactly.

    ``exact`` lifts L5's search deadline (``search_ms``): its decisions then
    depend on the seed alone, never on how busy the machine is — what the arena
    wants; a live table wants the deadline."""

    def __init__(self, params: Params, seed: int = 0, name: str | None = None, *,
                 exact: bool = False):
        self.params = params
        self.rng = random.Random(seed)
        self.name = name or f"L{params.level}"
        self.exact = exact

    # ---- the Bot protocol -------------------------------------------------------------

    def act(self, observation: Observation) -> ActionJSON | Action:
        acts: Sequence[Action] | None = getattr(observation, "actions", None)
        if acts is not None:
            # in process: the engine's own actions, read and answered without JSON
            if len(acts) <= 1:
                return acts[0] if acts else {"type": "pass"}
        else:
            legal = observation.get("legal") or []
            if not legal:
                return {"type": "pass"}
            if len(legal) == 1:
                return legal[0].copy()
        v = View.from_observation(observation)
        types = v.legal_types()
        if "flower_win" in types:
            # 花胡 ends the hand with 8台 (and the hand's own 台 if it is also
            # complete); nothing a hand can still become is worth the risk of waiting.
            return _offered(v.find("flower_win"))
        if "win" in types:
            a = self._decide_win(v)
            if a is not None:
                return a
        if "discard" in types:
            return self._own_turn(v)
        if "declare" in types and self.params.level >= 2:
            return _offered(v.find("declare"))      # 天聽: 8台 for a hand ready on the deal
        return self._claim(v)

    # ---- winning ----------------------------------------------------------------------

    def _decide_win(self, v: View) -> ActionJSON | Action | None:
        win = v.find("win")
        p = self.params
        if p.min_tai_discard_win and v.drawn is None and v.wall_remaining > 40 \
                and v.concealed_hand and estimate_tai(v) < p.min_tai_discard_win:
            return None                # 等自摸: a cheap discard win is passed early on
        return _offered(win)

    # ---- own turn: kongs, discard, declaration ----------------------------------------

    def _own_turn(self, v: View) -> ActionJSON | Action:
        p = self.params
        counts = v.counts
        # a discard always names its tile
        legal_discards = sorted(cast(set[int], {a[1] for a in v.legal if a[0] == "discard"}))
        table = discard_table(counts, v.unseen, legal_discards, slack=self._discard_slack(v),
                              count_useful=p.useful)
        best_s = min(d.shanten for d in table)
        kong = self._own_kong(v, best_s)
        if kong is not None:
            return kong
        scores = self._score_discards(v, table, best_s)
        if p.noise and self.rng.random() < p.noise:
            keep = [d.kind for d in table if d.shanten == best_s]
            choice = self.rng.choice(keep)
        else:
            ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
            choice = ranked[0][0]
            if p.rollouts and len(ranked) > 1:
                choice = self._search(v, ranked, table)
        decl = self._declare(v, choice, table)
        if decl is not None:
            return decl
        return _offered(v.find("discard", choice))

    def _discard_slack(self, v: View) -> int | None:
        """How many shanten behind the best a discard may be and still be scored
        (None: every discard — folding may throw any tile)."""
        p = self.params
        if p.defence > 0 and p.fold_threat <= 1.0 and max_threat(v) >= p.fold_threat:
            return None
        return 1 if (p.defence > 0 or p.value > 0) else 0

    def _own_kong(self, v: View, best_s: int) -> ActionJSON | Action | None:
        """暗槓 / 加槓 when it costs no speed: a kong is a free extra draw and, for a
        concealed kong, keeps 門清."""
        for t, tile, _tiles, js in v.legal:
            if t not in ("concealed_kong", "added_kong") or tile is None:
                continue
            c = list(v.counts)
            c[tile] -= 4 if t == "concealed_kong" else 1
            if min(c) < 0:
                continue
            if shanten(c) <= best_s:
                if t == "added_kong" and self.params.defence and max_threat(v) > 0.7:
                    continue            # 搶槓: adding to a pung hands a ready player a tile
                return _offered(js)
        return None

    def _score_discards(self, v: View, table: list[DiscardInfo], best_s: int) -> dict[int, float]:
        """Efficiency units: -10 a shanten, +3·ln(1+有效牌) (L1 without the second).

        L4+ keep efficiency first and let safety choose among the discards within
        ``tie_margin`` units of the best — nearly free. When the hand is at least
        ``fold_shanten`` from ready and an opponent is at least ``fold_threat``
        likely ready, they fold (棄胡): the safest tile, efficiency breaking ties.
        Self-play measured why (docs/bots.md): at 底 100 + 20 per 台 a win pays
        more than a deal-in costs, so giving up speed for safety loses unless the
        hand is far behind."""
        p = self.params
        scores = self._valued_scores(v, table, best_s)
        if p.defence <= 0 or not self._weighs_points():
            return scores
        dangers = danger_table(v, list(scores), min_threat=self._min_threat())
        risk = {k: dangers[k][1] for k in scores}           # expected points lost
        self._folding = best_s >= p.fold_shanten and max_threat(v) >= p.fold_threat
        if self._folding:
            return {k: -p.defence * risk[k] + 0.001 * scores[k] for k in scores}
        best = max(scores.values())
        out = {}
        for k, sc in scores.items():
            if sc >= best - p.tie_margin:
                out[k] = best + 5.0 - p.defence * risk[k] / 4.0 + 0.01 * (sc - best)
            else:
                out[k] = sc
        return out

    def _valued_scores(self, v: View, table: list[DiscardInfo], best_s: int) -> dict[int, float]:
        """Each discard in efficiency units — speed (shanten, 有效牌, 牌流, lookahead)
        and, for the levels that weigh it, the 台 it keeps or gives up."""
        p = self.params
        scores: dict[int, float] = {}
        live = [d for d in table if d.useful >= 0]
        for d in live:
            u: float = d.useful
            if p.flow and d.shanten == 0:
                u = _flow_weighted(d.useful_kinds, v.unseen, v.wall_remaining)
            s = -10.0 * d.shanten + (3.0 * math.log1p(u) if p.useful else 0.0)
            scores[d.kind] = s + (0.01 if v.drawn == d.kind else 0.0)
        if p.lookahead and best_s == 1:
            self._lookahead(v, live, scores, shanten=1, keep=5)
        elif p.lookahead_far and best_s == 2:
            self._lookahead(v, live, scores, shanten=2, keep=4)
        if not self._weighs_points():
            return scores
        if p.value > 0:
            for k, adj in self._value_adjust(v, list(scores)).items():
                scores[k] += p.value * adj
        return scores

    def _lookahead(self, v: View, live: list[DiscardInfo], scores: dict[int, float], *,
                   shanten: int, keep: int) -> None:
        """Look one step further than the count of useful tiles. From 一向聽
        (``shanten=1``) each useful draw is followed to the best ready hand and its
        unseen copies weigh that hand's winning tiles (有效牌 × 聽牌張數); from
        二向聽 (``shanten=2``, L5) to the best 1-shanten hand and its 有效牌.
        Only the ``keep`` best candidates are re-weighed: it is the costly part."""
        cands = sorted((d for d in live if d.shanten == shanten),
                       key=lambda d: -scores[d.kind])[:keep]
        if len(cands) < 2:
            return
        c = v.counts
        unseen = list(v.unseen)
        weights: list[tuple[DiscardInfo, float]] = []
        for d in cands:
            c[d.kind] -= 1
            q = 0.0
            for t in d.useful_kinds:
                n = unseen[t]
                if n <= 0:
                    continue
                c[t] += 1
                unseen[t] -= 1
                tab = discard_table(c, unseen, slack=0)
                if self.params.flow and shanten == 1:
                    nxt = max((_flow_weighted(x.useful_kinds, unseen, v.wall_remaining)
                               for x in tab if x.shanten == 0), default=0)
                else:
                    nxt = max((x.useful for x in tab if x.shanten == shanten - 1), default=0)
                unseen[t] += 1
                c[t] -= 1
                q += n * nxt
            c[d.kind] += 1
            weights.append((d, q))
        _rescale(weights, scores)

    def _min_threat(self) -> float:
        """Opponents below this chance of being ready are not defended against:
        the fold parameter lowers it (a cautious player sees danger sooner)."""
        return max(0.1, 0.45 - 0.1 * self.params.fold)

    def _weighs_points(self) -> bool:
        p = self.params
        return p.value > 0 or p.defence > 0

    def _value_adjust(self, v: View, kinds: list[int]) -> dict[int, float]:
        """Efficiency units for the 台 a discard keeps or gives up: a scoring honor
        pair (中發白, own winds) waiting to pung, a flush (湊一色) within reach."""
        p = self.params
        out = {k: 0.0 for k in kinds}
        sh = shape_of(v)
        reach = sh.flush_reach
        valued = valued_honors(v)
        for k in kinds:
            n = v.counts[k]
            if k >= 27 and k in valued and n == 2 and v.unseen[k] >= 1:
                out[k] -= 0.8 * p.honor_bias
            if k < 27 and reach >= 0.6:
                after = reach + (1.0 if k // 9 != sh.best_suit else -1.0) / max(1, sum(v.counts))
                out[k] += 12.0 * p.flush_bias * (_flush_odds(after) - _flush_odds(reach))
        return out

    def _declare(self, v: View, choice: int, table: list[DiscardInfo]) -> ActionJSON | Action | None:
        """天聽 / 地聽 carry many 台 and are taken whenever offered; 報聽 (one 台,
        and the hand is locked) only with enough winning tiles left."""
        decls = [a for a in v.legal if a[0] == "declare"]
        if not decls or self.params.level <= 1:
            return None
        for t, tile, _tiles, js in decls:
            if tile is None:
                return _offered(js)                      # 天聽 before the first discard
        for t, tile, _tiles, js in decls:
            if tile != choice:
                continue
            if not v.discards[v.seat]:
                return _offered(js)                      # 地聽 with the first discard
            info = next((d for d in table if d.kind == choice), None)
            if info and info.shanten == 0 and info.useful >= self.params.declare_waits:
                return _offered(js)
        return None

    # ---- claims -----------------------------------------------------------------------

    def _claim(self, v: View) -> ActionJSON | Action:
        """吃 碰 槓 or pass: compare the hand after the best claim with the hand as it is."""
        _base, _scored, chosen = self._claim_options(v)
        if chosen is not None:
            return _offered(chosen.action)
        passed = v.find("pass")
        if passed is None:
            return default_action({"legal": [_as_json(a[3]) for a in v.legal]})
        return _offered(passed)

    def _claim_options(self, v: View) -> tuple[float, list[ClaimOption], ClaimOption | None]:
        """(passing's score, every legal claim scored, the claim this level takes or
        None). A claim is taken when it beats the best so far — passing first —
        by ``_claim_margin``."""
        p = self.params
        counts = v.counts
        s_now = shanten(counts)
        u_now = useful_tiles(counts, v.unseen, s_now)[0] if p.useful else 0
        base = self._claim_outlook(v, s_now, u_now, 0.0)
        scored: list[ClaimOption] = []
        chosen: ClaimOption | None = None
        bar = base
        for t, tile, tiles, js in v.legal:
            if t not in ("chi", "pon", "kong") or tile is None:
                continue
            if t == "chi" and not p.chi:
                continue
            score = self._claim_score(v, t, tile, tiles, s_now)
            if score is None:
                continue
            option = ClaimOption(score, t, tile, tuple(tiles), js)
            scored.append(option)
            if score > bar + self._claim_margin():
                chosen, bar = option, score
        return base, scored, chosen

    def _claim_margin(self) -> float:
        """How much better a claim must look than passing (claim_bias lowers it)."""
        return 0.5 - 3.0 * self.params.claim_bias

    def _claim_outlook(self, v: View, s: int, u: int, tai_change: float) -> float:
        """Efficiency units of the hand, plus (L3+) the 台 a claim adds or gives
        up at ~3 units a 台 (a 台 is 20 points on a win of about 140)."""
        score = -10.0 * s + (3.0 * math.log1p(u) if self.params.useful else 0.0)
        return score + 3.0 * tai_change

    def _claim_score(self, v: View, t: str, tile: int, tiles: tuple[int, ...],
                     s_now: int) -> float | None:
        p = self.params
        c = list(v.counts)
        used = list(tiles) if t == "chi" else [tile] * (2 if t == "pon" else 3)
        for k in used:
            c[k] -= 1
            if c[k] < 0:
                return None
        if t == "kong":
            s_after = shanten(c)
            if s_after > s_now:
                return None
            u_after = useful_tiles(c, v.unseen, s_after)[0] if p.useful else 0
        else:
            tab = discard_table(c, v.unseen, slack=0, count_useful=p.useful)
            s_after = min(d.shanten for d in tab)
            u_after = max(d.useful for d in tab if d.shanten == s_after)
        change = self._claim_value(v, t, tile, s_now) if p.value > 0 else 0.0
        return self._claim_outlook(v, s_after, u_after, p.value * change)

    def _claim_value(self, v: View, t: str, tile: int, s_now: int) -> float:
        """台 a claim adds or gives up: 門清 (and 不求自摸's extra 台), a scoring honor
        pung, the flush the hand leans toward."""
        p = self.params
        adj = 0.0
        if v.concealed_hand:
            adj -= p.concealed_bias * 1.4
        if tile >= 27 and t in ("pon", "kong") and tile in valued_honors(v):
            adj += 1.0 * p.honor_bias
        sh = shape_of(v)
        if tile < 27 and tile // 9 != sh.best_suit and sh.flush_reach >= 0.6:
            adj -= 4.0 * p.flush_bias * _flush_odds(sh.flush_reach)   # the flush is gone
        return adj

    # ---- L5: sampled search -----------------------------------------------------------

    def _search_budget(self) -> float | None:
        """Seconds the search may take: ``search_ms`` at a table, no deadline when exact."""
        return None if self.exact else self.params.search_ms / 1000.0

    def _search(self, v: View, ranked: list[tuple[int, float]], table: list[DiscardInfo]) -> int:
        """Break near-ties by sampled completions (search.py): the share of the
        same sampled futures that complete each candidate's hand adds to its
        score at ``_SAMPLE_W`` units per 1.0."""
        p = self.params
        if getattr(self, "_folding", False):
            return ranked[0][0]
        best = ranked[0][1]
        top = [k for k, s in ranked[:4] if s >= best - p.search_window]
        if len(top) < 2:
            return ranked[0][0]
        info = {d.kind: d for d in table}
        if min(info[k].shanten for k in top) > 2:
            return ranked[0][0]
        rounds = int(min(p.horizon, max(1, v.wall_remaining // 4)))
        budget = self._search_budget()
        rates = sampled_win_rates(v.counts, v.unseen, top, rounds, p.rollouts, self.rng, budget)
        if not rates:
            return ranked[0][0]
        base = dict(ranked)
        return max(top, key=lambda k: (base[k] + _SAMPLE_W * rates[k], -k))


# 牌流 (tile flow): how often an unseen copy of a kind reaches a ready hand in a
# round — three discards by the others, one own draw, a self-draw paid by three —
# relative to a middle tile (3-7). Measured on 100 hands of L4 self-play
# (docs/bots.md): players throw honors and terminals and keep middle tiles, so a
# wait on 中 or 9s comes out more often than its unseen count says. Columns: more
# than 30 tiles left to draw, 30 or fewer.
_FLOW = {"honor": (2.33, 1.84), "19": (1.53, 2.04), "28": (1.14, 1.47), "mid": (1.0, 1.0)}


def _flow_class(k: int) -> str:
    if k >= 27:
        return "honor"
    r = k % 9
    return "19" if r in (0, 8) else "28" if r in (1, 7) else "mid"


_FLOW_BY_KIND = tuple(tuple(_FLOW[_flow_class(k)][col] for k in range(34)) for col in (0, 1))


def _flow_column(wall_remaining: int) -> int:
    """Which ``_FLOW`` column applies: more than 30 tiles left to draw, or 30 or fewer."""
    return 0 if wall_remaining > 30 else 1


def _flow_weighted(kinds: Iterable[int], unseen: Sequence[int], wall_remaining: int) -> float:
    """Winning tiles counted by how often they come out (see ``_FLOW``)."""
    w = _FLOW_BY_KIND[_flow_column(wall_remaining)]
    return sum(unseen[k] * w[k] for k in kinds)


def _rescale(weights: list[tuple[DiscardInfo, float]], scores: dict[int, float]) -> None:
    """Put lookahead weights on the 有效牌 scale of the candidates they rank: the
    candidates' total of useful tiles is shared out in proportion to the weights,
    so the looked-at few neither gain nor lose against the others as a group."""
    total_q = sum(q for _, q in weights)
    total_u = sum(d.useful for d, _ in weights)
    if total_q <= 0 or total_u <= 0:
        return
    for d, q in weights:
        scores[d.kind] += 3.0 * (math.log1p(q * total_u / total_q) - math.log1p(d.useful))


def _flush_odds(reach: float) -> float:
    """Rough chance a hand this close to one suit ends as a flush."""
    x = max(0.0, min(1.0, (reach - 0.7) / 0.3))
    return x * x


def _offered(action: ActionJSON | Action | None) -> ActionJSON | Action:
    """An action ``View.find`` found (the caller knows it is offered): a fresh copy of
    its JSON, or in process the engine's own ``Action`` itself (frozen, shared)."""
    if isinstance(action, dict):
        return action.copy()
    return cast("Action", action)


def _as_json(action: ActionJSON | Action) -> ActionJSON:
    return action if isinstance(action, dict) else action.to_json()


def level_params(level: int, **changes: Unpack[ParamChanges]) -> Params:
    return replace(LEVELS[level], **changes)

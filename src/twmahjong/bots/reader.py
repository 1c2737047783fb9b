"""Reading the table (讀牌): is each opponent ready (聽牌), and which tiles win for it.

Two logistic models, fitted on self-play with the engine's truth as the labels
(``bench/train_reader.py``; the weights ship as ``reader.json`` beside this file):

* ``ready``: the chance that an opponent is ready now, from its river — how long,
  whether its last discards were the tiles just drawn (摸切) or came from the hand
  (手切), how many in a row were (a hand that stopped changing), middle tiles cut
  late, honors thrown late — its melds, flowers and the wall left. A seat that
  declared (天聽 地聽 報聽) is ready for sure.
* ``wins``: the chance that a kind is one of that opponent's winning tiles if it is
  ready, from the wait shapes that could still hold it (兩面 嵌張 邊張 對碰 單吊)
  counted over the tiles this seat cannot see (壁), 現物, 筋, the suits of its river
  and melds, the tiles next to its last 手切, and the tiles anyone threw since its
  hand last changed that it did not win on (its waits have not changed since, and
  a ready player takes every win: adding this lifted the held-out AUC of the
  winning tiles from 0.772 to 0.786).

The answer is consistent with what the seat sees: a shape that needs a tile whose
every copy is in sight cannot be the wait, and a kind that no possible shape waits
on has chance 0 — an honor with all four copies visible, say.

    >>> from twmahjong.bots.view import View
    >>> v = View.from_observation({"seat": 0, "hand": "1z1z1z1z", "discards": [[], ["5m"], [], []]})
    >>> read_table(v).wins(1, 27)
    0.0

Inference is plain Python (a few hundred multiplications a decision); numpy is
only needed to fit the weights.

A fit may also carry a winning-tile network (``WinNet``, ``bench/reader_net.py``):
the logistic's features, a window of the nine kinds around the tile (which of them
the seat threw, how early, from the hand or not, in its melds, gone by since its
hand last changed, still unseen — ``wide_features``) and its readiness features,
through one hidden layer. It reads the winning tiles better on held-out hands (AUC
0.786 → 0.823) and L6 plays no better with it (+0.003 ± 0.036 台 a hand), so the
shipped fit has none; a bench passes one in (``weights(path)``), and it needs numpy.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from .defence import flush_suit
from .outlook import deal_in_cost
from .view import View

__all__ = ["Fit", "READY_FEATURES", "WIN_FEATURES", "TableRead", "WinNet", "possible", "read_table",
           "ready_features", "weights", "wide_features", "win_features"]

WEIGHTS = Path(__file__).with_name("reader.json")

READY_FEATURES = (
    "bias", "discards", "discards_sq", "melds", "concealed_kongs", "melds_x_discards",
    "wall", "late_wall", "drawn_out_last3", "last_from_hand", "middle_cut_last3",
    "honor_last3", "outer_first6", "flowers", "dealer", "flush", "middle_share",
    "middle_last6", "concealed", "drawn_out_run",
)
WIN_FEATURES = (
    "bias", "honor", "honor_unseen", "honor_last_copy", "honor_scoring", "terminal", "two_eight",
    "three_seven", "two_sided", "closed", "edge", "pair", "single", "genbutsu", "suji",
    "suit_share", "flush_same", "flush_other", "near_late_cut", "early_same_suit_near",
    "unseen", "melds_in_suit", "passed_since", "two_sided_unsuji", "near_late_cut_x_two",
    "since_change",
)


WIDE_OFFSETS = range(-4, 5)     # the kinds around a suited tile the network looks at
PER_OFFSET = 8


@dataclass(frozen=True)
class WinNet:
    """The winning-tile network: logit = skip·x + v·relu(W·[x, wide, ready] + b), with
    ``x`` the logistic's features (``WIN_FEATURES``), ``wide`` the window around the
    kind (``wide_features``) and ``ready`` the seat's ``READY_FEATURES``. The inputs'
    standardisation is folded into ``W`` and ``b`` when it is written."""
    skip: tuple[float, ...]
    W: Any                        # numpy (inputs × hidden)
    b: Any
    v: Any

    def logit(self, x: list[float], wide: list[float], ready: list[float]) -> float:
        import numpy as np                  # only a fit with a network needs numpy
        h = np.asarray(x + wide + ready) @ self.W + self.b
        return _dot(self.skip, x) + float(np.maximum(h, 0.0) @ self.v)


class Fit(NamedTuple):
    """A fit of the reader: the ``ready`` and ``wins`` logistics' weights in the
    feature lists' order, and the winning-tile network when the fit has one (it then
    reads the winning tiles instead of the ``wins`` logistic)."""
    ready: tuple[float, ...]
    wins: tuple[float, ...]
    net: WinNet | None = None


def _sigmoid(z: float) -> float:
    if z < -30.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


@cache
def _fitted() -> Fit:
    return _load(WEIGHTS)


def _load(path: Path) -> Fit:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for part, names in (("ready", READY_FEATURES), ("wins", WIN_FEATURES)):
        if tuple(data[part]["features"]) != names:
            raise ValueError(f"{path.name} was fitted on other features ({part}): refit "
                             "it (bench/train_reader.py)")
        out.append(tuple(float(x) for x in data[part]["weights"]))
    net = None
    if "wins_net" in data:
        n = data["wins_net"]
        if n.get("inputs") != len(WIN_FEATURES) + WIDE_INPUTS + len(READY_FEATURES):
            raise ValueError(f"{path.name}'s network was fitted on other inputs: refit it "
                             "(bench/reader_net.py)")
        try:
            import numpy as np
        except ImportError:         # never read it as the logistic alone: another player
            raise ValueError(f"{path.name} has a network, which needs numpy "
                             "(pip install numpy)") from None
        net = WinNet(tuple(float(x) for x in n["skip"]), np.asarray(n["W"], dtype=float),
                     np.asarray(n["b"], dtype=float), np.asarray(n["v"], dtype=float))
    return Fit(out[0], out[1], net)


def weights(path: Path | None = None) -> Fit:
    """The fitted (ready, wins) weights, in ``READY_FEATURES`` / ``WIN_FEATURES`` order:
    the shipped ``reader.json``, or another fit (a bench comparing two readers)."""
    return _fitted() if path is None else _load(path)


def _is_middle(k: int) -> bool:
    return k < 27 and 2 <= k % 9 <= 6


def ready_features(v: View, s: int) -> list[float]:
    """What the model reads to tell whether seat ``s`` is ready (``READY_FEATURES``)."""
    river = v.discards[s]
    drawn = v.drawn_out[s] if s < len(v.drawn_out) else []
    n = len(river)
    melds = sum(1 for m in v.melds[s] if m.type != "concealed_kong")
    ckongs = sum(1 for m in v.melds[s] if m.type == "concealed_kong")
    last3 = list(zip(river[-3:], drawn[-3:])) if len(drawn) == n else [(k, False) for k in river[-3:]]
    first6 = river[:6]
    x = n / 10.0
    return [
        1.0, x, x * x, float(melds), float(ckongs), min(melds, 4) * x,
        v.wall_remaining / 60.0, 1.0 if v.wall_remaining < 20 else 0.0,
        sum(1 for _, d in last3 if d) / 3.0,
        1.0 if last3 and not last3[-1][1] else 0.0,
        sum(1 for k, d in last3 if not d and _is_middle(k)) / 3.0,
        sum(1 for k, _ in last3 if k >= 27) / 3.0,
        sum(1 for k in first6 if k >= 27 or k % 9 in (0, 8)) / 6.0,
        len(v.flowers[s]) / 4.0,
        1.0 if s == v.dealer else 0.0,
        1.0 if flush_suit(v, s) is not None else 0.0,
        sum(1 for k in river if _is_middle(k)) / max(1, n),
        sum(1 for k in river[-6:] if _is_middle(k)) / 6.0,
        v.concealed_count[s] / 16.0 if s < len(v.concealed_count) else 1.0,
        min(6, _drawn_out_run(drawn)) / 6.0,
    ]


def _drawn_out_run(drawn: list[bool]) -> int:
    """How many of a seat's last discards in a row were the tile just drawn (摸切): its
    hand has not changed since, and a hand that stopped changing is often ready."""
    run = 0
    for d in reversed(drawn):
        if not d:
            break
        run += 1
    return run


def possible(unseen: list[int], k: int) -> bool:
    """Can ``k`` be a winning tile at all, given the tiles not in sight? 單吊 and
    對碰 need a copy of ``k`` in the hidden hand; 兩面 嵌張 邊張 need both partners."""
    if unseen[k] >= 1:
        return True
    if k >= 27:
        return False
    r = k % 9
    if r >= 2 and unseen[k - 2] and unseen[k - 1]:
        return True
    if r <= 6 and unseen[k + 1] and unseen[k + 2]:
        return True
    return 1 <= r <= 7 and unseen[k - 1] > 0 and unseen[k + 1] > 0


@dataclass(frozen=True)
class _River:
    """Per opponent, what ``win_features`` reads from its river, once a decision."""
    genbutsu: frozenset[int]
    suit_share: tuple[float, float, float]
    flush: int | None
    late_cut: int | None            # the last 手切 suited tile among the last three
    early: frozenset[int]           # suited tiles of the first six discards
    melds_in_suit: tuple[int, int, int]
    scoring_honors: frozenset[int]
    passed: frozenset[int]          # thrown by the seats after it since its last discard
    since_change: frozenset[int]    # thrown by anyone since its hand last changed


def _drawn_flags(v: View, s: int) -> list[bool]:
    """Per tile of ``s``'s river, was it the tile just drawn (摸切); all 手切 when the
    observation does not say."""
    river = v.discards[s]
    return v.drawn_out[s] if s < len(v.drawn_out) and len(v.drawn_out[s]) == len(river) \
        else [False] * len(river)


def _river(v: View, s: int) -> _River:
    river = v.discards[s]
    drawn = _drawn_flags(v, s)
    per = [0, 0, 0]
    for k in river:
        if k < 27:
            per[k // 9] += 1
    n = max(1, len(river))
    late = None
    for k, d in list(zip(river, drawn))[-3:]:
        if not d and k < 27:
            late = k
    ms = [0, 0, 0]
    for m in v.melds[s]:
        if m.kinds and m.kinds[0] < 27:
            ms[m.kinds[0] // 9] += 1
    wind = 27 + v.seat_winds[s] if s < len(v.seat_winds) else 27
    return _River(frozenset(river), (per[0] / n, per[1] / n, per[2] / n), flush_suit(v, s), late,
                  frozenset(k for k in river[:6] if k < 27), (ms[0], ms[1], ms[2]),
                  frozenset({31, 32, 33, wind, 27 + v.round_wind}), _thrown_since(v, s, 0),
                  _since_change(v, s, drawn))


@dataclass(frozen=True)
class _Window:
    """Per opponent, what ``wide_features`` reads from its river, once a decision —
    only for a fit with a network, so the logistic's reading pays nothing for it."""
    first: dict[int, int]           # each kind in its river: the place of its first copy
    cut: frozenset[int]             # kinds it threw from the hand (手切)
    recent: frozenset[int]          # its last six discards
    melded: tuple[int, ...]         # per kind, copies in its melds
    length: int                     # its river's length (at least 1: a divisor)
    since_change: frozenset[int]    # the ``_River``'s


def _window(v: View, s: int, rv: _River) -> _Window:
    river = v.discards[s]
    first: dict[int, int] = {}
    for i, k in enumerate(river):
        first.setdefault(k, i)
    melded = [0] * 34
    for m in v.melds[s]:
        for k in m.kinds:
            if k < 34:
                melded[k] += 1
    return _Window(first, frozenset(k for k, d in zip(river, _drawn_flags(v, s)) if not d),
                   frozenset(river[-6:]), tuple(melded), max(1, len(river)), rv.since_change)


def _thrown_since(v: View, s: int, m: int) -> frozenset[int]:
    """What the other seats threw since the ``m``-th last discard of ``s`` (0: since
    its last), as far as the rivers tell: they do not say when each tile was thrown,
    so, counted back from their ends, each other seat threw ``m`` tiles, and one more
    if it sits between ``s`` and this seat in turn order (a claim since may have
    changed the order: the model weighs the feature, it does not trust it). With
    ``m`` = 0 these are the tiles ``s`` let go by since its last discard (the
    ``passed_since`` feature): a ready player that lets its winning tile go by is
    rare — most take every win they can — so they are nearly safe against it."""
    out: set[int] = set()
    gap = (v.seat - s) % 4
    for t in range(4):
        if t == s:
            continue
        n = m + 1 if 0 < (t - s) % 4 < gap else m
        if n > 0:
            out.update(v.discards[t][-n:])
    return frozenset(out)


def _since_change(v: View, s: int, drawn: list[bool]) -> frozenset[int]:
    """Tiles thrown by anyone since ``s``'s hand last changed, and not won on.

    After its last 手切 every discard of ``s`` was the tile it had just drawn
    (``drawn``, one flag per river tile), so its hand — and its waits, if it is
    ready — have not changed since; a ready player takes every win it can (there is
    no 振聽 here, only 過水 until its next turn), so a tile anyone threw in that time
    is almost never one of its waits."""
    river = v.discards[s]
    m = _drawn_out_run(drawn)
    return frozenset(river[len(river) - m:]) | _thrown_since(v, s, m)


def win_features(v: View, s: int, k: int, river: _River | None = None) -> list[float]:
    """What the model reads to tell whether ``k`` wins for seat ``s`` (``WIN_FEATURES``)."""
    rv = river or _river(v, s)
    u = v.unseen
    n = u[k]
    gen = 1.0 if k in rv.genbutsu else 0.0
    passed = 1.0 if k in rv.passed else 0.0
    since = 1.0 if k in rv.since_change else 0.0
    if k >= 27:
        return [1.0, 1.0, n / 4.0, 1.0 if n == 1 else 0.0, 1.0 if k in rv.scoring_honors else 0.0,
                0.0, 0.0, 0.0, 0.0, 0.0, 0.0, max(0, n - 1) / 3.0, n / 4.0, gen, 0.0,
                0.0, 0.0, 0.0, 0.0, 0.0, n / 4.0, 0.0, passed, 0.0, 0.0, since]
    r = k % 9
    suit = k // 9
    two = closed = edge = 0.0
    sides = covered = 0
    if r >= 2:
        sh = u[k - 2] * u[k - 1] / 16.0
        two += sh
        if r >= 3 and sh > 0:
            sides += 1
            covered += (k - 3) in rv.genbutsu
        if r == 2:
            edge += sh
    if r <= 6:
        sh = u[k + 1] * u[k + 2] / 16.0
        two += sh
        if r <= 5 and sh > 0:
            sides += 1
            covered += (k + 3) in rv.genbutsu
        if r == 6:
            edge += sh
    if r in (2, 6):
        two -= edge             # 邊張 is its own shape: 12 waits on 3 only
    if 1 <= r <= 7:
        closed = u[k - 1] * u[k + 1] / 16.0
    lc = rv.late_cut
    near = 1.0 if lc is not None and lc // 9 == suit and 0 < abs(lc - k) <= 2 else 0.0
    early = sum(1 for e in rv.early if e // 9 == suit and 0 < abs(e - k) <= 2) / 2.0
    fs = rv.flush
    suji = covered / sides if sides else 0.0
    return [1.0, 0.0, 0.0, 0.0, 0.0,
            1.0 if r in (0, 8) else 0.0, 1.0 if r in (1, 7) else 0.0, 1.0 if r in (2, 6) else 0.0,
            two, closed, edge, max(0, n - 1) / 3.0, n / 4.0, gen,
            suji,
            rv.suit_share[suit],
            1.0 if fs == suit else 0.0, 1.0 if fs is not None and fs != suit else 0.0,
            near, early, n / 4.0, float(rv.melds_in_suit[suit]), passed,
            two * (1.0 - suji), near * two, since]


WIDE_INPUTS = PER_OFFSET * len(WIDE_OFFSETS) + 9


def wide_features(v: View, k: int, win: _Window) -> list[float]:
    """What the network reads beyond the logistic's features, for a suited ``k``:
    for each of the nine kinds around it in its suit (``WIDE_OFFSETS``; zeros past
    the suit's ends) whether it is in the suit, whether the seat threw it, how early
    (its first copy's place in the river), whether among its last six discards,
    whether from the hand (手切), its copies in the seat's melds, whether anyone
    threw it since the seat's hand last changed, and its copies this seat cannot
    see; then ``k``'s rank. Those read the order of the river: 早外し, 跨筋, a
    neighbour cut late. Honors: all zeros."""
    out: list[float] = []
    if k >= 27:
        return [0.0] * WIDE_INPUTS
    r = k % 9
    n = max(1, win.length)
    for d in WIDE_OFFSETS:
        if not 0 <= r + d <= 8:
            out.extend((0.0,) * PER_OFFSET)
            continue
        j = k + d
        f = win.first.get(j)
        out.extend((1.0, 0.0 if f is None else 1.0, 0.0 if f is None else (f + 1) / n,
                    1.0 if j in win.recent else 0.0, 1.0 if j in win.cut else 0.0,
                    win.melded[j] / 3.0, 1.0 if j in win.since_change else 0.0, v.unseen[j] / 4.0))
    out.extend(1.0 if i == r else 0.0 for i in range(9))
    return out


def _dot(w: tuple[float, ...], x: list[float]) -> float:
    return sum(a * b for a, b in zip(w, x))


class TableRead:
    """One decision's reading of the three opponents (the seat's view only).

    ``ready(s)`` is the chance that ``s`` is ready, ``wins(s, k)`` the chance that
    ``k`` is one of its winning tiles if it is, ``deal_in(k)`` the chance that
    throwing ``k`` deals in to anyone and ``deal_in_points(k)`` what that costs
    on average (每張牌的放槍風險, in points)."""

    def __init__(self, v: View, fitted: Fit | None = None):
        self.view = v
        fit = fitted or weights()
        rw, self._ww, self._net = fit.ready, fit.wins, fit.net
        self._ready: dict[int, float] = {}
        self._ready_x: dict[int, list[float]] = {}
        self._rivers: dict[int, _River] = {}
        self._windows: dict[int, _Window] = {}
        self._cost: dict[int, float] = {}
        self._wins: dict[tuple[int, int], float] = {}
        for s in v.opponents():
            rf = self._ready_x[s] = ready_features(v, s)
            self._ready[s] = 1.0 if v.declared[s] else _sigmoid(_dot(rw, rf))
            self._cost[s] = deal_in_cost(_their_tai(v, s))

    def ready(self, s: int) -> float:
        return self._ready[s]

    def cost(self, s: int) -> float:
        """Points a deal-in to ``s`` costs this seat (their hand's 台, dealer's 台 included)."""
        return self._cost[s]

    def wins(self, s: int, k: int) -> float:
        key = (s, k)
        p = self._wins.get(key)
        if p is None:
            v = self.view
            if not possible(v.unseen, k):
                p = 0.0
            else:
                rv = self._rivers.get(s)
                if rv is None:
                    rv = self._rivers[s] = _river(v, s)
                x = win_features(v, s, k, rv)
                if self._net is None:
                    p = _sigmoid(_dot(self._ww, x))
                else:
                    w = self._windows.get(s)
                    if w is None:
                        w = self._windows[s] = _window(v, s, rv)
                    p = _sigmoid(self._net.logit(x, wide_features(v, k, w), self._ready_x[s]))
            self._wins[key] = p
        return p

    def deal_in(self, k: int) -> float:
        safe = 1.0
        for s in self._ready:
            safe *= 1.0 - self._ready[s] * self.wins(s, k)
        return 1.0 - safe

    def deal_in_points(self, k: int) -> float:
        return sum(self._ready[s] * self.wins(s, k) * self._cost[s] for s in self._ready)

    def max_ready(self) -> float:
        return max(self._ready.values(), default=0.0)

    def ready_sum(self) -> float:
        """How many opponents are ready, in expectation."""
        return sum(self._ready.values())

    def mean_cost(self) -> float:
        """What a deal-in costs, averaged over the opponents by their readiness."""
        total = sum(self._ready.values())
        if total <= 0:
            return sum(self._cost.values()) / max(1, len(self._cost))
        return sum(self._ready[s] * self._cost[s] for s in self._ready) / total

    def table(self, kinds: Iterable[int]) -> dict[int, float]:
        return {k: self.deal_in_points(k) for k in kinds}


def _their_tai(v: View, s: int) -> float:
    """About how many 台 an opponent's win would carry: the self-play average (1.8),
    exposed honor pungs, a flush in its melds, the dealer's 台 (莊, 連莊)."""
    tai = 1.8 + 0.7 * sum(1 for m in v.melds[s] if m.kinds and m.kinds[0] >= 27)
    if flush_suit(v, s) is not None:
        tai += 3.0
    if s == v.dealer or v.seat == v.dealer:
        tai += 1 + 2 * v.dealer_streak
    return tai


def read_table(v: View, fitted: Fit | None = None) -> TableRead:
    """The seat's reading of the others; ``fitted`` (``weights(path)``) another fit's weights."""
    return TableRead(v, fitted)

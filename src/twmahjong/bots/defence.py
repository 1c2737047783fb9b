"""Defence (防守): how likely each discard is to deal in (放槍), from what shows.

Everything is read from the seat's view: each opponent's river, melds and
declaration. Two numbers per opponent —

* ``threat``: how likely that player is ready (聽牌) now. A declaration (天聽,
  地聽, 報聽) makes it certain; otherwise it grows with the number of discards and
  exposed melds.
* ``danger(kind)``: how likely that kind is one of their winning tiles if they
  are ready. A tile they threw themselves (現物) is nearly safe — Taiwanese rules
  have no furiten, so "nearly"; honors get safer as copies show; a suited tile is
  dangerous in proportion to the wait shapes (兩面, 嵌張, 邊張, 單吊, 對碰) that
  could still hold it, counting only shapes whose tiles are not all visible
  (壁, kabe); a tile three ranks from one they threw (筋, suji) loses the two-sided
  shape on that side. A player whose melds are all one suit (做清一色/湊一色)
  makes that suit more dangerous and the others safer.

The numbers are rough probabilities; policies weigh them against the speed and
value of their own hand.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .view import View

__all__ = ["danger", "danger_table", "flush_suit", "max_threat", "threat"]


def flush_suit(view: View, seat: int) -> int | None:
    """The suit (0-2) a player seems to be collecting (兩副以上同門副露), or None."""
    suits = set()
    suited_melds = 0
    for m in view.melds[seat]:
        if m.type == "concealed_kong" or not m.kinds:
            continue
        k = m.kinds[0]
        if k < 27:
            suits.add(k // 9)
            suited_melds += 1
    if len(suits) == 1 and suited_melds >= 2:
        return next(iter(suits))
    return None


def threat(view: View, seat: int) -> float:
    """Chance that ``seat`` is ready (聽牌), 0-1."""
    if view.declared[seat]:
        return 1.0
    turns = len(view.discards[seat])
    exposed = sum(1 for m in view.melds[seat] if m.type != "concealed_kong")
    x = -4.2 + 0.22 * turns + 0.8 * exposed
    if view.wall_remaining < 20:
        x += 0.5
    return 1.0 / (1.0 + math.exp(-x))


def danger(view: View, seat: int, kind: int) -> float:
    """Chance that ``kind`` completes ``seat``'s hand if that seat is ready, 0-1."""
    unseen = view.unseen
    u = unseen[kind]
    if u == 0:
        return 0.0                    # every copy is in sight: nobody can wait on it
    river = view.discards[seat]
    genbutsu = kind in river
    if kind >= 27:
        d = (0.0, 0.004, 0.012, 0.02, 0.02)[u]
    else:
        r = kind % 9
        w = 0.0
        # two-sided shapes (兩面): (k-2,k-1) waits on k and k-3; (k+1,k+2) on k and k+3
        if r >= 2:
            sh = unseen[kind - 2] * unseen[kind - 1] / 16.0
            if r >= 3 and (kind - 3) in river:
                sh *= 0.35            # 筋: they threw the other end of that shape
            w += sh
        if r <= 6:
            sh = unseen[kind + 1] * unseen[kind + 2] / 16.0
            if r <= 5 and (kind + 3) in river:
                sh *= 0.35
            w += sh
        # closed shape (嵌張) k-1, k+1
        if 1 <= r <= 7:
            w += 0.55 * unseen[kind - 1] * unseen[kind + 1] / 16.0
        # edge shapes (邊張): 12 waits on 3, 89 waits on 7
        if r == 2:
            w += 0.45 * unseen[kind - 2] * unseen[kind - 1] / 16.0
        if r == 6:
            w += 0.45 * unseen[kind + 1] * unseen[kind + 2] / 16.0
        # pair-and-pair (對碰) and single (單吊)
        w += 0.35 * max(0, u - 1) / 3.0 + 0.1 * u / 4.0
        d = 0.11 * (1.0 - math.exp(-1.5 * w))     # calibrated on self-play (docs/bots.md)
        fs = flush_suit(view, seat)
        if fs is not None:
            d *= 1.5 if kind // 9 == fs else 0.3
    if genbutsu:
        d *= 0.12
    return min(d, 0.6)


def danger_table(view: View, kinds: Iterable[int],
                 min_threat: float = 0.01) -> dict[int, tuple[float, float]]:
    """Per kind: (chance it deals in to anyone, expected points lost by it).

    A bigger-looking hand costs more: exposed honor pungs (字牌刻), a flush in
    the melds, the dealer's 台 (莊, 連莊)."""
    from .outlook import deal_in_cost
    opps = []
    for s in view.opponents():
        t = threat(view, s)
        if t < min_threat:
            continue
        tai = 2.0 + 0.7 * sum(1 for m in view.melds[s] if m.kinds and m.kinds[0] >= 27)
        if flush_suit(view, s) is not None:
            tai += 3.0
        if s == view.dealer or view.seat == view.dealer:
            tai += 1 + 2 * view.dealer_streak
        opps.append((s, t, deal_in_cost(tai)))
    out = {}
    for k in kinds:
        prob = cost = 0.0
        for s, t, c in opps:
            x = t * danger(view, s, k)
            prob += x
            cost += x * c
        out[k] = (prob, cost)
    return out


def max_threat(view: View) -> float:
    return max((threat(view, s) for s in view.opponents()), default=0.0)

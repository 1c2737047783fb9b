"""The legal lists: what a seat may do at its turn and on another's discard.

Each function reads the table and returns the complete list, built once per
decision point from interned actions. The 行牌禁制 (prohibitions) of rules/001
are applied here, each where its number is cited.
"""

from __future__ import annotations

from . import actions as A
from .actions import Action
from .seat import other_end
from .winning import is_complete, is_lilgu, ready_discards

__all__ = ["chi_choices", "claim_options", "turn_options"]

_DISCARDS = tuple(A.discard(k) for k in range(34))


def _self_win_ok(h, seat: int) -> bool:
    st = h.seats[seat]
    if h.turn_src == "claim" or h.no_self_win:      # 禁制 4: 自摸必須始於摸牌; 禁制 2
        return False
    if not st.may_win():                             # 過水 until this seat puts a tile out
        return False
    if h.turn_src == "draw":
        return h.drawn in st.waits                   # the hand before the draw was unchanged
    c = st.counts
    return is_complete(c) or (h.rules.lilgu and is_lilgu(c))


def _flower_win_ok(h, seat: int) -> bool:
    st = h.seats[seat]
    if h.turn_src == "claim" or st.cannot_win:
        return False
    n = len(st.flowers)
    if n == 8:
        return True                                   # 八仙過海
    if n == 7 and h._flower_holder(seat) is not None:
        # 七搶一 (2): this seat just drew its seventh while another holds the eighth;
        # 配牌花和: seven from the deal, at this seat's first turn.
        if h.turn_flower:
            return True
        return seat in h.deal_flower_win and st.n_discards == 0
    return False


def turn_options(h, seat: int) -> list[Action]:
    """Everything ``seat`` may do holding 3k+2 tiles: 打牌, 暗槓, 加槓, 自摸, 花胡, 聽."""
    st = h.seats[seat]
    c = st.counts
    out: list[Action] = []
    if _self_win_ok(h, seat):
        out.append(A.win(h.drawn))
    if _flower_win_ok(h, seat):
        out.append(A.FLOWER_WIN)
    if st.declared is not None:
        # 聽牌後不換牌: the declared hand keeps its tiles and puts out what it drew
        k = h.drawn
        if k is None:
            k = next(i for i in range(34) if c[i])
        out.append(A.discard(k))
        return out
    can_kong = not h.no_kong and h.drawable() >= 1           # 禁制 1; a kong needs a replacement
    if can_kong:
        if not h.no_concealed_kong and 4 in c:               # 禁制 3
            for k in range(34):
                if c[k] == 4:
                    out.append(A.concealed_kong(k))
        for m in st.melds:
            if m.type == "pon" and c[m.kinds[0]]:
                out.append(A.added_kong(m.kinds[0]))
    forb = h.forbidden
    if forb:
        discards = [_DISCARDS[k] for k in range(34) if c[k] and k not in forb]
    else:
        discards = [_DISCARDS[k] for k in range(34) if c[k]]
    out.extend(discards)
    if _may_declare(h, seat):
        ready = ready_discards(c, h.rules.lilgu)
        for a in discards:
            if a.tile in ready:
                out.append(A.declare(a.tile))
    return out


def _may_declare(h, seat: int) -> bool:
    st = h.seats[seat]
    if h.rules.declare_ready == "any_time":
        return True                                  # 報聽 (rules/003)
    # 地聽: with the first discard, the hand itself concealed (暗槓 allowed)
    return st.n_discards == 0 and not st.exposed_melds() and h.turn_src != "claim"


def chi_choices(c: list[int], k: int) -> list[tuple[int, int]]:
    """The pairs from hand that make a run with ``k`` (the choice of which two tiles)."""
    if k >= 27:
        return []
    r = k % 9
    out = []
    if r >= 2 and c[k - 2] and c[k - 1]:
        out.append((k - 2, k - 1))
    if 1 <= r <= 7 and c[k - 1] and c[k + 1]:
        out.append((k - 1, k + 1))
    if r <= 6 and c[k + 1] and c[k + 2]:
        out.append((k + 1, k + 2))
    return out


def claim_options(h, s: int, d: int, k: int) -> list[Action]:
    """What seat ``s`` may do with ``d``'s discard ``k``; empty when nothing (no pass either)."""
    st = h.seats[s]
    c = st.counts
    rules = h.rules
    out: list[Action] = []
    if k in st.waits and st.may_win_on(k):
        out.append(A.win(k))
    if st.declared is None and h.drawable() >= rules.no_claims_last:   # 禁制 7
        n = c[k]
        total = sum(c)
        forbid_after = rules.after_pon_discard == "forbidden"
        # after 碰 the same tile may not go out: there must be something else to discard
        if n >= 2 and k not in st.passed_pon and (not forbid_after or total - n > 0):
            out.append(A.pon(k))
        if n == 3 and not (rules.no_kong_on_upper_discard and s == (d + 1) % 4):
            out.append(A.kong(k))
        if s == (d + 1) % 4 and k < 27:
            strict = rules.after_chi_discard == "forbidden_same_and_suji"
            prev = st.last_discard
            if not (strict and prev == k):            # 同巡內不得吃入本家前一舍牌之同牌
                for a, b in chi_choices(c, k):
                    suji = other_end(k, a, b)
                    if strict and prev is not None and prev == suji:
                        continue                       # ... 或絡牌
                    if strict and not _leaves_discard(c, a, b, {k} if suji is None else {k, suji}):
                        continue                       # 禁制 6: nothing left to discard
                    out.append(A.chi(k, a, b))
    if out:
        out.append(A.PASS)
    return out


def _leaves_discard(c: list[int], a: int, b: int, bad: set[int]) -> bool:
    c[a] -= 1
    c[b] -= 1
    try:
        return any(c[x] for x in range(34) if x not in bad)
    finally:
        c[a] += 1
        c[b] += 1

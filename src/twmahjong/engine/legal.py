"""The legal lists: what a seat may do at its turn and on another's discard.

Each function reads the table and returns the complete list, built once per
decision point from interned actions. The 行牌禁制 (prohibitions) of rules/001
are applied here, each where its number is cited.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions as A
from .actions import Action
from .seat import other_end

if TYPE_CHECKING:
    from .state import TableState

__all__ = ["chi_choices", "claim_options", "may_chi", "turn_options"]

_DISCARDS = tuple(A.discard(k) for k in range(34))
_SUITS = ((0, 9), (9, 9), (18, 9), (27, 7))
# per suit: its key -> (its discard actions, the kinds held four times)
_SUIT_FACTS: tuple[dict[int, tuple[tuple[Action, ...], tuple[int, ...]]], ...] = ({}, {}, {}, {})
_F0, _F1, _F2, _F3 = _SUIT_FACTS


def _suit_facts(g: int, key: int) -> tuple[tuple[Action, ...], tuple[int, ...]]:
    """One suit's discard actions and the kinds held four times (暗槓 candidates),
    cached by the suit's key so a turn never re-scans all 34 kinds."""
    base, n = _SUITS[g]
    discards = []
    quads = []
    for r in range(n):
        v = key // 5 ** (n - 1 - r) % 5
        if v:
            discards.append(_DISCARDS[base + r])
            if v == 4:
                quads.append(base + r)
    facts = _SUIT_FACTS[g][key] = (tuple(discards), tuple(quads))
    return facts


def _self_win_ok(h: TableState, seat: int) -> bool:
    st = h.seats[seat]
    if h.turn_src == "claim" or h.no_self_win:      # 禁制 4: 自摸必須始於摸牌; 禁制 2
        return False
    if not st.may_win():                             # 過水 until this seat puts a tile out
        return False
    if h.turn_src == "draw":
        done = h.drawn in st.waits                   # the hand before the draw was unchanged
    else:
        done = st.is_complete(h.rules.lilgu)
    if done and h.rules.min_tai:
        return h._reaches_min_tai(h._self_draw_info(seat))   # 起胡台數
    return done


def _flower_win_ok(h: TableState, seat: int) -> bool:
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


def turn_options(h: TableState, seat: int) -> list[Action]:
    """Everything ``seat`` may do holding 3k+2 tiles: 打牌, 暗槓, 加槓, 自摸, 花胡, 聽."""
    st = h.seats[seat]
    drawn = h.drawn
    # the common turn, a plain draw that completes nothing, is decided without a call
    if (h.turn_src != "draw" or drawn in st.waits) and _self_win_ok(h, seat):
        out: list[Action] = [A.win(drawn)]
    else:
        out = []
    if len(st.flowers) >= 7 and _flower_win_ok(h, seat):
        out.append(A.FLOWER_WIN)
    km, kp, ks, kz = st.key
    f0 = _F0.get(km) or _suit_facts(0, km)
    f1 = _F1.get(kp) or _suit_facts(1, kp)
    f2 = _F2.get(ks) or _suit_facts(2, ks)
    f3 = _F3.get(kz) or _suit_facts(3, kz)
    if st.declared is not None and h.rules.declared_hand == "locked":
        # 報聽後不可再換牌 (rules/003): the declared hand keeps its tiles and puts out what
        # it drew. Where the hand may change (rules/000-001), changing voids the declaration.
        out.append(A.discard(drawn) if drawn is not None else (f0[0] + f1[0] + f2[0] + f3[0])[0])
        return out
    # 禁制 1; a kong needs a replacement (asked only of a hand with four of a kind or a pon)
    if not h.no_kong and (f0[1] or f1[1] or f2[1] or f3[1] or st.melds) and h.drawable() >= 1:
        if not h.no_concealed_kong:                          # 禁制 3 (rules/001)
            for k in f0[1] + f1[1] + f2[1] + f3[1]:
                out.append(A.concealed_kong(k))
        c = st.counts
        for m in st.melds:
            if m.type == "pon" and c[m.kinds[0]]:
                out.append(A.added_kong(m.kinds[0]))
    forb = h.forbidden
    if forb:
        discards: tuple[Action, ...] = tuple(
            a for a in f0[0] + f1[0] + f2[0] + f3[0] if a.tile not in forb)
        out += discards
    else:
        out += f0[0]
        out += f1[0]
        out += f2[0]
        out += f3[0]
    if st.declared is None and (st.n_discards == 0 or h.rules.declare_ready == "any_time") \
            and _may_declare(h, seat):
        ready = st.ready_discards(h.rules.lilgu)
        if ready:
            for a in (discards if forb else f0[0] + f1[0] + f2[0] + f3[0]):
                if a.tile in ready:
                    out.append(A.declare(a.tile))
    return out


def _may_declare(h: TableState, seat: int) -> bool:
    st = h.seats[seat]
    if st.declared is not None:
        return False                                 # one declaration a hand
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


# kind -> the pairs of kinds that make a run with it (empty for honors)
_CHI_PAIRS = tuple(
    tuple(p for p, ok in (((k - 2, k - 1), k % 9 >= 2), ((k - 1, k + 1), 1 <= k % 9 <= 7),
                          ((k + 1, k + 2), k % 9 <= 6)) if ok) if k < 27 else ()
    for k in range(34))


def may_chi(c: list[int], k: int) -> bool:
    """Whether the hand ``c`` holds two tiles that make a run with ``k`` — whether
    ``chi_choices(c, k)`` has any, without building them (asked at every discard)."""
    for a, b in _CHI_PAIRS[k]:
        if c[a] and c[b]:
            return True
    return False


def claim_options(h: TableState, s: int, d: int, k: int) -> list[Action]:
    """What seat ``s`` may do with ``d``'s discard ``k``; empty when nothing (no pass either)."""
    st = h.seats[s]
    c = st.counts
    n = c[k]
    next_seat = s == (d + 1) % 4
    can_win = k in st.waits
    if not can_win and n < 2 and not (next_seat and k < 27):
        return _NOTHING                               # the common case, decided in a glance
    rules = h.rules
    out: list[Action] = []
    if can_win and st.may_win_on(k) and (
            not rules.min_tai or h._reaches_min_tai(h._ron_info(s, d, k))):   # 起胡台數
        out.append(A.win(k))
    may_meld = st.declared is None or rules.declared_hand == "may_change"
    if may_meld and h.drawable() >= rules.no_claims_last:   # 禁制 7
        forbid_after = rules.after_pon_discard == "forbidden"
        # after 碰 the same tile may not go out: there must be something else to discard
        if n >= 2 and k not in st.passed_pon and (not forbid_after or sum(c) - n > 0):
            out.append(A.pon(k))
        if n == 3 and not (rules.no_kong_on_upper_discard and next_seat):
            out.append(A.kong(k))
        if next_seat and k < 27:
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


_NOTHING: list[Action] = []


def _leaves_discard(c: list[int], a: int, b: int, bad: set[int]) -> bool:
    """Whether, once ``a`` and ``b`` go into the run, a tile outside ``bad`` is left."""
    c[a] -= 1
    c[b] -= 1
    try:
        left = sum(c)
        for x in bad:
            left -= c[x]
        return left > 0
    finally:
        c[a] += 1
        c[b] += 1

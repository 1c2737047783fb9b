"""Settlement (結算): who pays whom once a hand ends.

The scorer says how many 台 a hand is worth; this module turns 台 into money
between seats. Every amount is one *unit* per paying seat, 底 + 台 × 台價:

    >>> win(3, winner=1, payer=2, dealer=0, dealer_tai=1, stakes=Stakes(100, 20)).net
    (0, 160, -160, 0)

The one rule that ties everything together (rules/001 items 9-10, 作莊 and
連N拉N): the dealer's 台 (1 + 2N) exist only *between the dealer and one other
seat*. So each payment between seats ``a`` and ``b`` counts the hand's 台, plus
the dealer's 台 when the dealer is ``a`` or ``b``. A non-dealer's self-draw costs
the dealer more than the other two; a deal-in between two non-dealers leaves the
dealer untouched; a dealer's win, or a dealer's 詐胡, charges every seat the
dealer's 台.

Two layers:

* plain numbers — ``win``, ``win_many``, ``false_win``, ``full_liability`` take
  the hand's 台 *without* the dealer's 台 and the dealer's 台 as ``dealer_tai``;
* ``settle`` and ``settle_many`` take the scorer's answer (anything with ``.tai``
  and ``.patterns`` of ``.id``/``.tai``), strip the dealer's 台 it counted, and
  read stakes, dealer 台 and fee from a profile. This module imports neither
  ``scoring`` nor ``profiles``.

Money is integers throughout. Caps (防以小博大) and the platform fee (活動費) are
described on ``cap_payments`` and ``Settlement``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import UserError

__all__ = [
    "SEATS", "DEALER_PATTERNS", "SettlementError", "Stakes", "Transfer", "Settlement",
    "dealer_tai", "win", "win_many", "false_win", "full_liability", "cap_payments",
    "hand_tai", "settle", "settle_many",
]

SEATS = range(4)
DEALER_PATTERNS = ("dealer", "dealer_streak")     # 作莊, 連N拉N: the scorer's ids
SEVEN_ROB_ONE = "seven_rob_one"
KONG_BLOOM = "kong_bloom"
# Patterns only a self-drawn win can hold: such a hand has no discarder to pay it.
# 地胡 is not among them: rules/001 item 34 also gives it to a 天聽 hand winning on
# any seat's first discard.
SELF_DRAWN = frozenset({"self_draw", "concealed_self_draw", "kong_bloom", "last_tile",
                        "eight_immortals", "heavenly_win"})

REASON_ZH = {
    "self_draw": "自摸", "deal_in": "放槍", "seven_rob_one": "七搶一",
    "false_win": "詐胡", "full_liability": "包賠", "fee": "活動費",
}


class SettlementError(UserError):
    """Settlement asked for something the table cannot do: a seat that does not
    exist, a winner paying themself, stakes that are not money. The message names
    the bad value."""


@dataclass(frozen=True)
class Stakes:
    """底 and 台價: the stake a game is played for, written ``"100/20"``.

    A payment of ``tai`` 台 costs ``base + tai * per_tai`` (one 底 however many
    台; rules/001 八仙過海 "底注只計1底"). ``max_tai`` is the house's 封頂: above
    it a payment counts only ``max_tai`` 台 (0, the default, is no limit)."""

    base: int
    per_tai: int
    max_tai: int = 0

    def __post_init__(self) -> None:
        for name in ("base", "per_tai"):
            value = getattr(self, name)
            if type(value) is not int or value <= 0:
                raise SettlementError(
                    f"stakes {name} must be a positive whole number, got {value!r}")
        _count("stakes max_tai", self.max_tai)

    def unit(self, tai: int) -> int:
        """What one payer owes for ``tai`` 台 (底 + 台 × 台價)."""
        if self.max_tai:
            tai = min(tai, self.max_tai)
        return self.base + tai * self.per_tai

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """Read ``"100/20"`` (底/台價) as players write stakes."""
        m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
        if not m or int(m[1]) <= 0 or int(m[2]) <= 0:
            raise SettlementError(f"stakes must be 底/台價 like 100/20, got {text!r}")
        return cls(int(m[1]), int(m[2]))

    @classmethod
    def from_profile(cls, profile: Any) -> Stakes:
        """The profile's ``[stakes]`` table (``base``, ``per_tai``, optional ``max_tai``)."""
        stakes = _field(profile, "stakes")
        max_tai = _field(stakes, "max_tai") if _has(stakes, "max_tai") else 0
        return cls(_field(stakes, "base"), _field(stakes, "per_tai"), max_tai)

    def __str__(self) -> str:
        limit = f" (封頂 {self.max_tai} 台)" if self.max_tai else ""
        return f"{self.base}/{self.per_tai}{limit}"


@dataclass(frozen=True)
class Transfer:
    """One payment. ``payee`` None is the house (the platform's 活動費).

    ``tai`` is what the payment was counted on and ``owed`` what it came to
    before 防以小博大 capped it; both are None for the fee."""

    payer: int
    payee: int | None
    amount: int
    reason: str
    tai: int | None = None
    owed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "amount": self.amount,
                "reason": self.reason, "tai": self.tai, "owed": self.owed}


@dataclass(frozen=True)
class Settlement:
    """The money of one hand: the transfers, each seat's net, the house's fee.

    The fee (活動費) is the only money leaving the table, so
    ``sum(net) + fee == 0`` always. It is taken from each seat that gains in this
    settlement (the winner; every winner of 一炮多響): ``floor(gain × fee_rate)``,
    rounded *down* to a whole amount, and listed as a transfer to ``None``."""

    transfers: list[Transfer]
    net: tuple[int, int, int, int]
    fee: int

    def to_json(self) -> dict[str, Any]:
        return {"transfers": [t.to_json() for t in self.transfers],
                "net": list(self.net), "fee": self.fee}


def dealer_tai(streak: int, profile: Any = None) -> int:
    """The dealer's 台 for streak N: 作莊 + 連N拉N (1 + 2N unless the profile's
    ``dealer`` / ``dealer_streak`` patterns say otherwise)."""
    _count("dealer streak", streak)
    per_deal, per_streak = 1, 2
    if profile is not None:
        patterns = _field(profile, "patterns")
        per_deal = _field(_field(patterns, "dealer"), "tai")
        per_streak = _field(_field(patterns, "dealer_streak"), "tai")
    return per_deal + per_streak * streak


# -- plain numbers ------------------------------------------------------------

def win(tai: int, *, winner: int, payer: int | None, dealer: int, dealer_tai: int,
        stakes: Stakes, carried: Sequence[int] | None = None, fee_rate: float | str = 0,
        robbed: int | None = None, robbed_tai: int = 0) -> Settlement:
    """A won hand: ``payer`` None is a self-draw (自摸, the three others pay),
    otherwise only the discarder pays (放槍).

    ``tai`` excludes the dealer's 台. Flower wins need nothing special: 八仙過海
    is a self-draw of its scored 台 (one 底), 七搶一 is a deal-in by the robbed
    seat — except 七搶一 form 2 ending in 槓上開花, which "視同自摸，三家賠付 …
    花牌台數被搶花者應單獨計七搶一8台": pass ``payer=None``, the ``robbed`` seat,
    and ``robbed_tai`` (the 8 台) that it alone adds to its payment."""
    _seat("winner", winner)
    _seat("dealer", dealer)
    if payer is not None:
        _seat("payer", payer)
        if payer == winner:
            raise SettlementError(f"seat {winner} cannot pay for its own win")
    _count("tai", tai)
    _count("dealer tai", dealer_tai)
    _count("robbed tai", robbed_tai)
    if robbed is not None:
        _seat("robbed seat", robbed)
        if payer is not None:
            raise SettlementError("七搶一 paid as a deal-in: the robbed seat is the payer")
        if robbed == winner:
            raise SettlementError(f"seat {winner} cannot rob a flower from itself")
    payers = [payer] if payer is not None else [s for s in SEATS if s != winner]
    owed = []
    for p in payers:
        t = tai + (dealer_tai if dealer in (p, winner) else 0)
        reason = "deal_in" if payer is not None else "self_draw"
        if p == robbed:
            t, reason = t + robbed_tai, SEVEN_ROB_ONE
        owed.append(Transfer(p, winner, stakes.unit(t), reason, t, stakes.unit(t)))
    return _finish(owed, carried, fee_rate)


def win_many(tais: Mapping[int, int], *, payer: int, dealer: int, dealer_tai: int,
             stakes: Stakes, carried: Sequence[int] | None = None,
             fee_rate: float | str = 0) -> Settlement:
    """一炮多響: one discard wins for several seats (when the profile's
    ``multiple_winners`` is ``"all"``); the discarder pays each winner as a
    deal-in. ``tais`` maps each winner to its hand's 台 without the dealer's."""
    _seat("payer", payer)
    _seat("dealer", dealer)
    _count("dealer tai", dealer_tai)
    if not tais:
        raise SettlementError("a discard that wins for nobody settles nothing")
    owed = []
    for w, tai in sorted(tais.items()):
        _seat("winner", w)
        _count("tai", tai)
        if w == payer:
            raise SettlementError(f"seat {w} cannot pay for its own win")
        t = tai + (dealer_tai if dealer in (payer, w) else 0)
        owed.append(Transfer(payer, w, stakes.unit(t), "deal_in", t, stakes.unit(t)))
    return _finish(owed, carried, fee_rate)


def false_win(tai: int, *, offender: int, dealer: int, dealer_tai: int, stakes: Stakes,
              carried: Sequence[int] | None = None, fee_rate: float | str = 0) -> Settlement:
    """詐胡 (rules/000 詐胡 1, rules/001 詐和 1): the offender pays each of the
    three 底 + 牌面台數; the dealer's 台 are paid to the dealer alone — or, when
    the offender is the dealer, to all three. ``tai`` excludes the dealer's 台."""
    return _penalty("false_win", tai, offender, dealer, dealer_tai, stakes, carried, fee_rate)


def full_liability(tai: int, *, offender: int, dealer: int, dealer_tai: int, stakes: Stakes,
                   carried: Sequence[int] | None = None,
                   fee_rate: float | str = 0) -> Settlement:
    """包賠 (rules/000): "依底注加本身牌面台數賠付三家 … 涉莊連拉台數另加計" — the
    same shape as 詐胡: each of the three gets 底 + 牌面台數, with the dealer's 台
    between the dealer and each other seat."""
    return _penalty("full_liability", tai, offender, dealer, dealer_tai, stakes, carried,
                    fee_rate)


def _penalty(reason: str, tai: int, offender: int, dealer: int, d_tai: int, stakes: Stakes,
             carried: Sequence[int] | None, fee_rate: float | str) -> Settlement:
    _seat("offender", offender)
    _seat("dealer", dealer)
    _count("tai", tai)
    _count("dealer tai", d_tai)
    owed = []
    for s in SEATS:
        if s != offender:
            t = tai + (d_tai if dealer in (s, offender) else 0)
            owed.append(Transfer(offender, s, stakes.unit(t), reason, t, stakes.unit(t)))
    return _finish(owed, carried, fee_rate)


# -- caps and fee ----------------------------------------------------------------

def cap_payments(amounts: Sequence[int], payers: Sequence[int], payees: Sequence[int],
                 carried: Sequence[int]) -> list[int]:
    """防以小博大 (rules/003): nobody loses more, or wins more, than they carried.

    Payment ``i`` of ``amounts[i]`` goes from ``payers[i]`` to ``payees[i]``.

    1. Each payer whose payments add up to more than their carried amount C pays
       exactly C, shared over their payments in proportion to what each owed.
    2. Then each payee whose (already capped) receipts add up to more than their
       carried amount C receives exactly C, every payment to them scaled in
       proportion — "多個玩家觸發以小搏大則按照輸贏比例分配".

    Step 2 only lowers payments, so step 1's caps still hold. A proportional share
    ``amount × C / total`` is rounded by largest remainder: every share rounds
    down, then the units still missing go one each to the largest fractional
    parts, earlier payments first on ties — so a capped total is exactly C."""
    if len(carried) != 4:
        raise SettlementError(f"carried amounts are needed for all four seats, got {len(carried)}")
    for s in SEATS:
        _count(f"seat {s}'s carried amount", carried[s])
    out = list(amounts)
    for side in (payers, payees):
        for s in SEATS:
            idx = [i for i, who in enumerate(side) if who == s]
            total = sum(out[i] for i in idx)
            if total > carried[s]:
                for i, share in zip(idx, _share(carried[s], [out[i] for i in idx])):
                    out[i] = share
    return out


def _share(total: int, weights: list[int]) -> list[int]:
    """Split ``total`` in proportion to ``weights`` (largest remainder)."""
    whole = sum(weights)
    if whole == 0:
        return [0] * len(weights)
    shares = [w * total // whole for w in weights]
    remainders = [w * total % whole for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-remainders[i], i))
    for i in order[:total - sum(shares)]:
        shares[i] += 1
    return shares


def _finish(owed: list[Transfer], carried: Sequence[int] | None,
            fee_rate: float | str) -> Settlement:
    rate = _rate(fee_rate)
    transfers = owed
    if carried is not None:
        capped = cap_payments([t.amount for t in owed], [t.payer for t in owed],
                              [_paid_to(t) for t in owed], carried)
        transfers = [Transfer(t.payer, t.payee, a, t.reason, t.tai, t.owed)
                     for t, a in zip(owed, capped)]
    net = [0, 0, 0, 0]
    for t in transfers:
        net[t.payer] -= t.amount
        net[_paid_to(t)] += t.amount
    fees = []
    for s in SEATS:
        fee = int(net[s] * rate) if net[s] > 0 else 0      # int() of a positive Fraction floors
        if fee:
            fees.append(Transfer(s, None, fee, "fee"))
            net[s] -= fee
    return Settlement(transfers + fees, (net[0], net[1], net[2], net[3]),
                      sum(t.amount for t in fees))


def _paid_to(t: Transfer) -> int:
    """The seat a payment goes to; only the fee, added after, goes to nobody."""
    assert t.payee is not None, "a fee transfer among the payments"
    return t.payee


def _rate(fee_rate: float | str) -> Fraction:
    """The fee rate as an exact fraction; ``0.05`` means 5/100, not the float near it."""
    try:
        rate = Fraction(str(fee_rate))
    except (ValueError, ZeroDivisionError):
        raise SettlementError(
            f"the fee rate must be a number like 0.05, got {fee_rate!r}") from None
    if not 0 <= rate < 1:
        raise SettlementError(f"the fee rate must be at least 0 and below 1, got {fee_rate}")
    return rate


# -- the scorer's answer ------------------------------------------------------------

def hand_tai(result: Any, *, winner: int, dealer: int) -> tuple[int, int | None]:
    """Split a scored hand into (its 台 without the dealer's, the dealer's 台 it
    counted — None when it counted none).

    The scorer counts 作莊 and 連N拉N in the hand only when the winner is the
    dealer; a hand that disagrees with ``winner``/``dealer`` was scored for
    another seat, and settling it would charge the wrong people."""
    if not getattr(result, "winning", True):
        why = getattr(result, "reason", None)
        raise SettlementError("the hand does not win" + (f" ({why})" if why else "")
                              + "; nothing to settle")
    total = getattr(result, "tai", None)
    _count("the scored hand's tai", total)
    counted = [p.tai for p in getattr(result, "patterns", ()) if p.id in DEALER_PATTERNS]
    if counted and winner != dealer:
        raise SettlementError(
            f"the hand counts 作莊 but the winner, seat {winner}, is not the dealer")
    if winner == dealer and not counted:
        raise SettlementError(f"seat {winner} is the dealer but the hand does not count 作莊")
    return total - sum(counted), (sum(counted) if counted else None)


def _pattern_tai(result: Any, pattern_id: str) -> int | None:
    found = [p.tai for p in getattr(result, "patterns", ()) if p.id == pattern_id]
    return sum(found) if found else None


def _check_payer(result: Any, payer: int | None, robbed: int | None) -> None:
    ids = {p.id for p in getattr(result, "patterns", ())}
    if SEVEN_ROB_ONE in ids:
        if payer is None and robbed is None:
            raise SettlementError("七搶一 needs the robbed seat: it pays as the discarder")
    elif payer is not None and ids & SELF_DRAWN:
        raise SettlementError(f"the hand was self-drawn (自摸); seat {payer} did not deal in")


def _dealer_tai_for(counted: Iterable[int | None], streak: int | None, profile: Any) -> int:
    """The dealer's 台 from ``streak``, or from the dealer's scored hand when no
    streak is given; both given must agree."""
    known = [c for c in counted if c is not None]
    if streak is None:
        return known[0] if known else dealer_tai(0, profile)
    expected = dealer_tai(streak, profile)
    for c in known:
        if c != expected:
            raise SettlementError(
                f"the hand counts {c} dealer 台 but 連{streak}拉{streak} makes {expected}")
    return expected


def _stakes_and_rate(profile: Any, stakes: Stakes | None,
                     fee_rate: float | str | None) -> tuple[Stakes, float | str]:
    if stakes is None:
        if profile is None:
            raise SettlementError("no stakes: give stakes like 100/20 or a profile")
        stakes = Stakes.from_profile(profile)
    if fee_rate is None:
        fee_rate = _field(_field(profile, "settlement"), "fee_rate") if profile is not None else 0
    return stakes, fee_rate


def settle(result: Any, *, winner: int, payer: int | None, dealer: int,
           streak: int | None = None, profile: Any = None, stakes: Stakes | None = None,
           carried: Sequence[int] | None = None, fee_rate: float | str | None = None,
           robbed: int | None = None) -> Settlement:
    """Settle a scored win (``result`` as ``scoring.score`` returns it).

    ``payer`` None is a self-draw. ``streak`` is N of 連N拉N (default: what the
    dealer's scored hand counted, else 0). ``stakes`` and ``fee_rate`` default
    to the profile's. Passing ``carried`` (each seat's money) turns on
    防以小博大 — the engine passes it when ``profile.settlement.cap_to_carried``.
    ``robbed``: 七搶一 form 2 won by 槓上開花 (see ``win``); the hand's
    ``seven_rob_one`` 台 are then charged to the robbed seat alone.

    A hand that shows a self-draw (自摸, 槓上開花, 海底, 八仙過海, 天胡, 地胡) with a
    ``payer`` is refused — except 七搶一, which the robbed seat pays as a deal-in
    even when it bloomed (rules/001 七搶一 form 1)."""
    _seat("winner", winner)
    _seat("dealer", dealer)
    tai, counted = hand_tai(result, winner=winner, dealer=dealer)
    d_tai = _dealer_tai_for([counted], streak, profile)
    stakes, fee_rate = _stakes_and_rate(profile, stakes, fee_rate)
    _check_payer(result, payer, robbed)
    robbed_tai = 0
    if robbed is not None:
        seven = _pattern_tai(result, SEVEN_ROB_ONE)
        if seven is None:
            raise SettlementError("a robbed seat was given but the hand is not 七搶一")
        robbed_tai = seven
        if _pattern_tai(result, KONG_BLOOM) is None:
            raise SettlementError("七搶一 without 槓上開花 is a deal-in: the robbed seat pays")
        tai -= robbed_tai
    return win(tai, winner=winner, payer=payer, dealer=dealer, dealer_tai=d_tai, stakes=stakes,
               carried=carried, fee_rate=fee_rate, robbed=robbed, robbed_tai=robbed_tai)


def settle_many(results: Mapping[int, Any], *, payer: int, dealer: int,
                streak: int | None = None, profile: Any = None, stakes: Stakes | None = None,
                carried: Sequence[int] | None = None,
                fee_rate: float | str | None = None) -> Settlement:
    """一炮多響 with scored hands: ``results`` maps each winning seat to its
    scored hand; the discarder ``payer`` pays each (see ``win_many``)."""
    _seat("dealer", dealer)
    tais, counted = {}, []
    for w, result in results.items():
        _seat("winner", w)
        tais[w], c = hand_tai(result, winner=w, dealer=dealer)
        _check_payer(result, payer, None)
        counted.append(c)
    d_tai = _dealer_tai_for(counted, streak, profile)
    stakes, fee_rate = _stakes_and_rate(profile, stakes, fee_rate)
    return win_many(tais, payer=payer, dealer=dealer, dealer_tai=d_tai, stakes=stakes,
                    carried=carried, fee_rate=fee_rate)


# -- checks ------------------------------------------------------------------------

def _seat(name: str, value: Any) -> None:
    if type(value) is not int or value not in SEATS:
        raise SettlementError(f"{name} must be a seat 0-3, got {value!r}")


def _count(name: str, value: Any) -> None:
    if type(value) is not int or value < 0:
        raise SettlementError(f"{name} must be a whole number 0 or more, got {value!r}")


def _has(obj: Any, name: str) -> bool:
    return name in obj if isinstance(obj, Mapping) else hasattr(obj, name)


def _field(obj: Any, name: str) -> Any:
    """``obj.name`` or ``obj[name]``: profiles may hold tables as objects or dicts."""
    if isinstance(obj, Mapping):
        if name in obj:
            return obj[name]
    elif hasattr(obj, name):
        return getattr(obj, name)
    raise SettlementError(f"the profile has no {name!r}")

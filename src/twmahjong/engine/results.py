"""From a finished hand to the scorer and the settlement (計台, 結算).

The table knows who won, on what and under which conditions (海底, 槓上開花, 天聽
…); the scorer values the hand and ``settlement`` turns 台 into money. This module
only translates between them and writes the ``win`` and ``settlement`` events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from ..scoring import HandSpec, Meld, ScoreResult, score
from ..settlement import settle, settle_many
from ..tiles import format_tiles, tile_str

if TYPE_CHECKING:
    from .state import Event, TableState, WinInfo

__all__ = ["HandResult", "hand_spec", "settle_hand", "spec_json"]


class HandResult(TypedDict):
    """How a hand ended (``HandState.result``): ``type`` "win" or "draw_game"; a
    drawn hand has its ``reason`` and no winners, a won one the rest."""
    type: str
    winners: list[int]
    reason: NotRequired[str]
    payer: NotRequired[int | None]
    self_drawn: NotRequired[bool]
    tai: NotRequired[dict[int, int]]
    patterns: NotRequired[dict[int, list[str]]]
    net: NotRequired[list[int]]
    fee: NotRequired[int]


WIND = "ESWN"


def hand_spec(h: TableState, win: WinInfo) -> HandSpec:
    """The scorer's view of one winner's 17 tiles (formats.md)."""
    seat = win["seat"]
    st = h.seats[seat]
    counts = st.counts[:]
    tile = win["tile"]
    if tile is not None and (win["self_drawn"] or win.get("flower_win")):
        counts[tile] -= 1                      # a drawn winning tile is in hand already
    concealed = tuple(k for k in range(34) for _ in range(counts[k]))
    melds = tuple(Meld(m.type, m.kinds) for m in st.melds)
    return HandSpec(concealed, melds, tuple(sorted(st.flowers)), tile, bool(win["self_drawn"]),
                    h.seat_winds[seat], h.round_wind, seat == h.dealer, h.dealer_streak,
                    frozenset(win["conditions"]))


def spec_json(spec: HandSpec) -> Event:
    return {"concealed": format_tiles(spec.concealed),
            "melds": [{"type": m.type, "tiles": format_tiles(m.tiles)} for m in spec.melds],
            "flowers": format_tiles(spec.flowers),
            "win_tile": None if spec.win_tile is None else tile_str(spec.win_tile),
            "self_drawn": spec.self_drawn, "seat_wind": WIND[spec.seat_wind],
            "round_wind": WIND[spec.round_wind], "dealer": spec.dealer,
            "dealer_streak": spec.dealer_streak, "conditions": sorted(spec.conditions)}


def settle_hand(h: TableState, wins: list[WinInfo]) -> HandResult:
    """Score every winner, settle, emit ``win`` and ``settlement``; the hand's result."""
    profile = h.profile
    scored: dict[int, ScoreResult] = {}
    for w in wins:
        spec = hand_spec(h, w)
        res = score(spec, profile)
        scored[w["seat"]] = res
        ev: Event = {"type": "win", "seat": w["seat"], "from": w["from"],
                     "tile": None if w["tile"] is None else tile_str(w["tile"]),
                     "self_drawn": bool(w["self_drawn"]), "conditions": sorted(w["conditions"]),
                     "hand": spec_json(spec), "score": res.to_json()}
        if w.get("flower_win"):
            ev["flower_win"] = True
        if w.get("four_kongs"):
            ev["four_kongs"] = True
        h._emit(ev)
    carried = h.carried if profile.settlement.cap_to_carried else None
    first = wins[0]
    if len(wins) == 1:
        robbed = first.get("robbed") if first["from"] is None else None
        st = settle(scored[first["seat"]], winner=first["seat"], payer=first["from"], dealer=h.dealer,
                    streak=h.dealer_streak, profile=profile, carried=carried, robbed=robbed)
    else:                                   # 一炮多響: several winners on one discard
        st = settle_many(scored, payer=cast(int, first["from"]), dealer=h.dealer,
                         streak=h.dealer_streak, profile=profile, carried=carried)
    sj = st.to_json()
    h._emit({"type": "settlement", **sj})
    return {"type": "win", "winners": [w["seat"] for w in wins], "payer": first["from"],
            "self_drawn": bool(first["self_drawn"]),
            "tai": {w["seat"]: scored[w["seat"]].tai for w in wins},
            "patterns": {w["seat"]: [p.id for p in scored[w["seat"]].patterns] for w in wins},
            "net": list(st.net), "fee": st.fee}

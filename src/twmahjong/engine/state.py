"""The shapes the table's parts share, for the type checker (牌桌狀態).

``HandState`` is the state machine; the legal lists, the observations, the
explanations of a refusal and the results read a hand through ``TableState`` — the
part of ``HandState`` they use, as a Protocol — so that none of them imports the
module that imports them. One winner on its way to the scorer is a ``WinInfo``;
one record event is an ``Event``. Nothing here runs on the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict

if TYPE_CHECKING:
    from ..profiles import Profile
    from .actions import Action
    from .rules import TableRules
    from .seat import SeatState

__all__ = ["Event", "TableState", "WinInfo"]

# One record event (formats.md): ``{"type": "discard", "seat": 2, "tile": "5m"}`` and
# a dozen other shapes, keyed by "type"; records are read back from JSON as they are.
Event = dict[str, Any]

# One winner as the table hands it to the scorer and settlement: the seat, the
# discarder (None for 自摸), the winning tile (None for a bare flower win), the
# conditions; ``four_kongs``, ``flower_win`` and ``robbed`` (the seat a 七搶一 took the
# flower from) only where they apply.
WinInfo = TypedDict("WinInfo", {
    "seat": int, "from": int | None, "tile": int | None, "self_drawn": bool,
    "conditions": set[str], "four_kongs": NotRequired[bool], "flower_win": NotRequired[bool],
    "robbed": NotRequired[int | None]})


class TableState(Protocol):
    """A hand in play as the table's parts read it (``HandState`` is the one there is)."""

    profile: Profile
    rules: TableRules
    seats: list[SeatState]
    phase: str
    dealer: int
    dealer_streak: int
    round_wind: int
    seat_winds: list[int]
    carried: list[int] | None
    turn_seat: int
    turn_src: str
    drawn: int | None
    # (discarder, kind) or (kong seat, kind) or (drawer, flower, robber)
    claim_ctx: tuple[int, ...] | None
    forbidden: frozenset[int]
    no_kong: bool
    no_concealed_kong: bool
    no_self_win: bool
    turn_flower: bool
    deal_flower_win: set[int]

    def pending(self) -> dict[int, list[Action]]: ...
    def drawable(self) -> int: ...
    def _emit(self, ev: Event) -> None: ...
    def _flower_holder(self, seat: int) -> int | None: ...
    def _reaches_min_tai(self, win: WinInfo) -> bool: ...
    def _ron_info(self, w: int, d: int, k: int, robbing: bool = False) -> WinInfo: ...
    def _self_draw_info(self, seat: int) -> WinInfo: ...

"""Who won how (胡牌條件): the conditions a win hands to the scorer.

海底 (last_tile), 槓上開花 (kong_bloom), 天胡/地胡/人和 and the declarations, 八仙過海
and 七搶一 depend on *when* a win happens, which only the table knows. This part of
the hand's state machine turns the moment into formats.md's condition names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..tiles import tile_str
from .seat import SeatState
from .state import Event, TableState, WinInfo

if TYPE_CHECKING:
    from ..profiles import Profile
    from .rules import TableRules

__all__ = ["WinConditions"]


class WinConditions:
    """Mixed into ``HandState``: the win paths and their conditions."""

    # the hand's state read here (``HandState`` sets it)
    profile: Profile
    rules: TableRules
    seats: list[SeatState]
    dealer: int
    drawn: int | None
    turn_src: str
    kong_replacement: bool

    if TYPE_CHECKING:                   # the rest of ``HandState``, for the type checker
        def drawable(self) -> int: ...
        def _emit(self, ev: Event) -> None: ...
        def _finish(self, wins: list[WinInfo]) -> None: ...
        def _flower_holder(self, seat: int) -> int | None: ...

    def _completes(self, st: SeatState, k: int) -> bool:
        return st.completes(k, self.rules.lilgu)

    def _declared_conditions(self, st: SeatState) -> set[str]:
        return {st.declared} if st.declared and st.declare_valid else set()

    def _ron_conditions(self, w: int, d: int) -> set[str]:
        st = self.seats[w]
        cond = self._declared_conditions(st)
        if st.declared and st.declare_valid:
            # A 天聽 hand winning on a seat's first discard: rules/000 calls it 人胡
            # (heavenly_ready_first_win) and keeps 地胡 for the self-draw; rules/001
            # item 34 calls it 地和. The profile decides by which pattern it has.
            if st.declared == "heavenly_ready" and self.seats[d].n_discards == 1:
                if self.rules.heavenly_ready_first_win:
                    cond.add("heavenly_ready_first_win")
                else:
                    cond.add("earthly_win")
            elif st.declared == "earthly_ready" and st.first_window:
                cond.add("ready_first_win")
        return cond

    def _self_draw_info(self, seat: int) -> WinInfo:
        """The win a 自摸 now would be: tile and conditions, for the offer and the act."""
        st = self.seats[seat]
        cond = self._declared_conditions(st)
        if self.turn_src in ("replacement",) or self.kong_replacement:
            cond.add("kong_bloom")
        if self.drawable() == 0:
            cond.add("last_tile")
        if seat == self.dealer and st.n_discards == 0 and not any(o.n_discards for o in self.seats):
            cond.add("heavenly_win")
        elif st.declared and st.declare_valid:
            if st.declared == "heavenly_ready" and st.n_discards == 0:
                cond.add("earthly_win")
            elif st.declared == "earthly_ready" and st.first_window:
                cond.add("ready_first_win")
        k = self.drawn
        if k is None:
            k = next(i for i in range(34) if st.counts[i])
        return {"seat": seat, "from": None, "tile": k, "self_drawn": True, "conditions": cond}

    def _self_draw_win(self, seat: int) -> None:
        self._finish([self._self_draw_info(seat)])

    def _ron_info(self, w: int, d: int, k: int, robbing: bool = False) -> WinInfo:
        cond = self._ron_conditions(w, d)
        if robbing:
            cond.add("robbing_kong")
        return {"seat": w, "from": d, "tile": k, "self_drawn": False, "conditions": cond}

    def _reaches_min_tai(self, win: WinInfo) -> bool:
        """起胡台數 (``play.min_tai``): the win as the scorer values it — the dealer's
        台 included when the dealer wins — must reach the table's minimum.

        Only asked when a hand is complete and the minimum is above 0, so the
        scorer stays off the hot path."""
        from ..scoring import score
        from .results import hand_spec
        res = score(hand_spec(cast(TableState, self), win), self.profile)   # mixed into HandState
        return res.winning and res.tai >= self.rules.min_tai

    def _flower_win_info(self, seat: int, drawn: int | None, robbed: int | None,
                         replacement: bool) -> WinInfo:
        st = self.seats[seat]
        complete = False
        if drawn is not None:
            st.take(drawn)
            complete = self._completes(st, drawn)
            st.add(drawn)
        cond = {"seven_rob_one" if robbed is not None else "eight_immortals"}
        if complete and replacement:
            cond.add("kong_bloom")
        return {"seat": seat, "from": robbed, "tile": drawn if complete else None,
                "self_drawn": robbed is None or complete, "conditions": cond,
                "flower_win": True, "robbed": robbed}

    def _flower_win_turn(self, seat: int) -> None:
        st = self.seats[seat]
        robbed = self._flower_holder(seat)      # None unless this seat holds seven
        if robbed is not None:
            # 七搶一 (2) and 配牌花和: take the eighth flower from its holder
            f = self.seats[robbed].flowers.pop()
            st.flowers.append(f)
            self._emit({"type": "flower", "seat": seat, "tile": tile_str(f), "robbed_from": robbed})
        info = self._flower_win_info(seat, self.drawn, robbed,
                                     self.turn_src == "replacement" or self.kong_replacement)
        if robbed is not None and "kong_bloom" in info["conditions"]:
            info["from"] = None           # 補得之牌恰為槓上開花: 視同自摸, the robbed seat pays the 8 台
        self._finish([info])


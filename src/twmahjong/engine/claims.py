"""Claims on a discard, a 加槓 or a drawn flower, resolved (行牌的優先權規則).

When every asked seat has answered, the table settles it here: 胡 before 碰/槓
before 吃 before the next draw (攔胡: the nearest winner first, 一炮多響 where the
profile allows), 過水 and 漏碰 for the seats that let a win or a pon go, and the
meld laid down with the prohibitions it brings for the turn (行牌禁制 1, 2, 3, 6).
Mixed into ``HandState``; it reads and changes the hand's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .actions import Action
from .notation import fmt_tiles, tile_text
from .seat import SeatState, TableMeld, other_end
from .state import Event, WinInfo

if TYPE_CHECKING:
    from .rules import TableRules
    from .wall import Wall

__all__ = ["ClaimResolution"]

tile_str = tile_text


class ClaimResolution:
    """Mixed into ``HandState``: what happens once a claim window has its answers."""

    # the hand's state read and changed here (``HandState`` sets it)
    rules: TableRules
    seats: list[SeatState]
    wall: Wall
    claim_ctx: tuple[int, ...] | None
    any_claim: bool
    drawn: int | None
    no_kong: bool
    no_self_win: bool
    no_concealed_kong: bool
    kong_made: bool
    forbidden: frozenset[int]
    forfeit_kinds: frozenset[int]

    if TYPE_CHECKING:                   # the rest of ``HandState``, for the type checker
        def drawable(self) -> int: ...
        def _emit(self, ev: Event) -> None: ...
        def _finish(self, wins: list[WinInfo]) -> None: ...
        def _ron_info(self, w: int, d: int, k: int, robbing: bool = False) -> WinInfo: ...
        def _flower_win_info(self, seat: int, drawn: int | None, robbed: int | None,
                             replacement: bool) -> WinInfo: ...
        def _next_draw(self, d: int) -> None: ...
        def _hand_changed(self, seat: int) -> None: ...
        def _reset_turn_flags(self) -> None: ...
        def _start_turn(self, seat: int, src: str) -> None: ...
        def _draw(self, seat: int, back: bool) -> None: ...
        def _after_added_kong(self, seat: int) -> None: ...

    def _mark_passes(self, pend: dict[int, list[Action]], choices: dict[int, Action]) -> None:
        """過水 and 漏碰 for every seat that was offered a win or a pon and took neither."""
        for s, opts in pend.items():
            c = choices[s]
            st = self.seats[s]
            for o in opts:
                if o.type == "win" and c.type != "win":
                    if self.rules.passed_win != "until_own_draw":
                        st.passed_win = True
                    else:
                        st.passed_win_kinds.add(cast(int, o.tile))   # a win on a discard names it
                    st.declare_valid = False
                elif o.type == "pon" and c.type not in ("pon", "kong", "win") \
                        and self.rules.passed_pon != "none":
                    st.passed_pon.add(cast(int, o.tile))

    def _winners_in_order(self, d: int, choices: dict[int, Action]) -> list[int]:
        order = [(d + i) % 4 for i in (1, 2, 3)]
        ws = [s for s in order if s in choices and choices[s].type == "win"]
        if self.rules.multiple_winners == "nearest":
            return ws[:1]                    # 攔胡: nearest to the discarder in turn order
        return ws

    def _resolve_claims(self, choices: dict[int, Action], pend: dict[int, list[Action]]) -> None:
        # (discarder, discard), set by the discard; no cast: this runs at every claim window
        d, k = self.claim_ctx  # type: ignore[misc]
        self._mark_passes(pend, choices)
        meld = chow = None                   # the first seat to 碰/槓, the first to 吃
        for s, c in choices.items():
            t = c.type
            if t == "win":
                self._finish([self._ron_info(w, d, k) for w in self._winners_in_order(d, choices)])
                return
            if t == "pon" or t == "kong":
                if meld is None:
                    meld = s
            elif t == "chi" and chow is None:
                chow = s
        if meld is not None:
            self._claim_set(meld, d, k, choices[meld])
        elif chow is not None:
            self._claim_set(chow, d, k, choices[chow])
        else:
            self._next_draw(d)

    def _claim_set(self, s: int, d: int, k: int, c: Action) -> None:
        st = self.seats[s]
        self.seats[d].claimed[-1] = True
        self.any_claim = True
        self._hand_changed(s)                # a claim changes a declared hand's tiles
        self._reset_turn_flags()
        self.drawn = None
        if c.type == "chi":
            a, b = c.tiles
            st.take(a)
            st.take(b)
            run = tuple(sorted((a, b, k)))
            st.melds.append(TableMeld("chi", run, d, k))
            self._emit({"type": "chi", "seat": s, "from": d, "tile": tile_str(k),
                        "tiles": fmt_tiles(run)})
            self.no_kong = True
            self.no_self_win = True
            suji = other_end(k, a, b)
            bad = {k} if suji is None else {k, suji}
            if self.rules.after_chi_discard == "forbidden_same_and_suji":
                self.forbidden = frozenset(bad)
            else:
                self.forfeit_kinds = frozenset({k})
            self._start_turn(s, "claim")
        elif c.type == "pon":
            st.take(k, 2)
            st.melds.append(TableMeld("pon", (k, k, k), d, k))
            self._emit({"type": "pon", "seat": s, "from": d, "tile": tile_str(k)})
            self.no_kong = True
            self.no_self_win = True
            if self.rules.after_pon_discard == "forbidden":
                self.forbidden = frozenset({k})
            else:
                self.forfeit_kinds = frozenset({k})
            self._start_turn(s, "claim")
        else:   # 碰槓
            st.take(k, 3)
            st.melds.append(TableMeld("kong", (k, k, k, k), d, k))
            self._emit({"type": "kong", "seat": s, "kind": "exposed", "from": d, "tile": tile_str(k)})
            self.no_self_win = True          # 禁制 2
            # 禁制 3: 001 forbids the 暗槓; 000 allows it, its replacement kept from 自摸
            # by no_self_win, which stays set for the rest of this turn
            self.no_concealed_kong = self.rules.concealed_kong_after_exposed_kong == "forbidden"
            self.kong_made = True
            self._draw(s, back=True)

    def _resolve_rob_kong(self, choices: dict[int, Action], pend: dict[int, list[Action]]) -> None:
        seat, k = cast(tuple[int, int], self.claim_ctx)     # the kong's seat, its kind
        self._mark_passes(pend, choices)
        ws = self._winners_in_order(seat, choices)
        if ws:
            for m in self.seats[seat].melds:   # the robbed tile leaves the kong: it is a pon again
                if m.type == "added_kong" and m.kinds[0] == k:
                    m.type = "pon"
                    m.kinds = (k, k, k)
            self._finish([self._ron_info(w, seat, k, robbing=True) for w in ws])
            return
        self._after_added_kong(seat)

    def _resolve_rob_flower(self, choices: dict[int, Action]) -> None:
        drawer, f, robber = cast(tuple[int, int, int], self.claim_ctx)
        if choices[robber].type == "flower_win":
            # 七搶一 (1): take the flower, replace from the 槓尾, win; the drawer pays
            self.seats[drawer].flowers.remove(f)
            rs = self.seats[robber]
            rs.flowers.append(f)
            self._emit({"type": "flower", "seat": robber, "tile": tile_str(f), "robbed_from": drawer})
            if self.drawable() <= 0:
                self._finish([self._flower_win_info(robber, None, drawer, False)])
                return
            k = self.wall.draw_back()
            self._emit({"type": "draw", "seat": robber, "tile": tile_str(k), "replacement": True})
            rs.add(k)
            self._finish([self._flower_win_info(robber, k, drawer, True)])
            return
        self._draw(drawer, back=True)

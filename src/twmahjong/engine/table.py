"""One hand (一盤) at the table: the referee's state machine.

The hand moves through decision points. At each, ``pending()`` names every seat
that must decide now with its complete list of legal actions; ``act(seat, action)``
records one choice; when all pending seats have chosen, the table resolves by
priority (胡 > 碰/槓 > 吃) and runs on by itself through draws, 補花, the dead wall
and 荒局 until the next decision. An action not offered raises ``IllegalAction``
and changes nothing.

    >>> from twmahjong.profiles import load_profile
    >>> h = HandState(load_profile("standard"), dealer=0, seed=1)
    >>> sorted(h.pending()) in ([0], [1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3])
    True

Phases: ``declare`` (天聽 window after the opening 補花), ``turn`` (the seat to
move holds 3k+2 tiles), ``claim`` (after a discard), ``rob_kong`` (搶槓 after a
加槓), ``rob_flower`` (七搶一 when another seat draws the eighth flower),
``last_tile`` (海底: draw the last drawable tile or decline it), ``over``.
The rule readings are in docs/engine.md.

``open_windows=True`` (what a server with people at it uses) makes the secret
windows look the same whatever the hidden hands hold: every discard opens a
``claim`` window for all three other seats, every 加槓 a ``rob_kong`` window, and
the 天聽 ``declare`` window opens for every non-dealer. A seat with nothing to do
there is pending with ``[pass]`` alone. Otherwise a seat would learn from the mere
existence of a window that somebody holds a pair, a run or a wait on the tile.
The events, and so the record, are the same either way: passes emit nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from ..hand import KEY_STEP, waits_key
from . import actions as A
from .actions import Action, IllegalAction
from .claims import ClaimResolution
from .conditions import WinConditions
from .legal import claim_options, may_chi, turn_options
from .notation import TILE_TEXT, fmt_tiles, tile_text
from .rules import TableRules
from .seat import SeatState, TableMeld
from .state import Event, WinInfo
from .wall import Wall, new_seed

if TYPE_CHECKING:
    from ..profiles import Profile
    from .observe import Observation
    from .results import HandResult

__all__ = ["HandState"]

WIND = "ESWN"
_NONE: frozenset[int] = frozenset()
_AFTER = tuple(((d + 1) % 4, (d + 2) % 4, (d + 3) % 4) for d in range(4))   # the seats after d
tile_str = tile_text


class HandState(ClaimResolution, WinConditions):
    """One 盤 from the deal to the settlement."""

    def __init__(self, profile: Profile, *, dealer: int = 0, dealer_streak: int = 0,
                 round_wind: int = 0, seed: int | None = None, wall: Wall | None = None,
                 rules: TableRules | None = None, hand_no: int = 0,
                 carried: list[int] | None = None, events: list[Event] | None = None,
                 open_windows: bool = False):
        self.profile = profile
        self.open_windows = open_windows
        self.rules = rules or TableRules.from_profile(profile)
        self._dead = self.rules.dead_wall
        self.dealer = dealer
        self.dealer_streak = dealer_streak
        self.round_wind = round_wind
        self.hand_no = hand_no
        self.carried = carried
        self.seed = new_seed() if seed is None and wall is None else seed
        if wall is None:
            wall = Wall.build(random.Random(self.seed), breaker=dealer)
            open_seat = wall.break_seat
        else:
            open_seat = dealer
        self.wall = wall
        self.open_seat = open_seat
        east = open_seat if self.rules.seat_wind_from == "wall_break" else dealer
        self.seat_winds = [(s - east) % 4 for s in range(4)]
        self.seats = [SeatState() for _ in range(4)]
        self.events: list[Event] = [] if events is None else events
        # where this hand's own story starts in ``events`` (a match passes its list,
        # which holds every hand before this one)
        self.events_start = len(self.events)
        self.phase = "deal"
        self.turn_seat = dealer
        self.drawn: int | None = None
        self._pending: dict[int, list[Action]] = {}
        self._choices: dict[int, Action] = {}
        # (discarder, kind) or (kong seat, kind) or (drawer, flower, robber)
        self.claim_ctx: tuple[int, ...] | None = None
        self.any_claim = False                   # a chi/pon/kong has happened (地聽 reading for 報聽)
        self.wins: list[WinInfo] = []
        self.result: HandResult | None = None
        self._reset_turn_flags()
        self._deal()

    # -- queries -----------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def pending(self) -> dict[int, list[Action]]:
        """Seats that must decide now and each one's legal actions (do not mutate).

        With no choice made yet this is the table's own dict, not a copy (the hot
        path of every decision): the engine never changes it in place, it only
        replaces it, so a caller may act while iterating over it."""
        if not self._choices:
            return self._pending
        return {s: acts for s, acts in self._pending.items() if s not in self._choices}

    def drawable(self) -> int:
        return self.wall.left - self._dead

    def observation(self, seat: int) -> Observation:
        from .observe import observation
        return observation(self, seat)

    # -- acting ------------------------------------------------------------------

    def act(self, seat: int, action: Action | Mapping[str, object]) -> None:
        """Record ``seat``'s choice; resolve once every pending seat has chosen."""
        if not isinstance(action, Action):
            action = Action.from_json(action)
        pend = self._pending
        legal = pend.get(seat)
        choices = self._choices
        if legal is None:
            if self.phase == "over":
                raise IllegalAction("the hand is over; no more actions")
            raise IllegalAction(f"seat {seat} has nothing to decide now; waiting for seat(s) "
                                f"{', '.join(str(s) for s in self.pending())}")
        if seat in choices:
            raise IllegalAction(f"seat {seat} has already chosen {choices[seat].describe()}")
        for x in legal:
            if x is action:
                break
        else:
            if action in legal:
                action = legal[legal.index(action)]
            else:
                raise IllegalAction(self._why_illegal(seat, action))
        if len(pend) == 1:
            # one seat decides (every turn): no choices to collect
            self._pending = {}
            phase = self.phase
            if phase == "turn":
                self._do_turn(seat, action)
                return
            choices = {seat: action}
        else:
            choices[seat] = action
            if len(choices) != len(pend):
                return
            self._choices = {}
            self._pending = {}
            phase = self.phase
        if phase == "claim":
            self._resolve_claims(choices, pend)
        elif phase == "rob_kong":
            self._resolve_rob_kong(choices, pend)
        elif phase == "rob_flower":
            self._resolve_rob_flower(choices)
        elif phase == "declare":
            self._resolve_declare(choices)
        elif phase == "last_tile":
            self._resolve_last_tile(seat, choices[seat])

    def _why_illegal(self, seat: int, action: Action) -> str:
        """The refusal's message. Explaining must never be what stops a table: an
        action no rule there foresaw still gets a plain refusal (and a bug report's
        worth of detail stays out of the player's message)."""
        from .explain import why_illegal
        try:
            return why_illegal(self, seat, action)
        except Exception:                                   # noqa: BLE001 - see docstring
            legal = self._pending.get(seat, [])
            return (f"{action.describe()} is not allowed now. You may: "
                    + ", ".join(x.describe() for x in legal) + ".")

    # -- opening -----------------------------------------------------------------

    def _emit(self, ev: Event) -> None:
        self.events.append(ev)

    def _deal(self) -> None:
        """配牌: four tiles a turn from the dealer on, four rounds, then the 門牌."""
        dealt = self.wall.deal_front(65)    # four rounds of four from the dealer on, then one
        got: list[list[int]] = [[] for _ in range(4)]
        for i in range(4):
            got[(self.dealer + i) % 4] = [dealt[16 * r + 4 * i + j] for r in range(4) for j in range(4)]
        got[self.dealer].append(dealt[64])
        self._emit({"type": "deal", "hand_no": self.hand_no, "dealer": self.dealer,
                    "dealer_streak": self.dealer_streak, "round_wind": WIND[self.round_wind],
                    "seat_winds": [WIND[w] for w in self.seat_winds],
                    "dice": list(self.wall.dice), "wall_break": [self.wall.break_seat, self.wall.break_stack],
                    "hands": [fmt_tiles(h) for h in got]})
        pending_fl: list[list[int]] = [[] for _ in range(4)]
        for s in range(4):
            st = self.seats[s]
            st.initial = got[s]
            counts = [0] * 34
            for k in got[s]:
                if k >= 34:
                    pending_fl[s].append(k)
                else:
                    counts[k] += 1
            st.counts = counts                  # one key for the whole 配牌
        last_dealer_tile = next((k for k in reversed(got[self.dealer]) if k < 34), None)
        # 補花: rounds from the dealer, each from the 槓尾; flowers drawn wait for the next round
        while any(pending_fl):
            nxt: list[list[int]] = [[] for _ in range(4)]
            for i in range(4):
                s = (self.dealer + i) % 4
                for f in pending_fl[s]:
                    self.seats[s].flowers.append(f)
                    self._emit({"type": "flower", "seat": s, "tile": tile_str(f)})
                for _ in pending_fl[s]:
                    k = self.wall.draw_back()
                    self._emit({"type": "draw", "seat": s, "tile": tile_str(k), "replacement": True})
                    if k >= 34:
                        nxt[s].append(k)
                    else:
                        self.seats[s].add(k)
                        if s == self.dealer:
                            last_dealer_tile = k
            pending_fl = nxt
        self.deal_flower_win = self._deal_flower_state()
        for s in range(4):
            if s != self.dealer:
                self.seats[s].waits = self.seats[s].wait_kinds(self.rules.lilgu)
        ready = []
        if self.rules.declare_ready == "heavenly_earthly":
            ready = [s for s in range(4) if s != self.dealer and self.seats[s].waits]
        self.drawn = last_dealer_tile
        if self.open_windows and self.rules.declare_ready == "heavenly_earthly":
            self.phase = "declare"
            self._pending = {s: [A.DECLARE, A.PASS] if s in ready else [A.PASS]
                             for s in range(4) if s != self.dealer}
        elif ready:
            self.phase = "declare"
            self._pending = {s: [A.DECLARE, A.PASS] for s in ready}
        else:
            self._start_turn(self.dealer, "deal")

    def _deal_flower_state(self) -> set[int]:
        """配牌花和: seats that may take 八仙過海/七搶一 at their first turn."""
        out = set()
        for s in range(4):
            n = len(self.seats[s].flowers)
            if n == 8 or (n == 7 and self._flower_holder(s) is not None):
                out.add(s)
        return out

    def _flower_holder(self, seat: int) -> int | None:
        """The other seat holding the one flower ``seat`` lacks, if ``seat`` has seven."""
        if len(self.seats[seat].flowers) != 7:
            return None
        for s in range(4):
            if s != seat and len(self.seats[s].flowers) == 1:
                return s
        return None

    def _resolve_declare(self, choices: dict[int, Action]) -> None:
        for s in sorted(choices):
            if choices[s].type == "declare":
                self._declare(s, "heavenly_ready", None)
        self._start_turn(self.dealer, "deal")

    def _declare(self, seat: int, kind: str, tile: int | None) -> None:
        st = self.seats[seat]
        st.declared = kind
        st.declare_valid = True
        st.first_window = True
        ev: Event = {"type": "declare", "seat": seat, "kind": kind}
        if tile is not None:
            ev["tile"] = tile_str(tile)
        self._emit(ev)

    # -- the turn ----------------------------------------------------------------

    def _reset_turn_flags(self) -> None:
        self.turn_src = "draw"          # deal | draw | replacement | claim
        self.no_self_win = False        # 禁制 2/4: 碰槓補牌, claimed turns
        self.no_kong = False            # 禁制 1: after 吃/碰
        self.no_concealed_kong = False  # 禁制 3: after 碰槓
        self.forbidden: frozenset[int] = _NONE   # 禁制 6
        self.forfeit_kinds: frozenset[int] = _NONE  # casual: discarding these forfeits the win
        self.turn_flower = False
        self.kong_replacement = False
        self.kong_made = False

    def _start_turn(self, seat: int, src: str) -> None:
        if self.kong_made and self._four_kongs(seat):
            return
        self.phase = "turn"
        self.turn_seat = seat
        self.turn_src = src
        self._pending = {seat: turn_options(self, seat)}

    def _draw_turn(self, seat: int) -> None:
        """A normal draw from the live end begins ``seat``'s turn."""
        self._reset_turn_flags()
        st = self.seats[seat]
        st.n_draws += 1
        if st.passed_win_kinds and self.rules.passed_win == "until_own_draw":
            st.passed_win_kinds.clear()
        if st.passed_pon and self.rules.passed_pon == "until_own_draw":
            st.passed_pon.clear()
        self._draw(seat, back=False)

    def _draw(self, seat: int, back: bool) -> None:
        """Draw (or replace from the 槓尾), exposing flowers as they come (補花)."""
        st = self.seats[seat]
        wall = self.wall
        while True:
            if wall.left <= self._dead:                # drawable() <= 0, on the hot path
                self._draw_game("wall_exhausted")
                return
            k = wall.draw_back() if back else wall.draw_front()
            self.events.append({"type": "draw", "seat": seat, "tile": TILE_TEXT[k], "replacement": back})
            if k < 34:
                st._counts[k] += 1               # st.add(k), on the hot path
                g, step = KEY_STEP[k]
                st.key[g] += step
                self.drawn = k
                self.kong_replacement = back
                self._start_turn(seat, "replacement" if back else "draw")
                return
            st.flowers.append(k)
            self.turn_flower = True
            self._emit({"type": "flower", "seat": seat, "tile": tile_str(k)})
            back = True
            robber = next((s for s in range(4) if s != seat and len(self.seats[s].flowers) == 7
                           and not self.seats[s].cannot_win), None)
            if robber is not None:
                self.phase = "rob_flower"
                self.claim_ctx = (seat, k, robber)
                self._pending = {robber: [A.FLOWER_WIN, A.PASS]}
                return

    def _do_turn(self, seat: int, a: Action) -> None:
        st = self.seats[seat]
        t = a.type
        # the moves that read ``k`` (discard, declare at a turn, 暗槓, 加槓) name their tile;
        # told to the checker without a cast, which would be a call on every turn
        k: int = a.tile  # type: ignore[assignment]
        if t == "discard":
            if st.declared is not None and k != self.drawn and self.drawn is not None:
                self._hand_changed(seat)         # 換牌: kept the drawn tile, threw another
            self._discard(seat, k)
        elif t == "declare":
            self._declare(seat, self._declare_kind(seat), k)
            self._discard(seat, k)
        elif t == "win":
            self._self_draw_win(seat)
        elif t == "flower_win":
            self._flower_win_turn(seat)
        elif t == "concealed_kong":
            # 禁制 5 / 解除過水: the replacement may not self-draw when a winning tile
            # of this hand was discarded at the table since this seat's last discard.
            st.take(k, 4)
            waits = st.wait_kinds(self.rules.lilgu)
            furiten = any(x in st.since for x in waits)
            if waits != st.waits:
                self._hand_changed(seat)         # a 暗槓 that changes the waits is a change
            st.waits = waits
            st.melds.append(TableMeld("concealed_kong", (k, k, k, k), None, None))
            self._emit({"type": "kong", "seat": seat, "kind": "concealed", "tile": tile_str(k)})
            if furiten:
                self.no_self_win = True
            self.kong_made = True
            self.drawn = None
            self._draw(seat, back=True)
        elif t == "added_kong":
            self._put_out(st, k)             # 解除過水: 加槓 counts as putting a tile out
            st.take(k)
            for m in st.melds:
                if m.type == "pon" and m.kinds[0] == k:
                    m.type = "added_kong"
                    m.kinds = (k, k, k, k)
                    break
            self._emit({"type": "kong", "seat": seat, "kind": "added", "tile": tile_str(k)})
            self.drawn = None
            robbers: dict[int, list[Action]] = {}
            for s in range(4):
                if s == seat:
                    continue
                o = self.seats[s]
                if o.may_win_on(k) and self._completes(o, k) and (
                        not self.rules.min_tai or self._reaches_min_tai(self._ron_info(s, seat, k, True))):
                    robbers[s] = [A.win(k), A.PASS]
                elif self.open_windows:
                    robbers[s] = [A.PASS]
            if robbers:
                self.phase = "rob_kong"
                self.claim_ctx = (seat, k)
                self._pending = robbers
                return
            self._after_added_kong(seat)

    def _after_added_kong(self, seat: int) -> None:
        self.kong_made = True
        self._draw(seat, back=True)

    def _four_kongs(self, seat: int) -> bool:
        """Casual 四槓 (rules/003): a seat's fourth kong ends the hand as its win once
        the replacement is in; four kongs among several seats end it drawn (和局)."""
        self.kong_made = False
        if not self.rules.four_kongs_win:
            return False
        st = self.seats[seat]
        if st.kong_count() == 4:
            k = cast(int, self.drawn)            # the replacement just drawn
            st.take(k)
            complete = self._completes(st, k)
            st.add(k)
            cond: set[str] = {"kong_bloom"} if complete else set()
            self._finish([{"seat": seat, "from": None, "tile": k if complete else None,
                           "self_drawn": True, "conditions": cond, "four_kongs": True}])
            return True
        if sum(o.kong_count() for o in self.seats) >= 4:
            self._draw_game("four_kongs")
            return True
        return False

    def _declare_kind(self, seat: int) -> str:
        """Which declaration a discard-with-聽 is (天聽/地聽/報聽) under this profile."""
        st = self.seats[seat]
        if self.rules.declare_ready == "heavenly_earthly":
            return "earthly_ready"
        if st.n_discards == 0 and seat == self.dealer:
            return "heavenly_ready"          # rules/003 天聽: 莊家打出第一張牌後已經聽牌
        if st.n_discards == 0 and not self.any_claim:
            return "earthly_ready"           # rules/003 地聽: 四家不碰牌吃牌以內
        return "declared_ready"

    def _discard(self, seat: int, k: int) -> None:
        st = self.seats[seat]
        st._counts[k] -= 1                   # st.take(k), on the hot path
        g, step = KEY_STEP[k]
        st.key[g] -= step
        st.discards.append(k)
        st.claimed.append(False)
        st.drawn_out.append(k == self.drawn)  # 摸切: the tile just drawn went out
        st.n_discards += 1
        if st.declared is not None and self.events[-1].get("type") != "declare":
            st.first_window = False
        if st.passed_win:
            self._put_out(st, k)
        if st.passed_pon and self.rules.passed_pon == "until_own_discard":
            st.passed_pon.clear()
        if k in self.forfeit_kinds:
            st.cannot_win = True
        if self.rules.lilgu:
            st.waits = st.wait_kinds(True)
        else:
            w = waits_key(st.key)
            st.waits = frozenset(w) if w else _NONE
        st.last_discard = k
        for o in self.seats:
            o.since.add(k)
        st.since = {k}
        self.drawn = None
        self.events.append({"type": "discard", "seat": seat, "tile": TILE_TEXT[k]})
        self._open_claims(seat, k)

    def _put_out(self, st: SeatState, k: int) -> None:
        """解除過水: 打出(或加杠)一張非和之牌 (rules/000-001) — a tile that is not one of the
        seat's winning tiles as its turn stands (its waits before this tile went out);
        where the profile says any discard lifts it, any does."""
        if self.rules.passed_win == "until_own_discard" or (
                self.rules.passed_win == "until_non_winning_discard" and k not in st.waits):
            st.passed_win = False

    def _hand_changed(self, seat: int) -> None:
        """宣告天聽/地聽後如不換牌或靠張則保持有效，否則解除 (rules/000-001): a declared hand
        that changes its tiles keeps playing, without the declaration. The announcement
        stays public (it was made); only its value is gone, as at a real table."""
        st = self.seats[seat]
        if st.declared is not None:
            st.declare_valid = False
            st.first_window = False

    def _open_claims(self, d: int, k: int) -> None:
        self.claim_ctx = (d, k)
        pend: dict[int, list[Action]] = {}
        seats = self.seats
        open_windows = self.open_windows
        nxt, s2, s3 = _AFTER[d]
        for s in (nxt, s2, s3):
            o = seats[s]
            c = o._counts
            # most seats can do nothing with most tiles: skip them before building a list
            # (a win, a pair for 碰, and for the next seat two tiles of a run for 吃)
            if k in o.waits or c[k] >= 2 or (s == nxt and k < 27 and may_chi(c, k)):
                opts = claim_options(self, s, d, k)
                if opts:
                    pend[s] = opts
            if open_windows and s not in pend:
                pend[s] = [A.PASS]
        if pend:
            self.phase = "claim"
            self._pending = pend
            return
        self._next_draw(d)

    def _next_draw(self, d: int) -> None:
        left = self.wall.left - self._dead         # drawable(), on the hot path
        if left <= 0:
            self._draw_game("wall_exhausted")
            return
        nxt = (d + 1) % 4
        if left == 1 and self.rules.may_decline_last_tile:
            # 海底牌得棄摸 (rules/001 item 25): ask before the last drawable tile
            self.phase = "last_tile"
            self.turn_seat = nxt
            self._pending = {nxt: [A.DRAW, A.PASS]}
            return
        self._draw_turn(nxt)

    def _resolve_last_tile(self, seat: int, choice: Action) -> None:
        """Drawn 海底 is a normal draw (a win or a discard must follow: 摸牌即須打牌);
        declined, nobody draws and the hand is 荒局 (the dealer keeps the deal)."""
        if choice is A.DRAW:
            self._draw_turn(seat)
        else:
            self._draw_game("last_tile_declined", seat)

    def _draw_game(self, reason: str, seat: int | None = None) -> None:
        ev: Event = {"type": "draw_game", "reason": reason}
        if seat is not None:
            ev["seat"] = seat                # who declined the last tile
        self._emit(ev)
        self.result = {"type": "draw_game", "reason": reason, "winners": []}
        self.phase = "over"
        self._pending = {}

    def _finish(self, wins: list[WinInfo]) -> None:
        from .results import settle_hand
        self.phase = "over"
        self._pending = {}
        self.wins = wins
        self.result = settle_hand(self, wins)
        first = wins[0]
        if first["from"] is not None and not first.get("flower_win"):
            # the winning tile goes to the (first) winner: out of the river, or off the kong
            self.seats[first["seat"]].add(cast(int, first["tile"]))     # a discard won on
            if self.phase == "over" and "robbing_kong" not in first["conditions"]:
                self.seats[first["from"]].claimed[-1] = True

"""What one seat may see (觀察): its own hand, everything exposed, never the wall.

``observation(h, seat)`` is the architecture's observation dict; ``event_view``
redacts one record event for a seat (another seat's drawn tile, dealt hand and
concealed kong are hidden), which is what a bot pipe or a client receives.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ..hand import KEY_STEP
from ..tiles import format_tiles, tile_str
from .notation import TILE_TEXT
from .actions import Action, ActionJSON, legal_json
from .seat import TableMeld

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values

    from .state import Event, TableState

__all__ = ["HIDDEN", "MeldKinds", "MeldView", "Observation", "PassedWin", "SeatTile",
           "event_view", "observation", "observations", "seat_kinds"]

# A meld as a seat sees it: ``tiles`` None for another seat's 暗槓; ``from`` (the
# discarder) and ``claimed`` (the tile taken) for a claimed meld.
MeldView = TypedDict("MeldView", {"type": str, "tiles": str | None, "from": NotRequired[int],
                                  "claimed": NotRequired[str]})


class SeatTile(TypedDict):
    """A seat and a tile: the discard that may be claimed, the 加槓 that may be robbed."""
    seat: int
    tile: str


class PassedWin(TypedDict):
    """The seat's own 過水 (a win it let go): ``until`` is the profile's ``passed_win``
    rule (what lifts it); ``tiles`` the kinds it may not win on (MPSZ), or None when
    it may not win at all."""
    until: str
    tiles: str | None


class Observation(TypedDict):
    """docs/architecture.md's observation of one seat; ``legal`` only while the seat
    must decide, ``added_kong`` only in a 搶槓 window, ``passed_win`` only while the
    seat's own 過水 holds (never another seat's)."""
    seat: int
    dealer: int
    dealer_streak: int
    round_wind: str
    seat_winds: list[str]
    wall_remaining: int
    phase: str
    hand: str
    drawn: str | None
    melds: list[list[MeldView]]
    flowers: list[list[str]]
    discards: list[list[str]]
    drawn_out: list[list[bool]]
    concealed_count: list[int]
    declared: list[bool]
    last_discard: SeatTile | None
    added_kong: NotRequired[SeatTile]
    passed_win: NotRequired[PassedWin]
    legal: NotRequired[list[ActionJSON]]


WIND = "ESWN"
HIDDEN = "?"


def _face_down(m: TableMeld, viewer: int, owner: int) -> bool:
    """Another seat's 暗槓 lies face down: its tiles are not told."""
    return m.type == "concealed_kong" and viewer != owner


def _own_drawn(h: TableState, seat: int) -> int | None:
    """The tile ``seat`` just drew, if it is the seat's turn (no one else's draw is told)."""
    return h.drawn if (h.phase == "turn" and h.turn_seat == seat) else None


def _claimable(h: TableState) -> tuple[int, int] | None:
    """(discarder, kind) of the discard that may be claimed now, in a claim window."""
    if h.claim_ctx is not None and h.phase == "claim":
        d, k = h.claim_ctx
        return d, k
    return None


def _meld_view(m: TableMeld, viewer: int, owner: int) -> MeldView:
    if _face_down(m, viewer, owner):
        return {"type": "concealed_kong", "tiles": None}   # 暗槓 lies face down
    out: MeldView = {"type": m.type, "tiles": format_tiles(m.kinds)}
    if m.from_seat is not None:
        # which tile of a 吃 came from the river: everyone at the table saw it taken,
        # and without it a reader of the rivers cannot tell which tile is gone twice
        out["from"] = m.from_seat
        out["claimed"] = tile_str(cast(int, m.claimed))     # set with from_seat
    return out


def observation(h: TableState, seat: int) -> Observation:
    """The observation of docs/architecture.md for ``seat``."""
    sts = h.seats
    text = TILE_TEXT
    st = sts[seat]
    counts = st.counts
    drawn = _own_drawn(h, seat)
    kinds = []                               # in order: no sort to write them
    for k in range(34):
        n = counts[k] - (1 if k == drawn else 0)
        if n:
            kinds.extend([k] * n)
    claimable = _claimable(h)
    last: SeatTile | None = None
    if claimable is not None:
        last = {"seat": claimable[0], "tile": tile_str(claimable[1])}
    obs: Observation = {
        "seat": seat, "dealer": h.dealer, "dealer_streak": h.dealer_streak,
        "round_wind": WIND[h.round_wind], "seat_winds": [WIND[w] for w in h.seat_winds],
        "wall_remaining": h.drawable(), "phase": h.phase,
        "hand": format_tiles(kinds, sort=False), "drawn": None if drawn is None else tile_str(drawn),
        "melds": [[_meld_view(m, seat, s) for m in sts[s].melds] for s in range(4)],
        "flowers": [[text[f] for f in x.flowers] for x in sts],
        "discards": [[text[k] for k in x.discards] for x in sts],
        "drawn_out": [x.drawn_out[:] for x in sts],
        "concealed_count": [sum(x.counts) for x in sts],
        "declared": [x.declared is not None for x in sts],
        "last_discard": last,
    }
    if st.passed_win or st.passed_win_kinds:
        obs["passed_win"] = {"until": h.rules.passed_win, "tiles": None if st.passed_win
                             else format_tiles(sorted(st.passed_win_kinds))}
    if h.phase == "rob_kong" and h.claim_ctx is not None:
        obs["added_kong"] = {"seat": h.claim_ctx[0], "tile": tile_str(h.claim_ctx[1])}
    pend = h.pending()
    if seat in pend:
        obs["legal"] = legal_json(pend[seat])
    return obs


# A suit's part of a hand's text ("1123m"), by the suit's key in ``SeatState.key``
# (twmahjong.hand: the suit's counts in base 5, one key for one holding): a hand's
# text is its suits' parts in order. Filled as holdings are met; a few thousand
# holdings cover most play, and the table starts again past ``_SUIT_TEXT_MAX``.
_SUIT_TEXT: tuple[dict[int, str], ...] = ({}, {}, {}, {})
_SUIT_TEXT_MAX = 50_000
_SUIT_RANGE = ((0, 9), (9, 18), (18, 27), (27, 34))


def _suit_text(g: int, key: int) -> str:
    texts = _SUIT_TEXT[g]
    text = texts.get(key)
    if text is None:
        lo, hi = _SUIT_RANGE[g]
        digits = []
        rest = key
        for k in range(hi - 1, lo - 1, -1):      # the last rank is the lowest digit
            rest, n = divmod(rest, 5)
            digits.append(n)
        kinds = [k for k, n in zip(range(lo, hi), reversed(digits)) for _ in range(n)]
        text = format_tiles(kinds, sort=False)
        if len(texts) >= _SUIT_TEXT_MAX:
            texts.clear()
        texts[key] = text
    return text


def _hand_text(key: list[int], drawn: int | None) -> str:
    """The concealed tiles' text from the seat's suit keys, the drawn tile left out
    (as ``observation`` writes it from the counts)."""
    if drawn is None:
        k0, k1, k2, k3 = key
    else:
        g, d = KEY_STEP[drawn]
        k0, k1, k2, k3 = key
        if g == 0:
            k0 -= d
        elif g == 1:
            k1 -= d
        elif g == 2:
            k2 -= d
        else:
            k3 -= d
    out = _suit_text(0, k0) if k0 else ""
    if k1:
        out += _suit_text(1, k1)
    if k2:
        out += _suit_text(2, k2)
    if k3:
        out += _suit_text(3, k3)
    return out


def observations(h: TableState) -> list[Observation]:
    """``observation(h, seat)`` of the four seats at once, each equal to it (and in
    its key order): what every seat sees (the rivers, flowers, exposed melds, the
    counts) is built once and the four dicts share it; only a seat's own hand, its
    drawn tile, its own 暗槓, its 過水 and its legal moves are built per seat. A
    table sends all four on each change (``Seating._send_updates``); the shared
    parts are read-only, like any observation sent."""
    sts = h.seats
    text = TILE_TEXT
    claimable = _claimable(h)
    last: SeatTile | None = None
    if claimable is not None:
        last = {"seat": claimable[0], "tile": tile_str(claimable[1])}
    # each seat's melds as the others see them (a 暗槓 face down), and as its owner
    # does: the same list unless it holds a 暗槓
    shown = [[_meld_view(m, -1, s) for m in sts[s].melds] for s in range(4)]
    own = [[_meld_view(m, s, s) for m in sts[s].melds]
           if any(m.type == "concealed_kong" for m in sts[s].melds) else shown[s]
           for s in range(4)]
    round_wind = WIND[h.round_wind]
    seat_winds = [WIND[w] for w in h.seat_winds]
    wall = h.drawable()
    flowers = [[text[f] for f in x.flowers] for x in sts]
    discards = [[text[k] for k in x.discards] for x in sts]
    drawn_out = [x.drawn_out[:] for x in sts]
    concealed = [sum(x.counts) for x in sts]
    declared = [x.declared is not None for x in sts]
    added: SeatTile | None = None
    if h.phase == "rob_kong" and h.claim_ctx is not None:
        added = {"seat": h.claim_ctx[0], "tile": tile_str(h.claim_ctx[1])}
    pend = h.pending()
    out: list[Observation] = []
    for seat in range(4):
        st = sts[seat]
        drawn = _own_drawn(h, seat)
        obs: Observation = {
            "seat": seat, "dealer": h.dealer, "dealer_streak": h.dealer_streak,
            "round_wind": round_wind, "seat_winds": seat_winds,
            "wall_remaining": wall, "phase": h.phase,
            "hand": _hand_text(st.key, drawn),
            "drawn": None if drawn is None else tile_str(drawn),
            "melds": [own[s] if s == seat else shown[s] for s in range(4)],
            "flowers": flowers, "discards": discards, "drawn_out": drawn_out,
            "concealed_count": concealed, "declared": declared, "last_discard": last,
        }
        if st.passed_win or st.passed_win_kinds:
            obs["passed_win"] = {"until": h.rules.passed_win, "tiles": None if st.passed_win
                                 else format_tiles(sorted(st.passed_win_kinds))}
        if added is not None:
            obs["added_kong"] = added
        if seat in pend:
            obs["legal"] = legal_json(pend[seat])
        out.append(obs)
    return out


# A meld as ``seat_kinds`` gives it: (type, kinds sorted, from seat, claimed kind);
# another seat's 暗槓 is ("concealed_kong", (), None, None), face down as in the text.
MeldKinds = tuple[str, tuple[int, ...], int | None, int | None]


def _meld_kinds(m: TableMeld, viewer: int, owner: int) -> MeldKinds:
    if _face_down(m, viewer, owner):
        return ("concealed_kong", (), None, None)
    claimed = m.claimed if m.from_seat is not None else None
    return (m.type, tuple(sorted(m.kinds)), m.from_seat, claimed)


def seat_kinds(h: TableState, seat: int) -> dict[str, Any]:
    """What ``observation`` tells ``seat``, as tile kinds (ints) instead of text:
    for an in-process reader (``bots.view.View``) that would only parse the text
    back — a third of a playout's time in a game review went to writing tiles out
    and reading them in again. It hides what ``observation`` hides (the wall,
    another seat's concealed tiles, drawn tile and 暗槓), and says nothing of the
    legal moves; ``tests/engine/test_observe_kinds.py`` holds it to ``observation``."""
    seats = h.seats
    return {
        "seat": seat, "counts": list(seats[seat].counts), "drawn": _own_drawn(h, seat),
        "melds": [[_meld_kinds(m, seat, s) for m in seats[s].melds] for s in range(4)],
        "discards": [list(st.discards) for st in seats],
        "flowers": [list(st.flowers) for st in seats],
        "drawn_out": [st.drawn_out[:] for st in seats],
        "concealed_count": [sum(st.counts) for st in seats],
        "declared": [st.declared is not None for st in seats],
        "wall_remaining": h.drawable(), "dealer": h.dealer, "dealer_streak": h.dealer_streak,
        "seat_winds": list(h.seat_winds), "round_wind": h.round_wind,
        "last_discard": _claimable(h),
    }


def event_view(ev: Event, seat: int) -> Event:
    """One event as ``seat`` may see it."""
    t = ev["type"]
    if t == "deal":
        out = dict(ev)
        out["hands"] = [h if i == seat else HIDDEN for i, h in enumerate(ev["hands"])]
        return out
    if t == "draw" and ev["seat"] != seat:
        out = dict(ev)
        out["tile"] = HIDDEN
        return out
    if t == "kong" and ev.get("kind") == "concealed" and ev["seat"] != seat:
        out = dict(ev)
        out["tile"] = HIDDEN
        return out
    return ev


class _LazyObservation(dict[str, Any]):
    """An observation whose ``legal`` is ready at once and whose other keys are
    built on first use — for in-process bots that often need only ``legal``.
    It behaves as the full dict for every read (get, in, keys, items, json).

    Given ``actions`` (the engine's own legal ``Action`` objects) instead of
    ``legal``, the JSON list is built only if read: a bot that knows the engine
    picks from ``observation.actions`` and answers with one of them, and a hand
    played that way never writes or parses an action's JSON."""

    __slots__ = ("_h", "_seat", "actions")

    def __init__(self, h: TableState, seat: int, legal: list[ActionJSON] | None = None, *,
                 actions: Sequence[Action] | None = None):
        # built for every decision of an in-process table: one key and the references.
        # Never empty (json's encoder writes an empty dict as {} without asking for
        # its items); keys in the order they always had: seat, legal, the rest, or
        # legal first when given.
        if legal is not None:
            dict.__setitem__(self, "legal", legal)
        dict.__setitem__(self, "seat", seat)
        self._h = h
        self._seat = seat
        self.actions = actions

    def kinds(self) -> dict[str, Any]:
        """``seat_kinds`` of the table this observation reads (see there)."""
        return seat_kinds(self._h, self._seat)

    def _legal(self) -> None:
        if not dict.__contains__(self, "legal"):
            dict.__setitem__(self, "legal", legal_json(self.actions or ()))

    def _fill(self) -> None:
        if not dict.__contains__(self, "dealer"):        # a full observation has a dealer
            self._legal()
            full = observation(self._h, self._seat)
            full["legal"] = dict.__getitem__(self, "legal")
            dict.update(self, full)

    def __missing__(self, key: str) -> Any:
        if key == "legal":
            self._legal()
        else:
            self._fill()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        if key == "legal":
            self._legal()
            return dict.__getitem__(self, key)
        self._fill()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def keys(self) -> dict_keys[str, Any]:
        self._fill()
        return dict.keys(self)

    def items(self) -> dict_items[str, Any]:
        self._fill()
        return dict.items(self)

    def values(self) -> dict_values[str, Any]:
        self._fill()
        return dict.values(self)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def copy(self) -> dict[str, Any]:
        self._fill()
        return dict(dict.items(self))

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)


if TYPE_CHECKING:
    # For the type checker a lazy observation is the ``Observation`` it reads as in
    # every way; at run time it is the class above (no wrapper on the bots' hot path).
    def LazyObservation(h: TableState, seat: int, legal: list[ActionJSON] | None = None, *,
                        actions: Sequence[Action] | None = None) -> Observation: ...
else:
    LazyObservation = _LazyObservation


def lazy_observation(h: TableState, seat: int) -> Observation:
    return LazyObservation(h, seat, legal_json(h.pending()[seat]))

"""The fixed action space and the observation arrays of ``twmahjong.env``.

A learner needs the same numbers to mean the same move in every state, so every
engine action maps to one index of a fixed ``Discrete(ACTION_COUNT)`` space:

| index   | name              | move                                                 |
|---------|-------------------|------------------------------------------------------|
| 0-33    | `discard`         | 打牌: put out tile kind `i` (0 = 1m … 33 = 7z)         |
| 34-67   | `declare_discard` | 聽 (地聽/報聽) together with discarding `i-34`         |
| 68      | `chi_low`         | 吃 with the claimed tile lowest (3m on 45m)           |
| 69      | `chi_mid`         | 吃 with the claimed tile in the middle (4m on 35m)    |
| 70      | `chi_high`        | 吃 with the claimed tile highest (5m on 34m)          |
| 71      | `pon`             | 碰 the tile on offer                                  |
| 72      | `kong`            | 碰槓: an exposed kong from the discard                |
| 73-106  | `concealed_kong`  | 暗槓 of kind `i-73`                                   |
| 107-140 | `added_kong`      | 加槓 of kind `i-107` onto an own pon                  |
| 141     | `win`             | 胡: 自摸, 放槍 or 搶槓 — whichever is on offer          |
| 142     | `flower_win`      | 花胡: 八仙過海 / 七搶一                                 |
| 143     | `declare`         | 天聽 before the first discard (no tile)               |
| 144     | `pass`            | 過                                                    |
| 145     | `draw`            | 摸海底: draw the last drawable tile when asked         |

The observation is one ``int8`` vector, always from the observer's chair: seat
block ``r`` describes the seat ``r`` places after the observer in turn order
(0 = the observer, 1 = 下家 who plays next, 2 = 對家, 3 = 上家). ``OBS_LAYOUT``
names each block's slice; ``decode`` turns a vector back into named arrays.

| block             | size | contents |
|-------------------|------|----------|
| `hand`            | 34   | own concealed tiles by kind, the drawn tile included |
| `drawn`           | 34   | one-hot: the tile just drawn (own turn only) |
| `melds`           | 4×34 | tiles in each seat's melds by kind; another seat's 暗槓 lies face down and is counted in `hidden_kongs` |
| `hidden_kongs`    | 4    | face-down 暗槓 each seat holds (0 for the observer, whose own 暗槓 are in `melds`) |
| `discards`        | 4×32 | each seat's river in order, kind + 1 (0 = empty); after 32 discards the latest 32 |
| `flowers`         | 4×8  | 花牌 each seat has exposed (春夏秋冬梅蘭菊竹) |
| `seat_wind`       | 4    | each seat's wind, 0-3 = 東南西北 |
| `round_wind`      | 1    | the 圈風, 0-3 |
| `dealer`          | 4    | one-hot: which seat deals (莊家) |
| `dealer_streak`   | 1    | N of 連N拉N (capped at 127) |
| `tiles_left`      | 1    | drawable tiles left before the dead wall |
| `declared`        | 4    | 1 where a seat has declared ready (聽) |
| `concealed_count` | 4    | tiles each seat holds concealed |
| `offer`           | 34   | one-hot: the tile on offer (a discard to claim, or the tile of a 加槓 that may be robbed) |
| `offer_from`      | 4    | one-hot: which seat put it up |
| `phase`           | 7    | one-hot: declare, turn, claim, rob_kong, rob_flower, last_tile, over |
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ..engine import actions as A
from ..engine.actions import Action
from ..tiles import parse_tile, parse_tiles, tile_str

if TYPE_CHECKING:
    from ..engine.table import HandState

__all__ = [
    "ACTION_COUNT",
    "ACTION_NAMES",
    "OBS_HIGH",
    "OBS_LAYOUT",
    "OBS_SIZE",
    "PHASES",
    "action_index",
    "action_name",
    "decode",
    "encode",
    "encode_json",
    "legal_indices",
    "mask_json",
]

DISCARD, DECLARE_DISCARD = 0, 34
CHI_LOW, CHI_MID, CHI_HIGH, PON, KONG = 68, 69, 70, 71, 72
CONCEALED_KONG, ADDED_KONG = 73, 107
WIN, FLOWER_WIN, DECLARE, PASS, DRAW = 141, 142, 143, 144, 145
ACTION_COUNT = 146

PHASES = ("declare", "turn", "claim", "rob_kong", "rob_flower", "last_tile", "over")
RIVER = 32                       # discards kept per seat in the observation


def _names() -> tuple[str, ...]:
    names = [f"discard {tile_str(k)}" for k in range(34)]
    names += [f"declare_discard {tile_str(k)}" for k in range(34)]
    names += ["chi_low", "chi_mid", "chi_high", "pon", "kong"]
    names += [f"concealed_kong {tile_str(k)}" for k in range(34)]
    names += [f"added_kong {tile_str(k)}" for k in range(34)]
    names += ["win", "flower_win", "declare", "pass", "draw"]
    return tuple(names)


ACTION_NAMES = _names()

_BLOCKS: tuple[tuple[str, int, int], ...] = (
    # name, size, highest value
    ("hand", 34, 4),
    ("drawn", 34, 1),
    ("melds", 4 * 34, 4),
    ("hidden_kongs", 4, 4),
    ("discards", 4 * RIVER, 34),
    ("flowers", 4 * 8, 1),
    ("seat_wind", 4, 3),
    ("round_wind", 1, 3),
    ("dealer", 4, 1),
    ("dealer_streak", 1, 127),
    ("tiles_left", 1, 127),
    ("declared", 4, 1),
    ("concealed_count", 4, 17),
    ("offer", 34, 1),
    ("offer_from", 4, 1),
    ("phase", len(PHASES), 1),
)


def _layout() -> tuple[dict[str, slice], int, npt.NDArray[np.int8]]:
    layout: dict[str, slice] = {}
    high: list[int] = []
    at = 0
    for name, size, top in _BLOCKS:
        layout[name] = slice(at, at + size)
        high += [top] * size
        at += size
    return layout, at, np.array(high, dtype=np.int8)


OBS_LAYOUT, OBS_SIZE, OBS_HIGH = _layout()
_O = {name: s.start for name, s in OBS_LAYOUT.items()}
_SHAPES = {"melds": (4, 34), "discards": (4, RIVER), "flowers": (4, 8)}
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}

_SIMPLE = {"pon": PON, "kong": KONG, "win": WIN, "flower_win": FLOWER_WIN, "pass": PASS,
           "draw": DRAW}
_BY_TILE = {"discard": DISCARD, "declare": DECLARE_DISCARD, "concealed_kong": CONCEALED_KONG,
            "added_kong": ADDED_KONG}
_INDEX_CACHE: dict[Action, int] = {}


def action_index(a: Action) -> int:
    """The fixed index of an engine action (see the table above).

        >>> from twmahjong.engine import actions as A
        >>> action_index(A.discard(4)), action_index(A.chi(2, 3, 4)), action_index(A.PASS)
        (4, 68, 144)
    """
    i = _INDEX_CACHE.get(a)
    if i is None:
        i = _INDEX_CACHE[a] = _compute_index(a)
    return i


def _compute_index(a: Action) -> int:
    t = a.type
    if t == "chi":
        assert a.tile is not None
        return {1: CHI_LOW, -1: CHI_MID, -2: CHI_HIGH}[a.tiles[0] - a.tile]
    if t in _BY_TILE and a.tile is not None:
        return _BY_TILE[t] + a.tile
    if t == "declare":
        return DECLARE
    return _SIMPLE[t]


def action_name(i: int) -> str:
    """A readable name for action index ``i``: ``action_name(4)`` is ``'discard 5m'``."""
    return ACTION_NAMES[i]


_BY_ID: dict[int, tuple[Action, int]] = {}


def legal_indices(legal: list[Action]) -> dict[int, Action]:
    """The offered engine actions by their index (one action per index).

    The engine offers interned actions, so the index is looked up by the object's
    identity (checked, so a recycled id can never give a wrong index) before
    falling back to hashing the action."""
    out: dict[int, Action] = {}
    get = _BY_ID.get
    for a in legal:
        hit = get(id(a))
        if hit is not None and hit[0] is a:
            out[hit[1]] = a
        else:
            i = action_index(a)
            if len(_BY_ID) > 4096:          # only if un-interned actions keep coming
                _BY_ID.clear()
            _BY_ID[id(a)] = (a, i)
            out[i] = a
    return out


def encode(h: HandState, seat: int) -> npt.NDArray[np.int8]:
    """The observation vector of ``seat`` (only what that seat may see; never the wall).

    Filled as a ``bytearray`` (every value is 0-127) and handed to numpy without a
    copy: per-item writes to a bytearray cost a fraction of numpy's."""
    buf = bytearray(OBS_SIZE)
    seats = h.seats
    me = seats[seat]
    o = _O["hand"]
    buf[o:o + 34] = bytes(me.counts)
    if h.phase == "turn" and h.turn_seat == seat and h.drawn is not None:
        buf[_O["drawn"] + h.drawn] = 1
    melds0, hidden0, river0 = _O["melds"], _O["hidden_kongs"], _O["discards"]
    flowers0, wind0, decl0, count0 = _O["flowers"], _O["seat_wind"], _O["declared"], \
        _O["concealed_count"]
    winds = h.seat_winds
    for r in range(4):
        s = (seat + r) % 4
        st = seats[s]
        if st.melds:
            base = melds0 + 34 * r
            for m in st.melds:
                if r and m.type == "concealed_kong":
                    buf[hidden0 + r] += 1
                else:
                    for k in m.kinds:
                        buf[base + k] += 1
        river = st.discards
        if river:
            if len(river) > RIVER:
                river = river[-RIVER:]
            o = river0 + RIVER * r
            buf[o:o + len(river)] = bytes(k + 1 for k in river)
        for f in st.flowers:
            buf[flowers0 + 8 * r + f - 34] = 1
        buf[wind0 + r] = winds[s]
        if st.declared is not None:
            buf[decl0 + r] = 1
        buf[count0 + r] = sum(st.counts)
    buf[_O["round_wind"]] = h.round_wind
    buf[_O["dealer"] + (h.dealer - seat) % 4] = 1
    buf[_O["dealer_streak"]] = min(h.dealer_streak, 127)
    buf[_O["tiles_left"]] = max(0, min(h.drawable(), 127))
    phase = h.phase
    if (phase == "claim" or phase == "rob_kong") and h.claim_ctx is not None:
        d, k = h.claim_ctx[0], h.claim_ctx[1]
        buf[_O["offer"] + k] = 1
        buf[_O["offer_from"] + (d - seat) % 4] = 1
    p = _PHASE_INDEX.get(phase)
    if p is not None:
        buf[_O["phase"] + p] = 1
    return np.frombuffer(buf, dtype=np.int8)


_WIND = {"E": 0, "S": 1, "W": 2, "N": 3}


def encode_json(obs: Mapping[str, Any]) -> npt.NDArray[np.int8]:
    """The same vector as ``encode``, built from a seat's JSON observation
    (docs/architecture.md) — what a bot, a pipe bot or a server client receives —
    so a policy trained on the environment can play wherever bots play."""
    out = np.zeros(OBS_SIZE, dtype=np.int8)
    seat = int(obs["seat"])
    drawn = obs.get("drawn")
    o = _O["hand"]
    for k in parse_tiles(obs["hand"]):
        out[o + k] += 1
    if drawn:
        k = parse_tile(drawn)
        out[o + k] += 1
        out[_O["drawn"] + k] = 1
    for r in range(4):
        s = (seat + r) % 4
        for m in obs["melds"][s]:
            if m["tiles"] is None:
                out[_O["hidden_kongs"] + r] += 1
            else:
                for k in parse_tiles(m["tiles"]):
                    out[_O["melds"] + 34 * r + k] += 1
        river = [parse_tile(x) for x in obs["discards"][s]][-RIVER:]
        if river:
            o = _O["discards"] + RIVER * r
            out[o:o + len(river)] = np.asarray(river) + 1
        for f in obs["flowers"][s]:
            out[_O["flowers"] + 8 * r + parse_tile(f) - 34] = 1
        out[_O["seat_wind"] + r] = _WIND[obs["seat_winds"][s]]
        out[_O["declared"] + r] = bool(obs["declared"][s])
        out[_O["concealed_count"] + r] = obs["concealed_count"][s]
    out[_O["round_wind"]] = _WIND[obs["round_wind"]]
    out[_O["dealer"] + (int(obs["dealer"]) - seat) % 4] = 1
    out[_O["dealer_streak"]] = min(int(obs["dealer_streak"]), 127)
    out[_O["tiles_left"]] = max(0, min(int(obs["wall_remaining"]), 127))
    offer = obs.get("added_kong") if obs.get("phase") == "rob_kong" else obs.get("last_discard")
    if offer:
        out[_O["offer"] + parse_tile(offer["tile"])] = 1
        out[_O["offer_from"] + (int(offer["seat"]) - seat) % 4] = 1
    p = _PHASE_INDEX.get(str(obs.get("phase")))
    if p is not None:
        out[_O["phase"] + p] = 1
    return out


def mask_json(legal: Iterable[Mapping[str, Any]]) -> dict[int, dict[str, Any]]:
    """A JSON ``legal`` list by action index (the mask is its keys)."""
    return {action_index(Action.from_json(dict(a))): dict(a) for a in legal}


def decode(obs: npt.NDArray[np.int8]) -> dict[str, npt.NDArray[np.int8]]:
    """Named arrays from an observation vector (seat blocks as rows: 4×34, 4×32, 4×8).

        >>> from twmahjong.engine import HandState
        >>> from twmahjong.profiles import load_profile
        >>> h = HandState(load_profile("standard"), dealer=0, seed=3)
        >>> int(decode(encode(h, 0))["hand"].sum()) in (16, 17)
        True
    """
    return {name: obs[s].reshape(_SHAPES.get(name, (s.stop - s.start,)))
            for name, s in OBS_LAYOUT.items()}


def _check_table() -> None:
    """Every interned engine action with a tile maps inside its block (import-time guard)."""
    for k in range(34):
        assert action_index(A.discard(k)) == k
        assert action_index(A.concealed_kong(k)) == CONCEALED_KONG + k
        assert action_index(A.added_kong(k)) == ADDED_KONG + k
        assert action_index(A.declare(k)) == DECLARE_DISCARD + k
    assert len(ACTION_NAMES) == ACTION_COUNT


_check_table()

"""Actions a seat may take (行牌動作) and the error for one it may not.

An action is a small frozen value; the engine offers each seat a list of them and
accepts only one of those. Actions over the same tiles are interned, so the legal
lists of a hand reuse the same objects instead of building new ones every turn.

    >>> Action.from_json({"type": "chi", "tile": "3m", "tiles": "45m"})
    Action(type='chi', tile=2, tiles=(3, 4))
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import UserError
from ..tiles import NotationError, format_tiles, parse_tile, parse_tiles, tile_str

__all__ = [
    "ACTION_TYPES",
    "DECLARE",
    "DRAW",
    "FLOWER_WIN",
    "PASS",
    "WIN",
    "Action",
    "IllegalAction",
    "added_kong",
    "chi",
    "concealed_kong",
    "declare",
    "discard",
    "kong",
    "legal_json",
    "pon",
    "win",
]

ACTION_TYPES = ("discard", "chi", "pon", "kong", "added_kong", "concealed_kong", "win", "pass",
                "declare", "flower_win", "draw")

_ZH_TYPE = {"discard": "打牌", "chi": "吃", "pon": "碰", "kong": "碰槓", "added_kong": "加槓",
            "concealed_kong": "暗槓", "win": "胡", "pass": "過", "declare": "聽",
            "flower_win": "花胡", "draw": "摸海底"}


class IllegalAction(UserError):
    """A move the rules do not allow at this moment; the table is left exactly as it was."""


@dataclass(frozen=True, slots=True)
class Action:
    """One move: ``type`` plus the tile kind it names and, for 吃, the two tiles from hand.

    ``declare`` with a tile is 地聽/報聽 together with that discard; without one it
    is 天聽 before the first discard. ``draw`` takes the last drawable tile (海底)
    when the table asks; ``pass`` there declines it (海底牌得棄摸).
    """
    type: str
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    _json: dict | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        j = {"type": self.type}
        if self.tile is not None:
            j["tile"] = tile_str(self.tile)
        if self.tiles:
            j["tiles"] = format_tiles(self.tiles)
        object.__setattr__(self, "_json", j)

    def to_json(self) -> dict:
        return self._json.copy()

    @classmethod
    def from_json(cls, obj: object) -> Action:
        """Read an action as a client sends it; bad shapes raise IllegalAction."""
        if not isinstance(obj, dict):
            raise IllegalAction("an action must be a JSON object like {\"type\": \"discard\", \"tile\": \"5m\"}")
        t = obj.get("type")
        if t not in ACTION_TYPES:
            raise IllegalAction(f"unknown action type {t!r}; expected one of {', '.join(ACTION_TYPES)}")
        key = (t, obj.get("tile"), obj.get("tiles"))
        try:
            cached = _FROM_CACHE.get(key)
        except TypeError:
            raise IllegalAction("tile and tiles must be text such as \"5m\" and \"46m\"") from None
        if cached is not None:
            return cached
        try:
            tile = parse_tile(key[1]) if key[1] is not None else None
            tiles = tuple(sorted(parse_tiles(key[2]))) if key[2] is not None else ()
        except NotationError as e:
            raise IllegalAction(f"cannot read the tiles of this {t}: {e}") from None
        a = _interned(t, tile, tiles)
        _FROM_CACHE[key] = a
        return a

    def describe(self) -> str:
        """Short zh-TW label for messages: 碰 5m."""
        text = _ZH_TYPE[self.type]
        if self.tile is not None:
            text += " " + tile_str(self.tile)
        if self.tiles:
            text += " (" + format_tiles(self.tiles) + ")"
        return text


_FROM_CACHE: dict[tuple, Action] = {}

PASS = Action("pass")
WIN = Action("win")
FLOWER_WIN = Action("flower_win")
DECLARE = Action("declare")
DRAW = Action("draw")
_DISCARD = tuple(Action("discard", k) for k in range(34))
_PON = tuple(Action("pon", k) for k in range(34))
_KONG = tuple(Action("kong", k) for k in range(34))
_CKONG = tuple(Action("concealed_kong", k) for k in range(34))
_AKONG = tuple(Action("added_kong", k) for k in range(34))
_DECL = tuple(Action("declare", k) for k in range(34))
_WIN_ON = tuple(Action("win", k) for k in range(34))
_CHI: dict[tuple[int, int, int], Action] = {}


def legal_json(actions) -> list[dict]:
    """The JSON of a legal list, fresh dicts a bot may keep or change (the hot path of
    every observation: built from each interned action's prepared JSON)."""
    return [a._json.copy() for a in actions]


def discard(k: int) -> Action:
    return _DISCARD[k]


def pon(k: int) -> Action:
    return _PON[k]


def kong(k: int) -> Action:
    return _KONG[k]


def concealed_kong(k: int) -> Action:
    return _CKONG[k]


def added_kong(k: int) -> Action:
    return _AKONG[k]


def declare(k: int | None) -> Action:
    return DECLARE if k is None else _DECL[k]


def win(k: int | None) -> Action:
    """胡 naming the winning tile; the tile is what the player sees in the offer."""
    return WIN if k is None else _WIN_ON[k]


def chi(k: int, a: int, b: int) -> Action:
    key = (k, a, b)
    act = _CHI.get(key)
    if act is None:
        act = _CHI[key] = Action("chi", k, (a, b))
    return act


def _interned(t: str, tile: int | None, tiles: tuple[int, ...]) -> Action:
    """The shared object for an action, so the legal lists can be searched by identity."""
    if tile is not None and 0 <= tile < 34 and not tiles:
        table = {"discard": _DISCARD, "pon": _PON, "kong": _KONG, "concealed_kong": _CKONG,
                 "added_kong": _AKONG, "declare": _DECL, "win": _WIN_ON}.get(t)
        if table is not None:
            return table[tile]
    if tile is None and not tiles:
        shared = {"pass": PASS, "win": WIN, "flower_win": FLOWER_WIN, "declare": DECLARE,
                  "draw": DRAW}.get(t)
        if shared is not None:
            return shared
    if t == "chi" and tile is not None and len(tiles) == 2:
        return chi(tile, tiles[0], tiles[1])
    return Action(t, tile, tiles)

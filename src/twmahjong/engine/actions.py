"""Actions a seat may take (行牌動作) and the error for one it may not.

An action is a small frozen value; the engine offers each seat a list of them and
accepts only one of those. Actions over the same tiles are interned, so the legal
lists of a hand reuse the same objects instead of building new ones every turn.

    >>> Action.from_json({"type": "chi", "tile": "3m", "tiles": "45m"})
    Action(type='chi', tile=2, tiles=(3, 4))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

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
    "ActionJSON",
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


class ActionJSON(TypedDict):
    """An action as JSON (formats.md): ``{"type": "chi", "tile": "3m", "tiles": "45m"}``."""
    type: str
    tile: NotRequired[str]
    tiles: NotRequired[str]


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
    _json: ActionJSON = field(init=False, compare=False, hash=False, repr=False)
    _shared: bool = field(default=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        j: ActionJSON = {"type": self.type}
        if self.tile is not None:
            j["tile"] = tile_str(self.tile)
        if self.tiles:
            j["tiles"] = format_tiles(self.tiles)
        object.__setattr__(self, "_json", j)

    def to_json(self) -> ActionJSON:
        return self._json.copy()

    @classmethod
    def from_json(cls, obj: object) -> Action:
        """Read an action as a client sends it; any other shape raises IllegalAction.

        The shape is exactly ``{"type": ..., "tile": "5m", "tiles": "46m"}`` with
        ``tile``/``tiles`` optional text: a message from a player is read strictly so
        that nothing it holds can reach the table as anything but a refused move."""
        if not isinstance(obj, dict):
            raise IllegalAction("an action must be a JSON object like {\"type\": \"discard\", \"tile\": \"5m\"}")
        extra = [k for k in obj if k not in _KEYS]
        if extra:
            raise IllegalAction(f"an action has only type, tile and tiles; not {str(extra[0])[:20]!r}")
        t = obj.get("type")
        if not isinstance(t, str) or t not in ACTION_TYPES:
            shown = t[:20] if isinstance(t, str) else type(t).__name__
            raise IllegalAction(f"unknown action type {shown!r}; expected one of {', '.join(ACTION_TYPES)}")
        raw_tile, raw_tiles = obj.get("tile"), obj.get("tiles")
        if not (raw_tile is None or isinstance(raw_tile, str)) or \
                not (raw_tiles is None or isinstance(raw_tiles, str)):
            raise IllegalAction("tile and tiles must be text such as \"5m\" and \"46m\"")
        key = (t, raw_tile, raw_tiles)
        cached = _FROM_CACHE.get(key)
        if cached is not None:
            return cached
        if (raw_tile is not None and len(raw_tile) > 8) or (raw_tiles is not None and len(raw_tiles) > 16):
            raise IllegalAction(f"the tiles of this {t} are too long to be tiles")
        try:
            tile = parse_tile(raw_tile) if raw_tile is not None else None
            tiles = tuple(sorted(parse_tiles(raw_tiles))) if raw_tiles is not None else ()
        except NotationError as e:
            raise IllegalAction(f"cannot read the tiles of this {t}: {e}") from None
        a = _interned(t, tile, tiles)
        # Only the canonical spelling of a shared action is remembered: there are a few
        # hundred of those, so no stream of odd or illegal actions can grow the cache.
        if a._shared and a._json == _canonical(key) and len(_FROM_CACHE) < _CACHE_MAX:
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


_KEYS = ("type", "tile", "tiles")
# Bound on the cache of read actions. The canonical spellings of the shared actions
# number well under this (7 kinds x 34 tiles, 5 bare actions, 63 吃), so the
# bound only guards against a future interning bug.
_CACHE_MAX = 1024
_FROM_CACHE: dict[tuple[str, str | None, str | None], Action] = {}


def _canonical(key: tuple[str, str | None, str | None]) -> ActionJSON:
    t, tile, tiles = key
    j: ActionJSON = {"type": t}
    if tile is not None:
        j["tile"] = tile
    if tiles is not None:
        j["tiles"] = tiles
    return j


def _share(a: Action) -> Action:
    object.__setattr__(a, "_shared", True)
    return a

PASS = _share(Action("pass"))
WIN = _share(Action("win"))
FLOWER_WIN = _share(Action("flower_win"))
DECLARE = _share(Action("declare"))
DRAW = _share(Action("draw"))
_DISCARD = tuple(_share(Action("discard", k)) for k in range(34))
_PON = tuple(_share(Action("pon", k)) for k in range(34))
_KONG = tuple(_share(Action("kong", k)) for k in range(34))
_CKONG = tuple(_share(Action("concealed_kong", k)) for k in range(34))
_AKONG = tuple(_share(Action("added_kong", k)) for k in range(34))
_DECL = tuple(_share(Action("declare", k)) for k in range(34))
_WIN_ON = tuple(_share(Action("win", k)) for k in range(34))
_CHI: dict[tuple[int, int, int], Action] = {}


def legal_json(actions: Iterable[Action]) -> list[ActionJSON]:
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
    """吃 ``k`` with ``a`` and ``b`` from hand; a real run is interned (there are 63 of
    them), anything else is a fresh value that no legal list holds."""
    key = (k, a, b)
    act = _CHI.get(key)
    if act is None:
        if not _is_run(k, a, b):
            return Action("chi", k, (a, b))
        act = _CHI[key] = _share(Action("chi", k, (a, b)))
    return act


def _is_run(k: int, a: int, b: int) -> bool:
    run = sorted((k, a, b))
    return (0 <= run[0] and run[2] < 27 and run[0] // 9 == run[2] // 9
            and run[1] == run[0] + 1 and run[2] == run[1] + 1 and a < b)


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

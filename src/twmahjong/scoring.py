"""The 台 scorer (計台): read a winning hand every way it can be read, value each
reading with the profile's patterns, and report the best.

A hand can often be split more than one way (111222333m is three pungs or three
chows), and the winning tile can sit in more than one set; the placement decides
whether a pung is concealed (a pung completed by a discard is exposed) and the
wait shape. So every split × every placement is scored and the highest wins —
ties go to the profile's ``scoring.prefer`` list (rules/003: 邊張 before 中洞).

    >>> from twmahjong.profiles import load_profile
    >>> spec = HandSpec.from_json({"concealed": "123m456p789s22z55s", "win_tile": "2z",
    ...     "melds": [{"type": "pon", "tiles": "777p"}], "round_wind": "S"})
    >>> score(spec, load_profile("standard")).tai
    1
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UserError
from .hand import is_lilgu, placement_shape, splits, waits
from .patterns import CATALOGUE, CONDITIONS, PATTERN_IDS, REQUIREMENTS, Reading, SetInfo
from .profiles import Profile, ProfileError
from .tiles import (NotationError, check_limits, counts34, format_tiles, is_flower, parse_tiles,
                    wind_index)

__all__ = ["Meld", "HandSpec", "PatternScore", "ScoreResult", "ScoreInputError", "score"]

MELD_TYPES = ("chi", "pon", "kong", "added_kong", "concealed_kong")
_KONGS = ("kong", "added_kong", "concealed_kong")
_KEYS = {"profile", "concealed", "melds", "flowers", "win_tile", "self_drawn", "seat_wind",
         "round_wind", "dealer", "dealer_streak", "conditions"}


class ScoreInputError(UserError):
    """A hand to score that cannot exist or cannot be read; the message says what to fix."""


@dataclass(frozen=True)
class Meld:
    """A set on the table: 吃 chi, 碰 pon, 碰槓 kong, 加槓 added_kong, 暗槓 concealed_kong."""
    type: str
    tiles: tuple[int, ...]


def _expect(obj: dict, key: str, types: tuple[type, ...], what: str, default=None):
    value = obj.get(key, default)
    # bool is an int in Python; a JSON true where a number belongs is still a mistake
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise ScoreInputError(f"{key} must be {what}, not {_json_type(value)}")
    return value


def _json_type(value) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


def _tiles(text: str, where: str) -> list[int]:
    try:
        return parse_tiles(text)
    except NotationError as e:
        raise ScoreInputError(f"{where}: {e}") from None


def _meld(obj, i: int) -> Meld:
    where = f"melds[{i}]"
    if not isinstance(obj, dict):
        raise ScoreInputError(f'{where} must be an object like {{"type": "pon", "tiles": "777p"}}')
    extra = set(obj) - {"type", "tiles", "from"}
    if extra:
        raise ScoreInputError(f"{where}: unknown key {sorted(extra)[0]!r} (known: type, tiles)")
    kind = obj.get("type")
    if kind not in MELD_TYPES:
        raise ScoreInputError(f"{where}.type must be one of {', '.join(MELD_TYPES)}, not {kind!r}")
    if not isinstance(obj.get("tiles"), str):
        got = _json_type(obj.get("tiles"))
        raise ScoreInputError(f'{where}.tiles must be text like "777p", not {got}')
    tiles = sorted(_tiles(obj["tiles"], f"{where}.tiles"))
    shown = format_tiles(tiles)
    if any(is_flower(t) for t in tiles):
        raise ScoreInputError(f"{where}: a flower cannot be part of a meld ({shown})")
    if kind == "chi":
        run = len(tiles) == 3 and tiles[0] < 27 and tiles[0] // 9 == tiles[2] // 9 \
            and tiles[1] == tiles[0] + 1 and tiles[2] == tiles[0] + 2
        if not run:
            raise ScoreInputError(f"{where}: chi {shown} is not a run of three in one suit")
    elif kind == "pon":
        if len(tiles) != 3 or len(set(tiles)) != 1:
            raise ScoreInputError(f"{where}: pon {shown} is not three of a kind")
    elif len(tiles) != 4 or len(set(tiles)) != 1:
        raise ScoreInputError(f"{where}: {kind} {shown} is not four of a kind")
    return Meld(kind, tuple(tiles))


@dataclass(frozen=True)
class HandSpec:
    """A finished hand as formats.md writes it; ``win_tile`` None only for a 花和
    that is not also a complete hand."""
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    win_tile: int | None
    self_drawn: bool
    seat_wind: int
    round_wind: int
    dealer: bool
    dealer_streak: int
    conditions: frozenset[str]

    @classmethod
    def from_json(cls, obj: dict) -> "HandSpec":
        """Validate formats.md's JSON hand; every problem is one ScoreInputError line."""
        if not isinstance(obj, dict):
            raise ScoreInputError(f"the hand must be a JSON object, not {_json_type(obj)}")
        extra = set(obj) - _KEYS
        if extra:
            raise ScoreInputError(f"unknown key {sorted(extra)[0]!r}; "
                                  f"known keys: {', '.join(sorted(_KEYS))}")
        if "concealed" not in obj:
            raise ScoreInputError('concealed is missing: the tiles in hand, e.g. "123m456p789s22z55s"')
        concealed = _tiles(_expect(obj, "concealed", (str,), "text"), "concealed")
        raw_melds = _expect(obj, "melds", (list,), "a list", [])
        melds = tuple(_meld(m, i) for i, m in enumerate(raw_melds))
        flowers = _tiles(_expect(obj, "flowers", (str,), "text", ""), "flowers")
        bad = [t for t in flowers if not is_flower(t)]
        if bad:
            raise ScoreInputError(f"flowers: {format_tiles(bad)} is not a flower (1f-8f)")
        if "win_tile" not in obj:
            raise ScoreInputError('win_tile is missing: the tile that won, e.g. "2z" '
                                  "(null only for a flower win without a complete hand)")
        win_raw = _expect(obj, "win_tile", (str, type(None)), "one tile like \"2z\" or null")
        win = None
        if win_raw is not None:
            wt = _tiles(win_raw, "win_tile")
            if len(wt) != 1:
                raise ScoreInputError(
                    f"win_tile must be exactly one tile, got {len(wt)} in {win_raw!r}")
            win = wt[0]
        for where, tiles in (("concealed", concealed), ("win_tile", [] if win is None else [win])):
            fl = [t for t in tiles if is_flower(t)]
            if fl:
                raise ScoreInputError(
                    f'{where}: flower {format_tiles(fl)} belongs in "flowers", not in the hand')
        conds = _expect(obj, "conditions", (list,), "a list", [])
        for c in conds:
            if not isinstance(c, str):
                raise ScoreInputError(f"conditions must be names (text), not {_json_type(c)}")
            if c not in CONDITIONS:
                raise ScoreInputError(
                    f"unknown condition {c!r}; known: {', '.join(sorted(CONDITIONS))}")
        winds = []
        for key in ("seat_wind", "round_wind"):
            letter = _expect(obj, key, (str,), "E, S, W or N", "E")
            try:
                winds.append(wind_index(letter))
            except NotationError as e:
                raise ScoreInputError(f"{key}: {e}") from None
        streak = _expect(obj, "dealer_streak", (int,), "a whole number", 0)
        if streak < 0:
            raise ScoreInputError(f"dealer_streak must be 0 or more, not {streak}")
        drawn = _expect(obj, "self_drawn", (bool,), "true or false", False)
        dealer = _expect(obj, "dealer", (bool,), "true or false", False)
        spec = cls(tuple(concealed), melds, tuple(flowers), win, drawn, winds[0], winds[1],
                   dealer, streak, frozenset(conds))
        spec._check_sizes()
        for c in ("eight_immortals", "seven_rob_one"):
            if c in spec.conditions and len(spec.flowers) != 8:
                raise ScoreInputError(f"condition {c} needs all eight flowers in \"flowers\", "
                                      f"got {len(spec.flowers)}")
        return spec

    def _check_sizes(self) -> None:
        counted = len(self.concealed) + (self.win_tile is not None) + 3 * len(self.melds)
        if counted != 17:
            parts = f"{len(self.concealed)} concealed"
            if self.win_tile is not None:
                parts += " + 1 winning tile"
            if self.melds:
                parts += f" + 3 × {len(self.melds)} melds"
            raise ScoreInputError(
                f"the hand counts {counted} tiles ({parts}); a winning hand has 17")
        every = list(self.concealed) + [t for m in self.melds for t in m.tiles] + list(self.flowers)
        if self.win_tile is not None:
            every.append(self.win_tile)
        try:
            check_limits(every, "the hand")
        except NotationError as e:
            raise ScoreInputError(str(e)) from None


@dataclass(frozen=True)
class PatternScore:
    id: str
    zh: str
    en: str
    tai: int


@dataclass(frozen=True)
class ScoreResult:
    winning: bool
    tai: int
    patterns: tuple[PatternScore, ...]
    split: tuple[str, ...]
    reason: str | None = None

    def to_json(self) -> dict:
        """formats.md's answer: patterns as {id, zh, en, tai}; ``reason`` only when not winning."""
        out = {"winning": self.winning, "tai": self.tai,
               "patterns": [{"id": p.id, "zh": p.zh, "en": p.en, "tai": p.tai}
                            for p in self.patterns],
               "split": list(self.split)}
        if not self.winning:
            out["reason"] = self.reason or ""
        return out


# --- readings ---------------------------------------------------------------------------

def _set_text(s: SetInfo) -> str:
    if s.kind == "chow":
        return format_tiles([s.tile, s.tile + 1, s.tile + 2])
    return format_tiles([s.tile] * (4 if s.kong else 3))


def _meld_sets(spec: HandSpec) -> list[SetInfo]:
    out = []
    for m in spec.melds:
        if m.type == "chi":
            out.append(SetInfo("chow", m.tiles[0], concealed=False, meld=True))
        else:
            out.append(SetInfo("pung", m.tiles[0], concealed=m.type == "concealed_kong",
                               kong=m.type in _KONGS, meld=True))
    return out


def _readings(spec: HandSpec, profile: Profile, base: dict) -> list[tuple[Reading, list[str]]]:
    """Every split of the 17 concealed tiles × every set the winning tile can sit in."""
    hand = list(spec.concealed) + ([spec.win_tile] if spec.win_tile is not None else [])
    counts = counts34(hand)
    melds = _meld_sets(spec)
    meld_text = [_set_text(s) for s in melds]
    win, drawn = spec.win_tile, base["self_drawn"]
    out = []
    for sp in splits(counts):
        sp_sets = sorted(sp.sets, key=lambda st: (st[1], st[0]))   # by tile, as laid out
        places: set[tuple[str, int] | None] = set()
        if win is None:
            places.add(None)
        else:
            if sp.pair == win:
                places.add(("pair", win))
            places.update(st for st in sp.sets if st[0] == "pung" and st[1] == win
                          or st[0] == "chow" and st[1] <= win <= st[1] + 2 and st[1] < 27)
        for place in sorted(places, key=lambda p: (p is None, p)):
            # a pung the winning discard completes is exposed (明刻); self-drawn it stays 暗
            exposed = None if drawn or place is None or place[0] != "pung" else place
            sets = tuple(SetInfo(k, t, concealed=(k, t) != exposed) for k, t in sp_sets)
            sets += tuple(melds)
            shape = None
            if place is not None:
                kind, low = place
                shape = "single" if kind == "pair" else placement_shape(kind, low, win)
            text = [_set_text(s) for s in sets[:len(sp.sets)]] + meld_text
            text.append(format_tiles([sp.pair] * 2))
            reading = Reading(sets=sets, pair=sp.pair, pairs=(), shape=shape, complete=True, **base)
            out.append((reading, text))
    if profile.scoring.lilgu and not spec.melds and is_lilgu(counts):
        pung = next(k for k in range(34) if counts[k] >= 3
                    and all((n - 3 * (j == k)) % 2 == 0 for j, n in enumerate(counts)))
        pairs = tuple(k for k in range(34) for _ in range((counts[k] - 3 * (k == pung)) // 2))
        concealed_pung = drawn or win != pung
        sets = (SetInfo("pung", pung, concealed=concealed_pung),)
        text = [_set_text(sets[0])] + [format_tiles([p] * 2) for p in pairs]
        reading = Reading(sets=sets, pair=None, pairs=pairs, shape=None, complete=True, **base)
        out.append((reading, text))
    return out


def _facts(spec: HandSpec, profile: Profile) -> dict:
    """What every reading of this hand shares."""
    kinds = list(spec.concealed) + [t for m in spec.melds for t in m.tiles]
    if spec.win_tile is not None:
        kinds.append(spec.win_tile)
    single = False
    if spec.win_tile is not None:
        held = counts34(list(spec.concealed) + [t for m in spec.melds for t in m.tiles])
        single = len(waits(counts34(spec.concealed), held, lilgu=profile.scoring.lilgu)) == 1
    exposed = [m for m in spec.melds if m.type != "concealed_kong"]
    return dict(
        kinds=tuple(kinds), flowers=frozenset(spec.flowers),
        # 槓上開花 and 海底撈月 are self-drawn by nature (scoring.md fine points)
        self_drawn=spec.self_drawn or bool({"kong_bloom", "last_tile"} & spec.conditions),
        seat_wind=spec.seat_wind, round_wind=spec.round_wind, dealer=spec.dealer,
        dealer_streak=spec.dealer_streak, conditions=spec.conditions,
        one_tile_left=len(spec.concealed) == 1,
        exposed_only=bool(spec.melds) and len(exposed) == len(spec.melds),
        no_exposed=not exposed, single_wait=single,
        flower_set_mode=profile.scoring.flower_set_mode,
        ping_hu_requires=profile.scoring.ping_hu_requires,
    )


# --- valuation --------------------------------------------------------------------------

_checked: dict[int, Profile] = {}


def check_profile(profile: Profile) -> None:
    """Names in a profile that the catalogue does not know are a ProfileError, once per profile."""
    if _checked.get(id(profile)) is profile:
        return
    sc = profile.scoring
    named = [("patterns", p) for p in profile.patterns]
    named += [(f"scoring.drops.{k}", k) for k in sc.drops]
    named += [(f"scoring.drops.{k}", v) for k, vs in sc.drops.items() for v in vs]
    lists = ("all_honors_minus_with", "incomplete_wins", "incomplete_win_keeps", "prefer")
    named += [(f"scoring.{f}", v) for f in lists for v in getattr(sc, f)]
    for where, pid in named:
        if pid not in PATTERN_IDS:
            raise ProfileError(f"profile {profile.id}: {where}: unknown pattern {pid!r}")
    for name in sc.ping_hu_requires:
        if name not in REQUIREMENTS:
            raise ProfileError(f"profile {profile.id}: scoring.ping_hu_requires: unknown "
                               f"requirement {name!r}; known: {', '.join(REQUIREMENTS)}")
    _checked[id(profile)] = profile


def _value(r: Reading, profile: Profile, only: frozenset[str] | None = None) -> list[PatternScore]:
    """The patterns of one reading after the profile's exclusions (台數計算準則)."""
    held = {}
    for p in CATALOGUE:
        if p.id in profile.patterns and (only is None or p.id in only):
            n = p.count(r)
            if n:
                held[p.id] = n
    dropped = {d for pid in held for d in profile.scoring.drops.get(pid, ())}
    kept = [pid for pid in held if pid not in dropped]
    minus = 0
    if "all_honors" in kept and any(pid in kept for pid in profile.scoring.all_honors_minus_with):
        minus = profile.scoring.all_honors_minus        # 字一色: 累計後減除4台
    out = []
    for pid in kept:
        d = profile.patterns[pid]
        tai = d.tai * held[pid] - (minus if pid == "all_honors" else 0)
        out.append(PatternScore(pid, d.zh, d.en, tai))
    return out


def _rank(pats: list[PatternScore], profile: Profile) -> tuple:
    ids = {p.id for p in pats}
    pref = tuple(-1 if pid in ids else 0 for pid in profile.scoring.prefer)
    return (-sum(p.tai for p in pats),) + pref


def score(spec: HandSpec, profile: Profile) -> ScoreResult:
    """Score a finished hand under a profile: the highest-valued reading, or why it does not win."""
    check_profile(profile)
    base = _facts(spec, profile)
    best: tuple | None = None
    for reading, text in _readings(spec, profile, base):
        pats = _value(reading, profile)
        key = _rank(pats, profile)
        if best is None or key < best[0]:
            best = (key, pats, text)
    if best is not None:
        pats = best[1]
        return ScoreResult(True, sum(p.tai for p in pats), tuple(pats), tuple(best[2]))
    # Not five sets and a pair: a 花和 or 四槓 still wins, counting only itself and the dealer's 台.
    sc = profile.scoring
    bare = Reading(sets=tuple(_meld_sets(spec)), pair=None, pairs=(), shape=None,
                   complete=False, **base)
    special = frozenset(sc.incomplete_wins)
    if _value(bare, profile, special):
        pats = _value(bare, profile, special | frozenset(sc.incomplete_win_keeps))
        hand = list(spec.concealed) + ([spec.win_tile] if spec.win_tile is not None else [])
        text = tuple(_set_text(s) for s in bare.sets) + ((format_tiles(hand),) if hand else ())
        return ScoreResult(True, sum(p.tai for p in pats), tuple(pats), text)
    return ScoreResult(False, 0, (), (),
                       "not a winning hand (未成胡): the 17 tiles are not five sets and a pair")

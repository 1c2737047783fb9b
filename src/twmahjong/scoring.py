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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NotRequired, TypedDict, TypeVar

from .errors import UserError
from .hand import KEY_STEP, Keys, Set, is_lilgu, placement_shape, splits_key, waits, waits_key
from .patterns import (CATALOGUE, CONDITIONS, GATED, GROUPS, PATTERN_IDS, PER_READING,
                       REQUIREMENTS, Facts)
from .profiles import PatternDef, Profile, ProfileError
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


_V = TypeVar("_V")


def _expect(obj: dict[str, object], key: str, types: tuple[type[_V], ...], what: str,
            default: _V | None = None) -> _V:
    value = obj.get(key, default)
    # bool is an int in Python; a JSON true where a number belongs is still a mistake
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise ScoreInputError(f"{key} must be {what}, not {_json_type(value)}")
    return value


def _json_type(value: object) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object", type(None): "null"}.get(type(value), type(value).__name__)


def _tiles(text: str, where: str) -> list[int]:
    try:
        return parse_tiles(text)
    except NotationError as e:
        raise ScoreInputError(f"{where}: {e}") from None


def _meld(obj: object, i: int) -> Meld:
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
    def from_json(cls, obj: object) -> "HandSpec":
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


class PatternJSON(TypedDict):
    """One line of the answer (formats.md)."""
    id: str
    zh: str
    en: str
    tai: int


class ScoreJSON(TypedDict):
    """formats.md's answer; ``reason`` only when not winning."""
    winning: bool
    tai: int
    patterns: list[PatternJSON]
    split: list[str]
    reason: NotRequired[str]


@dataclass(frozen=True)
class ScoreResult:
    winning: bool
    tai: int
    patterns: tuple[PatternScore, ...]
    split: tuple[str, ...]
    reason: str | None = None

    def to_json(self) -> ScoreJSON:
        """formats.md's answer: patterns as {id, zh, en, tai}; ``reason`` only when not winning."""
        out: ScoreJSON = {"winning": self.winning, "tai": self.tai,
                          "patterns": [{"id": p.id, "zh": p.zh, "en": p.en, "tai": p.tai}
                                       for p in self.patterns],
                          "split": list(self.split)}
        if not self.winning:
            out["reason"] = self.reason or ""
        return out


# --- split text: every set's notation once, at import ------------------------------------

_PUNG_TEXT = tuple(format_tiles([k] * 3) for k in range(34))
_KONG_TEXT = tuple(format_tiles([k] * 4) for k in range(34))
_PAIR_TEXT = tuple(format_tiles([k] * 2) for k in range(34))
_CHOW_TEXT = tuple(format_tiles([k, k + 1, k + 2]) if k < 27 and k % 9 < 7 else "" for k in range(34))
_SET_TEXT = {"pung": _PUNG_TEXT, "chow": _CHOW_TEXT}


def _meld_text(m: Meld) -> str:
    return _CHOW_TEXT[m.tiles[0]] if m.type == "chi" else \
        (_KONG_TEXT if m.type in _KONGS else _PUNG_TEXT)[m.tiles[0]]


# --- a profile's patterns, compiled once ----------------------------------------------------

PATTERN_INDEX = {p.id: i for i, p in enumerate(CATALOGUE)}
_MEMO_CAP = 1 << 12      # answers remembered per memo and profile before starting afresh
_PROFILES_CAP = 64       # compiled profiles kept (a record replayed may bring its own)

Held = tuple[tuple[int, int], ...]    # (catalogue index, times it holds) of the patterns held
# A group of patterns asked together: (gate fact or None, the facts it reads — one value
# or a tuple of them, the memo's key —, (index, condition) of its patterns, the memo)
_Group = tuple[str | None, Callable[[Facts], object],
               tuple[tuple[int, Callable[[Facts], int]], ...], dict[object, Held]]
# The best reading so far: (rank, 台, held, kept bits, pair, sets) for an ordinary split,
# (rank, 台, held, kept bits, None, split text) for 嚦咕嚦咕
_Best = (tuple[int, int, Held, int, int, tuple[Set, ...]]
         | tuple[int, int, Held, int, None, tuple[str, ...]])


class _Rules:
    """One profile's patterns as tables indexed by catalogue position (bit i = pattern i).

    Valuing a reading is then integer work: the held patterns' drop masks OR'd
    together, the survivors' 台 summed; names and PatternScore lines are made only
    for the reading that wins. Built once per profile object, like ``check_profile``."""

    __slots__ = ("family", "reading", "tai", "drops", "minus", "minus_with", "honors_bit",
                 "honors", "prefer", "lilgu", "incomplete", "keeps", "lines", "defs",
                 "flower_set_mode", "ping_hu_requires", "judged")

    def __init__(self, profile: Profile):
        sc, mine = profile.scoring, profile.patterns
        bit = {p.id: 1 << i for i, p in enumerate(CATALOGUE)}
        groups: dict[str, list[tuple[int, Callable[[Facts], int]]]] = {}
        for i, p in enumerate(CATALOGUE):
            if p.id in mine:
                groups.setdefault(p.group, []).append((i, p.count))
        reading = tuple(groups.pop(PER_READING, ()))
        self.reading: tuple[_Group, ...] = (
            (None, attrgetter(*GROUPS[PER_READING]), reading, {}),)
        self.family: tuple[_Group, ...] = tuple(
            (GROUPS[g][0] if g in GATED else None, attrgetter(*GROUPS[g]), tuple(pats), {})
            for g, pats in groups.items())
        self.judged: dict[Held, tuple[int, int, int]] = {}
        self.defs: tuple[PatternDef | None, ...] = tuple(mine.get(p.id) for p in CATALOGUE)
        self.tai = tuple(d.tai if d else 0 for d in self.defs)
        self.drops = tuple(sum(bit[d] for d in set(sc.drops.get(p.id, ()))) for p in CATALOGUE)
        self.minus = sc.all_honors_minus                 # 字一色: 累計後減除4台
        self.minus_with = sum(bit[pid] for pid in set(sc.all_honors_minus_with))
        self.honors = PATTERN_INDEX["all_honors"]
        self.honors_bit = bit["all_honors"]
        self.prefer = tuple(bit[pid] for pid in sc.prefer)
        self.lilgu = sc.lilgu
        self.incomplete = sum(bit[pid] for pid in set(sc.incomplete_wins))
        self.keeps = self.incomplete | sum(bit[pid] for pid in set(sc.incomplete_win_keeps))
        self.flower_set_mode, self.ping_hu_requires = sc.flower_set_mode, sc.ping_hu_requires
        self.lines: dict[Held, tuple[PatternScore, ...]] = {}

    def value(self, held: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """(total 台, bitmask of the patterns kept) after the exclusions (台數計算準則)."""
        drops, tai = self.drops, self.tai
        dropped = 0
        for i, _ in held:
            dropped |= drops[i]
        total = kept = 0
        for i, n in held:
            if not dropped >> i & 1:
                kept |= 1 << i
                total += tai[i] * n
        if kept & self.honors_bit and kept & self.minus_with:
            total -= self.minus
        return total, kept

    def rank(self, total: int, kept: int) -> int:
        """Lower is better: the most 台, then the profile's ``prefer`` list in order.

        One int, so ranks compare as ints: -台 above one bit per preferred pattern,
        first preference highest, 0 when held — the order of (-台, held first, …)."""
        r = -total
        for b in self.prefer:
            r = r << 1 | (0 if kept & b else 1)
        return r

    def judge(self, held: Held) -> tuple[int, int, int]:
        """(rank, total, kept) of a reading's held patterns, remembered: the same
        patterns held the same number of times are worth the same in every hand."""
        found = self.judged.get(held)
        if found is None:
            total, kept = self.value(held)
            if len(self.judged) >= _MEMO_CAP:
                self.judged.clear()
            found = self.judged[held] = (self.rank(total, kept), total, kept)
        return found

    def patterns(self, held: Held, kept: int) -> tuple[PatternScore, ...]:
        """The answer's lines for one reading, in catalogue order (remembered per held
        patterns, like ``judge``)."""
        found = self.lines.get(held)
        if found is None:
            if len(self.lines) >= _MEMO_CAP:
                self.lines.clear()
            found = self.lines[held] = self._patterns(held, kept)
        return found

    def _patterns(self, held: Held, kept: int) -> tuple[PatternScore, ...]:
        minus = self.minus if kept & self.honors_bit and kept & self.minus_with else 0
        out = []
        for i, n in sorted(held):
            if kept >> i & 1:
                tai = self.tai[i] * n - (minus if i == self.honors else 0)
                d = self.defs[i]
                assert d is not None            # only the profile's patterns are ever held
                out.append(PatternScore(CATALOGUE[i].id, d.zh, d.en, tai))
        return tuple(out)


_compiled: dict[int, tuple[Profile, _Rules]] = {}
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


def _rules(profile: Profile) -> _Rules:
    found = _compiled.get(id(profile))
    if found is not None and found[0] is profile:
        return found[1]
    check_profile(profile)
    rules = _Rules(profile)
    if len(_compiled) >= _PROFILES_CAP:
        _compiled.clear()
    _compiled[id(profile)] = (profile, rules)
    return rules


def _held(groups: tuple[_Group, ...], f: Facts) -> Held:
    """(index, count) of every pattern of these groups that holds. A gated group
    whose gate fact is empty is skipped; the others are answered from the group's
    memo, keyed on exactly the facts the group's conditions read."""
    out: Held = ()
    for gate, facts_of, pats, memo in groups:
        if gate is not None and not getattr(f, gate):
            continue
        key = facts_of(f)
        found = memo.get(key)
        if found is None:
            found = tuple((i, n) for i, count in pats if (n := count(f)))
            if len(memo) >= _MEMO_CAP:
                memo.clear()
            memo[key] = found
        out += found
    return out


# --- scoring ------------------------------------------------------------------------------

def score(spec: HandSpec, profile: Profile) -> ScoreResult:
    """Score a finished hand under a profile: the highest-valued reading, or why it does not win.

    Every split of the 17 concealed tiles × every set the winning tile can sit in is a
    reading (the placement decides whether a pung is concealed — a pung the winning
    discard completes is exposed — and the wait's shape); ties go to the profile's
    ``prefer`` list, then to the first reading in ``hand.splits`` order."""
    rules = _rules(profile)
    win, concealed, melds, conds = spec.win_tile, spec.concealed, spec.melds, spec.conditions
    tiles = list(concealed)
    if win is not None:
        tiles.append(win)
    keys = [0, 0, 0, 0]                 # hand.hand_key of the 17 tiles, without a count array
    for t in tiles:
        g, step = KEY_STEP[t]
        keys[g] += step

    # What every reading shares: the melds, the flowers, the seat, the 16-tile wait.
    meld_pungs = concealed_kongs = kongs = exposed = honor_melds = 0
    suit_bits = (keys[0] != 0) | (keys[1] != 0) << 1 | (keys[2] != 0) << 2
    has_honor = keys[3] != 0
    meld_tiles: list[int] = []
    for m in melds:
        meld_tiles += m.tiles
        k = m.tiles[0]
        if k < 27:
            suit_bits |= 1 << k // 9
        else:
            has_honor = True
        if m.type == "chi":
            exposed += 1
            continue
        meld_pungs += 1
        if k >= 27:
            honor_melds |= 1 << k
        if m.type in _KONGS:
            kongs += 1
        if m.type == "concealed_kong":
            concealed_kongs += 1
        else:
            exposed += 1
    f = Facts()
    f.dealer, f.dealer_streak, f.conditions = spec.dealer, spec.dealer_streak, conds
    # 槓上開花 and 海底撈月 are self-drawn by nature (scoring.md fine points)
    drawn = f.self_drawn = spec.self_drawn or "kong_bloom" in conds or "last_tile" in conds
    f.seat_wind, f.round_wind, f.flowers = spec.seat_wind, spec.round_wind, frozenset(spec.flowers)
    f.one_tile_left = len(concealed) == 1
    f.exposed_only = bool(melds) and exposed == len(melds)
    f.no_exposed = not exposed
    f.suits, f.has_honor = suit_bits.bit_count(), has_honor
    f.flower_set_mode, f.ping_hu_requires = rules.flower_set_mode, rules.ping_hu_requires
    f.single_wait = win is not None and _single_wait(tiles, keys, win, meld_tiles, rules.lilgu)

    best: _Best | None = None
    layouts = splits_key(keys)
    if layouts:
        # Honors never form chows: an honor pung or pair is the same in every split.
        honor_pungs, honor_pair = _honor_sets(keys[3])
        honor_pungs |= honor_melds
        f.complete, f.five_sets, f.lilgu = True, True, False     # 5 - melds sets + melds
        f.honor_pungs, f.honor_pair, f.kongs = honor_pungs, honor_pair, kongs
        family = _held(rules.family, f)
        per_reading = rules.reading
        for pair, sets, pungs in layouts:
            for place in _placements(pair, sets, win):
                f.pungs = pungs + meld_pungs
                # a pung the winning discard completes is exposed (明刻); self-drawn it stays 暗
                f.concealed_pungs = pungs + concealed_kongs - \
                    (not drawn and place is not None and place[0] == "pung")
                # only a winning tile is ever placed, so ``win`` is a tile here (a cast would
                # cost a call per reading on the scorer's hot loop)
                f.shape = None if place is None else "single" if place[0] == "pair" else \
                    placement_shape(place[0], place[1], win)  # type: ignore[arg-type]
                held = family + _held(per_reading, f)
                key, total, kept = rules.judge(held)
                if best is None or key < best[0]:
                    best = (key, total, held, kept, pair, sets)
    if rules.lilgu and not melds:
        counts = counts34(tiles)
        if is_lilgu(counts):
            best = _lilgu(counts, f, rules, win, drawn, best)
    if best is not None:
        if best[4] is None:                     # 嚦咕嚦咕: the split text itself
            _, total, held, kept, _, text = best
        else:                                   # an ordinary split: its sets
            _, total, held, kept, best_pair, sets = best
            text = _sets_text(sets)
            if melds:
                text += tuple(_meld_text(m) for m in melds)
            text += (_PAIR_TEXT[best_pair],)
        return ScoreResult(True, total, rules.patterns(held, kept), text)
    # Not five sets and a pair: a 花和 or 四槓 still wins, counting only itself and the dealer's 台.
    f.complete = f.five_sets = f.lilgu = False
    f.honor_pungs, f.honor_pair, f.kongs, f.shape = honor_melds, -1, kongs, None
    f.pungs, f.concealed_pungs = meld_pungs, concealed_kongs
    every = _held(rules.family, f) + _held(rules.reading, f)
    if rules.value([(i, n) for i, n in every if rules.incomplete >> i & 1])[1]:
        held = tuple((i, n) for i, n in every if rules.keeps >> i & 1)
        total, kept = rules.value(held)
        text = tuple(_meld_text(m) for m in melds) + ((format_tiles(tiles),) if tiles else ())
        return ScoreResult(True, total, rules.patterns(held, kept), text)
    return ScoreResult(False, 0, (), (),
                       "not a winning hand (未成胡): the 17 tiles are not five sets and a pair")


def _single_wait(tiles: list[int], keys: Keys, win: int, meld_tiles: list[int],
                 lilgu: bool) -> bool:
    """獨聽: the 16 tiles before the win wait on exactly one kind, not counting a kind
    the hand already holds all four of (scoring.md fine points)."""
    g, step = KEY_STEP[win]
    before = list(keys)
    before[g] -= step
    found = waits_key(before)
    if lilgu:                                   # 嚦咕嚦咕 waits too: the count-array path
        sixteen = counts34(tiles)
        sixteen[win] -= 1
        found = waits(sixteen, None, lilgu=True)
    n = 0
    for k in found:
        g, step = KEY_STEP[k]
        if before[g] // step % 5 + meld_tiles.count(k) < 4:
            n += 1
    return n == 1


_text_memo: dict[tuple[Set, ...], tuple[str, ...]] = {}


def _sets_text(sets: tuple[Set, ...]) -> tuple[str, ...]:
    """The split text of the concealed sets, remembered per layout."""
    found = _text_memo.get(sets)
    if found is None:
        if len(_text_memo) >= _MEMO_CAP:
            _text_memo.clear()
        found = _text_memo[sets] = tuple(_SET_TEXT[kind][k] for kind, k in sets)
    return found


_honor_memo: dict[int, tuple[int, int]] = {}


def _honor_sets(key: int) -> tuple[int, int]:
    """(bits of the honor kinds held three times, the honor held twice or -1) for a
    complete hand's honor key: honors never form chows, so these are its honor pungs
    and pair in every split. Memoised per key (at most 5⁷ of them)."""
    found = _honor_memo.get(key)
    if found is None:
        pungs, pair = 0, -1
        for k in range(27, 34):
            n = key // 5 ** (33 - k) % 5
            if n >= 3:
                pungs |= 1 << k
            elif n == 2:
                pair = k
        found = _honor_memo[key] = (pungs, pair)
    return found


def _placements(pair: int, sets: tuple[Set, ...], win: int | None) -> Sequence[Set | None]:
    """The sets of one split that can hold the winning tile, each once, in the order
    the first scorer sorted them: chows, then the pair, then the pung."""
    if win is None:
        return [None]
    places: list[Set] = []
    for st in sets:
        kind, k = st
        if (k == win if kind == "pung" else k <= win <= k + 2) and st not in places:
            places.append(st)
    if pair == win:
        places.append(("pair", win))
    if len(places) > 1:
        places.sort()
    return places


def _lilgu(counts: list[int], f: Facts, rules: _Rules, win: int | None, drawn: bool,
           best: _Best | None) -> _Best:
    """嚦咕嚦咕 (八對半): seven pairs and a pung, read after the ordinary splits."""
    pung = next(k for k in range(34) if counts[k] >= 3
                and all((n - 3 * (j == k)) % 2 == 0 for j, n in enumerate(counts)))
    pairs = tuple(k for k in range(34) for _ in range((counts[k] - 3 * (k == pung)) // 2))
    f.complete, f.five_sets, f.lilgu, f.shape = True, False, True, None
    f.honor_pungs, f.honor_pair, f.kongs = (1 << pung if pung >= 27 else 0), -1, 0
    f.pungs, f.concealed_pungs = 1, 1 if drawn or win != pung else 0
    held = _held(rules.family, f) + _held(rules.reading, f)
    key, total, kept = rules.judge(held)
    if best is None or key < best[0]:
        text = (_PUNG_TEXT[pung],) + tuple(_PAIR_TEXT[p] for p in pairs)
        best = (key, total, held, kept, None, text)
    return best

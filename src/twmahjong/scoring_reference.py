"""The 台 scorer as it was before the table-driven rewrite: the oracle ``scoring`` is
checked against, as ``hand_reference`` is for ``hand``.

Every reading is a frozen ``Reading`` object and every pattern of the catalogue is
asked about every reading: slow, but each condition reads like the rule text. Tests
and ``bench/score.py`` compare ``score`` here with ``scoring.score`` on every held
test hand and on seeded random hands (``random_hand``); nothing else should call it.
Keep it frozen: a rule change goes into ``patterns``/``scoring`` *and* here, so the
differential test keeps meaning "same answers".

    >>> from twmahjong.profiles import load_profile
    >>> from twmahjong.scoring import HandSpec
    >>> spec = HandSpec.from_json({"concealed": "123m456p789s22z55s", "win_tile": "2z",
    ...     "melds": [{"type": "pon", "tiles": "777p"}], "round_wind": "S"})
    >>> score(spec, load_profile("standard")).tai
    1
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .hand import is_lilgu, placement_shape, splits, waits
from .profiles import Profile
from .scoring import HandSpec, PatternScore, ScoreResult, check_profile
from .tiles import DRAGONS, WINDS, counts34, format_tiles, is_honor, seat_flowers

__all__ = ["score", "random_hand", "CATALOGUE", "Reading", "SetInfo"]

_KONGS = ("kong", "added_kong", "concealed_kong")


# --- the catalogue as it was ----------------------------------------------------------

@dataclass(frozen=True)
class SetInfo:
    """One set of a reading. ``concealed`` is 暗: a pung completed by a discard is not."""
    kind: str            # "chow" | "pung"
    tile: int            # lowest kind of a chow, the kind of a pung
    concealed: bool
    kong: bool = False
    meld: bool = False   # declared on the table (吃碰槓, including 暗槓)


@dataclass(frozen=True)
class Reading:
    """One way to read the hand, plus the facts about the hand every condition needs."""
    sets: tuple[SetInfo, ...]
    pair: int | None            # None for an incomplete (flower) win
    pairs: tuple[int, ...]      # the seven pairs of a 嚦咕嚦咕 reading, else ()
    shape: str | None           # where the winning tile sits: edge closed single open double_pung
    kinds: tuple[int, ...]      # every non-flower tile: concealed + win + melds
    flowers: frozenset[int]
    self_drawn: bool
    seat_wind: int              # 0-3
    round_wind: int             # 0-3
    dealer: bool
    dealer_streak: int
    conditions: frozenset[str]
    one_tile_left: bool         # the hand held one concealed tile before winning
    exposed_only: bool          # melds exist and every one is 吃碰外露 (no 暗槓)
    no_exposed: bool            # no chi, pon or exposed kong (門清; 暗槓 allowed)
    single_wait: bool           # 獨聽: the 16-tile hand waits on exactly one kind
    flower_set_mode: str        # "replace" | "add"
    ping_hu_requires: tuple[str, ...]
    complete: bool

    @property
    def pungs(self) -> tuple[SetInfo, ...]:
        return tuple(s for s in self.sets if s.kind == "pung")

    def pung_of(self, kind: int) -> bool:
        return any(s.kind == "pung" and s.tile == kind for s in self.sets)


@dataclass(frozen=True)
class Pattern:
    id: str
    count: Callable[[Reading], int]


def _flag(cond: bool) -> int:
    return 1 if cond else 0


def _five_sets(r: Reading) -> bool:
    return r.complete and not r.pairs and len(r.sets) == 5


def _concealed_pungs(r: Reading) -> int:
    return sum(1 for s in r.pungs if s.concealed)


def _flower_sets(r: Reading) -> list[frozenset[int]]:
    """Complete 花槓 sets held: 春夏秋冬 (1f-4f) and 梅蘭菊竹 (5f-8f)."""
    sets = (frozenset(range(34, 38)), frozenset(range(38, 42)))
    return [s for s in sets if s <= r.flowers]


def _seat_flowers(r: Reading) -> int:
    mine = set(seat_flowers(r.seat_wind)) & r.flowers
    if r.flower_set_mode == "replace":
        for s in _flower_sets(r):
            mine -= s
    return len(mine)


def _suits(r: Reading) -> set[int]:
    return {k // 9 for k in r.kinds if k < 27}


def _has_honor(r: Reading) -> bool:
    return any(is_honor(k) for k in r.kinds)


def _dragon_pungs(r: Reading) -> int:
    return sum(1 for d in DRAGONS if r.pung_of(d))


def _wind_pungs(r: Reading) -> int:
    return sum(1 for w in WINDS if r.pung_of(w))


def _cond(name: str) -> Callable[[Reading], int]:
    return lambda r: _flag(name in r.conditions)


def _all_eight(name: str) -> Callable[[Reading], int]:
    return lambda r: _flag(name in r.conditions and len(r.flowers) == 8)


def _concealed_self_draw(r: Reading) -> int:
    return _flag(r.self_drawn and r.no_exposed)


# Requirements a profile may list for 平胡 (scoring.ping_hu_requires).
REQUIREMENTS: dict[str, Callable[[Reading], bool]] = {
    "five_chows": lambda r: _five_sets(r) and all(s.kind == "chow" for s in r.sets),
    "no_flowers": lambda r: not r.flowers,
    "no_honors": lambda r: not _has_honor(r),
    "no_pungs": lambda r: not r.pungs,
    "not_single_wait": lambda r: not r.single_wait,
    "not_self_drawn": lambda r: not r.self_drawn,
}


def _ping_hu(r: Reading) -> int:
    """平胡: every requirement the profile lists (rules/001 item 7 asks six, rules/003 one)."""
    return _flag(r.complete and all(REQUIREMENTS[name](r) for name in r.ping_hu_requires))


# The catalogue, in the order the answer lists patterns.
CATALOGUE: tuple[Pattern, ...] = (
    Pattern("dealer", lambda r: _flag(r.dealer)),                       # 作莊
    Pattern("dealer_streak", lambda r: r.dealer_streak if r.dealer else 0),  # 連N拉N
    Pattern("self_draw", lambda r: _flag(r.self_drawn)),                 # 自摸
    Pattern("concealed", lambda r: _flag(r.no_exposed)),                 # 門清
    Pattern("concealed_self_draw", _concealed_self_draw),                # 不求自摸
    Pattern("seat_wind", lambda r: _flag(r.pung_of(WINDS[r.seat_wind]))),    # 門風刻
    Pattern("round_wind", lambda r: _flag(r.pung_of(WINDS[r.round_wind]))),  # 圈風刻
    Pattern("dragon_pung", _dragon_pungs),                               # 箭字刻, each
    Pattern("all_pungs", lambda r: _flag(_five_sets(r) and len(r.pungs) == 5)),  # 對對胡
    Pattern("ping_hu", _ping_hu),                                        # 平胡
    Pattern("all_melded", lambda r: _flag(r.complete and r.one_tile_left and r.exposed_only
                                          and not r.self_drawn)),       # 全求
    Pattern("half_melded", lambda r: _flag(r.complete and r.one_tile_left and r.exposed_only
                                           and r.self_drawn)),          # 半求
    Pattern("single_wait", lambda r: _flag(r.complete and r.single_wait)),   # 獨聽
    Pattern("edge_wait", lambda r: _flag(r.shape == "edge")),            # 邊張
    Pattern("closed_wait", lambda r: _flag(r.shape == "closed")),        # 中洞
    Pattern("pair_wait", lambda r: _flag(r.shape == "single")),          # 單吊
    Pattern("robbing_kong", _cond("robbing_kong")),                      # 搶槓
    Pattern("kong_bloom", _cond("kong_bloom")),                          # 槓上開花
    Pattern("last_tile", _cond("last_tile")),                            # 海底撈月
    Pattern("declared_ready", _cond("declared_ready")),                  # 報聽
    Pattern("seat_flower", _seat_flowers),                               # 花牌, each
    Pattern("flower_set", lambda r: len(_flower_sets(r))),               # 花槓, each set
    Pattern("all_flowers", lambda r: _flag(len(r.flowers) == 8)),        # 滿花
    Pattern("three_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 3)),  # 三暗刻
    Pattern("four_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 4)),   # 四暗刻
    Pattern("five_concealed_pungs", lambda r: _flag(_concealed_pungs(r) >= 5)),   # 五暗刻
    Pattern("half_flush", lambda r: _flag(r.complete and len(_suits(r)) == 1)),   # 湊一色
    Pattern("full_flush", lambda r: _flag(r.complete and len(_suits(r)) == 1
                                          and not _has_honor(r))),      # 清一色
    Pattern("all_honors", lambda r: _flag(r.complete and not _suits(r))),   # 字一色
    Pattern("little_three_dragons", lambda r: _flag(_dragon_pungs(r) == 2 and r.pair in DRAGONS)),
    Pattern("big_three_dragons", lambda r: _flag(_dragon_pungs(r) == 3)),   # 大三元
    Pattern("little_four_winds", lambda r: _flag(_wind_pungs(r) == 3 and r.pair in WINDS)),
    Pattern("big_four_winds", lambda r: _flag(_wind_pungs(r) == 4)),        # 大四喜
    Pattern("four_kongs", lambda r: _flag(sum(1 for s in r.sets if s.kong) == 4)),  # 四槓
    Pattern("heavenly_ready", _cond("heavenly_ready")),                  # 天聽
    Pattern("earthly_ready", _cond("earthly_ready")),                    # 地聽
    Pattern("ready_first_win", _cond("ready_first_win")),                # 人和 / 地聽一發
    Pattern("heavenly_ready_first_win", _cond("heavenly_ready_first_win")),  # 人胡 (天聽一發)
    Pattern("heavenly_win", _cond("heavenly_win")),                      # 天胡
    Pattern("earthly_win", _cond("earthly_win")),                        # 地胡
    Pattern("eight_immortals", _all_eight("eight_immortals")),           # 八仙過海
    Pattern("seven_rob_one", _all_eight("seven_rob_one")),               # 七搶一
    Pattern("lilgu", lambda r: _flag(bool(r.pairs))),                    # 嚦咕嚦咕
)


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


# --- hands to compare on -----------------------------------------------------------------

_CONDITION_NAMES = ("last_tile", "kong_bloom", "robbing_kong", "heavenly_ready", "earthly_ready",
                    "ready_first_win", "heavenly_ready_first_win", "heavenly_win",
                    "earthly_win", "declared_ready")


def _text(kinds) -> str:
    return format_tiles(sorted(kinds))


def random_hand(rng, complete: bool = True) -> dict:
    """A random formats.md hand (JSON object) for the differential tests.

    Skewed towards what the patterns look at: honor and all-pung hands, one-suit
    hands, melds of every type (so 全求, 暗槓 and four kongs occur), flowers up to
    all eight, winds, dealer streaks and conditions. ``complete=False`` gives 17
    random tiles (mostly not a win; with eight flowers a 花和 may still stand)."""
    left = [4] * 34
    flowers = "".join(f"{k}f" for k in range(1, 9) if rng.random() < 0.25)
    if rng.random() < 0.04:
        flowers = "12345678f"
    conds = [c for c in _CONDITION_NAMES if rng.random() < 0.04]
    if len(flowers) == 9 and rng.random() < 0.5:
        conds.append(rng.choice(("eight_immortals", "seven_rob_one")))
    hand = {"flowers": flowers, "self_drawn": rng.random() < 0.4,
            "seat_wind": rng.choice("ESWN"), "round_wind": rng.choice("ESWN"),
            "dealer": rng.random() < 0.3, "dealer_streak": rng.choice((0, 0, 0, 1, 2, 5)),
            "conditions": conds}
    if not complete:
        wall = [k for k in range(34) for _ in range(4)]
        tiles = rng.sample(wall, 17)
        hand.update(concealed=_text(tiles[:16]), melds=[], win_tile=_text(tiles[16:]))
        if rng.random() < 0.2:
            hand.update(concealed=_text(tiles), win_tile=None)
        return hand
    if rng.random() < 0.05:                               # 嚦咕嚦咕 shape: 7 pairs + a pung
        kinds = rng.sample(range(34), 8)
        tiles = [kinds[0]] * 3 + [k for k in kinds[1:] for _ in range(2)]
        rng.shuffle(tiles)
        hand.update(concealed=_text(tiles[1:]), melds=[], win_tile=_text(tiles[:1]))
        return hand
    suits = rng.choice(((0, 1, 2), (0, 1, 2), (rng.randrange(3),)))
    honors = rng.random() < 0.5
    pung_rate = rng.choice((0.1, 0.3, 0.6, 1.0))
    while True:
        left = [4] * 34
        sets: list[tuple[str, int]] = []
        while len(sets) < 5:
            if rng.random() < pung_rate:
                k = rng.randrange(27, 34) if honors and rng.random() < 0.5 else \
                    9 * rng.choice(suits) + rng.randrange(9)
                need = [k] * 3
                kind = "pung"
            else:
                k = 9 * rng.choice(suits) + rng.randrange(7)
                need = [k, k + 1, k + 2]
                kind = "chow"
            if all(left[x] >= need.count(x) for x in set(need)):
                for x in need:
                    left[x] -= 1
                sets.append((kind, k))
            elif rng.random() < 0.05:
                break
        pair = rng.randrange(27, 34) if honors and rng.random() < 0.3 else \
            9 * rng.choice(suits) + rng.randrange(9)
        if len(sets) == 5 and left[pair] >= 2:
            left[pair] -= 2
            break
    n_melds = rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4, 5))
    melds, concealed = [], [pair, pair]
    for i, (kind, k) in enumerate(sets):
        if i >= n_melds:
            concealed += [k, k, k] if kind == "pung" else [k, k + 1, k + 2]
        elif kind == "chow":
            melds.append({"type": "chi", "tiles": _text([k, k + 1, k + 2])})
        elif left[k] and rng.random() < 0.5:
            left[k] -= 1
            melds.append({"type": rng.choice(_KONGS), "tiles": _text([k] * 4)})
        else:
            melds.append({"type": "pon", "tiles": _text([k] * 3)})
    rng.shuffle(concealed)
    hand.update(concealed=_text(concealed[1:]), melds=melds, win_tile=_text(concealed[:1]))
    return hand

"""The table-driven hand analysis against the rule texts and against the oracle.

Hand-written cases come from rules/000-004 (邊張 一二聽三, 中洞 二四聽三, 單吊
單支紅中聽紅中, 12234 reads both ways, 嚦咕嚦咕 七對一刻) and scoring.md (獨聽:
a kind held four times is not a wait). Property tests then show the tables agree
with ``hand_reference`` on random hands of every size with any melds.
"""

import os
import random

from hypothesis import given, settings, strategies as st

from twmahjong import _tables
from twmahjong import hand, hand_reference as ref
from twmahjong.tiles import counts34, parse_tiles


def c(text: str) -> list[int]:
    return counts34(parse_tiles(text))


def kinds(text: str) -> list[int]:
    return sorted(parse_tiles(text))


# ---- hand-written, from the rule texts ----------------------------------------

def test_two_sided_waits_all_open():
    hand16 = c("23m456m678p234s567s99p")
    assert hand.waits(hand16) == kinds("1m4m7m")
    for w in kinds("1m4m7m"):
        assert hand.wait_shapes(hand16, w) == {"open"}


def test_edge_wait_12_waits_on_3():
    # rules/003: 一萬、二萬聽三萬 is 邊張
    hand16 = c("12m456m678p234s567s99p")
    assert hand.waits(hand16) == kinds("3m")
    assert hand.wait_shapes(hand16, parse_tiles("3m")[0]) == {"edge"}


def test_edge_wait_89_waits_on_7():
    hand16 = c("89m456m678p234s567s99p")
    assert hand.waits(hand16) == kinds("7m")
    assert hand.wait_shapes(hand16, parse_tiles("7m")[0]) == {"edge"}


def test_closed_wait_46p_waits_on_5p():
    # rules/003: 二條、四條聽三條 is 中洞
    hand16 = c("46p123m456m234s567s99s")
    assert hand.waits(hand16) == kinds("5p")
    assert hand.wait_shapes(hand16, parse_tiles("5p")[0]) == {"closed"}


def test_single_wait_on_red_dragon():
    # rules/003: 單支紅中聽紅中
    hand16 = c("7z123m456m789m234p567s")
    assert hand.waits(hand16) == kinds("7z")
    assert hand.wait_shapes(hand16, 33) == {"single"}


def test_double_pung_wait():
    # 對碰: two pairs, either becomes the pung
    hand16 = c("55p99s123m456m789m234p")
    assert hand.waits(hand16) == kinds("5p9s")
    assert hand.wait_shapes(hand16, parse_tiles("5p")[0]) == {"double_pung"}
    assert hand.wait_shapes(hand16, parse_tiles("9s")[0]) == {"double_pung"}


def test_12234_reads_as_edge_and_closed():
    # rules/003: 12234 可組成邊張和中洞
    hand16 = c("12234m789p234s567s99p")
    w3 = parse_tiles("3m")[0]
    assert hand.waits(hand16) == [w3]
    assert hand.wait_shapes(hand16, w3) == {"edge", "closed"}


def test_all_four_held_is_not_a_wait():
    # scoring.md: a kind the hand (concealed + melds) holds all four of is no wait
    concealed = c("1m456p789p234s")            # 單吊 on 1m
    melds = c("111m999s")                      # a pung of 1m already melded
    held = [a + b for a, b in zip(concealed, melds)]
    assert 0 in hand.waits(concealed)
    assert hand.waits(concealed) == [0]
    assert hand.waits(concealed, held) == []


def test_four_in_concealed_is_not_a_wait():
    hand13 = c("1111m456p789p234s")            # 1m would be the fifth copy
    assert hand.waits(hand13) == []


def test_single_wait_is_one_kind():
    assert len(hand.waits(c("12m456m678p234s567s99p"))) == 1
    assert len(hand.waits(c("23m456m678p234s567s99p"))) == 3


def test_lilgu_seven_pairs_and_a_pung():
    assert hand.is_lilgu(c("11m22m33p44p55s66s11z777z"))
    assert not hand.is_lilgu(c("11m22m33p44p55s66s1z2z777z"))


def test_lilgu_with_four_of_a_kind_counts_two_pairs():
    full = c("1111m22m33p44p55s66s777z")
    assert hand.is_lilgu(full)
    assert not hand.is_complete(full)
    sixteen = c("1111m22m33p44p55s66s77z")     # eight pairs: any pair may become the pung
    w = hand.waits(sixteen, lilgu=True)
    assert parse_tiles("7z")[0] in w and parse_tiles("2m")[0] in w
    assert 0 not in w                           # 1m: all four already held
    assert hand.waits(sixteen) == []


def test_shanten_complete_and_ready():
    assert hand.shanten(c("123m456m678p234s567s99p")) == -1
    assert hand.shanten(c("23m456m678p234s567s99p")) == 0
    # 13 tiles, 4 sets needed, no set, partial or pair: 2·4
    assert hand.shanten(c("19m19p19s1234567z")) == 8


def test_fifth_copy_is_not_ready():
    # 1111m + three sets: the only completing tile would be a fifth 1m, so not 聽牌
    assert hand.shanten(c("1111m456p789p234s")) == 1
    assert hand.shanten(c("1111m456p789p234s5z")) == 0    # discard a 1m: 5z single wait


def test_shanten_with_melds():
    # two melds outside: 10 concealed tiles need 3 sets + pair
    assert hand.shanten(c("123m456p7s99s1z")) == 1
    assert hand.shanten(c("123m456p78s99s"), sets_needed=3) == 0


def test_complete_hand_reads_every_way():
    full = c("111222333m456p99s")
    readings = {(s.pair, s.sets) for s in hand.splits(full)}
    pung = lambda t: ("pung", parse_tiles(t)[0])
    chow = lambda t: ("chow", parse_tiles(t)[0])
    p99 = parse_tiles("9s")[0]
    assert (p99, tuple(sorted([pung("1m"), pung("2m"), pung("3m"), chow("4p")]))) in readings
    assert (p99, tuple(sorted([chow("1m")] * 3 + [chow("4p")]))) in readings
    assert hand.is_complete(full)


def test_key_api_matches_counts():
    hand16 = c("23m456m678p234s567s99p")
    keys = hand.hand_key(hand16)
    assert hand.waits_key(keys) == hand.waits(hand16)
    assert hand.shanten_key(keys, 5) == 0
    g, step = hand.KEY_STEP[0]
    keys2 = list(keys)
    keys2[g] += step
    assert hand.is_complete_key(keys2)


# ---- the tables agree with the oracle ------------------------------------------

WALL = [k for k in range(34) for _ in range(4)]


@st.composite
def concealed(draw, sizes=range(1, 18)):
    n = draw(st.sampled_from(list(sizes)))
    style = draw(st.sampled_from(["any", "one_suit", "two_suits"]))
    pool = WALL
    if style == "one_suit":
        s = draw(st.integers(0, 3))
        pool = [k for k in WALL if (k // 9 if k < 27 else 3) == s]
    elif style == "two_suits":
        s = draw(st.integers(0, 2))
        pool = [k for k in WALL if k // 9 == s or k >= 27]
    n = min(n, len(pool))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    return counts34(pool[i] for i in idx)


@st.composite
def near_complete(draw):
    """A random complete hand with a few tiles taken out, so waits are common."""
    k = draw(st.integers(0, 5))
    left = [4] * 34
    out = [0] * 34
    for _ in range(k):
        if draw(st.booleans()):
            t = draw(st.integers(0, 33))
            if left[t] >= 3:
                left[t] -= 3; out[t] += 3
        else:
            s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            t = 9 * s + r
            if min(left[t], left[t + 1], left[t + 2]) >= 1:
                for x in (t, t + 1, t + 2):
                    left[x] -= 1; out[x] += 1
    t = draw(st.integers(0, 33))
    if left[t] >= 2:
        out[t] += 2
    drop = draw(st.integers(0, 2))
    for _ in range(drop):
        have = [x for x in range(34) if out[x]]
        if have:
            out[draw(st.sampled_from(have))] -= 1
    return out


def _as_tuples(splits):
    return {(s.pair, s.sets) for s in splits}


@settings(max_examples=400, deadline=None)
@given(st.one_of(concealed(), near_complete()))
def test_complete_and_splits_match_reference(counts):
    assert hand.is_complete(counts) == ref.is_complete(counts)
    assert _as_tuples(hand.splits(counts)) == _as_tuples(ref.splits(counts))
    assert hand.is_lilgu(counts) == ref.is_lilgu(counts)


@settings(max_examples=400, deadline=None)
@given(st.one_of(concealed(), near_complete()), st.data())
def test_shanten_matches_reference(counts, data):
    n = sum(counts)
    assert hand.shanten(counts) == ref.shanten(counts)
    k = data.draw(st.integers(max(0, (n - 2) // 3), 5))
    assert hand.shanten(counts, k) == ref.shanten(counts, k)


@settings(max_examples=400, deadline=None)
@given(st.one_of(concealed(sizes=[1, 4, 7, 10, 13, 16]), near_complete()), st.data())
def test_waits_and_shapes_match_reference(counts, data):
    if sum(counts) % 3 != 1:
        return
    assert hand.waits(counts) == ref.waits(counts)
    assert hand.waits(counts, lilgu=True) == ref.waits(counts, lilgu=True)
    melded = data.draw(st.lists(st.integers(0, 33), max_size=6))
    held = list(counts)
    for t in melded:
        held[t] = min(4, held[t] + 3)
    assert hand.waits(counts, held) == ref.waits(counts, held)
    for t in range(34):
        assert hand.wait_shapes(counts, t) == ref.wait_shapes(counts, t)


def test_random_draws_match_reference():
    rng = random.Random(20261129)
    for _ in range(300):
        n = rng.choice([13, 14, 16, 17])
        counts = counts34(rng.sample(WALL, n))
        assert hand.shanten(counts) == ref.shanten(counts)
        assert hand.is_complete(counts) == ref.is_complete(counts)
        if n % 3 == 1:
            assert hand.waits(counts) == ref.waits(counts)


# ---- the on-disk cache -----------------------------------------------------------

def test_corrupt_cache_rebuilds_silently(tmp_path, monkeypatch):
    monkeypatch.setenv("TWMJ_CACHE_DIR", str(tmp_path))
    path = tmp_path / _tables._FILE
    path.write_bytes(b"not a table")
    t = _tables.load()
    key = hand.hand_key(c("123m456m789m11p"))
    assert t.suit_win[key[0]] == 0 and t.suit_win[key[1]] == 1
    assert _tables._read(path)["version"] == _tables.VERSION
    stale = _tables._read(path)
    stale["version"] = -1
    assert _tables._write(path, stale)
    assert _tables._read(path) is None
    assert _tables.load().suit_win[key[0]] == 0
    assert _tables._read(path) is not None
    path.write_bytes(path.read_bytes()[:100_000])            # cut short
    assert _tables._read(path) is None
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".hand-tables-")]


def test_unwritable_cache_builds_in_memory(tmp_path, monkeypatch):
    # a read-only install: the cache dir cannot be made (its parent is a file), so
    # load() builds and serves from memory. The build itself is handed the cached one
    # (building again takes seconds, and test_corrupt_cache_rebuilds_silently does).
    cached = _tables._read(_tables.cache_dir() / _tables._FILE)
    in_memory = cached and {k: bytes(v) if k in _tables._TABLES else v for k, v in cached.items()}
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TWMJ_CACHE_DIR", str(blocker / "cache"))
    builds = []
    real_build = _tables.build
    monkeypatch.setattr(_tables, "build", lambda: builds.append(1) or in_memory or real_build())
    t = _tables.load()
    assert builds == [1]
    key = hand.hand_key(c("123m456m789m11p"))
    assert t.suit_win[key[0]] == 0 and t.suit_win[key[1]] == 1
    assert bytes(t.suit_prof) == bytes(hand._T.suit_prof)
    assert bytes(t.suit_wait) == bytes(hand._T.suit_wait)


def test_tables_are_compact_and_can_be_mapped():
    # one byte an entry, two for the waits: lists of 5⁹ entries cost ~63 MiB
    import mmap
    t = hand._T
    for table in (t.suit_size, t.suit_win, t.suit_prof, t.honor_size, t.honor_win, t.honor_prof):
        assert type(table) is bytes
    assert t.suit_wait.itemsize == t.honor_wait.itemsize == 2
    # mapped read-only from the same file, the same tables (TWMJ_MAP_TABLES=1)
    m = _tables.load(mapped=True)
    assert isinstance(m.suit_prof, mmap.mmap) and m.suit_wait.readonly
    for name in ("suit_size", "suit_win", "suit_prof", "suit_wait", "honor_prof", "honor_wait"):
        assert bytes(getattr(m, name)) == bytes(getattr(t, name)), name


@settings(max_examples=200, deadline=None)
@given(concealed(sizes=range(0, 17)), st.integers(0, 33))
def test_incremental_key_matches_hand_key(counts, kind):
    if counts[kind] == 4:
        return
    keys = list(hand.hand_key(counts))
    g, step = hand.KEY_STEP[kind]
    keys[g] += step
    counts[kind] += 1
    assert tuple(keys) == hand.hand_key(counts)
    assert hand.is_complete_key(keys) == ref.is_complete(counts)

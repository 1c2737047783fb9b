"""The hot path's shortcuts give the answers of the slow, obvious computation:
per-seat hand keys kept in step with the counts, waits and 報聽 discards from the
key tables, and the engine's notation tables against ``tiles``."""

import random

from twmahjong.engine.actions import legal_json
from twmahjong.engine.notation import fmt_tiles, tile_text
from twmahjong.engine.observe import LazyObservation
from twmahjong.selfplay import make_bots
from twmahjong.engine.table import HandState
from twmahjong.engine.winning import waits
from twmahjong.hand import hand_key
from twmahjong.profiles import load_profile
from twmahjong.tiles import format_tiles, tile_str


def _ready_discards_slow(counts):
    out = []
    for k in range(34):
        if counts[k]:
            counts[k] -= 1
            if waits(counts):
                out.append(k)
            counts[k] += 1
    return out


def test_keys_waits_and_ready_discards_agree_with_the_counts_through_whole_hands():
    checked_ready = 0
    for name in ("standard", "casual"):
        profile = load_profile(name)
        bots = make_bots(["random"] * 4, 7)
        for seed in range(12):
            h = HandState(profile, dealer=seed % 4, seed=seed)
            while not h.over:
                for st in h.seats:
                    assert st.key == list(hand_key(st.counts))
                if h.phase == "turn":
                    st = h.seats[h.turn_seat]
                    slow = _ready_discards_slow(st.counts)
                    assert st.ready_discards(False) == slow
                    checked_ready += bool(slow)
                for s, acts in h.pending().items():
                    h.act(s, bots[s].act(LazyObservation(h, s, legal_json(acts))))
                    if h.over:
                        break
                for st in h.seats:
                    if not h.over and sum(st.counts) % 3 == 1:   # between its turns
                        assert st.waits == frozenset(waits(st.counts))
    assert checked_ready > 0               # some hands did come near 聽牌


def _tile_slow(k):
    """formats.md's notation worked out: 1-9 m/p/s, then 1-7z (東南西北白發中), 1-8f."""
    if k < 27:
        return f"{k % 9 + 1}{'mps'[k // 9]}"
    return f"{k - 26}z" if k < 34 else f"{k - 33}f"


def _format_slow(kinds):
    out = ""
    for suit in "mpszf":
        digits = "".join(_tile_slow(k)[:-1] for k in sorted(kinds) if _tile_slow(k)[-1] == suit)
        out += digits + suit if digits else ""
    return out


def test_notation_tables_write_what_formats_md_says():
    rng = random.Random(3)
    assert [tile_str(k) for k in (0, 8, 9, 26, 27, 31, 33, 34, 41)] == [
        "1m", "9m", "1p", "9s", "1z", "5z", "7z", "1f", "8f"]
    for k in range(42):
        assert tile_text(k) == tile_str(k) == _tile_slow(k)
    for _ in range(300):
        kinds = [rng.randrange(42) for _ in range(rng.randrange(0, 18))]
        assert fmt_tiles(kinds) == format_tiles(kinds) == _format_slow(kinds)
    assert format_tiles([5, 3, 30, 4], sort=False) == "64m4z5m"


def test_may_chi_is_whether_chi_choices_has_any():
    from twmahjong.engine.legal import chi_choices, may_chi
    rng = random.Random(5)
    for _ in range(3000):
        c = [0] * 34
        for k in rng.sample(range(136), 16):
            c[k // 4] += 1
        k = rng.randrange(34)
        assert may_chi(c, k) == bool(chi_choices(c, k))


def test_a_win_is_always_listed_first():
    """RandomBot reads only the first action to find a win: every legal list the
    engine offers puts 胡/花胡 ahead of anything else."""
    seen = 0
    for pid in ("standard", "classic", "casual"):
        prof = load_profile(pid)
        bots = make_bots(["efficiency", "random", "L2", "random"], 11)
        for i in range(60):
            h = HandState(prof, dealer=i % 4, seed=900 + i, open_windows=bool(i % 2))
            while not h.over:
                for s, acts in h.pending().items():
                    kinds = [a.type for a in acts]
                    wins = [j for j, t in enumerate(kinds) if t in ("win", "flower_win")]
                    assert wins == list(range(len(wins))), kinds
                    seen += bool(wins)
                    h.act(s, bots[s].act(LazyObservation(h, s, actions=acts)))
    assert seen > 50


def test_the_wall_shuffle_is_random_shuffle():
    from twmahjong.engine.wall import shuffle
    for seed in range(300):
        a, b = list(range(144)), list(range(144))
        random.Random(seed).shuffle(a)
        shuffle(random.Random(seed), b)
        assert a == b


def test_the_random_bot_draws_as_randrange():
    """RandomBot draws its index as randrange does; the same seed, the same choices."""
    from twmahjong.bots.random_bot import RandomBot

    class Obs(dict):
        actions = None
    rng = random.Random(3)
    bot = RandomBot(seed=9)
    ref = random.Random(9)
    from twmahjong.engine import actions as A
    for _ in range(5000):
        n = rng.randrange(1, 80)
        obs = Obs()
        obs.actions = [A.discard(k % 34) for k in range(n)]
        assert bot.act(obs) is obs.actions[ref.randrange(n)]   # _randbelow(n) is randrange(n)


def test_leaves_discard_counts_what_is_left_outside_the_forbidden_kinds():
    from twmahjong.engine.legal import _leaves_discard, chi_choices
    from twmahjong.engine.seat import other_end
    rng = random.Random(8)
    checked = 0
    for _ in range(4000):
        c = [0] * 34
        for t in rng.sample(range(136), rng.choice([4, 7, 10, 16])):
            c[t // 4] += 1
        k = rng.randrange(27)
        for a, b in chi_choices(c, k):
            suji = other_end(k, a, b)
            bad = {k} if suji is None else {k, suji}
            rest = list(c)
            rest[a] -= 1
            rest[b] -= 1
            assert _leaves_discard(c, a, b, bad) == any(rest[x] for x in range(34) if x not in bad)
            checked += 1
    assert checked > 500


def test_a_lazy_observation_writes_as_the_full_one_however_it_was_read():
    """json.dumps of an unread LazyObservation (a pipe bot's request) is the whole
    observation, keys in the order they always had: seat, legal, then the rest."""
    import json
    prof = load_profile("standard")
    bots = make_bots(["L2"] * 4, 3)
    h = HandState(prof, dealer=1, seed=77)
    n = 0
    while not h.over and n < 80:
        for s, acts in h.pending().items():
            full = h.observation(s)
            want = {"seat": s, "legal": full["legal"], **full}
            for read in (None, "legal", "seat", "hand"):
                lazy = LazyObservation(h, s, actions=acts)
                if read:
                    lazy.get(read)
                assert json.dumps(lazy) == json.dumps(want)
            given = LazyObservation(h, s, legal_json(acts))
            assert list(given.keys()) == ["legal", "seat"] + [k for k in full if k not in ("legal", "seat")]
            h.act(s, bots[s].act(LazyObservation(h, s, actions=acts)))
            n += 1

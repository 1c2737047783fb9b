"""Level 6 (bots/master.py) and its reading of the table (bots/reader.py), on
hand-made positions: what the rules and the arithmetic of a hand's points call for."""

import itertools

from benchmods import load_bench
from botobs import make_obs

from twmahjong.bots import make_bot
from twmahjong.bots.arena import make_seat_bot, seat_names
from twmahjong.bots.master import MasterBot
from twmahjong.bots.policy import LEVELS, PolicyBot
from twmahjong.bots.reader import possible, read_table
from twmahjong.bots.view import View
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tile

T = parse_tile


def _read(obs):
    return read_table(View.from_observation(obs))


# ---- the reader ---------------------------------------------------------------------------

# Seat 2 declared (天聽: ready for sure); seat 1 and 3 have thrown a few tiles.
READ_OBS = make_obs(
    "123m456m789m234p77z67s8p",
    discards=[["9p"], ["1s", "9m", "7z", "3z"], ["7z", "9s", "5p", "2s", "4z", "8p"], ["6z", "1z"]],
    declared=[False, False, True, False], wall_remaining=40)


def test_the_reading_is_a_probability_for_every_opponent_and_tile():
    r = _read(READ_OBS)
    for s, k in itertools.product((1, 2, 3), range(34)):
        assert 0.0 <= r.wins(s, k) <= 1.0
        assert 0.0 <= r.ready(s) <= 1.0
    assert r.ready(2) == 1.0                       # a declared seat is ready
    for k in range(34):
        # the chance of dealing in to anyone is 1 - Π(1 - ready × wins), no more
        # than the sum and no less than the largest single chance
        d = r.deal_in(k)
        singles = [r.ready(s) * r.wins(s, k) for s in (1, 2, 3)]
        assert max(singles) - 1e-12 <= d <= sum(singles) + 1e-12


def test_a_tile_with_every_copy_in_sight_cannot_be_a_single_wait():
    # four 1z in sight (three in the rivers, one in hand): nobody can hold one,
    # so nobody waits on it (單吊 or 對碰), and an honor has no other shape
    obs = make_obs("1z23m", discards=[["1z"], ["1z"], ["1z"], []],
                   declared=[False, True, False, False])
    r = _read(obs)
    for s in (1, 2, 3):
        assert r.wins(s, T("1z")) == 0.0
    assert r.deal_in(T("1z")) == 0.0


def test_a_suited_tile_is_impossible_only_when_every_shape_is_walled():
    # every 9s and every 7s in sight: 9s needs a 9s held (單吊/對碰) or 78s (兩面)
    v = View.from_observation(make_obs(
        "9s7s23m", discards=[["9s", "7s"], ["9s", "7s"], ["9s", "7s"], []]))
    assert not possible(v.unseen, T("9s"))
    assert _read(make_obs("9s7s23m", discards=[["9s", "7s"], ["9s", "7s"], ["9s", "7s"], []],
                          declared=[False, True, True, True])).deal_in(T("9s")) == 0.0
    # but with 7s and 8s unseen, all four 9s in sight, 78s can still wait on it
    v = View.from_observation(make_obs("9s23m", discards=[["9s"], ["9s"], ["9s"], []]))
    assert possible(v.unseen, T("9s"))


def test_a_long_river_with_melds_reads_more_ready_than_a_fresh_one():
    early = _read(make_obs("123m", discards=[[], ["1z"], [], []], wall_remaining=70))
    late = _read(make_obs(
        "123m", discards=[[], ["1z", "2z", "9m", "1p", "8s", "5m", "4p", "6s", "3m", "7p", "2s"], [], []],
        melds=[[], [{"type": "pon", "tiles": "555z", "from": 2, "claimed": "5z"},
                    {"type": "chi", "tiles": "345p", "from": 0, "claimed": "3p"}], [], []],
        wall_remaining=20))
    assert late.ready(1) > early.ready(1)


def test_the_observation_tells_which_discards_were_the_tile_just_drawn():
    h = HandState(load_profile("standard"), dealer=0, seed=5)
    bots = [make_bot("L4", s) for s in range(4)]
    seen = 0
    while not h.over and seen < 40:
        for s in list(h.pending()):
            obs = h.observation(s)
            a = bots[s].act(obs)
            if a.get("type") == "discard":
                drawn = obs["drawn"]
                h.act(s, a)
                assert h.observation(0)["drawn_out"][s][-1] == (a["tile"] == drawn)
                seen += 1
            else:
                h.act(s, a)
    assert seen >= 20
    v = View.from_observation(h.observation(0))
    assert [len(d) for d in v.drawn_out] == [len(d) for d in v.discards]


# ---- deciding by expectation ----------------------------------------------------------------

# Seat 2 declared; our hand is far from ready. Holding 99s, whose other copies are
# in the rivers with every 7s: no shape can wait on 9s, so it is the one tile
# that cannot deal in. Efficiency keeps the pair; folding throws it.
FAR_OBS = make_obs(
    "35m68m11p23p99s23z46s1m5p 4m",
    discards=[["7s", "9s"], ["1s", "7s", "9s"], ["7z", "5p", "2s", "4z", "8p", "7s"], ["6z", "7s"]],
    declared=[False, False, True, False], wall_remaining=40)


def test_folds_the_safe_tile_against_a_declared_player_when_far_from_ready():
    bot = MasterBot(seed=1, exact=True)
    assert bot.act(FAR_OBS) == {"type": "discard", "tile": "9s"}
    assert bot.last_plan["folding"] == 1.0


def test_pushes_a_ready_hand_worth_much_against_the_same_threat():
    # dealer on 連三拉三, concealed, ready on 5s/8s after throwing 8p: the dealer's
    # 台 (1 + 2 × 3) ride on the win; breaking the 中 pair (every copy in sight, so
    # safe) gives up the hand. 8p is what the expectation throws.
    obs = dict(READ_OBS, dealer=0, dealer_streak=3)
    bot = MasterBot(seed=1, exact=True)
    assert bot.act(obs) == {"type": "discard", "tile": "8p"}
    assert bot.last_plan["folding"] == 0.0


def test_a_bigger_hand_is_pushed_harder():
    plans = []
    for dealer, streak in ((1, 0), (0, 0), (0, 3)):
        bot = MasterBot(seed=1, exact=True)
        bot.act(dict(READ_OBS, dealer=dealer, dealer_streak=streak))
        plans.append(bot.last_plan["push_minus_fold"])
    assert plans[0] < plans[1] < plans[2]


def test_no_claim_while_folding():
    # seat 3 declared; our hand is far; seat 1 throws 1p, which we could pung.
    # L5 takes the pung (it advances the hand); L6 does not open a hand it is folding.
    legal = [{"type": "pon", "tile": "1p"}, {"type": "pass"}]
    obs = make_obs("35m68m11p23p99s23z46s1m5p", seat=0, legal=legal,
                   discards=[["7s"], ["1s", "7s", "9s", "1p"], ["5p", "2s"], ["7z", "4z", "8p"]],
                   declared=[False, False, False, True], wall_remaining=30,
                   last_discard={"seat": 1, "tile": "1p"})
    assert PolicyBot(LEVELS[5], seed=1, exact=True).act(obs) == {"type": "pon", "tile": "1p"}
    assert MasterBot(seed=1, exact=True).act(obs) == {"type": "pass"}


# ---- the time budget ------------------------------------------------------------------------

class _Clock:
    """A clock that moves a second each time it is read: any budget is spent at once."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        self.t += 1.0
        return self.t


def _searches(monkeypatch):
    calls = []
    import twmahjong.bots.policy as policy

    real = policy.sampled_win_rates

    def spy(*args, **kw):
        calls.append(args)
        return real(*args, **kw)
    monkeypatch.setattr(policy, "sampled_win_rates", spy)
    return calls


# a near-tie for L5's search: two ready discards with the same waits
TIE_OBS = make_obs("123m456m789m234p55s67s", drawn="1z", wall_remaining=60,
                   discards=[[], ["1z"], ["2z"], []])


def test_with_its_budget_spent_it_answers_its_best_move_so_far(monkeypatch):
    calls = _searches(monkeypatch)
    bot = MasterBot(seed=1, budget_ms=50, clock=_Clock())
    a = bot.act(TIE_OBS)
    assert a in TIE_OBS["legal"]
    assert calls == []                         # no search started once the budget was gone


def test_the_arena_bot_has_no_deadline(monkeypatch):
    calls = _searches(monkeypatch)
    bot = MasterBot(seed=1, exact=True, clock=_Clock())
    assert bot._search_budget() is None
    a = bot.act(TIE_OBS)
    assert a in TIE_OBS["legal"]


# ---- an arena seat, not yet an opponent people choose ------------------------------------------

def test_L6_is_an_arena_seat_and_a_bot_but_not_offered_at_tables():
    """Measured below L5 (docs/bots.md), L6 is not put in the lobby's level list:
    a player choosing the top level must get the strongest bot."""
    from twmahjong.server.opponents import LEVELS as CHOOSABLE
    assert "L6" in seat_names() and "L6" not in CHOOSABLE and CHOOSABLE[-1] == "L5"
    assert isinstance(make_seat_bot("L6", 1), MasterBot)
    assert make_seat_bot("L6", 1, exact=True).exact is True
    assert make_bot("L6", 1).exact is False          # a live table keeps the deadline


def test_L6_plays_legal_moves_through_a_hand():
    h = HandState(load_profile("standard"), dealer=2, seed=31)
    bots = [make_seat_bot(n, s, exact=True) for s, n in enumerate(["L6", "L5", "L6", "efficiency"])]
    while not h.over:
        for s in list(h.pending()):
            obs = h.observation(s)
            a = bots[s].act(obs)
            legal = obs["legal"]
            assert (a if isinstance(a, dict) else a.to_json()) in legal
            h.act(s, a)


# ---- the fit is a reproducible command ---------------------------------------------------------

def test_the_training_rows_derive_from_the_seed_alone():
    tr = load_bench("train_reader")
    a, b = tr.play(3, 7), tr.play(3, 7)
    assert (a["ready"][0] == b["ready"][0]).all() and (a["wins"][1] == b["wins"][1]).all()
    assert a["race"] == b["race"] and a["thrown"] == b["thrown"]
    assert len(a["ready"][1]) > 0 and set(a["ready"][1].tolist()) <= {0.0, 1.0}


def test_the_shipped_weights_match_the_features_and_are_small():
    import json
    from twmahjong.bots.reader import READY_FEATURES, WEIGHTS, WIN_FEATURES
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert doc["ready"]["features"] == list(READY_FEATURES)
    assert doc["wins"]["features"] == list(WIN_FEATURES)
    assert WEIGHTS.stat().st_size < 10 * 1024 * 1024

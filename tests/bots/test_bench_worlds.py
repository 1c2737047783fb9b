"""bench/worlds.py: L6 searching sampled worlds where its fit is uncertain. What the
measurement rests on: a move compared with itself in the same worlds differs by
nothing (the pairing is exact), and the recorder plays exactly as L6."""

import pytest
from benchmods import load_bench

from twmahjong.bots.arena import _Seats, play_deal
from twmahjong.bots.master import MasterBot
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile


@pytest.fixture
def worlds(monkeypatch):
    # the bench patches HandState.observation to find a bot's hand; undo it afterwards
    monkeypatch.setattr(HandState, "observation", HandState.observation)
    return load_bench("worlds")


class _L6First(_Seats):
    def bot(self, entrant, seed):
        return MasterBot(seed, exact=True) if entrant == 0 else super().bot(entrant, seed)


def test_a_move_against_itself_differs_in_no_world(worlds):
    prof = load_profile("standard")
    h = HandState(prof, dealer=0, seed=12)
    bot = worlds.make_sl6("worlds=6", 3)
    while h.phase != "turn" or len(h.seats[h.turn_seat].discards) < 4:
        for s, acts in h.pending().items():
            h.act(s, acts[0])
    seat = h.turn_seat
    move = next(a for a in h.pending()[seat] if a.type == "discard")
    dt, dp = bot._diffs(h, seat, move, move)
    assert dt == [0.0] * 6 and dp == [0.0] * 6


def test_the_recorder_plays_as_l6_and_records_only_straddling_decisions(worlds):
    prof = load_profile("standard")
    specs = ["X", "L5", "L5", "L5"]
    rows = []
    recorded = play_deal(specs, 1, 21, duplicate=False, profile=prof,
                         seats=worlds._RecordSeats(specs, "worlds=4;mode=record", rows))
    plain = play_deal(specs, 1, 21, duplicate=False, profile=prof, seats=_L6First(specs, 2.0))
    assert recorded == plain
    assert rows, "deal 1 of seed 21 has decisions where L6's fit straddles zero"
    for r in rows:
        assert r["n"] == 4 and len(r["dt"]) == 4
        assert r["pt"] > 0 >= r["lb"]          # the point estimate says switch, the bound does not


@pytest.mark.parametrize("knobs, says", [("mode=fast", "bayes, pure or record"),
                                         ("at=late", "straddle or risky"),
                                         ("worlds=many", "SL6 knobs"),
                                         ("depth=2", "unknown SL6 knobs: depth"),
                                         ("worlds=1", "at least 2 worlds"),
                                         ("worlds", "name=value: worlds")])
def test_bad_knobs_are_refused_in_one_line(worlds, knobs, says):
    with pytest.raises(SystemExit) as e:
        worlds.make_sl6(knobs, 0)
    assert says in str(e.value) and "\n" not in str(e.value)


def test_the_expected_gain_of_a_noisy_search_matches_its_definition(worlds):
    """E[a; m > c]: with no noise it is E[max(a, 0)]; with endless noise a search
    never leaves a choice that is better on average; between, a simulation agrees."""
    import random
    import statistics

    n = statistics.NormalDist()
    mu, tau = -0.6, 0.55
    perfect = mu * n.cdf(mu / tau) + tau * n.pdf(mu / tau)
    assert worlds.expected_gain(mu, tau * tau, 0.0) == pytest.approx(perfect)
    assert worlds.expected_gain(mu, tau * tau, 1e9) == pytest.approx(0.0, abs=1e-6)
    assert worlds.expected_gain(0.3, 0.0, 1.0) == 0.3       # all alike and better: always switch
    rng = random.Random(8)
    eps2 = 0.4
    c = -mu * eps2 / (tau * tau)
    total = 0.0
    for _ in range(200_000):
        a = rng.gauss(mu, tau)
        if a + rng.gauss(0.0, eps2 ** 0.5) > c:
            total += a
    assert worlds.expected_gain(mu, tau * tau, eps2) == pytest.approx(total / 200_000, abs=0.003)


def test_need_run_again_plays_only_the_deals_its_file_lacks(worlds, tmp_path, monkeypatch):
    """``need --shard`` used to play every deal again on a second run and append it
    twice, so an interrupted run could not be resumed; now it skips the deals its
    file holds, and a cut last line is dropped rather than appended to."""
    import sys
    args = ["worlds.py", "need", "--seed", "21", "--worlds", "2", "--shard", "0/1",
            "--out", str(tmp_path)]
    monkeypatch.setattr(sys, "argv", [*args, "--deals", "1"])
    worlds.main()
    (f,) = tmp_path.glob("need_*/0-of-1.jsonl")
    first = f.read_text()
    f.write_text(first + first[:30])                  # a cut line, as a killed run leaves
    monkeypatch.setattr(sys, "argv", [*args, "--deals", "2"])
    worlds.main()
    lines = f.read_text().splitlines()
    assert [line[:12] for line in lines] == ['{"deal": 0, ', '{"deal": 1, ']
    assert lines[0] + "\n" == first

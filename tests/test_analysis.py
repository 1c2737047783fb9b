"""牌譜分析: the AI reviews a seat's decisions in a game record.

Records are played here by bots (a few hands, fast); every expectation comes from
the rules or from the record itself — which move dealt into a declared hand, which
moves the reference AI itself would have made — never from a past run's numbers.
Few worlds keep it quick: the statistics are checked where they are certain.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from twmahjong.analysis import (AnalysisError, analyze_record, deal_developed, decision_points,
                                review_points, sample_world, passed_waits)
from twmahjong.engine import HandState
from twmahjong.engine.rollout import determinize
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots, play_match


def _record(seed: int, bots: list[str], profile: str = "standard", hands: int = 1) -> dict:
    m = play_match(load_profile(profile), seed=seed, rounds=1, max_hands=hands,
                   bots=make_bots(bots, seed))
    return m.record()


# -- a deal-in to a declared hand is a mistake ----------------------------------------------------

# casual (rules/003) lets a ready hand declare (報聽) at any time. In this game two
# seats have declared when seat 0 (efficiency: it never folds), still one tile from
# ready, throws the tile one of them wins on; gamblers and hermits declare readily.
DEAL_IN = {"seed": 476, "bots": ["efficiency", "gambler", "hermit", "gambler"], "profile": "casual"}


def _deal_in(rec: dict) -> tuple[int, int]:
    """(thrower, index of its discard event) of the first discard won by a seat that
    had declared 聽 before it, read from the record's events alone."""
    declared: set[int] = set()
    events = rec["events"]
    for i, ev in enumerate(events):
        if ev["type"] == "declare":
            declared.add(ev["seat"])
        if ev["type"] == "win" and ev.get("from") is not None and ev["seat"] in declared:
            assert events[i - 1]["type"] == "discard" and events[i - 1]["seat"] == ev["from"]
            return ev["from"], i - 1
    raise AssertionError("the record has no deal-in to a declared hand")


def test_a_throw_into_a_declared_hand_is_flagged():
    rec = _record(DEAL_IN["seed"], DEAL_IN["bots"], DEAL_IN["profile"])
    thrower, event = _deal_in(rec)
    _, points = decision_points(rec, thrower)
    point = next(p for p in points if p.event == event)
    [hand] = review_points([point], bot="L5", worlds=48, seed=0, threshold=20.0)
    [d] = hand.decisions
    assert d.played.type == "discard" and d.played != d.bot
    assert d.mistake and d.loss >= 20.0
    assert hand.costliest()[0] is d


# -- a move the AI makes itself is never a mistake ------------------------------------------------

def test_moves_equal_to_the_ais_flag_nothing():
    # seat 0 is played by the reference bot itself (efficiency decides by its view alone)
    rec = _record(5, ["efficiency", "L3", "L2", "L3"], hands=2)
    review = analyze_record(rec, seat=0, bot="efficiency", worlds=3)
    decisions = [d for h in review.hands for d in h.decisions]
    assert decisions and all(d.played == d.bot for d in decisions)
    assert not any(d.mistake for d in decisions)
    assert review.to_json()["mistakes"] == 0
    # nor costly: following the AI gives nothing away, whatever the rollouts' noise says
    out = review.to_json()
    assert out["total_loss"] == 0 and all(h["costliest"] == [] for h in out["hands"])


def test_the_costliest_decisions_are_moves_not_the_ais():
    """A move the AI would have made was listed among the costliest and summed into
    what the hand gave away (the review's own example: "#7 5z (AI 5z) −36 ± 18"); the
    AI's choice is the reference, so only moves apart from it give points away."""
    from twmahjong.analysis import DecisionReview, HandReview, Review
    from twmahjong.engine.actions import Action

    def decision(n, played, bot, loss):
        return DecisionReview(n=n, hand_no=0, event=n, step=None, turn=n, phase="turn",
                              hand="", drawn=None, played=Action("discard", tile=played),
                              bot=Action("discard", tile=bot), options=[], loss=loss,
                              spread=5.0, mistake=False, worlds=48)
    agree = decision(1, 31, 31, 36.0)            # 5z, the AI's own: the rollouts' best is 8s
    apart = decision(2, 18, 13, 19.0)            # 1s where the AI throws 5p
    hand = HandReview(hand_no=0, dealer=0, decisions=[agree, apart])
    assert hand.costliest() == [apart]
    # read alike at every level (a property, as the decision's is): a method here once
    # made `review.hands[0].given_away` a bound method where a number was meant
    assert hand.given_away == 19.0 and apart.given_away == 19.0 and agree.given_away == 0.0
    mistaken = decision(3, 18, 13, 40.0)
    mistaken.mistake = True
    review = Review(seat=0, bot="L5", worlds=48, seed=0, threshold=20.0, stakes={},
                    hands=[hand, HandReview(hand_no=1, dealer=1, decisions=[mistaken])])
    assert review.given_away == 59.0 and review.mistakes == 1 and hand.mistakes == 0
    assert review.to_json()["total_loss"] == 59.0 and review.to_json()["mistakes"] == 1
    assert hand.to_json()["total_loss"] == 19.0 and hand.to_json()["costliest"] == [2]
    # the row keeps what the rollouts estimate, and says it is the AI's move
    assert hand.to_json()["decisions"][0]["loss"] == 36.0
    assert hand.to_json()["decisions"][0]["agrees"] is True


# -- only the seat's view ---------------------------------------------------------------------------

def _hidden(h, seat):
    return [tuple(st.counts) for s, st in enumerate(h.seats) if s != seat], list(h.wall.kinds)


def _twin(h, seat):
    """The same hand as ``seat`` sees it with every hidden tile somewhere else, and the
    record's hidden parts (the others' dealt hands, their draws) changed too."""
    t = determinize(h, seat, random.Random(99))
    t.events = [dict(ev) for ev in h.events]
    for ev in t.events:
        if ev.get("type") == "deal":
            ev["hands"] = [x if s == seat else "1m" for s, x in enumerate(ev["hands"])]
        if ev.get("type") == "draw" and ev.get("seat") != seat:
            ev["tile"] = "9p"
    return t


def test_the_review_never_reads_the_hidden_tiles():
    rec = _record(11, ["L3", "gambler", "L2", "hermit"], profile="casual")
    seat = 0
    _, points = decision_points(rec, seat)
    points = points[3::4][:4]
    assert points
    twins = []
    for p in points:
        t = _twin(p.state, seat)
        assert t.observation(seat) == p.state.observation(seat)
        assert _hidden(t, seat) != _hidden(p.state, seat)
        twins.append(type(p)(t, p.seat, p.played, p.event, p.step))
    first = [h.to_json() for h in review_points(points, bot="L5", worlds=3, seed=4, threshold=20)]
    again = [h.to_json() for h in review_points(twins, bot="L5", worlds=3, seed=4, threshold=20)]
    assert first == again


def test_a_declared_seat_waits_on_no_tile_it_let_go():
    rec = _record(DEAL_IN["seed"], DEAL_IN["bots"], DEAL_IN["profile"])
    thrower, event = _deal_in(rec)
    _, points = decision_points(rec, thrower)
    h = next(p for p in points if p.event == event).state
    facts = passed_waits(h, thrower)
    assert facts and all(facts.values())
    rng = random.Random(1)
    from twmahjong.bots.reader import read_table
    from twmahjong.bots.view import View
    from twmahjong.engine.observe import LazyObservation
    read = read_table(View.from_observation(LazyObservation(h, thrower)))
    for _ in range(10):
        for r in (None, read):                   # uniform and developed worlds
            w = sample_world(h, thrower, rng, facts, r)
            assert all(not (w.seats[d].waits & kinds) for d, kinds in facts.items())


def test_a_decision_carries_its_own_hands_events_and_a_chosen_hand_alone_is_copied():
    """A copy of the table at a decision holds that hand's events only: copying every
    earlier hand's made a review of a 1,459-hand record (random bots, draws all along)
    spend 291 s replaying it. Asking for one hand copies that hand's decisions only."""
    rec = _record(2, ["L2", "efficiency", "L3", "L2"], hands=3)
    deals = [i for i, e in enumerate(rec["events"]) if e["type"] == "deal"]
    assert len(deals) == 3
    _, points = decision_points(rec, 1)
    assert {p.state.hand_no for p in points} == {0, 1, 2}
    for p in points:
        assert p.state.events == rec["events"][deals[p.state.hand_no]:p.event]
    assert all(p.state.events_start == 0 for p in points)
    _, only = decision_points(rec, 1, hands=[2])
    assert only and [(p.event, p.played) for p in only] == \
        [(p.event, p.played) for p in points if p.state.hand_no == 2]


# -- developed worlds: the opponents' hands as far along as the table shows ---------------------

def _positions(hands=8, every=5):
    """Hands part-played by L2 bots, stopped at some decisions of the seat to act."""
    from twmahjong.bots import make_bot
    from twmahjong.engine.observe import lazy_observation
    for seed in range(hands):
        h = HandState(load_profile("standard"), dealer=seed % 4, seed=700 + seed)
        bots = [make_bot("L2", seed * 4 + s) for s in range(4)]
        n = 0
        while not h.over:
            pend = list(h.pending())
            if h.phase == "turn" and n % every == 0 and n > 12:
                yield h, pend[0]
            n += 1
            for s in pend:
                h.act(s, bots[s].act(lazy_observation(h, s)))


def test_a_developed_world_keeps_what_the_seat_sees_and_deals_ready_hands_as_asked():
    import random

    from twmahjong.engine.rollout import unseen_pool
    rng = random.Random(4)
    asked_ready = asked_not = ready_when_asked = ready_when_not = 0
    for h, seat in _positions():
        for chance in (1.0, 0.0):
            w = deal_developed(h, seat, rng, {s: chance for s in range(4) if s != seat})
            assert w.observation(seat) == h.observation(seat)
            assert sorted(unseen_pool(w, seat)) == sorted(unseen_pool(h, seat))
            for s in range(4):
                assert sum(w.seats[s].counts) == sum(h.seats[s].counts)
                if s == seat or sum(w.seats[s].counts) % 3 != 1 or h.seats[s].declared:
                    continue
                ready = bool(w.seats[s].wait_kinds(w.rules.lilgu))
                if chance:
                    asked_ready += 1
                    ready_when_asked += ready
                else:
                    asked_not += 1
                    ready_when_not += ready
    assert asked_ready > 100
    assert ready_when_asked / asked_ready > 0.95       # the reader says ready: a ready hand
    assert ready_when_not / asked_not < 0.25           # it says not: mostly a hand further off


def test_a_developed_world_depends_only_on_what_the_seat_knows():
    """A hidden tile swapped between an opponent's hand and the wall: the seat cannot
    tell, so the same random stream gives the very same world."""
    import random

    from tests.engine.test_rollout import hidden_swapped
    swapped = 0
    for h, seat in _positions(hands=4):
        alt = hidden_swapped(h, seat)
        if alt is None:
            continue
        ready = {s: 0.5 for s in range(4) if s != seat}
        a = deal_developed(h, seat, random.Random(9), ready)
        b = deal_developed(alt, seat, random.Random(9), ready)
        assert [st.counts for st in a.seats] == [st.counts for st in b.seats]
        assert a.wall.kinds == b.wall.kinds
        swapped += 1
    assert swapped > 10


def test_the_review_deals_developed_worlds_unless_asked_for_uniform_ones():
    rec = _record(2, ["L2", "efficiency", "L3", "L2"])
    dev = analyze_record(rec, seat=1, bot="L2", worlds=2, seed=7).to_json()
    uni = analyze_record(rec, seat=1, bot="L2", worlds=2, seed=7, deal="uniform").to_json()
    assert dev["deal"] == "developed" and uni["deal"] == "uniform"
    # the same decisions and moves, priced in other worlds
    def moves(review):
        return [(d["event"], d["played"], d["bot"]) for h in review["hands"]
                for d in h["decisions"]]

    def priced(review):
        return [d["options"] for h in review["hands"] for d in h["decisions"]]
    assert moves(dev) == moves(uni) and priced(dev) != priced(uni)
    with pytest.raises(AnalysisError, match="deal must be developed or uniform"):
        analyze_record(rec, seat=1, bot="L2", worlds=2, deal="random")


def test_a_developed_world_reads_the_table_as_the_seat_does():
    """The reader says ready: the developed world deals ready hands to those it reads
    so; a seat read as far off gets a hand about as far off — from the seat's view."""
    from twmahjong.analysis import nonready_target
    from twmahjong.bots.reader import read_table
    from twmahjong.bots.view import View
    from twmahjong.engine.observe import LazyObservation
    checked = 0
    for h, seat in _positions(hands=6):
        read = read_table(View.from_observation(LazyObservation(h, seat)))
        w = sample_world(h, seat, random.Random(5), {}, read)
        assert w.observation(seat) == h.observation(seat)
        for s in range(4):
            if s != seat and sum(w.seats[s].counts) % 3 == 1 and read.ready(s) >= 0.999:
                assert w.seats[s].wait_kinds(w.rules.lilgu)
        checked += 1
    assert checked > 10 and nonready_target(0) == 3 and nonready_target(20) == 1


# -- the review's shape, its determinism ------------------------------------------------------------

def test_a_review_is_the_same_for_the_same_seed_and_lists_every_hand():
    rec = _record(2, ["L2", "efficiency", "L3", "L2"], hands=2)
    a = analyze_record(rec, seat=1, bot="L2", worlds=2, seed=7).to_json()
    b = analyze_record(rec, seat=1, bot="L2", worlds=2, seed=7).to_json()
    assert a == b
    assert [h["hand_no"] for h in a["hands"]] == [0, 1]
    assert a["stakes"] == {"base": 100, "per_tai": 20} and a["threshold"] == 20.0
    for h in a["hands"]:
        losses = {d["n"]: d["loss"] for d in h["decisions"]}
        assert all(x >= 0 for x in losses.values())
        apart = {d["n"]: d["loss"] for d in h["decisions"] if not d["agrees"]}
        ranked = sorted((n for n in apart if apart[n] > 0), key=lambda n: (-apart[n], n))
        assert h["costliest"] == ranked[:3]
        assert h["total_loss"] == pytest.approx(sum(apart.values()), abs=0.02)


def test_the_reference_is_the_top_level():
    """The issue: "for each of the person's decisions, the top level's choice" — the
    highest level of the ladder (L6 since it was added above L5), not the level the
    review was written beside."""
    import re

    from twmahjong.analysis import DEFAULT_BOT
    from twmahjong.bots.registry import NAMES
    levels = [n for n in NAMES if re.fullmatch(r"L\d+", n)]
    assert DEFAULT_BOT == max(levels, key=lambda n: int(n[1:])) == "L6"
    rec = _record(2, ["L2"] * 4)
    assert analyze_record(rec, seat=0, worlds=1, hands=[0]).to_json()["bot"] == "L6"


def test_an_unknown_seat_or_bot_is_a_user_error():
    rec = _record(2, ["L2"] * 4)
    with pytest.raises(AnalysisError, match="seat"):
        analyze_record(rec, seat=4)
    with pytest.raises(AnalysisError, match="--seat"):
        analyze_record(rec)                      # a bots' record names no person
    with pytest.raises(Exception, match="unknown bot"):
        analyze_record(rec, seat=0, bot="L99")


def test_a_server_game_defaults_to_the_persons_seat():
    rec = _record(2, ["L2"] * 4)
    doc = {"players": ["bot:L2", "bot:L2", "阿明", "bot:L2"], "record": rec}
    assert analyze_record(doc, bot="L2", worlds=1).seat == 2


# -- the command ------------------------------------------------------------------------------------

def twmj(*args):
    return subprocess.run([sys.executable, "-c", "from twmahjong.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    f = tmp_path_factory.mktemp("analyze") / "game.json"
    f.write_text(json.dumps(_record(2, ["L2", "efficiency", "L3", "L2"])), encoding="utf-8")
    return f


def test_analyze_prints_json_and_a_table(record_file):
    r = twmj("analyze", str(record_file), "--seat", "1", "--bot", "L2", "--worlds", "2", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["format"] == "twmahjong-analysis" and doc["seat"] == 1 and doc["bot"] == "L2"
    d = doc["hands"][0]["decisions"][0]
    assert set(d) == {"n", "event", "step", "turn", "phase", "hand", "drawn", "played", "bot",
                      "agrees", "options", "loss", "spread", "worlds", "mistake", "why"}
    # the coach's words on the AI's move, in both languages (twmahjong.coach)
    assert all(x["why"]["zh"] and x["why"]["en"] for h in doc["hands"] for x in h["decisions"])
    r = twmj("analyze", str(record_file), "--seat", "1", "--bot", "L2", "--worlds", "2",
             "--lang", "en")
    assert r.returncode == 0, r.stderr
    assert "hand 1" in r.stdout and "points given away in all" in r.stdout
    # one and many read as English does, not "1 mistake(s)"
    n = doc["hands"][0]["mistakes"]
    assert f"hand 1: {n} mistake{'' if n == 1 else 's'}, " in r.stdout
    assert "(s)" not in r.stdout
    # the costliest line is there when the JSON names some (moves not the AI's that lost)
    assert ("costliest" in r.stdout) == any(h["costliest"] for h in doc["hands"])
    if any(h["costliest"] for h in doc["hands"]):
        assert " AI: " in r.stdout


def test_analyze_prints_in_zh_tw_by_default_and_in_one_language(record_file):
    r = twmj("analyze", str(record_file), "--seat", "1", "--bot", "L2", "--worlds", "2")
    assert r.returncode == 0, r.stderr
    assert "座位 1 由 L2 檢討" in r.stdout and "第 1 盤（莊：座位" in r.stdout
    assert "次失誤，共少得" in r.stdout
    for english in ("reviewed by", "hand 1", "points given away", "dealer", "costliest",
                    "played", "loss"):
        assert english not in r.stdout, english


def test_an_offline_record_names_the_persons_seat_for_analyze(tmp_path):
    from twmahjong.analysis import plan_record
    from twmahjong.tui.session import PlaySession
    s = PlaySession(load_profile("standard"), bot_names=["L1"] * 3, seed=5, rounds=1,
                    records=tmp_path)
    s.start_hand()
    while not s.hand_over:
        s.act(next(a for a in s.legal() if a.type in ("discard", "pass")))
    s.step()
    rec = json.loads(s.record_path.read_text(encoding="utf-8"))
    assert rec["person"] == 0 and rec["seating"].index(0) == s.seat
    assert plan_record(rec, bot="L1", worlds=1).seat == s.seat      # no --seat needed


@pytest.mark.parametrize("args, says", [
    (["missing.json", "--seat", "0"], "cannot read"),
    (["@notjson", "--seat", "0"], "is not JSON"),
    (["@notrecord", "--seat", "0"], "not a game record"),
    (["@record", "--seat", "5"], "seat must be 0, 1, 2 or 3"),
    (["@record"], "choose one with --seat"),
    (["@record", "--seat", "0", "--bot", "nobody"], "unknown bot 'nobody'"),
    (["@record", "--seat", "0", "--hand", "9"], "no hand 9"),
    (["@broken", "--seat", "0"], "does not replay"),
    (["@record", "--seat", "0", "--deal", "random"], "--deal must be developed or uniform"),
])
def test_bad_input_is_one_line_and_exit_2(args, says, tmp_path, record_file):
    files = {"@notjson": "{not json", "@notrecord": json.dumps({"hello": 1})}
    rec = json.loads(record_file.read_text(encoding="utf-8"))
    rec["events"] = rec["events"][:20] + rec["events"][21:]
    files["@broken"] = json.dumps(rec)
    out = []
    for a in args:
        if a in files:
            f = tmp_path / f"{a[1:]}.json"
            f.write_text(files[a], encoding="utf-8")
            a = str(f)
        elif a == "@record":
            a = str(record_file)
        elif a == "missing.json":
            a = str(tmp_path / a)
        out.append(a)
    r = twmj("analyze", *out)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and says in r.stderr and "Traceback" not in r.stderr
    assert r.stdout == ""


def test_the_docstring_example_runs():
    import doctest

    import twmahjong.analysis as mod
    r = doctest.testmod(mod)
    assert r.failed == 0 and r.attempted > 0

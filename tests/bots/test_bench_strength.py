"""bench/strength.py: a match shared by processes (``--shard I/K``) reports the
same figures as one arena run of the same deals."""

import argparse
import sys

import pytest
from benchmods import load_bench

from twmahjong.bots.arena import run_arena


def test_shards_report_as_one_run(tmp_path, monkeypatch):
    st = load_bench("strength")
    monkeypatch.setattr(st, "OUT", tmp_path)
    seats = "L2,L1,L1,L1"
    st.run(seats, 3, 5, (1, 2))                 # deal 1 only: no complete prefix yet
    assert st.report(seats, 5)["deals"] == 0
    st.run(seats, 3, 5, (0, 2))                 # deals 0 and 2
    rep = st.report(seats, 5)
    arena = run_arena(seats.split(","), deals=3, seed=5)
    assert rep["deals"] == 3
    assert rep["comparisons"] == arena["comparisons"] and rep["bots"] == arena["bots"]


def test_compare_sets_a_run_beside_the_same_match_played_before(tmp_path, monkeypatch):
    """``compare``: the same match in two folders is identical deal by deal
    (difference 0); a first seat that is another bot differs by exactly the
    difference of its mean net points in each deal."""
    st = load_bench("strength")
    seats = "L2,L1,L1,L1"
    before, now = tmp_path / "before", tmp_path / "now"
    monkeypatch.setattr(st, "OUT", before)
    st.run(seats, 3, 5)
    monkeypatch.setattr(st, "OUT", now)
    st.run(seats, 3, 5)
    same = st.compare(seats, 5, before)
    assert same["deals"] == 3 and same["identical_deals"] == 3
    assert same["net_diff"] == 0 and same["tai_diff"] == 0
    # the "before" run's first seat made 100 points more in every play of deal 0
    lines = st.path_for(seats, 5, before).read_text().splitlines()
    import json
    first = json.loads(lines[0])
    for row in first["plays"]:
        for x in row:
            if x[0] == 0:
                x[1] += 100
    lines[0] = json.dumps(first)
    st.path_for(seats, 5, before).write_text("\n".join(lines) + "\n")
    diff = st.compare(seats, 5, before)
    assert diff["identical_deals"] == 2 and abs(diff["net_diff"] - (-100 / 3)) < 1e-9


def test_a_shard_counted_from_one_is_refused_in_one_line(capsys, monkeypatch):
    """``--shard 2/2`` (counting from one) would leave deal 0 unplayed: paired.py
    quietly reported 999 deals of 1,000, and strength.py no complete prefix at all.
    Both now read I/K with 0 <= I < K and refuse anything else, in one line."""
    st = load_bench("strength")
    assert st.shard("0/2") == (0, 2) and st.shard("1/2") == (1, 2)
    for bad, says in (("2/2", "counts I from 0 to K-1"), ("-1/2", "counts I from 0"),
                      ("1/0", "counts I from 0"), ("half", "is I/K")):
        with pytest.raises(argparse.ArgumentTypeError, match=says):
            st.shard(bad)
    paired = load_bench("paired")
    monkeypatch.setattr(sys, "argv", ["paired.py", "--players", "L5", "--shard", "2/2"])
    with pytest.raises(SystemExit) as e:
        paired.main()
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == "paired.py: error: argument --shard: --shard I/K counts I from 0 to K-1, got '2/2'"


def test_a_run_killed_mid_line_resumes_and_reads_every_deal(tmp_path, monkeypatch):
    """A strength run killed while writing leaves a cut last line. Resumed, the old
    reader stopped at the first unreadable line (so deals after it were played
    again) and the run appended its first record to the cut line (so that deal was
    lost). Now an unreadable line is skipped, and the cut tail is dropped before
    appending: the resumed file holds every deal once and reports as one run."""
    st = load_bench("strength")
    seats = "L2,L1,L1,L1"
    monkeypatch.setattr(st, "OUT", tmp_path / "whole")
    st.run(seats, 3, 5)
    lines = st.path_for(seats, 5).read_text().splitlines()
    whole = st.report(seats, 5)
    monkeypatch.setattr(st, "OUT", tmp_path / "cut")
    p = st.path_for(seats, 5)
    p.parent.mkdir()
    p.write_text(lines[0] + "\n" + lines[1][:40])      # killed in deal 1
    st.run(seats, 3, 5)
    assert p.read_text().splitlines() == lines
    assert st.report(seats, 5) == whole
    # a bad line in the middle (a hand-edited file) costs that deal only
    p.write_text(lines[0] + "\n" + "not json\n" + lines[2] + "\n")
    assert sorted(st._read(p)) == [0, 2]

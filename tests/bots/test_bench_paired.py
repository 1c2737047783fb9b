"""bench/paired.py: a player measured in a later run joins the deals of an earlier
one, so a new variant is compared with the players already played on those deals
without playing them again."""

import sys

from benchmods import load_bench


def _run(pa, monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["paired.py", *args])
    pa.main()


def test_a_player_added_later_joins_the_deals_played_before(tmp_path, monkeypatch, capsys):
    pa = load_bench("paired")
    common = ["--against", "L1", "--deals", "2", "--seed", "3", "--out", str(tmp_path)]
    _run(pa, monkeypatch, "--players", "L1", "--shard", "0/1", *common)
    _run(pa, monkeypatch, "--players", "L2", "--shard", "0/1", *common)
    capsys.readouterr()
    _run(pa, monkeypatch, "--players", "L1,L2", *common)
    out = capsys.readouterr().out
    assert out.startswith("2 deals against three L1, seed 3")
    together = tmp_path / "together"
    _run(pa, monkeypatch, "--players", "L1,L2", "--shard", "0/1", *common[:-1], str(together))
    capsys.readouterr()
    _run(pa, monkeypatch, "--players", "L1,L2", *common[:-1], str(together))
    assert capsys.readouterr().out == out     # the same figures as both played in one run


def test_a_shard_run_again_with_more_deals_plays_only_the_new_ones(tmp_path, monkeypatch, capsys):
    pa = load_bench("paired")
    common = ["--players", "L1,L2", "--against", "L1", "--seed", "3"]
    _run(pa, monkeypatch, *common, "--deals", "2", "--shard", "0/1", "--out", str(tmp_path / "a"))
    _run(pa, monkeypatch, *common, "--deals", "3", "--shard", "0/1", "--out", str(tmp_path / "a"))
    lines = (tmp_path / "a" / "L1_s3.0-of-1.jsonl").read_text().splitlines()
    assert len(lines) == 3                       # deals 0 and 1 once each, then deal 2
    _run(pa, monkeypatch, *common, "--deals", "3", "--shard", "0/1", "--out", str(tmp_path / "b"))
    capsys.readouterr()
    _run(pa, monkeypatch, *common, "--deals", "3", "--out", str(tmp_path / "a"))
    extended = capsys.readouterr().out
    _run(pa, monkeypatch, *common, "--deals", "3", "--out", str(tmp_path / "b"))
    assert extended.startswith("3 deals") and capsys.readouterr().out == extended


def test_a_shard_killed_mid_line_resumes_without_losing_a_deal(tmp_path, monkeypatch, capsys):
    """A run killed while writing leaves its last line cut short. Resumed, it used
    to append its first record to that cut line, so the record was unreadable and
    the deal was lost once more; now the cut tail is dropped before appending."""
    pa = load_bench("paired")
    common = ["--players", "L1", "--against", "L1", "--seed", "3", "--deals", "3"]
    _run(pa, monkeypatch, *common, "--shard", "0/1", "--out", str(tmp_path / "whole"))
    capsys.readouterr()
    _run(pa, monkeypatch, *common, "--out", str(tmp_path / "whole"))
    whole = capsys.readouterr().out
    f = tmp_path / "cut" / "L1_s3.0-of-1.jsonl"
    f.parent.mkdir()
    lines = (tmp_path / "whole" / "L1_s3.0-of-1.jsonl").read_text().splitlines()
    f.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])   # killed in deal 1
    _run(pa, monkeypatch, *common, "--shard", "0/1", "--out", str(tmp_path / "cut"))
    assert f.read_text().splitlines() == lines                     # each deal once, all readable
    capsys.readouterr()
    _run(pa, monkeypatch, *common, "--out", str(tmp_path / "cut"))
    assert capsys.readouterr().out == whole


def test_a_player_at_a_mixed_table_plays_the_deals_strength_py_plays(tmp_path, monkeypatch):
    """``--against efficiency,L2,L5`` seats three different bots. The player in the
    first seat must then play exactly the first seat of ``strength.py run
    PLAYER,efficiency,L2,L5`` on the same deals, so a variant is measured at a mixed
    table in the same seat of the same deals as the shipped bot."""
    import json

    st = load_bench("strength")
    pa = load_bench("paired")
    monkeypatch.setattr(st, "OUT", tmp_path / "arena")
    st.run("L2,L1,efficiency,L1", 2, 5)
    want = [st._first_seat(d) for d in st._deals("L2,L1,efficiency,L1", 5)]
    _run(pa, monkeypatch, "--players", "L2", "--against", "L1,efficiency,L1", "--deals", "2",
         "--seed", "5", "--shard", "0/1", "--out", str(tmp_path / "paired"))
    f = tmp_path / "paired" / "L1-efficiency-L1_s5.0-of-1.jsonl"
    got = [json.loads(line)["res"]["L2"] for line in f.read_text().splitlines()]
    assert [(net, tai) for tai, net in got] == want


def test_bad_opponents_are_refused_in_one_line(monkeypatch, capsys):
    import pytest
    pa = load_bench("paired")
    for bad, says in (("L5,L5", "one bot or three"), ("L5,,L5", "one bot or three"),
                      ("L9", "no bot called 'L9'")):
        monkeypatch.setattr(sys, "argv", ["paired.py", "--players", "L5", "--against", bad])
        with pytest.raises(SystemExit) as e:
            pa.main()
        assert e.value.code == 2
        assert says in capsys.readouterr().err.strip().splitlines()[-1]

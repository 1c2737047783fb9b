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

"""bench/strength.py: a match shared by processes (``--shard I/K``) reports the
same figures as one arena run of the same deals."""

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

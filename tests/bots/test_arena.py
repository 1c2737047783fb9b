"""The arena: report fields, determinism for a seed, duplicate rotation."""

import json

import pytest

from twmahjong.bots.arena import ArenaError, run_arena, summarise

FIELDS = {"win_rate", "deal_in_rate", "self_draw_rate", "avg_tai_per_win", "net_per_hand",
          "net_ci95", "hands", "tai_per_hand", "tai_ci95"}


def test_small_duplicate_run_reports_every_field_and_replays():
    a = run_arena(["L2", "L1", "random", "efficiency"], deals=3, seed=5, duplicate=True)
    b = run_arena(["L2", "L1", "random", "efficiency"], deals=3, seed=5, duplicate=True)
    assert a == b
    assert a["hands"] == 12                       # 3 deals x 4 rotations
    for name in ("L2", "L1", "random", "efficiency"):
        assert FIELDS <= set(a["bots"][name])
        assert a["bots"][name]["hands"] == 12     # every bot sat in every seat
        lo, hi = a["bots"][name]["net_ci95"]
        assert lo <= a["bots"][name]["net_per_hand"] <= hi
    # money only moves between seats (no fee in the standard profile)
    total = sum(b["net_per_hand"] * b["hands"] for b in a["bots"].values())
    assert total == pytest.approx(0.0, abs=1e-6)
    assert [c["b"] for c in a["comparisons"]] == ["L1", "random", "efficiency"]
    json.dumps(a)


def test_workers_do_not_change_the_result():
    one = run_arena(["L1", "random", "random", "L1"], deals=2, seed=9, duplicate=True, workers=1)
    two = run_arena(["L1", "random", "random", "L1"], deals=2, seed=9, duplicate=True, workers=2)
    assert one == two


def test_another_seed_gives_other_walls():
    a = run_arena(["L1", "L1", "L1", "L1"], deals=2, seed=1)
    b = run_arena(["L1", "L1", "L1", "L1"], deals=2, seed=2)
    assert a["bots"]["L1"]["net_ci95"] != b["bots"]["L1"]["net_ci95"] or a["draw_rate"] != b["draw_rate"]


def test_statistics_on_known_numbers():
    # Two deals: L2 nets +100 and +300 per hand, L1 the mirror. Mean +200; the
    # per-deal sd is 141.42, so the interval is 200 +- 1.96 * 141.42 / sqrt(2) = 200 +- 196.
    row = lambda x: [(0, x, 1.0, True, False, False, 1), (1, -x, -1.0, False, True, False, 0),
                     (2, 0, 0.0, False, False, False, 0), (3, 0, 0.0, False, False, False, 0)]
    r = summarise(["L2", "L1", "L1", "L1"], [[row(100)], [row(300)]])
    assert r["bots"]["L2"]["net_per_hand"] == 200
    assert r["bots"]["L2"]["net_ci95"] == pytest.approx([4.0, 396.0])
    assert r["bots"]["L2"]["win_rate"] == 1.0
    assert r["bots"]["L1"]["deal_in_rate"] == pytest.approx(1 / 3)


def test_bad_seats_are_user_errors():
    with pytest.raises(ArenaError, match="unknown seat"):
        run_arena(["L9", "L1", "L1", "L1"], deals=1)
    with pytest.raises(ArenaError, match="four seats"):
        run_arena(["L1", "L1"], deals=1)

"""`twmj arena` and `twmj bots` through the real entry point."""

import json
import sys
from pathlib import Path

import pytest
import typer

from twmahjong import cli, commands

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pipe_bot.py"


@pytest.fixture
def twmj(monkeypatch, capsys):
    app = typer.Typer(name="twmj", no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False)
    app.callback()(lambda: None)
    monkeypatch.setattr(cli, "app", app)
    monkeypatch.setattr(commands, "MODULES", ["arena", "bots"])

    def run(*args):
        try:
            cli.main(list(args))
            code = 0
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_arena_json_report(twmj):
    code, out, _ = twmj("arena", "--hands", "2", "--seed", "4", "--seats", "L3,L1,random,efficiency",
                        "--duplicate", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["hands"] == 8 and r["deals"] == 2 and r["duplicate"] is True
    assert set(r["bots"]) == {"L3", "L1", "random", "efficiency"}
    assert {"win_rate", "deal_in_rate", "self_draw_rate", "avg_tai_per_win", "net_per_hand",
            "net_ci95"} <= set(r["bots"]["L3"])


def test_arena_with_the_example_pipe_bot(twmj):
    seat = f"pipe:{sys.executable} {EXAMPLE}"
    code, out, _ = twmj("arena", "--hands", "1", "--seats", f"{seat},L1,L1,L1", "--duplicate", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["bots"][seat]["hands"] == 4


def test_the_arena_table_reads_whole_in_80_columns(twmj, monkeypatch):
    """Nine columns at 80 cut every header ("deal-…", "net/h…") and gave a pipe bot's
    name no room at all; the figures are the JSON's, the intervals as ± half-widths."""
    monkeypatch.setenv("COLUMNS", "80")
    seat = f"pipe:{sys.executable} {EXAMPLE}"
    code, out, _ = twmj("arena", "--hands", "2", "--seats", f"{seat},L1,L1,L1")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out
    for word in ("hands", "win", "deal", "self", "台/win", "net/hand", "台/hand", "± 95%"):
        assert word in out, word
    code, js, _ = twmj("arena", "--hands", "2", "--seats", f"{seat},L1,L1,L1", "--json")
    l1 = json.loads(js)["bots"]["L1"]
    row = next(line for line in lines if line.split()[:1] == ["L1"])
    lo, hi = l1["tai_ci95"]
    assert f"{l1['tai_per_hand']:+.3f} ± {(hi - lo) / 2:.3f}" in row
    assert f"{l1['win_rate']:.1%}" in row


def test_unknown_seat_is_one_line_not_a_traceback(twmj):
    code, _, err = twmj("arena", "--hands", "1", "--seats", "L1,L1,L1,grandmaster")
    assert code == 2
    assert "unknown seat 'grandmaster'" in err and "Traceback" not in err


def test_bots_lists_levels_and_personalities(twmj):
    code, out, _ = twmj("bots", "--json")
    assert code == 0
    r = json.loads(out)
    assert [lv["id"] for lv in r["levels"]] == ["L1", "L2", "L3", "L4", "L5", "L6"]
    assert len(r["personalities"]) == 16
    assert {"id", "zh", "en", "tier", "description", "description_zh"} <= set(r["personalities"][0])
    # every personality has its one line in both languages: English, and zh-TW in CJK
    for p in r["personalities"]:
        assert p["description"].isascii() or "清一色" in p["description"] or "中發白" in p["description"] \
            or "門清" in p["description"]
        assert any("\u4e00" <= ch <= "\u9fff" for ch in p["description_zh"])
        assert p["description_zh"] != p["description"]


def test_bots_table_shows_the_zh_style_column(twmj):
    code, out, _ = twmj("bots")
    assert code == 0
    assert "風格" in out and "攻守平衡有" in out
    assert "…" not in out            # a narrow terminal folds the zh-TW line, never cuts it


def test_bots_table_gives_the_styles_room_at_80_columns(twmj, monkeypatch):
    """Six columns left each style a dozen characters wide: 'Claims every' and 'pung he
    can,' stood on two lines of a six-line row."""
    from rich.cells import cell_len
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = twmj("bots")
    assert code == 0
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    assert "Claims every pung he can" in out and "能碰就碰，不管代價。" in out

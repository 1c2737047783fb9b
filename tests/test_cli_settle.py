"""`twmj settle` driven through the real entry point (``twmahjong.cli.main``).

Amounts at stakes 100/20: t 台 cost 100 + 20·t; the dealer's 台 (1 + 2N) only
between the dealer and each other seat (rules/001 作莊, 連N拉N).
"""

import io
import json
import sys
from types import ModuleType, SimpleNamespace as NS

import pytest
import typer

from twmahjong import cli, commands

HAND = {"winning": True, "tai": 3, "split": [],
        "patterns": [{"id": "seat_flower", "zh": "花牌", "en": "Seat flower", "tai": 1},
                     {"id": "seat_wind", "zh": "門風刻", "en": "Seat wind", "tai": 1},
                     {"id": "dragon_pung", "zh": "箭字刻", "en": "Dragon pung", "tai": 1}]}
SELF_DRAWN = {"winning": True, "tai": 2, "patterns": [{"id": "self_draw", "tai": 1},
                                                      {"id": "seat_wind", "tai": 1}]}
DEALER_HAND = {"winning": True, "tai": 7,
               "patterns": [{"id": "dealer", "tai": 1}, {"id": "dealer_streak", "tai": 2},
                            {"id": "half_flush", "tai": 4}]}


@pytest.fixture
def twmj(monkeypatch, capsys):
    """Run ``twmj <args>`` in-process with ``stdin``; returns (exit code, stdout, stderr).

    Only this command is registered, on a fresh app that always has subcommands."""
    app = typer.Typer(name="twmj", no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False)
    app.callback()(lambda: None)
    monkeypatch.setattr(cli, "app", app)
    monkeypatch.setattr(commands, "MODULES", ["settle"])

    def run(*args, stdin=""):
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        try:
            cli.main(["settle", *args])
            code = 0
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return code, out, err
    return run


def test_deal_in_json(twmj):
    # Seat 1 wins 3 台 off seat 2, dealer seat 0 untouched: 100 + 60 = 160.
    code, out, err = twmj("--winner", "1", "--from", "2", "--stakes", "100/20", "--json",
                          stdin=json.dumps(HAND))
    assert (code, err) == (0, "")
    got = json.loads(out)
    assert got["net"] == [0, 160, -160, 0]
    assert got["transfers"] == [{"payer": 2, "payee": 1, "amount": 160, "reason": "deal_in",
                                 "tai": 3, "owed": 160}]
    assert got["fee"] == 0


def test_self_draw_table_with_dealer_streak(twmj):
    # Seat 1 self-draws 3 台, dealer seat 0 on 連2拉2 (5 台): dealer 260, others 160.
    code, out, err = twmj("--winner", "1", "--dealer", "0", "--streak", "2", "--stakes", "100/20",
                          stdin=json.dumps(HAND))
    assert (code, err) == (0, "")
    assert "自摸" in out
    rows = [line for line in out.splitlines() if "seat" in line]
    assert any("260" in r and "seat 0 莊" in r for r in rows)
    assert any("+580" in r for r in rows)
    assert sum("-160" in r for r in rows) == 2


def test_dealer_hand_from_result_file(twmj, tmp_path):
    # Dealer seat 2 on 連1拉1 wins 4 + 3 台 off seat 3: 100 + 7·20 = 240; streak read off
    # the scored hand.
    path = tmp_path / "result.json"
    path.write_text(json.dumps(DEALER_HAND), encoding="utf-8")
    code, out, err = twmj("--result", str(path), "--winner", "2", "--dealer", "2", "--from", "3",
                          "--stakes", "100/20", "--json")
    assert code == 0, err
    assert json.loads(out)["net"] == [0, 0, 240, -240]


def test_stakes_default_to_the_profile(twmj):
    # standard profile stakes are 100/20 (profiles/standard.toml), no fee.
    code, out, err = twmj("--winner", "1", "--from", "2", "--json", stdin=json.dumps(HAND))
    assert code == 0, err
    assert json.loads(out)["net"] == [0, 160, -160, 0]


def test_casual_profile_fee_and_cap(twmj):
    # casual: 活動費 5% (rules/003). Self-draw by seat 1, no streak: dealer 180, others 160.
    # Carried: seat 3 only 100 → pays 100; winner gains 180 + 160 + 100 = 440, fee 22.
    code, out, err = twmj("--winner", "1", "--profile", "casual", "--stakes", "100/20",
                          "--carried", "1000,1000,1000,100", "--json", stdin=json.dumps(HAND))
    assert code == 0, err
    got = json.loads(out)
    assert got["fee"] == 22
    assert got["net"] == [-180, 418, -160, -100]
    assert {"payer": 1, "payee": None, "amount": 22, "reason": "fee", "tai": None,
            "owed": None} in got["transfers"]


def test_fee_option_overrides(twmj):
    code, out, err = twmj("--winner", "1", "--from", "2", "--stakes", "100/20", "--fee", "0.1",
                          "--json", stdin=json.dumps(HAND))
    assert code == 0, err
    assert json.loads(out)["net"] == [0, 144, -160, 0]


def test_seven_rob_one_with_bloom(twmj):
    # 七搶一 form 2 ending in 槓上開花: three pay hand 6 台 as a self-draw, the robbed
    # seat 2 adds the 8 台: dealer 0: 240, seat 3: 220, seat 2: 380.
    result = {"winning": True, "tai": 14, "patterns": [
        {"id": "seven_rob_one", "tai": 8}, {"id": "kong_bloom", "tai": 1},
        {"id": "self_draw", "tai": 1}, {"id": "all_pungs", "tai": 4}]}
    code, out, err = twmj("--winner", "1", "--robbed", "2", "--stakes", "100/20", "--json",
                          stdin=json.dumps(result))
    assert code == 0, err
    assert json.loads(out)["net"] == [-240, 840, -380, -220]


def test_hand_is_scored_first(twmj, tmp_path, monkeypatch):
    # --hand hands the formats.md JSON to scoring.HandSpec.from_json and scoring.score
    # with the hand's profile; the hand's dealer_streak is the table's streak.
    seen = {}
    fake = ModuleType("twmahjong.scoring")

    class HandSpec:
        @classmethod
        def from_json(cls, obj):
            seen["hand"] = obj
            return NS(self_drawn=obj["self_drawn"])

    def score(spec, profile):
        seen["score"] = profile.id
        first = NS(id="self_draw" if spec.self_drawn else "seat_wind", tai=1)
        return NS(winning=True, tai=3, patterns=(first, NS(id="half_flush", tai=2)))
    fake.HandSpec, fake.score = HandSpec, score
    monkeypatch.setitem(sys.modules, "twmahjong.scoring", fake)
    hand = {"profile": "classic", "concealed": "123m", "self_drawn": True, "dealer": False,
            "dealer_streak": 1}
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand), encoding="utf-8")
    code, out, err = twmj("--hand", str(path), "--winner", "3", "--stakes", "100/20", "--json")
    assert code == 0, err
    assert seen == {"hand": hand, "score": "classic"}
    # Self-draw by seat 3, dealer seat 0 on 連1拉1: dealer 100 + 6·20 = 220, others 160.
    assert json.loads(out)["net"] == [-220, -160, -160, 540]
    # The hand says self-drawn: naming a discarder would charge one seat for a self-draw.
    code, out, err = twmj("--hand", str(path), "--winner", "3", "--from", "1")
    assert code == 2 and "drop --from 1" in err
    # Won on a discard: without --from it would charge all three.
    path.write_text(json.dumps(dict(hand, self_drawn=False)), encoding="utf-8")
    code, out, err = twmj("--hand", str(path), "--winner", "3")
    assert code == 2 and "--from" in err
    code, out, err = twmj("--hand", str(path), "--winner", "3", "--from", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["net"] == [0, -160, 0, 160]


@pytest.mark.parametrize("args, stdin, says", [
    (["--winner", "1", "--stakes", "100"], HAND, "100/20"),
    (["--winner", "1", "--stakes", "100/0"], HAND, "100/20"),
    (["--winner", "1", "--stakes", "a/b"], HAND, "100/20"),
    (["--winner", "1", "--stakes", "-5/20"], HAND, "100/20"),
    (["--winner", "4"], HAND, "--winner must be a seat 0-3"),
    (["--winner", "x"], HAND, "--winner must be a seat 0-3"),
    (["--winner", "1", "--from", "-1"], HAND, "--from must be a seat 0-3"),
    (["--winner", "1", "--dealer", "7"], HAND, "--dealer must be a seat 0-3"),
    (["--winner", "1", "--robbed", "9"], HAND, "--robbed must be a seat 0-3"),
    (["--winner", "1", "--from", "1"], HAND, "--from 1 is the winner"),
    (["--from", "1"], HAND, "--winner"),
    (["--winner", "1"], "{not json", "stdin: not valid JSON"),
    (["--winner", "1"], "[1, 2]", "expected one JSON object"),
    (["--winner", "1"], {"winning": True, "patterns": []}, '"tai"'),
    (["--winner", "1"], {"tai": 3, "patterns": [{"id": "x"}]}, '"patterns"'),
    (["--winner", "1"], {"winning": False, "tai": 0, "patterns": []}, "does not win"),
    (["--winner", "0"], HAND, "does not count 作莊"),
    (["--winner", "1"], DEALER_HAND, "not the dealer"),
    (["--winner", "1", "--from", "2"], SELF_DRAWN, "self-drawn"),
    (["--winner", "1", "--carried", "1,2,3"], HAND, "--carried"),
    (["--winner", "1", "--carried", "1,2,x,4"], HAND, "--carried"),
    (["--winner", "1", "--fee", "2"], HAND, "fee rate"),
    (["--winner", "1", "--fee", "abc"], HAND, "fee rate"),
    (["--winner", "1", "--streak", "x"], HAND, "--streak"),
    (["--winner", "1", "--result", "/nonexistent/r.json"], "", "cannot read"),
    (["--winner", "1", "--profile", "nosuch"], HAND, "nosuch"),
])
def test_bad_input_is_one_line_exit_2(twmj, args, stdin, says):
    text = stdin if isinstance(stdin, str) else json.dumps(stdin)
    code, out, err = twmj(*args, stdin=text)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("twmj: error: ")
    assert says in err

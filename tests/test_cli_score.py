"""`twmj score` and `twmj profiles` driven as a player would: a real process, JSON on
stdin, one JSON line out; bad input gives exit 2 and one line on stderr, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GOOD = {"profile": "standard", "concealed": "123m456p789s22z55s",
        "melds": [{"type": "pon", "tiles": "777p"}], "flowers": "", "win_tile": "2z",
        "self_drawn": False, "seat_wind": "E", "round_wind": "S", "dealer": False,
        "dealer_streak": 0, "conditions": []}


def twmj(*args, stdin=""):
    return subprocess.run([sys.executable, "-c", "from twmahjong.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_score_json_line():
    r = twmj("score", stdin=json.dumps(GOOD))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("\n") == 1
    # 222z is the round wind (S): 圈風刻1; 對碰 wait, pon 777p: nothing else
    assert json.loads(r.stdout) == {"winning": True, "tai": 1, "patterns": [
        {"id": "round_wind", "zh": "圈風刻", "en": "Round wind pung", "tai": 1}],
        "split": ["123m", "456p", "789s", "222z", "777p", "55s"]}
    assert "圈風刻" in r.stdout        # ensure_ascii=False


def test_score_from_file_and_profile_option(tmp_path):
    f = tmp_path / "hand.json"
    f.write_text(json.dumps({**GOOD, "seat_wind": "S"}), encoding="utf-8")
    r = twmj("score", "--hand", str(f), "--profile", "casual")
    # casual has no 圈風; seat S: 風牌1
    assert json.loads(r.stdout)["tai"] == 1 and json.loads(r.stdout)["patterns"][0]["id"] == "seat_wind"


def test_score_pretty_table():
    r = twmj("score", "--pretty", stdin=json.dumps(GOOD))
    assert r.returncode == 0
    assert "圈風刻" in r.stdout and "Total" in r.stdout and "222z" in r.stdout


def test_not_winning_is_an_answer_not_an_error():
    r = twmj("score", stdin=json.dumps({**GOOD, "concealed": "123m456p789s23z55s"}))
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["winning"] is False and out["reason"]


@pytest.mark.parametrize("stdin, words", [
    pytest.param(json.dumps({**GOOD, "concealed": "123m456p789s1122z55s"}), "counts 19 tiles",
                 id="formats_md_example_19_tiles"),
    pytest.param("{not json", "not valid JSON", id="not_json"),
    pytest.param(json.dumps({**GOOD, "concealed": "123q"}), "concealed:", id="bad_notation"),
    pytest.param(json.dumps({**GOOD, "conditions": ["yakuman"]}), "unknown condition", id="unknown_condition"),
    pytest.param(json.dumps({**GOOD, "profile": "riichi"}), "unknown profile", id="unknown_profile"),
    pytest.param(json.dumps({**GOOD, "melds": [{"type": "pon", "tiles": "778p"}]}), "not three of a kind",
                 id="impossible_meld"),
    pytest.param(json.dumps({**GOOD, "round_wind": "Q"}), "round_wind", id="bad_wind"),
])
def test_bad_input_exit_2_one_line(stdin, words):
    r = twmj("score", stdin=stdin)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_profiles_list_and_show():
    r = twmj("profiles", "--json")
    rows = json.loads(r.stdout)
    assert [x["id"] for x in rows] == ["standard", "classic", "casual"]
    assert [x["patterns"] for x in rows] == [37, 38, 35]     # scoring.md columns without '—'
    r = twmj("profiles")
    assert r.returncode == 0 and "標準競技" in r.stdout and "rules/003" in r.stdout
    r = twmj("profiles", "show", "classic")
    assert r.returncode == 0 and "地聽一發" in r.stdout and "play.passed_pon" in r.stdout
    shown = json.loads(twmj("profiles", "show", "casual", "--json").stdout)
    assert shown["patterns"]["heavenly_win"]["tai"] == 24 and shown["settlement"]["fee_rate"] == 0.05


def test_profiles_show_bad_file(tmp_path):
    f = tmp_path / "casual.toml"
    f.write_text('extends = "casual"\n[play]\ndead_wal = 8\n', encoding="utf-8")
    r = twmj("profiles", "show", str(f))
    assert r.returncode == 2
    assert r.stderr.strip() == "twmj: error: casual.toml: play.dead_wal: unknown key"

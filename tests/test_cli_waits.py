"""`twmj waits`: the waits of a hand as a player reads them, and errors as one line."""

import json
import subprocess
import sys

import typer
from typer.testing import CliRunner

from twmahjong.commands import waits as waits_cmd

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    waits_cmd.register(app)

    @app.callback()
    def _root() -> None:     # keep "waits" a subcommand, as under twmj
        pass
    return app


def run(*args: str):
    return runner.invoke(_app(), ["waits", *args])


def test_json_lists_two_sided_waits():
    r = run("23m456m678p234s567s99p", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {
        "waits": [{"tile": "1m", "shapes": ["open"]}, {"tile": "4m", "shapes": ["open"]},
                  {"tile": "7m", "shapes": ["open"]}],
        "single_wait": False, "shanten": 0}


def test_table_names_tiles_and_shapes_in_chinese():
    r = run("12m456m678p234s567s99p")
    assert r.exit_code == 0, r.output
    assert "三萬" in r.output and "邊張" in r.output and "獨聽" in r.output


def test_12234_shows_both_readings():
    out = json.loads(run("12234m789p234s567s99p", "--json").output)
    assert out["waits"] == [{"tile": "3m", "shapes": ["edge", "closed"]}]
    assert out["single_wait"] is True


def test_meld_holding_the_fourth_copy_removes_the_wait():
    alone = json.loads(run("1m456p789p234s", "--json").output)
    assert alone["waits"] == [{"tile": "1m", "shapes": ["single"]}]
    melded = json.loads(run("1m456p789p234s", "--meld", "111m", "--meld", "999s", "--json").output)
    assert melded["waits"] == []


def test_not_ready_prints_shanten():
    r = run("19m19p19s1234567z")
    assert r.exit_code == 0
    assert "8" in r.output and "未聽牌" in r.output
    assert json.loads(run("19m19p19s1234567z", "--json").output)["shanten"] == 8


def _twmj(*args: str) -> subprocess.CompletedProcess:
    code = "import sys; from twmahjong.cli import main; main(sys.argv[1:])"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True)


def test_bad_notation_is_one_line_exit_2():
    r = _twmj("waits", "12x")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "suit letter" in r.stderr


def test_wrong_size_is_a_clear_error():
    r = _twmj("waits", "123m456p")
    assert r.returncode == 2
    assert "3k+1" in r.stderr and "6" in r.stderr


def test_bad_meld_is_a_clear_error():
    r = _twmj("waits", "1m456p789p234s", "--meld", "124m")
    assert r.returncode == 2
    assert "meld" in r.stderr

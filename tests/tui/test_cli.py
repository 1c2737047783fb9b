"""`twmj play` refuses bad options with one line and exit code 2, before any screen."""

from __future__ import annotations

import pytest

from twmahjong.cli import main
from twmahjong.commands.play import default_bot, parse_bots


@pytest.mark.parametrize("argv, message", [
    (["play", "--rounds", "17"], "--rounds must be 1 to 16"),
    (["play", "--rounds", "0"], "--rounds must be 1 to 16"),
    (["play", "--bots", "L3,nobody,L3"], "unknown bot 'nobody'"),
    (["play", "--bots", "L3,L3"], "--bots needs three names"),
    (["play", "--profile", "no-such-profile"], "unknown profile"),
    (["play", "--lang", "fr"], "--lang must be zh or en"),
])
def test_bad_options_are_one_line_and_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err and err.startswith("twmj: error:")


def test_one_bot_name_fills_the_three_chairs_and_the_default_is_a_level():
    assert parse_bots("L2") == ["L2", "L2", "L2"]
    assert parse_bots(None) == [default_bot()] * 3
    assert default_bot() in ("L4", "L3", "L2", "L1", "efficiency", "random")

"""`twmj --help`: each command's summary reads as one sentence at 80 columns."""

import inspect

import typer.main
from typer.testing import CliRunner

from twmahjong.cli import _register, app

_register()


def _commands():
    root = typer.main.get_command(app)
    for name, cmd in root.commands.items():
        yield name, cmd
        for sub, c in getattr(cmd, "commands", {}).items():
            yield f"{name} {sub}", c


def test_every_summary_is_one_paragraph_line():
    """Typer's help keeps the line breaks of a docstring's first paragraph: arena's
    summary broke after 'rates,' and went on at the start of the next line."""
    broken = [name for name, cmd in _commands()
              if "\n" in inspect.cleandoc(cmd.help or "").split("\n\n")[0]]
    assert broken == []


def test_the_command_list_fits_80_columns():
    r = CliRunner().invoke(app, ["--help"], terminal_width=80, env={"COLUMNS": "80"})
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert any(line.lstrip("│ ").startswith("arena") for line in lines)
    assert max(len(line) for line in lines) <= 80


def test_a_flag_is_not_shown_as_taking_a_value():
    """Typer 0.29 prints every flag with a type (`--json <bool>`, `--help <bool>`),
    which reads as if the flag wanted a value; `twmj analyze x --json true` would
    then fail on the stray "true". A flag's row names no type."""
    for name, cmd in _commands():
        if not getattr(cmd, "params", None):
            continue
        r = CliRunner().invoke(app, [*name.split(), "--help"], terminal_width=100,
                               env={"COLUMNS": "100"})
        assert r.exit_code == 0, name
        flags = [line for line in r.output.splitlines()
                 if "--help" in line or "--json " in line]
        assert flags, name
        assert not [line for line in flags if "bool" in line], (name, flags)


def test_no_help_line_is_cut_short_at_80_columns():
    """Rich measures a line with Chinese in it a little long and cuts the row with
    '…' instead of wrapping it: `twmj play --help` read "搬風 befor…"."""
    cut = []
    for name, cmd in _commands():
        r = CliRunner().invoke(app, [*name.split(), "--help"], terminal_width=80,
                               env={"COLUMNS": "80"})
        assert r.exit_code == 0, name
        cut += [(name, line) for line in r.output.splitlines()
                if line.rstrip(" │").endswith("…")]
    assert cut == []

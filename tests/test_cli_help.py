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

"""`twmj verify FILE` — check a finished online game's fairness from its record.

FILE is what ``GET /api/v1/games/<id>`` returns. Exits 0 with a summary when the
match seed matches the commitment shown at the table, every wall derives from it
and matches its deal's commitment, and every move replays; otherwise exits 2 with
one line naming the first break.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from ..server.play.fairness import FairnessError


def register(app: typer.Typer) -> None:
    app.command("verify", help="Check a finished game's record: seed commitment, walls, moves.")(
        verify_command)


def verify_command(
    file: Path = typer.Argument(..., metavar="FILE",
                                help="The game as GET /api/v1/games/<id> gives it (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> None:
    from ..server.play.fairness import verify
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise FairnessError(f"cannot read {file}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise FairnessError(f"{file} is not JSON: {e.msg} at line {e.lineno}") from None
    out = verify(doc)
    if as_json:
        typer.echo(json.dumps({"ok": True, **out}))
        return
    Console(highlight=False).print(
        f"[green]fair[/green]: game {out['game_id']}: the match seed matches the commitment "
        f"shown at the table; {out['walls']} of {out['hands']} walls derive from it and match "
        f"their deal's commitment; every move replays")

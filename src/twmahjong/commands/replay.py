"""`twmj replay FILE` — re-run a game record through the engine.

Exits 0 and prints the result when every event is what the rules and the seed
give; otherwise exits 2 with one line naming the first bad event.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from ..engine.record import ReplayError


def register(app: typer.Typer) -> None:
    app.command("replay", help="Re-run a game record (牌譜) and check every event against the rules.")(
        replay_command)


def replay_command(
    file: Path = typer.Argument(..., metavar="FILE", help="A game record (JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
) -> None:
    from ..engine.record import replay

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as e:
        raise ReplayError(None, f"cannot read {file}: {e.strerror}") from None
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(None, f"{file} is not JSON: {e.msg} at line {e.lineno}") from None
    m = replay(rec)
    wins = sum(1 for r in m.results if r["type"] == "win")
    out = {"ok": True, "hands": m.hand_no, "wins": wins, "drawn_hands": m.hand_no - wins,
           "scores": m.scores, "events": len(m.events)}
    if as_json:
        typer.echo(json.dumps(out))
        return
    c = Console(highlight=False)
    c.print(f"[green]consistent[/green]: {m.hand_no} hands ({wins} won, {m.hand_no - wins} drawn), "
            f"{len(m.events)} events")
    c.print("scores by seat: " + "  ".join(f"{s}: {v:+d}" for s, v in enumerate(m.scores)))

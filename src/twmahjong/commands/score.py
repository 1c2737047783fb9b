"""`twmj score` — 計台 for one hand given as formats.md's JSON (stdin or ``--hand FILE``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from ..profiles import load_profile
from ..scoring import HandSpec, ScoreInputError, score


def _read(hand: Optional[Path]) -> dict:
    if hand is None:
        text = sys.stdin.read()
        where = "stdin"
    else:
        try:
            text = hand.read_text(encoding="utf-8")
        except OSError as e:
            raise ScoreInputError(f"cannot read {hand}: {e.strerror}") from None
        where = str(hand)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScoreInputError(f"{where} is not valid JSON: {e.msg} "
                              f"at line {e.lineno} column {e.colno}") from None


def score_command(
    hand: Optional[Path] = typer.Option(None, "--hand", help="JSON hand file (default: stdin)"),
    profile: Optional[str] = typer.Option(
        None, "--profile", "-p", help='profile id or .toml path (overrides the hand\'s "profile")'),
    pretty: bool = typer.Option(False, "--pretty", help="a table instead of one JSON line"),
) -> None:
    """Score a winning hand (計台): JSON in, JSON out (formats.md)."""
    obj = _read(hand)
    name = profile or (obj.get("profile") if isinstance(obj, dict) else None) or "standard"
    if not isinstance(name, str):
        raise ScoreInputError("profile must be a profile id like \"standard\"")
    prof = load_profile(name)
    result = score(HandSpec.from_json(obj), prof)
    if not pretty:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    console = Console(highlight=False)
    if not result.winning:
        console.print(f"[bold]不成胡 / not winning[/bold]: {result.reason}")
        return
    title = f"計台 — {prof.name_zh} / {prof.name_en}"
    table = Table(title=title, min_width=cell_len(title))     # a title wider than the table wraps
    table.add_column("名堂")
    table.add_column("Pattern")
    table.add_column("台", justify="right")
    for p in result.patterns:
        table.add_row(p.zh, p.en, str(p.tai))
    table.add_section()
    table.add_row("合計", "Total", f"[bold]{result.tai}[/bold]")
    console.print(table)
    console.print("split: " + " ".join(result.split), markup=False)


def register(app: typer.Typer) -> None:
    app.command("score")(score_command)

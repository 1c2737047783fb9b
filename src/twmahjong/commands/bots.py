"""`twmj bots` — the levels and the sixteen personalities (電腦對手)."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from ..bots.master import SUMMARY as L6_SUMMARY
from ..bots.personalities import PERSONALITIES
from ..bots.policy import LEVEL_SUMMARY


def bots_command(as_json: bool = typer.Option(False, "--json", help="JSON instead of tables")) -> None:
    """List bot levels and personalities (id, 名稱, name, tier, description)."""
    levels = [{"id": f"L{k}", "description": v} for k, v in LEVEL_SUMMARY.items()]
    levels.append({"id": "L6", "description": L6_SUMMARY})
    people = [{"id": p.id, "zh": p.zh, "en": p.en, "tier": p.tier, "description": p.description,
               "description_zh": p.description_zh} for p in PERSONALITIES]
    if as_json:
        typer.echo(json.dumps({"levels": levels, "personalities": people}, ensure_ascii=False))
        return
    con = Console(highlight=False)
    t = Table(title="Levels (等級)")
    t.add_column("id")
    t.add_column("plays by")
    for lv in levels:
        t.add_row(lv["id"], lv["description"])
    con.print(t)
    # each opponent's names and style in both languages, stacked in one cell each: six
    # columns left the styles a few characters wide at 80 columns (6 lines an opponent)
    t = Table(title="Personalities (挑戰賽對手)", show_lines=True)
    t.add_column("tier", justify="right")
    t.add_column("id", no_wrap=True)
    t.add_column("名稱 / name", no_wrap=True)
    t.add_column("風格 / style", overflow="fold")     # zh-TW has no spaces to wrap at: fold it
    for p in people:
        t.add_row(str(p["tier"]), p["id"], f"{p['zh']}\n{p['en']}",
                  f"{p['description_zh']}\n{p['description']}")
    con.print(t)


def register(app: typer.Typer) -> None:
    app.command("bots")(bots_command)

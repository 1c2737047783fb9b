"""`twmj profiles` — the rule profiles (玩法) and what each one counts."""

from __future__ import annotations

import json
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from ..profiles import Profile, load_profile, profile_names
from ..scoring import check_profile

profiles_app = typer.Typer(help="List rule profiles (玩法) or show one in full.",
                           no_args_is_help=False, invoke_without_command=True)


def _summary(p: Profile) -> dict:
    return {"id": p.id, "name_zh": p.name_zh, "name_en": p.name_en, "source": p.source,
            "patterns": len(p.patterns)}


@profiles_app.callback(invoke_without_command=True)
def list_profiles(ctx: typer.Context,
                  as_json: bool = typer.Option(False, "--json", help="JSON, not a table")) -> None:
    """List the built-in profiles."""
    if ctx.invoked_subcommand is not None:
        return
    rows = [_summary(load_profile(n)) for n in profile_names()]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    table = Table(title="Rule profiles (玩法)")
    for col in ("id", "名稱", "name", "source", "patterns"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], r["name_zh"], r["name_en"], r["source"], str(r["patterns"]))
    Console(highlight=False).print(table)


@profiles_app.command("show")
def show(name: str = typer.Argument("standard", help="profile id or path to a .toml file"),
         as_json: bool = typer.Option(False, "--json", help="the whole profile as JSON")) -> None:
    """Every pattern with its 台, and every table rule, of one profile."""
    p = load_profile(name)
    check_profile(p)
    if as_json:
        typer.echo(json.dumps(p.model_dump(mode="json"), ensure_ascii=False))
        return
    console = Console(highlight=False)
    pats = Table(title=f"{p.id}: {p.name_zh} / {p.name_en} ({p.source})")
    for col in ("id", "名堂", "pattern", "台"):
        pats.add_column(col)
    for pid, d in p.patterns.items():
        pats.add_row(pid, d.zh, d.en, str(d.tai))
    console.print(pats)
    rules = Table(title="play / stakes / settlement")
    rules.add_column("key")
    rules.add_column("value")
    for section in ("play", "stakes", "settlement"):
        for k, v in getattr(p, section).model_dump().items():
            rules.add_row(f"{section}.{k}", json.dumps(v, ensure_ascii=False))
    console.print(rules)


def register(app: typer.Typer) -> None:
    app.add_typer(profiles_app, name="profiles")

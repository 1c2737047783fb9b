"""`twmj analyze RECORD` — 牌譜分析: the AI reviews one seat's decisions.

RECORD is a game record (formats.md) or a finished game as ``GET
/api/v1/games/<id>`` gives it (then the person's seat is the default). Prints a
table per hand — each decision, the move played, the AI's choice, the expected
points the move gave away (± its spread), a mark on mistakes — and the hand's
three costliest decisions; ``--json`` prints the document docs/analysis.md
describes. Bad input exits 2 with one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from ..analysis import DecisionReview, Review
    from ..engine.actions import Action


def register(app: typer.Typer) -> None:
    app.command("analyze", help="牌譜分析: the AI reviews a seat's decisions in a game record.")(
        analyze_command)


def analyze_command(
    record: Path = typer.Argument(..., metavar="RECORD",
                                  help="A game record, or a game from the server (JSON)."),
    seat: int | None = typer.Option(None, "--seat", metavar="0-3", help="The seat to review (0-3); "
                                    "default: the person's seat in a server game."),
    bot: str | None = typer.Option(None, "--bot", metavar="LEVEL",
                                   help="The reference AI (default: the top level)."),
    worlds: int | None = typer.Option(
        None, "--worlds", min=1, max=10000, metavar="N",
        help="Sampled worlds per decision: more is slower and surer."),
    deal: str = typer.Option(
        "developed", "--deal", metavar="HOW",
        help="How a world deals the hidden tiles: developed (the others' hands as far "
             "along as the table shows) or uniform (at random)."),
    seed: int = typer.Option(0, "--seed", metavar="S",
                             help="Seed of the sampling: the same seed, the same review."),
    hand: list[int] | None = typer.Option(None, "--hand", metavar="N",
                                          help="Only this hand (1-based; repeatable)."),
    threshold: float | None = typer.Option(None, "--threshold", min=0.0, metavar="POINTS",
                                           help="Loss in points from which a move is a mistake "
                                                "(default: one 台's worth at the record's stakes)."),
    as_json: bool = typer.Option(False, "--json", help="Print the review as JSON."),
) -> None:
    from ..analysis import DEFAULT_BOT, DEFAULT_WORLDS, AnalysisError, analyze_record, plan_record
    try:
        text = record.read_text(encoding="utf-8")
    except OSError as e:
        raise AnalysisError(f"cannot read {record}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise AnalysisError(f"{record} is not a text file") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise AnalysisError(f"{record} is not JSON: {e.msg} at line {e.lineno}") from None
    hands = None if not hand else [n - 1 for n in hand]
    bot_name, n_worlds = bot or DEFAULT_BOT, worlds or DEFAULT_WORLDS
    plan = plan_record(doc, seat=seat, bot=bot_name, worlds=n_worlds, hands=hands, deal=deal)
    kwargs: dict[str, Any] = {"bot": bot_name, "worlds": n_worlds, "seed": seed, "deal": deal,
                              "threshold": threshold, "plan": plan}
    if as_json:
        review = analyze_record(doc, **kwargs)
        typer.echo(json.dumps(review.to_json(), ensure_ascii=False, indent=1))
        return
    from rich.progress import Progress
    console = Console(highlight=False)
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("analysing", total=len(plan.points))

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        review = analyze_record(doc, progress=progress, **kwargs)
    _print(console, review)


def _label(a: Action) -> str:
    j = a.to_json()
    t = j["type"]
    tile = j.get("tile", "")
    if t == "discard":
        return tile
    if t == "chi":
        return f"chi {j.get('tiles', '')}"
    if t in ("pass", "win"):
        return t
    return f"{_NAMES.get(t, t)} {tile}".strip()


_NAMES = {"added_kong": "add kong", "concealed_kong": "closed kong", "flower_win": "flower win"}


def _loss(d: DecisionReview) -> str:
    return f"{d.loss:.0f} ± {d.spread:.0f}"


def _print(c: Console, r: Review) -> None:
    st = r.stakes
    c.print(f"seat {r.seat} reviewed by [bold]{r.bot}[/bold]: {r.worlds} {r.deal} worlds a "
            f"decision, seed "
            f"{r.seed}; points at the record's stakes (底 {st['base']}, {st['per_tai']} a 台); "
            f"✗ a mistake: it gives away ≥ {r.threshold:g} points, and twice its spread; "
            f"= the AI's own move")
    for h in r.hands:
        t = Table(title=f"hand {h.hand_no + 1} (dealer: seat {h.dealer})", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
        for col, just in (("#", "right"), ("巡", "right"), ("hand", "left"), ("drew", "left"),
                          ("played", "left"), ("AI", "left"), ("loss", "right"), ("", "left")):
            t.add_column(col, justify=just, no_wrap=True)  # type: ignore[arg-type]
        for d in h.decisions:
            mark = "[red]✗[/red]" if d.mistake else ("[green]=[/green]" if d.agrees else "")
            t.add_row(str(d.n), str(d.turn), d.hand, d.drawn or "", _label(d.played), _label(d.bot),
                      _loss(d), mark)
        if not h.decisions:
            c.print(f"hand {h.hand_no + 1}: no decision with a choice for seat {r.seat}")
            continue
        c.print(t)
        worst = h.costliest()
        if worst:
            c.print("costliest: " + "; ".join(
                f"#{d.n} {_label(d.played)} (AI {_label(d.bot)}) −{_loss(d)}" for d in worst))
            for d in worst:                 # the coach's words on the AI's move (教練)
                if d.why:
                    c.print(f"  #{d.n} AI: {d.why['zh']} {d.why['en']}")
        total = h.given_away
        c.print(f"hand {h.hand_no + 1}: {h.mistakes} mistake{'' if h.mistakes == 1 else 's'}, "
                f"{total:.0f} points given away in all\n")

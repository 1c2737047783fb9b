"""`twmj arena` — bots against bots over many duplicate deals (複式對戰)."""

from __future__ import annotations

import json

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..bots.arena import ArenaError, run_arena


def arena_command(
    hands: int = typer.Option(100, "--hands", "-n", help="deals to play (each 4 hands with --duplicate)"),
    seed: int = typer.Option(0, "--seed", help="seed of every wall and bot; a run replays exactly"),
    seats: str = typer.Option("L4,L1,L1,L1", "--seats",
                              help="four seats: random, efficiency, L1-L6, a personality id, pipe:COMMAND"),
    duplicate: bool = typer.Option(False, "--duplicate", help="play each deal once per seat rotation"),
    workers: int = typer.Option(1, "--workers", "-w", help="processes to spread the deals over"),
    profile: str = typer.Option("standard", "--profile", help="rule profile"),
    pipe_timeout: float = typer.Option(2.0, "--pipe-timeout", help="seconds an external bot may think"),
    as_json: bool = typer.Option(False, "--json", help="print the report as one JSON object"),
) -> None:
    # one line: `twmj --help` keeps a line break of the first paragraph ("rates,\n台")
    """Play bots against each other: win, deal-in, self-draw, 台/win, points/hand, ±95%."""
    specs = [s.strip() for s in seats.split(",") if s.strip()] if not seats.startswith("pipe:") \
        else _split_seats(seats)
    if len(specs) != 4:
        raise ArenaError(f"--seats needs four comma-separated seats, got {len(specs)}: {seats!r}")
    if workers < 1:
        raise ArenaError("--workers must be at least 1")
    err = Console(stderr=True, highlight=False)
    if err.is_terminal:
        with Progress(TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=as_json) as bar:
            task = bar.add_task("deals", total=hands)
            report = run_arena(specs, hands, seed, duplicate=duplicate, workers=workers,
                               profile=profile, pipe_timeout=pipe_timeout,
                               progress=lambda n: bar.advance(task, n))
    else:
        # a log file, not a terminal: one plain line per 5% instead of a bar
        done = [0, 0]

        def tick(n: int) -> None:
            done[0] += n
            step = done[0] * 20 // hands
            if step > done[1]:
                done[1] = step
                err.print(f"arena: {done[0]}/{hands} deals", markup=False)
        report = run_arena(specs, hands, seed, duplicate=duplicate, workers=workers,
                           profile=profile, pipe_timeout=pipe_timeout, progress=tick)
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False))
        return
    _print(report)


def _split_seats(text: str) -> list[str]:
    """Commas inside a ``pipe:`` command belong to it: split only before a known seat."""
    out: list[str] = []
    for part in text.split(","):
        if out and out[-1].startswith("pipe:") and not _looks_like_seat(part):
            out[-1] += "," + part
        else:
            out.append(part.strip())
    return out


def _looks_like_seat(part: str) -> bool:
    from ..bots.arena import make_seat_bot
    p = part.strip()
    if p.startswith("pipe:"):
        return True
    try:
        make_seat_bot(p, 0)
        return True
    except ArenaError:
        return False


def _print(r: dict) -> None:
    con = Console(highlight=False)
    title = f"{r['deals']} deals, {r['hands']} hands, seed {r['seed']}" + \
        (" (duplicate)" if r["duplicate"] else "")
    # 80 columns hold it: the 95% intervals as ± beside their means (they are symmetric),
    # two-line headers, the bot's name folding; nine columns cut every header ("deal-…")
    # and left a pipe bot's name no room at all
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1), collapse_padding=True)
    t.add_column("bot", min_width=10, overflow="fold")
    for col in ("hands", "win", "deal\nin", "self\ndraw", "台/win", "net/hand\n± 95%",
                "台/hand\n± 95%"):
        t.add_column(col, justify="right", no_wrap=True)
    for name, b in r["bots"].items():
        net, tai = b["net_ci95"], b["tai_ci95"]
        t.add_row(name, str(b["hands"]), f"{b['win_rate']:.1%}", f"{b['deal_in_rate']:.1%}",
                  f"{b['self_draw_rate']:.1%}", f"{b['avg_tai_per_win']:.2f}",
                  f"{b['net_per_hand']:+.1f} ± {(net[1] - net[0]) / 2:.1f}",
                  f"{b['tai_per_hand']:+.3f} ± {(tai[1] - tai[0]) / 2:.3f}")
    con.print(t)
    for c in r["comparisons"]:
        lo, hi = c["net_diff_ci95"]
        tlo, thi = c["tai_diff_ci95"]
        con.print(f"{c['a']} - {c['b']}: {c['net_diff']:+.1f} points/hand [{lo:+.1f}, {hi:+.1f}], "
                  f"{c['tai_diff']:+.3f} 台/hand [{tlo:+.3f}, {thi:+.3f}]")
    con.print(f"draw games (流局): {r['draw_rate']:.1%}")


def register(app: typer.Typer) -> None:
    app.command("arena")(arena_command)

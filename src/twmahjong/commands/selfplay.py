"""`twmj selfplay` — bots play each other; a summary of what happened.

    twmj selfplay --hands 200 --seed 1 --bots random,random,random,random --json

The run costs what the library's own loop costs (``twmahjong.selfplay.play_hand``)
plus as little as the command can: only this command's module is imported (see
``cli.main``); a game's events are kept only when ``--records`` writes them (with
random bots nearly every hand is drawn, the dealer keeps the deal and one game can
run for the whole ``--hands``, its record growing all along); the objects made
before the first hand are frozen out of the collector's walks and young
collections run every 10,000 allocations, as the server does; the progress bar
moves in steps of 1/200 of the run.
"""

from __future__ import annotations

import gc
import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..errors import UserError


# Young collections every 10,000 allocations instead of 700 (the server's setting): a
# hand makes and drops small dicts and lists by the hundred.
GC_THRESHOLDS = (10_000, 20, 20)


class SelfplayError(UserError):
    """Options that do not make a self-play run."""


def register(app: typer.Typer) -> None:
    app.command("selfplay", help="Bots play each other (自戰): hands or whole games, then a summary.")(
        selfplay_command)


def selfplay_command(
    hands: int = typer.Option(None, "--hands", metavar="N", help="Play N hands (across games as needed)."),
    games: int = typer.Option(None, "--games", metavar="N", help="Play N whole games (將)."),
    rounds: int = typer.Option(None, "--rounds", metavar="1-4", help="圈 per game (default: the profile's)."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="Seed for walls and bots; same seed, same games."),
    bots: str = typer.Option("random,random,random,random", "--bots", metavar="A,B,C,D",
                             help="Four bot names, one per seat."),
    profile: str = typer.Option("standard", "--profile", metavar="NAME", help="Rule profile or file."),
    records: Path = typer.Option(None, "--records", metavar="DIR", help="Write one record per game here."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as one JSON object."),
) -> None:
    from ..bots import make_bot
    from ..engine.match import Match
    from ..selfplay import Summary, play_hand
    from ..profiles import load_profile

    if (hands is None) == (games is None):
        raise SelfplayError("give exactly one of --hands N or --games N")
    target = hands if hands is not None else games
    if target < 1:
        raise SelfplayError("the number of hands or games must be at least 1")
    if rounds is not None and not 1 <= rounds <= 4:
        raise SelfplayError(f"--rounds must be 1 to 4 (圈), not {rounds}")
    names = [n.strip() for n in bots.split(",")]
    if len(names) != 4:
        raise SelfplayError(f"--bots needs four names, one per seat; got {len(names)}")
    rules = load_profile(profile)
    seat_bots = [make_bot(n, seed * 4 + i) for i, n in enumerate(names)]
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    summary = Summary()
    err = Console(stderr=True)
    game_no = 0
    step = max(1, target // 200)            # progress moves in steps of 1/200 of the run
    keep_record = records is not None
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    started = time.perf_counter()
    with Progress(TextColumn("[bold]selfplay"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[unit]}"), TimeRemainingColumn(), console=err,
                  transient=as_json) as progress:
        task = progress.add_task("play", total=target, unit="hands" if hands else "games")
        done = False
        while not done:
            m = Match(rules, seed=seed * 100003 + game_no, rounds=rounds)
            while not m.over:
                h = m.start_hand()
                play_hand(h, seat_bots)
                m.end_hand()
                summary.add(h)
                if not keep_record:
                    m.events.clear()        # no record asked for: drop the hand's story
                if hands is not None:
                    if summary.hands % step == 0 or summary.hands >= hands:
                        progress.update(task, completed=summary.hands)
                    if summary.hands >= hands:
                        done = True
                        break
            game_no += 1
            if records is not None:
                path = records / f"game-{seed}-{game_no:04d}.json"
                path.write_text(json.dumps(m.record(), ensure_ascii=False), encoding="utf-8")
            if games is not None:
                progress.advance(task)
                done = game_no >= games
    summary.seconds = time.perf_counter() - started
    out = summary.to_json()
    out["games"] = game_no
    out["profile"] = rules.id
    out["bots"] = names
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    _show(out, rules)


def _show(s: dict, rules) -> None:
    console = Console(highlight=False)
    t = Table(title=f"self-play 自戰 — {s['profile']}, bots {', '.join(s['bots'])}")
    t.add_column("")
    t.add_column("", justify="right")
    t.add_row("games 將", str(s["games"]))
    t.add_row("hands 盤", str(s["hands"]))
    t.add_row("drawn hands 荒局", str(s["drawn_hands"]))
    for seat, n in enumerate(s["wins_by_seat"]):
        t.add_row(f"wins seat {seat}", str(n))
    t.add_row("self-draw share 自摸率", f"{s['self_draw_share']:.1%}")
    t.add_row("average 台", f"{s['average_tai']:.2f}")
    t.add_row("hands per second", f"{s['hands_per_second']}")
    console.print(t)
    if s["patterns"]:
        p = Table(title="patterns 台型")
        p.add_column("pattern")
        p.add_column("times", justify="right")
        for pid, n in s["patterns"].items():
            zh = rules.patterns[pid].zh if pid in rules.patterns else ""
            p.add_row(f"{pid} {zh}", str(n))
        console.print(p)

"""`twmj play` — play a match against three bots in the terminal (人機對戰).

    twmj play --rounds 1 --seed 3 --bots L3,L3,L3 --lang en --records games/
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..errors import UserError

# strongest first; L5 searches against a clock, so a seeded game would not replay
# the same way on a busy machine — the default is the strongest level that does
_PREFERRED = ("L4", "L3", "L2", "L1", "efficiency", "random")


class PlayError(UserError):
    """Options that do not make a game."""


def register(app: typer.Typer) -> None:
    app.command("play", help="Play a match against three bots in the terminal (人機對戰).")(play_command)


def default_bot() -> str:
    from ..bots import bot_names
    names = set(bot_names())
    return next(n for n in _PREFERRED if n in names)


def parse_bots(text: str | None) -> list[str]:
    """Three bot names (one name fills all three seats); unknown names are refused."""
    from ..bots import bot_names
    if text is None:
        return [default_bot()] * 3
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        names *= 3
    if len(names) != 3:
        raise PlayError(f"--bots needs three names (or one for all three seats); got {len(names)}")
    known = bot_names()
    for n in names:
        if n not in known:
            raise PlayError(f"unknown bot {n!r}; known bots: {', '.join(known)}")
    return names


def play_command(
    profile: str = typer.Option("standard", "--profile", metavar="NAME", help="Rule profile or TOML file."),
    rounds: int = typer.Option(1, "--rounds", metavar="1-4", help="圈 to play (4 = 一將)."),
    seed: int = typer.Option(None, "--seed", metavar="S", help="Seed for the walls and bots; same seed, same game."),
    bots: str = typer.Option(None, "--bots", metavar="A,B,C",
                             help="Bots in the three other chairs (default: the strongest level that replays exactly)."),
    lang: str = typer.Option("zh", "--lang", metavar="zh|en", help="Language of the screen."),
    records: Path = typer.Option(None, "--records", metavar="DIR", help="Save the game record here."),
) -> None:
    from ..profiles import load_profile
    from ..tui.session import PlaySession

    if not 1 <= rounds <= 4:
        raise PlayError(f"--rounds must be 1 to 4 (圈), not {rounds}")
    if lang not in ("zh", "en"):
        raise PlayError(f"--lang must be zh or en, not {lang!r}")
    names = parse_bots(bots)
    rules = load_profile(profile)
    if records is not None and records.exists() and not records.is_dir():
        raise PlayError(f"--records must be a folder; {records} is a file")
    session = PlaySession(rules, bot_names=names, seed=seed, rounds=rounds, records=records)

    from ..tui.app import PlayApp
    PlayApp(session, lang).run()
    from ..tui.render import seat_name
    from ..tui.strings import tr
    m = session.match
    scores = "  ".join(f"{seat_name(lang, s, session.seat, session.player_at(s))} {m.scores[s]:+d}"
                       for s in range(4))
    typer.echo(f"seed {session.seed}  {m.hand_no} hands  {scores}")
    if session.record_path is not None:
        typer.echo(tr(lang, "record_saved", path=session.record_path))

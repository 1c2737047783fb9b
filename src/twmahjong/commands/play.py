"""`twmj play` — play in the terminal: against three bots (人機對戰), or online.

    twmj play --rounds 1 --seed 3 --bots L3,L3,L3 --lang en --records games/
    twmj play --resume                  # the match left with q
    twmj play --plain                   # one plain line per change (screen readers)
    twmj play --server http://host:8000 # log in and play on a server
"""

from __future__ import annotations

from pathlib import Path

import typer

from ..engine.match import MAX_ROUNDS
from ..errors import UserError

# strongest first; L5 searches against a clock, so a seeded game would not replay
# the same way on a busy machine — the default is the strongest level that does
_PREFERRED = ("L4", "L3", "L2", "L1", "efficiency", "random")


class PlayError(UserError):
    """Options that do not make a game."""


def register(app: typer.Typer) -> None:
    app.command("play", help="Play in the terminal: against three bots (人機對戰), or online with --server.",
                epilog=_LEGEND)(
        play_command)


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


_LEGEND = ("Tiles in English: 1m-9m characters (萬), 1p-9p dots (筒), 1s-9s bamboo (條); "
           "Ea So We No the winds East South West North (東南西北); Wh Gr Rd the dragons "
           "White Green Red (白發中); flowers Sp Su Au Wi spring summer autumn winter, "
           "Pl Or Ch Bm plum orchid chrysanthemum bamboo (春夏秋冬梅蘭菊竹).")


def play_command(
    profile: str = typer.Option("standard", "--profile", metavar="NAME", help="Rule profile or TOML file."),
    rounds: int = typer.Option(1, "--rounds", metavar="1-16",
                               help="How many 圈 (4 = 一將; the players 搬風 before each new 將)."),
    seed: int = typer.Option(None, "--seed", metavar="S", help="Seed for the walls and bots; same seed, same game."),
    bots: str = typer.Option(None, "--bots", metavar="A,B,C",
                             help="Bots in the three other chairs (default: the strongest level that replays exactly)."),
    lang: str = typer.Option("zh", "--lang", metavar="zh|en", help="Language of the screen."),
    records: Path = typer.Option(None, "--records", metavar="DIR", help="Save the game record here."),
    resume: bool = typer.Option(False, "--resume", help="Take up the match left unfinished with q."),
    plain: bool = typer.Option(False, "--plain",
                               help="No screen: one plain line per change, commands typed as lines (screen readers)."),
    server: str = typer.Option(None, "--server", metavar="URL",
                               help="Play online on this server (log in, register or play as a guest)."),
) -> None:
    from ..profiles import load_profile
    from ..tui.prefs import Prefs, clear_saved, load_saved, saved_path
    from ..tui.session import PlaySession

    if not 1 <= rounds <= MAX_ROUNDS:
        raise PlayError(f"--rounds must be 1 to {MAX_ROUNDS} (圈; 4 are one 將), not {rounds}")
    if lang not in ("zh", "en"):
        raise PlayError(f"--lang must be zh or en, not {lang!r}")
    if server is not None:
        if resume:
            raise PlayError("--resume is for a match against bots; online, the server keeps your seat")
        from ..tui.lobby import play_online
        play_online(server, lang=lang, plain=plain, profile=profile if profile != "standard" else None)
        return
    names = parse_bots(bots)
    rules = load_profile(profile)
    if records is not None and records.exists() and not records.is_dir():
        raise PlayError(f"--records must be a folder; {records} is a file")
    saved = load_saved()
    if resume and saved is None:
        raise PlayError("there is no unfinished match to resume (it is saved when you leave with q)")
    keep_saved = False                 # a new match while the saved one waits for later
    if saved is not None and not resume:
        choice = ask_resume(saved, lang)
        resume, keep_saved = choice == "resume", choice == "keep"
        if choice == "drop":
            clear_saved()
    if resume:
        session = PlaySession.resume(saved)
    else:
        session = PlaySession(rules, bot_names=names, seed=seed, rounds=rounds, records=records)
    prefs = Prefs.load()

    if plain:
        from ..tui.plain import run_plain
        run_plain(session, lang, prefs=prefs, save_path=None if keep_saved else saved_path())
        if session.match.over and not keep_saved:
            clear_saved()
        return
    from ..tui.app import PlayApp
    app = PlayApp(session, lang, prefs=prefs, save=not keep_saved)
    app.keeps_other = keep_saved
    app.run()
    from ..tui.render import seat_name
    from ..tui.strings import tr
    m = session.match
    scores = "  ".join(f"{seat_name(lang, s, session.seat, session.player_at(s))} {m.scores[s]:+d}"
                       for s in range(4))
    typer.echo(f"seed {session.seed}  {m.hand_no} hands  {scores}")
    if session.record_path is not None:
        typer.echo(tr(lang, "record_saved", path=session.record_path))
    if app.saved_to is not None:
        typer.echo(tr(lang, "saved_to"))


def ask_resume(saved: dict, lang: str) -> str:
    """The next ``twmj play`` offers the unfinished match first: ``"resume"`` (Enter),
    ``"keep"`` (play a new match; the saved one stays for later, untouched) or
    ``"drop"`` (delete it, said plainly). Only an explicit 3 drops it."""
    import click

    from ..tui.strings import tr
    hands = int(saved.get("hand_no", 0)) + 1
    scores = " ".join(f"{x:+d}" for x in saved.get("scores", []))
    typer.echo(tr(lang, "resume_saved", hands=hands, scores=scores))
    while True:
        try:
            pick = str(typer.prompt(tr(lang, "resume_choices"), default="1")).strip().lower()
        except click.exceptions.Abort:
            pick = "2"          # no answer (no terminal): a new match, the save kept
        if pick in ("1", "y", "yes", "r"):
            return "resume"
        if pick in ("2", "n", "no", "k"):
            typer.echo(tr(lang, "resume_kept"))
            return "keep"
        if pick in ("3", "d"):
            typer.echo(tr(lang, "resume_dropped"))
            return "drop"
        typer.echo(tr(lang, "resume_again"))

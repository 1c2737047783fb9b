"""Set up terminal games for the tests: stacked walls, scripted bots, key-pressing players."""

from __future__ import annotations

import io
import re

from rich.console import Console

from twmahjong.engine import Wall
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tiles
from twmahjong.tui.app import PlayApp
from twmahjong.tui.prefs import Prefs
from twmahjong.tui.results import ResultScreen, SummaryScreen
from twmahjong.tui.session import PlaySession


class ScriptBot:
    """Throws the tile it drew (else its first legal discard) and passes every claim."""

    def act(self, obs):
        legal = obs["legal"]
        drawn = obs.get("drawn")
        for a in legal:
            if a["type"] == "discard" and a["tile"] == drawn:
                return a
        for a in legal:
            if a["type"] in ("discard", "pass"):
                return a
        return legal[0]


def stacked_wall(hands: dict[int, str], dealer: int, draws: str = "") -> Wall:
    """A wall that deals ``hands[seat]`` (the dealer's 17th tile last) as 配牌 does:
    four tiles a turn from the dealer, four rounds, then the dealer's 門牌; ``draws``
    (MPSZ) are the next tiles drawn, in turn order."""
    hs = {s: parse_tiles(t) for s, t in hands.items()}
    for s, h in hs.items():
        assert len(h) == (17 if s == dealer else 16), (s, len(h))
    order = []
    for r in range(4):
        for i in range(4):
            s = (dealer + i) % 4
            order.extend(hs[s][4 * r:4 * r + 4])
    order.append(hs[dealer][16])
    order.extend(parse_tiles(draws))
    return Wall.stacked(order)


def session(seed=8, bots=("L2", "L2", "L2"), **kw) -> PlaySession:
    return PlaySession(load_profile("standard"), bot_names=list(bots), seed=seed, rounds=1, **kw)


def app_for(s: PlaySession, lang: str = "zh", *, speed: int = 0, hints: bool = True,
            save: bool = False) -> PlayApp:
    """The app with bots moving at once (speed 0) and settings that are not saved."""
    return PlayApp(s, lang, prefs=Prefs(hints=hints, speed=speed), save=save)


def plain(renderable, width: int = 160) -> str:
    """What a widget's content reads as on a screen ``width`` columns wide."""
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(renderable)
    return console.export_text()


def content(app, selector: str) -> str:
    """What a widget reads as; a value the screen failed to fill would read "None"."""
    w = app.screen.query_one(selector)
    c = w.content
    text = c if isinstance(c, str) else plain(c)
    assert not re.search(r"\bNone\b", text), f"{selector} shows None: {text!r}"
    return text


async def auto_play(pilot, app, *, until=ResultScreen, limit: int = 400) -> None:
    """Play the person's seat by keys: Enter throws the drawn tile (selected on each
    turn), x passes every other offer — until ``until`` is the screen shown."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, until):
            return
        if isinstance(app.screen, (ResultScreen, SummaryScreen)):
            await pilot.press("space")
            continue
        legal = app.session.legal()
        if any(a.type == "discard" for a in legal):
            await pilot.press("enter")
        elif legal:
            await pilot.press("x")
    raise AssertionError(f"{until.__name__} never appeared")

"""A monkey at the terminal: random keys on the table screen, at 80×24, until a table stalls.

Every bound key (←→ h l Enter Space c p k w t d x Esc 1-9 s ? a g e q), random
printable characters, arrows, Esc and Enter are typed at a human's pace (0.1-0.6 s
apart) or in bursts (up to 8 keys posted at once, the way a fast typist's bytes
reach the app), against a match offline (bots in-process) and online (a real
server started in this process, bots filling the other seats). The run is seeded:
the same ``--seed`` types the same keys (what the bots and the server's clocks do
in between is timing).

A failure is:
- a stall: a table that makes no move for longer than its clocks allow — online,
  the person's whole clock (base + bank) plus the claim window and the pause
  between hands, with a margin; offline, bots to move and nothing moved;
- an exception in the app;
- a blank screen: the table screen gone from the app's stack, or a table screen
  with no text on it.

``q`` is typed like any key, but the ``y`` that would leave after it is typed as
``n``; a match that ends starts the next one.

    .venv/bin/python bench/monkey_tui.py --minutes 20 --seed 7
    .venv/bin/python bench/monkey_tui.py --minutes 1 --modes online --speeds burst

It prints the seed first (a failure is replayed with it), a progress bar, and a
summary: keys sent, moves seen, hands finished, stalls, errors, blank screens; exit
1 if any of the last three is not 0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

BOUND = ["left", "right", "h", "l", "enter", "space", "c", "p", "k", "w", "t", "d", "x",
         "escape", *"123456789", "s", "question_mark", "a", "g", "e", "q"]
EXTRA = ["up", "down", "tab", "pageup", "pagedown", "backspace"]
PRINTABLE = "abcdefghijklmnopqrstuvwxyz0123456789 ,./;'[]-=!@#$%^&*()"
SIZE = (80, 24)

# the online server's clocks for a monkey: short, so that a run sees many hands
ONLINE = {"bot_fill_wait": 0.3, "bot_delay": 0.05, "hand_pause": 3.0, "claim_window": 0.3,
          "turn_base": 3.0, "turn_bank": 2.0, "disconnect_grace": 3.0,
          "starting_coins": 1_000_000}
MARGIN = 10.0                         # s beyond the clocks before a quiet table is a stall


@dataclass
class Stats:
    keys: int = 0
    moves: int = 0
    hands: int = 0
    matches: int = 0
    stalls: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    blanks: list = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return bool(self.stalls or self.errors or self.blanks)


class KeyStream:
    """The seeded keys: mostly bound keys, some printable and stray keys."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.last = ""

    def next(self) -> str:
        r = self.rng.random()
        if r < 0.75:
            k = self.rng.choice(BOUND)
        elif r < 0.85:
            k = self.rng.choice(EXTRA)
        else:
            c = self.rng.choice(PRINTABLE)
            k = {" ": "space", ",": "comma", ".": "full_stop", "/": "slash", ";": "semicolon",
                 "'": "apostrophe", "[": "left_square_bracket", "]": "right_square_bracket",
                 "-": "minus", "=": "equals_sign", "!": "exclamation_mark", "@": "at",
                 "#": "number_sign", "$": "dollar_sign", "%": "percent_sign",
                 "^": "circumflex_accent", "&": "ampersand", "*": "asterisk",
                 "(": "left_parenthesis", ")": "right_parenthesis"}.get(c, c)
        if self.last == "q" and k in ("y", "Y"):
            k = "n"                        # the monkey stays at the table
        self.last = k
        return k


def _char(key: str) -> str | None:
    if len(key) == 1:
        return key
    return {"space": " ", "question_mark": "?", "enter": "\r"}.get(key)


class Server:
    """The real server app under uvicorn in a thread, on a loopback port and SQLite."""

    def __init__(self, **over):
        import uvicorn

        from twmahjong.server.app import create_app, uvicorn_config
        from twmahjong.server.core import Server as Core
        from twmahjong.server.settings import Settings
        self.home = tempfile.TemporaryDirectory(prefix="monkey-tui-")
        home = Path(self.home.name)
        self.settings = Settings(data_dir=home / "data", secret_key="monkey-secret",
                                 database_url=f"sqlite+aiosqlite:///{home / 'twmj.sqlite3'}",
                                 **{**ONLINE, **over})
        self.core = Core(self.settings)
        app = create_app(server=self.core)
        self.uv = uvicorn.Server(uvicorn_config(app, self.settings, host="127.0.0.1", port=0))
        self.thread = threading.Thread(target=self.uv.run, daemon=True)
        self.thread.start()
        while not self.uv.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        self.base = f"http://127.0.0.1:{self.uv.servers[0].sockets[0].getsockname()[1]}"

    @property
    def quiet_limit(self) -> float:
        s = self.settings
        return s.turn_base + s.turn_bank + s.claim_window + s.hand_pause + MARGIN

    def tables_state(self) -> list[dict]:
        """Every table's state as the liveness log shows it, and where its hand is: what
        a stall report needs to say why nothing moved."""
        from twmahjong.server.play.liveness import breaches, state_of
        out = []
        with contextlib.suppress(Exception):
            for t in list(self.core.tables.all()):
                st = {"breaches": breaches(t), "finished": t.finished,
                      "hand_open": t.hand_open, "hand_over": t.game.hand_over()}
                with contextlib.suppress(Exception):
                    st.update(state_of(t))
                with contextlib.suppress(Exception):
                    st["ready_wait"] = sorted(t.ready_wait)
                out.append(st)
        return out

    def stop(self) -> None:
        self.uv.should_exit = True
        self.thread.join(timeout=30)
        self.home.cleanup()


async def _type(app, pilot, keys: list[str]) -> None:
    """Post the keys to the app in one go (the driver's path): a burst."""
    from textual import events
    for k in keys:
        app.post_message(events.Key(k, _char(k)))
    await pilot.pause()


def _blank(app) -> str | None:
    """Why the screen is blank, or None."""
    from textual.widgets import Static
    if app.table not in app.screen_stack:
        return f"the table screen is gone (screen {app.screen!r})"
    if app.screen is app.table:
        t = app.table
        if t.small:
            return None
        texts = []
        for sel in ("#status", "#waiting", "#header"):
            with contextlib.suppress(Exception):
                w = t.query_one(sel, Static)
                if w.display:
                    texts.append(str(w.render()).strip())
        if not any(texts):
            return "every line of the table screen is empty"
    return None


class Table:
    """One app at a time, offline or online; ``progress()`` grows with every move."""

    def __init__(self, mode: str, rng: random.Random, server: Server | None, lang: str):
        self.mode, self.rng, self.server, self.lang = mode, rng, server, lang

    async def make(self):
        from twmahjong.tui.app import PlayApp
        from twmahjong.tui.prefs import Prefs
        if self.mode == "offline":
            from twmahjong.profiles import load_profile
            from twmahjong.tui.session import PlaySession
            s = PlaySession(load_profile("standard"), bot_names=["L2", "L2", "L2"],
                            seed=self.rng.randrange(10**6), rounds=1)
        else:
            from twmahjong.client import Api
            from twmahjong.tui.online import OnlineSession
            api = Api(self.server.base)
            await api.guest()
            s = OnlineSession(self.server.base, api.token, ("quick", None, "low"))
        self.session = s
        return PlayApp(s, self.lang, prefs=Prefs(speed=0), save=False)

    def progress(self) -> tuple[int, int]:
        """(moves, hands) so far in this match."""
        s = self.session
        if self.mode == "offline":
            evs = s.match.events
            return (sum(1 for e in evs if e["type"] in ("discard", "chi", "pon", "kong", "win")),
                    sum(1 for e in evs if e["type"] in ("win", "draw_game")))
        moves = hands = 0
        for m in s.messages:
            if m["type"] == "update":
                moves += sum(1 for e in m.get("events") or [] if e["type"] in
                             ("discard", "chi", "pon", "kong", "win"))
            elif m["type"] == "hand_end":
                hands += 1
        return moves, hands

    def waiting_on_person(self, app) -> bool:
        """Offline: the table waits for the person (a decision, a result to read)."""
        from twmahjong.tui.table import TableScreen
        s = self.session
        return bool(s.legal()) or s.hand_over or s.match_over or not isinstance(
            app.screen, TableScreen)


async def run_match(table: Table, speed: str, keys: KeyStream, until: float, stats: Stats,
                    tick=None, seed_note: str = "") -> None:
    """One match (or until the deadline) of random keys; failures go to ``stats``."""
    try:
        await _run_match(table, speed, keys, until, stats, tick, seed_note)
    except Exception as e:                   # the app died under the keys
        stats.errors.append(f"{seed_note} {type(e).__name__}: {e}")


async def _run_match(table, speed, keys, until, stats, tick, seed_note) -> None:
    app = await table.make()
    limit = table.server.quiet_limit if table.server else 5.0
    base_moves = base_hands = 0
    async with app.run_test(size=SIZE) as pilot:
        last = (-1, -1)
        quiet_since = time.monotonic()
        while time.monotonic() < until and app.is_running:
            if speed == "burst":
                batch = [keys.next() for _ in range(keys.rng.randint(1, 8))]
            else:
                batch = [keys.next()]
            stats.keys += len(batch)
            try:
                await _type(app, pilot, batch)
                if speed == "human":
                    await asyncio.sleep(keys.rng.uniform(0.1, 0.6))
                else:
                    await asyncio.sleep(keys.rng.uniform(0.0, 0.05))
            except Exception as e:               # the app raised while taking the keys
                stats.errors.append(f"{seed_note} {type(e).__name__}: {e}")
                return
            if not app.is_running:
                break
            why = _blank(app)
            if why:
                stats.blanks.append(f"{seed_note} {why} after {batch}")
                return
            now = (moves, hands) = table.progress()
            stats.moves += moves - base_moves
            stats.hands += hands - base_hands
            base_moves, base_hands = moves, hands
            if now != last:
                last, quiet_since = now, time.monotonic()
            elif table.mode == "offline" and table.waiting_on_person(app):
                quiet_since = time.monotonic()   # offline the person's clock is unlimited
            elif time.monotonic() - quiet_since > limit:
                stats.stalls.append(f"{seed_note} no move for {limit:.0f}s at "
                                    f"{table.mode} {speed}: screen {type(app.screen).__name__}, "
                                    f"status {_status(app)!r}")
                if table.server is not None:      # what the server thinks of it
                    game = getattr(table.session.link.state, "game_id", None)
                    last = [m.get("type") for m in table.session.messages[-8:]]
                    stats.stalls.append(f"    client: game {game}, last messages {last}")
                    for st in table.server.tables_state():
                        stats.stalls.append(f"    server: {st}")
                return
            if tick is not None:
                tick()
        if table.session.match_over:
            stats.matches += 1
    if getattr(app, "_exception", None) is not None:
        stats.errors.append(f"{seed_note} {app._exception!r}")


def _status(app) -> str:
    with contextlib.suppress(Exception):
        return str(app.table.query_one("#status").render())
    return ""


async def monkey(seed: int, seconds: float, modes=("offline", "online"),
                 speeds=("human", "burst"), lang: str = "zh", tick=None,
                 stats: Stats | None = None) -> Stats:
    """Random keys for ``seconds`` in all, shared between every (mode, speed)."""
    stats = stats if stats is not None else Stats()
    # the monkey's s (settings) and tokens go to a folder of its own, never the user's
    cfg = tempfile.TemporaryDirectory(prefix="monkey-tui-config-")
    old_cfg = os.environ.get("TWMJ_CONFIG_DIR")
    os.environ["TWMJ_CONFIG_DIR"] = cfg.name
    rng = random.Random(seed)
    keys = KeyStream(rng)
    server = Server() if "online" in modes else None
    try:
        runs = [(m, s) for m in modes for s in speeds]
        share = seconds / len(runs)
        for i, (mode, speed) in enumerate(runs):
            until = time.monotonic() + share
            while time.monotonic() < until and not stats.failed:
                table = Table(mode, rng, server, lang if i % 2 == 0 else "en")
                await run_match(table, speed, keys, until, stats, tick,
                                seed_note=f"[seed {seed} {mode} {speed}]")
            if stats.failed:
                break
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop)
        if old_cfg is None:
            os.environ.pop("TWMJ_CONFIG_DIR", None)
        else:
            os.environ["TWMJ_CONFIG_DIR"] = old_cfg
        cfg.cleanup()
    return stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Random keys on the terminal table until it stalls.")
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--modes", default="offline,online")
    ap.add_argument("--speeds", default="human,burst")
    a = ap.parse_args(argv)
    seed = a.seed if a.seed is not None else random.randrange(10**6)
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
    console = Console(stderr=True)
    console.print(f"monkey_tui seed {seed} ({a.minutes} min, {a.modes}, {a.speeds})")
    total = a.minutes * 60
    start = time.monotonic()
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeRemainingColumn(),
                  console=console) as bar:
        task = bar.add_task("keys 0", total=total)
        stats_box: list[Stats] = []

        def tick() -> None:
            s = stats_box[0] if stats_box else None
            desc = f"keys {s.keys} moves {s.moves} hands {s.hands}" if s else ""
            bar.update(task, completed=min(total, time.monotonic() - start), description=desc)

        async def go() -> Stats:
            import twmahjong.tui.app  # noqa: F401  (imported before the clock starts)
            s = Stats()
            stats_box.append(s)
            return await monkey(seed, total, tuple(a.modes.split(",")),
                                tuple(a.speeds.split(",")), tick=tick, stats=s)
        stats = asyncio.run(go())
    print(f"seed {seed}: {stats.keys} keys sent, {stats.moves} moves seen, {stats.hands} hands "
          f"finished, {stats.matches} matches, stalls {len(stats.stalls)}, errors "
          f"{len(stats.errors)}, blank screens {len(stats.blanks)}")
    from twmahjong.server.play.liveness import MENDS
    print(f"liveness mends in the server: {MENDS[0]}")
    for line in stats.stalls + stats.errors + stats.blanks:
        print("  " + line)
    return 1 if stats.failed or MENDS[0] else 0


if __name__ == "__main__":
    sys.exit(main())

"""What telling the seats of a move costs: this tree against a reference tree, in one run.

After every move a table sends each seat whose view changed an ``update``: its
observation, the events since its last one, its timer and every seat's clock
(``Seating._send_updates``). This bench plays the same seeded games at a real
``Table`` (the engine, L1 bots deciding for four connected people who think 0.1-3 s,
virtual time, nothing stored) in two source trees — this checkout and ``--ref``
(for example a ``git worktree add`` of the commit before a change) — and counts the
CPU time spent in ``_send_updates``, per move applied. The two sides run in their
own processes, alternating round by round, so the machine's load falls on both alike.

    git worktree add /tmp/ref HEAD~1
    .venv/bin/python bench/updates_ab.py --ref /tmp/ref --hands 12 --rounds 6

Prints CPU µs per move for each side (the median of the rounds), the ratio, and the
bytes sent per move (equal on both sides when the frames are).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
TREE = HERE.parent.parent


def _work(hands: int, seed: int) -> dict:
    """One side's round, run inside the side's own process (its tree on sys.path)."""
    import asyncio
    import heapq
    import random
    import tempfile
    import time

    from twmahjong.bots import make_bot
    from twmahjong.server.net import protocol as P
    from twmahjong.server.play import seats as seats_mod
    from twmahjong.server.play import table as table_mod
    from twmahjong.server.play.engine_game import EngineGame
    from twmahjong.server.play.seats import Seating
    from twmahjong.server.play.table import SeatState, Table, TableServices
    from twmahjong.server.play.timers import TurnClock
    from twmahjong.server.settings import Settings
    from virtual_time import VirtualAsyncio, VirtualLoop     # bench/, on the path

    class Repo:
        def queue_actions(self, game_id, rows, epoch=None):
            return 0

        async def stored(self, ticket):
            return None

        def rejected(self, game_id):
            return None

    spent = [0.0]
    calls = [0]
    sent = [0]
    inner = Seating._send_updates

    def timed(self):
        t = time.process_time()
        inner(self)
        spent[0] += time.process_time() - t
        calls[0] += 1
    Seating._send_updates = timed    # type: ignore[method-assign]

    class Person:
        def __init__(self, seat, loop, ref, rng):
            self.seat, self.loop, self.ref, self.rng = seat, loop, ref, rng
            self.bot = make_bot("L1", rng.getrandbits(32))

        def push(self, text):
            sent[0] += len(text)
            if '"legal"' in text:
                inbox.append((self, text))   # decided after, outside the timing

        def decide(self, text):
            msg = json.loads(text)
            obs = msg.get("observation") or {}
            if "legal" not in obs:
                return
            action = self.bot.act(obs)
            action = action.to_json() if hasattr(action, "to_json") else action
            m = P.ActionMsg.model_validate({"type": "action", "action": action,
                                            "turn": msg.get("turn")})
            self.loop.call_later(self.rng.uniform(0.1, 3.0), self.ref[0].inbox.put_nowait,
                                 ("action", self.seat, m, self))

    inbox: list = []
    moves = 0
    tmp = tempfile.mkdtemp(prefix="updates-ab-")
    for g in range(hands):
        loop = VirtualLoop()
        shim = VirtualAsyncio(loop)
        table_mod.asyncio = shim         # type: ignore[attr-defined]
        seats_mod.asyncio = shim         # type: ignore[attr-defined]
        settings = Settings(data_dir=tmp, secret_key="s", claim_window=0.8, bot_delay=0.4,
                            bot_talk=0.0, disconnect_grace=1000.0)
        seats = [SeatState(account_id=i + 1, name=f"p{i}", bot=None, clock=TurnClock(10, 20))
                 for i in range(4)]
        ref: list = [None]
        for i, s in enumerate(seats):
            s.conns.append(Person(i, loop, ref, random.Random(seed * 100 + g * 4 + i)))
        meta = {"mode": "casual", "profile": "standard", "stake": "low", "rounds": 1,
                "options": {"seed": seed + g}}
        game = EngineGame(meta)
        table = Table(f"g{g}", meta, seats, game,
                      TableServices(repo=Repo(), settings=settings, tokens=None,
                                    make_bot=make_bot, on_finished=None,
                                    rng=random.Random(seed + g), clock=lambda: loop.now))
        ref[0] = table

        async def play():
            await table._deal()
            while inbox:
                person, text = inbox.pop(0)
                person.decide(text)
            while not game.hand_over() and loop.timers:
                when, _, fn, args = heapq.heappop(loop.timers)
                loop.now = max(loop.now, when)
                fn(*args)
                while not table.inbox.empty():
                    await table._handle(table.inbox.get_nowait())
                    while inbox:
                        person, text = inbox.pop(0)
                        person.decide(text)

        table.hand_open = False
        asyncio.run(play())
        moves += table.turn
    return {"us_per_move": spent[0] / moves * 1e6, "moves": moves, "calls": calls[0],
            "bytes_per_move": sent[0] / moves}


def _side(tree: Path, hands: int, seed: int) -> dict:
    env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}"}
    code = (f"import sys, json; sys.path.insert(0, {str(HERE.parent)!r}); "
            f"import updates_ab; print(json.dumps(updates_ab._work({hands}, {seed})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode:
        sys.exit(f"updates_ab: the side at {tree} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ref", type=Path, required=True, help="the reference source tree")
    ap.add_argument("--hands", type=int, default=12, help="tables, one hand each")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args()
    if not (a.ref / "src" / "twmahjong").is_dir():
        sys.exit(f"updates_ab: {a.ref} has no src/twmahjong")
    runs: dict[str, list[float]] = {"ref": [], "this": []}
    last: dict[str, dict] = {}
    for r in range(a.rounds):
        for name, tree in (("ref", a.ref), ("this", TREE))[:: 1 if r % 2 == 0 else -1]:
            res = _side(tree, a.hands, a.seed)
            runs[name].append(res["us_per_move"])
            last[name] = res
    ref, this = statistics.median(runs["ref"]), statistics.median(runs["this"])
    print(f"updates sent per move ({a.hands} hands, {last['this']['moves']} moves, "
          f"{a.rounds} rounds, CPU time in Seating._send_updates):")
    for name, med in (("ref", ref), ("this", this)):
        print(f"  {name:4} {med:8.1f} µs  rounds {' '.join(f'{x:.0f}' for x in runs[name])}"
              f"  ({last[name]['calls']} calls, {last[name]['bytes_per_move']:.0f} B sent a move)")
    print(f"  this / ref = {this / ref:.3f}")


if __name__ == "__main__":
    main()

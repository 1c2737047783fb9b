"""Adaptive difficulty (自動調整難度), shown to work: simulated players of several
strengths play hands under ``adaptive`` and we watch their win share settle.

Each simulated player sits at seat 0 against the three bots the server would
seat for ``adaptive`` (``server.opponents.seats_for``: the recommended
personality, the others of its tier, then the level; at the practice table,
level 0, the personality and two bots playing at random). A game is four hands with
the deal passing round the table (one 圈 without 連莊); before each game the
level is chosen again by ``bots.adaptive.recommend`` from the player's history,
exactly as the server reads it from its records. A new player starts at L2
(``server.opponents.START_LEVEL``).

The players: a beginner who never defends and throws carelessly, noisy copies of
the levels (a level with extra careless discards), and L5 itself. Win share is a
hand won by the player (self-drawn or on a discard) over hands played, drawn
hands included: an even seat at a four-player table wins (1 - draw rate) / 4.

    .venv/bin/python bench/adaptive.py --hands 240 --seed 1
    .venv/bin/python bench/adaptive.py --hands 240 --json > out/adaptive.json

Prints, per player: the level path, the hand after which the level stopped
changing, the win share over all hands, over the last 100, and per level.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from twmahjong.bots.adaptive import Outcome, recommend
from twmahjong.bots.arena import make_seat_bot
from twmahjong.bots.policy import LEVELS, PolicyBot
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.server.play.opponents import START_LEVEL, seats_for

GAME_HANDS = 4


def _players() -> dict[str, object]:
    """Simulated people: name -> Params (levels with noise, a beginner who never defends)."""
    beginner = dataclasses.replace(LEVELS[1], noise=0.6, defence=0.0, fold=0.0)
    return {
        "beginner": beginner,
        "L2+noise": dataclasses.replace(LEVELS[2], noise=0.25),
        "L3+noise": dataclasses.replace(LEVELS[3], noise=0.15),
        "L4+noise": dataclasses.replace(LEVELS[4], noise=0.10),
        "L5": LEVELS[5],
    }


def _name(level: int) -> str:
    return "practice" if level == 0 else f"L{level}"


@dataclass
class Run:
    name: str
    outcomes: list[Outcome] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)       # level of each hand

    def share(self, hands: list[Outcome]) -> float:
        return sum(o.won for o in hands) / len(hands) if hands else 0.0

    def settled_after(self) -> int:
        """Hands played before the last change of level (0: never changed)."""
        last = 0
        for i in range(1, len(self.levels)):
            if self.levels[i] != self.levels[i - 1]:
                last = i
        return last

    def path(self) -> str:
        out: list[str] = []
        for i, lv in enumerate(self.levels):
            if not out or lv != self.levels[i - 1]:
                out.append(f"{_name(lv)}@{i}")
        return " → ".join(out)

    def report(self) -> dict:
        by_level: dict[str, dict] = {}
        for lv in sorted(set(self.levels)):
            hs = [o for o, lvl in zip(self.outcomes, self.levels) if lvl == lv]
            by_level[_name(lv)] = {"hands": len(hs), "win_share": round(self.share(hs), 3)}
        return {"player": self.name, "hands": len(self.outcomes), "path": self.path(),
                "final_level": self.levels[-1] if self.levels else None,
                "settled_after": self.settled_after(),
                "win_share": round(self.share(self.outcomes), 3),
                "win_share_last100": round(self.share(self.outcomes[-100:]), 3),
                "dealt_in_share": round(sum(o.dealt_in for o in self.outcomes)
                                        / max(1, len(self.outcomes)), 3),
                "by_level": by_level}


def simulate(name: str, params, hands: int, seed: int) -> Run:
    """One simulated player's career of ``hands`` hands under adaptive."""
    prof = load_profile("standard")
    run = Run(name)
    level = START_LEVEL
    rng = random.Random(f"adaptive/{seed}/{name}")
    game = 0
    while len(run.outcomes) < hands:
        pick = recommend(run.outcomes, level)
        level = pick.level
        seats = seats_for(level, pick.personality)
        for h_no in range(GAME_HANDS):
            hseed = rng.getrandbits(63)
            bots = [PolicyBot(params, hseed & 0x7FFFFFFF, name=name, exact=True)]
            bots += [make_seat_bot(s, (hseed >> 8) + 7919 * i, exact=True)
                     for i, s in enumerate(seats, 1)]
            h = HandState(prof, dealer=(game + h_no) % 4, seed=hseed)
            while not h.over:
                for s in list(h.pending()):
                    h.act(s, bots[s].act(h.observation(s)))
            r = h.result
            assert r is not None
            won = 0 in (r.get("winners") or [])
            dealt_in = (not won) and r.get("payer") == 0 and bool(r.get("winners"))
            run.outcomes.append(Outcome(won=won, level=level, opponent=pick.personality,
                                        dealt_in=dealt_in))
            run.levels.append(level)
            if len(run.outcomes) >= hands:
                break
        game += 1
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=240, help="hands per simulated player")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default=",".join(_players()),
                    help="comma-separated: " + ", ".join(_players()))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    known = _players()
    names = [n for n in a.players.split(",") if n]
    bad = [n for n in names if n not in known]
    if bad or a.hands < 1:
        print(f"adaptive.py: unknown player {bad[0]!r}; choose from {', '.join(known)}" if bad
              else "adaptive.py: --hands must be at least 1", file=sys.stderr)
        return 1
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table
    reports = []
    with Progress(transient=True) as prog:
        task = prog.add_task("players", total=len(names))
        for n in names:
            reports.append(simulate(n, known[n], a.hands, a.seed).report())
            prog.advance(task)
    if a.json:
        print(json.dumps({"seed": a.seed, "hands": a.hands, "players": reports}, indent=1))
        return 0
    t = Table(title=f"adaptive difficulty — {a.hands} hands each, seed {a.seed}")
    for col in ("player", "level path (level@hand)", "settled after", "win share",
                "last 100", "dealt in"):
        t.add_column(col)
    for r in reports:
        t.add_row(r["player"], r["path"], str(r["settled_after"]), f"{r['win_share']:.3f}",
                  f"{r['win_share_last100']:.3f}", f"{r['dealt_in_share']:.3f}")
    Console().print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

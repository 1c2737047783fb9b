"""The coach (教練, ``twmahjong.coach``) measured: what a hint costs, and whether it helps.

``cpu``: the CPU one hint takes (``time.process_time``: the server's thread time,
not the machine's load), over every decision with a choice of L5 self-play from
the seats' own observations, as the server asks it (``coach`` and the JSON it
sends). Prints p50/p95/max per decision kind and overall.

    .venv/bin/python bench/coach.py cpu --hands 16 --seed 3

``help``: does following the coach help a weak player? An L2 player model that
plays the coach's choice at every decision (``coached``: with chance ``--follow``,
else its own move) against plain L2 — and L6 for the ceiling — in the same seat
of the same duplicate deals against three L5 (``bench/paired.py``'s deals: same
walls, same opponents' seeds). Per deal, each player's mean net 台 a hand over the
four rotations; every player against L2 with its 95% interval. Deals are appended
to ``--out`` as they end (a run stopped early, or run again with more ``--deals``,
goes on from there); ``--report`` only reads them.

    nice .venv/bin/python bench/coach.py help --deals 400 --seed 5 [--shard 0/2]
    .venv/bin/python bench/coach.py help --deals 400 --seed 5 --report

``record``: the fixed positions tests/test_coach.py holds the coach to: decisions
of a self-play game whose seats are all L6 (a fresh ``MasterBot``, seed 0 and no
deadline, at every decision — as the coach asks it), each with L6's move there.

    .venv/bin/python bench/coach.py record --seed 11 --hands 16 --per 4 \\
        --out tests/data/coach_positions.json
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
from rich.progress import Progress

from twmahjong.bots.arena import _Seats, make_seat_bot, play_deal
from twmahjong.bots.base import Bot
from twmahjong.coach import COACH_BOT, coach, decision_of
from twmahjong.profiles import load_profile
from twmahjong.selfplay import make_bots, play_match

sys.path.insert(0, str(Path(__file__).parent))
from paired import _ci  # noqa: E402  (bench/paired.py: the arena's 95% interval)
from strength import play_missing, records, shard  # noqa: E402  (bench/strength.py)


class _Recorder:
    """A bot that keeps every observation with a choice it is shown (as plain JSON)."""

    def __init__(self, bot: Bot, out: list[dict[str, Any]]):
        self.bot, self.out, self.name = bot, out, bot.name

    def act(self, obs: Any) -> Any:
        if len(obs.get("legal") or ()) >= 2:
            self.out.append(obs.copy())
        return self.bot.act(obs)


def positions(hands: int, seed: int, bot: str = "L5") -> list[dict[str, Any]]:
    """Every decision with a choice in ``hands`` hands of ``bot`` self-play."""
    out: list[dict[str, Any]] = []
    bots = [_Recorder(b, out) for b in make_bots([bot] * 4, seed)]
    play_match(load_profile("standard"), seed=seed, rounds=4, max_hands=hands, bots=bots)
    return out


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def cpu(a: argparse.Namespace) -> None:
    obs = positions(a.hands, a.seed)
    by: dict[str, list[float]] = defaultdict(list)
    with Progress(transient=True) as bar:
        task = bar.add_task("hints", total=len(obs))
        for o in obs:
            t = time.process_time()
            orjson.dumps(coach(o).to_json())
            ms = (time.process_time() - t) * 1000
            by[decision_of(o["legal"])].append(ms)
            by["all"].append(ms)
            bar.advance(task)
    print(f"hint CPU (ms), {a.hands} hands of L5 self-play, seed {a.seed}")
    for k in sorted(by, key=lambda k: (k == "all", k)):
        xs = by[k]
        print(f"  {k:>8}: n {len(xs):5d}  p50 {_pct(xs, 0.5):6.1f}  p95 {_pct(xs, 0.95):6.1f}  "
              f"max {max(xs):6.1f}  mean {statistics.fmean(xs):6.1f}")


# -- does it help -----------------------------------------------------------------------------

class Coached:
    """An L2 player who plays the coach's choice (with chance ``follow``), else its own."""

    def __init__(self, seed: int, follow: float = 1.0):
        self.own = make_seat_bot("L2", seed, exact=True)
        self.rng = random.Random(seed)
        self.follow = follow
        self.name = "coached"

    def act(self, obs: Any) -> Any:
        legal = obs.get("legal") or []
        if len(legal) >= 2 and (self.follow >= 1.0 or self.rng.random() < self.follow):
            return coach(obs).choice
        return self.own.act(obs)


class _Seat0(_Seats):
    """Entrant 0 is the player under test, the others the opponents."""

    def __init__(self, specs: list[str], player: str, follow: float):
        super().__init__(specs, 2.0)
        self.player, self.follow = player, follow

    def bot(self, entrant: int, seed: int) -> Bot:
        if entrant == 0:
            if self.player == "coached":
                return Coached(seed, self.follow)
            return make_seat_bot(self.player, seed, exact=True)
        return super().bot(entrant, seed)


def play(players: list[str], against: str, deal: int, seed: int, follow: float
         ) -> dict[str, list[float]]:
    prof = load_profile("standard")
    specs = ["X", against, against, against]
    out = {}
    for p in players:
        plays = play_deal(specs, deal, seed, duplicate=True, profile=prof,
                          seats=_Seat0(specs, p, follow))
        tai = sum(t for row in plays for e, _n, t, *_ in row if e == 0)
        net = sum(n for row in plays for e, n, _t, *_ in row if e == 0)
        out[p] = [tai / len(plays), net / len(plays)]
    return out


def helps(a: argparse.Namespace) -> None:
    players = ["L2", "coached", COACH_BOT]
    a.out.mkdir(parents=True, exist_ok=True)
    tag = f"help_{a.against}_s{a.seed}_f{a.follow:g}"
    if not a.report:
        sh = a.shard or (0, 1)
        path = a.out / f"{tag}.{sh[0]}-of-{sh[1]}.jsonl"
        done = {r["deal"] for r in records(path)}
        todo = [d for d in range(sh[0], a.deals, sh[1]) if d not in done]
        with Progress() as bar:
            task = bar.add_task(f"deals ({path.name})", total=len(todo))

            def one(d: int) -> dict[str, Any]:
                r = {"deal": d, "res": play(players, a.against, d, a.seed, a.follow)}
                bar.advance(task)
                return r
            play_missing(path, sh, a.deals, done, one)
    rows: dict[int, dict[str, Any]] = {}
    for part in a.out.glob(f"{tag}.*.jsonl"):
        for r in records(part):
            rows[r["deal"]] = r["res"]
    deals = sorted(rows)
    if not deals:
        print("no deals played yet")
        return
    print(f"{len(deals)} deals against three {a.against}, seed {a.seed}, follow {a.follow:g}")
    for p in players:
        t = _ci([rows[d][p][0] for d in deals])
        dt = _ci([rows[d][p][0] - rows[d]["L2"][0] for d in deals])
        print(f"{p:>8}: 台/hand {t[0]:+.3f} ± {t[1]:.3f}; vs L2 {dt[0]:+.3f} ± {dt[1]:.3f}")
    near = _ci([rows[d]["coached"][0] - rows[d][COACH_BOT][0] for d in deals])
    print(f" coached vs {COACH_BOT}: {near[0]:+.3f} ± {near[1]:.3f}")
    gain = [rows[d]["coached"][0] - rows[d]["L2"][0] for d in deals]
    ceil = [rows[d][COACH_BOT][0] - rows[d]["L2"][0] for d in deals]
    if statistics.fmean(ceil) > 0:
        print(f"the coach lifts L2 {statistics.fmean(gain) / statistics.fmean(ceil):.0%} "
              f"of the way to {COACH_BOT}")


# -- the test's positions ---------------------------------------------------------------------

class _FreshL6:
    """L6 made afresh (seed 0, exact) at every decision, as the coach asks it."""
    name = COACH_BOT

    def act(self, obs: Any) -> Any:
        return make_seat_bot(COACH_BOT, 0, exact=True).act(obs)


def record(a: argparse.Namespace) -> None:
    seen: list[dict[str, Any]] = []

    class Keep:
        name = COACH_BOT

        def act(self, obs: Any) -> Any:
            move = _FreshL6().act(obs)
            if len(obs.get("legal") or ()) >= 2:
                js = move if isinstance(move, dict) else move.to_json()
                seen.append({"observation": obs.copy(), "l6": dict(js)})
            return move
    play_match(load_profile(a.profile), seed=a.seed, rounds=4, max_hands=a.hands,
               bots=[Keep() for _ in range(4)])
    rng = random.Random(a.seed)
    kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for p in seen:
        kinds[decision_of(p["observation"]["legal"])].append(p)
    keep: list[dict[str, Any]] = []
    for k in sorted(kinds):                 # every kind of decision, up to a.per of each
        keep += rng.sample(kinds[k], min(a.per, len(kinds[k])))
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({"command": " ".join(sys.argv), "positions": keep},
                                ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(keep)} positions ({', '.join(f'{k} {len(v)}' for k, v in sorted(kinds.items()))}"
          f" seen) -> {a.out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("cpu", help="what a hint costs")
    c.add_argument("--hands", type=int, default=16)
    c.add_argument("--seed", type=int, default=3)
    h = sub.add_parser("help", help="L2 following the coach against plain L2 (and L6)")
    h.add_argument("--deals", type=int, default=400)
    h.add_argument("--seed", type=int, default=5)
    h.add_argument("--against", default="L5")
    h.add_argument("--follow", type=float, default=1.0,
                   help="the chance the coached player plays the coach's choice")
    h.add_argument("--shard", type=shard, default=None)
    h.add_argument("--report", action="store_true", help="only read the deals played")
    h.add_argument("--out", type=Path, default=Path("out/coach"))
    r = sub.add_parser("record", help="positions for tests/test_coach.py")
    r.add_argument("--seed", type=int, default=11)
    r.add_argument("--hands", type=int, default=4)
    r.add_argument("--profile", default="casual", help="casual: 報聽 at any time (ready decisions)")
    r.add_argument("--per", type=int, default=6, help="positions kept per kind of decision")
    r.add_argument("--out", type=Path, default=Path("tests/data/coach_positions.json"))
    a = ap.parse_args()
    {"cpu": cpu, "help": helps, "record": record}[a.mode](a)


if __name__ == "__main__":
    main()

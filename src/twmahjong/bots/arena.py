"""The arena (對戰場): bots play many hands so strength is measured, not claimed.

Duplicate format (複式): each deal — one wall, one dealer — is played four times,
rotating the bots through the seats, so every bot meets the same tiles from every
seat and the luck of the deal cancels out of the comparison. Everything is
derived from the run's seed (walls, bot seeds), so a run replays exactly, and
the deal is the unit of the statistics: per bot, the mean net per hand over a
deal's plays, then the mean over deals with a 95% confidence interval
(1.96 standard errors; deals are independent).

    >>> r = run_arena(["L2", "L1", "L1", "L1"], deals=2, seed=1)
    >>> sorted(r["bots"]) == ["L1", "L2"]
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, cast

from ..errors import UserError
from .base import Bot
from .personalities import PERSONALITIES, get_personality
from .policy import LEVELS, Params, PolicyBot

if TYPE_CHECKING:
    from ..engine.results import HandResult
    from ..profiles import Profile
    from .pipe import PipeBot

__all__ = ["EFFICIENCY", "ArenaError", "make_seat_bot", "play_deal", "run_arena", "seat_names"]

# The pure tile-efficiency baseline: shanten + useful tiles, every claim that
# advances the hand, no value, no defence, no declarations beyond what is free.
EFFICIENCY = Params(2)


class ArenaError(UserError):
    """A seat name or setting the arena cannot use."""


# One seat of one play: (entrant, net points, net 台, won, dealt in, self-drawn, 台 if won)
Play = tuple[int, int, float, bool, bool, bool, int]


class BotFigures(TypedDict):
    """One bot's figures in the report; the intervals are 95%."""
    seats: int
    hands: int
    win_rate: float
    deal_in_rate: float
    self_draw_rate: float
    avg_tai_per_win: float
    net_per_hand: float
    net_ci95: list[float]
    tai_per_hand: float
    tai_ci95: list[float]


class Comparison(TypedDict):
    """The first seat's bot against another: per-deal differences of the means."""
    a: str
    b: str
    net_diff: float
    net_diff_ci95: list[float]
    tai_diff: float
    tai_diff_ci95: list[float]


class ArenaReport(TypedDict, total=False):
    """``summarise``'s figures; ``run_arena`` adds how the run was set up."""
    hands: int
    draw_rate: float
    bots: dict[str, BotFigures]
    comparisons: list[Comparison]
    seed: int
    deals: int
    duplicate: bool
    profile: str
    seats: list[str]


def seat_names() -> list[str]:
    return ["random", "efficiency"] + [f"L{i}" for i in LEVELS] + ["L6"] + [p.id for p in PERSONALITIES] + \
        ["pipe:COMMAND"]


def make_seat_bot(spec: str, seed: int, *, pipe_timeout: float = 2.0, exact: bool = False) -> Bot:
    """A bot for one arena seat name (``L4``, ``efficiency``, ``shark``, ``pipe:CMD`` …);
    ``exact`` policy bots search without a deadline (``PolicyBot``)."""
    if spec == "random":
        from .random_bot import RandomBot
        return RandomBot(seed)
    if spec == "efficiency":
        return PolicyBot(EFFICIENCY, seed, name="efficiency", exact=exact)
    if spec in ("L6", "l6"):
        from .master import MasterBot
        return MasterBot(seed, exact=exact)
    if len(spec) == 2 and spec[0] in "Ll" and spec[1].isdigit() and int(spec[1]) in LEVELS:
        return PolicyBot(LEVELS[int(spec[1])], seed, name=spec.upper(), exact=exact)
    p = get_personality(spec)
    if p is not None:
        return PolicyBot(p.params, seed, name=p.id, exact=exact)
    if spec.startswith("pipe:"):
        from .pipe import PipeBot
        return PipeBot(spec[5:], timeout=pipe_timeout, name=spec)
    raise ArenaError(f"unknown seat {spec!r}; use one of: random, efficiency, L1-L6, "
                     f"a personality id ({', '.join(p.id for p in PERSONALITIES)}) or pipe:COMMAND")


def _deal_seed(seed: int, deal: int) -> int:
    return random.Random(f"twmj-arena/{seed}/{deal}").getrandbits(63)


class _Seats:
    """The bots of one worker: policy bots are re-seeded per hand, external bots
    (processes) are started once and kept."""

    def __init__(self, specs: list[str], pipe_timeout: float):
        self.specs = specs
        self.pipe_timeout = pipe_timeout
        self.pipes: dict[int, PipeBot] = {}

    def bot(self, entrant: int, seed: int) -> Bot:
        spec = self.specs[entrant]
        if spec.startswith("pipe:"):
            if entrant not in self.pipes:
                self.pipes[entrant] = cast("PipeBot", make_seat_bot(   # a pipe: seat's bot
                    spec, seed, pipe_timeout=self.pipe_timeout))
            return self.pipes[entrant]
        return make_seat_bot(spec, seed, exact=True)     # replays on any machine, any load

    def close(self) -> None:
        for b in self.pipes.values():
            b.close()


def _tai_flow(result: HandResult) -> list[float]:
    """Net 台 per seat: a self-draw takes the hand's 台 from each of three, a
    deal-in from the discarder alone (dealer's 台 included, as the scorer counts)."""
    flow = [0.0] * 4
    payer = result.get("payer")
    for w in result.get("winners") or []:
        tai = result["tai"][w]
        if payer is None:
            for s in range(4):
                if s != w:
                    flow[s] -= tai
                    flow[w] += tai
        else:
            flow[payer] -= tai
            flow[w] += tai
    return flow


def play_deal(specs: list[str], deal: int, seed: int, *, duplicate: bool, profile: Profile,
              seats: _Seats | None = None, pipe_timeout: float = 2.0) -> list[list[Play]]:
    """Play one deal (four rotations when ``duplicate``); per play, per seat:
    (entrant, net, tai_flow, won, dealt_in, self_drawn, tai_if_won)."""
    from ..engine import HandState
    own = seats is None
    seats = seats or _Seats(specs, pipe_timeout)
    dseed = _deal_seed(seed, deal)
    dealer = deal % 4
    plays: list[list[Play]] = []
    try:
        for rot in range(4 if duplicate else 1):
            entrant_at = [(s + rot) % 4 for s in range(4)]
            bots = [seats.bot(entrant_at[s], (dseed + 7919 * rot + 104729 * s) & 0x7FFFFFFF)
                    for s in range(4)]
            h = HandState(profile, dealer=dealer, seed=dseed)
            while not h.over:
                for s in list(h.pending()):
                    h.act(s, bots[s].act(h.observation(s)))
            r = h.result
            assert r is not None                # the hand is over
            for b in bots:
                end = getattr(b, "end_hand", None)
                if end is not None:
                    end(r)
            net = r.get("net") or [0, 0, 0, 0]
            flow = _tai_flow(r)
            winners = r.get("winners") or []
            payer = r.get("payer")
            row: list[Play] = []
            for s in range(4):
                won = s in winners
                row.append((entrant_at[s], net[s], flow[s], won,
                            (not won) and payer == s and bool(winners),
                            won and payer is None, r["tai"][s] if won else 0))
            plays.append(row)
    finally:
        if own:
            seats.close()
    return plays


# ---- workers ------------------------------------------------------------------------------

_W: dict[str, Any] = {}        # one worker process's run: specs, seed, duplicate, profile, seats


def _init_worker(specs: list[str], seed: int, duplicate: bool, profile_name: str,
                 pipe_timeout: float) -> None:
    from ..profiles import load_profile
    _W.update(specs=specs, seed=seed, duplicate=duplicate, profile=load_profile(profile_name),
              seats=_Seats(specs, pipe_timeout))


def _work(deals: list[int]) -> list[tuple[int, list[list[Play]]]]:
    return [(d, play_deal(_W["specs"], d, _W["seed"], duplicate=_W["duplicate"],
                          profile=_W["profile"], seats=_W["seats"])) for d in deals]


def run_arena(specs: list[str], deals: int, seed: int = 0, *, duplicate: bool = True,
              workers: int = 1, profile: str = "standard", pipe_timeout: float = 2.0,
              progress: Callable[[int], None] | None = None) -> ArenaReport:
    """Play ``deals`` deals and report each bot's figures (see ``summarise``)."""
    if len(specs) != 4:
        raise ArenaError(f"the arena needs exactly four seats, got {len(specs)}")
    for s in specs:
        if not s.startswith("pipe:"):
            make_seat_bot(s, 0)             # an unknown name fails here, before any play
    if deals < 1:
        raise ArenaError("--hands must be at least 1")
    from ..profiles import load_profile
    results: dict[int, list[list[Play]]] = {}
    chunk = max(1, min(25, deals // (workers * 8) or 1))
    batches = [list(range(i, min(deals, i + chunk))) for i in range(0, deals, chunk)]
    if workers <= 1:
        prof = load_profile(profile)
        seats = _Seats(specs, pipe_timeout)
        try:
            for b in batches:
                for d in b:
                    results[d] = play_deal(specs, d, seed, duplicate=duplicate, profile=prof,
                                           seats=seats)
                if progress:
                    progress(len(b))
        finally:
            seats.close()
    else:
        import multiprocessing as mp
        ctx = mp.get_context("spawn")
        with ctx.Pool(workers, _init_worker,
                      (specs, seed, duplicate, profile, pipe_timeout)) as pool:
            for out in pool.imap_unordered(_work, batches):
                for d, plays in out:
                    results[d] = plays
                if progress:
                    progress(len(out))
    report = summarise(specs, [results[d] for d in range(deals)])
    report.update({"seed": seed, "deals": deals, "duplicate": duplicate, "profile": profile,
                   "seats": list(specs)})
    return report


# ---- statistics ---------------------------------------------------------------------------

def _mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    return m, m - half, m + half


def summarise(specs: list[str], deals: list[list[list[Play]]]) -> ArenaReport:
    """Per bot name: win, deal-in and self-draw rates, 台 per win, net points and
    net 台 per hand with 95% intervals; and the first seat's bot against each other
    bot (the per-deal difference of means, with its interval)."""
    names = list(dict.fromkeys(specs))
    per_deal: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    tot = {n: {"hands": 0, "wins": 0, "deal_ins": 0, "self_draws": 0, "tai": 0} for n in names}
    draws = 0
    plays_total = 0
    for plays in deals:
        acc: dict[str, list[float]] = {n: [0.0, 0.0, 0] for n in names}   # net, 台, plays
        for row in plays:
            plays_total += 1
            if not any(x[3] for x in row):
                draws += 1
            for entrant, net, flow, won, dealt_in, sd, tai in row:
                name = specs[entrant]
                a = acc[name]
                a[0] += net
                a[1] += flow
                a[2] += 1
                t = tot[name]
                t["hands"] += 1
                t["wins"] += won
                t["deal_ins"] += dealt_in
                t["self_draws"] += sd
                t["tai"] += tai
        for n in names:
            if acc[n][2]:
                per_deal[n].append((acc[n][0] / acc[n][2], acc[n][1] / acc[n][2]))
    bots: dict[str, BotFigures] = {}
    for n in names:
        t = tot[n]
        h = max(1, t["hands"])
        m, lo, hi = _mean_ci([x[0] for x in per_deal[n]])
        tm, tlo, thi = _mean_ci([x[1] for x in per_deal[n]])
        bots[n] = {
            "seats": specs.count(n), "hands": t["hands"],
            "win_rate": t["wins"] / h, "deal_in_rate": t["deal_ins"] / h,
            "self_draw_rate": t["self_draws"] / h,
            "avg_tai_per_win": t["tai"] / t["wins"] if t["wins"] else 0.0,
            "net_per_hand": m, "net_ci95": [lo, hi],
            "tai_per_hand": tm, "tai_ci95": [tlo, thi],
        }
    comparisons: list[Comparison] = []
    first = names[0]
    for b in names[1:]:
        dn = [x[0] - y[0] for x, y in zip(per_deal[first], per_deal[b])]
        dt = [x[1] - y[1] for x, y in zip(per_deal[first], per_deal[b])]
        m, lo, hi = _mean_ci(dn)
        tm, tlo, thi = _mean_ci(dt)
        comparisons.append({"a": first, "b": b, "net_diff": m, "net_diff_ci95": [lo, hi],
                            "tai_diff": tm, "tai_diff_ci95": [tlo, thi]})
    return {"hands": plays_total, "draw_rate": draws / max(1, plays_total), "bots": bots,
            "comparisons": comparisons}

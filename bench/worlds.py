"""Search over sampled worlds where L6's correction is uncertain (bench, not a test).

L6 corrects L5 by a linear fit and makes a correction only when the fit's lower
bound clears zero. At the decisions where the point estimate says another move is
better but the bound does not clear (the bound *straddles* zero), the fit cannot
decide; search might. ``SL6`` is L6 that, at each such discard or claim decision,
deals ``worlds`` worlds from its own view, plays its choice and the alternative in
each (the same worlds for both: common random numbers) to the end with fast bots
(``policy``), and compares the seat's net 台. Results: docs/bots.md, "Search over
sampled worlds".

    # what the worlds can tell at those decisions: a world's spread, a search on
    # the first k worlds judged on the rest, the best a search on W worlds can do
    .venv/bin/python bench/worlds.py need --deals 400 --seed 21 --worlds 32 --shard 0/2
    .venv/bin/python bench/worlds.py need --deals 400 --seed 21 --worlds 32 --shard 1/2
    .venv/bin/python bench/worlds.py need --deals 400 --seed 21 --worlds 32
    #   (--at risky: where the reader finds L6's tile risky; --deal developed;
    #    --policy L4)

    # how far along the opponents' hands are, in truth and in the worlds
    .venv/bin/python bench/worlds.py hands --hands 60 --seed 9

    # played: SL6 beside L6 in bench/paired.py (the knobs below, ``;``-separated)
    .venv/bin/python bench/paired.py --players "L6,SL6:worlds=16;mode=pure" \\
        --against L5 --deals 500 --seed 11 --shard 0/2

Knobs of ``SL6``: ``worlds=N`` (16); ``mode=`` ``bayes`` (the fit's estimate and
the worlds' mean weighed by their precisions: the posterior mean must clear the
fit's margin), ``pure`` (the worlds' mean alone decides) or ``record`` (``need``:
nothing changes, what the worlds say is kept); ``policy=NAME`` (the playout bots,
``efficiency``); ``at=`` ``straddle`` (the decisions above) or ``risky`` (discards
where the reader gives L6's tile at least a 4% chance of dealing in and its
safest candidate is 2 points safer: that one is the alternative, whatever the fit
says); ``deal=`` ``uniform`` (``analysis.sample_world``: the hidden tiles dealt
again at random, declared seats waiting on nothing they let go, as the game
review first dealt them) or ``developed`` (``analysis.deal_developed``, the
review's worlds since bench/review_worlds.py measured them closer to the truth:
the opponents' hands as far along as the table shows). The bot finds the hand it
is asked about through the arena's ``HandState.observation`` (a bench's shortcut;
the worlds read only what the seat can see, ``tests/engine/test_rollout.py`` and
``tests/test_analysis.py``), so it plays only in the arena, never at a
server table.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twmahjong.analysis import (_play_out, _reference_bot, deal_developed, passed_waits,
                                sample_world)
from twmahjong.bots.advantage import score
from twmahjong.bots.arena import _Seats, _tai_flow, play_deal
from twmahjong.bots.master import Explorer, MasterBot, safer_discard
from twmahjong.engine.rollout import clone, determinize
from twmahjong.engine.table import HandState
from twmahjong.profiles import load_profile

sys.path.insert(0, str(Path(__file__).parent))
from paired import _ci  # noqa: E402  (bench/paired.py: the arena's 95% interval)
# bench/strength.py: --shard I/K, results files
from strength import play_missing, records, shard  # noqa: E402

RISKY_AT = Explorer.risky_at    # at=risky: the choice's chance of dealing in at least ...
RISKY_GAP = Explorer.risky_gap  # ... and the reader's safest candidate this much safer
_CURRENT: list[HandState | None] = [None]   # the hand the arena last asked a seat about


def watch() -> None:
    """Let a searching bot find its hand: the arena asks ``h.observation(seat)``
    right before ``bot.act``; remember ``h``. Idempotent."""
    real = HandState.observation
    if getattr(real, "_watched", False):
        return

    def observation(self: HandState, seat: int) -> Any:
        _CURRENT[0] = self
        return real(self, seat)
    observation._watched = True        # type: ignore[attr-defined]
    HandState.observation = observation  # type: ignore[method-assign]


class SearchL6(MasterBot):
    """L6; where its fit straddles zero, the worlds decide too (see the module)."""

    def __init__(self, seed: int, *, worlds: int = 16, mode: str = "bayes",
                 policy: str = "efficiency", at: str = "straddle", deal: str = "uniform",
                 name: str = "SL6",
                 record: list[dict[str, Any]] | None = None):
        super().__init__(seed, name=name, exact=True)
        if mode not in ("bayes", "pure", "record"):
            raise SystemExit(f"SL6 mode is bayes, pure or record, not {mode!r}")
        if at not in ("straddle", "risky"):
            raise SystemExit(f"SL6 searches at straddle or risky decisions, not {at!r}")
        if deal not in ("uniform", "developed"):
            raise SystemExit(f"SL6 deals uniform or developed worlds, not {deal!r}")
        if worlds < 2:
            raise SystemExit(f"SL6 needs at least 2 worlds a decision, not {worlds}")
        self.worlds, self.mode, self.at, self.record = worlds, mode, at, record
        self.deal = deal
        self.playout = [_reference_bot(policy, 7 + s) for s in range(4)]
        self.world_rng = random.Random(seed * 7_919 + 17)   # apart from L5's own stream
        self._act_of: Callable[[Any], Any] | None = None
        self._seat = -1
        self._view: Any = None
        watch()

    # the moves a candidate stands for, known where L6 names its candidates
    def _correct_discard(self, v, ranked, table, d):  # type: ignore[no-untyped-def]
        self._act_of, self._seat, self._view = (lambda k: v.find("discard", k)), v.seat, v
        try:
            return super()._correct_discard(v, ranked, table, d)
        finally:
            self._act_of = None

    def _claim(self, v):  # type: ignore[no-untyped-def]
        passed = v.find("pass")
        if passed is not None and v.legal_types() & {"chi", "pon", "kong"}:
            _base, scored, l5 = self._claim_options(v)
            if scored:
                c = l5 or max(scored, key=lambda o: o.score)
                self._act_of = lambda take: c.action if take else passed
                self._seat, self._view = v.seat, v
        try:
            return super()._claim(v)
        finally:
            self._act_of = None

    def _improve(self, group, cands, base, feats, target=None):  # type: ignore[no-untyped-def]
        choice = super()._improve(group, cands, base, feats, target)
        act_of = self._act_of
        if act_of is None or group not in ("discard", "claim") or not self.stages:
            return choice
        w = self.stages[-1]
        alt = None
        if self.at == "risky":
            if group != "discard":
                return choice
            safest = safer_discard(self._reading(self._view), cands, choice, RISKY_AT, RISKY_GAP)
            if safest is not None:
                x = feats(safest, choice)
                alt = (safest, score(w.groups[group], x), w.advantage(group, x))
        else:
            for c in cands:
                if c != choice:
                    x = feats(c, choice)
                    pt, lb = score(w.groups[group], x), w.advantage(group, x)
                    if pt > w.margin >= lb and (alt is None or pt > alt[1]):
                        alt = (c, pt, lb)
        h = _CURRENT[0]
        if alt is None or h is None or self._seat not in h.pending():
            return choice
        c, pt, lb = alt
        t0 = time.process_time()
        dt, dp = self._diffs(h, self._seat, act_of(choice), act_of(c))
        ms = 1000 * (time.process_time() - t0) / len(dt)
        m = statistics.fmean(dt)
        var = statistics.variance(dt) if len(dt) > 1 else 0.0
        s = (pt - lb) / w.confidence if w.confidence else 0.0
        if self.record is not None:
            self.record.append({"group": group, "pt": pt, "lb": lb, "s": s, "n": len(dt),
                                "mean": m, "var": var, "zero": sum(1 for x in dt if x == 0),
                                "mean_pts": statistics.fmean(dp),
                                "var_pts": statistics.variance(dp) if len(dp) > 1 else 0.0,
                                "ms": ms, "dt": dt})
        if self.mode == "pure":
            return c if m > 0 else choice
        if self.mode == "bayes":
            se2 = max(var, 0.25) / len(dt)          # a floor: a few worlds can all agree
            post = (pt / s**2 + m / se2) / (1 / s**2 + 1 / se2) if s > 0 else pt
            return c if post > w.margin else choice
        return choice

    def _diffs(self, h: HandState, seat: int, a: Any, b: Any) -> tuple[list[float], list[float]]:
        """Per world, the seat's net 台 and points after ``b`` minus after ``a``."""
        facts = passed_waits(h, seat)
        dt: list[float] = []
        dp: list[float] = []
        ready: dict[int, float] = {}
        wins = None
        if self.deal == "developed":
            read = self._reading(self._view)
            ready = {s: read.ready(s) for s in range(4) if s != seat}
            wins = read.wins
        for _ in range(self.worlds):
            if self.deal == "developed":
                for _ in range(20):
                    world = deal_developed(h, seat, self.world_rng, ready, wins)
                    if all(not (world.seats[d].waits & kinds) for d, kinds in facts.items()):
                        break
            else:
                world = sample_world(h, seat, self.world_rng, facts)
            out = []
            for act in (a, b):
                c = clone(world)
                c.act(seat, act)
                _play_out(c, self.playout)
                r = c.result
                assert r is not None
                net = r.get("net") or [0, 0, 0, 0]
                out.append((_tai_flow(r)[seat], float(net[seat])))
            dt.append(out[1][0] - out[0][0])
            dp.append(out[1][1] - out[0][1])
        return dt, dp


def make_sl6(knobs: str, seed: int, record: list[dict[str, Any]] | None = None) -> SearchL6:
    bare = [x for x in knobs.split(";") if x and "=" not in x]
    if bare:
        raise SystemExit(f"SL6 knobs are name=value: {', '.join(bare)}")
    kw = dict(x.split("=", 1) for x in knobs.split(";") if x)
    try:
        bot = SearchL6(seed, worlds=int(kw.pop("worlds", 16)), mode=kw.pop("mode", "bayes"),
                       policy=kw.pop("policy", "efficiency"), at=kw.pop("at", "straddle"),
                       deal=kw.pop("deal", "uniform"),
                       name=f"SL6:{knobs}", record=record)
    except ValueError as e:
        raise SystemExit(f"SL6 knobs: {e}") from None
    if kw:
        raise SystemExit(f"unknown SL6 knobs: {', '.join(kw)}")
    return bot


class _RecordSeats(_Seats):
    def __init__(self, specs: list[str], knobs: str, record: list[dict[str, Any]]):
        super().__init__(specs, 2.0)
        self.knobs, self.rows = knobs, record

    def bot(self, entrant: int, seed: int):  # type: ignore[no-untyped-def]
        if entrant == 0:
            return make_sl6(self.knobs, seed, self.rows)
        return super().bot(entrant, seed)


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def need(a: argparse.Namespace) -> None:
    out = a.out / f"need_s{a.seed}_w{a.worlds}_{a.policy}_{a.at}" \
        f"{'_developed' if a.deal == 'developed' else ''}"
    out.mkdir(parents=True, exist_ok=True)
    if a.shard:
        i, k = a.shard
        prof = load_profile("standard")
        specs = ["X", "L5", "L5", "L5"]
        path = out / f"{i}-of-{k}.jsonl"
        knobs = f"worlds={a.worlds};mode=record;policy={a.policy};at={a.at};deal={a.deal}"

        def record(d: int) -> dict[str, Any]:
            rows: list[dict[str, Any]] = []
            play_deal(specs, d, a.seed, duplicate=False, profile=prof,
                      seats=_RecordSeats(specs, knobs, rows))
            return {"deal": d, "rows": rows}
        play_missing(path, a.shard, a.deals, {r["deal"] for r in records(path)}, record)
        return
    deals: dict[int, list[dict[str, Any]]] = {}
    for part in out.glob("*.jsonl"):
        for r in records(part):
            deals[r["deal"]] = r["rows"]
    rows = [x for d in sorted(deals) for x in deals[d]]
    print(f"{len(deals)} hands (SL6 recording in seat 0 against three L5), seed {a.seed}, "
          f"{a.worlds} {a.deal} worlds a decision, playouts by {a.policy}, at {a.at} decisions")
    for g in ("discard", "claim", "all"):
        rs = [x for x in rows if g == "all" or x["group"] == g]
        if len(rs) < 2:
            continue
        per_hand = len(rs) / len(deals)
        sd = [math.sqrt(x["var"]) for x in rs]
        zero = sum(x["zero"] for x in rs) / sum(x["n"] for x in rs)
        means = [x["mean"] for x in rs]
        noise = statistics.fmean(x["var"] / x["n"] for x in rs)
        tau = math.sqrt(max(0.0, statistics.variance(means) - noise))
        ms = statistics.fmean(x["ms"] for x in rs)
        print(f"\n{g}: {len(rs)} {a.at} decisions ({per_hand:.2f} a hand); "
              f"CPU a pair of playouts {ms:.1f} ms")
        pt = statistics.fmean(x["pt"] for x in rs)
        print(f"  the fit's gain for the alternative: mean {pt:+.4f} 台, "
              f"median {statistics.median(x['pt'] for x in rs):+.4f}; its standard error median "
              f"{statistics.median(x['s'] for x in rs):.4f}")
        m, h = _ci(means)
        print(f"  the worlds' gain (alternative − choice): mean {m:+.3f} ± {h:.3f} 台, "
              f"points {statistics.fmean(x['mean_pts'] for x in rs):+.1f}")
        print(f"  a world's difference: spread median {statistics.median(sd):.2f} 台 "
              f"[10%: {_q(sd, 0.1):.2f}, 90%: {_q(sd, 0.9):.2f}], alike (0) in {zero:.0%}; "
              f"true spread between decisions (beyond the noise) {tau:.3f} 台")
        print("  a search deciding on the first k worlds, judged on the others "
              "(gain over the choice, 台 a decision and a hand):")
        for k in (2, 4, 8, 16, 32, 64):
            if k >= min(x["n"] for x in rs):
                break
            switch = [statistics.fmean(x["dt"][:k]) > 0 for x in rs]
            gain = [statistics.fmean(x["dt"][k:]) if sw else 0.0 for x, sw in zip(rs, switch)]
            switched = sum(switch)
            gm, gh = _ci(gain)
            print(f"    k={k:>3}: switches {switched / len(rs):.0%}, "
                  f"{gm:+.4f} ± {gh:.4f} a decision, "
                  f"{gm * per_hand:+.4f} ± {gh * per_hand:.4f} a hand")
        pooled = statistics.fmean(x["var"] for x in rs)
        print("  the best a search on W worlds can do if these decisions' gains spread as "
              "measured (switching where the worlds' posterior is above zero):")
        for w in (16, 32, 64, 128, 256):
            best = expected_gain(m, tau * tau, pooled / w)
            print(f"    W={w:>3}: {best:+.4f} a decision, {best * per_hand:+.4f} a hand, "
                  f"{w * ms:.0f} ms of CPU a decision")


def expected_gain(mu: float, tau2: float, eps2: float) -> float:
    """What switching gains on average when a decision's true gain is N(mu, tau2) and
    the search sees it with noise of variance eps2, switching where the posterior
    mean is above zero: E[a; m > c] for a ~ N(mu, tau2), m = a + noise."""
    if tau2 <= 0:
        return max(0.0, mu)
    sd = math.sqrt(tau2 + eps2)
    c = -mu * eps2 / tau2                     # posterior mean > 0  <=>  m > c
    z = (c - mu) / sd
    n = statistics.NormalDist()
    return mu * (1 - n.cdf(z)) + tau2 / sd * n.pdf(z)


def hands(a: argparse.Namespace) -> None:
    """How far from ready the opponents' hands are, in truth and in the worlds: L5
    self-play, at some of seat 0's turns (its 2nd, 5th, 8th, 11th, 14th discard)."""
    from twmahjong.bots.efficiency import shanten
    from twmahjong.bots.reader import read_table
    from twmahjong.bots.view import View
    from twmahjong.engine.observe import lazy_observation
    prof = load_profile("standard")
    rng = random.Random(a.seed)
    rows: dict[int, dict[str, list[int]]] = {}
    for i in range(a.hands):
        h = HandState(prof, dealer=i % 4, seed=a.seed * 1_000 + i)
        bots = [_reference_bot("L5", i * 4 + s) for s in range(4)]
        while not h.over:
            pend = list(h.pending())
            t = len(h.seats[0].discards)
            if h.phase == "turn" and 0 in pend and t in (2, 5, 8, 11, 14):
                read = read_table(View.from_observation(h.observation(0)))
                ready = {s: read.ready(s) for s in (1, 2, 3)}
                r = rows.setdefault(t, {"truth": [], "uniform": [], "developed": []})
                r["truth"] += [shanten(list(h.seats[s].counts)) for s in (1, 2, 3)]
                for _ in range(4):
                    u = determinize(h, 0, rng)
                    d = deal_developed(h, 0, rng, ready, read.wins)
                    r["uniform"] += [shanten(list(u.seats[s].counts)) for s in (1, 2, 3)]
                    r["developed"] += [shanten(list(d.seats[s].counts)) for s in (1, 2, 3)]
            for s in pend:
                h.act(s, bots[s].act(lazy_observation(h, s)))
    print(f"{a.hands} hands of L5 self-play (seed {a.seed}): the opponents' hands at seat 0's "
          "n-th discard, mean shanten and share ready")
    print(f"{'n':>3} {'hands':>6} {'truth':>14} {'uniform worlds':>16} {'developed worlds':>18}")
    for t in sorted(rows):
        cells = [f"{statistics.fmean(xs):.2f}, {sum(x <= 0 for x in xs) / len(xs):4.0%}"
                 for xs in (rows[t]["truth"], rows[t]["uniform"], rows[t]["developed"])]
        print(f"{t:>3} {len(rows[t]['truth']):>6} {cells[0]:>14} {cells[1]:>16} {cells[2]:>18}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    n = sub.add_parser("need", help="the spread of the worlds at L6's straddling decisions")
    n.add_argument("--deals", type=int, default=100)
    n.add_argument("--seed", type=int, default=21)
    n.add_argument("--worlds", type=int, default=32)
    n.add_argument("--policy", default="efficiency")
    n.add_argument("--at", choices=("straddle", "risky"), default="straddle",
                   help="straddle: where the fit's bound straddles zero; risky: where the reader "
                        "finds L6's tile risky, against its safest candidate")
    n.add_argument("--deal", choices=("uniform", "developed"), default="uniform",
                   help="uniform: the hidden tiles dealt at random (analysis.sample_world); "
                        "developed: opponents' hands as far along as the table shows")
    n.add_argument("--shard", type=shard, default=None,
                   help="I/K: play the deals numbered I modulo K (0 <= I < K), "
                        "into a file of its own")
    n.add_argument("--out", type=Path, default=Path("out/worlds"))
    hd = sub.add_parser("hands", help="the opponents' shanten in truth and in the worlds")
    hd.add_argument("--hands", type=int, default=60)
    hd.add_argument("--seed", type=int, default=9)
    a = ap.parse_args()
    need(a) if a.cmd == "need" else hands(a)


if __name__ == "__main__":
    main()

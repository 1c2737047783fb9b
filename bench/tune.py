"""Tuning runs: a level with changed weights against three copies of another.

    .venv/bin/python bench/tune.py "L4:flush_bias=0,honor_bias=0" L4 --deals 600 --seed 11

A seat is ``efficiency`` or ``L<n>[:name=value,...]`` with any ``policy.Params``
field. The deals are duplicate (arena.play_deal), so each line compares two
players on the same tiles from every seat. docs/bots.md lists the runs that
shaped the levels; tuning used seed 11 so that the strength runs (seed 1) are
played on deals the tuning never saw.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
from dataclasses import fields, replace

from twmahjong.bots.arena import EFFICIENCY, play_deal, summarise
from twmahjong.bots.policy import LEVELS, Params, PolicyBot
from twmahjong.profiles import load_profile


def parse(spec: str) -> Params:
    """A seat spec as parameters; a spec it cannot read is a ``ValueError`` naming it."""
    if spec == "efficiency":
        return EFFICIENCY
    base, _, rest = spec.partition(":")
    if len(base) != 2 or base[0] != "L" or not base[1].isdigit() or int(base[1]) not in LEVELS:
        raise ValueError(f"unknown seat {spec!r}: use efficiency or L1-L5[:name=value,...]")
    return changed(LEVELS[int(base[1])], rest.split(","), spec)


def changed(p: Params, pairs: list[str], spec: str) -> Params:
    """``p`` with ``name=value`` weights changed; ``spec`` names them in an error."""
    types = {f.name: type(getattr(p, f.name)) for f in fields(Params)}
    changes = {}
    for kv in filter(None, pairs):
        k, eq, v = kv.partition("=")
        if not eq or k not in types or k == "level":
            raise ValueError(f"{kv!r} in {spec!r} is not name=value for a Params weight "
                             f"({', '.join(n for n in types if n != 'level')})")
        t = types[k]
        try:
            changes[k] = v.lower() in ("1", "true") if t is bool else t(v)
        except ValueError:
            raise ValueError(f"{k}={v!r} in {spec!r}: not a {t.__name__}") from None
    return replace(p, **changes)


class _Seats:
    def __init__(self, specs):
        self.params = [parse(s) for s in specs]

    def bot(self, entrant, seed):
        return PolicyBot(self.params[entrant], seed, exact=True)

    def close(self):
        pass


_G: dict = {}


def _init(specs, seed):
    _G.update(specs=specs, seed=seed, prof=load_profile("standard"), seats=_Seats(specs))


def _work(d):
    return d, play_deal(_G["specs"], d, _G["seed"], duplicate=True, profile=_G["prof"],
                        seats=_G["seats"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--workers", type=int, default=2)
    x = ap.parse_args()
    specs = [x.a, x.b, x.b, x.b]
    try:
        for spec in (x.a, x.b):
            parse(spec)
    except ValueError as e:
        raise SystemExit(f"tune.py: {e}") from None
    res = {}
    with mp.get_context("spawn").Pool(x.workers, _init, (specs, x.seed)) as pool:
        for d, plays in pool.imap_unordered(_work, range(x.deals), chunksize=5):
            res[d] = plays
    r = summarise(specs, [res[d] for d in range(x.deals)])
    c = r["comparisons"][0]
    a, b = r["bots"][x.a], r["bots"][x.b]
    lo, hi = c["net_diff_ci95"]
    print(f"{x.a} vs {x.b}, {x.deals} deals, seed {x.seed}: net {c['net_diff']:+.2f} "
          f"[{lo:+.2f}, {hi:+.2f}] points/hand, 台 {c['tai_diff']:+.3f} | "
          f"win {a['win_rate']:.3f}/{b['win_rate']:.3f} deal-in {a['deal_in_rate']:.3f}/"
          f"{b['deal_in_rate']:.3f} self-draw {a['self_draw_rate']:.3f}/{b['self_draw_rate']:.3f} "
          f"台/win {a['avg_tai_per_win']:.2f}/{b['avg_tai_per_win']:.2f}")


if __name__ == "__main__":
    main()

"""Paired comparison of players in one seat (bench, not a test): every player sits
in the same seat of the same duplicate deals against the same opponents (same
walls, same opponents' seeds), so where two players choose alike their hands are
identical and only their differences cost variance.

    .venv/bin/python bench/paired.py --deals 300 --seed 5 --against L5 \\
        --players "L5,L6,L6:margin=0.2" [--shard 0/2] [--out out/paired]

A player is a seat name (``make_seat_bot``), ``L6:knob=value;...`` (see
``make_l6``) or ``L<n>:weight=value;...`` (a level with changed ``policy.Params``
weights, as in ``tune.py``; ``;`` because ``,`` separates the players), or
``SL6:knob=value;...`` (L6 searching sampled worlds, ``bench/worlds.py``).
``--against`` is the bot in the three other seats, or three bots, one a seat
(``--against efficiency,L2,L5``: the player in the first seat of the mixed table
``strength.py run L6,efficiency,L2,L5`` plays, on the same deals).
Per deal, each player's mean net 台 and points over the four rotations; then
every player against the first, the per-deal difference with its 95% interval.
Shards (``--shard I/K``) write their own files; run without ``--shard`` after
them to read them all (a player can be added later: its rows join the deals'). A
shard run again, or with more ``--deals``, skips the deals its file already holds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from twmahjong.bots.advantage import Weights, load_stages, load_weights
from twmahjong.bots.arena import _mean_ci, _Seats, make_seat_bot, play_deal, seat_names
from twmahjong.bots.base import Bot
from twmahjong.bots.master import MASTER, MasterBot
from twmahjong.bots.policy import Params, PolicyBot
from twmahjong.bots.reader import Fit, weights as reader_weights
from twmahjong.profiles import load_profile

sys.path.insert(0, str(Path(__file__).parent))
from tune import changed, parse as parse_params  # noqa: E402  (bench/tune.py: one reading of Params specs)
# bench/strength.py: --shard I/K, results files
from strength import play_missing, records, shard  # noqa: E402


def make_l6(knobs: str, seed: int, *, name: str = "L6", exact: bool = True) -> Bot:
    """``MasterBot`` with changed knobs: ``stages=N`` (only the first N shipped
    stages of corrections; 0 is L5), ``weights=PATH`` (one stage, another fit),
    ``reader=PATH`` (another fit of the table reader), ``margin=X`` (台 an
    advantage must pass), ``confidence=Z`` (standard errors it must clear),
    ``fold=PATH`` (one more stage after those: a fit of folding for
    the rest of the hand), and any ``policy.Params`` weight of the L5 play under the
    corrections (``flush_bias=1``), ``;``-separated."""
    kw = dict(x.split("=", 1) for x in knobs.split(";") if x)
    stages = ((_fit(kw.pop("weights")),) if "weights" in kw
              else load_stages(int(kw.pop("stages")) if "stages" in kw else None))
    if "fold" in kw:
        stages = (*stages, _fit(kw.pop("fold")))
    reader = _reader(kw.pop("reader")) if "reader" in kw else None
    margin = float(kw.pop("margin")) if "margin" in kw else None
    confidence = float(kw.pop("confidence")) if "confidence" in kw else None
    weights = [f"{k}={kw.pop(k)}" for k in list(kw) if k in MASTER.__dataclass_fields__ and k != "level"]
    if kw:
        raise SystemExit(f"unknown L6 knobs: {', '.join(kw)}")
    try:
        params = changed(MASTER, weights, f"L6:{knobs}")
    except ValueError as e:
        raise SystemExit(str(e)) from None
    return MasterBot(seed, name=name, exact=exact, params=params,
                     weights=[w.changed(margin=margin, confidence=confidence) for w in stages],
                     reader=reader)


def _reader(path: str) -> Fit:
    """Another fit of the table reader (``bench/train_reader.py --out PATH``)."""
    try:
        return reader_weights(Path(path))
    except (OSError, ValueError, KeyError) as e:
        raise SystemExit(f"no reader fit at {path}: {e}") from None


def _level(spec: str) -> Params:
    try:
        return parse_params(spec)
    except ValueError as e:
        raise SystemExit(str(e)) from None


def _fit(path: str) -> Weights:
    """A fit from ``path``; a path with nothing there is refused (``load_weights``
    reads a missing file as no corrections, which would quietly measure L5)."""
    if not Path(path).is_file():
        raise SystemExit(f"no fit at {path}")
    return load_weights(path)


def make_player(spec: str, seed: int) -> Bot:
    if ":" in spec:
        name, knobs = spec.split(":", 1)
        if name == "L6":
            return make_l6(knobs, seed)
        if name == "SL6":                     # L6 searching where its fit straddles zero
            from worlds import make_sl6       # bench/worlds.py
            return make_sl6(knobs, seed)
        return PolicyBot(_level(f"{name}:{knobs.replace(';', ',')}"), seed, name=spec, exact=True)
    return make_seat_bot(spec, seed, exact=True)


class _PlayerSeats(_Seats):
    """Entrant 0 is the player under test; the others the opponents."""

    def __init__(self, specs: list[str], player: str):
        super().__init__(specs, 2.0)
        self.player = player

    def bot(self, entrant: int, seed: int) -> Bot:
        if entrant == 0:
            return make_player(self.player, seed)
        return super().bot(entrant, seed)


def opponents(text: str) -> list[str]:
    """``--against``: one bot for the three other seats (``L5``), or three, one a
    seat (``efficiency,L2,L5``: a mixed table, as ``strength.py`` seats it)."""
    names = text.split(",")
    if len(names) == 1:
        names = names * 3
    if len(names) != 3 or not all(names):
        raise argparse.ArgumentTypeError(f"--against is one bot or three, comma-separated; got {text!r}")
    known = seat_names()
    for n in names:
        if n.split(":", 1)[0] not in known:
            raise argparse.ArgumentTypeError(f"--against: no bot called {n!r}")
    return names


def play(players: list[str], against: list[str], deal: int, seed: int) -> dict[str, list[float]]:
    prof = load_profile("standard")
    specs = ["X", *against]
    out = {}
    for p in players:
        plays = play_deal(specs, deal, seed, duplicate=True, profile=prof, seats=_PlayerSeats(specs, p))
        net = tai = 0.0
        for row in plays:
            for entrant, n, t, *_ in row:
                if entrant == 0:
                    net += n
                    tai += t
        out[p] = [tai / len(plays), net / len(plays)]
    return out


def _played(path: Path, players: list[str]) -> set[int]:
    """Deals of a shard file where every one of ``players`` has its result."""
    return {r["deal"] for r in records(path) if all(p in r["res"] for p in players)}


def _ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (the arena's)."""
    m, _lo, hi = _mean_ci(xs)
    return m, hi - m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", required=True)
    ap.add_argument("--against", type=opponents, default="L5",
                    help="the bot in the three other seats, or three bots (a mixed table)")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--shard", type=shard, default=None,
                    help="I/K: play the deals numbered I modulo K (0 <= I < K), into a file of its own")
    ap.add_argument("--out", type=Path, default=Path("out/paired"))
    a = ap.parse_args()
    players = a.players.split(",")
    a.out.mkdir(parents=True, exist_ok=True)
    one = len(set(a.against)) == 1
    against = a.against[0] if one else "-".join(a.against)
    tag = f"{against}_s{a.seed}"
    if a.shard:
        i, k = a.shard
        path = a.out / f"{tag}.{i}-of-{k}.jsonl"
        play_missing(path, a.shard, a.deals, _played(path, players),
                     lambda d: {"deal": d, "res": play(players, a.against, d, a.seed)})
        return
    rows: dict[int, dict[str, Any]] = {}
    for part in a.out.glob(f"{tag}.*.jsonl"):
        for r in records(part):
            rows.setdefault(r["deal"], {}).update(r["res"])   # players of several runs
    deals = sorted(d for d in rows if all(p in rows[d] for p in players))
    who = f"three {against}" if one else ", ".join(a.against)
    print(f"{len(deals)} deals against {who}, seed {a.seed}")
    base = players[0]
    for p in players:
        t = _ci([rows[d][p][0] for d in deals])
        n = _ci([rows[d][p][1] for d in deals])
        dt = _ci([rows[d][p][0] - rows[d][base][0] for d in deals])
        dn = _ci([rows[d][p][1] - rows[d][base][1] for d in deals])
        print(f"{p:>28}: 台/hand {t[0]:+.3f} ± {t[1]:.3f}, points {n[0]:+.1f} ± {n[1]:.1f}; "
              f"vs {base}: 台 {dt[0]:+.3f} ± {dt[1]:.3f}, points {dn[0]:+.1f} ± {dn[1]:.1f}")


if __name__ == "__main__":
    main()

"""How much could reading the table ever be worth? (bench, not a test)

L6 and L5 read the others' hands from what the table shows (``reader.py``). This
measures the ceiling of that reading: an L6 that *cheats* — it looks at the true
hands and, when the discard it chose would deal in at once (some seat could take
it as a win), throws instead the best other discard by L5's own ranking that
deals in to nobody. A perfect reader can do no better on immediate deal-ins, so
the gain of this oracle over L6 in the same seat of the same deals bounds what any
improvement of the reading can bring there:

- ``OL6:top`` looks only among L6's own candidates (L5's four best and the two
  the reader finds safest), as L6's corrections do;
- ``OL6:any`` looks among every legal discard, in L5's order;
- ``OL6:waits`` as ``top``, and first, when L6's discard makes the hand ready, takes
  the candidate whose winning tiles have the most copies outside the others' hands
  (the other half of a perfect reading: which waits are alive);
- ``OL6:feed``, ``OL6:claims`` and ``OL6:bait`` are about claims, not deal-ins:
  L6 that never lets the next seat chow (``feed``) or anyone claim (``claims``) a
  discard an other of its candidates keeps from them, or that gives someone a claim
  where its tile gives none (``bait``), the claimer deciding as an L5 would;
- ``OL6:ready:θ`` is ``RL6:θ`` told which opponents are ready (their waits still
  read by the reader): which half of the reading the oracle's gain is in;
- ``RL6:θ`` is no oracle: the same switch made on the reader's chances instead of
  the truth, when the reader finds the other candidate safer by more than θ
  (``RL6:θ:PATH`` with another fit of the reader).

    .venv/bin/python bench/oracle.py --players "L6,OL6:top,OL6:any" --against L5 \\
        --deals 1000 --seed 11 --shard 0/2 --out out/oracle   (and 1/2; then no --shard)

It runs ``paired.py``'s comparison with the oracle players added; the engine's
hand is handed to them by a subclass of ``HandState`` used only here.

    .venv/bin/python bench/oracle.py pools --deals 200 --seed 21 [--reader PATH]

plays L6 against three L5 and prints, from the truth for every candidate of every
discard, how often L6 dealt in where a safe candidate existed, how well the reader
ranks a dealing candidate above a safe one (AUC), and its reliability.

    .venv/bin/python bench/oracle.py deferred --deals 150 --seed 21 [--margin 0.02]

plays L6 with its corrections' experiment (an explored discard in 30% of its
decisions) against three L5 and follows every explored discard that the reader
found safer than the policy's tile: was that tile thrown later in the same hand,
and did it deal in then? What the experiment measures for a safer discard. Where
the policy's tile would have dealt in at once, ``avoided`` sets the seat's 台 had
it dealt in beside its 台 at the hand's end. ``--risky 0.3`` adds the targeted
arm (the reader's safest candidate when the policy's tile reads risky).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import twmahjong.engine as engine
from twmahjong.bots.master import SAFEST, TOP, MasterBot
from twmahjong.engine.rollout import clone

sys.path.insert(0, str(Path(__file__).parent))
import paired  # noqa: E402  (bench/paired.py: the same-seat comparison)

if TYPE_CHECKING:
    from twmahjong.engine.results import HandResult

_TRUTH: dict[str, Any] = {}


class PeekingHand(engine.HandState):
    """The engine's hand, leaving itself where the oracle can find it."""

    def observation(self, seat: int):
        _TRUTH["hand"] = self
        return super().observation(seat)


def deals_in(h: engine.HandState, seat: int, action) -> bool:
    """Would ``seat`` throwing ``action`` let another seat win on it? Only a claim
    window counts: when nobody can claim, the engine has already dealt the next
    seat its draw, and a self-draw there is the wall's, which no reading knows."""
    c = clone(h)
    c.act(seat, action)
    return any(any(a.type == "win" for a in acts) and not any(a.type == "discard" for a in acts)
               for s, acts in c.pending().items() if s != seat)


def candidates(bot: MasterBot, v, ranked) -> list[int]:
    """L6's own candidates in L5's order: L5's four best and the reader's two safest."""
    read = bot._reading(v)
    kinds = [k for k, _ in ranked]
    pool = set(kinds[:TOP]) | set(sorted(kinds, key=lambda k: (read.deal_in_points(k), k))[:SAFEST])
    return [k for k in kinds if k in pool]


class _Peeking(MasterBot):
    """L6 whose discard, once chosen, ``_with_truth`` may change, seeing the true hand
    (on hands that show themselves: ``PeekingHand``; elsewhere it plays as L6)."""

    def __init__(self, seed: int, scope: str):
        super().__init__(seed, name=f"OL6:{scope}", exact=True)
        self.scope = scope

    def _correct_discard(self, v, ranked, table, d):
        d = super()._correct_discard(v, ranked, table, d)
        h = _TRUTH.get("hand")
        return d if h is None else self._with_truth(v, ranked, table, d, h)

    def _with_truth(self, v, ranked, table, d, h):
        raise NotImplementedError


class OracleMaster(_Peeking):
    """L6, with the true hands for one question: does this discard deal in now?"""

    def _with_truth(self, v, ranked, table, d, h):
        seat = v.seat
        kinds = [k for k, _ in ranked] if self.scope == "any" else candidates(self, v, ranked)
        if self.scope == "waits":
            d = self._best_waits(v, h, table, kinds, d)
        if not deals_in(h, seat, v.find("discard", d)):
            return d
        for k in kinds:
            if k != d and not deals_in(h, seat, v.find("discard", k)):
                return k
        return d

    def _best_waits(self, v, h, table, kinds, d):
        """When L6's discard makes the hand ready, the candidate whose winning tiles
        have the most copies outside the others' hands (a perfect reader knows which)."""
        info = {x.kind: x for x in table}
        if info[d].shanten != 0:
            return d
        held = [sum(h.seats[o].counts[w] for o in range(4) if o != v.seat) for w in range(34)]

        def live(k: int) -> int:
            return sum(v.unseen[w] - held[w] for w in info[k].useful_kinds)
        ready = [k for k in kinds if info[k].shanten == 0]
        return max(ready, key=lambda k: (live(k), k == d))


def fed(h: engine.HandState, seat: int, action, who: Callable[[int], bool],
        judge: Callable[[int], Any]) -> bool:
    """Would ``seat`` throwing ``action`` be claimed (吃 碰 槓, not a win) by a seat
    ``who`` accepts, that seat deciding as ``judge(seat)`` (an L5) would?"""
    c = clone(h)
    c.act(seat, action)
    for s, acts in c.pending().items():
        if s == seat or not who(s) or any(a.type == "win" for a in acts):
            continue
        if not any(a.type in ("chi", "pon", "kong") for a in acts):
            continue
        a = judge(s).act(c.observation(s))
        t = a["type"] if isinstance(a, dict) else a.type
        if t in ("chi", "pon", "kong"):
            return True
    return False


class FeedOracle(_Peeking):
    """L6 that never feeds a claim it could avoid: with the true hands, when its
    discard would be claimed by L5 deciding at the claimer's seat — the next seat's
    吃 only (``feed``) or any seat's 吃 碰 槓 (``claims``) — it throws instead the
    first other of its own candidates, at no worse shanten, nobody would claim. Not
    about deal-ins (wins are left alone): the bound of what denying the others their
    claims (不餵牌) is worth. ``bait`` is the reverse: when nobody would claim L6's
    discard, the first other candidate, at no worse shanten, some seat would."""

    def __init__(self, seed: int, scope: str):
        super().__init__(seed, scope)
        self._judges: dict[int, Any] = {}

    def _judge(self, s: int):
        from twmahjong.bots.arena import make_seat_bot
        if s not in self._judges:
            self._judges[s] = make_seat_bot("L5", 7 + s, exact=True)
        return self._judges[s]

    def _with_truth(self, v, ranked, table, d, h):
        seat = v.seat
        nxt = (seat + 1) % 4

        def who(s: int) -> bool:
            return self.scope != "feed" or s == nxt
        want = self.scope == "bait"             # a claim sought, or one avoided

        def as_wanted(k: int) -> bool:
            return fed(h, seat, v.find("discard", k), who, self._judge) == want
        info = {x.kind: x for x in table}
        try:
            if as_wanted(d):
                return d
            for k in candidates(self, v, ranked):
                if k != d and info[k].shanten <= info[d].shanten and as_wanted(k):
                    return k
            return d
        finally:
            _TRUTH["hand"] = h


class ReaderSwitch(MasterBot):
    """The oracle's rule with the reader's eyes: after L6's discard, the candidate
    (of L6's own, at no worse shanten) the reader finds least likely to deal in,
    when it is less likely by more than ``theta``. How much of the oracle's gain
    the present reader can take."""

    def __init__(self, seed: int, theta: float, reader=None):
        super().__init__(seed, name=f"RL6:{theta}", exact=True, reader=reader)
        self.theta = theta

    def _correct_discard(self, v, ranked, table, d):
        d = super()._correct_discard(v, ranked, table, d)
        risk = self._risk(v)
        if risk is None:
            return d
        info = {x.kind: x for x in table}
        same = [k for k in candidates(self, v, ranked) if info[k].shanten <= info[d].shanten]
        safest = min(same, key=risk)
        return safest if risk(d) - risk(safest) > self.theta else d

    def _risk(self, v) -> Callable[[int], float] | None:
        """The chance that throwing a kind deals in: the reader's."""
        return self._reading(v).deal_in


class KnowsReady(ReaderSwitch):
    """``RL6:θ`` told the truth about one half of the reading: which opponents are
    ready (聽牌) now, from their true hands; their winning tiles are still the
    reader's chances. Set beside ``RL6:θ`` (reader for both halves) and ``OL6:top``
    (truth for both), it says which half of the reading the oracle's gain is in."""

    def __init__(self, seed: int, theta: float):
        super().__init__(seed, theta)
        self.name = f"OL6:ready:{theta}"

    def _risk(self, v) -> Callable[[int], float] | None:
        """The reader's winning-tile chances for the seats truly ready (none known, on
        hands that do not show themselves: then it plays as L6)."""
        h = _TRUTH.get("hand")
        if h is None:
            return None
        from twmahjong.hand import waits
        read = self._reading(v)
        ready = [s for s in v.opponents() if waits(h.seats[s].counts)]

        def risk(k: int) -> float:
            safe = 1.0
            for s in ready:
                safe *= 1.0 - read.wins(s, k)
            return 1.0 - safe
        return risk


_plain = paired.make_player


def make_player(spec: str, seed: int):
    if spec.startswith("RL6:"):
        theta, _, path = spec[4:].partition(":")
        try:
            t = float(theta)
        except ValueError:
            raise SystemExit(f"RL6 needs a number (a chance), got {spec!r}") from None
        return ReaderSwitch(seed, t, paired._reader(path) if path else None)
    if spec.startswith("OL6:ready:"):
        try:
            return KnowsReady(seed, float(spec.split(":", 2)[2]))
        except ValueError:
            raise SystemExit(f"OL6:ready needs a number (a chance), got {spec!r}") from None
    if spec.startswith("OL6:"):
        scope = spec.split(":", 1)[1]
        if scope in ("feed", "claims", "bait"):
            return FeedOracle(seed, scope)
        if scope not in ("top", "any", "waits"):
            raise SystemExit("OL6 scope must be top, any, waits, feed, claims or bait, "
                             f"got {scope!r}")
        return OracleMaster(seed, scope)
    return _plain(spec, seed)



def against_l5(deals: int, seed: int, first: Callable[[int], MasterBot],
               after_deal: Callable[[], None] | None = None) -> None:
    """The bot ``first(seed)`` makes in the first seat of duplicate deals against three
    L5, on hands that show themselves to it (``PeekingHand``); the engine is put back.
    ``after_deal`` runs when a deal's hands are over."""
    from twmahjong.bots.arena import _Seats, play_deal
    from twmahjong.profiles import load_profile

    class Seats(_Seats):
        def bot(self, entrant, seed):
            return first(seed) if entrant == 0 else super().bot(entrant, seed)
    specs, prof = ["L6", "L5", "L5", "L5"], load_profile("standard")
    plain, engine.HandState = engine.HandState, PeekingHand
    try:
        for d in range(deals):
            play_deal(specs, d, seed, duplicate=True, profile=prof, seats=Seats(specs, 2.0))
            if after_deal:
                after_deal()
    finally:
        engine.HandState = plain


class PoolLogger(MasterBot):
    """L6 as it is, noting at each discard its candidates with the reader's chance
    that each deals in and the truth."""

    def __init__(self, seed: int, rows: list[dict], reader=None):
        super().__init__(seed, name="L6", exact=True, reader=reader)
        self.rows = rows

    def _correct_discard(self, v, ranked, table, d):
        d = super()._correct_discard(v, ranked, table, d)
        h, read = _TRUTH["hand"], self._reading(v)
        shanten = {x.kind: x.shanten for x in table}
        self.rows.append({"chosen": d, "cands": [
            (k, read.deal_in(k), deals_in(h, v.seat, v.find("discard", k)), shanten[k])
            for k in candidates(self, v, ranked)]})
        return d


def pools(deals: int, seed: int, reader=None) -> dict[str, Any]:
    """L6 in the first seat against three L5 (duplicate deals): how its discards
    that deal in could have been avoided, and how well the reader (``reader``:
    another fit) ranks its candidates."""
    from train_reader import reliability
    rows: list[dict] = []
    against_l5(deals, seed, lambda s: PoolLogger(s, rows, reader))
    dealt = [r for r in rows if any(k == r["chosen"] and t for k, _, t, _ in r["cands"])]
    chosen_s = [next(s for k, _, _, s in r["cands"] if k == r["chosen"]) for r in dealt]
    safe_alt = [[s for _, _, t, s in r["cands"] if not t] for r in dealt]
    pairs = above = 0
    for r in rows:
        for _, pb, tb, _ in r["cands"]:
            for _, pg, tg, _ in r["cands"]:
                if tb and not tg:
                    pairs += 1
                    above += (pb > pg) + 0.5 * (pb == pg)
    chosen_p = [next(p for k, p, _, _ in r["cands"] if k == r["chosen"]) for r in dealt]
    ranks = [sorted((p for _, p, _, _ in r["cands"]), reverse=True).index(p)
             for r, p in zip(dealt, chosen_p)]
    edges = [0, .01, .02, .05, .1, .2, .4, 1.01]
    seen_p = [sum(lo <= p < hi for p in chosen_p) for lo, hi in zip(edges, edges[1:])]
    every = [c for r in rows for c in r["cands"]]
    table = [{"chance": b, "candidates": n, "predicted": round(p, 4), "dealt_in": round(o, 4)}
             for b, n, p, o in reliability([c[1] for c in every], [int(c[2]) for c in every],
                                           edges)]
    return {"hands": 4 * deals, "decisions": len(rows), "dealt_in": len(dealt),
            "with_safe_alternative": sum(bool(a) for a in safe_alt),
            "safe_at_no_worse_shanten": sum(any(x <= s for x in a) for a, s in zip(safe_alt, chosen_s)),
            "auc": round(above / pairs, 4) if pairs else None, "pairs": pairs,
            "rank_of_dealt_in": [ranks.count(i) for i in range(max(ranks, default=-1) + 1)],
            # how visible the deal-ins were: the reader's chance of each dealt-in tile, by the bins below
            "dealt_in_by_chance": dict(zip((f"{lo:.2f}-{hi:.2f}" for lo, hi in zip(edges, edges[1:])),
                                           seen_p)),
            "reliability": table}


class DeferProbe(MasterBot):
    """L6 with the corrections' experiment on its discards (``Explorer``), noting for
    each explored discard the tile the policy would have thrown, the reader's chance
    and the truth of both, and every tile it throws afterwards in the hand: does a
    safer tile thrown instead of the policy's avoid the risk, or only put it off?"""

    def __init__(self, seed: int, rows: list[dict], epsilon: float, risky: float = 0.0):
        import random

        from twmahjong.bots.master import Explorer
        super().__init__(seed, name="L6", exact=True,
                         explorer=Explorer(random.Random(seed), discard=epsilon, claim=0.0, win=0.0,
                                           risky=risky))
        self.rows = rows
        self._mine: list[dict] = []               # this hand's rows (a bot plays one hand)
        self._view = None

    def _correct_discard(self, v, ranked, table, d):
        self._view = v
        k = super()._correct_discard(v, ranked, table, d)
        h = _TRUTH["hand"]
        for r in self._mine:                      # a later throw of a put-off tile
            if r["later"] is None and k == r["policy"]:
                r["later"] = deals_in(h, v.seat, v.find("discard", k))
        return k

    def _improve(self, group, cands, base, feats, target=None):
        chosen = super()._improve(group, cands, base, feats, target)
        if group != "discard":
            return chosen
        ex, self.explorer = self.explorer, None
        policy = super()._improve(group, cands, base, feats)
        self.explorer = ex
        if chosen != policy:
            v, h = self._view, _TRUTH["hand"]
            read = self._reading(v)
            row = {"policy": policy, "later": None,
                   "gain": read.deal_in(policy) - read.deal_in(chosen),
                   "policy_deals": deals_in(h, v.seat, v.find("discard", policy)),
                   "chosen_deals": deals_in(h, v.seat, v.find("discard", chosen)),
                   "seat": v.seat, "hand": h}
            if row["policy_deals"]:
                row["instead"] = dealt_in_result(h, v.seat, v.find("discard", policy))
            self.rows.append(row)
            self._mine.append(row)
        return chosen


def dealt_in_result(h: engine.HandState, seat: int, action) -> HandResult | None:
    """The hand's result had ``seat`` thrown ``action`` and every seat that can win
    on it won (the others passing): what that deal-in would have cost."""
    c = clone(h)
    c.act(seat, action)
    for _ in range(8):                    # a claim window, then (一炮多響 aside) the end
        if c.over:
            return c.result
        for s, acts in list(c.pending().items()):
            pick = next((a for a in acts if a.type == "win"), None) or \
                next((a for a in acts if a.type == "pass"), None)
            if pick is None:
                return None
            c.act(s, pick)
    return c.result if c.over else None


def avoided(rows: list[dict]) -> dict[str, Any]:
    """What a deal-in avoided was worth, in the 台 the arena counts (``_tai_flow``):
    at the first explored discard of each hand whose policy tile would have dealt in
    at once, the seat's 台 had it thrown that tile (and the seats able to won on it)
    against its 台 at the hand's real end — and what became of those seats. Under
    the standard rules a self-draw takes its 台 from each of the three others, so a
    winner who self-draws later costs the avoiding seat what the deal-in would have."""
    from twmahjong.bots.arena import _mean_ci, _tai_flow
    firsts: dict[int, dict] = {}
    for r in rows:
        if r["policy_deals"] and r.get("instead") and r["hand"] not in firsts:
            firsts[r["hand"]] = r
    saved: list[float] = []
    price: list[float] = []
    fate = {"they_self_drew": 0, "they_won_on_another_discard": 0, "they_won_on_ours": 0,
            "we_won": 0, "another_seat_won": 0, "no_winner": 0}
    for r in firsts.values():
        real, instead, seat = r["end"], r["instead"], r["seat"]
        if real is None:
            continue
        would = set(instead.get("winners") or [])
        cost = _tai_flow(instead)[seat]
        saved.append(_tai_flow(real)[seat] - cost)
        price.append(-cost)
        won = set(real.get("winners") or [])
        payer = real.get("payer")
        if seat in won:
            fate["we_won"] += 1
        elif would & won:
            fate["they_self_drew" if payer is None else
                 "they_won_on_ours" if payer == seat else "they_won_on_another_discard"] += 1
        elif won:
            fate["another_seat_won"] += 1
        else:
            fate["no_winner"] += 1
    m, lo, hi = _mean_ci(saved) if len(saved) > 1 else (0.0, 0.0, 0.0)
    return {"n": len(saved), "deal_in_price_tai": round(sum(price) / max(1, len(price)), 3),
            "saved_tai": round(m, 3), "saved_ci95": [round(lo, 3), round(hi, 3)], "fate": fate}


def probe_rows(deals: int, seed: int, epsilon: float, risky: float) -> list[dict]:
    """``DeferProbe``'s rows over ``deals`` deals. When a deal's hands are over, each
    row keeps its hand's number (``hand``) and end (``end``: the result), not the
    hand: holding every probed hand until the run ended made memory grow with the
    deals."""
    rows: list[dict] = []
    numbers = itertools.count()
    settled = 0

    def let_go() -> None:
        nonlocal settled
        seen: dict[int, int] = {}          # ids are unique while the rows hold the hands
        for r in rows[settled:]:
            h = r["hand"]
            r["hand"] = seen.setdefault(id(h), next(numbers))
            r["end"] = h.result
        settled = len(rows)
    against_l5(deals, seed, lambda s: DeferProbe(s, rows, epsilon, risky), let_go)
    return rows


def deferred(deals: int, seed: int, margin: float = 0.02, epsilon: float = 0.3,
             risky: float = 0.0) -> dict[str, Any]:
    """The experiment's discards that were safer than the policy's by more than
    ``margin`` (the reader's chance): how often the policy's tile would have dealt in
    then, was thrown later in the same hand, and dealt in when it was; and what the
    deal-ins avoided were worth by the hand's end (``avoided``). ``risky`` turns on
    the targeted arm (``Explorer.risky``), which makes many more of them."""
    rows = probe_rows(deals, seed, epsilon, risky)

    def later(rs: list[dict]) -> dict[str, int]:
        return {"n": len(rs), "thrown_later": sum(r["later"] is not None for r in rs),
                "dealt_in_later": sum(bool(r["later"]) for r in rs),
                "chosen_dealt_in": sum(r["chosen_deals"] for r in rs)}
    out: dict[str, Any] = {"hands": 4 * deals, "explored": len(rows)}
    for m in sorted({0.0, margin}):
        safer = [r for r in rows if r["gain"] > m]
        out[f"safer_by_more_than_{m}"] = later(safer)
        out[f"safer_by_more_than_{m}_and_the_policy_tile_dealt_in_then"] = \
            later([r for r in safer if r["policy_deals"]])
    out["avoided"] = avoided(rows)
    return out


def main() -> None:
    """Run paired.py with the oracle players, on hands that show themselves to them
    (or, as ``pools --deals N --seed S``, print what L6's candidates were). The two
    replacements are made here, not at import, so importing this file (the tests do)
    changes nothing."""
    if sys.argv[1:2] == ["pools"]:
        import argparse
        import json
        ap = argparse.ArgumentParser(prog="oracle.py pools")
        ap.add_argument("--deals", type=int, default=200)
        ap.add_argument("--seed", type=int, default=21)
        ap.add_argument("--reader", help="another fit of the reader (a reader.json)")
        a = ap.parse_args(sys.argv[2:])
        fit = paired._reader(a.reader) if a.reader else None
        print(json.dumps(pools(a.deals, a.seed, fit), indent=1))
        return
    if sys.argv[1:2] == ["deferred"]:
        import argparse
        import json
        ap = argparse.ArgumentParser(prog="oracle.py deferred")
        ap.add_argument("--deals", type=int, default=200)
        ap.add_argument("--seed", type=int, default=21)
        ap.add_argument("--margin", type=float, default=0.02)
        ap.add_argument("--epsilon", type=float, default=0.3, help="the uniform arm's chance")
        ap.add_argument("--risky", type=float, default=0.0, help="the targeted arm's chance")
        a = ap.parse_args(sys.argv[2:])
        print(json.dumps(deferred(a.deals, a.seed, a.margin, a.epsilon, a.risky), indent=1))
        return
    paired.make_player = make_player
    engine.HandState = PeekingHand       # play_deal imports it from the package at call time
    paired.main()


if __name__ == "__main__":
    main()

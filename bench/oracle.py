"""How much could reading the table ever be worth? (bench, not a test; issue #13)

L6 and L5 read the others' hands from what the table shows (``reader.py``). This
measures the ceiling of that reading: an L6 that *cheats* — it looks at the true
hands and, when the discard it chose would deal in at once (some seat could take
it as a win), throws instead the best other discard by L5's own ranking that
deals in to nobody. A perfect reader can do no better on immediate deal-ins, so
the gain of this oracle over L6 in the same seat of the same deals bounds what any
improvement of the reading can bring there:

- ``OL6:top`` looks only among L6's own candidates (L5's four best and the two
  the reader finds safest), as L6's corrections do;
- ``OL6:any`` looks among every legal discard, in L5's order.

    .venv/bin/python bench/oracle.py --players "L6,OL6:top,OL6:any" --against L5 \\
        --deals 1000 --seed 11 --shard 0/2 --out out/oracle   (and 1/2; then no --shard)

It runs ``paired.py``'s comparison with the oracle players added; the engine's
hand is handed to them by a subclass of ``HandState`` used only here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import twmahjong.engine as engine
from twmahjong.bots.master import SAFEST, TOP, MasterBot
from twmahjong.engine.rollout import clone

sys.path.insert(0, str(Path(__file__).parent))
import paired  # noqa: E402  (bench/paired.py: the same-seat comparison)

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


class OracleMaster(MasterBot):
    """L6, with the true hands for one question: does this discard deal in now?"""

    def __init__(self, seed: int, scope: str):
        super().__init__(seed, name=f"OL6:{scope}", exact=True)
        self.scope = scope
        self.changed = self.asked = 0

    def _correct_discard(self, v, ranked, table, d):
        d = super()._correct_discard(v, ranked, table, d)
        h = _TRUTH.get("hand")
        if h is None:
            return d
        seat = v.seat
        self.asked += 1
        if not deals_in(h, seat, v.find("discard", d)):
            return d
        kinds = [k for k, _ in ranked]
        if self.scope == "top":
            read = self._reading(v)
            pool = kinds[:TOP] + sorted(kinds, key=lambda k: (read.deal_in_points(k), k))[:SAFEST]
            kinds = [k for k in kinds if k in pool]
        for k in kinds:
            if k != d and not deals_in(h, seat, v.find("discard", k)):
                self.changed += 1
                return k
        return d


def make_player(spec: str, seed: int):
    if spec.startswith("OL6:"):
        scope = spec.split(":", 1)[1]
        if scope not in ("top", "any"):
            raise SystemExit(f"OL6 scope must be top or any, got {scope!r}")
        return OracleMaster(seed, scope)
    return _plain(spec, seed)


_plain = paired.make_player


def main() -> None:
    """Run paired.py with the oracle players, on hands that show themselves to them.
    The two replacements are made here, not at import, so importing this file (the
    tests do) changes nothing."""
    paired.make_player = make_player
    engine.HandState = PeekingHand       # play_deal imports it from the package at call time
    paired.main()


if __name__ == "__main__":
    main()

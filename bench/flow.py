"""Tile flow (牌流): how often an unseen copy of each class of tile comes out.

Measures what ``policy._FLOW`` holds. In self-play, every discard is seen by the
three other seats: per class (honor, 1/9, 2/8, 3-7) and wall phase, the rate at
which an unseen copy (from that seat's view) is the tile thrown; every own draw
gives the same rate for draws. A ready hand wins on any of three discards a
round (paid once) or on its own draw (paid by three), so a class's worth as a
winning tile is 3 × discard rate + 3 × draw rate, printed relative to 3-7.

    .venv/bin/python bench/flow.py --hands 100
"""

from __future__ import annotations

import argparse
from collections import Counter

from twmahjong.bots.policy import _FLOW, LEVELS, PolicyBot, _flow_class, _flow_column
from twmahjong.bots.view import View
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.tiles import parse_tile

CLASSES = ("honor", "19", "28", "mid")


def measure(hands: int, level: int, seed: int):
    prof = load_profile("standard")
    d_exp, d_hit, w_exp, w_hit = Counter(), Counter(), Counter(), Counter()
    for g in range(hands):
        h = HandState(prof, dealer=g % 4, seed=seed + g)
        bots = [PolicyBot(LEVELS[level], seed * 1000 + g * 4 + s) for s in range(4)]
        while not h.over:
            for s in list(h.pending()):
                obs = h.observation(s)
                a = bots[s].act(obs)
                if a.get("type") == "discard":
                    if obs.get("drawn"):
                        v = View.from_observation(obs)
                        dk = parse_tile(obs["drawn"])
                        if dk < 34:
                            ph = _flow_column(v.wall_remaining)
                            for k in range(34):
                                n = v.unseen[k] + (k == dk)
                                if n:
                                    w_exp[(_flow_class(k), ph)] += n
                            w_hit[(_flow_class(dk), ph)] += 1
                    t = parse_tile(a["tile"])
                    for o in range(4):
                        if o == s:
                            continue
                        v = View.from_observation(h.observation(o))
                        ph = _flow_column(v.wall_remaining)
                        for k in range(34):
                            if v.unseen[k]:
                                d_exp[(_flow_class(k), ph)] += v.unseen[k]
                        d_hit[(_flow_class(t), ph)] += 1
                h.act(s, a)
    return d_exp, d_hit, w_exp, w_hit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--level", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1000)
    a = ap.parse_args()
    d_exp, d_hit, w_exp, w_hit = measure(a.hands, a.level, a.seed)
    print(f"{a.hands} hands of L{a.level} self-play; rates per 1,000 unseen copies")
    print(f"{'class':6} {'phase':>10} {'discard':>8} {'draw':>8} {'worth':>7} {'_FLOW':>6}")
    for ph, name in ((0, "wall > 30"), (1, "wall <= 30")):
        worth = {}
        for c in CLASSES:
            dr = 1000 * d_hit[(c, ph)] / max(1, d_exp[(c, ph)])
            wr = 1000 * w_hit[(c, ph)] / max(1, w_exp[(c, ph)])
            worth[c] = (dr, wr, 3 * dr + 3 * wr)
        for c in CLASSES:
            dr, wr, w = worth[c]
            print(f"{c:6} {name:>10} {dr:8.2f} {wr:8.2f} {w / worth['mid'][2]:7.2f} "
                  f"{_FLOW[c][ph]:6.2f}")


if __name__ == "__main__":
    main()

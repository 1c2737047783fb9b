#!/usr/bin/env python3
"""A complete external bot for `twmj` — standard library only.

Run it through the arena or a table as ``pipe:python examples/pipe_bot.py``.
It reads one JSON object per line on stdin and answers every ``request`` with
one action from the request's ``legal`` list (docs/bots.md, "The pipe protocol"):

    {"type": "request", "id": 3, "observation": {..., "legal": [...]}}
    -> {"type": "discard", "tile": "1z", "id": 3}

Its play is simple on purpose: win and flower-win whenever offered, pung
(碰) scoring honors, never chow, and throw the tile with the fewest neighbours
(isolated honors first, then lonely terminals).
"""

import json
import sys

SUITS = "mpsz"


def parse(text):
    """MPSZ text to a list of (suit, rank): '123m5z' -> [('m',1),('m',2),('m',3),('z',5)]."""
    out, digits = [], []
    for ch in text or "":
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mpszf":
            out += [(ch, d) for d in digits]
            digits = []
    return out


def isolation(tile, hand):
    """How alone a tile is: higher means a better discard."""
    suit, rank = tile
    same = sum(1 for t in hand if t == tile)
    if suit == "z":
        return 10 - 4 * same
    near = sum(1 for s, r in hand if s == suit and 0 < abs(r - rank) <= 2)
    edge = 1 if rank in (1, 9) else 0
    return 6 - 3 * (same - 1) - 2 * near + edge


def choose(obs):
    legal = obs.get("legal") or []
    by_type = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for t in ("flower_win", "win"):
        if t in by_type:
            return by_type[t][0]
    if "discard" in by_type:
        hand = parse(obs.get("hand")) + parse(obs.get("drawn"))
        return max(by_type["discard"], key=lambda a: (isolation(parse(a["tile"])[0], hand), a["tile"]))
    for a in by_type.get("pon", []):
        if a["tile"] in ("5z", "6z", "7z"):
            return a
    return by_type.get("pass", legal)[0]


def main():
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("type") != "request":
            continue                     # hello, end: nothing to answer
        action = dict(choose(msg["observation"]))
        action["id"] = msg.get("id")
        sys.stdout.write(json.dumps(action) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

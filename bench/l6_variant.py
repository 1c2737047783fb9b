"""bench/strength.py with one more seat name, ``L6b``: L6 with changed knobs.

    .venv/bin/python bench/l6_variant.py "weights=out/master/alt.json;margin=0.1" \\
        run L6b,L5,L5,L5 --deals 4000 --seed 1 --shard 0/2
    .venv/bin/python bench/l6_variant.py "weights=out/master/alt.json;margin=0.1" report L6b,L5,L5,L5

The knobs are ``paired.make_l6``'s; the results go to ``out/arena/L6b-…`` like
any strength run (so one set of knobs per ``out/arena`` at a time).
"""

from __future__ import annotations

import sys
from pathlib import Path

import twmahjong.bots.arena as arena
from twmahjong.bots.base import Bot

sys.path.insert(0, str(Path(__file__).parent))
import strength  # noqa: E402
from paired import make_l6  # noqa: E402


def main() -> None:
    knobs = sys.argv[1]
    real = arena.make_seat_bot

    def make_seat_bot(spec: str, seed: int, **kw: object) -> Bot:
        if spec == "L6b":
            return make_l6(knobs, seed, name="L6b", exact=bool(kw.get("exact", False)))
        return real(spec, seed, **kw)  # type: ignore[arg-type]

    arena.make_seat_bot = make_seat_bot   # type: ignore[assignment]
    sys.argv = ["strength.py"] + sys.argv[2:]
    strength.main()


if __name__ == "__main__":
    main()

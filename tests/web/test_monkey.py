"""The browser's monkey (bench/monkey_web.py), short: random taps and clicks on what a
player can see at a table against bots, on the real game server, for a minute at
each size. It fails on a table quiet for longer than its clocks allow, a script error,
or a stuck spinner — each reported with the seed that replays it.

``TWMJ_MONKEY_SEED`` replays a seed; ``TWMJ_MONKEY_SECONDS`` runs longer (the long run
is ``bench/monkey_web.py --minutes 20 --seed N``).
"""

from __future__ import annotations

import os
import random

import pytest

from bench import monkey_web

from .conftest import game_server

SECONDS = float(os.environ.get("TWMJ_MONKEY_SECONDS", 60))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_monkey_finds_no_stall_no_error_and_no_stuck_spinner(browser, tmp_path_factory,
                                                                  shot_dir, size):
    seed = int(os.environ.get("TWMJ_MONKEY_SEED") or random.SystemRandom().randrange(1 << 31))
    print(f"monkey seed {seed} ({size}): replay with TWMJ_MONKEY_SEED={seed}")
    with game_server(tmp_path_factory.mktemp(f"monkey-{size}"), **monkey_web.SERVER) as url:
        monkey = monkey_web.Monkey(browser, url, size, seed, shots=shot_dir)
        try:
            s = monkey.run(SECONDS)
        finally:
            monkey.close()
    print(s.line())
    assert s.ok, "\n".join([s.line(), *s.stalls, *s.errors, *s.spinners])
    # it played: tapped, and the table moved under its taps
    assert s.clicks > 0 and s.moves > 0 and s.tables >= 1, s.line()

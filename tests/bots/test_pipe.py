"""External bots over a pipe (formats.md): real subprocesses, real hands."""

import sys
import textwrap
from pathlib import Path

import pytest

from twmahjong.bots.pipe import PipeBot, PipeError
from twmahjong.bots.policy import LEVELS, PolicyBot
from twmahjong.engine import HandState
from twmahjong.profiles import load_profile

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pipe_bot.py"


def play(bots, seed=3):
    """One hand to the end; an illegal action would raise IllegalAction here."""
    h = HandState(load_profile("standard"), dealer=0, seed=seed)
    decisions = 0
    while not h.over:
        for s in list(h.pending()):
            h.act(s, bots[s].act(h.observation(s)))
            decisions += s == 0
    return h, decisions


def script(tmp_path, body):
    p = tmp_path / "bot.py"
    p.write_text(textwrap.dedent(body))
    return [sys.executable, str(p)]


def test_the_example_bot_plays_a_whole_hand():
    bot = PipeBot([sys.executable, str(EXAMPLE)], timeout=5.0, seat=0)
    try:
        h, decisions = play([bot] + [PolicyBot(LEVELS[2], seed=s) for s in (1, 2, 3)])
    finally:
        bot.close()
    assert h.over and h.result is not None
    assert decisions > 3
    assert bot.faults == {"timeout": 0, "garbage": 0, "illegal": 0, "dead": 0}


def test_a_bot_that_sleeps_past_the_timeout_gets_the_default_move(tmp_path):
    # It answers its first request only after 1.5 s (un-numbered, so the late line
    # must be dropped when it arrives) and every later one at once.
    cmd = script(tmp_path, """
        import json, sys, time
        first = True
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] != "request":
                continue
            if first:
                time.sleep(1.5)
                first = False
            legal = msg["observation"]["legal"]
            print(json.dumps(legal[-1]), flush=True)
    """)
    bot = PipeBot(cmd, timeout=0.5, seat=0)
    try:
        h, _ = play([bot] + [PolicyBot(LEVELS[1], seed=s) for s in (1, 2, 3)])
    finally:
        bot.close()
    assert h.over
    assert bot.faults["timeout"] >= 1
    assert bot.faults["illegal"] == 0 and bot.faults["garbage"] == 0


def test_garbage_and_illegal_answers_are_replaced(tmp_path):
    cmd = script(tmp_path, """
        import json, sys
        n = 0
        for line in sys.stdin:
            msg = json.loads(line)
            if msg["type"] != "request":
                continue
            n += 1
            if n % 2:
                print("this is not json", flush=True)
            else:
                print(json.dumps({"type": "discard", "tile": "9z9"}), flush=True)
    """)
    bot = PipeBot(cmd, timeout=3.0, seat=0)
    try:
        h, decisions = play([bot] + [PolicyBot(LEVELS[1], seed=s) for s in (1, 2, 3)])
    finally:
        bot.close()
    assert h.over
    assert bot.faults["garbage"] == (decisions + 1) // 2
    assert bot.faults["illegal"] == decisions // 2


def test_a_command_that_does_not_exist_is_a_user_error():
    bot = PipeBot(["/nonexistent/bot-binary"], timeout=0.5)
    with pytest.raises(PipeError):
        bot.act({"legal": [{"type": "pass"}]})

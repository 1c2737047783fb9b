"""``--plain --server``: the clock is said, a timeout's 託管 is said with the command
that takes the seat back, turns keep being printed on 託管, and a tile typed between
turns is answered at once with the right reason."""

from __future__ import annotations

import asyncio
import io
import queue

import pytest

from twmahjong.client import Api
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.plain_online import play_plain_online

from .test_tui_online import next_change

pytestmark = pytest.mark.asyncio


class Keyboard:
    """stdin the test types into, line by line, when it chooses."""

    def __init__(self):
        self.q: queue.Queue = queue.Queue()

    def type(self, line: str) -> None:
        self.q.put(line + "\n")

    def readline(self) -> str:
        try:
            return self.q.get(timeout=180)      # a hang guard: the end of input leaves
        except queue.Empty:
            return ""

    def end(self) -> None:
        """The end of input: a read still waiting (the client reads ahead in a thread)
        returns at once, so the event loop's close does not wait out the guard."""
        self.q.put("")


async def test_plain_online_says_the_clock_the_timeout_the_way_back_and_not_your_turn(make_live):
    # 6 s + 1 s: a line 5 s before the end, then the server plays the seat
    live = make_live(turn_base=6.0, turn_bank=1.0, hand_pause=30.0, claim_window=0.3,
                     bot_delay=0.2)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    out, keys = io.StringIO(), Keyboard()
    task = asyncio.create_task(play_plain_online(session, "en", keys, out))

    async def said(text):
        async def wait():
            while text not in out.getvalue():
                await asyncio.sleep(0.05)
        try:
            await asyncio.wait_for(wait(), 40)
        except TimeoutError:
            keys.type("q")
            raise AssertionError(f"never said {text!r}:\n" + out.getvalue()[-1500:]) from None

    await said("Your turn: type a tile")
    turn_line = next(x for x in out.getvalue().splitlines() if "Your turn: type a tile" in x)
    assert "s left" in turn_line                                  # the time limit, when asked
    await said("5s left before the server plays for you")         # and before it runs out
    await said("Time ran out: the server plays your seat. Type back (or 收回) to take it back")
    await said("(auto-play)")                                     # its move for the seat, marked
    await said("the server plays it for you (back takes the seat back)")   # turns still said
    while session.legal():                                        # between turns
        await next_change(session)
    keys.type("5m")
    await said("Not your turn: you will be told when it is")
    assert "Not legal" not in out.getvalue() and "can't discard" not in out.getvalue()
    keys.type("back")
    await said("Your seat is yours again: you decide on your turns")
    keys.type("q")
    await asyncio.wait_for(task, 60)
    keys.end()

"""Self-play: bots at the table, hand after hand, and what the hands looked like.

Used by ``twmj selfplay``, ``twmj demo``, the benchmark and the property tests.
Bots receive only their seat's observation. It sits above both the engine and the
bots (not inside the engine) so that the engine never imports a bot.

    >>> from twmahjong.profiles import load_profile
    >>> m = play_match(load_profile("standard"), seed=1, rounds=1, max_hands=3)
    >>> m.hand_no
    3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .bots import Bot, make_bot
from .engine.actions import legal_json
from .engine.match import Match
from .engine.observe import LazyObservation
from .engine.table import HandState
from .profiles import Profile

if TYPE_CHECKING:
    from .engine.results import HandResult

__all__ = ["Summary", "make_bots", "play_hand", "play_match"]


def make_bots(names: Sequence[str], seed: int) -> list[Bot]:
    """One bot per name, each seeded from ``seed`` and its seat (so a run replays)."""
    return [make_bot(n, seed * 4 + i) for i, n in enumerate(names)]


def play_hand(h: HandState, bots: Sequence[Bot],
              on_step: Callable[[HandState], object] | None = None) -> HandResult:
    """Run one hand to its end with ``bots[seat]`` deciding for each seat."""
    act = h.act
    decide = [b.act for b in bots]
    while h.phase != "over":
        for s, acts in h.pending().items():
            act(s, decide[s](LazyObservation(h, s, actions=acts)))
        if on_step:
            on_step(h)
    assert h.result is not None
    return h.result


def play_match(profile: Profile, *, seed: int, rounds: int | None = None,
               bots: Sequence[Bot] | None = None, max_hands: int | None = None,
               on_hand: Callable[[Match, HandState], object] | None = None) -> Match:
    """A match among bots (random ones by default); stops early after ``max_hands``."""
    m = Match(profile, seed=seed, rounds=rounds)
    if bots is None:
        bots = make_bots(["random"] * 4, seed)
    while not m.over and (max_hands is None or m.hand_no < max_hands):
        h = m.start_hand()
        play_hand(h, bots)
        m.end_hand()
        if on_hand:
            on_hand(m, h)
    return m


class Summary:
    """Counts over many hands: draws, wins by seat, self-draw share, 台, patterns."""

    def __init__(self) -> None:
        self.hands = 0
        self.drawn = 0
        self.wins_by_seat = [0, 0, 0, 0]
        self.win_events = 0
        self.self_drawn = 0
        self.tai_total = 0
        self.patterns: Counter[str] = Counter()
        self.seconds = 0.0

    def add(self, h: HandState) -> None:
        self.hands += 1
        res = h.result
        assert res is not None, "a hand is counted once it is over"
        if res["type"] != "win":
            self.drawn += 1
            return
        for w in res["winners"]:
            self.wins_by_seat[w] += 1
            self.win_events += 1
            self.tai_total += res["tai"][w]
            self.patterns.update(res["patterns"][w])
            if res["self_drawn"]:
                self.self_drawn += 1

    def to_json(self) -> dict[str, Any]:
        wins = self.win_events
        return {"hands": self.hands, "drawn_hands": self.drawn, "wins_by_seat": self.wins_by_seat,
                "self_draw_share": round(self.self_drawn / wins, 4) if wins else 0.0,
                "average_tai": round(self.tai_total / wins, 3) if wins else 0.0,
                "patterns": dict(self.patterns.most_common()),
                "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None}

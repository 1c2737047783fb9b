"""A match (一將): hands in a row with the dealer rotating, 圈 advancing, scores running.

搬風 seats the four players, 定莊 picks the first dealer (起莊); the dealer keeps the
deal on a win or a drawn hand (連莊, counted as 連N拉N) and otherwise passes it
to the next seat; each time the deal comes back to the first dealer the round
wind (圈風) advances. ``rounds`` 圈 make the match (four = 一將).

    >>> from twmahjong.profiles import load_profile
    >>> m = Match(load_profile("standard"), seed=5, rounds=1)
    >>> h = m.start_hand(); (h.dealer == m.first_dealer, m.round_wind)
    (True, 0)
"""

from __future__ import annotations

import random

from ..profiles import BUILTIN, load_profile
from .table import HandState
from .wall import choose_first_dealer, choose_seating, hand_seed, new_seed

__all__ = ["RECORD_FORMAT", "Match"]

RECORD_FORMAT = "twmahjong-record"


class Match:
    """Runs hands one after another; seats are 0-3 (East seat of the match first)."""

    def __init__(self, profile, *, seed: int | None = None, rounds: int | None = None,
                 carried: list[int] | None = None, open_windows: bool = False):
        self.profile = profile
        self.open_windows = open_windows    # see HandState: uniform secret windows
        self.seed = new_seed() if seed is None else seed
        self.rng = random.Random(self.seed)
        self.rounds = rounds if rounds is not None else profile.play.rounds
        if not 1 <= self.rounds <= 4:
            from .actions import IllegalAction
            raise IllegalAction(f"a match has 1 to 4 rounds (圈), not {self.rounds}")
        self.seating, self.seating_info = choose_seating(self.rng)
        self.first_dealer, self.dealer_dice = choose_first_dealer(self.rng)
        self.dealer = self.first_dealer
        self.dealer_streak = 0
        self.round_wind = 0
        self.hand_no = 0
        self.scores = [0, 0, 0, 0]
        self.carried = carried
        self.events: list[dict] = []
        self.hand: HandState | None = None
        self.results: list[dict] = []
        self.over = False

    def start_hand(self, wall=None) -> HandState:
        """Deal the next hand; its events go straight into the match's record.

        ``wall`` (tests only) deals from a stacked wall instead of the seed's; such a
        match cannot be replayed from its record."""
        if self.over:
            from .actions import IllegalAction
            raise IllegalAction("the match is over")
        seed = hand_seed(self.seed, self.hand_no)
        carried = None
        if self.carried is not None:
            carried = [c + s for c, s in zip(self.carried, self.scores)]
        h = HandState(self.profile, dealer=self.dealer, dealer_streak=self.dealer_streak,
                      round_wind=self.round_wind, seed=seed, hand_no=self.hand_no,
                      carried=carried, events=self.events, wall=wall,
                      open_windows=self.open_windows)
        self.hand = h
        return h

    def end_hand(self) -> dict:
        """Count the finished hand: scores, 連莊 or rotation, 圈, end of match."""
        h = self.hand
        res = h.result
        self.results.append(res)
        if res["type"] == "win":
            for s in range(4):
                self.scores[s] += res["net"][s]
        dealer_keeps = res["type"] == "draw_game" or (
            self.dealer in res["winners"] and not any(w.get("four_kongs") for w in h.wins))
        if dealer_keeps:
            self.dealer_streak += 1
        else:
            self.dealer = (self.dealer + 1) % 4
            self.dealer_streak = 0
            if self.dealer == self.first_dealer:
                self.round_wind += 1
                if self.round_wind >= self.rounds:
                    self.over = True
        self.hand_no += 1
        self.hand = None
        return res

    def record(self) -> dict:
        """The game record (formats.md); ``engine.record.replay`` reads it back.

        Built here, not in ``record``, so that the match never imports the replayer."""
        p = self.profile
        builtin = p.id in BUILTIN and load_profile(p.id) == p
        return {"format": RECORD_FORMAT, "version": 1,
                "profile": p.id if builtin else p.model_dump(mode="json"),
                "seed": self.seed, "seating": list(self.seating), "rounds": self.rounds,
                "first_dealer": self.first_dealer, "hands": self.hand_no,
                "scores": list(self.scores), "events": self.events}

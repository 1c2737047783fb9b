"""A match: hands in a row with the dealer rotating, 圈 advancing, scores running.

搬風 seats the four players, 定莊 picks the first dealer (起莊); the dealer keeps the
deal on a win or a drawn hand (連莊, counted as 連N拉N) and otherwise passes it
to the next seat; each time the deal comes back to the first dealer the round
wind (圈風) advances. ``rounds`` 圈 make the match; every four are a 將. Before each
將 after the first, where the profile says so (``play.reseat_each_game``), the
players 搬風 again from their seats and 定莊 is thrown again; a ``reseat`` event in
the record tells the dice, the wind tiles drawn and the new seating. Seats stay
the table's places (seat 0 is the East seat); players move, and their running
scores move with them.

    >>> from twmahjong.profiles import load_profile
    >>> m = Match(load_profile("standard"), seed=5, rounds=1)
    >>> h = m.start_hand(); (h.dealer == m.first_dealer, m.round_wind)
    (True, 0)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ..profiles import BUILTIN, Profile, load_profile
from .table import HandState
from .wall import Wall, choose_first_dealer, choose_seating, hand_seed, new_seed, reseat

if TYPE_CHECKING:
    from .results import HandResult
    from .state import Event

__all__ = ["MAX_ROUNDS", "RECORD_FORMAT", "Match", "Record"]

MAX_ROUNDS = 16                             # four 將
RECORD_FORMAT = "twmahjong-record"

# A game record (formats.md): a JSON object with a header and the events; ``replay``
# reads one back from a file, trusting nothing in it.
Record = dict[str, Any]


class Match:
    """Runs hands one after another; seats are 0-3 (East seat of the match first)."""

    def __init__(self, profile: Profile, *, seed: int | None = None, rounds: int | None = None,
                 carried: list[int] | None = None, open_windows: bool = False):
        self.profile = profile
        self.open_windows = open_windows    # see HandState: uniform secret windows
        self.seed = new_seed() if seed is None else seed
        self.rng = random.Random(self.seed)
        self.rounds = rounds if rounds is not None else profile.play.rounds
        if not 1 <= self.rounds <= MAX_ROUNDS:
            from .actions import IllegalAction
            raise IllegalAction(f"a match has 1 to {MAX_ROUNDS} rounds (圈; 4 are one 將), not {self.rounds}")
        self.seating, self.seating_info = choose_seating(self.rng)
        self.initial_seating = list(self.seating)   # what the record's header names
        self.rounds_done = 0                # 圈 completed in the whole match
        self.game = 0                       # which 將 (0-based)
        self._new_game = False              # the next hand opens a new 將
        self.first_dealer, self.dealer_dice = choose_first_dealer(self.rng)
        self.initial_first_dealer = self.first_dealer
        self.dealer = self.first_dealer
        self.dealer_streak = 0
        self.round_wind = 0
        self.hand_no = 0
        self.scores = [0, 0, 0, 0]
        self.carried = carried
        self.events: list[Event] = []
        self.hand: HandState | None = None
        self.results: list[HandResult] = []
        self.over = False

    def start_hand(self, wall: Wall | None = None) -> HandState:
        """Deal the next hand; its events go straight into the match's record.

        ``wall`` (tests only) deals from a stacked wall instead of the seed's; such a
        match cannot be replayed from its record."""
        if self.over:
            from .actions import IllegalAction
            raise IllegalAction("the match is over")
        if self._new_game:
            self._start_game()
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

    def end_hand(self) -> HandResult:
        """Count the finished hand: scores, 連莊 or rotation, 圈, end of match."""
        h = self.hand
        assert h is not None and h.result is not None, "end_hand() after the hand is over"
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
                self.rounds_done += 1
                if self.rounds_done >= self.rounds:
                    self.over = True
                elif self.round_wind == 4:
                    self._new_game = True
        self.hand_no += 1
        self.hand = None
        return res

    @property
    def game_ended(self) -> bool:
        """The hand just counted ended a 將: the next deal opens a new one (with 搬風
        where the profile says so)."""
        return self._new_game

    def _start_game(self) -> None:
        """The next 將: 搬風 from the present seats, thrown by the last hand's (first)
        winner — a 將 ends only when a non-dealer's win passes the deal, so there is
        one — then 定莊 by the East seat's dice; the 圈 starts again at East."""
        self._new_game = False
        self.game += 1
        self.round_wind = 0
        self.dealer_streak = 0
        if not self.profile.play.reseat_each_game:
            return                          # same seats, same 起莊: the rotation just goes on
        thrower = self.results[-1]["winners"][0]
        old = self.seating
        new, info = reseat(self.rng, old, thrower)
        moved_from = [old.index(p) for p in new]          # new seat -> the player's old seat
        self.scores = [self.scores[moved_from[s]] for s in range(4)]
        if self.carried is not None:
            self.carried = [self.carried[moved_from[s]] for s in range(4)]
        self.seating = new
        self.first_dealer, self.dealer_dice = choose_first_dealer(self.rng)
        self.dealer = self.first_dealer
        self.events.append({"type": "reseat", "game": self.game, "thrower": thrower,
                            "draws": info["draws"], "seating": list(new),
                            "first_dealer": self.first_dealer, "dealer_dice": list(self.dealer_dice)})

    def scores_by_player(self) -> list[int]:
        """Running scores by player id (``scores`` is by seat, and players move at 搬風)."""
        out = [0] * 4
        for s, p in enumerate(self.seating):
            out[p] = self.scores[s]
        return out

    def record(self) -> Record:
        """The game record (formats.md); ``engine.record.replay`` reads it back.

        Built here, not in ``record``, so that the match never imports the replayer."""
        p = self.profile
        builtin = p.id in BUILTIN and load_profile(p.id) == p
        return {"format": RECORD_FORMAT, "version": 1,
                "profile": p.id if builtin else p.model_dump(mode="json"),
                "seed": self.seed, "seating": list(self.initial_seating), "rounds": self.rounds,
                "first_dealer": self.initial_first_dealer, "hands": self.hand_no,
                "scores": list(self.scores), "events": self.events}

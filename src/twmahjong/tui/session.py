"""One person and three bots at a real match (人機對戰): the engine driver behind the screen.

The session owns the ``Match`` and the bots, runs every bot decision by itself and
stops whenever the human seat must decide; the screen only ever reads
``observation()`` — the human seat's own view — and, once a hand is over, what the
table shows at 攤牌. Nothing here imports Textual, so it is tested on its own.

    >>> from twmahjong.profiles import load_profile
    >>> s = PlaySession(load_profile("standard"), bot_names=["random"] * 3, seed=3, rounds=1)
    >>> s.start_hand(); bool(s.legal()) or s.hand.over
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from ..bots import make_bot
from ..engine.actions import PASS, Action, IllegalAction
from ..engine.match import Match
from ..engine.observe import LazyObservation, event_view
from ..engine.wall import new_seed

__all__ = ["HUMAN", "PlaySession", "relative"]

HUMAN = 0          # the person is player 0 of the match; 搬風 decides the seat


def relative(seat: int, me: int) -> int:
    """0 本家, 1 下家 (plays after me), 2 對家, 3 上家 (plays before me)."""
    return (seat - me) % 4


class PlaySession:
    """A match where seat ``self.seat`` waits for a person and the others are bots.

    ``walls(hand_no)`` may return a stacked ``Wall`` for a hand (tests set positions
    this way); ``bots`` may replace the named bots with ready objects."""

    def __init__(self, profile, *, bot_names: Sequence[str], seed: int | None = None,
                 rounds: int | None = None, records: Path | None = None,
                 bots: Sequence | None = None, walls: Callable | None = None):
        self.profile = profile
        self.seed = new_seed() if seed is None else seed
        self.match = Match(profile, seed=self.seed, rounds=rounds)
        self.bot_names = list(bot_names)
        made = list(bots) if bots is not None else [
            make_bot(n, self.seed * 4 + i + 1) for i, n in enumerate(self.bot_names)]
        # players 1-3 are the bots, in the order given on the command line
        self.players: dict[int, object] = {p: made[p - 1] for p in (1, 2, 3)}
        self.seat = self.match.seating.index(HUMAN)
        self.seating_before = list(self.match.seating)   # the seats before the last 搬風
        self.records = records
        self.walls = walls
        self.hand = None
        self.hand_start = 0          # index of this hand's first event in match.events
        self.seen = 0                # events already handed to the screen
        self.ended = False           # match.end_hand() done for self.hand
        self.last_result: dict | None = None
        self.record_path: Path | None = None
        self.rounds = self.match.rounds
        # every decision of the match in order, (hand_no, seat, action): what a saved
        # match replays from (the seed deals the same walls)
        self.actions: list[tuple[int, int, dict]] = []
        self.online = False

    # -- the screen's interface (shared with the online session) -----------------------

    @property
    def scores(self) -> list[int]:
        return list(self.match.scores)

    @property
    def hand_no(self) -> int:
        return self.hand.hand_no if self.hand is not None else self.match.hand_no

    @property
    def hand_over(self) -> bool:
        return self.hand is not None and self.hand.over

    @property
    def match_over(self) -> bool:
        return self.match.over

    def seat_name(self, lang: str, seat: int) -> str:
        """下家 電腦2, or 下家 碰碰伯 when a personality plays it."""
        from .render import seat_name
        from .strings import tr
        if seat == self.seat:
            return seat_name(lang, seat, self.seat, self.player_at(seat))
        rel = ("self", "right", "across", "left")[relative(seat, self.seat)]
        return tr(lang, "seat_name", rel=tr(lang, rel), bot=self.bot_label(lang, self.player_at(seat)))

    def bot_label(self, lang: str, player: int) -> str:
        """A bot by its name: a personality's (碰碰伯 / Pon Uncle), else 電腦2."""
        from ..bots.personalities import get_personality
        from .strings import tr
        p = get_personality(self.bot_names[player - 1])
        if p is not None:
            return p.en if lang == "en" else p.zh
        return tr(lang, "bot", n=player)

    def bot_level(self, player: int) -> str:
        """L3; a personality's tier as its level."""
        from ..bots.personalities import get_personality
        name = self.bot_names[player - 1]
        p = get_personality(name)
        return f"L{p.tier}" if p is not None else name

    def seat_player(self, lang: str, seat: int) -> str:
        """Who plays a seat, for its box: 電腦2 L3, 碰碰伯 L1."""
        from .strings import tr
        if seat == self.seat:
            return tr(lang, "you")
        return self.player_name(lang, self.player_at(seat))

    # -- who is who ----------------------------------------------------------------

    def player_at(self, seat: int) -> int:
        return self.match.seating[seat]

    def player_name(self, lang: str, player: int) -> str:
        """A player by who they are, not where they sit (搬風 moves them): 你, 電腦2 L3."""
        from .strings import tr
        if player == HUMAN:
            return tr(lang, "you")
        return f"{self.bot_label(lang, player)} {self.bot_level(player)}"

    def reseat_lines(self, lang: str, e: dict) -> list[str]:
        """A ``reseat`` event told as it happens at the table: who throws, who draws
        the first wind tile, where everyone sits now, and 定莊 by the East seat."""
        from .render import reseat_lines
        winds = self.hand.observation(self.seat)["seat_winds"] if self.hand is not None else None
        return reseat_lines(lang, e, self.seating_before, lambda p: self.player_name(lang, p), winds)

    def bot_at(self, seat: int):
        return self.players[self.player_at(seat)]

    # -- the flow --------------------------------------------------------------------

    def start_hand(self, run: bool = True) -> None:
        """Deal the next hand; with ``run``, let the bots play up to the person's first decision."""
        self.hand_start = len(self.match.events)
        self.seen = self.hand_start
        wall = self.walls(self.match.hand_no) if self.walls else None
        before = list(self.match.seating)
        self.hand = self.match.start_hand(wall=wall)
        # 搬風 before a new 將 moves everyone, the person too: their seat is wherever the
        # wind tile they drew put them, and the screen reads it from here
        self.seat = self.match.seating.index(HUMAN)
        self.seating_before = before
        self.ended = False
        if run:
            self.run_bots()

    def legal(self) -> list[Action]:
        """What the person may do now (empty while nothing is asked of them)."""
        if self.hand is None or self.hand.over:
            return []
        return list(self.hand.pending().get(self.seat, []))

    def _apply(self, seat: int, action: Action) -> None:
        self.hand.act(seat, action)          # bots answer with dicts, the screen with Actions
        self.actions.append((self.hand.hand_no, seat,
                             action.to_json() if isinstance(action, Action) else dict(action)))

    def act(self, action: Action, run: bool = True) -> None:
        """The person's choice; then (with ``run``) the bots play on. ``IllegalAction`` changes nothing."""
        self._apply(self.seat, action)
        if run:
            self.run_bots()
        elif self.hand.over:
            self._finish()

    def step(self) -> bool:
        """One move of the table that is not the person's: a bot's decision, or the
        person's pass-only window passed for them. False when the person must decide
        (or the hand is over). A screen with a table speed calls this on a timer."""
        h = self.hand
        if h is None or h.over:
            if h is not None:
                self._finish()
            return False
        pend = h.pending()
        for s, acts in pend.items():
            if s != self.seat:
                legal = [a.to_json() for a in acts]
                self._apply(s, self.bot_at(s).act(LazyObservation(h, s, legal)))
                break
        else:
            acts = pend[self.seat]
            if not (len(acts) == 1 and acts[0].type == "pass"):
                return False
            self._apply(self.seat, PASS)
        if h.over:
            self._finish()
            return False
        return True

    def run_bots(self) -> None:
        """Bots decide until the person must, or the hand ends (then it is counted).

        A window where the person could only pass (過) is passed for them."""
        while self.step():
            pass

    def _finish(self) -> None:
        if self.ended:
            return
        self.ended = True
        self.last_result = self.match.end_hand()
        for bot in self.players.values():
            hook = getattr(bot, "end_hand", None)
            if hook is not None:
                hook(self.last_result)
        self.save_record()

    def save_record(self) -> None:
        """Write the match so far (each finished hand) to the records folder."""
        if self.records is None:
            return
        self.records.mkdir(parents=True, exist_ok=True)
        self.record_path = self.records / f"play-{self.seed}.json"
        tmp = self.record_path.with_suffix(".tmp")
        rec = dict(self.match.record())
        rec["person"] = HUMAN             # which player (of ``seating``) was the person
        tmp.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
        tmp.replace(self.record_path)

    # -- an unfinished match, kept and taken up again ---------------------------------

    def progress(self) -> dict:
        """What resumes this match: the options, the seed and every decision so far."""
        return {"format": "twmahjong-play-save", "version": 1, "profile": self.profile.model_dump(),
                "seed": self.seed, "rounds": self.rounds, "bots": self.bot_names,
                "records": str(self.records) if self.records else None,
                "hand_no": self.match.hand_no, "scores": self.scores,
                "actions": [[n, s, a] for n, s, a in self.actions]}

    def save_progress(self, path: Path) -> Path:
        """Write ``progress()`` to ``path`` (atomically). A stacked-wall test match has
        no seed to replay from and is not saved."""
        if self.walls is not None:
            raise RuntimeError("a match dealt from stacked walls cannot be resumed")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.progress(), ensure_ascii=False), encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def resume(cls, data: dict, *, bots: Sequence | None = None) -> PlaySession:
        """The saved match, replayed decision by decision to where it stopped.

        Raises ``IllegalAction`` (a ``UserError``) when the save does not replay — a
        damaged file, or one written by a different version of the rules."""
        from ..profiles import Profile
        try:
            profile = Profile.model_validate(data["profile"])
            records = Path(data["records"]) if data.get("records") else None
            s = cls(profile, bot_names=data["bots"], seed=int(data["seed"]),
                    rounds=int(data["rounds"]), records=records, bots=bots)
            for hand_no, seat, act in data["actions"]:
                while s.hand is None or s.hand.over:
                    if s.hand is not None:
                        s._finish()
                    s.start_hand(run=False)
                if s.hand.hand_no != hand_no:
                    raise IllegalAction(f"the save's hand {hand_no} does not follow hand {s.hand.hand_no}")
                s._apply(seat, Action.from_json(act))
        except (KeyError, TypeError, ValueError) as e:
            raise IllegalAction(f"the saved match cannot be read ({e})") from None
        if s.hand is None:
            s.start_hand(run=False)
        elif s.hand.over:
            s._finish()
        s.seen = s.hand_start if not s.ended else len(s.match.events)
        return s

    def close(self) -> None:
        for bot in self.players.values():
            hook = getattr(bot, "close", None)
            if hook is not None:
                hook()

    # -- what the person sees ----------------------------------------------------------

    def observation(self) -> dict:
        return self.hand.observation(self.seat)

    def new_events(self) -> list[dict]:
        """Events since the last call, as the person's seat may see them."""
        evs = self.match.events[self.seen:]
        self.seen = len(self.match.events)
        return [event_view(e, self.seat) for e in evs]

    def hand_events(self) -> list[dict]:
        """This hand's events as the person's seat may see them."""
        return [event_view(e, self.seat) for e in self.match.events[self.hand_start:]]

    def revealed(self) -> list[dict]:
        """攤牌: every seat's tiles once the hand is over (never before)."""
        if self.hand is None or not self.hand.over:
            raise RuntimeError("hands are shown only when the hand is over")
        out = []
        for s in range(4):
            o = self.hand.observation(s)
            out.append({"hand": o["hand"] + (o["drawn"] or ""), "melds": o["melds"][s],
                        "flowers": o["flowers"][s]})
        return out

    def summary_model(self) -> dict:
        """終局: scores and wins per seat."""
        wins = [0, 0, 0, 0]
        for r in self.match.results:
            for w in r.get("winners", []):
                wins[w] += 1
        return {"scores": self.scores, "wins": wins, "rounds": self.match.rounds,
                "hands": self.match.hand_no, "record_path": self.record_path}

    def result_model(self) -> dict:
        """The end-of-hand screen's data: wins with their 台, payments, scores."""
        evs = self.match.events[self.hand_start:]
        wins = [e for e in evs if e["type"] == "win"]
        settlement = next((e for e in evs if e["type"] == "settlement"), None)
        draw = next((e for e in evs if e["type"] == "draw_game"), None)
        return {"hand_no": self.hand.hand_no, "wins": wins, "settlement": settlement,
                "draw_game": draw, "revealed": self.revealed(), "scores": list(self.match.scores),
                "match_over": self.match.over, "dealer": self.hand.dealer,
                "game_ended": self.match.game_ended and not self.match.over,
                "game": self.match.game, "reseat": self.profile.play.reseat_each_game,
                "dealer_streak": self.hand.dealer_streak}

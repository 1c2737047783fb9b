"""``EngineGame``: the table actor's ``TableGame`` on top of ``engine.Match``.

A game here is one ``Match`` of 1-4 圈 (一將 is 4): the engine seats the players,
picks the first dealer, passes the deal on (連莊 on a dealer win or a drawn hand)
and turns the round wind. The match seed comes from the OS CSPRNG when the table
is created and is stored with the game, so a restarted server rebuilds the same
walls; each hand's own seed (drawn from it) is what the table commits to at the
deal and reveals after. The table's stake level is a profile whose 底/台價 are
multiplied, so the engine settles every hand through ``settlement`` with the
table's own stakes and 防以小博大 caps.
"""

from __future__ import annotations

from ...engine.actions import Action, IllegalAction
from ...engine.explain import why_illegal
from ...engine.match import Match
from ...engine.observe import event_view, observation, observations
from ...profiles import load_profile
from ...tiles import format_tiles, parse_tiles
from ..settings import STAKE_LEVELS
from .game import PASS_ONLY

__all__ = ["BOT_CARRY", "EngineGame", "replay_stored", "revealed_hands", "table_profile"]

BOT_CARRY = 10**12     # bots play for the house, which never runs out of coins
WINDOWS = ("claim", "rob_kong", "declare")   # decisions whose existence is secret


def table_profile(name: str, stake: str):
    """The profile with its stakes scaled to the table's stake level."""
    profile = load_profile(name)
    m = STAKE_LEVELS[stake]
    if m == 1:
        return profile
    stakes = profile.stakes.model_copy(update={"base": profile.stakes.base * m,
                                               "per_tai": profile.stakes.per_tai * m})
    return profile.model_copy(update={"stakes": stakes})


class EngineGame:
    """``meta``: profile, stake, rounds, and options ``seed`` (the match seed) and
    ``carried`` (each seat's coins at the start; None for a bot)."""

    def __init__(self, meta: dict):
        opts = meta.get("options") or {}
        carried = opts.get("carried")
        carry = None if carried is None else [BOT_CARRY if c is None else max(0, int(c))
                                              for c in carried]
        # open_windows: every discard opens the claim window for all (engine/table.py)
        self.match = Match(table_profile(meta["profile"], meta["stake"]),
                           seed=int(opts["seed"]), rounds=int(meta["rounds"]), carried=carry,
                           open_windows=True)
        self.hand_no = 0                       # hands dealt so far
        self.hand = None
        self._stacked = opts.get("stacked")    # test mode only: the first hand's wall
        self._hand_events = 0                  # where this hand's events start

    @property
    def lilgu(self) -> bool:
        """The profile counts 嚦咕嚦咕 as a win (the table tells clients, for 聽牌提示)."""
        return self.match.profile.scoring.lilgu

    # -- the hand ----------------------------------------------------------------------------
    def start_hand(self) -> int:
        """Deal the next hand; its wall seed, for the commitment."""
        self._hand_events = len(self.match.events)
        wall = None
        if self._stacked and self.hand_no == 0:
            from .stacked import wall as stacked_wall
            m = self.match
            m.dealer = m.first_dealer = m.initial_first_dealer = int(self._stacked.get("dealer", 0))
            wall = stacked_wall(self._stacked)
        self.hand = self.match.start_hand(wall=wall)
        self.hand_no += 1
        return self.hand.seed

    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.over

    def hand_over(self) -> bool:
        return self.hand is not None and self.hand.over

    def pending(self) -> dict[int, list[dict]]:
        return {s: [a.to_json() for a in acts] for s, acts in self.hand.pending().items()}

    def act(self, seat: int, action: dict) -> None:
        self.hand.act(seat, action)

    def check(self, seat: int, action: dict) -> dict:
        """The offered action ``action`` names, as the engine writes it; otherwise
        the engine's ``IllegalAction`` saying why. Changes nothing."""
        if self.hand is None or self.hand.over:
            raise IllegalAction("no hand is being played")
        legal = self.hand.pending().get(seat)
        if legal is None:
            raise IllegalAction("you have nothing to decide now")
        wanted = Action.from_json(action)
        for a in legal:
            if a == wanted:
                return a.to_json()
        raise IllegalAction(why_illegal(self.hand, seat, wanted))

    def observation(self, seat: int) -> dict:
        """The seat's view; in a window where it can only pass, no ``legal`` at all:
        the table passes for it when the window closes, and a client has nothing
        to show (a lone 過 button on every discard would be noise)."""
        obs = self.hand.observation(seat)
        if obs.get("legal") == PASS_ONLY and self.in_window():
            del obs["legal"]
        return obs

    def observations(self) -> list[dict]:
        """``observation`` of the four seats, built at once (``engine.observe.observations``:
        what every seat sees is built once and shared)."""
        out: list = observations(self.hand)
        if self.in_window():
            for obs in out:
                if obs.get("legal") == PASS_ONLY:
                    del obs["legal"]
        return out

    def in_window(self) -> bool:
        return self.hand is not None and self.hand.phase in WINDOWS

    def view_key(self) -> tuple:
        """Changes whenever any seat's observation may have changed, apart from the
        seat's own ``legal`` (the table keys that itself): every change of the hand
        is an event, or a change of phase, turn or claim (a pass adds no event).
        Equal keys let the table skip building four observations to find none
        changed — most moves are the passes of a closing claim window."""
        h = self.hand
        if h is None:
            return (len(self.match.events), self.hand_no)
        return (len(self.match.events), self.hand_no, h.phase, h.turn_seat, h.claim_ctx)

    def event_count(self) -> int:
        return len(self.match.events)

    def events_for(self, seat: int, start: int) -> list[dict]:
        """The match's events from ``start`` as ``seat`` may see them (draws hidden)."""
        return [event_view(ev, seat) for ev in self.match.events[start:]]

    def finish_hand(self) -> dict:
        """Book the finished hand (the engine passes the deal on); the public outcome."""
        res = dict(self.match.end_hand())
        net = [int(n) for n in (res.get("net") or [0, 0, 0, 0])]
        fee = int(res.get("fee") or 0)
        outcome = {k: v for k, v in res.items() if k not in ("tai", "patterns")}
        outcome["wins"] = [ev for ev in self.match.events[self._hand_events:]
                           if ev["type"] == "win"]        # the winners' hands, shown to all
        outcome["hands"] = revealed_hands(self.hand, outcome["wins"])
        outcome["net"], outcome["fee"] = net, fee
        return {"result": outcome, "net": net, "fee": fee}

    def match_over(self) -> bool:
        return self.match.over

    def scores(self) -> list[int]:
        return list(self.match.scores)

    def record(self) -> dict:
        """The engine's game record (formats.md): give it out only when the game is over."""
        return self.match.record()


def replay_stored(game, rows: list[dict]):
    """``game`` brought to where its stored rows leave it (a deal, a decision, a
    settlement each), as a restart, a record and a replay all rebuild it."""
    for r in rows:
        if r["kind"] == "hand":
            game.start_hand()
        elif r["kind"] == "action":
            game.act(r["seat"], r["data"]["action"])
        elif r["kind"] == "settled":
            game.finish_hand()
    return game


def revealed_hands(hand, wins: list[dict]) -> list[dict]:
    """Every seat's tiles once the hand is over (攤牌): all four hands are turned up.

    ``concealed`` leaves out a winner's winning tile (the result shows it apart,
    as the win event's hand does); a 暗槓 shows its tiles, since nothing is secret
    any more. Only for a finished hand: before that, a seat sees its own tiles only.
    """
    win_tile = {w["seat"]: w.get("tile") for w in wins}
    out = []
    for s in range(4):
        obs = observation(hand, s)
        kinds = parse_tiles(obs["hand"] + (obs["drawn"] or ""))
        tile = win_tile.get(s)
        if tile:
            kind = parse_tiles(tile)[0]
            if kind in kinds:
                kinds.remove(kind)
        out.append({"concealed": format_tiles(kinds), "melds": obs["melds"][s],
                    "flowers": obs["flowers"][s]})
    return out

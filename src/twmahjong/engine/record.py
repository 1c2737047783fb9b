"""Game records (牌譜) and replay.

A record is the profile, the seed that made every wall, the seating and every
event in order (formats.md). Players' choices are events too (discard, chi, pon,
kong, declare, win); a seat that was offered something and is not named by the
next event passed, so ``pass`` never needs writing down. Replay deals again from
the seed, feeds the recorded choices back, and checks that every event the engine
makes — draws, flowers, wins, settlements — is the recorded one.

    >>> from twmahjong.profiles import load_profile
    >>> from twmahjong.selfplay import play_match
    >>> m = play_match(load_profile("standard"), seed=2, rounds=1, max_hands=2)
    >>> replay(m.record()).scores == m.scores
    True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from pydantic import ValidationError

from ..errors import UserError
from ..profiles import BUILTIN, Profile, load_profile
from ..tiles import NotationError, parse_tile, parse_tiles
from . import actions as A
from .actions import Action, IllegalAction
from .match import RECORD_FORMAT, Match, Record
from .state import Event
from .table import HandState

__all__ = ["RECORD_FORMAT", "ReplayError", "Watch", "make_record", "replay"]


class ReplayError(UserError):
    """A record that does not match the rules or its own seed; names the first bad event."""

    def __init__(self, index: int | None, why: str):
        self.index = index
        where = "record" if index is None else f"event {index}"
        super().__init__(f"{where}: {why}")


def make_record(m: Match) -> Record:
    """The record of ``m`` (the same as ``m.record()``)."""
    return m.record()


def _profile_of(rec: Record) -> Profile:
    p = rec.get("profile", "standard")
    if isinstance(p, str):
        if p not in BUILTIN:
            raise ReplayError(None, f"unknown profile {p!r}")
        return load_profile(p)
    if isinstance(p, dict):
        try:
            return Profile.model_validate(p)
        except ValidationError as e:     # pydantic's message names the key
            raise ReplayError(None, f"the embedded profile is not valid: {str(e).splitlines()[0]}") from None
    raise ReplayError(None, "profile must be a profile id or the profile's data")


def _tile(ev: Event, key: str, i: int) -> int:
    try:
        return parse_tile(ev[key])
    except (KeyError, TypeError, NotationError):
        raise ReplayError(i, f"{ev.get('type')} event has no readable {key!r}") from None


# what a recorded event asks of a seat: (seat, which offered action, label) -> that action.
# The seat is the record's, unchecked (it may be missing or no seat at all): ``want``
# refuses any seat that is not pending, which is the check.
_Want = Callable[[Any, Callable[[Action], bool], str], Action]


def _decisions(h: HandState, rec: list[Event], i: int) -> dict[int, Action]:
    """The recorded choices that the next event(s) stand for, by seat."""
    pend = h.pending()
    ev = rec[i]
    t = ev.get("type")
    seat: Any = ev.get("seat")

    class _NotHere(Exception):
        pass

    def want(s: Any, pred: Callable[[Action], bool], label: str) -> Action:
        if s not in pend:
            if all(A.PASS in acts for acts in pend.values()):
                raise _NotHere           # the event comes later: everyone pending passed
            raise ReplayError(i, f"{label} by seat {s}, but seat {s} has nothing to decide now")
        for a in pend[s]:
            if pred(a):
                return a
        raise ReplayError(i, f"{label} by seat {s} is not allowed here; legal: "
                             + ", ".join(a.describe() for a in pend[s]))

    try:
        return _map(h, rec, i, pend, ev, t, seat, want)
    except _NotHere:
        return {}


def _map(h: HandState, rec: list[Event], i: int, pend: dict[int, list[Action]], ev: Event,
         t: object, seat: Any, want: _Want) -> dict[int, Action]:
    out: dict[int, Action] = {}
    if h.phase == "last_tile":
        # 海底: a draw event by the asked seat was ``draw``; anything else (draw_game) a decline
        if t == "draw" and not ev.get("replacement") and seat in pend:
            out[seat] = A.DRAW
        return out
    if h.phase == "rob_flower":
        robber = cast(tuple[int, int, int], h.claim_ctx)[2]     # (drawer, flower, robber)
        if t == "flower" and ev.get("robbed_from") is not None and seat == robber:
            out[robber] = A.FLOWER_WIN
        return out
    if t in ("discard",):
        k = _tile(ev, "tile", i)
        out[seat] = want(seat, lambda a: a.type == "discard" and a.tile == k, f"discard {ev['tile']}")
    elif t == "declare":
        if "tile" in ev:
            k = _tile(ev, "tile", i)
            out[seat] = want(seat, lambda a: a.type == "declare" and a.tile == k, "declare")
        else:
            j = i
            while j < len(rec) and rec[j].get("type") == "declare" and "tile" not in rec[j]:
                s: Any = rec[j].get("seat")
                out[s] = want(s, lambda a: a.type == "declare", "declare 天聽")
                j += 1
    elif t in ("chi", "pon"):
        k = _tile(ev, "tile", i)
        if t == "pon":
            out[seat] = want(seat, lambda a: a.type == "pon" and a.tile == k, f"pon {ev['tile']}")
        else:
            try:
                run = parse_tiles(ev["tiles"])
                run.remove(k)
            except (KeyError, ValueError, NotationError):
                raise ReplayError(i, "chi event needs the run in 'tiles' holding the claimed tile") from None
            two = tuple(sorted(run))
            out[seat] = want(seat, lambda a: a.type == "chi" and a.tile == k and a.tiles == two,
                             f"chi {ev['tiles']}")
    elif t == "kong":
        k = _tile(ev, "tile", i)
        typ = {"exposed": "kong", "added": "added_kong",
               "concealed": "concealed_kong"}.get(ev.get("kind", ""))
        if typ is None:
            raise ReplayError(i, "kong event kind must be exposed, added or concealed")
        out[seat] = want(seat, lambda a: a.type == typ and a.tile == k, f"{typ} {ev['tile']}")
    elif t == "flower" and ev.get("robbed_from") is not None:
        out[seat] = want(seat, lambda a: a.type == "flower_win", "flower win (七搶一)")
    elif t == "win":
        j = i
        while j < len(rec) and rec[j].get("type") == "win":
            e = rec[j]
            s = e.get("seat")
            if e.get("flower_win"):
                out[s] = want(s, lambda a: a.type == "flower_win", "flower win")
            elif e.get("four_kongs"):
                break
            else:
                out[s] = want(s, lambda a: a.type == "win", "win")
            j += 1
    return out


Watch = Callable[[HandState, dict[int, Action]], object]


def replay(rec: Record, *, watch: Watch | None = None) -> Match:
    """Re-run a record; return the finished match, or raise ReplayError at the first bad event.

    ``watch(hand, choices)``, if given, sees every decision point before the recorded
    choices are made (``choices`` by seat; a pending seat missing from it passes)."""
    if not isinstance(rec, dict) or rec.get("format") != RECORD_FORMAT:
        raise ReplayError(None, f"not a game record (format must be {RECORD_FORMAT!r})")
    if rec.get("version") != 1:
        raise ReplayError(None, f"unsupported record version {rec.get('version')!r}")
    events = rec.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise ReplayError(None, "events must be a list of objects")
    seed = rec.get("seed")
    if not isinstance(seed, int):
        raise ReplayError(None, "seed must be an integer")
    m = Match(_profile_of(rec), seed=seed, rounds=rec.get("rounds"))
    if rec.get("seating") is not None and list(rec["seating"]) != m.seating:
        raise ReplayError(None, f"seating {rec['seating']} is not what seed {seed} gives ({m.seating})")
    n_hands = rec.get("hands")
    checked = 0

    def check() -> None:
        nonlocal checked
        while checked < len(m.events):
            if checked >= len(events):
                raise ReplayError(checked, f"the record ends here but the game goes on with "
                                           f"{_short(m.events[checked])}")
            if m.events[checked] != events[checked]:
                raise ReplayError(checked, f"recorded {_short(events[checked])}, "
                                           f"but the game gives {_short(m.events[checked])}")
            checked += 1

    while not m.over and (n_hands is None or m.hand_no < n_hands):
        h = m.start_hand()
        while True:
            check()
            if h.over:
                break
            if checked >= len(events):
                raise ReplayError(checked, "the record ends in the middle of a hand")
            choice = _decisions(h, events, checked)
            if watch is not None:
                watch(h, choice)
            for s in sorted(h.pending()):
                try:
                    h.act(s, choice.get(s, A.PASS))
                except IllegalAction as e:
                    raise ReplayError(checked, f"{_short(events[checked])}: {e}") from None
        m.end_hand()
    check()
    if checked != len(events):
        raise ReplayError(checked, f"the game is over but the record goes on with {_short(events[checked])}")
    return m


def _short(ev: Event) -> str:
    keys = ("type", "seat", "tile", "kind", "from", "tiles")
    return "{" + ", ".join(f"{k}={ev[k]}" for k in keys if k in ev) + "}"

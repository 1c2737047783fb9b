"""Hints at the table (教練模式): who may ask the coach, and the asking.

The coach itself is a library piece (``twmahjong.coach``) that reads one seat's
observation; all the server decides is who may ask, and it decides alone — a
client shows the control only when the snapshot's ``table.hints`` says so, and a
request it sends anyway is refused with ``hints_off``:

* never in 積分賽 (``ranked``) or 挑戰賽 (``challenge``), and never to a watcher;
* at a table where every other seat is a bot (a game against the computer, a
  quick match the bots filled);
* in a private room whose host allowed them (the room option ``hints``, off
  unless asked for; the room's state shows it) — with people or without.

The connection refuses what it can tell alone (a watcher, no seat, over
``hint_rate`` a second with bursts of ``hint_burst``: ``gate``) and passes the
request to the table like a seat's other messages, so it reaches the process
that runs the table in a cluster too. There, in the table's actor (``ask``), the
hint reads what the seat was last sent (``SeatState.last_obs``) while those moves
are still the seat's pending decision; it is worked out once per decision (the
cache holds the answer with the observation it answered) in a worker thread, so
the actor and the other tables go on while it runs, and pushed to the asking
connection alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from typing import Any

from ...coach import NoDecision, coach
from ..net import protocol as P
from .timers import TokenBucket

__all__ = ["CACHE", "HintCache", "ask", "gate", "hints_allowed"]

NO_HINTS_MODES = ("ranked", "challenge")    # 積分賽, 挑戰賽: never
HINT_RATE, HINT_BURST = 1.0, 5              # a connection's asking, unless settings say
CACHE_SIZE = 1024                           # decisions kept (a hint and its observation: ~7 kB)

log = logging.getLogger("twmahjong.server.play.coaching")


def hints_allowed(table: Any, seat: int | None) -> bool:
    """Whether ``seat`` of ``table`` may ask for hints (None: a watcher, never)."""
    if seat is None:
        return False
    meta = getattr(table, "meta", None) or {}
    if meta.get("mode") in NO_HINTS_MODES:
        return False
    if (meta.get("options") or {}).get("hints"):
        return True                         # a room whose host allowed them
    return all(getattr(s, "bot", None) is not None
               for i, s in enumerate(table.seats) if i != seat)


class HintCache:
    """The last ``size`` decisions' hints, by (table, seat, turn); an entry answers
    only the observation it was computed for (a table rebuilt after an error counts
    its turns again). ``computed`` counts the hints worked out, not served."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._d: OrderedDict[tuple, tuple[dict, asyncio.Future]] = OrderedDict()
        self.computed = 0

    async def get(self, key: tuple, obs: dict) -> str:
        hit = self._d.get(key)
        if hit is not None and hit[0] == obs:
            self._d.move_to_end(key)
            return await asyncio.shield(hit[1])
        fut: asyncio.Future = asyncio.get_running_loop().create_future()
        self._d[key] = (obs, fut)
        while len(self._d) > self.size:
            self._d.popitem(last=False)
        self.computed += 1
        try:
            hint = await asyncio.to_thread(_hint_json, obs)
        except BaseException as e:
            self._d.pop(key, None)
            fut.set_exception(e)
            fut.exception()                 # retrieved: nobody else need be waiting
            raise
        fut.set_result(hint)
        return hint


def _hint_json(obs: dict) -> dict:
    return coach(obs).to_json()


CACHE = HintCache()
_buckets: weakref.WeakKeyDictionary[Any, TokenBucket] = weakref.WeakKeyDictionary()


def _refuse(code: str, message: str) -> P.ProtocolError:
    return P.ProtocolError(code, message)


def _bucket(conn: Any) -> TokenBucket:
    b = _buckets.get(conn)
    if b is None:
        st = conn.server.settings
        b = _buckets[conn] = TokenBucket(getattr(st, "hint_rate", HINT_RATE),
                                         getattr(st, "hint_burst", HINT_BURST),
                                         time.monotonic())
    return b


def gate(conn: Any) -> None:
    """The connection's own checks of a ``hint`` request (``net.ws.Connection``):
    a watcher or a connection with no seat is refused, and so is one over its rate;
    raises ``ProtocolError`` with the code to send."""
    if conn.table is None or conn.seat is None:
        if conn.watching is not None:
            raise _refuse("hints_off", "watchers get no hints")
        raise _refuse("hints_off", "you are not seated at a table")
    if conn.table.finished:
        raise _refuse("no_decision", "this game is over")
    if not _bucket(conn).take(time.monotonic()):
        raise _refuse("rate_limited", "too many hint requests; wait a moment")


_running: set[asyncio.Task] = set()


def ask(table: Any, seat: int, turn: int | None, conn: Any) -> None:
    """In ``table``'s actor: answer ``seat``'s ``hint`` request on ``conn`` — the hint
    for its pending decision (worked out off the actor), or an error saying why not
    (docs/protocol.md, "Hints")."""
    def refuse(code: str, message: str) -> None:
        conn.push(P.out(P.Error(code=code, message=message)))

    if not hints_allowed(table, seat):
        return refuse("hints_off", "hints are off at this table")
    s = table.seats[seat]
    obs = s.last_obs
    legal = table.pending.get(seat)
    if (table.finished or s.decision_turn is None or not obs or not legal
            or obs.get("legal") != legal or not table._deciding(seat)):
        return refuse("no_decision", "there is no decision of yours to help with now")
    if turn is not None and turn != s.decision_turn:
        return refuse("stale", f"turn {turn} is over; the decision now is turn "
                               f"{s.decision_turn}")
    task = asyncio.get_running_loop().create_task(_answer(table.id, seat, s.decision_turn,
                                                          obs, conn))
    _running.add(task)
    task.add_done_callback(_running.discard)


async def _answer(table_id: str, seat: int, turn: int, obs: dict, conn: Any) -> None:
    try:
        hint = await CACHE.get((table_id, seat, turn), obs)
    except NoDecision as e:
        conn.push(P.out(P.Error(code="no_decision", message=str(e))))
        return
    except Exception:                       # a defect of ours: logged, the player told
        log.exception("table %s: the hint for seat %d at turn %d failed", table_id, seat, turn)
        conn.push(P.out(P.Error(code="hint_failed",
                                message="the coach could not answer this time")))
        return
    conn.push(P.message("hint", turn=turn, hint=hint))

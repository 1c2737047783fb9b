"""A table always moves on (牌桌不卡): the invariant each table checks after every
item it handles, and the mend when it breaks.

While a hand is in play, every pending decision has exactly one thing that will
answer it:

- a person's running clock (the player decides, or time runs out and 托管 plays);
- a bot scheduled to answer: a ``bot`` item on its way for the seat's current
  decision (``Table.bot_calls`` counts them by seat and decision token, from the
  moment the callback is set until the table handles its item);
- or the table is paused (``paused``), which it is only with nobody connected:
  whoever sits back down is told by the snapshot, and the table goes on.

A secret window (claims, 搶槓, 天聽) also needs its own timer on the way while any
seat in it can only pass or has an early answer held back (``stash``): the timer's
item passes for them. A table that breaks any of this is logged with its state and
mended at once — the seat is played by its bot, the window's timer set again — and
the mend is counted (``MENDS`` in this process, ``twmj_liveness_mends_total`` in
/metrics). Tests fail on any mend (tests/conftest.py), so a mend is a bug to fix,
never a way the table is meant to work.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from .game import PASS_ONLY

__all__ = ["MENDS", "breaches", "keep_alive", "state_of"]

log = logging.getLogger("twmahjong.server.play.liveness")

# mends in this process since it started (every Server of it): the tests read it
MENDS = [0]


def breaches(table: Any) -> list[str]:
    """What has nothing to answer it at ``table`` now (empty: the table is live)."""
    if table.finished or table.aborted:
        return []
    if table.paused:
        if table._people_connected():
            return ["paused with a person connected"]
        return []
    if not table.hand_open or table.game.hand_over():
        return []                      # between hands: the next deal has its own timer
    out = []
    pending = table.game.pending()
    if pending != table.pending:
        out.append("the table's pending decisions are not the game's")
    window = table.game.in_window()
    if window:
        if table.window is None:
            out.append("a window open with no number")
        elif table.window_timer != table.window and (
                table.stash or table.held
                or any(legal == PASS_ONLY for legal in pending.values())):
            out.append("a window's passes with no timer to make them")
    for i, legal in pending.items():
        if window and legal == PASS_ONLY:
            continue
        s = table.seats[i]
        if table._human_plays(s):
            if not s.clock.running and not (window and i in table.stash):
                out.append(f"seat {i}: a person's decision with no clock running")
        elif window and i in table.held:
            continue                   # decided; applied when the window's timer comes
        elif s.decision_turn is None or not table.bot_calls.get((i, s.decision_turn)):
            out.append(f"seat {i}: a bot's decision with no bot asked")
    return out


def state_of(table: Any) -> dict:
    """The table's state as the log shows it beside a breach."""
    return {"table": table.id, "turn": table.turn, "hand": table.game.hand_no,
            "pending": {i: sorted({a["type"] for a in legal})
                        for i, legal in table.game.pending().items()},
            "window": table.window, "window_timer": table.window_timer,
            "in_window": table.game.in_window(), "stash": sorted(table.stash),
            "held": sorted(table.held),
            "paused": table.paused,
            "seats": [{"auto": s.auto, "bot": s.bot, "conns": len(s.conns),
                       "clock": s.clock.running, "decision_turn": s.decision_turn,
                       "bot_scheduled": s.bot_scheduled} for s in table.seats],
            "bot_calls": sorted(table.bot_calls)}


def keep_alive(table: Any) -> int:
    """Check ``table``; mend and log whatever breaks the invariant. Returns the
    number of problems mended (0 on a healthy table)."""
    problems = breaches(table)
    if not problems:
        return 0
    MENDS[0] += 1
    metrics = getattr(table.sv, "metrics", None)
    if metrics is not None and hasattr(metrics, "liveness_mends"):
        metrics.liveness_mends.inc()
    log.error("liveness mend at table %s: %s; state %s", table.id, "; ".join(problems),
              state_of(table))
    _mend(table)
    return len(problems)


def _mend(table: Any) -> None:
    """Every stuck decision is given to its seat's bot; a stuck window gets a timer."""
    loop = asyncio.get_running_loop()
    now = table.sv.clock()
    if table.game.pending() != table.pending:
        table._sync_pending()
    if table.paused:
        table.paused = False           # a person is here: the table goes on
        for s in table.seats:
            s.bot_scheduled = None
        table._sync_pending()
        if not breaches(table):
            return
    pending = table.game.pending()
    window = table.game.in_window()
    if window:
        if table.window is None:
            table._sync_pending()      # opens it, with its timer
        if table.window is not None and table.window_timer != table.window:
            table.window_timer = table.window
            loop.call_later(max(0.0, table.window_end - now), table.inbox.put_nowait,
                            ("window", table.window))
    for i, legal in pending.items():
        if window and legal == PASS_ONLY:
            continue
        s = table.seats[i]
        if table._human_plays(s):
            if s.clock.running or (window and i in table.stash):
                continue
            s.auto = True              # played by its bot; the player takes it back
            table._presence(i)
        elif window and i in table.held:
            continue
        if s.decision_turn is None:
            s.decision_turn = table.turn
        if not table.bot_calls.get((i, s.decision_turn)):
            s.bot_scheduled = s.decision_turn
            delay = (max(0.0, table.window_end - now) if window
                     else table.sv.settings.bot_delay)
            table._ask_bot(i, s.decision_turn, delay)

"""A seat's view of a server table, folded from the protocol's messages.

``TableState.apply(msg)`` takes every server message in order (docs/protocol.md:
``matched``, ``snapshot``, ``update``, ``presence``, ``hand_start``, ``hand_end``,
``game_end``) and keeps what a client draws: the observation, the ``turn`` to
send back with an action, this hand's events, the clocks and the table's seats.
A ``snapshot`` replaces everything (join and reconnect), so a client that lost
its link is whole again after one message.

*No ``legal`` means nothing to decide*: after every discard each seat sees a claim
window, and a seat with nothing to claim has no ``legal`` list — ``decision()``
is then empty, and a client waits.
"""

from __future__ import annotations

import time

__all__ = ["TableState"]


class TableState:
    def __init__(self):
        self.account: dict | None = None
        self.game_id: str | None = None
        self.seat: int | None = None
        self.ticket: str | None = None
        self.table: dict = {}
        self.hand: dict | None = None
        self.obs: dict | None = None
        self.turn: int | None = None
        self.timer: dict | None = None
        self.timer_at = 0.0               # time.monotonic() when ``timer`` arrived
        self.clocks: list | None = None
        self.events: list[dict] = []      # this hand's events, as this seat saw them
        self.fresh: list[dict] = []       # events not yet taken by ``take_events``
        self.hand_end: dict | None = None         # this hand's result (None once the next is dealt)
        self.last_hand_end: dict | None = None    # the latest result, kept
        self.game_end: dict | None = None
        self.queued: dict | None = None
        self.coins: list | None = None
        # between hands: {"in": s, "at": time.monotonic(), "waiting": [seats]} — the next
        # deal's countdown as hand_end, each ready and a snapshot told it; None in a hand
        self.next_hand: dict | None = None
        self.connections = 1              # this account's connections to the seat (notice)

    # -- folding ---------------------------------------------------------------------------
    def apply(self, m: dict) -> None:
        t = m.get("type")
        if t == "welcome":
            self.account = m["account"]
        elif t == "queued":
            self.queued = m
        elif t == "matched":
            self.game_id, self.seat, self.ticket = m["game_id"], m["seat"], m["ticket"]
            self.queued = None
        elif t == "snapshot":
            self.table = m["table"]
            self.game_id = m["table"].get("game_id", self.game_id)
            self.hand = m.get("hand")
            self.ticket = m.get("ticket") or self.ticket
            self.queued = None
            self._observe(m)
            if self.obs is not None:
                self.seat = self.obs["seat"]
            self.events = []              # a snapshot starts the hand's story from here
            nh = m["table"].get("next_hand")
            self._next(nh.get("in"), nh.get("waiting")) if nh else self._next(None, None)
        elif t == "update":
            self._observe(m)
            evs = list(m.get("events") or [])
            self.events.extend(evs)
            self.fresh.extend(evs)
        elif t == "presence":
            seats = self.table.setdefault("seats", [{} for _ in range(4)])
            if 0 <= m["seat"] < len(seats):
                seats[m["seat"]].update(connected=m["connected"], auto=m["auto"])
        elif t == "hand_start":
            self.hand = {"hand_no": m["hand_no"], "open": True, "commitment": m["commitment"]}
            self.hand_end = None
            self.events = []
            self.next_hand = None
        elif t == "ready" and "seat" in m:
            self._next(m.get("next_in"), m.get("waiting"))
        elif t == "notice" and m.get("kind") == "second_connection":
            data = m.get("data") or {}
            if data.get("game_id") in (None, self.game_id):
                self.connections = int(data.get("connections") or 1)
        elif t == "hand_end":
            self._next(m.get("next_in"), m.get("waiting"))
            self.hand_end = self.last_hand_end = m
            self.coins = m.get("coins")
            net = (m.get("result") or {}).get("net")
            if net and self.table.get("scores"):
                self.table["scores"] = [a + b for a, b in zip(self.table["scores"], net)]
            if self.hand is not None:
                self.hand["open"] = False
        elif t == "game_end":
            self.game_end = m
            self.table["scores"] = m["scores"]
            self.table["finished"] = True

    def _next(self, seconds, waiting) -> None:
        self.next_hand = None if seconds is None else {
            "in": float(seconds), "at": time.monotonic(), "waiting": list(waiting or [])}

    def next_deal_in(self) -> float | None:
        """Seconds until the server deals the next hand (counted down), None when unknown."""
        nh = self.next_hand
        if nh is None:
            return None
        return max(0.0, nh["in"] - (time.monotonic() - nh["at"]))

    def _observe(self, m: dict) -> None:
        if m.get("observation") is not None:
            self.obs = m["observation"]
        self.turn = m.get("turn", self.turn)
        self.timer = m.get("timer")
        self.timer_at = time.monotonic()
        if m.get("clocks") is not None:
            self.clocks = m["clocks"]

    # -- reading ----------------------------------------------------------------------------
    def decision(self) -> list[dict]:
        """The seat's ``legal`` actions now; [] — nothing to decide — when there are none."""
        return list((self.obs or {}).get("legal") or [])

    def take_events(self) -> list[dict]:
        out, self.fresh = self.fresh, []
        return out

    def time_left(self) -> float | None:
        """Seconds this seat has left for the decision (base, then bank), counted down."""
        if not self.timer or not self.decision():
            return None
        spent = time.monotonic() - self.timer_at
        return max(0.0, self.timer.get("base", 0) + self.timer.get("bank", 0) - spent)

    @property
    def scores(self) -> list[int]:
        return list(self.table.get("scores") or [0, 0, 0, 0])

    @property
    def seats(self) -> list[dict]:
        return list(self.table.get("seats") or [{} for _ in range(4)])

    @property
    def over(self) -> bool:
        return self.game_end is not None or bool(self.table.get("finished"))

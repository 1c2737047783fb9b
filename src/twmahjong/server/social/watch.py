"""觀戰: watching a table in progress, behind a delay, public information only.

Rules/000's 外插 onlookers 「不得以聲音.動作.表情.眼神影響行牌」; online that means a
watcher must learn nothing a seated player could use. So a watcher is sent

- the public view only (``public_view``, ``public_events``: rivers, melds, flowers,
  counts, scores) — built by a whitelist, never by redacting a seat's view, so no
  concealed tile, drawn tile, 暗槓 face or claim option (``legal``) can slip in;
- behind by ``watch_delay`` turns (default 4: one full round of discards, 一巡):
  a frame recorded after the table's n-th discard is sent once the table has
  made its (n + delay)-th. When the hand ends, everything is turned up anyway
  (攤牌), so the hand's last frames and its ``hand_end`` follow at once;
- no ``talk`` (phrases stay among the seated), no clocks, no presence.

Frames are recorded only while somebody watches, so an unwatched table pays
nothing; a watcher who arrives mid-hand sees the table as it was on arrival,
``watch_delay`` turns later.

    >>> public_events([{"type": "draw", "seat": 1, "tile": "5m"}])
    [{'type': 'draw', 'seat': 1, 'tile': '?'}]
"""

from __future__ import annotations

from typing import Any

from ..net import protocol as P

__all__ = ["WatchDesk", "public_events", "public_view"]

HIDDEN = "?"

_VIEW_KEYS = ("dealer", "dealer_streak", "round_wind", "seat_winds", "wall_remaining",
              "phase", "flowers", "discards", "concealed_count", "declared",
              "last_discard", "added_kong")

# per event type, the fields a watcher may read; a type not named is not sent
_EVENT_KEYS: dict[str, tuple[str, ...]] = {
    "deal": ("hand_no", "dealer", "dealer_streak", "round_wind", "seat_winds", "dice",
             "wall_break"),
    "draw": ("seat", "replacement"),
    "flower": ("seat", "tile"),
    "discard": ("seat", "tile"),
    "chi": ("seat", "from", "tile", "tiles"),
    "pon": ("seat", "from", "tile"),
    "kong": ("seat", "kind", "from", "tile"),
    "declare": ("seat", "kind", "tile"),
}


def _meld(m: dict) -> dict:
    if m.get("type") == "concealed_kong":
        return {"type": "concealed_kong", "tiles": None}        # face down, whoever owns it
    return {k: m[k] for k in ("type", "tiles", "from", "claimed") if k in m}


def public_view(obs: dict) -> dict:
    """What anyone at the table can see, from any seat's observation."""
    out = {k: obs[k] for k in _VIEW_KEYS if k in obs}
    out["melds"] = [[_meld(m) for m in seat] for seat in obs.get("melds", [])]
    return out


def public_events(events: list[dict]) -> list[dict]:
    """Record events as an onlooker sees them (draws and 暗槓 face down, no hands)."""
    out = []
    for ev in events:
        keys = _EVENT_KEYS.get(ev.get("type", ""))
        if keys is None:
            continue
        e = {"type": ev["type"], **{k: ev[k] for k in keys if k in ev}}
        if e["type"] == "draw":
            e["tile"] = HIDDEN
        if e["type"] == "deal":
            e["hands"] = [HIDDEN] * 4
        if e["type"] == "kong" and ev.get("kind") == "concealed":
            e["tile"] = HIDDEN
        out.append(e)
    return out


class WatchDesk:
    """A table's watchers and the frames waiting for them (owned by the table actor)."""

    def __init__(self, table: Any, delay: int):
        self.table = table
        self.delay = delay
        self.watchers: dict[Any, int] = {}     # outbox -> account id
        self.frames: list[dict] = []           # recorded, not yet sent
        self.discards = 0                      # discards made at this table so far
        self.ev_seen = 0                       # the game's events already looked at

    def __len__(self) -> int:
        return len(self.watchers)

    def add(self, conn: Any, account_id: int) -> None:
        self.watchers[conn] = account_id
        self._catch_up()
        conn.push(P.message("watching", game_id=self.table.id, table=self._table(),
                            delay=self.delay))
        if self.table.hand_open:
            self._record([])          # the table as it is: sent `delay` turns from now

    def remove(self, conn: Any) -> bool:
        return self.watchers.pop(conn, None) is not None

    def _table(self) -> dict:
        info = self.table.table_info()
        keep = ("game_id", "mode", "profile", "stake", "rounds", "seats", "scores",
                "finished", "state", "speed", "watchers")
        out = {k: info[k] for k in keep if k in info}
        if info.get("voice", {}).get("listen"):      # the host lets watchers listen
            out["voice"] = info["voice"]
        return out

    def moved(self) -> None:
        """The game changed (after every seat was sent its update): record a frame
        and send those now ``delay`` discards old."""
        if not self.watchers:
            return                    # unwatched: nothing to do (counted on the next add)
        events = self._catch_up()
        game = self.table.game
        if game.hand_no > 0 and self.table.hand_open and not game.hand_over():
            self._record(public_events(events))
        self._release(self.discards - self.delay)

    def _catch_up(self) -> list[dict]:
        """The game's events since last looked at, their discards counted (a frame's
        ``turn`` is the table's count of discards, 0 at the start). Unwatched, a table
        does not look: the first watcher's arrival counts everything since."""
        events = self.table.game.events_for(0, self.ev_seen)
        self.ev_seen += len(events)
        self.discards += sum(1 for e in events if e.get("type") == "discard")
        return events

    def _record(self, events: list[dict]) -> None:
        obs = self.table.game.observation(0)
        self.frames.append({"hand_no": self.table.game.hand_no, "turn": self.discards,
                            "view": public_view(obs), "events": events,
                            "scores": list(self.table.game.scores())})

    def _release(self, upto: int) -> None:
        while self.frames and self.frames[0]["turn"] <= upto:
            self._send(P.message("watch", **self.frames.pop(0)))

    def hand_ended(self, hand_end: str) -> None:
        """Everything is turned up now: the hand's frames, then its result."""
        if self.watchers:
            self._release(float("inf"))      # type: ignore[arg-type]
            self._catch_up()
            self._send(hand_end)

    def ended(self, text: str) -> None:
        self._release(float("inf"))      # type: ignore[arg-type]
        self._send(text)

    def _send(self, text: str) -> None:
        for conn in list(self.watchers):
            conn.push(text)

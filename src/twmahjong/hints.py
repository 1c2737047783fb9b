"""聽牌提示 (ready hints): which discards leave a hand ready, and how many of each wait are still live.

Every client shows the same hint — the terminal here, the browser in
``web/js/waits.js`` (tested against this module) — so it
is one piece of the library that reads nothing but one seat's observation (the
dict of docs/architecture.md, as the engine, a bot pipe or the server's
``update`` gives it). A *live* tile is one the seat has not seen: four of each
kind, less the seat's own tiles, every river, every exposed meld. A discard that
another seat claimed stays in the thrower's river *and* sits in the meld, so it is
counted once: exactly when the hand's events are given, else by reading which of
the meld's tiles the thrower's river holds.

    >>> obs = {"seat": 0, "hand": "1112345678999m", "drawn": "5p", "melds": [[], [], [], []],
    ...        "discards": [[], ["9m"], [], []]}
    >>> [(w.tile, w.live) for w in discard_hints(obs)["5p"]]
    [('1m', 1), ('2m', 3), ('3m', 3), ('4m', 3), ('5m', 3), ('6m', 3), ('7m', 3), ('8m', 3), ('9m', 0)]

A wait with no live copy stays listed (0 left): the hand is ready, only hopeless.
A wait the seat may not win on now because it let a win go (過水, the observation's
``passed_win``) is listed ``blocked``:

    >>> obs = {"seat": 0, "hand": "1112345678999m", "melds": [[], [], [], []],
    ...        "discards": [[], [], [], []], "passed_win": {"until": "until_own_draw", "tiles": "9m"}}
    >>> [w.tile for w in ready_waits(obs) if w.blocked]
    ['9m']
"""

from __future__ import annotations

from dataclasses import dataclass

from .hand import waits
from .tiles import counts34, parse_tiles, tile_str

__all__ = ["Wait", "discard_hints", "live_counts", "passed_blocked", "ready_waits", "seen_counts"]


@dataclass(frozen=True)
class Wait:
    """One tile the hand waits on (聽), with how many copies are still unseen (剩餘張數)."""
    tile: str
    live: int
    blocked: bool = False          # 過水: the seat may not win on it now

    def to_json(self) -> dict:
        out: dict = {"tile": self.tile, "live": self.live}
        if self.blocked:
            out["blocked"] = True
        return out


def _kinds(text) -> list[int]:
    if not text:
        return []
    if isinstance(text, list):
        text = "".join(text)
    return [k for k in parse_tiles(text) if k < 34]


def _claimed_from_events(events) -> list[int]:
    """The discards another seat took (吃 碰 明槓), read from the hand's events."""
    out = []
    for e in events:
        if e.get("type") in ("chi", "pon") or (e.get("type") == "kong" and e.get("kind") == "exposed"):
            if e.get("tile") and e["tile"] != "?":
                out.extend(_kinds(e["tile"]))
    return out


def _claimed_from_melds(obs: dict) -> list[int]:
    """Without events: the meld's ``claimed`` tile, which an observation names; in
    one that does not (an older record), a pung/kong's claimed tile is its kind and a
    chow's the one of its three tiles the thrower's river holds (the lowest such when
    several do) — a guess, wrong when the thrower later threw another of the run."""
    out = []
    rivers = [counts34(_kinds(d)) for d in obs.get("discards", [[]] * 4)]
    for melds in obs.get("melds", []):
        for m in melds:
            if m.get("from") is None or not m.get("tiles"):
                continue
            if m.get("claimed"):
                out.extend(_kinds(m["claimed"]))
                continue
            ks = _kinds(m["tiles"])
            river = rivers[m["from"]] if m["from"] < len(rivers) else [0] * 34
            pick = next((k for k in sorted(set(ks)) if river[k]), None)
            if pick is not None:
                river[pick] -= 1
                out.append(pick)
    return out


def seen_counts(obs: dict, events=None) -> list[int]:
    """34 counts of what this seat can see: its own tiles, every river, every exposed meld."""
    c = [0] * 34
    for k in _kinds(obs.get("hand")) + _kinds(obs.get("drawn")):
        c[k] += 1
    for river in obs.get("discards", []):
        for k in _kinds(river):
            c[k] += 1
    for melds in obs.get("melds", []):
        for m in melds:
            for k in _kinds(m.get("tiles")):
                c[k] += 1
    claimed = _claimed_from_events(events) if events is not None else _claimed_from_melds(obs)
    for k in claimed:
        c[k] -= 1
    return [max(0, min(4, n)) for n in c]


def live_counts(obs: dict, events=None) -> list[int]:
    """34 counts of tiles this seat has not seen (4 − seen)."""
    return [4 - n for n in seen_counts(obs, events)]


def _waits_of(counts: list[int], live: list[int], lilgu: bool,
              blocked=frozenset()) -> list[Wait]:
    every = blocked is None
    return [Wait(tile_str(k), live[k], every or k in blocked)
            for k in waits(counts, lilgu=lilgu)]


def passed_blocked(obs: dict, discard: int | None = None, *, lilgu: bool = False):
    """The kinds 過水 keeps this seat from winning on (None: every kind), from the
    observation's ``passed_win``; with ``discard`` (a kind thrown on the seat's turn),
    as they stand after that discard: any discard lifts ``until_own_discard``, one
    that is not a winning tile of the hand before the turn lifts
    ``until_non_winning_discard`` (解除過水)."""
    pw = obs.get("passed_win")
    if not pw:
        return frozenset()
    if pw.get("tiles"):
        return frozenset(_kinds(pw["tiles"]))
    if discard is None:
        return None
    rule = pw.get("until")
    if rule == "until_own_discard":
        return frozenset()
    if rule == "until_non_winning_discard":
        before = _kinds(obs.get("hand"))
        melds = obs.get("melds") or [[]] * 4
        claimed = [m for m in melds[obs.get("seat", 0)] if m.get("claimed")]
        if not obs.get("drawn") and claimed:    # a claim's turn: before it, the meld's own tiles were held
            own = _kinds(claimed[-1]["tiles"])
            own.remove(_kinds(claimed[-1]["claimed"])[0])
            before += own
        if len(before) % 3 == 1 and discard not in waits(counts34(before), lilgu=lilgu):
            return frozenset()
    return None


def discard_hints(obs: dict, events=None, *, lilgu: bool = False,
                  allowed=None) -> dict[str, list[Wait]]:
    """On the seat's own turn (hand + drawn = 3k+2 tiles): each discard that leaves the
    hand ready (聽牌), as MPSZ tile → its waits with live counts. ``allowed`` (tiles)
    keeps only discards the rules permit now; ``lilgu`` adds 嚦咕嚦咕 waits."""
    hand = _kinds(obs.get("hand")) + _kinds(obs.get("drawn"))
    if len(hand) % 3 != 2:
        return {}
    c = counts34(hand)
    live = live_counts(obs, events)
    ok = None if allowed is None else {k for t in allowed for k in _kinds(t)}
    out: dict[str, list[Wait]] = {}
    for k in range(34):
        if not c[k] or (ok is not None and k not in ok):
            continue
        c[k] -= 1
        ws = _waits_of(c, live, lilgu, passed_blocked(obs, k, lilgu=lilgu))
        c[k] += 1
        if ws:
            out[tile_str(k)] = ws
    return out


def ready_waits(obs: dict, events=None, *, lilgu: bool = False) -> list[Wait]:
    """Between turns (3k+1 tiles): what the hand waits on now, with live counts; [] when not ready."""
    hand = _kinds(obs.get("hand"))
    if obs.get("drawn") or len(hand) % 3 != 1:
        return []
    return _waits_of(counts34(hand), live_counts(obs, events), lilgu, passed_blocked(obs))

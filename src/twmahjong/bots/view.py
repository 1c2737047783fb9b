"""One seat's view of the table (視角): the observation read into count arrays.

A bot never sees the table itself — only ``hand.observation(seat)`` (see
docs/architecture.md, "Observation"). This module turns that JSON into the
numbers every decision needs: the seat's own tiles, what every seat has shown,
and how many copies of each kind are still unseen (未見張數) from this seat.

    >>> v = View.from_observation({"seat": 0, "hand": "123m", "drawn": "4m", "legal": []})
    >>> v.counts[3], v.unseen[0]
    (1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

from ..tiles import KINDS, WIND_LETTERS, parse_tile, parse_tiles

if TYPE_CHECKING:                       # types only: importing the bots loads no engine
    from ..engine.actions import Action, ActionJSON

__all__ = ["LegalMove", "Meld", "View", "parse_legal"]

# A legal action read: (type, tile kind or None, the tiles from hand, the action as
# offered: its JSON, or in process the engine's own ``Action``)
LegalMove: TypeAlias = "tuple[str, int | None, tuple[int, ...], ActionJSON | Action]"


@dataclass(frozen=True)
class Meld:
    """An exposed (or concealed-kong) meld as the observation shows it."""
    type: str
    kinds: tuple[int, ...]
    source: int | None          # the seat whose discard was claimed, if any
    claimed: int | None = None  # the kind taken from that seat's river (the observation's ``claimed``)


def legal_of_actions(actions: Iterable[Action]) -> list[LegalMove]:
    """The engine's own legal actions as ``parse_legal`` reads their JSON, the
    actions themselves standing for the JSON (nothing written, nothing parsed)."""
    return [(a.type, a.tile, a.tiles, a) for a in actions]


def parse_legal(legal: Iterable[ActionJSON]) -> list[LegalMove]:
    """Legal actions as (type, tile kind, hand tiles, the original JSON)."""
    out: list[LegalMove] = []
    for a in legal:
        tile = a.get("tile")
        tiles = a.get("tiles")
        out.append((a["type"], parse_tile(tile) if tile else None,
                    tuple(parse_tiles(tiles)) if tiles else (), a))
    return out


def _legal(obs: Mapping[str, Any], acts: Sequence[Action] | None) -> list[LegalMove]:
    """The legal moves: the engine's own actions when the observation has them, else
    its ``legal`` JSON."""
    return legal_of_actions(acts) if acts is not None else parse_legal(obs.get("legal") or [])


def _melds(raw: Iterable[Mapping[str, Any]] | None) -> list[Meld]:
    out = []
    for m in raw or ():
        tiles = m.get("tiles") or ""
        claimed = m.get("claimed")
        out.append(Meld(m.get("type", "pon"), tuple(parse_tiles(tiles)) if tiles else (), m.get("from"),
                        parse_tile(claimed) if claimed else None))
    return out


@dataclass
class View:
    """What seat ``seat`` knows, as counts over the 34 kinds."""
    seat: int
    counts: list[int]                       # concealed tiles, drawn tile included
    drawn: int | None
    melds: list[list[Meld]]
    discards: list[list[int]]
    flowers: list[list[int]]
    declared: list[bool]
    concealed_count: list[int]
    wall_remaining: int
    dealer: int
    dealer_streak: int
    seat_winds: list[int]                   # 0-3 per seat
    round_wind: int
    last_discard: tuple[int, int] | None    # (seat, kind)
    legal: list[LegalMove]
    drawn_out: list[list[bool]] = field(default_factory=list)   # per river tile: 摸切 (see observe)
    visible: list[int] = field(default_factory=list)
    unseen: list[int] = field(default_factory=list)

    @classmethod
    def from_observation(cls, obs: Mapping[str, Any]) -> View:
        """Read an observation; a key it lacks (a host of an older protocol, a test's
        partial one) takes a neutral default. An in-process observation with the
        engine's ``actions`` is read from those, not from its ``legal`` JSON."""
        acts: Sequence[Action] | None = getattr(obs, "actions", None)
        kinds = getattr(obs, "kinds", None)     # an in-process observation: no text to read
        if kinds is not None:
            return cls._from_kinds(kinds(), acts, obs)
        seat = int(obs.get("seat", 0))
        counts = [0] * KINDS
        for k in parse_tiles(obs.get("hand") or ""):
            if k < KINDS:
                counts[k] += 1
        drawn = parse_tile(obs["drawn"]) if obs.get("drawn") else None
        if drawn is not None and drawn < KINDS:
            counts[drawn] += 1
        melds = [_melds(m) for m in (obs.get("melds") or [[], [], [], []])]
        discards = [list(parse_tiles(d)) if isinstance(d, str) else [parse_tile(t) for t in d]
                    for d in (obs.get("discards") or [[], [], [], []])]
        flowers = [list(parse_tiles(f)) if isinstance(f, str) else [parse_tile(t) for t in f]
                   for f in (obs.get("flowers") or [[], [], [], []])]
        winds = [WIND_LETTERS.index(w) for w in obs.get("seat_winds") or "ESWN"]
        ld = obs.get("last_discard")
        v = cls(
            seat=seat, counts=counts, drawn=drawn, melds=melds, discards=discards,
            flowers=flowers, declared=list(obs.get("declared") or [False] * 4),
            concealed_count=list(obs.get("concealed_count") or [16] * 4),
            wall_remaining=int(obs.get("wall_remaining", 60)),
            dealer=int(obs.get("dealer", 0)), dealer_streak=int(obs.get("dealer_streak", 0)),
            seat_winds=winds, round_wind=WIND_LETTERS.index(obs.get("round_wind") or "E"),
            last_discard=(int(ld["seat"]), parse_tile(ld["tile"])) if ld else None,
            legal=_legal(obs, acts),
        )
        drawn_out = obs.get("drawn_out")
        v.drawn_out = [list(d) for d in drawn_out] if drawn_out else [[False] * len(d) for d in discards]
        v._count_visible()
        return v

    @classmethod
    def _from_kinds(cls, k: Mapping[str, Any], acts: Sequence[Action] | None,
                    obs: Mapping[str, Any]) -> View:
        """The view ``from_observation`` reads from the observation's text, built
        from the same facts as numbers (``engine.observe.seat_kinds``)."""
        ld = k["last_discard"]
        v = cls(
            seat=k["seat"], counts=k["counts"], drawn=k["drawn"],
            melds=[[Meld(*m) for m in ms] for ms in k["melds"]], discards=k["discards"],
            flowers=k["flowers"], declared=k["declared"], concealed_count=k["concealed_count"],
            wall_remaining=k["wall_remaining"], dealer=k["dealer"],
            dealer_streak=k["dealer_streak"], seat_winds=k["seat_winds"],
            round_wind=k["round_wind"], last_discard=tuple(ld) if ld else None,
            legal=_legal(obs, acts),
            drawn_out=k["drawn_out"])
        v._count_visible()
        return v

    def _count_visible(self) -> None:
        """Every tile this seat has seen; a claimed discard sits both in the
        thrower's river and in the meld, so it is counted once."""
        vis = list(self.counts)
        for river in self.discards:
            for k in river:
                if k < KINDS:
                    vis[k] += 1
        for s, melds in enumerate(self.melds):
            for m in melds:
                for k in m.kinds:
                    if k < KINDS:
                        vis[k] += 1
                if m.source is not None and m.source != s and m.kinds:
                    vis[self._claimed_kind(m)] -= 1
        self.visible = [min(4, max(0, n)) for n in vis]
        self.unseen = [4 - n for n in self.visible]

    def _claimed_kind(self, m: Meld) -> int:
        """The river tile a meld took: told by the observation; for an observation
        without it (an older host), a pon/kong's kind, or a 吃's latest matching
        river tile — a guess that is wrong when the thrower later threw another
        tile of the run (22% of positions were miscounted)."""
        if m.claimed is not None:
            return m.claimed
        if m.type != "chi":
            return m.kinds[0]
        src = m.source
        river = self.discards[src] if src is not None and 0 <= src < len(self.discards) else []
        for k in reversed(river):
            if k in m.kinds:
                return k
        return m.kinds[0]

    # ---- small questions policies ask -------------------------------------------------

    @property
    def my_melds(self) -> list[Meld]:
        return self.melds[self.seat]

    @property
    def concealed_hand(self) -> bool:
        """門清: no meld made from another seat's discard (a concealed kong keeps it)."""
        return all(m.type == "concealed_kong" for m in self.my_melds)

    def legal_types(self) -> set[str]:
        return {a[0] for a in self.legal}

    def find(self, type_: str, tile: int | None = None,
             tiles: tuple[int, ...] | None = None) -> ActionJSON | Action | None:
        for a in self.legal:
            if a[0] == type_ and (tile is None or a[1] == tile) and \
                    (tiles is None or tuple(sorted(a[2])) == tuple(sorted(tiles))):
                return a[3]
        return None

    def turns_left(self) -> int:
        """About how many more draws this seat will get (每家約剩幾手)."""
        return max(0, self.wall_remaining // 4)

    def opponents(self) -> list[int]:
        return [s for s in range(4) if s != self.seat]

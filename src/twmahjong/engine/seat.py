"""One seat's side of the table during a hand (本家): tiles, melds, and the
restrictions that follow that seat around (過水, 漏碰, declarations).

Kept apart from the state machine so the rules about *who may still do what*
read in one place.
"""

from __future__ import annotations

__all__ = ["SeatState", "TableMeld", "other_end"]


class TableMeld:
    """An exposed or concealed set (吃 碰 槓) as it lies in front of a seat.

    ``from_seat`` is the discarder of the claimed tile (None for a 暗槓);
    ``claimed`` is that tile's kind. A 加槓 turns a pon into ``added_kong``."""

    __slots__ = ("claimed", "from_seat", "kinds", "type")

    def __init__(self, type: str, kinds: tuple[int, ...], from_seat: int | None, claimed: int | None):
        self.type = type
        self.kinds = kinds
        self.from_seat = from_seat
        self.claimed = claimed

    @property
    def is_kong(self) -> bool:
        return self.type in ("kong", "added_kong", "concealed_kong")

    @property
    def exposed(self) -> bool:
        return self.type != "concealed_kong"


def other_end(claimed: int, a: int, b: int) -> int | None:
    """絡牌: the tile that would have made the same run from the same two tiles.

    Claiming 3m with 45m, the other end is 6m; claiming 6m with 45m it is 3m; a
    middle claim (4m with 35m) has none. Used by 行牌禁制 6.

        >>> other_end(2, 3, 4), other_end(5, 3, 4), other_end(3, 2, 4)
        (5, 2, None)
    """
    if b != a + 1:
        return None
    suit_lo = (a // 9) * 9
    if claimed == a - 1:
        k = b + 1
    elif claimed == b + 1:
        k = a - 1
    else:
        return None
    return k if suit_lo <= k < suit_lo + 9 else None


class SeatState:
    """Everything the table knows about one seat in one hand.

    ``passed_win`` is 過水 (no win at all until this seat discards or adds a kong);
    ``passed_win_kinds`` is 漏胡 (no win on these kinds until this seat draws);
    ``passed_pon`` is 漏碰 / 同巡第二張不得碰; ``cannot_win`` is for the rest of the
    hand (casual: discarding the tile just claimed)."""

    __slots__ = (
        "cannot_win",
        "claimed",
        "counts",
        "declare_valid",
        "declared",
        "discards",
        "first_window",
        "flowers",
        "initial",
        "last_discard",
        "melds",
        "n_discards",
        "n_draws",
        "passed_pon",
        "passed_win",
        "passed_win_kinds",
        "since",
        "waits",
    )

    def __init__(self) -> None:
        self.counts = [0] * 34
        self.melds: list[TableMeld] = []
        self.flowers: list[int] = []
        self.discards: list[int] = []
        self.claimed: list[bool] = []
        self.declared: str | None = None       # heavenly_ready | earthly_ready | declared_ready
        self.declare_valid = False             # cleared by a passed win (曾過水未和，不計天聽)
        self.first_window = False              # 人和 / 地胡: the first chance after declaring
        self.passed_win = False
        self.passed_win_kinds: set[int] = set()
        self.passed_pon: set[int] = set()
        self.cannot_win = False
        self.last_discard: int | None = None
        self.n_discards = 0
        self.n_draws = 0
        self.since: set[int] = set()          # kinds discarded at the table since this seat's last discard
        self.initial: list[int] = []
        self.waits: frozenset[int] = frozenset()   # of the 3k+1 hand between this seat's turns

    def may_win(self) -> bool:
        return not self.cannot_win and not self.passed_win

    def may_win_on(self, kind: int) -> bool:
        return not self.cannot_win and not self.passed_win and kind not in self.passed_win_kinds

    def concealed_count(self) -> int:
        return sum(self.counts)

    def exposed_melds(self) -> bool:
        return any(m.exposed for m in self.melds)

    def kong_count(self) -> int:
        return sum(1 for m in self.melds if m.is_kong)

    def copy(self) -> SeatState:
        c = SeatState()
        c.counts = self.counts[:]
        c.melds = [TableMeld(m.type, m.kinds, m.from_seat, m.claimed) for m in self.melds]
        c.flowers = self.flowers[:]
        c.discards = self.discards[:]
        c.claimed = self.claimed[:]
        for name in ("declared", "declare_valid", "first_window", "passed_win", "cannot_win",
                     "last_discard", "n_discards", "n_draws"):
            setattr(c, name, getattr(self, name))
        c.passed_win_kinds = set(self.passed_win_kinds)
        c.passed_pon = set(self.passed_pon)
        c.since = set(self.since)
        c.initial = self.initial[:]
        c.waits = self.waits
        return c

"""One seat's side of the table during a hand (本家): tiles, melds, and the
restrictions that follow that seat around (過水, 漏碰, declarations).

Kept apart from the state machine so the rules about *who may still do what*
read in one place.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..hand import KEY_STEP, hand_key, is_complete_key, shanten_key, waits_key
from .winning import completes, is_lilgu, ready_discards, waits

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
    hand (casual: discarding the tile just claimed).

    ``counts`` (34 ints) and ``key`` (``twmahjong.hand``'s four per-suit base-5
    keys) describe the concealed tiles together: change them through ``add`` and
    ``take`` (or assign ``counts``) so the key stays in step; every win and wait
    question on the hot path is then a table lookup instead of a scan."""

    __slots__ = (
        "_counts",
        "cannot_win",
        "claimed",
        "declare_valid",
        "declared",
        "discards",
        "drawn_out",
        "first_window",
        "flowers",
        "initial",
        "key",
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
        self._counts = [0] * 34
        self.key = [0, 0, 0, 0]
        self.melds: list[TableMeld] = []
        self.flowers: list[int] = []
        self.discards: list[int] = []
        self.claimed: list[bool] = []
        self.drawn_out: list[bool] = []        # per discard: the tile just drawn (摸切), not one from the hand (手切)
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

    @property
    def counts(self) -> list[int]:
        return self._counts

    @counts.setter
    def counts(self, value: Iterable[int]) -> None:
        self._counts = list(value)
        self.key = list(hand_key(self._counts))

    def add(self, kind: int, n: int = 1) -> None:
        self._counts[kind] += n
        g, d = KEY_STEP[kind]
        self.key[g] += d * n

    def take(self, kind: int, n: int = 1) -> None:
        self._counts[kind] -= n
        g, d = KEY_STEP[kind]
        self.key[g] -= d * n

    def wait_kinds(self, lilgu: bool) -> frozenset[int]:
        """Kinds that complete the 3k+1 concealed tiles (聽牌張)."""
        if lilgu:
            return frozenset(waits(self._counts, lilgu=True))
        return frozenset(waits_key(self.key))

    def is_complete(self, lilgu: bool) -> bool:
        """The 3k+2 concealed tiles as they stand are a winning shape (胡牌)."""
        return is_complete_key(self.key) or (lilgu and is_lilgu(self._counts))

    def completes(self, kind: int, lilgu: bool) -> bool:
        """Whether one more ``kind`` would make the 3k+1 concealed tiles a win."""
        if lilgu:
            return completes(self._counts, kind, True)
        if self._counts[kind] >= 4:
            return False
        g, d = KEY_STEP[kind]
        key = self.key
        key[g] += d
        done = is_complete_key(key)
        key[g] -= d
        return done

    def ready_discards(self, lilgu: bool) -> list[int]:
        """Kinds whose discard leaves the 3k+2 tiles ready (聽牌) — what 地聽/報聽 may throw.

        One ``shanten_key`` lookup answers "no discard leaves it ready" for most
        turns; only a hand at 聽牌 distance tries its discards, each a ``waits_key``."""
        if lilgu:
            return ready_discards(self._counts, True)
        key = self.key
        n = sum(self._counts)
        if shanten_key(key, (n - 2) // 3) > 0:
            return []
        out = []
        c = self._counts
        for k in range(34):
            if c[k]:
                g, d = KEY_STEP[k]
                key[g] -= d
                if waits_key(key):
                    out.append(k)
                key[g] += d
        return out

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
        c.counts = self._counts
        c.melds = [TableMeld(m.type, m.kinds, m.from_seat, m.claimed) for m in self.melds]
        c.flowers = self.flowers[:]
        c.discards = self.discards[:]
        c.claimed = self.claimed[:]
        c.drawn_out = self.drawn_out[:]
        for name in ("declared", "declare_valid", "first_window", "passed_win", "cannot_win",
                     "last_discard", "n_discards", "n_draws"):
            setattr(c, name, getattr(self, name))
        c.passed_win_kinds = set(self.passed_win_kinds)
        c.passed_pon = set(self.passed_pon)
        c.since = set(self.since)
        c.initial = self.initial[:]
        c.waits = self.waits
        return c

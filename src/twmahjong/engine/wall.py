"""The wall (牌牆) and the opening rituals: 搬風, 定莊, 開門.

Physical detail kept where it changes who gets which tile: 144 tiles stand in four
walls of 18 stacks (墩) of two; the dealer's three dice pick the wall and the stack
where it opens (開門); the live end (牆頭) is drawn clockwise from there, and every
replacement (補花, 槓) comes from the far end (槓尾), top tile of the last stack
first. The last ``dead_wall`` tiles (鐵八墩, 16) are never drawn: the count of
drawable tiles is what is left beyond them, wherever replacements came from.

    >>> w = Wall.build(random.Random(7), breaker=0)
    >>> len(w.order), w.remaining
    (144, 144)
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import TypedDict, cast

from ..tiles import physical_kind

__all__ = ["Wall", "choose_first_dealer", "choose_seating", "count_seat", "hand_seed", "new_seed",
           "reseat", "roll_dice"]

STACKS_PER_SIDE = 18
_KIND_OF = tuple(physical_kind(t) for t in range(144))


class SeatingInfo(TypedDict):
    """How 搬風 went: who threw and the dice."""
    thrower: int
    dice: list[int]


class ReseatDraw(TypedDict):
    """One 搬風 draw before a later 將: the dice, the first seat to draw, the winds drawn."""
    dice: list[int]
    first: int
    winds: list[str]


class ReseatInfo(TypedDict):
    thrower: int
    draws: list[ReseatDraw]


def new_seed() -> int:
    """A production seed: 128 bits from the operating system's CSPRNG (never ``random``),
    so nobody can search the seed space for the wall they are looking at."""
    return secrets.randbits(128)


def hand_seed(match_seed: int, hand_no: int) -> int:
    """The wall seed of a match's ``hand_no``-th hand (0-based): 128 bits of
    SHA-256 over the match seed. A hash, not a generator's next output, so a hand
    seed revealed after its hand tells nothing about the match seed or the walls
    still to come, and anyone holding the match seed can recompute every wall."""
    digest = hashlib.sha256(f"twmj-hand-v2:{match_seed}:{hand_no}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


_BITS = tuple(n.bit_length() for n in range(145))


def shuffle(rng: random.Random, tiles: list[int]) -> None:
    """洗牌: ``rng.shuffle(tiles)`` written out — the same Fisher–Yates with the same
    draws (``getrandbits`` of the bound's bit length, drawn again while too large),
    so a seed stands the same wall; without a call per tile. Tested against
    ``random.shuffle``, which it must match for every record's seed to replay."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(tiles) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]


def roll_dice(rng: random.Random, n: int = 3) -> tuple[int, ...]:
    return tuple(rng.randint(1, 6) for _ in range(n))


def count_seat(thrower: int, total: int) -> int:
    """輪點: count ``total`` seats counter-clockwise starting with the thrower as one."""
    return (thrower + total - 1) % 4


def choose_seating(rng: random.Random) -> tuple[list[int], SeatingInfo]:
    """搬風: players 0-3 sit anywhere, one throws three dice; the counted seat draws
    first from the four face-down wind tiles, then the others in turn; the wind
    drawn is the seat taken. Returns ``seating[seat] = player`` and what happened."""
    thrower = rng.randrange(4)
    dice = roll_dice(rng)
    first = count_seat(thrower, sum(dice))
    winds = [0, 1, 2, 3]
    rng.shuffle(winds)
    seating = [0] * 4
    for i in range(4):
        player = (first + i) % 4          # temporary seat == player id
        seating[winds[i]] = player
    return seating, {"thrower": thrower, "dice": list(dice)}


def reseat(rng: random.Random, seating: list[int], thrower: int) -> tuple[list[int], ReseatInfo]:
    """搬風 before a 將 after the first (rules/000-001): 次將起每將於原座位搬風，由前一將
    末盤胡牌者擲骰，依同法更換座位，四人新座位之相互順序不得與前一將完全相同，否則重搬.

    From their present seats: ``thrower`` throws three dice, the counted seat draws the
    first of the four face-down wind tiles and the others follow in turn; each player
    takes the seat of the wind drawn. A draw that leaves the players in the same order
    around the table (the same seating, or that seating turned) is done again.
    Returns the new ``seating[seat] = player`` and every draw made (the last one kept).

        >>> new, info = reseat(random.Random(1), [0, 1, 2, 3], thrower=2)
        >>> sorted(new), len(info["draws"][-1]["winds"])
        ([0, 1, 2, 3], 4)
    """
    same_order = [seating[r:] + seating[:r] for r in range(4)]
    draws: list[ReseatDraw] = []
    while True:
        dice = roll_dice(rng)
        first = count_seat(thrower, sum(dice))
        winds = [0, 1, 2, 3]
        rng.shuffle(winds)
        new = [0] * 4
        for i in range(4):
            new[winds[i]] = seating[(first + i) % 4]
        draws.append({"dice": list(dice), "first": first, "winds": ["ESWN"[w] for w in winds]})
        if new not in same_order:
            return new, {"thrower": thrower, "draws": draws}


def choose_first_dealer(rng: random.Random) -> tuple[int, list[int]]:
    """定莊: the East seat throws three dice; the counted seat is the first dealer (起莊)."""
    dice = roll_dice(rng)
    return count_seat(0, sum(dice)), list(dice)


class Wall:
    """The tiles in draw order, with the live end and the replacement end.

    ``order`` holds physical ids as they will be taken from the live end; the
    replacement end takes ``order[-2]`` (top of the last stack), then ``order[-1]``,
    then the stack before it.
    """

    __slots__ = ("back_taken", "break_seat", "break_stack", "dice", "front", "kinds", "left", "order")

    def __init__(self, order: list[int], dice: Iterable[int] = (), break_seat: int = 0,
                 break_stack: int = 0):
        self.order = order
        self.kinds = list(map(_KIND_OF.__getitem__, order))
        self.front = 0
        self.back_taken = 0
        self.left = 144                      # tiles still standing, for the hot path
        self.dice = tuple(dice)
        self.break_seat = break_seat
        self.break_stack = break_stack

    @classmethod
    def build(cls, rng: random.Random, breaker: int) -> Wall:
        """Shuffle, stand the four walls, and open by the ``breaker`` seat's dice (開門).

        Wall ``s`` stands in front of seat ``s``; the counted seat's wall opens after
        the stack the dice total names, counted from its right end. Drawing goes
        clockwise — on to the wall of the seat before it (s-1)."""
        tiles = list(range(144))
        shuffle(rng, tiles)
        dice = roll_dice(rng)
        total = sum(dice)
        side = count_seat(breaker, total)
        # side s stands tiles[36s:36s+36], its 18 stacks of two (top, bottom) in turn;
        # clockwise from the counted wall: its stacks, then walls side-1, side-2, side-3
        side_tiles = 2 * STACKS_PER_SIDE
        circle: list[int] = []
        for step in range(4):
            w = (side - step) % 4
            circle += tiles[w * side_tiles:(w + 1) * side_tiles]
        n = total                      # open after the total-th stack from the right (3..18)
        return cls(circle[2 * n:] + circle[:2 * n], dice, side, n)

    @classmethod
    def stacked(cls, front: Sequence[int | None], back: Sequence[int] = ()) -> Wall:
        """A wall whose live end yields the kinds ``front`` and whose replacement end
        yields ``back``, the rest in kind order (tests set up positions this way)."""
        pool: dict[int, list[int]] = {}
        for t in range(144):
            pool.setdefault(physical_kind(t), []).append(t)
        order: list[int | None] = [None] * 144
        for i, k in enumerate(front):
            if k is not None:            # None: any tile
                order[i] = pool[k].pop()
        for n, k in enumerate(back):
            i = cls._back_index(n)
            if order[i] is not None:
                raise ValueError("front and back of the stacked wall overlap")
            order[i] = pool[k].pop()
        # the rest in kind order, unused flowers at the far end (the dead wall), where
        # only replacements not set by the test would meet them
        flowers = [t for k in sorted(pool) if k >= 34 for t in pool[k]]
        rest = [t for k in sorted(pool) if k < 34 for t in pool[k]]
        free = [i for i in range(144) if order[i] is None]
        for i in reversed(free[-len(flowers):] if flowers else []):
            order[i] = flowers.pop(0)
        for i in range(144):
            if order[i] is None:
                order[i] = rest.pop(0)
        return cls(cast(list[int], order))      # every slot is filled by now

    @staticmethod
    def _back_index(n: int) -> int:
        return 144 - 2 * (n // 2 + 1) + (n % 2)

    @property
    def remaining(self) -> int:
        return 144 - self.front - self.back_taken

    def drawable(self, dead: int) -> int:
        return self.remaining - dead

    def deal_front(self, n: int) -> list[int]:
        """The next ``n`` kinds from the live end at once (配牌), as ``n`` draw_front()."""
        out = self.kinds[self.front:self.front + n]
        self.front += n
        self.left -= n
        return out

    def draw_front(self) -> int:
        k = self.kinds[self.front]
        self.front += 1
        self.left -= 1
        return k

    def draw_back(self) -> int:
        k = self.kinds[self._back_index(self.back_taken)]
        self.back_taken += 1
        self.left -= 1
        return k

    def remaining_kinds(self) -> list[int]:
        taken_back = {self._back_index(i) for i in range(self.back_taken)}
        return [self.kinds[i] for i in range(self.front, 144) if i not in taken_back]

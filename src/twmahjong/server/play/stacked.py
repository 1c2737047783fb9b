"""Stacked walls, for tests only (疊牌): a room whose first hand is dealt from tiles the
test chose, against bots that play by rote, so a browser test can walk a player to
胡 on a discard, 自摸, 聽, a choice among several 吃, 槓 and 搶槓 and look at what
the player sees. A server refuses them unless it runs in ``test_mode``: a stacked
wall is no wall the match seed made, so such a game cannot be verified.

A stack names each seat's dealt tiles (``hands``, seat 0 first; the dealer's has
17), the live end's draws after the deal (``draws``, in turn order) and the
replacement end's tiles (``back``, for flowers and kongs); every other tile comes
in kind order. Only the match's first hand is stacked.

    >>> hands = ["11122233344455566m", "1112223334445556p", "1112223334445556s",
    ...          "777888999m1234567z"]
    >>> len(deal_order(hands, dealer=0, draws="9s"))
    66
"""

from __future__ import annotations

from typing import Any

from ...engine.wall import Wall
from ...errors import UserError
from ...tiles import parse_tiles

__all__ = ["STACKED_BOT", "RoteBot", "StackError", "check", "deal_order", "register_bot", "wall"]

STACKED_BOT = "rote"     # the bots a stacked room seats (registered in test mode only)


class StackError(UserError):
    """A stacked wall that cannot be dealt."""


def deal_order(hands: list[str], dealer: int, draws: str = "") -> list[int]:
    """The live end of a wall that deals ``hands`` (by seat) then yields ``draws``:
    four rounds of four tiles from the dealer on, then the dealer's 17th."""
    hs = [parse_tiles(h) for h in hands]
    for s, h in enumerate(hs):
        want = 17 if s == dealer else 16
        if len(h) != want:
            raise StackError(f"seat {s} needs {want} tiles in a stacked deal, not {len(h)}")
    order: list[int] = []
    for r in range(4):
        for i in range(4):
            order.extend(hs[(dealer + i) % 4][4 * r:4 * r + 4])
    order.append(hs[dealer][16])
    order.extend(parse_tiles(draws))
    return order


def check(spec: dict) -> dict:
    """The stack, checked (StackError says what is wrong): it must be dealable."""
    if len(spec.get("hands") or []) != 4:
        raise StackError("a stacked deal names four hands, seat 0 first")
    wall(spec)
    return spec


def wall(spec: dict) -> Wall:
    try:
        front = deal_order(spec["hands"], int(spec.get("dealer", 0)), spec.get("draws", ""))
        return Wall.stacked(front, parse_tiles(spec.get("back", "")))
    except StackError:
        raise
    except Exception as e:      # a tile named too often, a bad tile text
        raise StackError(f"this stacked wall cannot be dealt: {e}") from None


class RoteBot:
    """Plays by rote so a stacked hand goes where the test says: takes a 加槓 or
    暗槓 and a 碰, never 吃 or a win, throws the tile it drew, draws 海底."""

    def act(self, obs: dict) -> dict:
        legal: list[dict] = obs.get("legal") or []
        for kind in ("added_kong", "concealed_kong", "pon", "draw"):
            for a in legal:
                if a["type"] == kind:
                    return a
        discards = [a for a in legal if a["type"] == "discard"]
        if discards:
            drawn = obs.get("drawn")
            return next((a for a in discards if a.get("tile") == drawn), discards[-1])
        for a in legal:
            if a["type"] == "pass":
                return a
        return legal[0]


def register_bot() -> None:
    """Make the rote bot known (``bots.register``); only a test-mode server does."""
    from ...bots import register

    def make(seed: Any = None) -> RoteBot:
        return RoteBot()
    register(STACKED_BOT, make)

"""The seam between the table actor and the engine (one 將 of play).

The actor knows only this interface; ``EngineGame`` maps it onto
``twmahjong.engine`` (``Match``/``HandState``). Actions cross it as the JSON the
engine's ``Action.to_json()`` writes, so the record the actor persists is exactly
what a replay feeds back in.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

__all__ = ["TableGame", "commitment", "safe_default"]


class TableGame(Protocol):
    hand_no: int                                   # hands started so far

    def start_hand(self) -> int: ...               # deals; returns the hand's wall seed
    def in_hand(self) -> bool: ...                 # a hand is dealt and not yet over
    def pending(self) -> dict[int, list[dict]]: ...
    def act(self, seat: int, action: dict) -> None: ...   # UserError if illegal
    def observation(self, seat: int) -> dict: ...
    def hand_over(self) -> bool: ...
    def event_count(self) -> int: ...
    def events_for(self, seat: int, start: int) -> list[dict]: ...  # redacted for seat
    def finish_hand(self) -> dict: ...             # {"result", "net", "fee"}; next deal
    def match_over(self) -> bool: ...
    def scores(self) -> list[int]: ...


def commitment(seed: int) -> str:
    """The hash published at the deal (公開承諾): sha256 of the seed's decimal text.

    The seed is 128 bits from the OS CSPRNG, so the hash cannot be inverted while
    the hand is played; revealed afterwards, anyone can check the hash and rebuild
    the wall with ``engine.Wall(seed)`` to see the deal was fixed before play."""
    return hashlib.sha256(f"twmj-wall-v1:{seed}".encode()).hexdigest()


def safe_default(legal: list[dict], drawn: str | None = None) -> dict:
    """What a silent seat plays on timeout: pass a claim, else throw the drawn
    tile (else the last discard offered); never a win or a meld it did not ask for."""
    for a in legal:
        if a["type"] == "pass":
            return a
    discards = [a for a in legal if a["type"] == "discard"]
    for a in discards:
        if drawn is not None and a.get("tile") == drawn:
            return a
    if discards:
        return discards[-1]
    return legal[0]

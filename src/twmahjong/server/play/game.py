"""The seam between the table actor and the engine (one 將 of play).

The actor knows only this interface; ``EngineGame`` maps it onto
``twmahjong.engine`` (``Match``/``HandState``). Actions cross it as the JSON the
engine's ``Action.to_json()`` writes, so the record the actor persists is exactly
what a replay feeds back in.
"""

from __future__ import annotations

import hashlib
from typing import Protocol

__all__ = ["PASS_ONLY", "TableGame", "commitment", "match_commitment", "safe_default"]

# the legal list of a seat that can only pass in a secret window: passed for, not asked
PASS_ONLY = [{"type": "pass"}]


class TableGame(Protocol):
    hand_no: int                                   # hands started so far

    @property
    def lilgu(self) -> bool: ...                   # 嚦咕嚦咕 wins (clients' 聽牌提示)

    def start_hand(self) -> int: ...               # deals; returns the hand's wall seed
    def in_hand(self) -> bool: ...                 # a hand is dealt and not yet over
    def pending(self) -> dict[int, list[dict]]: ...
    def act(self, seat: int, action: dict) -> None: ...   # UserError if illegal
    def check(self, seat: int, action: dict) -> dict: ... # the offered form, or UserError
    def observation(self, seat: int) -> dict: ...
    def in_window(self) -> bool: ...               # a claim/搶槓/天聽 window is open
    def hand_over(self) -> bool: ...
    def event_count(self) -> int: ...
    def events_for(self, seat: int, start: int) -> list[dict]: ...  # redacted for seat
    def finish_hand(self) -> dict: ...             # {"result", "net", "fee"}; next deal
    def match_over(self) -> bool: ...
    def scores(self) -> list[int]: ...


def commitment(seed: int) -> str:
    """The hash published at the deal (公開承諾): sha256 of the hand seed's decimal text.

    A hand seed is 128 bits of SHA-256 over the match seed (``engine.wall.hand_seed``),
    so the hash cannot be inverted while the hand is played; revealed afterwards,
    anyone can check the hash and rebuild the wall to see the deal was fixed
    before play."""
    return hashlib.sha256(f"twmj-wall-v1:{seed}".encode()).hexdigest()


def match_commitment(seed: int) -> str:
    """The hash published when the table is made, before any deal: sha256 of the
    match seed (128 bits from ``secrets``). The match seed, revealed when the game
    ends, must hash to it and must derive every hand seed that was revealed, so
    the server cannot have chosen any wall after seeing how the game went
    (``twmj verify`` checks a finished game's record)."""
    return hashlib.sha256(f"twmj-match-v1:{seed}".encode()).hexdigest()


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

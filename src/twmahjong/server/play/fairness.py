"""Checking a finished game's fairness from its record alone (公平性驗證).

A player needs nothing from the server but the game's record
(``GET /api/v1/games/{id}``) to check three promises:

1. the match seed revealed at the end hashes to the commitment shown at the table
   before the first deal — so the seed was fixed before anyone played;
2. every hand's wall seed is derived from that match seed (``engine.wall.hand_seed``)
   and hashes to the commitment published at that hand's deal — so no wall was
   chosen after the fact;
3. the stored moves replay through the rules to the coins each hand moved.

    >>> verify({"game_id": "g", "seed": "1", "commitment": "0" * 64, "hands": []})
    Traceback (most recent call last):
    ...
    twmahjong.server.play.fairness.FairnessError: the match seed does not hash to the commitment shown at the table
"""

from __future__ import annotations

from typing import Any

from ...engine.wall import hand_seed
from ...errors import UserError
from .game import commitment, match_commitment

__all__ = ["FairnessError", "verify"]


class FairnessError(UserError):
    """The record breaks a fairness promise (or cannot be read); says which."""


def _field(doc: dict, key: str) -> Any:
    if key not in doc:
        raise FairnessError(f"the record has no {key!r}: save it from /api/v1/games/<id>")
    return doc[key]


def verify(doc: dict) -> dict:
    """Check the three promises; a summary, or ``FairnessError`` naming the first break."""
    if not isinstance(doc, dict):
        raise FairnessError("the record must be a JSON object")
    try:
        seed = int(_field(doc, "seed"))
    except (TypeError, ValueError):
        raise FairnessError("the record's seed is not a number") from None
    if match_commitment(seed) != _field(doc, "commitment"):
        raise FairnessError("the match seed does not hash to the commitment shown at the table")
    hands = _field(doc, "hands")
    if not isinstance(hands, list):
        raise FairnessError("the record's hands must be a list")
    for i, h in enumerate(hands):
        want = hand_seed(seed, i)
        if str(h.get("seed")) != str(want):
            raise FairnessError(f"hand {i + 1}: its wall seed is not the one the match seed gives")
        if h.get("commitment") != commitment(want):
            raise FairnessError(f"hand {i + 1}: its wall seed does not hash to the commitment "
                                "published at its deal")
    _replay(doc, hands)
    return {"game_id": doc.get("game_id"), "hands": len(hands), "walls": len(hands),
            "scores": (doc.get("result") or {}).get("scores")}


def _replay(doc: dict, hands: list[dict]) -> None:
    """Feed every stored move back through the rules: each must be legal, and each
    finished hand must move the coins the record says."""
    from .engine_game import EngineGame
    meta = {"profile": _field(doc, "profile"), "stake": _field(doc, "stake"),
            "rounds": _field(doc, "rounds"),
            "options": {"seed": int(doc["seed"]), "carried": doc.get("carried")}}
    try:
        game = EngineGame(meta)
    except (KeyError, ValueError, TypeError, UserError) as e:
        raise FairnessError(f"the record's table cannot be set up: {e}") from None
    for i, h in enumerate(hands):
        game.start_hand()
        for j, a in enumerate(h.get("actions") or []):
            try:
                game.act(int(a["seat"]), a["action"])
            except (UserError, KeyError, TypeError, ValueError) as e:
                raise FairnessError(f"hand {i + 1}, move {j + 1}: does not replay: {e}") from None
        if "net" in h:
            if not game.hand_over():
                raise FairnessError(f"hand {i + 1}: its moves end before the hand does")
            net = game.finish_hand()["net"]
            if list(net) != list(h["net"]):
                raise FairnessError(f"hand {i + 1}: the moves give {net}, the record says "
                                    f"{h['net']}")

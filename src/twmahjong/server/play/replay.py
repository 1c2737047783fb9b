"""Replay frames (牌譜重播) for the browser's replay viewer.

A finished game is stored as its match seed and every decision in order, so the
server replays them through the engine and, for one hand and one seat, keeps the
seat's observation after the deal and after each decision, with the events that
decision produced as that seat saw them. The last frame carries the hand's
``hand_end`` result (every hand revealed, the 台, who paid whom).

Only finished games are replayed (the seeds are secret while a game runs), and
then from any seat: at the end of a hand every hand is turned up anyway, and the
record endpoint already gives out the whole game.
"""

from __future__ import annotations

from ...errors import UserError

__all__ = ["NoSuchHand", "replay_hand"]


class NoSuchHand(UserError):
    """The game has fewer hands than asked for."""


def replay_hand(game, rows: list[dict], hand_no: int, seat: int) -> dict:
    """``{"hand_no", "frames": [{"observation", "events"[, "result"]}, …]}``.

    ``game`` is a fresh ``EngineGame`` of the stored game; ``rows`` its stored
    ``game_actions`` in order."""
    frames: list[dict] = []
    seen = 0

    def frame() -> dict:
        nonlocal seen
        events = game.events_for(seat, seen)
        seen = game.event_count()
        f = {"observation": game.observation(seat), "events": events}
        frames.append(f)
        return f

    for r in rows:
        mine = r["hand_no"] == hand_no
        if r["kind"] == "hand":
            seen = game.event_count()
            game.start_hand()
            if mine:
                frame()
        elif r["kind"] == "action":
            game.act(r["seat"], r["data"]["action"])
            if mine:
                frame()
        elif r["kind"] == "settled":
            outcome = game.finish_hand()
            if mine:
                frames[-1]["result"] = outcome["result"]
                break
    if not frames or "result" not in frames[-1]:
        raise NoSuchHand(f"this game has no finished hand {hand_no}")
    return {"hand_no": hand_no, "frames": frames}

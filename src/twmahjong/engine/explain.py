"""Why an action is not allowed — the message a player reads (IllegalAction).

Only called when an action is rejected, so it may take its time to find the rule
that applies and say it in the table's words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..tiles import tile_str
from .actions import Action

if TYPE_CHECKING:
    from .state import TableState

__all__ = ["why_illegal"]

_BARE = ("pass", "flower_win", "draw")


def _passed_win(h: TableState) -> str:
    """過水 as the profile lifts it (``play.passed_win``)."""
    if h.rules.passed_win == "until_own_discard":
        return "you passed a win (過水); you cannot win until your next discard."
    return ("you passed a win (過水); you cannot win until you discard (or add a kong of) "
            "a tile that is not one of your winning tiles.")


def why_illegal(h: TableState, seat: int, a: Action) -> str:
    st = h.seats[seat]
    what = a.describe()
    legal = h.pending().get(seat, [])
    tail = " You may: " + ", ".join(x.describe() for x in legal) + "." if legal else ""
    named = ((a.tile,) if a.tile is not None else ()) + a.tiles
    if any(k >= 34 for k in named):
        # 花牌 are shown and replaced at once (補花): never held, thrown, claimed or melded
        return (f"{what}: flowers (花牌) are replaced as soon as they are drawn; they are "
                f"never discarded, claimed or melded." + tail)
    if a.type in _BARE and named:
        return f"{what}: {a.type} names no tile." + tail
    if a.type == "chi" and len(a.tiles) != 2:
        return f"{what}: 吃 names the tile taken and the two tiles from hand, like chi 3m 45m." + tail
    if h.phase == "last_tile":
        return (f"{what}: the next tile is the last one that may be drawn (海底); draw it "
                f"(摸) or decline it (過), which ends the hand drawn (荒局)." + tail)
    if a.type == "draw":
        return f"{what}: you may only choose to draw when the last tile (海底) is next." + tail
    if a.type == "pass" and h.phase == "turn":
        return f"{what}: it is your turn; you must discard (打牌) or declare something." + tail
    if (a.tile is not None and a.type in ("discard", "declare", "concealed_kong", "added_kong")
            and st.counts[a.tile] == 0):
        return f"{what}: you do not hold {tile_str(a.tile)}." + tail
    if h.phase == "turn":
        if st.declared is not None and h.rules.declared_hand == "locked" and a.type in (
                "discard", "declare", "concealed_kong", "added_kong"):
            return (f"{what}: you declared ready (聽牌); the hand is locked and you discard the tile "
                    f"you drew." + tail)
        if a.type == "discard" and a.tile in h.forbidden:
            return (f"{what}: after 吃 or 碰 you may not discard the same tile or the other end "
                    f"of the run (行牌禁制 6)." + tail)
        if a.type in ("concealed_kong", "added_kong") and h.no_kong:
            return f"{what}: no kong right after 吃 or 碰 (行牌禁制 1)." + tail
        if a.type == "concealed_kong" and h.no_concealed_kong:
            return f"{what}: no 暗槓 right after a 碰槓 replacement (行牌禁制 3)." + tail
        if a.type == "declare" and st.declared is not None:
            return f"{what}: you have already declared ready (聽牌)." + tail
        if a.type in ("concealed_kong", "added_kong") and h.drawable() < 1:
            return f"{what}: no tile is left to replace a kong." + tail
        if a.type == "win":
            if h.turn_src == "claim":
                return f"{what}: a self-drawn win must start with a draw (行牌禁制 4)." + tail
            if h.no_self_win:
                return (f"{what}: no self-drawn win on this replacement (行牌禁制 2/5: after 碰槓, "
                        f"or a kong while a winning tile was passed)." + tail)
            if st.passed_win:
                return f"{what}: {_passed_win(h)}" + tail
            if st.cannot_win:
                return f"{what}: you discarded the tile you claimed; this hand cannot win." + tail
            return f"{what}: your hand is not complete." + tail
        if a.type in ("chi", "pon", "kong", "pass"):
            return f"{what}: nobody discarded; it is your turn to play." + tail
    if h.phase in ("claim", "rob_kong") and h.claim_ctx is not None:
        d, k = h.claim_ctx[0], h.claim_ctx[1]
        if a.type == "win" and st.passed_win:
            return f"{what}: {_passed_win(h)}" + tail
        if a.type == "win" and k in st.passed_win_kinds:
            return f"{what}: you passed this tile (漏胡) and cannot win on it before your next draw." + tail
        if a.type in ("chi", "pon", "kong") and h.drawable() < h.rules.no_claims_last:
            return (f"{what}: no 吃, 碰 or 碰槓 among the last three drawable tiles "
                    f"(行牌禁制 7)." + tail)
        if a.type == "pon" and k in st.passed_pon:
            return f"{what}: you passed a 碰 on this tile this round (漏碰)." + tail
        if a.type == "chi" and seat != (d + 1) % 4:
            return f"{what}: only the next player (下家) may 吃." + tail
        if a.type == "kong" and h.rules.no_kong_on_upper_discard and seat == (d + 1) % 4:
            return f"{what}: no 碰槓 on the upper player's discard (防夥牌)." + tail
        if a.type == "chi" and st.last_discard is not None:
            return (f"{what}: not allowed — within one go-around you may not 吃 the tile you "
                    f"discarded or the other end of it, and a 吃 must leave a tile you may discard "
                    f"(行牌禁制 6)." + tail)
        if a.tile is not None and a.tile != k:
            return f"{what}: the tile on offer is {tile_str(k)}." + tail
    if h.phase in ("discard", "turn") and a.type == "flower_win":
        return f"{what}: a flower win needs all eight flowers (八仙過海) or seven and the eighth to rob." + tail
    return f"{what} is not allowed now." + tail

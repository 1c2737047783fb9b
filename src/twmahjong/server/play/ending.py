"""How a table ends before its last hand (牌局提前結束): 認輸 and abandonment.

A player may give the table up (``forfeit``, ``POST /api/v1/games/{id}/forfeit``).
With other people still seated, the seat's bot plays it to the end: the seat is
stored as the bot's, the account keeps it for the books (its coins move as the
hands are played, as under 托管) but holds it no more — no ticket sits it down and
the table cap skips it. When the last person gives up, or a paused table waits
``abandon_after`` seconds with nobody back, the game ends now (``_end_early``): the
hands already settled stand, the hand in play is void (no coins move for it), the
game is stored as finished with ``result.ended`` (``forfeited`` / ``abandoned``) and
``result.forfeited`` (the seats that gave up, ranked last), and everyone still here
hears ``game_end``. When a pause began is stored (``options.paused_at``), so a restart
resumes a paused table paused, or ends it if its time is up.

``Ending`` is a part of ``Table`` (table.py), as ``Seating`` is: its methods run in
the table's actor.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from ..net import protocol as P
from .seats import FORFEITED, SeatState

__all__ = ["Ending", "ranks_of"]

log = logging.getLogger("twmahjong.server.play.table")     # the table's own log


class Ending:
    """Forfeit and abandonment, mixed into ``Table`` (see the module docstring)."""

    id: str
    seats: list[SeatState]
    game: Any
    sv: Any
    social: Any
    inbox: asyncio.Queue
    hand_open: bool
    finished: bool
    ready_wait: set[int]
    task: asyncio.Task | None
    owner_epoch: int | None
    ended_by: dict | None
    paused_at: float | None
    conn_epoch: int
    # and the table's _broadcast, _sync_pending and _arm_pause (seats.py, table.py)

    async def forfeit(self, seat: int, account_id: int) -> str:
        """認輸: the account at ``seat`` gives the table up. ``"ended"`` when nobody
        else is a person here (the game ends now, as ``_end_early`` says); ``"bot_plays"``
        when other people play on (the seat's bot plays it to the end); ``"no_game"`` or
        ``"game_over"`` when there is nothing to give up."""
        if self.finished:
            return "game_over"
        if self.task is None or self.task.done():
            return "game_over"
        answer: asyncio.Future = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(("forfeit", seat, account_id, answer))
        return str(await answer)

    # -- ending early: 認輸 and abandoned tables ----------------------------------------------
    async def _forfeit(self, seat: int, account_id: int, answer: asyncio.Future) -> None:
        s = self.seats[seat]
        if s.account_id != account_id:
            outcome = "no_game"
        elif s.forfeited:
            outcome = "bot_plays"
        elif not any(o.account_id is not None and not o.forfeited
                     for i, o in enumerate(self.seats) if i != seat):
            s.forfeited = True           # nobody is left to play on with: the game ends,
            raise _Ended("forfeited", answer)   # and the seat's connections hear game_end
        else:
            await self._give_to_bot(seat)
            outcome = "bot_plays"
        if not answer.done():
            answer.set_result(outcome)

    async def _give_to_bot(self, seat: int) -> None:
        """The seat is the bot's for good: stored so (a restart keeps it), its
        connections told and let go, everyone shown a bot there. The account stays on
        the seat for the books (its coins move with the hands as played, as under
        托管) but holds it no more: no ticket sits it down, the table cap skips it."""
        s = self.seats[seat]
        s.stop_clock(self.sv.clock())
        s.forfeited = True
        s.bot = self.sv.settings.autoplay_bot
        s.auto = False
        s.bot_scheduled = None
        await self.sv.repo.forfeit_seat(self.id, seat, s.bot, epoch=self.owner_epoch)
        told = P.out(P.Error(code="forfeited", message=FORFEITED))
        for c in s.conns:
            c.push(told)
            # the connection sits nowhere now: its moves are not this seat's, and friends
            # see the player in the lobby, not at a table they gave up
            # (a relay of another worker's connection has no account here: that worker
            # keeps its place until the connection leaves or sits elsewhere)
            if getattr(c, "account", None) is not None:
                c.table, c.seat = None, None
                c.server.where.update(c.account["id"])
        s.conns.clear()
        self.ready_wait.discard(seat)
        self._broadcast(P.message("presence", seat=seat, connected=True, auto=False,
                                  bot=True, forfeited=True))
        if self.hand_open:
            self._sync_pending()
        self._arm_pause()

    async def _paused_now(self, since: float | None = None) -> None:
        """Paused with nobody connected: stored since when, and the table ends
        (``abandoned``) if nobody is back ``abandon_after`` seconds from then."""
        self.paused_at = time.time() if since is None else since
        await self.sv.repo.mark_paused(self.id, self.paused_at)
        left = max(0.0, self.paused_at + self.sv.settings.abandon_after - time.time())
        asyncio.get_running_loop().call_later(left, self.inbox.put_nowait,
                                              ("abandon", self.conn_epoch))

    async def _playing_again(self) -> None:
        self.paused_at = None
        await self.sv.repo.mark_paused(self.id, None)

    async def _end_early(self, why: str, answer: asyncio.Future | None = None) -> None:
        """The game ends now by the players' leaving (``forfeited``: the last person
        gave it up; ``abandoned``: nobody came back in time). The hands already
        settled stand; the hand in play is void (no coins move for it); the game is
        stored as finished, its result saying why (``ended``) and who gave up
        (``forfeited``, seats), who rank last. Everyone still here is told."""
        scores = list(self.game.scores())
        gone = [i for i, s in enumerate(self.seats) if s.forfeited]
        ranks = ranks_of(scores, last=gone)
        self.ended_by = {"ended": why, "forfeited": gone}
        extra = await self.sv.on_finished(self, scores, ranks)
        self.finished = True
        if self.sv.metrics is not None:
            self.sv.metrics.tables_ended.labels(why).inc()
        log.info("table %s ended early (%s)", self.id, why)
        end = P.out(P.GameEnd(game_id=self.id, scores=scores, ranks=ranks,
                              rating=extra.get("rating"), challenge=extra.get("challenge"),
                              ended=why, coins=await self._game_coins(scores)))
        self._broadcast(end)
        self.social.desk.ended(end)
        if answer is not None and not answer.done():
            answer.set_result("ended")


class _Ended(BaseException):
    """Unwinds the actor when the game ends early (``Table._end_early``)."""

    def __init__(self, why: str, answer: asyncio.Future | None = None):
        super().__init__(why)
        self.why, self.answer = why, answer


def ranks_of(scores: list[int], last: list[int] | tuple[int, ...] = ()) -> list[int]:
    """Places 1-4 by score; a tie goes to the lower seat (the order the table ranks by).
    Seats in ``last`` (given up: 認輸) come after every other, by score among them.

        >>> ranks_of([100, -50, 0, -50], last=[0])
        [4, 2, 1, 3]
    """
    order = sorted(range(4), key=lambda i: (i in last, -scores[i], i))
    return [order.index(i) + 1 for i in range(4)]

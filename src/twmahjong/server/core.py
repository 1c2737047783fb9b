"""The server object: settings, storage, seams, and the tables it owns.

One ``Server`` per process. It creates tables (quick match, rooms, challenge),
resumes the unfinished ones at start-up (可隨時繼續未完成的牌局), and books each
finished game: record, ratings (積分賽) and challenge progress (挑戰賽).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from ..engine.wall import new_seed
from ..errors import UserError
from .cluster.seams import LocalBus, LocalDirectory, LocalPresence
from .net.limits import Limiter, Limits
from .people.auth import Accounts, Sessions, Tokens
from .people.ranking import elo_update
from .play import challenge
from .play.game import TableGame
from .play.lobby import LocalMatchQueue, Player, QueueKey, RoomBook, Rooms
from .play.table import SeatState, Table, TableServices
from .play.timers import TurnClock
from .settings import STAKE_LEVELS, TABLE_SPEEDS, Settings
from .store.db import create_engine, migrate
from .store.repository import SqlRepository, patiently

__all__ = ["BOT_RATING", "Server"]

log = logging.getLogger("twmahjong.server")

BOT_RATING = 1500.0


def _default_game_factory(meta: dict) -> TableGame:
    from .play.engine_game import EngineGame
    return EngineGame(meta)


def _default_make_bot(name: str, seed: int) -> Any:
    """``bots.make_bot``; a name this build's bots do not know plays as "random"."""
    from ..bots import bot_names, make_bot
    return make_bot(name if name in bot_names() else "random", seed)


class Server:
    def __init__(self, settings: Settings, *, game_factory=None, make_bot=None):
        self.settings = settings
        self.engine = create_engine(settings.effective_database_url)
        self.repo = SqlRepository(self.engine)
        self.tokens = Tokens(settings.resolved_secret(), session_ttl=settings.session_ttl,
                             ticket_ttl=settings.ticket_ttl)
        self.sessions = Sessions(self.tokens, self.repo)
        self.accounts = Accounts(self.repo, starting_coins=settings.starting_coins,
                                 hash_slots=settings.hash_slots, hash_queue=settings.hash_queue)
        self.rooms: RoomBook = Rooms(settings.room_idle_ttl)
        self.limits = Limits(settings)
        self.cluster = None
        if settings.redis_url:           # several processes, one game world (cluster/ownership.py)
            from .cluster.ownership import Cluster
            self.cluster = Cluster(self, settings)
            self.presence = self.cluster.presence
            self.tables = self.cluster.directory
            self.bus = self.cluster.bus
            self.queue = self.cluster.queue
            self.rooms = self.cluster.rooms
        else:
            self.presence = LocalPresence()
            self.tables = LocalDirectory()
            self.bus = LocalBus()
            self.queue = LocalMatchQueue(settings.bot_fill_wait, self._start_from_queue)
        # the social layer (server/social/): friends and where they
        # are, invitations, notices to an account on any worker, the talk limit
        from .social.friends import FriendStore, Invitations, Notices, Whereabouts
        from .social.talk import TalkGate
        link = self.cluster.link if self.cluster is not None else None
        self.friends = FriendStore(self.engine, self.repo)
        from .net.limits import Limiter
        from .store.clips import ClipStore
        self.clips = ClipStore(self.engine)              # 真人語音: players' recorded calls
        # clips kept or reported per account: 30 at once, then one every 2 s
        self.clip_limit = Limiter(0.5, 30, max_keys=settings.limiter_keys)
        self.where = Whereabouts(self, link)
        self.invites = Invitations(settings.invite_ttl, link, max_invites=settings.max_invites,
                                   per_account=settings.invites_per_account)
        self.notices = Notices(self, link)
        self.talk_gate = TalkGate(settings.talk_rate, settings.talk_burst,
                                  settings.limiter_keys, link)
        from .social.voice import VoiceGate
        self.voice_gate = VoiceGate(settings.voice_rate, settings.voice_burst,
                                    settings.limiter_keys)
        if settings.test_mode:           # stacked walls' rote bots (server/play/stacked.py)
            from .play.stacked import register_bot
            register_bot()
        self.game_factory = game_factory or _default_game_factory
        self.make_bot = make_bot or _default_make_bot
        self.connections = 0
        self.conns: set = set()          # open connections here (/metrics reads their queues)
        self.aborted_tables = 0          # since start: /health shows it
        self._room_tasks: set[asyncio.Task] = set()
        from .net.voices import scan
        self.voices, problems = scan(settings.voice_dir)   # recorded calls, checked once
        for line in problems:
            log.error("voice pack: %s", line)
        self.started = False             # /readyz: migrated and tables resumed
        from ..analysis import DEFAULT_BOT
        from .play.analysis import Analyses
        from .play.replay import Replays
        self.analyses = Analyses(   # 牌譜分析
            bot=DEFAULT_BOT, worlds=settings.analysis_worlds,
            per_player=settings.analysis_per_account,
            limiter=Limiter(settings.analysis_rate, settings.analysis_burst,
                            max_keys=settings.limiter_keys))
        self.replays = Replays()      # 牌譜重播 and records, made beside the loop and kept
        from .metrics import Metrics
        self.metrics = Metrics(self)
        self.repo.on_commit = self.metrics.committed

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        await migrate(self.engine)
        await self.repo.house_id()
        if self.cluster is not None:
            await self.cluster.start()       # adopts the games no live process runs
        else:
            await self.resume_all()
        self.where.start()
        self.started = True

    async def stop(self) -> None:
        for t in self.tables.all():
            await t.stop()
        if self.cluster is not None:
            await self.repo.flush()          # stored before another process adopts them
            await self.cluster.release_all()
        await self.where.stop()
        self.analyses.close()
        self.replays.close()
        await self.repo.close()
        await self.engine.dispose()
        if self.cluster is not None:
            await self.cluster.close()

    async def resume_all(self) -> int:
        """Rebuild every unfinished table from its stored seed + actions."""
        n = 0
        for row in await self.repo.active_games():
            if await self.resume_game(row) is not None:
                n += 1
        return n

    async def resume_game(self, row: dict) -> Table | None:
        """One unfinished game rebuilt from its stored rows and started (None: it cannot be)."""
        # take the game on first: from now on a write of any earlier owner is refused
        # (fencing), so the rows read next are all there will be of the past
        epoch = await self.repo.take_game(row["id"])
        if epoch is None:
            return None
        rows = await self.repo.game_actions(row["id"])
        try:
            table = self._make_table(row["id"], row, row["seats"])
            table.owner_epoch = epoch
            table.replay(rows)
            # paused when stored: it waits again (or ends at once, abandoned, if nobody
            # came back within abandon_after), never played on by bots alone
            table.paused_at = (row.get("options") or {}).get("paused_at")
        except Exception:
            # its stored moves do not replay (a bug, or a row that cannot be read): end
            # it cleanly rather than leave its players at a table that never moves
            log.exception("could not resume game %s; ending it as aborted", row["id"])
            await self.repo.finish_game(row["id"], {"aborted": "its stored moves did not "
                                                    "replay"}, status="aborted")
            return None
        self.tables.add(table)
        table.start()
        return table

    async def forfeit(self, game_id: str, account_id: int) -> str:
        """認輸 (``POST /api/v1/games/{id}/forfeit``): ``"ended"``, ``"bot_plays"``,
        ``"no_game"`` (no seat of this account at an unfinished game) or
        ``"game_over"``. The table decides, in its own actor, wherever it runs."""
        row = await self.repo.game(game_id)
        seat = next((i for i, s in enumerate(row["seats"])
                     if s.get("account_id") == account_id), None) if row else None
        if row is None or seat is None:
            return "no_game"
        if row["status"] != "active":
            return "game_over"
        if row["seats"][seat].get("forfeited"):
            return "bot_plays"
        table = await self.find_table(game_id)
        if table is None:
            row = await self.repo.game(game_id)
            # an active game no process runs this moment (being made, or adopted)
            return "game_over" if row is None or row["status"] != "active" else "busy"
        return str(await table.forfeit(seat, account_id))

    async def find_table(self, game_id: str) -> Any:
        """The table a ticket's game is played at: here, or (cluster) a RemoteTable."""
        if self.cluster is not None:
            return await self.cluster.find(game_id)
        return self.tables.get(game_id)

    # -- tables ------------------------------------------------------------------------------
    def _services(self) -> TableServices:
        return TableServices(repo=self.repo, settings=self.settings, tokens=self.tokens,
                             make_bot=self.make_bot, on_finished=self._finished,
                             game_factory=self.game_factory, on_aborted=self._aborted,
                             on_fenced=self._fenced, metrics=self.metrics)

    def _make_table(self, game_id: str, meta: dict, seats: list[dict]) -> Table:
        st = self.settings
        speed = TABLE_SPEEDS.get((meta.get("options") or {}).get("speed", "standard"), 1.0)
        states = [SeatState(account_id=s.get("account_id"), name=s["name"], bot=s.get("bot"),
                            clock=TurnClock(st.turn_base * speed, st.turn_bank * speed),
                            forfeited=bool(s.get("forfeited")))
                  for s in seats]
        meta = {k: meta[k] for k in ("mode", "profile", "stake", "rounds")} | {
            "options": meta.get("options") or {}}
        return Table(game_id, meta, states, self.game_factory(meta), self._services())

    def check_profile(self, name: str | None) -> str:
        from ..profiles import profile_names
        name = name or self.settings.default_profile
        if name not in profile_names():
            raise UserError(f"unknown profile {name!r}; choose one of "
                            f"{', '.join(profile_names())}")
        return name

    async def create_table(self, *, mode: str, profile: str, stake: str, rounds: int,
                           players: list[Player | None], bots: list[str] | None = None,
                           game_id: str | None = None, options: dict | None = None) -> Table:
        """Seat ``players`` (None = a bot) and start the table's actor."""
        if stake not in STAKE_LEVELS:
            raise UserError(f"unknown stake level {stake!r}")
        game_id = game_id or new_game_id()
        empty = players.count(None)
        named = (bots or [])[:empty]
        bot_names = iter(named + challenge.fill_bots(stake, empty - len(named)))
        seats = []
        for p in players:
            if p is None:
                name = next(bot_names)
                seats.append({"account_id": None, "name": f"bot:{name}", "bot": name})
            else:
                seats.append({"account_id": p[0], "name": p[1], "bot": None})
        carried = []
        for s in seats:
            acc = await self.repo.account(s["account_id"]) if s["account_id"] else None
            carried.append(int(acc["coins"]) if acc else None)
        # the match seed makes every wall of the game: 128 bits from the OS CSPRNG,
        # kept secret (stored server-side, its hash shown at the table) until the end
        options = {**(options or {}), "seed": new_seed(), "carried": carried}
        meta = {"mode": mode, "profile": profile, "stake": stake, "rounds": rounds,
                "options": options}
        if not await self.tables.claim(game_id):
            raise UserError("this game is already being played")
        try:
            await self.repo.create_game({"id": game_id, **meta, "seats": seats})
        except Exception:
            await self.tables.release(game_id)
            raise
        table = self._make_table(game_id, meta, seats)
        table.owner_epoch = 1
        self.tables.add(table)
        table.start()
        self.bus.publish("table_started", {"game_id": game_id})
        return table

    async def _start_from_queue(self, key: QueueKey, players: list[Player | None]) -> str:
        mode, profile, stake = key
        rounds = 1
        table = await self.create_table(mode=mode, profile=profile, stake=stake,
                                        rounds=rounds, players=players)
        return table.id

    async def _finished(self, table: Table, scores: list[int], ranks: list[int]) -> dict:
        """Book a finished game: ratings (ranked), progress (challenge), the record —
        all in one transaction that only a still-active game passes, so a crash
        anywhere, or ending the resumed game again, applies them exactly once."""
        extra: dict[str, Any] = {}
        ratings: dict[int, float] = {}
        tier_won = None
        humans = [(i, s) for i, s in enumerate(table.seats) if s.account_id is not None]
        # ended early (Table._end_early): given up, those who gave up rank last and the
        # rating counts it; abandoned by everyone, no rating moves; no tier is beaten
        ended = getattr(table, "ended_by", None) or {}
        if (table.meta["mode"] == "ranked" and humans
                and ended.get("ended") != "abandoned"):
            before = []
            for s in table.seats:      # patiently: a table's read (Table._balances)
                acc = await patiently(self.repo.account, s.account_id) if s.account_id else None
                before.append(float(acc["rating"]) if acc else BOT_RATING)
            after = elo_update(before, ranks)
            ratings = {s.account_id: after[i] for i, s in humans}
            extra["rating"] = {"before": [round(b, 1) for b in before],
                               "after": [round(a, 1) for a in after]}
        if table.meta["mode"] == "challenge" and humans:
            tier = int(table.meta["options"].get("tier", 1))
            i, s = humans[0]
            beaten = (not ended and   # alone on top of a game played out
                      scores[i] > max(sc for j, sc in enumerate(scores) if j != i))
            if beaten:
                tier_won = (s.account_id, tier)
            extra["challenge"] = {"tier": tier, "beaten": beaten}
        await self.repo.flush()
        await self.repo.finish_game(table.id, {"scores": scores, "ranks": ranks, **extra,
                                               **ended},
                                    ratings=ratings, challenge_tier=tier_won,
                                    epoch=getattr(table, "owner_epoch", None))
        self._closed(table)
        self.bus.publish("game_finished", {"game_id": table.id, "scores": scores})
        return extra

    async def _aborted(self, table: Table, reason: str) -> None:
        """A table that could not go on: stored as aborted; the hand in play is void."""
        await self.repo.flush()
        await self.repo.finish_game(table.id, {"scores": list(table.game.scores()),
                                               "aborted": reason}, status="aborted",
                                    epoch=getattr(table, "owner_epoch", None))
        self.aborted_tables += 1
        self._closed(table)
        self.bus.publish("game_finished", {"game_id": table.id, "aborted": True})

    def _fenced(self, table: Table) -> None:
        """Another process owns the table's game now: its seats follow it there."""
        if self.cluster is not None:
            self.cluster.let_go(table)
        else:                # one process: nobody else can own it; end it here
            self.tables.remove(table.id)

    def _closed(self, table: Table) -> None:
        self.tables.remove(table.id)
        task = asyncio.get_running_loop().create_task(self._close_room(table.id))
        self._room_tasks.add(task)
        task.add_done_callback(self._room_tasks.discard)

    async def _close_room(self, game_id: str) -> None:
        try:
            room = await self.rooms.by_game(game_id)
            if room:
                await self.rooms.close(room.code)
        except Exception:
            log.exception("closing the room of game %s", game_id)


async def rebuild(repo, game_row: dict, game_factory=None):
    """The game's engine state replayed from its stored rows (records, resume)."""
    from .play.engine_game import EngineGame, replay_stored
    meta = {k: game_row[k] for k in ("mode", "profile", "stake", "rounds")}
    meta["options"] = game_row.get("options") or {}
    game = (game_factory or EngineGame)(meta)
    return replay_stored(game, await repo.game_actions(game_row["id"]))


def new_game_id() -> str:
    return "g_" + secrets.token_urlsafe(12)

"""The HTTP API (``/api/v1``): accounts, rooms, records, rankings.

Every user error becomes ``{"error": {"code", "message"}}`` with a fitting status
— never a traceback. Request bodies are pydantic models, so the OpenAPI schema
documents them too (``/openapi.json``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import ipaddress
import logging
import math
from collections.abc import AsyncIterator
from typing import Annotated, Literal

import orjson

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from ...errors import UserError
from ..people.auth import AuthError, Busy, public_account
from ..play import challenge, opponents
from ..play.game import match_commitment
from ..play.lobby import LobbyError
from ..settings import STAKE_LEVELS, TABLE_SPEEDS
from ..store.schema import name_key
from .limits import LimitError, network_of, table_state

log = logging.getLogger(__name__)

# s after a room was marked started with its game still neither running nor stored: the
# process making it died in between (making takes well under a second), so it is made again
MAKE_TIMEOUT = 60.0
PROGRESS_EVERY = 0.5    # s between looks at a review's progress (牌譜分析, progress=1)

__all__ = ["ApiError", "error_response", "router", "table_state"]

router = APIRouter(prefix="/api/v1")


class ApiError(UserError):
    def __init__(self, status: int, code: str, message: str, reason: str | None = None):
        super().__init__(message)
        self.status, self.code, self.reason = status, code, reason


def error_response(e: Exception) -> JSONResponse:
    if isinstance(e, (ApiError, LimitError, Busy)):
        status, code = e.status, e.code
    elif isinstance(e, AuthError):
        status, code = 401, "auth"
    elif isinstance(e, opponents.BadOpponent):
        status, code = 422, "bad_request"
    elif isinstance(e, LobbyError):
        status = {"not_found": 404, "conflict": 409}.get(e.code, 400)
        code = e.code if e.code in ("not_found", "conflict") else "bad_request"
    else:
        status, code = 400, "bad_request"
    body = {"code": code, "message": str(e)}
    if getattr(e, "reason", None):      # which failure, for a client that translates it
        body["reason"] = e.reason
    after = getattr(e, "retry_after", None)
    headers = {"Retry-After": str(max(1, math.ceil(after)))} if after else None
    return JSONResponse({"error": body}, status_code=status, headers=headers)


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=40)
    password: str = Field(max_length=128)


class StackedWall(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hands: list[Annotated[str, Field(max_length=64)]] = Field(min_length=4, max_length=4)
    draws: str = Field("", max_length=400)
    back: str = Field("", max_length=100)
    dealer: int = Field(0, ge=0, le=3)


class RoomRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    profile: str | None = Field(None, max_length=64)
    stake: Literal["low", "mid", "high"] = "low"
    rounds: int = Field(1, ge=1, le=4)
    # who fills the empty chairs: L1-L5, a personality id, or "adaptive" (server.opponents)
    bots: str | None = Field(None, max_length=40)
    # table speed (快 / 標準 / 慢): multiplies the turn clock (settings.TABLE_SPEEDS)
    speed: Literal["fast", "standard", "slow"] = "standard"
    # 觀戰: may friends watch the game? (the host may forbid it)
    watch: bool = True
    # 開黑: may the players talk by voice? (the host may forbid it) May watchers listen?
    voice: bool = True
    voice_watchers: bool = False
    # 真人語音: may the players' own recorded calls be heard? (the host may turn them off)
    voices: bool = True
    # 教練: may the players ask the coach for hints? (off unless the host allows them)
    hints: bool = False
    # test mode only (server/play/stacked.py): deal the first hand from these tiles
    wall: StackedWall | None = None


def server_of(request: Request):
    return request.app.state.server


async def current_account(request: Request,
                          authorization: Annotated[str | None, Header()] = None) -> dict:
    if not authorization or not authorization.startswith("Bearer "):
        raise AuthError("log in first (Authorization: Bearer <token>)")
    # forged, expired, ended (logout, password change) or banned: 401 (auth.Sessions)
    acc, session = await server_of(request).sessions.check(authorization[7:].strip())
    request.state.session = session
    return acc


Account = Annotated[dict, Depends(current_account)]


def client_address(request: Request) -> str:
    """The peer's address — or X-Forwarded-For's, which uvicorn puts here only when
    the peer is one of the proxies ``forwarded_allow_ips`` names (none by default)."""
    return request.client.host if request.client else "?"


def ops_only(request: Request) -> None:
    """The server's own figures (/metrics, /readyz, /api/v1/health) are for its operator:
    loopback, the ``ops_networks`` and a bearer ``ops_token``; anyone else gets 403."""
    st = server_of(request).settings
    token = request.headers.get("authorization", "")
    if st.ops_token and token.startswith("Bearer ") and hmac.compare_digest(
            token[7:].strip().encode(), st.ops_token.encode()):
        return
    try:
        ip = ipaddress.ip_address(client_address(request))
    except ValueError:
        ip = None
    if ip is not None and (ip.is_loopback or any(ip in net for net in _networks(
            st.ops_networks))):
        return
    raise ApiError(403, "forbidden", "this page is for the server's operator")


@functools.lru_cache(maxsize=8)
def _networks(text: str) -> tuple:
    return tuple(ipaddress.ip_network(n.strip(), strict=False)
                 for n in text.split(",") if n.strip())


def _throttle(request: Request) -> None:
    if not server_of(request).limits.auth_client.take(network_of(client_address(request))):
        raise ApiError(429, "rate_limited", "too many attempts; wait a moment")


def _session(server, acc: dict) -> dict:
    return {"token": server.sessions.issue(acc), "account": public_account(acc)}


@router.post("/accounts", status_code=201)
async def register(body: Credentials, request: Request) -> dict:
    _throttle(request)
    server = server_of(request)
    server.limits.check_signup(client_address(request))
    try:
        acc = await server.accounts.register(body.name, body.password)
    except AuthError as e:
        if "taken" in str(e):
            raise ApiError(409, "conflict", str(e), e.reason) from None
        raise ApiError(400, "bad_request", str(e), e.reason) from None
    return _session(server, acc)


@router.post("/sessions")
async def login(body: Credentials, request: Request) -> dict:
    _throttle(request)
    server = server_of(request)
    # failures per (network, name), per network, and per name from anywhere — the last
    # refusing only networks that failed lately (limits.check_login)
    client, name = client_address(request), name_key(body.name.strip())
    server.limits.check_login(client, name)
    try:
        acc = await server.accounts.login(body.name, body.password)
    except AuthError as e:
        if e.reason == "wrong_password":
            server.limits.login_failed(client, name)
        raise
    return _session(server, acc)


@router.delete("/sessions/current")
async def logout(request: Request, acc: Account) -> dict:
    """Log out: this session's token is refused from now on, on every worker (the
    account's other sessions go on)."""
    await server_of(request).sessions.end(request.state.session)
    return {"logged_out": True}


class PasswordChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(max_length=128)
    new: str = Field(max_length=128)


@router.post("/me/password")
async def change_password(body: PasswordChange, request: Request, acc: Account) -> dict:
    """A new password, the current one proved. Every other session of the account ends
    (a stolen token with it); the answer carries this client's new token. A wrong
    current password counts as a failed login (the same limits)."""
    server = server_of(request)
    client, name = client_address(request), name_key(acc["name"])
    server.limits.check_login(client, name)
    try:
        fresh = await server.accounts.change_password(acc, body.old, body.new)
    except AuthError as e:
        if e.reason == "wrong_password":
            server.limits.login_failed(client, name)
            raise ApiError(403, "forbidden", str(e), e.reason) from None
        raise ApiError(400 if e.reason == "password_length" else 403,
                       "bad_request" if e.reason == "password_length" else "forbidden",
                       str(e), e.reason) from None
    return _session(server, fresh)


@router.post("/guests", status_code=201)
async def guest(request: Request) -> dict:
    _throttle(request)
    server = server_of(request)
    server.limits.check_signup(client_address(request))
    return _session(server, await server.accounts.guest())


@router.get("/me")
async def me(acc: Account) -> dict:
    return public_account(acc)


@router.get("/me/ledger")
async def my_ledger(request: Request, acc: Account) -> dict:
    rows = await server_of(request).repo.ledger_rows(acc["id"])
    return {"balance": int(acc["coins"]),
            "rows": [{"amount": r["amount"], "reason": r["reason"], "game_id": r["game_id"],
                      "hand_no": r["hand_no"], "at": r["created_at"]} for r in rows]}


TAIWAN_UTC_OFFSET = 8 * 3600       # the daily bonus's day starts at midnight in Taiwan


def day_start(now: float) -> float:
    """The start (epoch seconds) of the Taiwanese calendar day holding ``now``."""
    return (now + TAIWAN_UTC_OFFSET) // 86400 * 86400 - TAIWAN_UTC_OFFSET


@router.post("/me/daily")
async def daily_bonus(request: Request, acc: Account) -> dict:
    """每日登入獎勵: the day's bonus, paid once a day through the ledger (the day a
    new account got its 新人禮包 counts as paid). ``paid`` is 0 when already taken —
    also when two requests (two workers) asked at once: the ledger's grant key
    lets one of them pay."""
    import time
    server = server_of(request)
    amount = server.settings.daily_bonus
    now = time.time()
    start = day_start(now)
    # the key is the Taiwanese date: the database pays it once whatever the workers do
    day = time.strftime("%Y-%m-%d", time.gmtime(start + TAIWAN_UTC_OFFSET))
    paid = amount > 0 and await server.repo.grant(
        acc["id"], amount, "daily", day, unless=("welcome",), since=start)
    fresh = await server.repo.account(acc["id"])
    return {"paid": amount if paid else 0, "amount": amount, "coins": int(fresh["coins"]),
            "next_at": day_start(now) + 86400}


@router.get("/profiles")
async def profiles(request: Request) -> dict:
    from ...profiles import profile_names
    st = server_of(request).settings
    return {"profiles": profile_names(), "default": st.default_profile,
            "stakes": STAKE_LEVELS, "modes": ["casual", "ranked", "challenge"],
            "speeds": {k: {"base": st.turn_base * f, "bank": st.turn_bank * f}
                       for k, f in TABLE_SPEEDS.items()}}


@router.get("/profiles/{name}/patterns")
async def profile_patterns(name: str) -> dict:
    """Every pattern of the profile with its 台 and an example hand the scorer
    valued (詳細台型圖文說明): the help page's data, ``web.help.help_data``."""
    from ...profiles import load_profile, profile_names
    from ...web.help import help_data
    if name not in profile_names():        # never a path: only the shipped profiles
        raise ApiError(404, "not_found", f"no rule profile {name!r}; the profiles are "
                                         f"{', '.join(profile_names())}")
    return help_data(load_profile(name))


@router.get("/voices")
async def voices(request: Request) -> dict:
    """The recorded calls this server has (語音包): ``{voice: [call, …]}`` and where
    to fetch one (``/api/v1/voices/{voice}/{call}``)."""
    from .voices import VOICES, credits
    server = server_of(request)
    packs = server.voices
    return {"voices": {v: sorted(packs.get(v, {})) for v in VOICES},
            "names": VOICES, "credits": credits(server.settings.voice_dir)}


@router.get("/voices/{voice}/{call}")
async def voice_clip(voice: str, call: str, request: Request):
    """One recorded call; only a clip the start-up check accepted."""
    from fastapi.responses import FileResponse

    from .voices import clip_path
    server = server_of(request)
    found = clip_path(server.settings.voice_dir, server.voices, voice, call) \
        if server.settings.voice_dir else None
    if found is None:
        raise ApiError(404, "not_found", f"no recorded {call!r} in voice {voice!r}")
    path, media = found
    return FileResponse(path, media_type=media, headers={"Cache-Control": "max-age=86400"})


@router.get("/profiles/{name}/rules")
async def profile_rules(name: str) -> dict:
    """The table rules of a profile (行牌規則: 吃碰槓, 補花, 過水, 海底, 流局, 連莊) as
    data, with the 台 of the patterns the rules page names — the page is written
    from these values, so it says what this server plays."""
    from ...profiles import load_profile, profile_names
    if name not in profile_names():
        raise ApiError(404, "not_found", f"no rule profile {name!r}; the profiles are "
                                         f"{', '.join(profile_names())}")
    p = load_profile(name)
    named = ("dealer", "dealer_streak", "last_tile", "seat_flower", "robbing_kong",
             "self_draw", "kong_replacement")
    return {"profile": {"id": p.id, "name_zh": p.name_zh, "name_en": p.name_en},
            "play": p.play.model_dump(), "stakes": p.stakes.model_dump(),
            "tai": {k: p.patterns[k].tai for k in named if k in p.patterns}}


@router.get("/bots")
async def bots() -> dict:
    """The opponents a player may choose for a game against the computer."""
    return opponents.catalogue()


# -- private rooms -----------------------------------------------------------------------------
async def room_view(server, room) -> dict:
    """The room as players see it. ``started`` means its game can be joined now: a room
    is marked started before its game is made (bots chosen, the game stored), and a page
    that read it in between sat down at a table that did not exist yet and was told the
    game was over. A started room with no game at all may be stuck: ``_revive``."""
    view = room.public()
    if room.started and await server.find_table(room.game_id) is None:
        if await server.repo.game(room.game_id) is None and await _revive(server, room):
            return view                  # made again just now: it can be joined
        view["started"] = False
    return view


async def _room_seat(server, room, seat: int, acc: dict) -> dict:
    return {"code": room.code, "game_id": room.game_id, "seat": seat,
            "ticket": server.tokens.ticket(room.game_id, seat, acc["id"]),
            "room": await room_view(server, room)}


@router.post("/rooms", status_code=201)
async def open_room(body: RoomRequest, request: Request,
                    acc: Account) -> dict:
    from ..core import new_game_id
    server = server_of(request)
    profile = server.check_profile(body.profile)
    bots_choice = opponents.check_choice(body.bots) if body.bots else None
    options = {} if body.watch else {"watch": False}
    if not body.voice:
        options["voice"] = False
    elif body.voice_watchers:
        options["voice_watchers"] = True
    if not body.voices:
        options["voices"] = False
    if body.hints:
        options["hints"] = True
    if body.wall is not None:
        if not server.settings.test_mode:
            raise ApiError(403, "forbidden", "stacked walls exist only on a server in test "
                                             "mode", "test_only")
        from ..play import stacked
        try:
            options["stacked"] = stacked.check(body.wall.model_dump())
        except stacked.StackError as e:
            raise ApiError(422, "bad_request", str(e), "bad_stack") from None
        bots_choice = stacked.STACKED_BOT
    await server.limits.check_new_table(server, acc["id"])
    room = await server.rooms.open((acc["id"], acc["name"]), profile, body.stake,
                                   body.rounds, new_game_id(), bots=bots_choice,
                                   speed=body.speed, options=options)
    return await _room_seat(server, room, 0, acc)


async def _find_room(request: Request, code: str, acc: dict):
    """A room by its code, counting the codes that match nothing against the client
    and the account (codes are six letters: guessing them must stay slow)."""
    server, client = server_of(request), client_address(request)
    server.limits.check_room_lookup(client, acc["id"])
    try:
        return await server.rooms.get(code[:16])
    except LobbyError:
        server.limits.room_missed(client, acc["id"])
        raise


@router.get("/rooms/{code}")
async def room_state(code: str, request: Request,
                     acc: Account) -> dict:
    return {"room": await room_view(server_of(request), await _find_room(request, code, acc))}


async def _start_room(server, room):
    """Make the room's game with its seats as stored now (another worker may have
    seated someone since ``room`` was read); the room as started."""
    started = await server.rooms.start(room.code)
    if started is None:             # started already (the host, or the fourth join)
        return await server.rooms.get(room.code)
    room = started
    try:
        await _make_game(server, room)
    except Exception:
        # the room waits again, unless its game was made after all (by a revive, below)
        with contextlib.suppress(Exception):
            if not await _game_exists(server, room.game_id):
                await server.rooms.unstart(room.code)
        raise
    return room


async def _make_game(server, room) -> None:
    names, options = None, None
    if room.bots:       # adaptive reads the host's own record
        names, options = await opponents.choose_bots(server.repo, room.host[0], room.bots)
    options = {**(options or {}), "speed": room.speed, "room": True, **room.options}
    await server.create_table(mode="casual", profile=room.profile, stake=room.stake,
                              rounds=room.rounds, players=list(room.players),
                              bots=names, game_id=room.game_id, options=options)


async def _game_exists(server, game_id: str) -> bool:
    """Running somewhere, or stored (then its owner, or the cluster's recovery, runs it)."""
    return (await server.find_table(game_id) is not None
            or await server.repo.game(game_id) is not None)


async def _revive(server, room) -> bool:
    """A started room whose game is neither running nor stored: if it was marked
    ``MAKE_TIMEOUT`` ago, the process making it was killed in between, and the game is
    made again (True once made) — a started room cannot be left or started again, so its
    players would otherwise wait in it until it expired. Every view of the room asks
    (the pages poll it, the host's start answers with it); of several, only one makes
    the game (``RoomBook.revive``), and if that fails the next try is ``MAKE_TIMEOUT``
    later."""
    again = await server.rooms.revive(room.code, MAKE_TIMEOUT)
    if again is None:
        return False
    log.warning("room %s: its game %s was never made; making it again", room.code,
                room.game_id)
    try:
        await _make_game(server, again)
    except Exception as e:   # noqa: BLE001 - another try comes MAKE_TIMEOUT later
        log.warning("room %s: making its game again failed (%s)", room.code, e)
        return False
    return True


@router.post("/rooms/{code}/join")
async def join_room(code: str, request: Request, acc: Account) -> dict:
    server = server_of(request)
    return await _take_seat(server, await _find_room(request, code, acc), acc)


async def _take_seat(server, room, acc: dict) -> dict:
    """Seat ``acc`` in ``room`` (the table cap counts a new seat) and start the room
    once its last chair is filled: joining by code and by invitation alike."""
    if room.seat_of(acc["id"]) is None and not room.started:
        await server.limits.check_new_table(server, acc["id"], spend=False)
    room, seat = await server.rooms.join(room.code, (acc["id"], acc["name"]))
    if not room.started and all(room.players):
        room = await _start_room(server, room)
    return await _room_seat(server, room, seat, acc)


@router.post("/rooms/{code}/leave")
async def leave_room(code: str, request: Request, acc: Account) -> dict:
    """Give up a seat in a room not started yet; the host leaving closes the room (the
    others' pages find it gone). The seat no longer counts against the table cap."""
    server = server_of(request)
    room = await server.rooms.leave((await _find_room(request, code, acc)).code, acc["id"])
    return {"left": True, "room": None if room is None else await room_view(server, room)}


@router.post("/rooms/{code}/start")
async def start_room(code: str, request: Request, acc: Account) -> dict:
    server = server_of(request)
    room = await _find_room(request, code, acc)
    if room.host[0] != acc["id"]:
        raise ApiError(403, "forbidden", "only the host can start the room")
    if not room.started:
        room = await _start_room(server, room)
    return {"game_id": room.game_id, "room": await room_view(server, room)}


# -- records, rankings, challenge ---------------------------------------------------------------
def _players(seats: list[dict]) -> list[str]:
    return [s["name"] for s in seats]


@router.get("/games")
async def my_games(request: Request, acc: Account) -> dict:
    """The account's games; an unfinished one carries its seat's ticket, so a player
    who lost it (another tab, another device) can sit back down — and free a place
    under the table cap by finishing it. Asked for by the session, never broadcast."""
    server = server_of(request)
    rows = await server.repo.games_of(acc["id"])
    return {"games": [{"game_id": r["id"], "mode": r["mode"], "profile": r["profile"],
                       "stake": r["stake"], "rounds": r["rounds"], "status": r["status"],
                       "seat": r["seat"], "players": _players(r["seats"]),
                       "created_at": r["created_at"], "finished_at": r["finished_at"],
                       "result": r["result"],
                       **({"forfeited": True} if _forfeited(r) else {}),
                       **({"ticket": server.tokens.ticket(r["id"], r["seat"], acc["id"])}
                          if r["status"] != "finished" and not _forfeited(r) else {})}
                      for r in rows]}


def _forfeited(r: dict) -> bool:
    """The account gave this game's seat up (認輸), whether others played on or not."""
    return bool(r["seats"][r["seat"]].get("forfeited")
                or r["seat"] in ((r["result"] or {}).get("forfeited") or []))


_FORFEIT_ERRORS = {
    "no_game": (404, "you hold no seat at an unfinished game with this id"),
    "game_over": (409, "this game is already over"),
    "busy": (503, "this game is being taken on by a server right now; try again in a moment"),
}


@router.post("/games/{game_id}/forfeit")
async def forfeit(game_id: str, request: Request, acc: Account) -> dict:
    """認輸: give up a seat at an unfinished game (docs/protocol.md says what follows)."""
    outcome = await server_of(request).forfeit(game_id, acc["id"])
    if outcome in _FORFEIT_ERRORS:
        status, message = _FORFEIT_ERRORS[outcome]
        raise ApiError(status, outcome if status != 503 else "unavailable", message)
    return {"game_id": game_id, "outcome": outcome}


async def _replayed(request: Request, key: tuple, work) -> dict:
    """A finished game's answer made by ``work()`` off the event loop and kept
    (server/play/replay.py); making one counts against the address's replay limit."""
    from ..play.replay import TooBusy
    server = server_of(request)
    st = server.settings
    if not server.limits.replays.take(network_of(client_address(request))):
        raise LimitError("rate_limited", "too many replays asked for; wait a moment",
                         retry_after=1 / st.replay_rate)
    try:
        return await server.replays.make(key, work)
    except TooBusy as e:
        raise LimitError("busy", str(e), status=503, retry_after=2) from None


@router.get("/games/{game_id}")
async def game_record(game_id: str, request: Request) -> dict:
    """A finished game as seed + ordered actions per hand, for replay."""
    server = server_of(request)
    kept = server.replays.kept(("record", game_id))
    if kept is not None:
        return kept
    repo = server.repo
    row = await repo.game(game_id)
    if row is None:
        raise ApiError(404, "not_found", "no such game")
    if row["status"] not in ("finished", "aborted"):
        raise ApiError(409, "conflict", "this game is still being played")
    rows = await repo.game_actions(game_id)
    return await _replayed(request, ("record", game_id), lambda: _record(row, rows))


def _record(row: dict, rows: list[dict]) -> dict:
    from ..play.engine_game import EngineGame, replay_stored
    hands: list[dict] = []
    for r in rows:
        d = r["data"]
        if r["kind"] == "hand":
            hands.append({"hand_no": r["hand_no"], "seed": d["seed"],
                          "commitment": d["commitment"], "actions": []})
        elif r["kind"] == "action":
            hands[-1]["actions"].append({"seat": r["seat"], "action": d["action"]})
        elif r["kind"] == "settled":
            hands[-1]["net"] = d["net"]
            hands[-1]["fee"] = d["fee"]
    opts = row["options"] or {}
    meta = {k: row[k] for k in ("mode", "profile", "stake", "rounds")}
    meta["options"] = opts
    game = replay_stored(EngineGame(meta), rows)
    return {"game_id": row["id"], "mode": row["mode"], "profile": row["profile"],
            "stake": row["stake"], "rounds": row["rounds"], "players": _players(row["seats"]),
            "seed": str(opts.get("seed")), "carried": opts.get("carried"),
            "commitment": match_commitment(int(opts["seed"])),
            "hands": hands, "result": row["result"], "record": game.record()}


async def _finished_game(repo, game_id: str, what: str) -> tuple[dict, dict]:
    """A finished (or aborted) game's row and the ``EngineGame`` meta that replays it;
    404 for no such game, 409 while it is played (``what`` opens when it is over)."""
    row = await repo.game(game_id)
    if row is None:
        raise ApiError(404, "not_found", "no such game")
    if row["status"] not in ("finished", "aborted"):
        raise ApiError(409, "conflict", f"this game is still being played; "
                                        f"its {what} opens when it is over")
    meta = {k: row[k] for k in ("mode", "profile", "stake", "rounds")}
    meta["options"] = row["options"] or {}
    return row, meta


@router.get("/games/{game_id}/replay")
async def game_replay(game_id: str, request: Request,
                      hand: Annotated[int, Query(ge=1, le=400)] = 1,
                      seat: Annotated[int, Query(ge=0, le=3)] = 0) -> dict:
    """One hand of a finished game, step by step, as ``seat`` saw it (牌譜重播).

    Any seat may be watched: the game is over, so nothing is secret any more."""
    from ..play.engine_game import EngineGame
    from ..play.replay import NoSuchHand, replay_hand
    server = server_of(request)
    key = ("replay", game_id, hand, seat)
    kept = server.replays.kept(key)
    if kept is not None:
        return kept
    repo = server.repo
    _, meta = await _finished_game(repo, game_id, "replay")
    rows = await repo.game_actions(game_id)
    try:
        return await _replayed(request, key,
                               lambda: replay_hand(EngineGame(meta), rows, hand, seat))
    except NoSuchHand as e:
        raise ApiError(404, "not_found", str(e)) from None


@router.get("/games/{game_id}/analysis", response_model=None)
async def game_analysis(game_id: str, request: Request, acc: Account,
                        hand: Annotated[int, Query(ge=1, le=400)] = 1,
                        progress: bool = False) -> dict | StreamingResponse:
    """牌譜分析 of one hand of a finished game, for the player who played it.

    Only that player may ask, and only about their own seat: the review is made
    from that seat's view alone (docs/analysis.md). With ``progress=1`` the answer
    is a stream of JSON lines saying where the review stands until it is done
    (docs/protocol.md), so the viewer can show a waiting player how far it is."""
    from ..play.analysis import Busy, has_hand
    from ..play.replay import NoSuchHand
    server = server_of(request)
    row, meta = await _finished_game(server.repo, game_id, "analysis")
    seats = [s for s, p in enumerate(row["seats"]) if p.get("account_id") == acc["id"]]
    if not seats:
        raise ApiError(403, "forbidden", "only the game's player may see its analysis")
    rows = await server.repo.game_actions(game_id)
    if not has_hand(rows, hand):
        raise ApiError(404, "not_found", f"this game has no finished hand {hand}")
    analyses = server.analyses
    try:
        if not progress:
            return await _unless_gone(request, analyses.review(
                game_id, meta, rows, hand, seats[0], owner=acc["id"]))
        fut = analyses.start(game_id, meta, rows, hand, seats[0], owner=acc["id"])
    except NoSuchHand as e:
        raise ApiError(404, "not_found", str(e)) from None
    except Busy as e:
        raise ApiError(429, "rate_limited", str(e)) from None
    key = (game_id, seats[0], hand)

    async def lines() -> AsyncIterator[bytes]:
        # a player who goes away (another hand, another screen) cancels this stream:
        # leave() then calls off a review nobody waits for
        mine = fut
        if mine.cancelled():        # the request before ours for this hand left meanwhile
            try:
                mine = analyses.start(game_id, meta, rows, hand, seats[0], owner=acc["id"])
            except Busy as e:
                yield orjson.dumps({"error": {"code": "rate_limited", "message": str(e)}}) + b"\n"
                return
        analyses.join(key)
        try:
            said: dict[str, int] | None = None
            while not mine.done():
                now = analyses.progress(*key)
                if now and now != said:
                    said = now
                    yield orjson.dumps(now) + b"\n"
                with contextlib.suppress(TimeoutError, Exception):
                    await asyncio.wait_for(asyncio.shield(mine), PROGRESS_EVERY)
            try:
                review = await analyses.result(mine, key)
            except Exception:
                log.exception("analysis of %s hand %d failed", game_id, hand)
                yield orjson.dumps({"error": {"code": "unavailable", "message":
                                              "the review failed; ask again"}}) + b"\n"
                return
            yield orjson.dumps({"review": review}) + b"\n"
        finally:
            analyses.leave(key, mine)
    # X-Accel-Buffering: nginx in front (deploy/onebox.sh) would hold the lines back
    # until the review is done, the whole point of the stream lost
    return StreamingResponse(lines(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def _unless_gone(request: Request, work) -> dict | JSONResponse:
    """``work``'s answer, or — when the client goes away first — ``work`` cancelled
    (a review then is called off unless someone else waits for it) and an answer
    nobody reads (499, nginx's "client closed request")."""
    async def gone() -> None:
        while (await request.receive())["type"] != "http.disconnect":
            pass
    task, watch = asyncio.ensure_future(work), asyncio.ensure_future(gone())
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watch.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    if task.cancelled():
        return JSONResponse({"error": {"code": "gone", "message": "the client went away"}},
                            status_code=499)
    return task.result()


@router.get("/leaderboard")
async def leaderboard(request: Request) -> dict:
    rows = await server_of(request).repo.leaderboard()
    return {"players": [{"name": r["name"], "rating": round(float(r["rating"]), 1),
                         "ranked_games": r["ranked_games"]} for r in rows]}


@router.get("/challenge")
async def challenge_progress(acc: Account) -> dict:
    beaten = int(acc["challenge_tier"])
    return {"tiers": challenge.tiers(), "beaten": beaten, "next": challenge.next_tier(beaten)}


@router.get("/health", dependencies=[Depends(ops_only)])
async def health(request: Request) -> dict:
    server = server_of(request)
    tables = server.tables.all()
    states: dict[str, int] = {}
    for t in tables:
        state = table_state(t)
        states[state] = states.get(state, 0) + 1
    return {"ok": True, "tables": len(tables), "table_states": states,
            "rooms_waiting": await server.rooms.waiting_count(), "aborted": server.aborted_tables,
            "connections": server.connections, "queued": await server.queue.count(),
            "process": server.cluster.process_id if server.cluster else None}

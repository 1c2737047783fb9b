"""The WebSocket protocol (version 1): every message a pydantic model.

Client messages are one discriminated union on ``type``; anything else — bad
JSON, an unknown type, a missing or extra field, a frame over the size limit —
becomes a ``ProtocolError`` with a stable ``code`` and a message a player can
read, answered to that client only. docs/protocol.md shows an example of each.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ...engine.actions import ACTION_TYPES
from ...errors import UserError

__all__ = [
    "ACTION_TYPES",
    "MODES",
    "VERSION",
    "ActionMsg",
    "AutoPlay",
    "CancelMatch",
    "ClientMessage",
    "Mute",
    "Hello",
    "Join",
    "Ping",
    "ProtocolError",
    "QuickMatch",
    "Ready",
    "ReadyState",
    "SeatMessage",
    "Talk",
    "Unwatch",
    "Voice",
    "VoiceSignal",
    "Watch",
    "message",
    "out",
    "parse_client",
]

VERSION = 1
MODES = ("casual", "ranked", "challenge")
# The engine's action vocabulary is the protocol's: one list, so a new action type
# (as 海底's `draw` was) cannot reach the engine yet be refused at the door.


class ProtocolError(UserError):
    """A message the server refuses; ``code`` is for programs, the text for people."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class _In(BaseModel):
    # strict: a boolean is true or false, never "yes" or 1; a number is never a string
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    v: Literal[1] = 1


class Hello(_In):
    """Authenticate the connection: a session token, or a seat ticket to (re)join."""
    type: Literal["hello"]
    token: str | None = Field(None, max_length=512)
    ticket: str | None = Field(None, max_length=512)


class QuickMatch(_In):
    """One button: queue for a table of this mode, profile and stake level."""
    type: Literal["quick_match"]
    mode: Literal["casual", "ranked", "challenge"] = "casual"
    profile: str | None = Field(None, max_length=64)
    stake: Literal["low", "mid", "high"] = "low"


class CancelMatch(_In):
    type: Literal["cancel_match"]


class Join(_In):
    """Take the seat a ticket names (after matching, a room join, or to reconnect)."""
    type: Literal["join"]
    ticket: str = Field(max_length=512)


class ActionBody(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal[ACTION_TYPES]
    tile: str | None = Field(None, max_length=8)
    tiles: str | None = Field(None, max_length=16)


class ActionMsg(_In):
    """A decision for the seat; ``turn`` (from the update that offered it) lets
    the server drop a stale action instead of applying it to a later decision."""
    type: Literal["action"]
    action: ActionBody
    turn: int | None = Field(None, ge=0)


class Ping(_In):
    type: Literal["ping"]


class Ready(_In):
    """下一局: this player has read the hand's result; the next deal may come."""
    type: Literal["ready"]


class AutoPlay(_In):
    """託管 on (a bot plays the seat) or off (the player decides again, with a clock)."""
    type: Literal["auto"]
    on: bool


class Talk(_In):
    """A 快捷語 (``phrase``) or a 表情 (``emote``) by its catalogue id — never free
    text (server/social/talk.py); exactly one of the two."""
    type: Literal["talk"]
    phrase: str | None = Field(None, max_length=32)
    emote: str | None = Field(None, max_length=32)


class Watch(_In):
    """觀戰: watch a friend's table (public view, behind a delay)."""
    type: Literal["watch"]
    game_id: str = Field(max_length=64)


class Unwatch(_In):
    type: Literal["unwatch"]


class Mute(_In):
    """The seats (0-3) whose talk this connection no longer wants, bots included;
    the whole list each time (``[]`` hears everyone again)."""
    type: Literal["mute"]
    seats: list[Annotated[int, Field(ge=0, le=3)]] = Field(max_length=4)


class HintAsk(_In):
    """教練: the coach's hint for the seat's pending decision (server/play/coaching.py);
    ``turn`` (optional) is that decision's, so an answer never lands on a later one."""
    type: Literal["hint"]
    turn: int | None = Field(None, ge=0)


class Voice(_In):
    """開黑: this connection's seat in the table's voice, or out of it
    (server/social/voice.py); ``quick``: its player allows voice with strangers at a
    quick-match table."""
    type: Literal["voice"]
    on: bool
    quick: bool = False


class VoiceSignal(_In):
    """One WebRTC session description (ICE candidates included) for seat ``to`` of the
    table ``game_id``, both in voice — or, from a seat, for the watcher ``listener``
    listening to it (a room whose host lets watchers listen); the server only relays it."""
    type: Literal["voice_signal"]
    game_id: str = Field(max_length=64)
    to: int | None = Field(None, ge=0, le=3)
    listener: int | None = Field(None, ge=1, le=1_000_000)
    kind: Literal["offer", "answer"]
    sdp: str = Field(min_length=3, max_length=3600)


ClientMessage = Annotated[Hello | QuickMatch | CancelMatch | Join | ActionMsg | Ping | Ready
                          | AutoPlay | Talk | Watch | Unwatch | Mute | HintAsk | Voice | VoiceSignal,
                          Field(discriminator="type")]
_client = TypeAdapter(ClientMessage)
# what a seated player sends to their table (relayed as is between cluster processes)
SeatMessage = Annotated[ActionMsg | Ready | AutoPlay | Talk | HintAsk | Voice | VoiceSignal,
                        Field(discriminator="type")]
seat_message = TypeAdapter(SeatMessage)


# a JSON string, escapes and all: its brackets do not nest anything
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def json_depth(raw: bytes) -> int:
    """How deep ``[``/``{`` nest in ``raw``, counted without parsing it (linear time):
    a parser recurses once per level, so the depth is checked before it runs."""
    depth = deepest = 0
    for c in _JSON_STRING.sub(b"", raw).translate(None, _NOT_BRACKETS):
        if c in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def parse_client(raw: str | bytes, max_bytes: int, max_depth: int = 16) -> Any:
    """Validate one frame; raise ``ProtocolError`` naming what is wrong."""
    data_bytes = raw.encode(errors="surrogatepass") if isinstance(raw, str) else raw
    size = len(data_bytes)
    if size > max_bytes:
        raise ProtocolError("too_large", f"message of {size} bytes is over the "
                                         f"{max_bytes}-byte limit")
    if json_depth(data_bytes) > max_depth:
        raise ProtocolError("too_deep", f"message nests deeper than {max_depth} levels")
    try:
        data = orjson.loads(raw)     # strict JSON: NaN, lone surrogates and >64-bit ints refused
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "message must be a JSON object")
    if "type" not in data:
        raise ProtocolError("bad_message", "message has no 'type'")
    v = data.get("v", VERSION)
    if type(v) is not int or v != VERSION:      # exactly 1: not true, not 1.0, not "1"
        raise ProtocolError("bad_version", f"protocol version {data.get('v')!r} is not "
                                           f"supported; this server speaks v{VERSION}")
    try:
        return _client.validate_python(data)
    except ValidationError as e:
        err = e.errors()[0]
        if err["type"] == "union_tag_invalid":
            raise ProtocolError("unknown_type",
                                f"unknown message type {str(data['type'])[:40]!r}") from None
        where = ".".join(str(p) for p in err["loc"][1:]) or "message"
        raise ProtocolError("bad_message", f"{data['type']}: {where}: {err['msg']}") from None


# -- server -> client -----------------------------------------------------------------
class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")
    v: Literal[1] = 1


class Welcome(_Out):
    type: Literal["welcome"] = "welcome"
    account: dict[str, Any]
    route: str | None = None        # this worker's own address (settings.route)


class Queued(_Out):
    type: Literal["queued"] = "queued"
    mode: str
    profile: str
    stake: str
    waiting: int
    fill_after: float


class Matched(_Out):
    type: Literal["matched"] = "matched"
    game_id: str
    seat: int
    ticket: str


class Snapshot(_Out):
    type: Literal["snapshot"] = "snapshot"
    table: dict[str, Any]
    hand: dict[str, Any] | None
    observation: dict[str, Any] | None
    turn: int
    timer: dict[str, Any] | None
    clocks: list[dict[str, Any] | None] | None = None   # every seat's, as this seat may see


class Update(_Out):
    type: Literal["update"] = "update"
    turn: int
    events: list[dict[str, Any]]
    observation: dict[str, Any]
    timer: dict[str, Any] | None
    clocks: list[dict[str, Any] | None] | None = None


class Presence(_Out):
    type: Literal["presence"] = "presence"
    seat: int
    connected: bool
    auto: bool


class HandStart(_Out):
    type: Literal["hand_start"] = "hand_start"
    hand_no: int
    commitment: str


class HandEnd(_Out):
    type: Literal["hand_end"] = "hand_end"
    hand_no: int
    result: dict[str, Any]
    coins: list[int | None]
    seed: str
    commitment: str
    next_in: float | None = None        # s until the next deal unless everyone is ready
    waiting: list[int] | None = None    # the seats whose 下一局 the table waits for


class ReadyState(_Out):
    """Someone pressed 下一局 (or left): who the next deal still waits for."""
    type: Literal["ready"] = "ready"
    seat: int | None
    waiting: list[int]
    next_in: float


class GameEnd(_Out):
    type: Literal["game_end"] = "game_end"
    game_id: str
    scores: list[int]
    ranks: list[int]
    rating: dict[str, Any] | None = None
    challenge: dict[str, Any] | None = None
    seed: str | None = None      # the match seed, revealed: check it with `twmj verify`
    aborted: bool = False        # ended early by an error it could not recover from
    ended: str | None = None     # ended early by its players: "forfeited" or "abandoned"
    coins: list[dict[str, int] | None] | None = None   # each person's {before, after} over the game


class Error(_Out):
    type: Literal["error"] = "error"
    code: str
    message: str


class HintOut(_Out):
    """教練: the coach's hint for the decision of ``turn`` (twmahjong.coach.Hint's JSON)."""
    type: Literal["hint"] = "hint"
    turn: int
    hint: dict[str, Any]


class Pong(_Out):
    type: Literal["pong"] = "pong"


class TalkOut(_Out):
    """A phrase or emote said at ``seat`` (``bot``: a bot's line)."""
    type: Literal["talk"] = "talk"
    seat: int
    phrase: str | None
    emote: str | None
    bot: bool = False


class Watchers(_Out):
    """How many watch this table (to the seated players)."""
    type: Literal["watchers"] = "watchers"
    count: int


class Watching(_Out):
    """觀戰 begins: the table's public info and the delay in turns."""
    type: Literal["watching"] = "watching"
    game_id: str
    table: dict[str, Any]
    delay: int


class WatchFrame(_Out):
    """One delayed public frame of a watched table (server/social/watch.py)."""
    type: Literal["watch"] = "watch"
    hand_no: int
    turn: int
    view: dict[str, Any]
    events: list[dict[str, Any]]
    scores: list[int]


class VoiceState(_Out):
    """Who is in the table's voice, and the watchers who listen, by number (to the
    seated players and the listeners, on every change)."""
    type: Literal["voice"] = "voice"
    seats: list[int]
    listeners: list[int]


class VoiceJoined(_Out):
    """This connection is in voice (a seat, or a watcher as ``listener``): the ICE
    servers to use and the seats to call."""
    type: Literal["voice_joined"] = "voice_joined"
    seat: int | None
    listener: int | None
    ice_servers: list[dict[str, Any]]
    peers: list[int]


class VoiceSignalOut(_Out):
    """A session description from ``seat`` (or from the listening watcher
    ``listener``): its ``offer`` or ``answer``."""
    type: Literal["voice_signal"] = "voice_signal"
    seat: int | None
    listener: int | None
    kind: str
    sdp: str


class Notice(_Out):
    """Something for this account from elsewhere: a friend request, an invitation…"""
    type: Literal["notice"] = "notice"
    kind: str
    data: dict[str, Any]


def out(msg: _Out) -> str:
    """A checked message as text (the rare ones: welcome, errors, results)."""
    return orjson.dumps(msg.model_dump(), option=_OPTS).decode()


def message(type_: str, **fields: Any) -> str:
    """A message the table sends on every move (``update``, ``snapshot``,
    ``presence``) as text, straight from the values the server built itself.

    Validating them again through the models cost more than encoding them (issue
    12's profile); the models stay the documented shape, and a test holds this
    output equal to ``out`` of the model for each of them. Fields go in the
    model's order, every one of them given."""
    return orjson.dumps({"v": VERSION, "type": type_, **fields}, option=_OPTS).decode()


_OPTS = orjson.OPT_NON_STR_KEYS     # as pydantic wrote them: {1: x} is {"1": x}

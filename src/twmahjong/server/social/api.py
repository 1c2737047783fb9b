"""The social HTTP API (``/api/v1``): the talk catalogue, friends, invitations.

Friends are for registered players: a guest is answered ``403 forbidden`` with
reason ``guest`` (register first). Errors have the usual shape (http_api.py);
``reason`` names which friends failure it was (``no_account``, ``self``,
``already_friends``, ``blocked``, ``no_request``, ``not_friends``, ``not_blocked``,
``not_in_room``, ``room_started``, ``invite_expired``).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ..net.http_api import Account, ApiError, _find_room, _take_seat, server_of
from . import talk
from .friends import public_invite

__all__ = ["router"]

router = APIRouter(prefix="/api/v1")


class Name(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)


def _registered(acc: dict) -> None:
    if acc["is_guest"]:
        raise ApiError(403, "forbidden", "guests cannot have friends; register to keep "
                                         "your friends", "guest")


async def _find(server, acc: dict, name: str) -> dict | None:
    """The registered player called ``name`` (None: none), counted against the asking
    account: names are looked up at a bounded rate, so the API is no fast oracle."""
    server.limits.spend(server.limits.social_names, acc["id"],
                        "you are looking up too many names")
    other = await server.repo.account_by_name(name.strip())
    if other is None or other["name"].startswith("__") or other["is_guest"]:
        return None
    return other


async def _other(server, acc: dict, name: str) -> dict:
    other = await _find(server, acc, name)
    if other is None:
        raise ApiError(404, "not_found", f"no player called {name[:40]!r}", "no_account")
    return other


@router.get("/talk")
async def talk_catalogue() -> dict:
    """The 快捷語 and 表情 a table may carry (nothing else: no free text)."""
    return talk.catalogue()


@router.get("/friends")
async def friend_list(request: Request, acc: Account) -> dict:
    """My friends with where they are, requests both ways, blocks, and 最近同桌."""
    _registered(acc)
    server = server_of(request)
    lists = await server.friends.listing(acc["id"])
    places = await server.where.places([f["id"] for f in lists["friend"]])
    mine = {f["id"] for group in lists.values() for f in group}
    recent = [r for r in await server.friends.recent(acc["id"]) if r["id"] not in mine]
    return {"friends": [{"name": f["name"], **places[f["id"]]} for f in lists["friend"]],
            "incoming": [f["name"] for f in lists["received"]],
            "outgoing": [f["name"] for f in lists["sent"]],
            "blocked": [f["name"] for f in lists["blocked"]],
            "recent": [r["name"] for r in recent]}


@router.post("/friends")
async def add_friend(body: Name, request: Request, acc: Account) -> dict:
    """Ask a player (by name, or one of 最近同桌) to be friends."""
    _registered(acc)
    server = server_of(request)
    other = await _other(server, acc, body.name)
    server.limits.spend(server.limits.friend_requests, acc["id"],
                        "you are sending friend requests too fast")
    state = await server.friends.request(acc["id"], other["id"])
    if await server.friends.state(other["id"], acc["id"]) != "blocked":
        # a request withdrawn and sent again is not told again within the cool-down
        if state == "friends" or server.limits.first_notice(acc["id"], other["id"]):
            server.notices.send(other["id"], "friend_accepted" if state == "friends"
                                else "friend_request", {"from": acc["name"]})
    return {"state": state, "name": other["name"]}


@router.post("/friends/{name}/accept")
async def accept_friend(name: str, request: Request, acc: Account) -> dict:
    _registered(acc)
    server = server_of(request)
    other = await _other(server, acc, name)
    await server.friends.accept(acc["id"], other["id"])
    server.notices.send(other["id"], "friend_accepted", {"from": acc["name"]})
    return {"state": "friends", "name": other["name"]}


@router.post("/friends/{name}/decline")
async def decline_friend(name: str, request: Request, acc: Account) -> dict:
    _registered(acc)
    server = server_of(request)
    other = await _other(server, acc, name)
    await server.friends.decline(acc["id"], other["id"])
    return {"state": None, "name": other["name"]}


@router.delete("/friends/{name}")
async def remove_friend(name: str, request: Request, acc: Account) -> dict:
    _registered(acc)
    server = server_of(request)
    other = await _other(server, acc, name)
    await server.friends.remove(acc["id"], other["id"])
    return {"state": None, "name": other["name"]}


@router.post("/friends/{name}/block")
async def block_player(name: str, request: Request, acc: Account) -> dict:
    """Block: no friendship, no requests or invitations, and none of their phrases or
    emotes ever reach me (the server drops them)."""
    _registered(acc)
    server = server_of(request)
    other = await _other(server, acc, name)
    await server.friends.block(acc["id"], other["id"])
    server.notices.send(acc["id"], "blocks")       # my connections, on every worker
    return {"state": "blocked", "name": other["name"]}


@router.delete("/blocks/{name}")
async def unblock_player(name: str, request: Request, acc: Account) -> dict:
    _registered(acc)
    server = server_of(request)
    # no such player and a player not blocked get one answer: no name oracle
    other = await _find(server, acc, name)
    if other is None:
        raise ApiError(404, "not_found", "this player is not blocked", "not_blocked")
    await server.friends.unblock(acc["id"], other["id"])
    server.notices.send(acc["id"], "blocks")
    return {"state": None, "name": other["name"]}


# -- invitations ---------------------------------------------------------------------------
@router.post("/rooms/{code}/invite", status_code=201)
async def invite_friend(code: str, body: Name, request: Request, acc: Account) -> dict:
    """Offer a friend a seat in my private room: they get a ``notice`` (``invite``)
    with a join button; it expires after ``invite_ttl`` s, and they may decline."""
    _registered(acc)
    server = server_of(request)
    room = await _find_room(request, code, acc)        # misses count: codes stay unguessable
    if room.seat_of(acc["id"]) is None:
        raise ApiError(403, "forbidden", "you are not in this room", "not_in_room")
    if room.started:
        raise ApiError(409, "conflict", "this room's game has already started",
                       "room_started")
    # no such player and a player who is not a friend get one answer: no name oracle
    other = await _find(server, acc, body.name)
    if other is None or await server.friends.state(acc["id"], other["id"]) != "friend":
        raise ApiError(403, "forbidden", "you can invite friends only", "not_friends")
    lim, pair = server.limits, (acc["id"], other["id"])
    if not lim.invite_pair.allows(pair):         # a refusal spends nothing
        raise ApiError(429, "rate_limited", "you invited this friend a moment ago; wait a "
                                            "little", "rate_limited")
    lim.spend(lim.invites, acc["id"], "you are inviting too fast")
    lim.invite_pair.take(pair)
    inv = await server.invites.create(acc, other["id"], room.code)
    server.notices.send(other["id"], "invite", public_invite(inv))
    return {"invite": public_invite(inv)}




@router.get("/invites")
async def my_invites(request: Request, acc: Account) -> dict:
    server = server_of(request)
    return {"invites": [public_invite(i) for i in await server.invites.for_account(acc["id"])]}


async def _invite(server, inv_id: str, acc: dict) -> dict:
    inv = await server.invites.get(inv_id)
    if inv is None or inv["to"] != acc["id"]:
        raise ApiError(410, "gone", "this invitation has expired or was withdrawn",
                       "invite_expired")
    return inv


@router.post("/invites/{inv_id}/accept")
async def accept_invite(inv_id: str, request: Request, acc: Account) -> dict:
    """Join the room the invitation is for (the answer of ``POST /rooms/{code}/join``)."""
    server = server_of(request)
    inv = await _invite(server, inv_id, acc)
    answer = await _take_seat(server, await server.rooms.get(inv["code"]), acc)
    await server.invites.drop(inv)
    return answer


@router.post("/invites/{inv_id}/decline")
async def decline_invite(inv_id: str, request: Request, acc: Account) -> dict:
    server = server_of(request)
    inv = await _invite(server, inv_id, acc)
    await server.invites.drop(inv)
    server.notices.send(inv["from_id"], "invite_declined", {"from": acc["name"],
                                                            "code": inv["code"]})
    return {"declined": inv["id"]}

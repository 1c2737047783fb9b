"""twmahjong.client against a real server: accounts, quick match, rooms, a whole
hand, a dropped link, the kept token — over the documented protocol only."""

from __future__ import annotations

import asyncio
import os
import stat

import pytest

from twmahjong.client import Api, ApiError, Credentials, GameLink, LinkError, TableState, ws_url

pytestmark = pytest.mark.asyncio


def simple(obs: dict) -> dict:
    """Win when offered, throw the drawn tile (else the first discard), pass claims."""
    legal = obs["legal"]
    for a in legal:
        if a["type"] == "win":
            return a
    for a in legal:
        if a["type"] == "discard" and a.get("tile") == obs.get("drawn"):
            return a
    for a in legal:
        if a["type"] in ("discard", "pass", "draw"):
            return a
    return legal[0]


async def play_until(link: GameLink, kind: str, *, drop_after: int | None = None) -> list[dict]:
    """Answer every decision the seat gets until a ``kind`` message; with ``drop_after``,
    cut the socket under the client after that many of its own actions."""
    seen, acted = [], 0
    while True:
        m = await link.recv()
        seen.append(m)
        if m["type"] == kind:
            return seen
        assert m["type"] != "error" or m["code"] in ("stale", "not_your_turn"), m
        if m["type"] in ("update", "snapshot", "link") and link.state.decision():
            await link.act(simple(link.state.obs))
            acted += 1
            if drop_after is not None and acted == drop_after:
                link.ws.transport.abort()          # the network, not the client, ends it
                drop_after = None


async def test_urls_and_a_bad_address():
    assert ws_url("127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert ws_url("https://mj.example/") == "wss://mj.example/ws"
    with pytest.raises(ApiError, match="not a server address"):
        ws_url("ftp://x")


async def test_unreachable_server_is_one_clear_error():
    with pytest.raises(ApiError) as e:
        await Api("http://127.0.0.1:9", timeout=2).guest()
    assert e.value.code == "network" and "cannot reach" in str(e.value)
    assert e.value.reason == "refused"           # what a client in zh translates
    with pytest.raises(LinkError, match="cannot connect") as le:
        await GameLink("http://127.0.0.1:9", "t", open_timeout=2).connect()
    assert le.value.code == "network" and le.value.reason == "refused"


async def test_register_login_and_wrong_password(live):
    api = Api(live.base)
    out = await api.register("阿明", "secret-pw")
    assert out["account"]["name"] == "阿明" and api.token == out["token"]
    assert (await api.me())["name"] == "阿明"
    with pytest.raises(ApiError) as e:
        await Api(live.base).login("阿明", "wrong-pw")
    assert e.value.code == "auth" and e.value.status == 401
    assert e.value.reason == "wrong_password"
    with pytest.raises(ApiError) as e:
        await Api(live.base).register("阿明", "secret-pw")
    assert e.value.code == "conflict" and e.value.reason == "name_taken"
    with pytest.raises(ApiError) as e:
        await Api(live.base).register("x", "secret-pw")         # a name of one letter
    assert (e.value.code, e.value.reason) == ("bad_request", "name_format")
    with pytest.raises(ApiError) as e:
        await Api(live.base).call("POST", "/sessions", {"name": "阿明"})   # no password
    assert (e.value.code, e.value.reason, e.value.field) == ("bad_request", "invalid_field",
                                                             "password")


async def test_quick_match_plays_a_whole_hand_with_bots_filling_the_table(live):
    api = Api(live.base)
    await api.guest()
    link = GameLink(live.base, api.token)
    welcome = await link.connect()
    assert welcome["account"]["guest"]
    await link.quick_match(profile="standard")
    seen = await play_until(link, "hand_end")
    types = [m["type"] for m in seen]
    assert "queued" in types and "matched" in types and "snapshot" in types
    st = link.state
    assert st.seat is not None and st.game_id and st.ticket
    # the hand's story as this seat saw it: dealt, discards, the settlement at the end
    kinds = [e["type"] for e in st.events]
    assert "discard" in kinds and ("settlement" in kinds or "draw_game" in kinds)
    assert st.hand_end["result"]["type"] in ("win", "draw_game")
    assert sum(st.scores) <= 0
    await link.close()


async def test_updates_without_legal_are_nothing_to_decide():
    st = TableState()
    st.apply({"type": "update", "turn": 3, "events": [{"type": "discard", "seat": 1, "tile": "5m"}],
              "observation": {"seat": 0, "phase": "claim", "hand": "123m"}, "timer": None})
    assert st.decision() == [] and st.time_left() is None
    st.apply({"type": "update", "turn": 4, "events": [],
              "observation": {"seat": 0, "phase": "claim", "legal": [{"type": "pass"}]},
              "timer": {"base": 5.0, "bank": 20.0}})
    assert st.decision() == [{"type": "pass"}] and 0 < st.time_left() <= 25
    assert [e["type"] for e in st.take_events()] == ["discard"] and st.take_events() == []


async def test_a_private_room_by_code_seats_two_people_and_bots(live):
    host, guest = Api(live.base), Api(live.base)
    await host.register("host-1", "secret-pw")
    await guest.register("friend-1", "secret-pw")
    room = await host.open_room(profile="standard", rounds=1, bots="L1")
    joined = await guest.join_room(room["code"].lower())          # codes read in any case
    assert joined["seat"] != room["seat"]
    with pytest.raises(ApiError) as e:
        await guest.start_room(room["code"])                       # only the host starts
    assert e.value.code == "forbidden"
    await host.start_room(room["code"])
    links = []
    for api, seat in ((host, room), (guest, joined)):
        link = GameLink(live.base, api.token)
        await link.connect()
        await link.join(seat["ticket"])
        links.append(link)
    ends = await asyncio.gather(*(play_until(lk, "hand_end") for lk in links))
    assert [lk.state.seat for lk in links] == [room["seat"], joined["seat"]]
    assert ends[0][-1]["result"] == ends[1][-1]["result"]          # one table, one result
    for lk in links:
        await lk.close()


async def test_a_dropped_link_comes_back_with_the_ticket_mid_hand(live):
    api = Api(live.base)
    await api.guest()
    link = GameLink(live.base, api.token, retry=(0.05, 0.1, 0.2, 0.5, 1.0))
    await link.connect()
    await link.quick_match()
    seen = await play_until(link, "hand_end", drop_after=2)
    kinds = [m["type"] for m in seen]
    back = kinds.index("link")
    assert "snapshot" in kinds[back:]                   # the seat's whole table again
    assert link.reconnects == 1
    await link.close()
    with pytest.raises(LinkError):
        await link.recv()


async def test_credentials_are_kept_per_server_owner_only(config_home):
    c = Credentials("http://a:1")
    assert c.token is None
    c.set(token="tok", name="阿明", ticket="tk")
    assert Credentials("http://a:1").token == "tok" and Credentials("http://b:2").token is None
    mode = stat.S_IMODE(os.stat(c.path).st_mode)
    assert c.path.parent == config_home and mode == 0o600
    c.set(ticket=None)
    assert Credentials("http://a:1").ticket is None and Credentials("http://a:1").token == "tok"
    c.path.write_text("{not json")
    assert Credentials("http://a:1").token is None      # a damaged file is "not logged in"


async def test_a_phrase_said_through_the_client_reaches_the_other_seat(live):
    host, guest = Api(live.base), Api(live.base)
    await host.register("talker-1", "secret-pw")
    await guest.register("listener-1", "secret-pw")
    room = await host.open_room(profile="standard", rounds=1, bots="L1")
    joined = await guest.join_room(room["code"])
    await host.start_room(room["code"])
    links = []
    for api, seat in ((host, room), (guest, joined)):
        link = GameLink(live.base, api.token)
        await link.connect()
        await link.join(seat["ticket"])
        links.append(link)
    await links[0].talk(phrase="hello")
    while (m := await links[1].recv())["type"] != "talk":
        pass
    assert (m["seat"], m["phrase"], m["emote"]) == (room["seat"], "hello", None)
    await links[1].mute([room["seat"]])
    await links[1].talk(emote="tea")
    while (m := await links[1].recv())["type"] != "talk":
        pass
    assert (m["seat"], m["emote"]) == (joined["seat"], "tea")
    for lk in links:
        await lk.close()

"""Voice at the table (開黑): the signalling the server relays between seats — to
whom, with which ICE servers, and one error for each abuse with the table untouched
— through the real app and real WebSockets, and across two cluster workers."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import re

import pytest
from server_helpers import UNLIMITED_TALK, Client
from test_redis_cluster import cluster  # noqa: F401  (the fixture)
from test_social import befriend, two_at_a_room

from twmahjong.server.settings import Settings, SettingsError
from twmahjong.server.social.voice import ice_servers, parse_ice_servers, turn_credential

SDP = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
SECRET = "turn-shared-secret-0123"
ICE = '[{"urls": "stun:stun.example.org:3478"}, {"urls": ["turn:turn.example.org:3478"]}]'


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def db_url(tmp_path) -> str:
    """Signalling never touches the database: one is enough (PostgreSQL when the run
    has one, as a cluster does; else SQLite)."""
    pg = os.environ.get("TWMJ_TEST_POSTGRES")
    if not pg:
        return f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"
    from twmahjong.drill import fresh_postgres
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return fresh_postgres(pg, f"twmj_test_{os.environ.get('TWMJ_TEST_TAG', '')}{worker}")


def signal(game_id: str, to: int, kind: str = "offer", sdp: str = SDP) -> dict:
    return {"type": "voice_signal", "game_id": game_id, "to": to, "kind": kind, "sdp": sdp}


def voice_seen(c: Client) -> list[dict]:
    return [m for m in c.seen if m["type"].startswith("voice")]


def test_two_seats_signal_each_other_and_every_abuse_is_one_error(make_live):
    # the voice limit well under the socket's own, to see each refusal it makes
    live = make_live(ice_servers=ICE, turn_secret=SECRET, voice_rate=0.001, voice_burst=8,
                     conn_burst=500, account_burst=500)
    ta, tw = live.register("開黑甲"), live.register("旁觀丙")     # friends: A's table watched
    tb, tc = live.guest(), live.guest()
    befriend(live, ta, tw)

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        snap = next(m for m in a.seen if m["type"] == "snapshot")
        assert snap["table"]["voice"] == {"allowed": True, "room": True, "seats": [],
                                          "listen": False, "listeners": []}
        bots = [i for i, s in enumerate(snap["table"]["seats"]) if s["bot"]]
        # a friend watches; someone else sits at another table
        w = await Client.open(live, tw, "W")
        await w.send({"type": "watch", "game_id": a.game_id})
        await w.expect("watching")
        r = live.http("POST", "/api/v1/rooms", tc, json={"bots": "L1"}).json()
        assert live.http("POST", f"/api/v1/rooms/{r['code']}/start", tc).status_code == 200
        other = r["game_id"]

        # A turns voice on: the ICE servers (TURN with A's own credential), nobody yet
        await a.send({"type": "voice", "on": True})
        joined = await a.expect("voice_joined")
        assert joined["seat"] == a.seat and joined["peers"] == []
        stun, turn = joined["ice_servers"]
        assert stun == {"urls": ["stun:stun.example.org:3478"]}
        me = live.http("GET", "/api/v1/me", ta).json()
        user = turn["username"]
        assert re.fullmatch(rf"\d{{10}}:{me['id']}", user)
        assert turn["credential"] == base64.b64encode(
            hmac.new(SECRET.encode(), user.encode(), hashlib.sha1).digest()).decode()
        assert (await b.expect("voice"))["seats"] == [a.seat]
        # B joins and calls A; A answers
        await b.send({"type": "voice", "on": True})
        assert (await b.expect("voice_joined"))["peers"] == [a.seat]
        await a.expect("voice", seats=sorted([a.seat, b.seat]))
        await b.send(signal(a.game_id, a.seat))
        got = await a.expect("voice_signal")
        assert got == {"v": 1, "type": "voice_signal", "seat": b.seat, "listener": None,
                       "kind": "offer", "sdp": SDP}
        await a.send(signal(a.game_id, b.seat, "answer"))
        assert (await b.expect("voice_signal"))["kind"] == "answer"

        # each abuse: one error to A, nothing to anyone else
        big = "v=0" + "a" * 3700
        for bad, code in (
                (signal(other, 1), "voice_other_table"),          # a seat at another table
                (signal(a.game_id, bots[0]), "voice_no_peer"),    # a bot: nobody
                (signal(a.game_id, a.seat), "voice_no_peer"),     # oneself
                (signal(a.game_id, 4), "bad_message"),            # no such seat
                (signal(a.game_id, b.seat, sdp=big), "bad_message"),   # over the sdp limit
                (signal(a.game_id, b.seat, sdp="x" * 5000), "too_large"),  # over the frame
                (signal(a.game_id, b.seat, "candidate"), "bad_message"),
                (signal(a.game_id, b.seat, sdp="hello"), "bad_message"),
                ({**signal(a.game_id, b.seat), "extra": 1}, "bad_message"),
                ({"type": "voice_signal", "to": b.seat}, "bad_message"),
                ({**signal(a.game_id, b.seat), "listener": 1}, "bad_message"),   # both
                ({**signal(a.game_id, 0), "to": None}, "bad_message"),           # neither
                ({**signal(a.game_id, 0), "to": None, "listener": 9}, "voice_no_peer"),
                ({"type": "voice", "on": "yes"}, "bad_message")):
            await a.send(bad)
            assert (await a.expect("error"))["code"] == code, bad
        # the watcher takes no part, and a connection at no table gets no ICE servers
        await w.send({"type": "voice", "on": True})
        assert (await w.expect("error"))["code"] == "voice_watcher"
        await w.send(signal(a.game_id, a.seat))
        assert (await w.expect("error"))["code"] == "voice_watcher"
        lobby = await Client.open(live, tc, "C")
        await lobby.send({"type": "voice", "on": True})
        assert (await lobby.expect("error"))["code"] == "not_seated"
        # a flood: past the burst (8; A spent 5: voice, answer, three to nobody) each
        # offer is refused with one error; the socket and the table stay
        for _ in range(20):
            await a.send(signal(a.game_id, b.seat))
        codes = [(await a.expect("error"))["code"] for _ in range(17)]
        assert codes == ["voice_too_fast"] * 17
        # the table is as it was: both still in voice, B heard only what was allowed
        await a.send({"type": "talk", "emote": "tea"})
        await b.expect("talk", seat=a.seat)
        heard = [m["kind"] for m in b.seen if m["type"] == "voice_signal"]
        assert heard == ["answer"] + ["offer"] * 3
        await a.send({"type": "ping"})
        await a.expect("pong")
        await b.send({"type": "voice", "on": False})
        assert (await a.expect("voice"))["seats"] == [a.seat]
        assert not voice_seen(w) and not voice_seen(lobby)   # watchers hear nothing
        assert not [m for m in a.seen if m["type"] == "error" and m["code"]
                    in ("internal_error", "flooding")]
        for c in (a, b, w, lobby):
            await c.close()
    run(go())


def test_strangers_at_a_quick_match_table_and_a_room_without_voice(make_live):
    live = make_live(bot_fill_wait=0.2)
    ta, tb = live.guest(), live.guest()

    async def go():
        a, b = await Client.open(live, ta, "A"), await Client.open(live, tb, "B")
        for c in (a, b):
            await c.send({"type": "quick_match", "mode": "casual"})
        for c in (a, b):
            await c.expect("matched")
            snap = await c.expect("snapshot")
        assert a.game_id == b.game_id
        assert snap["table"]["voice"] == {"allowed": True, "room": False, "seats": [],
                                          "listen": False, "listeners": []}
        # a quick-match table: voice only for one who allowed it with strangers
        await a.send({"type": "voice", "on": True})
        assert (await a.expect("error"))["code"] == "voice_quick"
        await a.send({"type": "voice", "on": True, "quick": True})
        assert (await a.expect("voice_joined"))["peers"] == []
        # B left voice off: an offer to B is refused, and B receives none
        await a.send(signal(a.game_id, b.seat))
        assert (await a.expect("error"))["code"] == "voice_no_peer"
        await a.send({"type": "talk", "emote": "cool"})
        await b.expect("talk", seat=a.seat)
        assert not [m for m in b.seen if m["type"] == "voice_signal"]
        await a.close()
        await b.close()

        # a room whose host forbade voice
        tc, td = live.guest(), live.guest()
        c, d = await two_at_a_room(live, tc, td, voice=False)
        snap = next(m for m in c.seen if m["type"] == "snapshot")
        assert snap["table"]["voice"]["allowed"] is False
        await c.send({"type": "voice", "on": True})
        assert (await c.expect("error"))["code"] == "voice_forbidden"
        await d.send({"type": "voice", "on": True})
        assert (await d.expect("error"))["code"] == "voice_forbidden"
        await c.close()
        await d.close()
    run(go())


def test_a_blocked_player_s_calls_never_reach_the_blocker(make_live):
    live = make_live(**UNLIMITED_TALK)     # the block is waited for by talking until it lands
    ta, tb = live.register("擋聲甲"), live.register("擋聲乙")

    async def go():
        a, b = await two_at_a_room(live, ta, tb)
        for c in (a, b):
            await c.send({"type": "voice", "on": True})
            await c.expect("voice_joined")
        await a.send(signal(a.game_id, b.seat))
        await b.expect("voice_signal", seat=a.seat)           # heard before the block
        assert live.http("POST", "/api/v1/friends/擋聲甲/block", tb).status_code == 200
        while True:              # until the block reached B's connection (a notice)
            await a.send({"type": "talk", "emote": "laugh"})
            await a.expect("talk", seat=a.seat)
            await b.send({"type": "talk", "emote": "fire"})
            if (await b.expect("talk"))["seat"] == b.seat:
                break
            await b.expect("talk", seat=b.seat)
        await a.send(signal(a.game_id, b.seat))
        await a.send({"type": "talk", "emote": "cool"})
        await a.expect("talk", seat=a.seat, emote="cool")     # the offer went before it
        await b.send({"type": "talk", "emote": "tea"})
        await b.expect("talk", seat=b.seat, emote="tea")
        assert len([m for m in b.seen if m["type"] == "voice_signal"]) == 1
        await a.close()
        await b.close()
    run(go())


def test_voice_crosses_cluster_workers_and_a_watcher_listens_where_the_host_allows(
        cluster):  # noqa: F811
    p1, p2 = cluster(), cluster()
    ta, tb = p1.register("北邊開黑"), p2.guest()
    tw = p2.register("南邊旁聽")
    befriend(p1, ta, tw)

    async def go():
        room = p1.http("POST", "/api/v1/rooms", ta,
                       json={"bots": "L1", "voice_watchers": True}).json()
        assert room["room"]["voice_watchers"] is True
        seat_b = p2.http("POST", f"/api/v1/rooms/{room['code']}/join", tb).json()
        assert p1.http("POST", f"/api/v1/rooms/{room['code']}/start", ta).status_code == 200
        a, b = await Client.open(p1, ta, "A"), await Client.open(p2, tb, "B")
        for c, s in ((a, room), (b, seat_b)):
            c.seat = s["seat"]
            await c.send({"type": "join", "ticket": s["ticket"]})
            await c.expect("snapshot")
        game = room["game_id"]
        await a.send({"type": "voice", "on": True})
        await a.expect("voice_joined")
        await b.expect("voice", seats=[a.seat])
        await b.send({"type": "voice", "on": True})
        assert (await b.expect("voice_joined"))["peers"] == [a.seat]
        await b.send(signal(game, a.seat))
        assert (await a.expect("voice_signal"))["seat"] == b.seat
        await a.send(signal(game, b.seat, "answer"))
        assert (await b.expect("voice_signal"))["kind"] == "answer"
        await b.send(signal(game, 3))                      # a bot's seat: refused by the owner
        assert (await b.expect("error"))["code"] == "voice_no_peer"

        # W watches from the other worker; the host lets watchers listen
        w = await Client.open(p2, tw, "W")
        await w.send({"type": "watch", "game_id": game})
        watching = await w.expect("watching")
        assert watching["table"]["voice"]["listen"] is True
        await w.send({"type": "voice", "on": True})
        joined = await w.expect("voice_joined")
        assert joined["seat"] is None and joined["peers"] == sorted([a.seat, b.seat])
        me = joined["listener"]
        assert (await a.expect("voice", listeners=[me]))["seats"] == sorted([a.seat, b.seat])
        await w.send({**signal(game, a.seat), "sdp": SDP + "a=recvonly\r\n"})
        got = await a.expect("voice_signal", listener=me)
        assert got["seat"] is None and got["sdp"].endswith("a=recvonly\r\n")
        await a.send({**signal(game, 0, "answer"), "to": None, "listener": me})
        assert (await w.expect("voice_signal"))["seat"] == a.seat
        # a listener calls seats in voice only, and is never called by one
        await w.send({**signal(game, 3)})
        assert (await w.expect("error"))["code"] == "voice_no_peer"
        await w.send({**signal(game, 0), "to": None, "listener": me})
        assert (await w.expect("error"))["code"] == "voice_no_peer"
        await w.send({"type": "unwatch"})                  # no longer watching: no longer listening
        await a.expect("voice", listeners=[])
        await b.close()                                    # B's seat leaves voice with it
        await a.expect("voice", seats=[a.seat])
        await a.close()
        await w.close()
    run(go())


def test_ice_servers_setting_and_turn_credentials():
    assert parse_ice_servers("") == []
    assert parse_ice_servers('[{"urls": "turn:t.example:3478", "username": "u", '
                             '"credential": "p"}]') == [
        {"urls": ["turn:t.example:3478"], "username": "u", "credential": "p"}]
    for bad in ("http://example.org", "[{}]", '[{"urls": "stun:x", "pass": 1}]', "[1", "{}"):
        with pytest.raises(SettingsError, match="ice_servers"):
            Settings.from_env({"TWMJ_ICE_SERVERS": bad})
    user, cred = turn_credential("k" * 16, 42, now=1_700_000_000, ttl=3600)
    assert user == "1700003600:42"
    assert cred == base64.b64encode(hmac.new(b"k" * 16, user.encode(),
                                             hashlib.sha1).digest()).decode()
    # credentials only for TURN servers that have none of their own
    st = Settings(ice_servers='[{"urls": "stun:s.example"}, {"urls": "turn:t.example"}, '
                              '{"urls": "turns:u.example", "username": "x", "credential": "y"}]',
                  turn_secret="k" * 16)
    got = ice_servers(st, 5)
    assert "username" not in got[0] and got[1]["username"].endswith(":5")
    assert got[2]["username"] == "x"


def test_voice_messages_are_the_models_output_byte_for_byte():
    from twmahjong.server.net import protocol as P
    state = {"seats": [0, 2], "listeners": [1]}
    assert P.message("voice", **state) == P.out(P.VoiceState(**state))
    for who in ({"seat": 1, "listener": None}, {"seat": None, "listener": 3}):
        joined = {**who, "ice_servers": [{"urls": ["stun:s.example"]}], "peers": [0]}
        assert P.message("voice_joined", **joined) == P.out(P.VoiceJoined(**joined))
        sig = {**who, "kind": "offer", "sdp": SDP}
        assert P.message("voice_signal", **sig) == P.out(P.VoiceSignalOut(**sig))

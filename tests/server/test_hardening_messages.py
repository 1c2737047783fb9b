"""Inbound WebSocket messages are checked strictly: every field of the catalogue
refuses a value of the wrong type (no "yes" for true, no true for 1, no "3" for 3),
``v`` is exactly 1, and 下一局 during a hand is answered, not ignored."""

import asyncio

import pytest
from server_helpers import Client
from test_server_play import quick_match

from twmahjong.server.net import protocol as P

# one good example of each client message type: the catalogue
GOOD = {
    "hello": {"type": "hello", "token": "t", "ticket": "k"},
    "quick_match": {"type": "quick_match", "mode": "casual", "profile": "standard",
                    "stake": "low"},
    "cancel_match": {"type": "cancel_match"},
    "join": {"type": "join", "ticket": "k"},
    "action": {"type": "action", "action": {"type": "discard", "tile": "1m"}, "turn": 3},
    "ping": {"type": "ping"},
    "ready": {"type": "ready"},
    "auto": {"type": "auto", "on": True},
    "talk": {"type": "talk", "phrase": "hi"},
    "watch": {"type": "watch", "game_id": "g"},
    "unwatch": {"type": "unwatch"},
    "mute": {"type": "mute", "seats": [1, 2]},
    "hint": {"type": "hint", "turn": 3},
    "voice": {"type": "voice", "on": True, "quick": False},
    "voice_signal": {"type": "voice_signal", "game_id": "g", "to": 1, "kind": "offer",
                     "sdp": "v=0\r\n"},
}

# per field, values of a wrong JSON type (each must be refused)
WRONG = {
    ("hello", "token"): [1, True, ["t"], {"t": 1}],
    ("hello", "ticket"): [1, False],
    ("quick_match", "mode"): [1, True, None],
    ("quick_match", "profile"): [7, True],
    ("quick_match", "stake"): [0, False],
    ("join", "ticket"): [5, None, True],
    ("action", "turn"): ["3", 3.0, True, -1],
    ("action", "action"): ["discard", [1], None],
    ("auto", "on"): ["yes", "true", 1, 0, None, [True]],
    ("talk", "phrase"): [1, True],
    ("talk", "emote"): [1, False],
    ("watch", "game_id"): [1, None, True],
    ("mute", "seats"): ["1", [True], [1.0], ["1"], 1, None],
    ("hint", "turn"): ["3", 3.0, True, -1],
    ("voice", "on"): ["yes", 1, None],
    ("voice", "quick"): ["true", 0],
    ("voice_signal", "to"): ["1", 1.0, True],
    ("voice_signal", "listener"): ["1", 2.5, False],
    ("voice_signal", "kind"): [1, "candidate", None],
    ("voice_signal", "sdp"): [1, None, ["v=0"]],
}
WRONG_ACTION = {"type": [1, True], "tile": [1, True], "tiles": [12, False]}


def test_every_good_message_of_the_catalogue_is_taken():
    assert set(GOOD) == {m.model_fields["type"].annotation.__args__[0]
                         for m in P.ClientMessage.__origin__.__args__}
    for name, frame in GOOD.items():
        assert P.parse_client(P.orjson.dumps(frame), 4096).type == name


@pytest.mark.parametrize("where", sorted(WRONG), ids="-".join)
def test_a_field_of_the_wrong_type_is_refused(where):
    name, field = where
    for value in WRONG[where]:
        frame = {**GOOD[name], field: value}
        with pytest.raises(P.ProtocolError) as e:
            P.parse_client(P.orjson.dumps(frame), 4096)
        assert e.value.code == "bad_message", (frame, e.value.code)
        assert field in str(e.value), (frame, str(e.value))


def test_an_action_body_of_the_wrong_types_is_refused():
    for field, values in WRONG_ACTION.items():
        for value in values:
            frame = {**GOOD["action"], "action": {"type": "discard", "tile": "1m",
                                                  field: value}}
            with pytest.raises(P.ProtocolError) as e:
                P.parse_client(P.orjson.dumps(frame), 4096)
            assert e.value.code == "bad_message", frame


@pytest.mark.parametrize("v", [True, 1.0, "1", None, 2, 0, False])
def test_the_version_is_exactly_one(v):
    for frame in GOOD.values():
        with pytest.raises(P.ProtocolError) as e:
            P.parse_client(P.orjson.dumps({**frame, "v": v}), 4096)
        assert e.value.code == "bad_version"
    assert P.parse_client(b'{"v": 1, "type": "ping"}', 4096).type == "ping"


def test_ready_during_a_hand_is_answered_with_an_error(make_live):
    live = make_live()

    async def go():
        a, b = await quick_match(live, 2)
        await a.send({"type": "ready"})
        # 託管 on goes through the table's inbox after the ready: its presence comes
        # after whatever the ready got
        await a.send({"type": "auto", "on": True})
        while True:
            err = await a.recv()
            if err["type"] == "error" or (err["type"] == "presence" and err["auto"]
                                          and err["seat"] == a.seat):
                break
        others = [m for m in await b.quiet(0.3) if m["type"] in ("error", "ready")]
        await a.close()
        await b.close()
        return err, others
    err, others = asyncio.run(go())
    assert err["code"] == "hand_in_play" and "下一局" in err["message"]
    assert others == []


def test_auto_yes_is_refused_on_the_wire(live):
    async def go():
        c = await Client.open(live, live.guest())
        await c.send({"type": "auto", "on": "yes"})
        e1 = await c.recv()                # old servers took "yes" (then: not_seated)
        await c.send({"v": True, "type": "ping"})
        e2 = await c.recv()
        await c.close()
        return e1, e2
    e1, e2 = asyncio.run(go())
    assert (e1.get("code"), e2.get("code")) == ("bad_message", "bad_version")

"""The player's table, server side: the result stays up until every
person pressed 下一局 (or ``hand_pause`` ran out), 託管 on and off at the
player's word, table speeds, and errors that name their reason."""

from __future__ import annotations

import asyncio
import time

from server_helpers import Client, simple_policy
from test_server_play import quick_match

from twmahjong.tiles import parse_tiles


def run(coro):
    return asyncio.run(coro)


def test_the_result_stays_until_every_person_pressed_next(make_live):
    live = make_live(hand_pause=600.0)

    async def go():
        a, b = await quick_match(live, 2)
        ends = await asyncio.gather(a.play_hand(), b.play_hand())
        # nobody pressed 下一局: no deal comes, however fast the bots are
        before = [m["type"] for m in await a.quiet(0.6)]
        await a.send({"type": "ready"})
        first = await b.expect("ready")
        still = [m["type"] for m in await b.quiet(0.6)]
        await b.send({"type": "ready"})
        start = await a.expect("hand_start")
        for c in (a, b):
            await c.close()
        return a, b, ends, before, first, still, start

    a, b, ends, before, first, still, start = run(go())
    assert sorted(ends[0]["waiting"]) == sorted([a.seat, b.seat])
    assert 500 < ends[0]["next_in"] <= 600
    assert "hand_start" not in before
    assert first["seat"] == a.seat and first["waiting"] == [b.seat]
    assert "hand_start" not in still
    assert start["hand_no"] == 2


def test_the_next_deal_comes_when_the_countdown_runs_out(make_live):
    live = make_live(hand_pause=0.3)

    async def go():
        (a,) = await quick_match(live, 1)
        end = await a.play_hand()
        start = await a.expect("hand_start")
        await a.close()
        return a, end, start

    a, end, start = run(go())
    assert end["waiting"] == [a.seat] and 0 < end["next_in"] <= 0.3
    assert start["hand_no"] == 2


def test_a_player_hands_the_seat_to_the_bot_and_takes_it_back(make_live):
    live = make_live(hand_pause=0.05, turn_base=30.0)

    async def go():
        (a,) = await quick_match(live, 1)
        await a.send({"type": "auto", "on": True})
        on = await a.expect("presence", seat=a.seat, auto=True)
        # the bot plays: the seat discards without its player
        while True:
            m = await a.recv()
            if any(ev["type"] == "discard" and ev["seat"] == a.seat
                   for ev in m.get("events", [])):
                break
        await a.send({"type": "auto", "on": False})
        off = await a.expect("presence", seat=a.seat, auto=False)
        # the next decision waits for the player, with their clock
        while not (a.my_decision() and a.seen[-1].get("timer")):
            await a.recv()
        offered = a.seen[-1]
        later = await a.quiet(1.0)
        mine = [ev for m in later for ev in m.get("events", [])
                if ev["type"] in ("discard", "chi", "pon", "kong") and ev["seat"] == a.seat]
        await a.act(simple_policy(a.obs))
        await a.close()
        return on, off, offered, mine

    on, off, offered, mine = run(go())
    assert on["auto"] is True and off["auto"] is False
    assert offered["timer"]["base"] > 20
    assert mine == []


def test_a_room_is_made_at_a_chosen_speed(make_live):
    live = make_live(turn_base=10.0, turn_bank=20.0)
    token = live.guest()
    r = live.http("POST", "/api/v1/rooms", token, json={"speed": "slow"})
    assert r.status_code == 201, r.text
    seat = r.json()
    assert seat["room"]["speed"] == "slow"
    assert live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token).status_code == 200

    async def go():
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": seat["ticket"]})
        snap = await c.expect("snapshot")
        await c.close()
        return snap

    snap = run(go())
    assert snap["table"]["speed"] == "slow"
    assert snap["table"]["turn_time"] == {"base": 20.0, "bank": 40.0}
    assert snap["table"]["lilgu"] is False        # standard: 嚦咕嚦咕 is optional, off
    bad = live.http("POST", "/api/v1/rooms", token, json={"speed": "warp"})
    assert bad.status_code == 422 and bad.json()["error"]["reason"] == "invalid_field"


def test_errors_name_their_reason(live):
    r = live.http("POST", "/api/v1/accounts", json={"name": "阿明", "password": "123"})
    assert r.status_code == 400
    assert r.json()["error"] == {"code": "bad_request", "reason": "password_length",
                                 "message": "a password has 6 to 128 characters"}
    live.register("阿明")
    r = live.http("POST", "/api/v1/accounts", json={"name": "阿明", "password": "secret-pw"})
    assert (r.status_code, r.json()["error"]["reason"]) == (409, "name_taken")
    r = live.http("POST", "/api/v1/sessions", json={"name": "阿明", "password": "wrong-pw"})
    assert (r.status_code, r.json()["error"]["reason"]) == (401, "wrong_password")
    r = live.http("GET", "/api/v1/rooms/ZZZZZZ", live.guest())
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    assert r.json()["error"]["reason"] == "room_not_found"


def test_the_daily_bonus_is_paid_once_a_day_through_the_ledger(live, monkeypatch):
    from twmahjong.server.net import http_api
    token = live.guest()
    # the day a new account got its 新人禮包 counts as paid
    r = live.http("POST", "/api/v1/me/daily", token)
    assert r.status_code == 200 and r.json()["paid"] == 0 and r.json()["coins"] == 10_000
    # a new day begins (after the welcome row): paid once, then not again that day
    new_day = time.time() + 0.001
    while time.time() <= new_day:
        pass
    monkeypatch.setattr(http_api, "day_start", lambda now: new_day)
    first = live.http("POST", "/api/v1/me/daily", token).json()
    again = live.http("POST", "/api/v1/me/daily", token).json()
    assert (first["paid"], first["coins"]) == (500, 10_500)
    assert (again["paid"], again["coins"]) == (0, 10_500)
    ledger = live.http("GET", "/api/v1/me/ledger", token).json()
    assert [(row["reason"], row["amount"]) for row in ledger["rows"]] == [("welcome", 10_000),
                                                                         ("daily", 500)]
    assert ledger["balance"] == sum(row["amount"] for row in ledger["rows"])


def test_hand_pause_gives_a_person_time_to_read_the_result_by_default():
    from twmahjong.server.settings import Settings
    assert Settings().hand_pause >= 15
    assert 10 <= Settings().turn_base <= 15


STACK = {"hands": ["123m456m789m123p78p99s5z", "1234568s1234567z45p", "1234568s1234567z45p",
                   "1234568s1234567z45p"], "draws": "6p", "dealer": 0}


def test_a_stacked_wall_is_refused_outside_test_mode(live):
    token = live.guest()
    r = live.http("POST", "/api/v1/rooms", token, json={"wall": STACK})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "forbidden" and r.json()["error"]["reason"] == "test_only"


def test_a_test_mode_server_deals_a_stacked_wall(make_live):
    live = make_live(test_mode=True, turn_base=30.0)
    token = live.guest()
    bad = live.http("POST", "/api/v1/rooms", token,
                    json={"wall": {**STACK, "hands": ["5z" * 17] + STACK["hands"][1:]}})
    assert bad.status_code == 422 and bad.json()["error"]["reason"] == "bad_stack"
    r = live.http("POST", "/api/v1/rooms", token, json={"wall": STACK})
    assert r.status_code == 201, r.text
    seat = r.json()
    assert live.http("POST", f"/api/v1/rooms/{seat['code']}/start", token).status_code == 200

    async def go():
        c = await Client.open(live, token)
        await c.send({"type": "join", "ticket": seat["ticket"]})
        snap = await c.expect("snapshot")
        while not c.my_decision():
            await c.recv()
        await c.act({"type": "discard", "tile": "5z"})
        while not (c.my_decision() and any(a["type"] == "win" for a in c.my_decision())):
            await c.recv()
        win = c.my_decision()
        await c.close()
        return snap, win

    snap, win = run(go())
    # the dealer's 17 stacked tiles: at its turn the 17th is shown apart, as ``drawn``
    # (whether the snapshot comes before or after the 天聽 window closes is timing)
    obs = snap["observation"]
    assert sorted(parse_tiles(obs["hand"] + (obs.get("drawn") or ""))) == \
        sorted(parse_tiles("123456789m12378p99s5z"))
    assert [s["name"] for s in snap["table"]["seats"][1:]] == ["bot:rote"] * 3
    assert {"type": "win", "tile": "6p"} in win


def _voice_folder(tmp_path):
    root = tmp_path / "voices"
    (root / "cmn").mkdir(parents=True)
    (root / "nan").mkdir()
    (root / "cmn" / "pon.mp3").write_bytes(b"ID3\x04\x00" + b"\x00" * 64)
    (root / "nan" / "win.ogg").write_bytes(b"OggS" + b"\x00" * 64)
    (root / "nan" / "chi.wav").write_bytes(b"not audio at all")
    (root / "nan" / "hello.mp3").write_bytes(b"ID3" + b"\x00" * 8)
    (root / "yue").mkdir()
    return root


def test_a_voice_pack_is_checked_and_each_bad_file_named(tmp_path):
    from twmahjong.server.net.voices import scan
    packs, problems = scan(_voice_folder(tmp_path))
    assert packs == {"cmn": {"pon": "pon.mp3"}, "nan": {"win": "win.ogg"}}
    text = "\n".join(problems)
    assert "chi.wav: not a .wav audio file" in text
    assert "hello.mp3: not a call clip" in text
    assert "yue: not a voice folder" in text


def test_the_server_serves_the_recorded_calls_it_accepted(make_live, tmp_path):
    live = make_live(voice_dir=_voice_folder(tmp_path))
    r = live.http("GET", "/api/v1/voices")
    assert r.json()["voices"] == {"cmn": ["pon"], "nan": ["win"]}
    clip = live.http("GET", "/api/v1/voices/nan/win")
    assert clip.status_code == 200 and clip.headers["content-type"] == "audio/ogg"
    assert clip.content.startswith(b"OggS")
    assert live.http("GET", "/api/v1/voices/nan/chi").status_code == 404       # refused at start
    assert live.http("GET", "/api/v1/voices/..%2Fcmn/pon").status_code == 404


def test_a_profile_s_table_rules_are_data_for_the_rules_page(live):
    r = live.http("GET", "/api/v1/profiles/standard/rules").json()
    assert r["play"]["dead_wall"] == 16 and r["play"]["no_claims_last"] == 3
    assert r["play"]["passed_win"] == "until_non_winning_discard"
    assert r["tai"]["dealer_streak"] == 2 and r["tai"]["last_tile"] == 1
    assert live.http("GET", "/api/v1/profiles/nope/rules").status_code == 404

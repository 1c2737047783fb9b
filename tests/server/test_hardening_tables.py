"""Hardening, the tables and the WebSocket side: a cap and a rate on tables, idle rooms
that expire, /health by state, nested frames, bounded limiters, the seat ticket.
Each test prints the figure it shows (``-s``)."""

import asyncio
import logging
from types import SimpleNamespace

import pytest
from server_helpers import Client

from twmahjong.server.net.limits import Limiter, Limits, active_seats, table_state
from twmahjong.server.net.protocol import ProtocolError, parse_client
from twmahjong.server.play.lobby import LobbyError, Rooms
from twmahjong.server.settings import Settings


def run(coro):
    return asyncio.run(coro)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _ask_for_tables(live, token, n, **frame) -> list[str]:
    """Send ``n`` requests for a table at once; what each was answered: "matched" or
    an error code (in the order the answers came)."""
    c = await Client.open(live, token)
    for _ in range(n):
        await c.send({"type": "quick_match", **frame})
    answers = []
    while len(answers) < n:
        m = await c.recv()
        if m["type"] == "matched":
            answers.append("matched")
        elif m["type"] == "error":
            answers.append(m["code"])
    await c.close()
    return answers


# -- 4. tables ---------------------------------------------------------------------------------
def test_one_connection_cannot_open_unlimited_challenge_tables(make_live):
    # nobody comes back to the tables left behind, and no clock runs out: they stay
    # unfinished for the whole test however slow the machine
    live = make_live(max_active_tables=3, create_burst=100, disconnect_grace=600,
                     turn_base=600)
    guest = live.guest()
    answers = run(_ask_for_tables(live, guest, 25, mode="challenge"))
    assert answers.count("matched") == 3 and answers.count("too_many_tables") == 22
    assert len(live.server.tables.all()) == 3
    # the way back to a table left behind (its ticket lost): my games, each with its ticket
    games = live.http("GET", "/api/v1/games", guest).json()["games"]
    assert [g["status"] for g in games] == ["active"] * 3 and all(g["ticket"] for g in games)

    async def back():
        c = await Client.open(live)
        await c.send({"type": "hello", "token": guest, "ticket": games[2]["ticket"]})
        snap = await c.expect("snapshot")
        await c.close()
        return snap
    assert run(back())["table"]["game_id"] == games[2]["game_id"]
    print("\n25 challenge requests on one connection -> 3 tables, 22 answered too_many_tables")


def test_several_connections_of_one_account_share_the_cap(make_live):
    live = make_live(max_active_tables=1, create_burst=100, disconnect_grace=600,
                     turn_base=600)
    guest = live.guest()

    async def go():
        clients = [await Client.open(live, guest) for _ in range(6)]
        await asyncio.gather(*(c.send({"type": "quick_match", "mode": "challenge"})
                               for c in clients))
        answers = []
        for c in clients:
            while True:
                m = await c.recv()
                if m["type"] in ("matched", "error"):
                    answers.append(m.get("code", "matched"))
                    break
        for c in clients:
            await c.close()
        return answers
    answers = run(go())
    assert sorted(answers) == ["matched"] + ["too_many_tables"] * 5
    print("\n6 connections of one account ask at once, cap 1 -> 1 table, 5 too_many_tables")


def test_tables_are_made_at_a_limited_rate_over_websocket_and_http(make_live):
    live = make_live(max_active_tables=100, create_rate=0.001, create_burst=5,
                     disconnect_grace=600, turn_base=600)
    answers = run(_ask_for_tables(live, live.guest(), 25, mode="challenge"))
    assert answers.count("matched") == 5 and answers.count("rate_limited") == 20
    host = live.guest()
    rooms = [live.http("POST", "/api/v1/rooms", host, json={}) for _ in range(25)]
    statuses = [r.status_code for r in rooms]
    assert statuses == [201] * 5 + [429] * 20
    assert {r.json()["error"]["code"] for r in rooms[5:]} == {"rate_limited"}
    print(f"\n25 challenge tables asked over WS -> {answers.count('matched')} made, "
          f"{answers.count('rate_limited')} rate_limited; 25 rooms over HTTP -> "
          f"{statuses.count(201)} made, {statuses.count(429)} answered 429")


def test_rooms_count_against_the_cap_for_the_host_and_for_who_joins(make_live):
    live = make_live(max_active_tables=2)
    host, friend = live.guest(), live.guest()
    made = [live.http("POST", "/api/v1/rooms", host, json={}) for _ in range(3)]
    assert [r.status_code for r in made] == [201, 201, 409]
    assert made[2].json()["error"]["code"] == "too_many_tables"
    other = live.http("POST", "/api/v1/rooms", friend, json={}).json()["code"]
    second = live.http("POST", "/api/v1/rooms", friend, json={}).json()["code"]
    r = live.http("POST", f"/api/v1/rooms/{made[0].json()['code']}/join", friend)
    assert (r.status_code, r.json()["error"]["code"]) == (409, "too_many_tables")
    # a seat already taken is no new table: the friend's own rooms still answer
    assert live.http("POST", f"/api/v1/rooms/{other}/join", friend).status_code == 200
    assert live.http("POST", f"/api/v1/rooms/{second}/join", friend).status_code == 200


def test_idle_rooms_expire_and_leave_no_trace(make_live):
    live = make_live()
    clock = FakeClock()
    live.server.rooms.clock = clock
    host = live.guest()
    room = live.http("POST", "/api/v1/rooms", host, json={}).json()
    assert live.http("GET", "/api/v1/health").json()["rooms_waiting"] == 1
    clock.now += live.settings.room_idle_ttl + 1
    r = live.http("GET", f"/api/v1/rooms/{room['code']}", host)
    assert (r.status_code, r.json()["error"]["code"]) == (404, "not_found")
    assert live.http("GET", "/api/v1/health").json()["rooms_waiting"] == 0
    assert run(live.server.rooms.by_game(room["game_id"])) is None

    async def late():           # the expired room's ticket seats nobody
        c = await Client.open(live, host)
        await c.send({"type": "join", "ticket": room["ticket"]})
        err = await c.expect("error")
        await c.close()
        return err
    assert run(late())["code"] == "no_table"
    print(f"\nan unstarted room after room_idle_ttl ({live.settings.room_idle_ttl:.0f} s) "
          "-> 404, 0 rooms waiting")


def test_health_reports_tables_by_state(make_live):
    live = make_live(disconnect_grace=600, turn_base=600)
    run(_ask_for_tables(live, live.guest(), 1, mode="challenge"))
    live.http("POST", "/api/v1/rooms", live.guest(), json={})
    health = live.http("GET", "/api/v1/health").json()
    assert health["tables"] == 1 and sum(health["table_states"].values()) == 1
    assert set(health["table_states"]) <= {"waiting", "between_hands", "playing", "paused"}
    assert health["rooms_waiting"] == 1
    print(f"\n/health -> {health}")


def test_a_tables_state_is_its_own_or_read_from_its_flags():
    done = SimpleNamespace(done=lambda: True)
    live_task = SimpleNamespace(done=lambda: False)

    def table(**kw):
        return SimpleNamespace(**{"finished": False, "hand_open": False, "task": live_task,
                                  **kw})
    assert [table_state(t) for t in (
        table(finished=True, task=done), table(task=done), table(hand_open=True), table(),
        table(state="paused"))] == ["ended", "stopped", "playing", "waiting", "paused"]
    # against the cap: a paused table counts, an ended one or one whose actor died does not
    me = [SimpleNamespace(account_id=7)]
    server = SimpleNamespace(rooms=Rooms(), tables=SimpleNamespace(all=lambda: [
        table(seats=me, state="paused"), table(seats=me, task=done),
        table(seats=me, finished=True), table(seats=me, hand_open=True)]))
    assert run(active_seats(server, 7)) == 2 and run(active_seats(server, 8)) == 0


# -- 7. nested JSON ----------------------------------------------------------------------------
def test_a_deeply_nested_frame_is_answered_with_error_and_one_log_line(make_live, caplog):
    live = make_live()

    async def go():
        c = await Client.open(live, live.guest())
        answers = []
        for frame in ("[" * 1500, '{"a":' * 800, '{"type": "ping", "x": ' + "[" * 40 + "]" * 40
                      + "}"):
            await c.send(frame)
            answers.append((await c.expect("error"))["code"])
        await c.send({"type": "ping"})
        await c.expect("pong")              # the connection is still there
        await c.close()
        return answers
    with caplog.at_level(logging.WARNING, logger="twmahjong"):
        answers = run(go())
    assert answers == ["too_deep"] * 3
    mine = [r for r in caplog.records if r.name.startswith("twmahjong")]
    assert len(mine) == 3 and all(r.exc_info is None for r in mine)
    assert all("nests deeper" in r.getMessage() for r in mine)
    print("\n'[' * 1500 -> error too_deep, 1 log line per frame, no traceback, link kept")


def test_depth_is_counted_before_parsing_and_strings_do_not_count():
    with pytest.raises(ProtocolError) as e:
        parse_client("[" * 100_000, 10**6, 16)
    assert e.value.code == "too_deep"
    ok = parse_client('{"type": "join", "ticket": "' + "[{" * 100 + '"}', 4096, 4)
    assert ok.ticket.startswith("[{")
    with pytest.raises(ProtocolError) as e:
        parse_client('{"type": "ping", "a": [[[[1]]]]}', 4096, 4)
    assert e.value.code == "too_deep"


# -- 8. memory that only grows -----------------------------------------------------------------
def test_limiter_buckets_are_bounded_and_expire():
    clock = FakeClock()
    lim = Limiter(1.0, 5, max_keys=100, clock=clock)
    for i in range(10_000):
        lim.take(f"10.0.{i // 256}.{i % 256}")
    assert len(lim) == 100
    clock.now += 5.01                   # every bucket full again: none is worth keeping
    assert len(lim) == 0
    for _ in range(5):
        lim.take("busy")
    assert not lim.take("busy")
    clock.now += 2                      # 2 tokens back: forgetting it now would give 5
    assert len(lim) == 1 and lim.take("busy") and lim.take("busy") and not lim.take("busy")
    print("\n10,000 client addresses -> 100 buckets kept; after a full refill -> 0")


def test_every_server_limit_is_bounded_by_the_setting():
    clock = FakeClock()
    limits = Limits(Settings(secret_key="k", limiter_keys=16), clock)
    for lim in limits.all().values():
        for i in range(1000):
            lim.take(i)
        assert len(lim) == 16
    clock.now += 10_000
    assert all(len(lim) == 0 for lim in limits.all().values())


def test_rooms_expire_and_are_found_by_game_through_an_index():
    clock = FakeClock()
    rooms = Rooms(idle_ttl=60, clock=clock)

    async def scenario():
        opened = [await rooms.open((i, f"p{i}"), "standard", "low", 1, f"g_{i}")
                  for i in range(1000)]
        assert all([await rooms.by_game(f"g_{i}") is r for i, r in enumerate(opened)])
        clock.now += 50
        await rooms.join(opened[0].code, (5000, "friend"))   # a join keeps a room alive
        clock.now += 11
        assert len(rooms) == 1 and await rooms.by_game("g_1") is None
        with pytest.raises(LobbyError):
            await rooms.get(opened[1].code)
        await rooms.start(opened[0].code)                  # a started room waits for its game
        clock.now += 10_000
        assert len(rooms) == 1 and await rooms.waiting_count() == 0
        await rooms.close(opened[0].code)
        assert len(rooms) == 0 and rooms._by_game == {} and not rooms._idle
    run(scenario())
    print("\n1,000 idle rooms -> 0 after room_idle_ttl; the one joined lives on")


# -- 13. the seat ticket -----------------------------------------------------------------------
def test_the_ticket_is_sent_once_and_is_no_login_without_the_session(make_live):
    live = make_live(disconnect_grace=600)
    guest, stranger = live.guest(), live.guest()

    async def go():
        a = await Client.open(live, guest)
        await a.send({"type": "quick_match", "mode": "challenge"})
        matched = await a.expect("matched")
        first = await a.expect("snapshot")
        await a.close()
        # the ticket alone: refused, nobody sits down
        thief = await Client.open(live)
        await thief.send({"type": "hello", "ticket": matched["ticket"]})
        alone = await thief.expect("error")
        await thief.send({"type": "ping"})
        await thief.expect("pong")
        # with another account's session: refused
        other = await Client.open(live, stranger)
        await other.send({"type": "join", "ticket": matched["ticket"]})
        wrong = await other.expect("error")
        # the player, token and ticket: back at the seat (a guest too)
        back = await Client.open(live)
        await back.send({"type": "hello", "token": guest, "ticket": matched["ticket"]})
        await back.expect("welcome")
        again = await back.expect("snapshot")
        for c in (thief, other, back):
            await c.close()
        return first, alone, thief.seen, wrong, again
    first, alone, thief_seen, wrong, again = run(go())
    assert "ticket" not in first and "ticket" not in again
    assert alone["code"] == "auth" and not [m for m in thief_seen if m["type"] == "snapshot"]
    assert wrong["code"] == "auth" and "another player" in wrong["message"]
    assert again["table"]["game_id"] == first["table"]["game_id"]
    print("\nsnapshots carry no ticket; hello with the ticket alone -> auth error, not seated; "
          "token + ticket -> the seat back")


def test_a_registered_player_sits_back_down_with_token_and_ticket(make_live):
    live = make_live(disconnect_grace=600)
    host = live.register("hosty")
    room = live.http("POST", "/api/v1/rooms", host, json={}).json()
    assert live.http("POST", f"/api/v1/rooms/{room['code']}/start", host).status_code == 200

    async def go():
        seen = []
        for _ in range(2):                 # sit down, drop, sit down again
            c = await Client.open(live)
            await c.send({"type": "hello", "token": host, "ticket": room["ticket"]})
            seen.append(await c.expect("snapshot"))
            await c.close()
        return seen
    snaps = run(go())
    assert [s["observation"]["seat"] for s in snaps] == [0, 0]

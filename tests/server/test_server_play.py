"""Real WebSocket clients against the real app: the game server's integration tests.

Four players quick-match and play a hand to settlement; three players and a bot;
a player drops mid-hand and takes the seat back; the server restarts mid-hand and
the table resumes where it was.
"""

import asyncio
import hashlib

from server_helpers import Client, simple_policy

from twmahjong.engine import HandState
from twmahjong.profiles import load_profile
from twmahjong.server.store.db import create_engine
from twmahjong.server.store.repository import SqlRepository


def run(coro):
    return asyncio.run(coro)


async def stored(db_url, fn):
    """Look at the database from the test's own engine (never the server's loop)."""
    engine = create_engine(db_url)
    try:
        return await fn(SqlRepository(engine))
    finally:
        await engine.dispose()


def live_first_dealer(db_url, game_id) -> int:
    """Who dealt first: the engine picks it from the match seed (定莊)."""
    from twmahjong.engine.match import Match

    async def opts(repo):
        return (await repo.game(game_id))["options"]
    o = run(stored(db_url, opts))
    return Match(load_profile("standard"), seed=int(o["seed"]), rounds=1).first_dealer


def assert_nothing_hidden_leaked(client: Client) -> None:
    """Other seats' dealt hands and draws arrive as '?', and observations carry
    only the seat's own concealed tiles (the counts of the others)."""
    for m in client.seen:
        for ev in m.get("events", []):
            if ev["type"] == "deal":
                assert [h == "?" for h in ev["hands"]] == [i != client.seat for i in range(4)]
            if ev["type"] == "draw" and ev["seat"] != client.seat:
                assert ev["tile"] == "?"
        obs = m.get("observation")
        if obs:
            assert obs["seat"] == client.seat
            assert not {"hands", "wall", "seed"} & set(obs)


async def quick_match(live, n):
    clients = [await Client.open(live, live.guest(), f"p{i}") for i in range(n)]
    for c in clients:
        await c.send({"type": "quick_match", "mode": "casual", "stake": "low"})
    for c in clients:
        await c.expect("matched")
        await c.expect("snapshot")
    return clients


async def until_turn(c: Client) -> None:
    """Answer claims until this seat must discard (only it decides then)."""
    while True:
        legal = c.my_decision()
        if legal and any(x["type"] == "discard" for x in legal):
            return
        if legal and c.seen[-1]["type"] in ("update", "snapshot"):
            await c.act(simple_policy(c.obs))
        await c.recv()


def test_four_players_quick_match_and_play_a_hand_to_settlement(live, db_url):
    async def go():
        clients = await quick_match(live, 4)
        ends = await asyncio.gather(*(c.play_hand() for c in clients))
        for c in clients:
            await c.close()
        return clients, ends
    clients, ends = run(go())

    assert len({c.game_id for c in clients}) == 1
    assert sorted(c.seat for c in clients) == [0, 1, 2, 3]
    snap = next(m for m in clients[0].seen if m["type"] == "snapshot")
    assert [s["bot"] for s in snap["table"]["seats"]] == [False] * 4
    end = ends[0]
    assert all(e == end for e in ends)                 # everyone saw the same result
    # the seed revealed after the hand matches the commitment published at the deal
    assert hashlib.sha256(f"twmj-wall-v1:{end['seed']}".encode()).hexdigest() == \
        end["commitment"] == snap["hand"]["commitment"]
    net, fee = end["result"]["net"], end["result"]["fee"]
    assert sum(net) + fee == 0
    for c in clients:
        assert end["coins"][c.seat] == 10_000 + net[c.seat]
        assert_nothing_hidden_leaked(c)

    # the deal was fixed by the seed: replaying the stored actions on a wall built
    # from the revealed seed reproduces the hand and its settlement exactly
    async def check(repo):
        rows = await repo.game_actions(clients[0].game_id)
        balances = []
        for c in clients:
            acc_id = (await repo.games_of_seat(c.game_id, c.seat))
            acc = await repo.account(acc_id)
            balances.append((acc["coins"], await repo.ledger_sum(acc_id)))
        return rows, balances
    rows, balances = run(stored(db_url, check))
    assert all(coins == total for coins, total in balances)
    hand_rows = [r for r in rows if r["hand_no"] == 1]
    assert hand_rows[0]["kind"] == "hand" and hand_rows[0]["data"]["seed"] == end["seed"]
    first = live_first_dealer(db_url, clients[0].game_id)
    h = HandState(load_profile("standard"), dealer=first, seed=int(end["seed"]),
                  open_windows=True)   # the server opens every window for everyone
    for r in hand_rows:
        if r["kind"] == "action":
            h.act(r["seat"], r["data"]["action"])
    assert h.over and list(h.result.get("net", [0, 0, 0, 0])) == net


def test_three_players_and_a_bot(live):
    async def go():
        clients = await quick_match(live, 3)
        snap = next(m for m in clients[0].seen if m["type"] == "snapshot")
        ends = await asyncio.gather(*(c.play_hand() for c in clients))
        for c in clients:
            await c.close()
        return clients, snap, ends
    clients, snap, ends = run(go())
    assert len({c.game_id for c in clients}) == 1
    seats = snap["table"]["seats"]
    assert sum(s["bot"] for s in seats) == 1
    humans = {seats[c.seat]["name"] for c in clients}
    assert len(humans) == 3 and all(n.startswith("guest-") for n in humans)
    assert ends[0] == ends[1] == ends[2]
    bot_seat = next(i for i, s in enumerate(seats) if s["bot"])
    assert ends[0]["coins"][bot_seat] is None          # bots play for the house


def test_a_dropped_player_is_replaced_by_a_bot_and_takes_the_seat_back(make_live):
    live = make_live(disconnect_grace=0.0)

    async def go():
        a, b = await quick_match(live, 2)
        # A waits for its turn to discard, then drops; B (quiet from then on) sees A
        # go on auto-play and the bot throw a tile for A
        halt_b = b.answer_in_background()
        await until_turn(a)
        await halt_b()
        hand_no = next(m for m in a.seen if m["type"] == "snapshot")["hand"]["hand_no"]
        ticket = a.ticket
        await a.close()
        gone = await b.expect("presence", seat=a.seat, auto=True)
        # a bot now plays A's seat: A's discards keep coming while A is away
        a2 = await Client.open(live)
        a2.seat = a.seat
        await a2.send({"type": "hello", "token": a.token, "ticket": ticket})
        await a2.expect("welcome")
        snap = await a2.expect("snapshot")
        back = await b.expect("presence", seat=a.seat, connected=True)
        ids = [id(m) for m in b.seen]
        away = b.seen[ids.index(id(gone)):ids.index(id(back))]
        assert any(ev["type"] == "discard" and ev["seat"] == a.seat
                   for m in away for ev in m.get("events", []))
        end = await asyncio.gather(a2.play_hand(), b.play_hand())
        await a2.close()
        await b.close()
        return a, gone, snap, back, hand_no, end
    a, gone, snap, back, hand_no, end = run(go())
    assert (gone["seat"], gone["connected"], gone["auto"]) == (a.seat, False, True)
    assert snap["table"]["game_id"] == a.game_id
    assert snap["hand"]["hand_no"] == hand_no and snap["hand"]["open"] is True
    assert snap["observation"]["seat"] == a.seat and snap["observation"]["hand"]
    assert (back["seat"], back["connected"], back["auto"]) == (a.seat, True, False)
    assert end[0] == end[1] and end[0]["hand_no"] == hand_no


def test_a_server_restart_mid_hand_resumes_the_table(make_live):
    live = make_live(disconnect_grace=30.0)

    async def before():
        (a,) = await quick_match(live, 1)
        # play a few of our own turns first, then stop while it is our turn
        turns = 0
        fresh = a.my_decision() is not None        # the snapshot may offer one already
        while True:
            if fresh:
                if turns == 3:
                    break
                turns += 1
                await a.act(simple_policy(a.obs))
            m = await a.recv()
            fresh = m["type"] in ("update", "snapshot") and a.my_decision() is not None
        await a.close()
        return a
    a = run(before())
    obs_before, hand_before = a.obs, a.seen[-1]
    # (had our seat gone on auto-play, the old server would have played on without us)
    assert not [m for m in a.seen if m["type"] == "presence" and m["seat"] == a.seat
                and m["auto"]]
    assert not [m for m in a.seen if m["type"] == "error"]
    live.restart()

    async def after():
        a2 = await Client.open(live)
        a2.seat = a.seat
        await a2.send({"type": "hello", "token": a.token, "ticket": a.ticket})
        await a2.expect("welcome")
        snap = await a2.expect("snapshot")
        end = await a2.play_hand()
        await a2.close()
        return snap, end
    snap, end = run(after())
    assert snap["table"]["game_id"] == a.game_id
    assert snap["observation"] == obs_before          # exactly where we left it
    assert snap["observation"]["legal"]
    assert end["hand_no"] == snap["hand"]["hand_no"]
    assert hand_before["type"] in ("update", "snapshot")

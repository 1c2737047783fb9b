"""觀戰 must not leak what the tables keep hidden: every message a watcher receives
over a whole game is checked against the true hands, replayed from the stored game.

- zero concealed tiles: no seat's concealed hand or drawn tile, no 暗槓 face, no
  dealt hand, no drawn tile in any event; each frame's view is exactly what any
  seat could see at that moment (built here from the engine's own views, not from
  the server's watcher code);
- zero claim options: no ``legal``, no timer, no clocks, no seat's observation;
- the delay holds: a frame of a hand still in play reaches the watcher only once
  the table has made ``watch_delay`` (4, one round) more discards.
"""

from __future__ import annotations

import asyncio
import json
import threading

from server_helpers import Client, simple_policy

from twmahjong.server.play.engine_game import EngineGame
from twmahjong.server.store.db import create_engine
from twmahjong.server.store.repository import SqlRepository

DELAY = 4
ALLOWED = {"welcome", "watching", "watch", "hand_end", "game_end"}
SECRET_KEYS = {"legal", "drawn", "hand", "observation", "timer", "clocks", "ticket"}


def keys_in(obj, found=None) -> set[str]:
    found = set() if found is None else found
    if isinstance(obj, dict):
        for k, v in obj.items():
            found.add(k)
            keys_in(v, found)
    elif isinstance(obj, list):
        for v in obj:
            keys_in(v, found)
    return found


async def stored_game(db_url: str, game_id: str):
    engine = create_engine(db_url)
    try:
        repo = SqlRepository(engine)
        return await repo.game(game_id), await repo.game_actions(game_id)
    finally:
        await engine.dispose()


def truth(row: dict, actions: list[dict]):
    """Replay the stored game: for each moment, (hand_no, discards so far) -> the
    public views any seat could have had, and every seat's secret tiles then."""
    meta = {k: row[k] for k in ("mode", "profile", "stake", "rounds")}
    meta["options"] = row["options"]
    game = EngineGame(meta)
    views: dict[tuple[int, int], list[dict]] = {}
    secrets: dict[tuple[int, int], set[str]] = {}
    true_events: list[dict] = []

    def note() -> None:
        if game.hand_no == 0 or game.hand_over():
            return
        discards = sum(1 for e in game.match.events if e["type"] == "discard")
        obs = [game.hand.observation(s) for s in range(4)]
        o = obs[0]
        view = {k: o[k] for k in ("dealer", "dealer_streak", "round_wind", "seat_winds",
                                  "wall_remaining", "phase", "flowers", "discards",
                                  "concealed_count", "declared", "last_discard")}
        if "added_kong" in o:
            view["added_kong"] = o["added_kong"]
        # each seat's melds as the seat after it sees them: a 暗槓 lies face down
        view["melds"] = [obs[(s + 1) % 4]["melds"][s] for s in range(4)]
        key = (game.hand_no, discards)
        views.setdefault(key, []).append(view)
        hidden = secrets.setdefault(key, set())
        for s in range(4):
            if obs[s]["hand"]:
                hidden.add(obs[s]["hand"])
            if obs[s]["drawn"]:
                hidden.add(obs[s]["hand"] + obs[s]["drawn"])
            for m in obs[s]["melds"][s]:
                if m["type"] == "concealed_kong":
                    hidden.add(m["tiles"])

    for r in actions:
        if r["kind"] == "hand":
            game.start_hand()
        elif r["kind"] == "action":
            game.act(r["seat"], r["data"]["action"])
        elif r["kind"] == "settled":
            true_events.extend(game.match.events)
            game.finish_hand()
            continue
        note()
    true_events.extend(game.match.events)
    return views, secrets, true_events


def test_a_watcher_sees_a_whole_game_public_and_late(make_live, db_url):
    live = make_live(hand_pause=0.05, bot_delay=0.0, claim_window=0.02)
    tp, tw = live.register("被看的人"), live.register("看的人")
    name_p = "被看的人"
    assert live.http("POST", "/api/v1/friends", tw, json={"name": name_p}).status_code == 200
    assert live.http("POST", "/api/v1/friends/看的人/accept", tp).status_code == 200
    sent: list[tuple[str, int, bool]] = []      # (text, live discards, hand in play) at push
    lock = threading.Lock()

    async def go():
        seat = live.http("POST", "/api/v1/rooms", tp, json={"bots": "L2", "rounds": 1}).json()
        p = await Client.open(live, tp, "P")
        w = await Client.open(live, tw, "W")
        w_id = live.http("GET", "/api/v1/me", tw).json()["id"]
        conn = next(c for c in list(live.server.conns)
                    if c.account and c.account["id"] == w_id)
        original = conn.push

        def probe(text: str) -> None:       # runs on the server's loop, as it sends
            table = conn.watching
            desk = table.social.desk if table is not None else None
            with lock:
                sent.append((text, desk.discards if desk else -1,
                             bool(table and table.hand_open and not table.game.hand_over())))
            original(text)
        conn.push = probe

        live.http("POST", f"/api/v1/rooms/{seat['code']}/start", tp)
        await p.send({"type": "join", "ticket": seat["ticket"]})
        await p.expect("snapshot")
        halt = p.answer_in_background(simple_policy)
        await w.send({"type": "watch", "game_id": seat["game_id"]})
        await w.expect("watching")
        end = await w.expect("game_end")
        await halt()
        await p.close()
        await w.close()
        return seat["game_id"], end
    game_id, end = asyncio.run(go())
    assert end["aborted"] is False

    row, actions = asyncio.run(stored_game(db_url, game_id))
    views, hidden, true_events = truth(row, actions)
    with lock:
        got = list(sent)
    frames = hands_ended = 0
    for text, live_discards, in_play in got:
        msg = json.loads(text)
        assert msg["type"] in ALLOWED, msg["type"]
        if msg["type"] in ("hand_end", "game_end"):
            hands_ended += msg["type"] == "hand_end"
            continue
        assert not keys_in(msg) & SECRET_KEYS, (msg["type"], keys_in(msg) & SECRET_KEYS)
        if msg["type"] != "watch":
            continue
        frames += 1
        key = (msg["hand_no"], msg["turn"])
        # the view is one the table really showed everyone at that moment
        assert msg["view"] in views[key], key
        # zero concealed tiles: no seat's hand (with or without its drawn tile) or 暗槓
        # (of 4 tiles or more: a lone "5p" is in some river by chance)
        for secret in hidden[key]:
            if sum(ch.isdigit() for ch in secret) >= 4:
                assert secret not in text, (key, secret)
        for ev in msg["events"]:
            if ev["type"] == "draw":
                assert ev["tile"] == "?"
            elif ev["type"] == "deal":
                assert ev["hands"] == ["?"] * 4
            elif ev["type"] == "kong" and ev["kind"] == "concealed":
                assert ev["tile"] == "?"
            else:     # a public event, exactly as it happened (no field added)
                assert any(all(t.get(k) == v for k, v in ev.items())
                           for t in true_events if t["type"] == ev["type"]), ev
        # the delay: while the hand is played, the frame is a round behind
        if in_play:
            assert live_discards - msg["turn"] >= DELAY, (live_discards, msg["turn"])
    assert frames > 20 and hands_ended >= 4

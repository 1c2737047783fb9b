"""Replays and records of finished games: made once, off the event loop that runs the
tables, kept (a finished game never changes), and limited per address."""

import threading

from test_server_analysis import _finished_room_game

from twmahjong.server.play import replay as replay_module


def test_a_replay_is_made_once_off_the_loop_kept_and_limited(make_live, monkeypatch):
    live = make_live(disconnect_grace=0.0, turn_base=0.2, turn_bank=0.0, claim_window=0.0,
                     replay_rate=0.001, replay_burst=3, forwarded_allow_ips="127.0.0.1")
    made = []
    real = replay_module.replay_hand

    def spy(*args):
        made.append(threading.get_ident())
        return real(*args)
    monkeypatch.setattr(replay_module, "replay_hand", spy)
    _, seat = _finished_room_game(live)        # its record: the first replay made
    gid = seat["game_id"]
    url = f"/api/v1/games/{gid}/replay?hand=1&seat="

    first = live.http("GET", url + "0")
    again = live.http("GET", url + "0")
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() and len(made) == 1      # kept, not made again
    assert made[0] != live._thread.ident                        # not on the tables' loop
    assert live.http("GET", url + "1").status_code == 200       # the burst's third
    limited = live.http("GET", url + "2")
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
    assert int(limited.headers["retry-after"]) >= 1
    assert len(made) == 2                                       # refused before any work
    # what is kept costs nothing, and is not limited; another address has its own limit
    assert live.http("GET", url + "0").status_code == 200
    assert live.http("GET", f"/api/v1/games/{gid}").status_code == 200
    other = live.http("GET", url + "2", headers={"X-Forwarded-For": "198.51.100.3"})
    assert other.status_code == 200 and len(made) == 3
    print(f"\nreplay: made once in thread {made[0]} (the loop's is {live._thread.ident}), "
          f"the 4th made in a burst of 3 -> 429 Retry-After {limited.headers['retry-after']}")


def test_many_replays_at_once_are_refused_not_queued_without_end():
    import asyncio

    async def go():
        replays = replay_module.Replays(making=2)
        gate = threading.Event()
        first = asyncio.ensure_future(replays.make("a", gate.wait))
        second = asyncio.ensure_future(replays.make("b", gate.wait))
        same = asyncio.ensure_future(replays.make("a", gate.wait))   # joins the first
        await asyncio.sleep(0)
        try:
            await replays.make("c", gate.wait)
        except replay_module.TooBusy:
            refused = True
        else:
            refused = False
        gate.set()
        got = await asyncio.gather(first, second, same)
        kept = replays.kept("a")
        replays.close()
        return refused, got, kept
    refused, got, kept = asyncio.run(go())
    assert refused and got == [True, True, True] and kept is True

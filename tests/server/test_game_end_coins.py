"""The match's end tells each person their coins over the whole game (`game_end.coins`):
a page that sat down again mid-game saw only the hands since, and said those."""

import asyncio

import pytest
from server_helpers import HANG, Client

from twmahjong.bots.policy import PolicyBot, level_params


@pytest.fixture
def db_url(tmp_path) -> str:
    """SQLite alone: the field is the table's, not the database's (a whole game each)."""
    return f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"


def test_game_end_says_each_person_s_coins_over_the_whole_game(make_live):
    # level-2 bots win hands, so coins move; the person's seat is played by its bot (託管)
    live = make_live(starting_coins=10_000,
                     make_bot=lambda name, seed: PolicyBot(level_params(2), seed))
    token = live.register("whole")

    async def go():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "ranked", "stake": "low"})
        await c.expect("matched")
        await c.expect("snapshot")
        await c.send({"type": "auto", "on": True})
        end = await c.expect("game_end", timeout=HANG)
        await c.close()
        return c.seat, end

    seat, end = asyncio.run(go())
    me = live.http("GET", "/api/v1/me", token).json()
    mine = end["coins"][seat]
    assert mine == {"before": 10_000, "after": me["coins"]}
    assert mine["after"] - mine["before"] == end["scores"][seat]
    assert [c is None for c in end["coins"]].count(True) == 3          # the bots have none

"""進行中的牌局 on the terminal's online lobby: 回到牌桌 and 認輸, and the refusal for too
many tables that stops waiting and offers that list.

The lobby's answers to each outcome and refusal are tested against a small fake of
the forfeit contract (``POST /api/v1/games/{id}/forfeit``); a forfeit through the
lobby and the refusal for too many tables are tested against the real server."""

from __future__ import annotations

import asyncio

import pytest

from twmahjong.client import Api, ApiError, Credentials, GameLink
from twmahjong.tui.lobby import choose_table, games_in_progress
from twmahjong.tui.online import OnlineSession

from .test_tui_online import SMALL, app_for, next_change


class FakeApi:
    """GET /api/v1/games (active, forfeited) and POST …/forfeit, as the contract says."""

    def __init__(self, outcome="bot_plays", error=None):
        self.games_ = [
            {"game_id": "g_1", "mode": "casual", "profile": "standard", "status": "active",
             "seat": 0, "players": ["me", "bot:shark", "bot:hermit", "bot:counter"],
             "created_at": 1795000000.0, "ticket": "t1"},
            {"game_id": "g_2", "mode": "casual", "profile": "standard", "status": "active",
             "seat": 1, "players": ["bot:a", "me", "bot:b", "bot:c"], "created_at": 1795000100.0,
             "forfeited": True},
            {"game_id": "g_3", "mode": "casual", "profile": "standard", "status": "finished",
             "seat": 2, "players": ["a", "b", "me", "d"], "created_at": 1795000200.0}]
        self.outcome, self.error, self.forfeited = outcome, error, []
        self.refuse_rooms = False

    async def games(self):
        return [dict(g) for g in self.games_]

    unfinished = Api.unfinished

    async def forfeit(self, game_id):
        if self.error:
            raise ApiError(*self.error)
        self.forfeited.append(game_id)
        g = next(g for g in self.games_ if g["game_id"] == game_id)
        g["forfeited"] = True
        g.pop("ticket", None)
        return {"game_id": game_id, "outcome": self.outcome}

    async def open_room(self, **kw):
        raise ApiError("too_many_tables", "you already sit at 3 unfinished tables", 409)


def script(*answers):
    it = iter(answers)
    said = []
    return (lambda q, **kw: said.append(("?", q)) or next(it)), said.append, said


def lines(said):
    return [x if isinstance(x, str) else x[1] for x in said]


@pytest.mark.parametrize("outcome,text", [("bot_plays", "Forfeited: a bot plays your seat to the end"),
                                          ("ended", "Forfeited: the game is over")])
def test_forfeit_asks_first_says_what_happens_and_the_game_leaves_the_list(outcome, text):
    api = FakeApi(outcome)
    ask, say, said = script("f 1", "n", "f1", "y")
    assert games_in_progress(api, "en", ask, say) is None
    out = lines(said)
    assert "Games in progress (1):" in out                      # the forfeited and the finished are not
    # the rules and the mode named apart
    assert any(x.startswith("1. standard rules casual table  seat 0  shark, hermit, counter")
               for x in out)
    confirm = [x for x in out if x.startswith("Forfeit game 1?")]
    # g_1 is a table of bots: the game ends now and the hand in play is void, as the
    # server does it (not "a bot plays your seat to the end")
    assert confirm and "the game ends now" in confirm[0] and "cannot be undone" in confirm[0]
    assert "the hand in play does not count" in confirm[0] and "bot plays" not in confirm[0]
    assert "The game is kept" in out                            # n: nothing sent
    assert api.forfeited == ["g_1"] and text in out
    assert out[-1] == "No games in progress"


def test_forfeit_at_a_table_with_people_says_a_bot_plays_the_seat_on():
    api = FakeApi()
    api.games_[0]["players"] = ["me", "小華", "bot:hermit", "bot:counter"]
    ask, say, said = script("f 1", "n", "")
    assert games_in_progress(api, "zh", ask, say) is None
    confirm = [x for x in lines(said) if x.startswith("對第 1 局認輸？")]
    assert confirm and "桌上還有其他玩家：電腦會替你把這個位子打到終局" in confirm[0]
    assert api.forfeited == []


def test_back_to_the_table_gives_its_ticket_and_bad_input_asks_again():
    ask, say, said = script("z 9", "b 1")
    assert games_in_progress(FakeApi(), "zh", ask, say) == ("ticket", "t1")
    assert "請輸入 b 編號、f 編號，或直接按 Enter" in lines(said)


def test_a_refused_forfeit_is_one_line_and_the_list_again():
    api = FakeApi(error=("game_over", "the game is over", 409))
    ask, say, said = script("f 1", "y", "")
    assert games_in_progress(api, "en", ask, say) is None
    assert len([x for x in lines(said) if x == "Games in progress (1):"]) == 2


def test_too_many_tables_on_a_new_room_offers_the_games_in_progress(config_home):
    api = FakeApi()
    ask, say, said = script("2", "b 1")
    plan = choose_table(api, Credentials("http://127.0.0.1:9"), "zh", ask=ask, say=say)
    assert plan == ("ticket", "t1")
    assert "你同時進行的牌局太多了：回到其中一局，或認輸一局再開新的" in lines(said)


@pytest.mark.asyncio
async def test_a_quick_match_refused_for_too_many_tables_stops_waiting_and_leaves_the_screen(make_live):
    live = make_live(max_active_tables=1, hand_pause=30.0, turn_base=600.0)
    api = Api(live.base)
    await api.guest()
    first = GameLink(live.base, api.token)
    await first.connect()
    await first.quick_match()
    while first.state.seat is None:                      # one table: the cap
        await first.recv()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL):
        while session.refused is None:
            await next_change(session)

        async def closed():
            while app.is_running:
                await asyncio.sleep(0.05)
        await asyncio.wait_for(closed(), 60)              # no spinner left up: back to the lobby
    assert session.refused == "too_many_tables"
    assert [g["game_id"] for g in await api.unfinished()] == [first.state.game_id]
    await first.close()


def test_forfeit_through_the_lobby_ends_a_real_bot_table(make_live):
    """Alone with bots, 認輸 ends the game: the real server says so, the list is empty
    and the account's games mark it given up, with no ticket to sit back down."""
    live = make_live(hand_pause=30.0, turn_base=600.0)
    api = Api(live.base)

    async def seat() -> str:
        await api.guest()
        link = GameLink(live.base, api.token)
        await link.connect()
        await link.quick_match()
        while link.state.seat is None:
            await link.recv()
        await link.close()
        return link.state.game_id
    game_id = asyncio.run(seat())
    ask, say, said = script("f 1", "y")
    assert games_in_progress(api, "en", ask, say) is None
    out = lines(said)
    assert "Games in progress (1):" in out
    assert "Forfeited: the game is over" in out and out[-1] == "No games in progress"
    mine = next(g for g in asyncio.run(api.games()) if g["game_id"] == game_id)
    assert mine["status"] == "finished" and mine["forfeited"] is True and "ticket" not in mine


def test_forfeiting_the_remembered_table_takes_back_to_the_table_off_the_menu(config_home):
    """The menu's 4 回到牌桌 sits back down with the last table's ticket: once that game is
    given up it must go, or it offers a seat that is not the player's any more."""
    api = FakeApi("ended")
    creds = Credentials("http://127.0.0.1:9")
    creds.set(token="tok", ticket="t1")                  # g_1's seat, as the last table
    ask, say, said = script("5", "f 1", "y", "", "q")
    assert choose_table(api, creds, "en", ask=ask, say=say) is None
    menus = [q for k, q in (x for x in said if isinstance(x, tuple)) if q.startswith("1 quick match")]
    assert "4 resume" in menus[0] and "4 resume" not in menus[-1]
    assert creds.ticket is None and creds.token == "tok"

"""``twmj play --server``: the terminal table against a real server.

The person's seat is the Textual app driven by keys through the pilot; the other
seats are bots the server fills, or a browser-free ``GameLink`` client."""

from __future__ import annotations

import asyncio

import pytest

from twmahjong.client import Api, Credentials, GameLink
from twmahjong.tui.app import PlayApp
from twmahjong.tui.online import OnlineSession, safe_move
from twmahjong.tui.prefs import Prefs
from twmahjong.tui.results import ResultScreen, SummaryScreen

from .test_client import play_until


SMALL = (80, 24)


def content(app, selector: str) -> str:
    from tests.tui.helpers import content as c
    return c(app, selector)


async def next_change(session: OnlineSession, timeout: float = 30.0) -> None:
    """Wait for the next server message (an event, not a clock budget to assert on)."""
    session.changed.clear()
    await asyncio.wait_for(session.changed.wait(), timeout)


async def heard_since(session: OnlineSession, seen: int, timeout: float = 30.0) -> None:
    """Wait until more than ``seen`` server messages were heard. After an await (a key
    press) a message may already have come in; ``next_change`` then would wait for one
    more, which may never come."""
    while len(session.messages) <= seen:
        await next_change(session, timeout)


async def play_by_keys(pilot, app, session, until=ResultScreen, limit=3000, on_turn=None):
    """Enter throws the drawn tile, x passes: the person plays until ``until`` shows."""
    for _ in range(limit):
        await pilot.pause()
        if isinstance(app.screen, until):
            return
        if isinstance(app.screen, ResultScreen) and app.screen.ready_sent:
            await next_change(session)          # 下一局 sent: the server deals, the table returns
            continue
        if isinstance(app.screen, (ResultScreen, SummaryScreen)):
            await pilot.press("space")
            continue
        legal = session.legal()
        if any(a.type == "discard" for a in legal):
            if on_turn is not None:
                await on_turn()
            await pilot.press("enter")
        elif legal:
            await pilot.press("x")
        else:
            await next_change(session)
    raise AssertionError(f"{until.__name__} never appeared")


def app_for(session, lang="en") -> PlayApp:
    return PlayApp(session, lang, prefs=Prefs(speed=0), save=False)


@pytest.mark.asyncio
async def test_quick_match_on_the_terminal_plays_a_hand_to_its_result(live):
    api = Api(live.base)
    await api.guest()
    creds = Credentials(live.base)
    session = OnlineSession(live.base, api.token, ("quick", None, "low"), creds=creds)
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        seen_claim_only = []

        async def on_turn():
            assert "Your turn" in content(app, "#status")
            assert "online casual table · standard rules" in content(app, "#header")   # mode and rules apart
            seen_claim_only.append(content(app, "#keys"))
        await play_by_keys(pilot, app, session, on_turn=on_turn)
        shown = content(app, "#body")
        end = session.link.state.last_hand_end
        assert "Hand 1 — result" in shown and "Hands revealed" in shown
        assert end["result"]["type"] in ("win", "draw_game")
        assert creds.ticket == session.link.state.ticket            # kept for 回到牌桌
        assert "a auto" in seen_claim_only[0] and "q quit" in seen_claim_only[0]
        # windows with nothing to decide (no ``legal``) never asked the person anything
        quiet = [m for m in session.messages if m["type"] == "update"
                 and not (m.get("observation") or {}).get("legal")]
        assert quiet


@pytest.mark.asyncio
async def test_a_private_room_seats_the_terminal_and_a_second_client(live):
    host, friend = Api(live.base), Api(live.base)
    await host.register("host-2", "secret-pw")
    await friend.register("friend-2", "secret-pw")
    room = await host.open_room(bots="L1")
    seat = await friend.join_room(room["code"])
    await host.start_room(room["code"])
    other = GameLink(live.base, friend.token)
    await other.connect()
    await other.join(seat["ticket"])
    task = asyncio.create_task(play_until(other, "hand_end"))
    session = OnlineSession(live.base, host.token, ("ticket", room["ticket"]))
    app = app_for(session, "zh")
    async with app.run_test(size=SMALL) as pilot:
        await play_by_keys(pilot, app, session)
        theirs = await asyncio.wait_for(task, 60)
        assert theirs[-1]["result"] == session.link.state.last_hand_end["result"]
        names = content(app, "#body")
        assert "friend-2" in names                                 # the other person, by name
    await other.close()


@pytest.mark.asyncio
async def test_the_terminal_comes_back_after_a_dropped_link(live):
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"),
                            retry=(0.05, 0.1, 0.2, 0.5, 1.0))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        turns = []

        async def on_turn():
            turns.append(1)
            if len(turns) == 2:
                session.link.ws.transport.abort()           # the network drops, not the player
        await play_by_keys(pilot, app, session, on_turn=on_turn)
        kinds = [m["type"] for m in session.messages]
        assert "link" in kinds and "snapshot" in kinds[kinds.index("link"):]
        assert session.link.reconnects == 1


@pytest.mark.asyncio
async def test_auto_play_answers_for_the_person_until_cancelled(make_live):
    # 託管 plays a whole hand, at the tests' short claim window (0.02 s): at the server's
    # own (0.8 s) each of the hand's discards waited 0.8 s, ~30 s a hand
    live = make_live(hand_pause=30.0)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        while not session.link.state.decision():
            await next_change(session)
        await pilot.press("a")
        status = app.table.query_one("#status").content
        assert session.auto and "Auto-play on (a cancels)" in str(status)
        while not isinstance(app.screen, ResultScreen):        # no key pressed: 託管 plays
            await next_change(session)
            await pilot.pause()
    live.stop()               # its match would play on by itself, on the CPU the next needs

    # the server's own claim window (0.8 s): with the tests' short one, auto-play can finish
    # a whole match between the two presses that turn it on and off again
    live = make_live(claim_window=0.8, hand_pause=30.0)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        while not session.link.state.decision():
            await next_change(session)
        for want in (True, False):                           # on, and at once off again
            while app.screen is not app.table:               # a hand may have just ended
                await pilot.press("space")
            await pilot.press("a")
            assert session.auto is want
        for _ in range(3000):                                # the next decision is the person's
            if isinstance(app.screen, ResultScreen):
                await pilot.press("space")
            if session.legal():
                break
            await next_change(session)
            await pilot.pause()
        assert session.legal()                               # asked, not answered for them
        assert "Auto-play on" not in str(app.table.query_one("#status").content)


def test_the_safe_move_passes_claims_and_throws_the_drawn_tile():
    assert safe_move({"legal": [{"type": "pon", "tile": "5m"}, {"type": "pass"}]}) == {"type": "pass"}
    assert safe_move({"drawn": "3s", "legal": [{"type": "discard", "tile": "1m"},
                                               {"type": "discard", "tile": "3s"}]})["tile"] == "3s"


def test_the_lobby_logs_in_as_a_guest_keeps_the_token_and_offers_the_table_back(live, config_home):
    from twmahjong.tui.lobby import play_online
    answers = iter(["1", "1"])                              # guest, then quick match
    said, ran = [], []
    play_online(live.base, lang="en", ask=lambda q, **kw: next(answers), say=said.append,
                run_app=lambda app: ran.append(app))
    creds = Credentials(live.base)
    assert creds.token and creds.get("name", ).startswith("guest")
    assert ran and ran[0].session.plan == ("quick", None, "low")
    creds.set(ticket="kept-ticket")
    questions = []

    def ask(q, **kw):
        questions.append(q)
        return "4"
    play_online(live.base, lang="en", ask=ask, say=said.append, run_app=lambda app: ran.append(app))
    assert "4 resume" in questions[0]           # no login asked: the token was kept
    assert ran[-1].session.plan == ("ticket", "kept-ticket")


def test_the_lobby_says_a_wrong_password_and_asks_again(live, config_home):
    from twmahjong.tui.lobby import play_online
    live.register("阿華")
    answers = iter(["2", "阿華", "wrong-pw", "2", "阿華", "secret-pw", "q"])
    said = []
    play_online(live.base, lang="zh", ask=lambda q, **kw: next(answers), say=said.append,
                run_app=lambda app: None)
    # in the player's language: it was the server's English ("wrong name or password")
    assert "名稱或密碼錯誤" in said
    assert any(x.startswith("歡迎，阿華") for x in said)


def test_a_stopped_server_is_said_at_once_before_a_name_is_asked(config_home):
    """A wrong address or a stopped server was found out after the person had chosen
    and typed their name and password, and said in the client library's English."""
    from twmahjong.errors import UserError
    from twmahjong.tui.lobby import play_online
    asked: list[str] = []

    def ask(q, **kw):
        asked.append(q)
        return "1"
    with pytest.raises(UserError) as e:
        play_online("http://127.0.0.1:9", lang="zh", ask=ask, say=[].append,
                    run_app=lambda app: None)
    assert str(e.value) == "連不上伺服器 http://127.0.0.1:9：對方拒絕連線（伺服器沒有開？）"
    assert asked == []
    with pytest.raises(UserError) as e:
        play_online("ftp://x", lang="zh", ask=ask, say=[].append, run_app=lambda app: None)
    assert str(e.value) == "這不是伺服器位址：ftp://x（例如 http://host:port）"


def test_giving_up_a_room_in_the_lobby_gives_its_seat_up_on_the_server(live, config_home):
    """q at a room in the terminal's lobby used to go back to the menu only: the seat
    stayed taken (and counted against the table cap) until the room expired."""
    import asyncio as aio

    from twmahjong.tui.lobby import play_online
    host = Api(live.base)
    aio.run(host.register("host-q", "secret-pw"))
    code = aio.run(host.open_room())["code"]
    answers = iter(["1", "3", code, "q", "q"])     # guest; join by code; give up; quit
    play_online(live.base, lang="en", ask=lambda q, **kw: next(answers), say=[].append,
                run_app=lambda app: None)
    assert aio.run(host.room(code))["players"][1:] == [None, None, None]
    # the host giving up closes the room: its code is gone
    answers = iter(["2", "q", "q"])                # open a room; give up; quit
    play_online(live.base, lang="en", ask=lambda q, **kw: next(answers), say=[].append,
                run_app=lambda app: None)
    assert live.http("GET", "/api/v1/health").json()["rooms_waiting"] == 1   # only host-q's


def typed_when(pred) -> None:
    """A person types when there is something to answer: the plain loop reads its
    input all the time (from a thread), so a scripted stdin waits for its cue."""
    import time
    while not pred():
        time.sleep(0.01)


class _Answers:
    """stdin for the plain loop: Enter (throw the drawn tile) or x, one line per decision."""

    def __init__(self, session, limit=400):
        self.session, self.left = session, limit

    def readline(self) -> str:
        self.left -= 1
        if self.left <= 0:
            return ""
        typed_when(lambda: self.session.legal() or self.session.link.state.last_hand_end)
        legal = self.session.legal()
        return "\n" if any(a.type == "discard" for a in legal) else "x\n"


@pytest.mark.asyncio
async def test_plain_lines_online_play_a_hand_and_leave_with_q(live):
    import io

    from twmahjong.tui.plain_online import play_plain_online
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    out = io.StringIO()

    class Until(_Answers):
        def readline(self):
            if self.session.link.state.last_hand_end is not None:
                return "q\n"                          # leave once a hand has ended
            return super().readline()
    await asyncio.wait_for(play_plain_online(session, "en", Until(session), out), 120)
    text = out.getvalue()
    assert "\x1b" not in text
    assert "Hand 1 — result" in text and "Hands revealed" in text
    assert "You discard" in text and "Your turn: type a tile" in text
    assert "You left the table" in text


@pytest.mark.asyncio
async def test_dismissing_the_result_presses_next_hand_so_the_deal_does_not_wait(make_live):
    """The server keeps a hand's result up until every person presses 下一局 (or a
    long countdown runs out); the terminal presses it when its result screen closes."""
    from server_helpers import HANG
    live = make_live(hand_pause=3600.0)
    api = Api(live.base)
    await api.guest()
    session = OnlineSession(live.base, api.token, ("quick", None, "low"))
    app = app_for(session)
    async with app.run_test(size=SMALL) as pilot:
        await play_by_keys(pilot, app, session)                  # hand 1's result is up
        first = session.link.state.last_hand_end["hand_no"]
        assert session.link.state.last_hand_end.get("next_in") is not None
        screen = app.screen
        while not screen.ready_sent:        # a win's moment takes the first key
            await pilot.press("space")
            await pilot.pause()

        async def dealt() -> None:
            while (session.link.state.hand or {}).get("hand_no", 0) <= first:
                await next_change(session, HANG)
        await asyncio.wait_for(dealt(), HANG)
        assert (session.link.state.hand or {}).get("hand_no") == first + 1


@pytest.mark.asyncio
async def test_a_seat_in_a_room_not_yet_started_sits_down_when_the_host_starts(live):
    """The terminal at a room's seat before the host starts (a friend who joined by
    code, or a game still being made) was told not_started and then waited forever.
    It says it is waiting for the host and sits down once the game is there."""
    host, friend = Api(live.base), Api(live.base)
    await host.register("host-3", "secret-pw")
    await friend.register("friend-3", "secret-pw")
    room = await host.open_room(bots="L1")
    seat = await friend.join_room(room["code"])
    session = OnlineSession(live.base, friend.token, ("ticket", seat["ticket"]))
    session.rejoin_every = 0.05
    app = app_for(session, "zh")
    async with app.run_test(size=SMALL) as pilot:
        while not any(m["type"] == "error" and m["code"] == "not_started"
                      for m in session.messages):
            await next_change(session)
        await pilot.pause()
        assert session.notice == "等房主開局… 開始後自動入座"
        assert "等房主開局" in content(app, "#waiting")
        assert not app.table.query_one("#main").display    # no empty table frame above it
        await host.start_room(room["code"])
        while not any(m["type"] == "snapshot" for m in session.messages):
            await next_change(session)
        assert session.link.state.seat == 1
        await pilot.pause()
        assert not app.table.query_one("#waiting").display
        assert "等房主開局" not in content(app, "#status")
        assert "手牌" in content(app, "#seat-3")          # the host, 上家 of seat 1, at the table


@pytest.mark.asyncio
async def test_a_friend_waits_for_the_host_on_the_table_screen_and_q_gives_the_seat_up(
        live, config_home):
    """The lobby's friend used to press Enter again and again to see whether the host had
    started. With the table screen it goes there at once: a waiting page with the room's
    code, then the table when the host starts; q before that asks to leave the room,
    and leaving gives the seat up on the server."""
    from twmahjong.tui.dialogs import ConfirmQuit
    from twmahjong.tui.lobby import play_online
    host = Api(live.base)
    await host.register("host-w", "secret-pw")
    code = (await host.open_room(bots="L1"))["code"]
    answers = iter(["1", "3", code])                   # guest; join by code
    apps: list = []
    ask = lambda q, **kw: next(answers, "q")        # noqa: E731  ("q": the old lobby's end)
    await asyncio.to_thread(play_online, live.base, lang="zh", ask=ask, say=[].append,
                            run_app=apps.append)
    assert apps[0].session.plan[2] == code             # no question asked while waiting
    assert (await host.room(code))["players"][1] is None   # the app never ran: seat given up

    # at the table screen: the waiting page, the room's own quit question, then the table
    async def drive(app) -> None:
        session = app.session
        session.rejoin_every = 0.05
        async with app.run_test(size=SMALL) as pilot:
            while session.notice != "等房主開局… 開始後自動入座":
                await next_change(session)
            await pilot.pause()
            page = content(app, "#waiting")
            assert "等房主開局" in page and f"房號 {code}" in page and "q 離開" in page
            await pilot.press("q")
            assert isinstance(app.screen, ConfirmQuit)
            assert f"要離開房號 {code} 的房間嗎" in str(app.screen.text)
            await pilot.press("n")
            await host.start_room(code)
            while session.link.state.obs is None:
                await next_change(session)
            await pilot.pause()
            assert not session.waiting_for_room
            assert "手牌" in content(app, "#seat-3")

    answers = iter(["3", code])
    await asyncio.to_thread(play_online, live.base, lang="zh", ask=ask, say=[].append,
                            run_app=lambda app: asyncio.run(drive(app)))
    room = await host.room(code)
    assert room["started"] and room["players"][1] is not None   # seated: nothing given up


@pytest.mark.asyncio
async def test_a_friend_waiting_is_told_when_the_host_closes_the_room(live):
    host, friend = Api(live.base), Api(live.base)
    await host.register("host-c", "secret-pw")
    await friend.register("friend-c", "secret-pw")
    code = (await host.open_room())["code"]
    seat = await friend.join_room(code)
    session = OnlineSession(live.base, friend.token, ("ticket", seat["ticket"], code))
    session.rejoin_every = 0.05
    app = app_for(session, "en")
    async with app.run_test(size=SMALL) as pilot:
        while not any(m.get("code") == "not_started" for m in session.messages):
            await next_change(session)
        await host.leave_room(code)                     # the host closes the room
        while not any(m.get("code") == "no_table" for m in session.messages):
            await next_change(session)
        await pilot.pause()
        assert session.notice == f"Room {code} was closed by its host"
        assert f"Room {code} was closed by its host" in content(app, "#waiting")


@pytest.mark.asyncio
async def test_the_host_sees_friends_sit_down_and_starts_the_room_with_enter(live, config_home):
    """The terminal's host used to start blind: the lobby said "Press Enter to start" and
    showed nobody, so an Enter before the friends had joined gave their seats to bots.
    Now the host waits on the table screen's waiting page, which shows who has sat
    down as they do; Enter starts the room and the host sits down at once."""
    from twmahjong.tui.dialogs import ConfirmQuit
    from twmahjong.tui.lobby import play_online
    friend = Api(live.base)
    await friend.register("friend-h", "secret-pw")
    answers = iter(["1", "2"])                            # guest; open a room

    async def drive(app) -> None:
        session = app.session
        session.rejoin_every = 0.05
        code = session.room
        async with app.run_test(size=SMALL) as pilot:
            while session.room_info is None:
                await next_change(session)
            await pilot.pause()
            page = content(app, "#waiting")
            assert f"房號 {code}" in page and "已入座 1/4" in page and "（空位）" in page
            assert "Enter 開始" in page and "q 關閉房間" in page
            await pilot.press("q")
            assert f"要關閉房號 {code} 的房間嗎" in str(app.screen.text)
            assert isinstance(app.screen, ConfirmQuit)
            await pilot.press("n")
            await friend.join_room(code)
            while "friend-h" not in (session.room_info or {}).get("players", []):
                await next_change(session)
            await pilot.pause()
            page = content(app, "#waiting")
            assert "已入座 2/4" in page and "friend-h" in page
            await pilot.press("enter")
            while session.link.state.obs is None:
                await next_change(session)
            await pilot.pause()
            assert not app.table.query_one("#waiting").display
            seated = [session.seat_name("zh", s) for s in range(4)]
            assert any("friend-h" in n for n in seated), seated

    ran: list = []

    def run_app(app) -> None:
        ran.append(app)
        asyncio.run(drive(app))
    ask = lambda q, **kw: next(answers, "q")        # noqa: E731  ("q": the old lobby's end)
    await asyncio.to_thread(play_online, live.base, lang="zh", ask=ask, say=[].append,
                            run_app=run_app)
    assert ran and ran[0].session.hosting             # the old lobby never reached the table


def test_the_plain_lobbys_host_sees_who_has_sat_down_before_starting(live, config_home):
    """With --plain the host still starts from the lobby's question, which showed nobody:
    it now says who has sat down each time it asks, and r asks again without starting."""
    import asyncio as aio

    from twmahjong.tui.lobby import play_online
    friend = Api(live.base)
    aio.run(friend.register("friend-p", "secret-pw"))
    said: list[str] = []
    asked: list[str] = []

    def ask(q, **kw):
        asked.append(q)
        if len(asked) == 1:
            return "1"                                       # guest
        if len(asked) == 2:
            return "2"                                       # open a room
        if len(asked) == 3:                                  # a friend joins meanwhile
            aio.run(friend.join_room(q.split("：")[0].removeprefix("房號 ")))
            return "r"
        return ""                                            # start
    coros: list = []
    play_online(live.base, lang="zh", plain=True, ask=ask, say=said.append,
                run_app=lambda coro: (coros.append(coro), coro.close()))
    seated = [line for line in said if line.startswith("已入座")]
    assert seated[0].startswith("已入座 1/4：guest-")
    assert seated[1].startswith("已入座 2/4：guest-") and seated[1].endswith("、friend-p")
    assert "r 看誰入座" in asked[2] and len(asked) == 4 and coros     # started on the 4th


@pytest.mark.parametrize("lang,text", [("zh", "找不到房號 ZZZZZZ 的房間"),
                                       ("en", "No room with code ZZZZZZ")])
def test_a_wrong_room_code_in_the_lobby_is_one_line_and_the_menu_asks_again(
        live, config_home, lang, text):
    """Bad input: a code that matches no room is said in one line (no traceback), in
    the player's language (it was the server's English in zh too), no seat is taken,
    and the menu asks again."""
    from twmahjong.tui.lobby import play_online
    answers = iter(["1", "3", "ZZZZZZ", "q"])             # guest; join a wrong code; quit
    said: list[str] = []
    ran: list = []
    play_online(live.base, lang=lang, ask=lambda q, **kw: next(answers), say=said.append,
                run_app=ran.append)
    assert said[-1] == text and not ran
    assert live.http("GET", "/api/v1/health").json()["rooms_waiting"] == 0


@pytest.mark.asyncio
async def test_a_start_the_server_refuses_is_said_on_the_hosts_page_and_enter_tries_again(
        live, config_home):
    """The host's Enter can fail (the link drops, the server is busy): the waiting page
    says why in one line, the host stays on it with the room open, and the next Enter
    starts the room and seats the host."""
    from twmahjong.client import ApiError
    from twmahjong.tui.lobby import play_online
    answers = iter(["1", "2"])                            # guest; open a room

    async def drive(app) -> None:
        session = app.session
        session.rejoin_every = 0.2                        # under the server's 10 messages/s
        real = session.api.start_room
        tries: list[str] = []

        async def refused(code: str) -> dict:
            tries.append(code)
            if len(tries) == 1:
                raise ApiError("network", f"cannot reach {live.base}: connection refused",
                               reason="refused")
            return await real(code)
        session.api.start_room = refused
        async with app.run_test(size=SMALL) as pilot:
            while session.room_info is None:
                await next_change(session)
            await pilot.press("enter")
            while not tries:
                await next_change(session)
            # several asks for the seat later (each answers not_started), it still says why
            for _ in range(4):
                await next_change(session)
            await pilot.pause()
            page = content(app, "#waiting")
            # in the player's language (it was the client library's English)
            assert "連不上伺服器" in page and "對方拒絕連線" in page, page
            assert f"房號 {session.room}" in page and "Enter 開始" in page
            assert session.link.state.obs is None and session.waiting_for_room
            assert live.http("GET", "/api/v1/health").json()["rooms_waiting"] == 1
            await pilot.press("enter")
            while session.link.state.obs is None:
                await next_change(session)
            await pilot.pause()
            assert not app.table.query_one("#waiting").display
            assert tries == [session.room, session.room]

    ran: list = []

    def run_app(app) -> None:
        ran.append(app)
        asyncio.run(drive(app))
    await asyncio.to_thread(play_online, live.base, lang="zh",
                            ask=lambda q, **kw: next(answers, "q"), say=[].append, run_app=run_app)
    assert ran

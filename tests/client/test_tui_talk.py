"""Table talk (快捷語, 表情) at the terminal table against a real server.

The person's seat is the Textual app (or the plain lines); the other people are
``GameLink`` clients in a private room, bots fill the rest. Every expected text is
read from docs/social.md's catalogue, not from the code that shows it; every wait
is for a message, never for a clock."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from twmahjong.client import Api, GameLink
from twmahjong.tui.online import OnlineSession
from twmahjong.tui.talk import TalkPicker

from .test_client import simple
from .test_tui_online import SMALL, app_for, content, heard_since, next_change

DOCS = Path(__file__).resolve().parents[2] / "docs" / "social.md"
REL = {"zh": ("你", "下家", "對家", "上家"), "en": ("You", "Right", "Across", "Left")}
# a person's turn waits for them here (no auto-play mid-test), bots keep quiet
CALM = {"turn_base": 600.0, "bot_talk": 0.0}


def catalogue() -> tuple[list[dict], list[dict]]:
    """docs/social.md's phrase and emote tables, row by row."""
    phrases, emotes = [], []
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(\w+)`", cells[0]) if len(cells) > 3 else None
        if m and len(cells) == 7 and cells[1] in ("polite", "teasing", "celebratory"):
            phrases.append({"id": m[1], "kind": cells[1], "zh": cells[2], "en": cells[3]})
        elif m and len(cells) == 4:
            emotes.append({"id": m[1], "zh": cells[2], "en": cells[3]})
    return phrases, emotes


PHRASES, EMOTES = catalogue()
TEXT = {p["id"]: p for p in PHRASES}


def test_the_docs_catalogue_is_read():
    assert len(PHRASES) == 20 and len(EMOTES) == 8
    assert TEXT["hurry"]["en"] == "Hurry up, the flowers are wilting"


class Friend:
    """Another person at the table: reads every message, answers decisions simply."""

    def __init__(self, link: GameLink, play: bool = True):
        self.link, self.play = link, play
        self.seen: list[dict] = []
        self.new = asyncio.Event()
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        while True:
            m = await self.link.recv()
            self.seen.append(m)
            self.new.set()
            if self.play and m["type"] in ("update", "snapshot") and self.link.state.decision():
                await self.link.act(simple(self.link.state.obs))

    async def wait_for(self, pred) -> dict:
        while True:
            self.new.clear()
            for m in self.seen:
                if pred(m):
                    return m
            await asyncio.wait_for(self.new.wait(), 120)

    async def close(self) -> None:
        self.task.cancel()
        await self.link.close()


async def room(live, n_friends: int, play: bool = True):
    """A private room: the terminal's host, ``n_friends`` people, bots in the rest."""
    host = Api(live.base)
    await host.register("host", "secret-pw")
    opened = await host.open_room(bots="L1")
    apis, seats = [], []
    for i in range(n_friends):
        api = Api(live.base)
        await api.register(f"friend{i + 1}", "secret-pw")
        seats.append(await api.join_room(opened["code"]))
        apis.append(api)
    await host.start_room(opened["code"])
    session = OnlineSession(live.base, host.token, ("ticket", opened["ticket"]))

    async def sit_friends() -> list[Friend]:
        friends = []
        for api, seat in zip(apis, seats):
            link = GameLink(live.base, api.token)
            await link.connect()
            await link.join(seat["ticket"])
            f = Friend(link, play)
            await f.wait_for(lambda m: m["type"] == "snapshot")
            friends.append(f)
        return friends
    return session, sit_friends


async def seated(session: OnlineSession) -> None:
    while not session.seated:
        await next_change(session)


async def heard(session: OnlineSession, pred) -> dict:
    while True:
        for m in session.messages:
            if pred(m):
                return m
        await next_change(session)


def spy(session: OnlineSession) -> list[dict]:
    """Every body the terminal sends, recorded on the way out."""
    sent: list[dict] = []
    real = session.link.send

    async def send(body: dict) -> None:
        sent.append(body)
        await real(body)
    session.link.send = send
    return sent


@contextlib.asynccontextmanager
async def at_table(make_live, n_friends: int, lang: str = "en", **settings):
    """The terminal seated in a room with ``n_friends`` people (seated too), what it
    sends recorded: ``t.pilot``, ``t.app``, ``t.session``, ``t.friends``, ``t.me``, ``t.sent``."""
    live = make_live(**{**CALM, **settings})
    session, sit_friends = await room(live, n_friends)
    app = app_for(session, lang)
    async with app.run_test(size=SMALL) as pilot:
        await seated(session)
        friends = await sit_friends()
        yield SimpleNamespace(pilot=pilot, app=app, session=session, friends=friends,
                              me=session.link.state.seat, sent=spy(session))
        for f in friends:
            await f.close()


def says(seat: int, phrase: str | None = None, emote: str | None = None):
    return lambda m: (m["type"] == "talk" and m["seat"] == seat
                      and m.get("phrase") == phrase and m.get("emote") == emote)


@pytest.mark.asyncio
@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_talk_from_another_seat_shows_who_said_it_in_the_players_language(make_live, lang):
    async with at_table(make_live, 1, lang) as t:
        pilot, app, session, (friend,), me = t.pilot, t.app, t.session, t.friends, t.me
        them = friend.link.state.seat
        await friend.link.talk(phrase="hurry")
        await heard(session, says(them, "hurry"))
        await friend.link.talk(emote="thumbs")
        await heard(session, says(them, emote="thumbs"))
        await pilot.pause()
        rel = REL[lang][(them - me) % 4]
        thumbs = next(e for e in EMOTES if e["id"] == "thumbs")
        who = f"{rel} friend1：" if lang == "zh" else f"friend1 ({rel}): "
        first = who + TEXT["hurry"][lang]
        pane = content(app, "#talk").splitlines()
        assert pane[0].strip() == first
        assert pane[1].strip().startswith(who) and pane[1].strip().endswith(thumbs[lang])
        await pilot.press("g")                                   # the log has the talk too
        log = content(app, "#body")
        assert first in log and thumbs[lang] in log
        await pilot.press("escape")


@pytest.mark.asyncio
async def test_the_picker_says_a_phrase_and_every_other_person_hears_it(make_live):
    async with at_table(make_live, 2) as t:
        pilot, app, session, friends, me, sent = t.pilot, t.app, t.session, t.friends, t.me, t.sent
        await pilot.press("e")
        assert isinstance(app.screen, TalkPicker)
        polite = [p for p in PHRASES if p["kind"] == "polite"]
        listed = content(app, "#body")
        assert all(p["en"] in listed for p in polite)
        await pilot.press("2")                                  # the second polite phrase
        assert app.screen is app.table
        want = polite[1]["id"]
        for f in friends:
            m = await f.wait_for(says(me, want))
            assert m["bot"] is False
        assert sent == [{"type": "talk", "phrase": want}]
        await heard(session, says(me, want))
        await pilot.pause()
        assert f"You: {polite[1]['en']}" in content(app, "#talk")

        await pilot.press("e", "right", "down", "enter")       # teasing, its second line
        teasing = [p for p in PHRASES if p["kind"] == "teasing"]
        for f in friends:
            await f.wait_for(says(me, teasing[1]["id"]))
        await pilot.press("e", "left", "left", "1")            # emotes, the first
        for f in friends:
            await f.wait_for(says(me, emote=EMOTES[0]["id"]))
        assert sent[1:] == [{"type": "talk", "phrase": teasing[1]["id"]},
                            {"type": "talk", "emote": EMOTES[0]["id"]}]
        await pilot.press("e", "escape")                       # Esc says nothing
        assert app.screen is app.table and len(sent) == 3


@pytest.mark.asyncio
async def test_talking_too_fast_is_one_line_in_the_status(make_live):
    async with at_table(make_live, 0, talk_burst=1, talk_rate=0.001) as t:
        pilot, app, session, me = t.pilot, t.app, t.session, t.me
        await pilot.press("e", "1")
        await heard(session, says(me, PHRASES[0]["id"]))
        await pilot.press("e", "1")
        await heard(session, lambda m: m["type"] == "error" and m["code"] == "talk_too_fast")
        await pilot.pause()
        status = content(app, "#status")
        assert status.count("Talking too fast") == 1
        assert len(status.strip().splitlines()) == 1 and "Traceback" not in status
        assert app.screen is app.table and app.is_running
        assert len([m for m in session.talk if m["seat"] == me]) == 1   # nothing else said


@pytest.mark.asyncio
async def test_a_muted_seat_is_not_heard_until_unmuted(make_live):
    async with at_table(make_live, 1) as t:
        pilot, app, session, (friend,), me, sent = t.pilot, t.app, t.session, t.friends, t.me, t.sent
        them = friend.link.state.seat
        rel = (them - me) % 4
        await pilot.press("e", "left")                          # the 靜音 tab
        assert "[heard]" in content(app, "#body")
        await pilot.press(str(rel))
        assert "[muted]" in content(app, "#body")
        await pilot.press("escape")
        assert sent == [{"type": "mute", "seats": [them]}]
        # the terminal says hello after muting; once the friend hears it the server has
        # the mute, so the friend's line is dropped; the terminal's next line comes after it
        await pilot.press("e", "1")
        await friend.wait_for(says(me, PHRASES[0]["id"]))
        await friend.link.talk(phrase="hurry")
        await friend.wait_for(says(them, "hurry"))
        await pilot.press("e", "3")
        await heard(session, says(me, PHRASES[2]["id"]))
        await pilot.pause()
        assert not [m for m in session.messages if m["type"] == "talk" and m["seat"] == them]
        assert TEXT["hurry"]["en"] not in content(app, "#talk")

        await pilot.press("e", "left", str(rel), "escape")     # unmute
        assert sent[-1] == {"type": "mute", "seats": []}
        await pilot.press("e", "2")
        await friend.wait_for(says(me, PHRASES[1]["id"]))
        await friend.link.talk(phrase="tea")
        await heard(session, says(them, "tea"))
        await pilot.pause()
        assert TEXT["tea"]["en"] in content(app, "#talk")


@pytest.mark.asyncio
async def test_plain_lines_print_talk_and_say_speaks(make_live):
    from twmahjong.tui.plain_online import play_plain_online
    live = make_live(**CALM)
    session, sit_friends = await room(live, 1)
    out = io.StringIO()

    class Reader:
        """One line per prompt: the talk commands first, then Enter/x until both
        lines were heard, then q."""
        script = ["say", "say 3", "say 999", "say foo", "help"]

        def readline(self) -> str:
            from .test_tui_online import typed_when
            if self.script:
                typed_when(lambda: session.seated)
                return self.script.pop(0) + "\n"
            me = session.link.state.seat

            def heard_both():
                return {m.get("phrase") for m in session.talk if m["seat"] == me} >= {
                    "thanks"} and any(m["seat"] != me for m in session.talk)
            typed_when(lambda: session.legal() or heard_both())
            if heard_both():
                return "q\n"
            return "\n" if any(a.type == "discard" for a in session.legal()) else "x\n"

    task = asyncio.create_task(play_plain_online(session, "en", Reader(), out))
    while not session.seated:
        await next_change(session)
    (friend,) = await sit_friends()
    me, them = session.link.state.seat, friend.link.state.seat
    await friend.link.talk(phrase="hurry")
    await asyncio.wait_for(task, 300)
    await friend.close()
    lines = out.getvalue().splitlines()
    rel = REL["en"][(them - me) % 4]
    plain = [re.sub(r"^(> )+", "", x) for x in lines]          # stdin is not echoed
    assert f"friend1 ({rel}): {TEXT['hurry']['en']}" in plain
    assert "You: " + PHRASES[2]["en"] in plain                   # say 3 (docs' third phrase)
    numbered = [x for x in plain if re.match(r"\d+ \w+: ", x)]
    assert len(numbered) == len(PHRASES) + len(EMOTES)
    assert [x for x in plain if "999" in x] == ["No phrase '999': type say for the list"]
    assert [x for x in plain if "foo" in x] == ["No phrase 'foo': type say for the list"]
    assert any("say 3" in x for x in plain)                      # help lists the command


@pytest.mark.asyncio
async def test_a_mute_is_sent_again_after_the_link_comes_back(make_live):
    async with at_table(make_live, 1) as t:
        pilot, session, (friend,), me, sent = t.pilot, t.session, t.friends, t.me, t.sent
        them = friend.link.state.seat
        session.link.retry = (0.05, 0.1, 0.2, 0.5, 1.0)
        await pilot.press("e", "left", str((them - me) % 4), "escape")
        session.link.ws.transport.abort()                        # the network drops
        await heard(session, lambda m: m["type"] == "link")
        while "snapshot" not in [m["type"] for m in session.messages[
                [m["type"] for m in session.messages].index("link"):]]:
            await next_change(session)                           # seated again
        assert sent.count({"type": "mute", "seats": [them]}) == 2
        await pilot.press("e", "1")                              # as in the test above
        await friend.wait_for(says(me, PHRASES[0]["id"]))
        await friend.link.talk(phrase="hurry")
        await friend.wait_for(says(them, "hurry"))
        await pilot.press("e", "2")
        await heard(session, says(me, PHRASES[1]["id"]))
        assert not [m for m in session.messages if m["type"] == "talk" and m["seat"] == them]


@pytest.mark.asyncio
@pytest.mark.parametrize("link", ["prompt", "slow"])
async def test_a_bots_line_is_shown_as_the_bots(make_live, monkeypatch, link):
    """Bots grumble when a person's turn runs past its base time (docs/social.md). On a
    slow link the terminal connects after its first turn began, and past its base: the
    line said then reached nobody, so the server counts the base again from the arrival."""
    if link == "slow":
        connect = GameLink.connect

        async def slow_connect(self, *args, **kwargs):
            await asyncio.sleep(1.0)          # five turn bases: the seat's turn is under way
            return await connect(self, *args, **kwargs)
        monkeypatch.setattr(GameLink, "connect", slow_connect)
    async with at_table(make_live, 0, "zh", turn_base=0.2, turn_bank=600.0, bot_talk=1.0,
                        bot_talk_gap=0.0) as t:
        def bot_line():
            return next((m for m in t.session.talk if m["bot"]), None)
        while bot_line() is None:             # pass every claim; on our turn, wait for it
            seen = len(t.session.messages)
            legal = t.session.legal()
            if legal and not any(a.type == "discard" for a in legal):
                await t.pilot.press("x")      # the bot's line may come during the press
            await heard_since(t.session, seen)
        await t.pilot.pause()
        m = t.session.talk[-1]                # the pane's last line (bots only talk here)
        assert m["bot"] is True
        rel = REL["zh"][(m["seat"] - t.me) % 4]
        line = content(t.app, "#talk").strip().splitlines()[-1].strip()
        assert line.startswith(f"{rel} 電腦 ") and line.endswith("：" + TEXT[m["phrase"]]["zh"])

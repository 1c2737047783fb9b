"""``twmj play --server URL``: log in, choose a table, then the table screen.

The lobby is a few plain questions on the terminal before the screen opens —
the way a terminal game asks for a name — so it works the same with a screen
reader, in ``--plain`` mode and in a script: log in, register, or play as a guest
(the token is kept in the user's config directory, so the next run skips this);
then 一鍵匹配, a private room by code (open one or join one), or 回到牌桌 when a
seat's ticket from an unfinished game is kept. Every server refusal is one line
and the question is asked again; nothing here prints a traceback.
"""

from __future__ import annotations

import asyncio

import typer

from ..client import Api, ApiError, Credentials
from ..client.http import base_url
from ..errors import UserError
from .strings import error_text, mode_label, profile_label, tr

__all__ = ["choose_table", "log_in", "play_online"]

def _run(coro):
    return asyncio.run(coro)


def _leave(api: Api, code: str) -> None:
    """Give the room's seat up on the way back to the menu. A room already started or
    gone has nothing to give up; a lost connection shows at the next request."""
    try:
        _run(api.leave_room(code))
    except ApiError as e:
        if e.code == "network":
            raise


def _seated(lang: str, room: dict) -> str:
    """已入座 2/4：阿明、阿華 — the plain lobby's host sees who has joined before starting."""
    names = [n for n in room["players"] if n]
    return tr(lang, "room_seated_line", n=len(names), names="、".join(names) if lang == "zh"
              else ", ".join(names))


def log_in(api: Api, creds: Credentials, lang: str, ask=typer.prompt, say=typer.echo) -> dict:
    """The account: the kept token if the server still takes it, else ask (guest / log in / register)."""
    if api.token:
        try:
            return _run(api.me())
        except ApiError as e:
            if e.code == "network":
                raise
            api.token = None                       # expired or from another server
    else:
        # a wrong address or a stopped server is said before a name and a password
        # are typed for nothing
        _run(api.health())
    while True:
        pick = str(ask(tr(lang, "lobby_who"), default="1")).strip()
        try:
            if pick == "1":
                out = _run(api.guest())
            elif pick in ("2", "3"):
                name = str(ask(tr(lang, "lobby_name"))).strip()
                pw = str(ask(tr(lang, "lobby_password"), hide_input=True))
                out = _run(api.login(name, pw) if pick == "2" else api.register(name, pw))
            else:
                say(tr(lang, "lobby_again"))
                continue
        except ApiError as e:
            if e.code == "network":
                raise
            say(error_text(lang, e))
            continue
        creds.set(token=out["token"], name=out["account"]["name"])
        return out["account"]


def _refused_for_tables(e: ApiError) -> bool:
    return "too_many_tables" in (e.code, e.reason)


def games_in_progress(api: Api, lang: str, ask=typer.prompt, say=typer.echo,
                      creds: Credentials | None = None) -> tuple | None:
    """進行中的牌局: the account's unfinished games, each with 回到牌桌 (``b N``) and
    認輸 (``f N``, after a confirm that says what happens). ``("ticket", ticket)`` to
    sit back down, None to go back to the menu. A forfeited game's ticket, if it is the
    one ``creds`` keeps for the menu's 回到牌桌, is dropped with it: that seat is gone."""
    import datetime
    while True:
        games = _run(api.unfinished())
        if not games:
            say(tr(lang, "games_none"))
            return None
        say(tr(lang, "games_title", n=len(games)))
        for i, g in enumerate(games, 1):
            others = [n.removeprefix("bot:") for j, n in enumerate(g.get("players") or [])
                      if j != g.get("seat")]
            when = datetime.datetime.fromtimestamp(g.get("created_at") or 0).strftime("%m-%d %H:%M")
            say(tr(lang, "games_line", i=i, profile=profile_label(lang, g.get("profile", "")),
                   mode=mode_label(lang, g.get("mode", "")), seat=g.get("seat", "?"), players="、".join(others) if lang == "zh"
                   else ", ".join(others), when=when))
        ans = str(ask(tr(lang, "games_ask"), default="")).strip().lower()
        if not ans:
            return None
        word, _, num = ans.partition(" ")
        if not num and len(word) > 1 and word[0] in "bf":
            word, num = word[0], word[1:]
        if word not in ("b", "f") or not num.strip().isdigit() or not 1 <= int(num) <= len(games):
            say(tr(lang, "games_bad"))
            continue
        g = games[int(num) - 1]
        if word == "b":
            return ("ticket", g["ticket"])
        # as the server decides it: alone with bots the game ends, else a bot plays on
        people = [n for j, n in enumerate(g.get("players") or [])
                  if j != g.get("seat") and not str(n).startswith("bot:")]
        confirm = "games_confirm_others" if people else "games_confirm_alone"
        yes = str(ask(tr(lang, confirm, i=int(num)), default="n")).strip().lower()
        if not yes.startswith("y"):
            say(tr(lang, "games_kept"))
            continue
        try:
            out = _run(api.forfeit(g["game_id"]))
        except ApiError as e:
            if e.code == "network":
                raise
            say(error_text(lang, e))
            continue
        if creds is not None and creds.ticket and creds.ticket == g.get("ticket"):
            creds.set(ticket=None)
        say(tr(lang, "games_forfeit_ended" if out.get("outcome") == "ended" else "games_forfeit_bot"))


def choose_table(api: Api, creds: Credentials, lang: str, profile: str | None = None,
                 ask=typer.prompt, say=typer.echo, wait_at_table: bool = False) -> tuple | None:
    """How to sit down: ``("quick", profile, stake)`` or ``("ticket", ticket)``; None to quit.

    A room not started: with ``wait_at_table`` (the table screen, which waits by itself,
    shows who has sat down and takes Enter and q) ``("ticket", ticket, code)`` for a
    friend and ``("ticket", ticket, code, "host")`` for the host, at once; otherwise (the
    plain lines, which read only at decisions) the lobby asks until it starts."""
    while True:
        back = tr(lang, "lobby_back") if creds.ticket else ""
        typed = ""                                  # the room code asked for, if any
        pick = str(ask(tr(lang, "lobby_menu", back=back, games=tr(lang, "lobby_games")),
                       default="1")).strip().lower()
        try:
            if pick == "1":
                return ("quick", profile, "low")
            if pick == "2":
                room = _run(api.open_room(profile=profile or "standard"))
                if wait_at_table:               # the waiting page shows who sits down
                    return ("ticket", room["ticket"], room["code"], "host")
                while True:
                    say(_seated(lang, _run(api.room(room["code"]))))   # who has sat down
                    q = tr(lang, "lobby_room_open", code=room["code"])
                    ans = str(ask(q, default="")).strip().lower()
                    if ans == "q":
                        _leave(api, room["code"])        # closed: the code is gone for all
                        break
                    if ans == "r":
                        continue
                    _run(api.start_room(room["code"]))
                    return ("ticket", room["ticket"])
                continue
            if pick == "3":
                code = typed = str(ask(tr(lang, "lobby_code"))).strip()
                seat = _run(api.join_room(code))
                if wait_at_table and not seat["room"]["started"]:     # the join says
                    return ("ticket", seat["ticket"], code)
                while not _run(api.room(code)).get("started"):
                    if str(ask(tr(lang, "lobby_room_wait"), default="")).strip().lower() == "q":
                        _leave(api, code)                # the seat is free for someone else
                        break
                else:
                    return ("ticket", seat["ticket"])
                continue
            if pick == "4" and creds.ticket:
                return ("ticket", creds.ticket)
            if pick == "5":
                plan = games_in_progress(api, lang, ask, say, creds)
                if plan is not None:
                    return plan
                continue
            if pick in ("q", "quit"):
                return None
            say(tr(lang, "lobby_again"))
        except ApiError as e:
            if e.code == "network":
                raise
            if _refused_for_tables(e):        # say what to do, and offer the games at once
                say(tr(lang, "games_too_many"))
                plan = games_in_progress(api, lang, ask, say, creds)
                if plan is not None:
                    return plan
                continue
            say(error_text(lang, e, code=typed))


def play_online(url: str, *, lang: str = "zh", plain: bool = False, profile: str | None = None,
                ask=typer.prompt, say=typer.echo, run_app=None) -> None:
    """Log in, pick a table, play it on the table screen."""
    from .app import PlayApp
    from .online import OnlineSession
    from .prefs import Prefs
    try:
        base = base_url(url)
        creds = Credentials(base)
        api = Api(base, token=creds.token)
        account = log_in(api, creds, lang, ask, say)
        say(tr(lang, "lobby_hello", name=account["name"], coins=account.get("coins", 0)))
        plan = choose_table(api, creds, lang, profile, ask, say, wait_at_table=not plain)
        while plan is not None:
            session = OnlineSession(base, api.token, plan, creds=creds)
            if plain:
                from .plain_online import play_plain_online
                (run_app or asyncio.run)(play_plain_online(session, lang, prefs=Prefs.load()))
            else:
                app = PlayApp(session, lang, prefs=Prefs.load())
                (run_app or PlayApp.run)(app)
                if session.waiting_for_room:
                    _leave(api, session.room)    # left before the host started: the seat is free
            if session.refused != "too_many_tables":
                return
            # the quick match was refused: the waiting page closed; say what to do and
            # offer the games in progress (回到牌桌 / 認輸), then the menu again
            say(tr(lang, "games_too_many"))
            plan = games_in_progress(api, lang, ask, say, creds) or choose_table(
                api, creds, lang, profile, ask, say, wait_at_table=not plain)
    except ApiError as e:
        # the one line `twmj` prints for it, in the player's language (the address
        # typed wrong, the server not running), not the client library's English
        raise UserError(error_text(lang, e, server=url.strip(), url=url.strip())) from None

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
from .strings import error_text, tr

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
        pick = str(ask(tr(lang, "lobby_menu", back=back), default="1")).strip().lower()
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
            if pick in ("q", "quit"):
                return None
            say(tr(lang, "lobby_again"))
        except ApiError as e:
            if e.code == "network":
                raise
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
    except ApiError as e:
        # the one line `twmj` prints for it, in the player's language (the address
        # typed wrong, the server not running), not the client library's English
        raise UserError(error_text(lang, e, server=url.strip(), url=url.strip())) from None
    if plan is None:
        return
    session = OnlineSession(base, api.token, plan, creds=creds)
    if plain:
        from .plain_online import play_plain_online
        (run_app or asyncio.run)(play_plain_online(session, lang, prefs=Prefs.load()))
        return
    app = PlayApp(session, lang, prefs=Prefs.load())
    (run_app or PlayApp.run)(app)
    if session.waiting_for_room:
        _leave(api, session.room)        # left before the host started: the seat is free again

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

__all__ = ["choose_table", "log_in", "play_online"]

_T = {
    "who": ("1 訪客  2 登入  3 註冊", "1 guest  2 log in  3 register"),
    "name": ("名稱", "Name"),
    "password": ("密碼", "Password"),
    "hello": ("歡迎，{name}（{coins} 金幣）", "Welcome, {name} ({coins} coins)"),
    "menu": ("1 一鍵匹配  2 開私人房  3 用房號加入{back}  q 離開",
             "1 quick match  2 open a private room  3 join a room by code{back}  q quit"),
    "back": ("  4 回到牌桌", "  4 back to your table"),
    "code": ("房號", "Room code"),
    "room_open": ("房號 {code}：把它告訴朋友。按 Enter 開始（空位由電腦補上）",
                  "Room {code}: share the code. Press Enter to start (bots fill empty seats)"),
    "room_wait": ("等房主開始…（Enter 再看一次，q 放棄）", "Waiting for the host to start… (Enter checks again, q gives up)"),
    "choice": ("請選擇", "Choose"),
    "again": ("請再選一次", "Please choose again"),
}


def _t(lang: str, key: str, **kw) -> str:
    zh, en = _T[key]
    return (en if lang == "en" else zh).format(**kw)


def _run(coro):
    return asyncio.run(coro)


def log_in(api: Api, creds: Credentials, lang: str, ask=typer.prompt, say=typer.echo) -> dict:
    """The account: the kept token if the server still takes it, else ask (guest / log in / register)."""
    if api.token:
        try:
            return _run(api.me())
        except ApiError as e:
            if e.code == "network":
                raise
            api.token = None                       # expired or from another server
    while True:
        pick = str(ask(_t(lang, "who"), default="1")).strip()
        try:
            if pick == "1":
                out = _run(api.guest())
            elif pick in ("2", "3"):
                name = str(ask(_t(lang, "name"))).strip()
                pw = str(ask(_t(lang, "password"), hide_input=True))
                out = _run(api.login(name, pw) if pick == "2" else api.register(name, pw))
            else:
                say(_t(lang, "again"))
                continue
        except ApiError as e:
            if e.code == "network":
                raise
            say(str(e))
            continue
        creds.set(token=out["token"], name=out["account"]["name"])
        return out["account"]


def choose_table(api: Api, creds: Credentials, lang: str, profile: str | None = None,
                 ask=typer.prompt, say=typer.echo) -> tuple | None:
    """How to sit down: ``("quick", profile, stake)`` or ``("ticket", ticket)``; None to quit."""
    while True:
        back = _t(lang, "back") if creds.ticket else ""
        pick = str(ask(_t(lang, "menu", back=back), default="1")).strip().lower()
        try:
            if pick == "1":
                return ("quick", profile, "low")
            if pick == "2":
                room = _run(api.open_room(profile=profile or "standard"))
                while True:
                    ans = str(ask(_t(lang, "room_open", code=room["code"]), default="")).strip().lower()
                    if ans == "q":
                        break
                    _run(api.start_room(room["code"]))
                    return ("ticket", room["ticket"])
                continue
            if pick == "3":
                code = str(ask(_t(lang, "code"))).strip()
                seat = _run(api.join_room(code))
                while not _run(api.room(code)).get("started"):
                    if str(ask(_t(lang, "room_wait"), default="")).strip().lower() == "q":
                        break
                else:
                    return ("ticket", seat["ticket"])
                continue
            if pick == "4" and creds.ticket:
                return ("ticket", creds.ticket)
            if pick in ("q", "quit"):
                return None
            say(_t(lang, "again"))
        except ApiError as e:
            if e.code == "network":
                raise
            say(str(e))


def play_online(url: str, *, lang: str = "zh", plain: bool = False, profile: str | None = None,
                ask=typer.prompt, say=typer.echo, run_app=None) -> None:
    """Log in, pick a table, play it on the table screen."""
    from .app import PlayApp
    from .online import OnlineSession
    from .prefs import Prefs
    base = base_url(url)
    creds = Credentials(base)
    api = Api(base, token=creds.token)
    account = log_in(api, creds, lang, ask, say)
    say(_t(lang, "hello", name=account["name"], coins=account.get("coins", 0)))
    plan = choose_table(api, creds, lang, profile, ask, say)
    if plan is None:
        return
    session = OnlineSession(base, api.token, plan, creds=creds)
    if plain:
        from .plain_online import play_plain_online
        (run_app or asyncio.run)(play_plain_online(session, lang, prefs=Prefs.load()))
        return
    app = PlayApp(session, lang, prefs=Prefs.load())
    (run_app or PlayApp.run)(app)

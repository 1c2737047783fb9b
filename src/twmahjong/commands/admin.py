"""`twmj admin` — run the service: tables, players, coins, bans, closing a table.

Everything but ``close`` works on the database the server uses (the same
``--database`` / ``--data-dir`` / env ``TWMJ_*`` as ``twmj serve``), so it works
with the server up or down and from any machine that reaches the database. Coins
move only through the ledger (reason ``admin_grant`` / ``admin_take``), so a
balance always equals its ledger sum. A ban takes effect at the account's next
login, request or connection. ``close`` asks the running server (``--url``,
token from env ``TWMJ_ADMIN_TOKEN``) because only the process that runs a table
can end it. Bad input is refused in one line.

    twmj admin players --name aud
    twmj admin grant aud 5000 --note "compensation for the outage"
    twmj admin ban aud --reason "collusion"
    twmj admin close g_AbC --url http://127.0.0.1:8000
"""

from __future__ import annotations

import asyncio
import datetime
import os
import secrets
from pathlib import Path
from typing import Annotated

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from ..errors import UserError

MAX_AMOUNT = 10**9

admin = typer.Typer(name="admin", no_args_is_help=True, add_completion=False,
                    help="Operate the server: tables, players, coins, bans, closing a table.")

DatabaseOpt = Annotated[str | None, typer.Option(
    "--database", metavar="URL", help="The server's database (default: its SQLite file).")]
DataDirOpt = Annotated[Path | None, typer.Option(
    "--data-dir", help="The server's data folder (default ./data, env TWMJ_DATA_DIR).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")]


class AdminError(UserError):
    """An admin command that cannot be done as asked."""


def register(app: typer.Typer) -> None:
    app.add_typer(admin)


def _run(database: str | None, data_dir: Path | None, work):
    """Open the server's database (schema brought up to date), run ``work(repo)``."""
    from ..server.store.db import create_engine, migrate
    from ..server.store.repository import SqlRepository
    from ..server.settings import Settings

    settings = Settings.from_env(database_url=database, data_dir=data_dir)
    if settings.database_url is None and not (settings.data_dir / "twmj.sqlite3").exists():
        raise AdminError(f"no server database in {settings.data_dir.resolve()}; "
                         "give --data-dir or --database")

    async def go():
        engine = create_engine(settings.effective_database_url)
        try:
            await migrate(engine)
            return await work(SqlRepository(engine))
        except OSError as e:
            raise AdminError(f"cannot reach the database: {e}") from None
        finally:
            await engine.dispose()
    return asyncio.run(go())


async def _account(repo, who: str) -> dict:
    """An account by name, or by ``#id``."""
    if who.startswith("#") and who[1:].isdigit():
        acc = await repo.account(int(who[1:]))
    else:
        acc = await repo.account_by_name(who.strip())
    if acc is None or acc["name"].startswith("__"):
        raise AdminError(f"no account {who!r}")
    return acc


def _amount(value: str) -> int:
    if not value.isdigit() or not 0 < int(value) <= MAX_AMOUNT:
        raise AdminError(f"amount {value!r}: give a whole number of coins from 1 to {MAX_AMOUNT}")
    return int(value)


def _when(ts: float | None) -> str:
    if ts is None:
        return ""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def _cells(value: object) -> list[str]:
    return [str(x) for x in value] if isinstance(value, list) else [str(value)]


def _show(rows: list[dict], columns: list[str], title: str, as_json: bool,
          whole: tuple[str, ...] = ()) -> None:
    """``whole`` names the columns an operator copies into the next command (a game id
    into ``close``, a name into ``grant``): they are never cut with an ellipsis; the
    other columns wrap to make room."""
    if as_json:
        import orjson
        typer.echo(orjson.dumps(rows).decode())
        return
    t = Table(title=title)
    for c in columns:
        if c in whole:
            cells = [x for r in rows for x in _cells(r.get(c, ""))]
            t.add_column(c, no_wrap=True, overflow="ignore",
                         min_width=max([len(c), *(cell_len(x) for x in cells)]))
        else:
            t.add_column(c, overflow="fold")
    for r in rows:
        # a list (a table's seats) is one name a line, each whole
        t.add_row(*("\n".join(_cells(r.get(c, ""))) for c in columns))
    Console(highlight=False).print(t)


@admin.command("tables", help="Unfinished games in the database, with their players.")
def tables(database: DatabaseOpt = None, data_dir: DataDirOpt = None,
           as_json: JsonOpt = False) -> None:
    async def work(repo):
        return await repo.active_games()
    rows = [{"game_id": g["id"], "mode": g["mode"], "profile": g["profile"], "stake": g["stake"],
             "started": _when(g["created_at"]),
             "seats": [s["name"] for s in g["seats"]]}
            for g in _run(database, data_dir, work)]
    _show(rows, ["game_id", "mode", "profile", "stake", "started", "seats"],
          f"{len(rows)} unfinished games", as_json, whole=("game_id", "seats"))


@admin.command("players", help="Accounts, newest first (--name filters).")
def players(name: Annotated[str | None, typer.Option("--name", help="Part of the name.")] = None,
            limit: Annotated[int, typer.Option("--limit", min=1, max=10_000)] = 50,
            database: DatabaseOpt = None, data_dir: DataDirOpt = None,
            as_json: JsonOpt = False) -> None:
    async def work(repo):
        return await repo.find_accounts(name, limit)
    rows = [{"id": a["id"], "name": a["name"], "guest": bool(a["is_guest"]),
             "coins": int(a["coins"]), "rating": round(float(a["rating"]), 1),
             "banned": bool(a["banned_at"]), "ban_reason": a["ban_reason"] or ""}
            for a in _run(database, data_dir, work)]
    _show(rows, ["id", "name", "guest", "coins", "rating", "banned", "ban_reason"],
          f"{len(rows)} accounts", as_json, whole=("name",))


@admin.command("grant", help="Give an account coins (a ledger row 'admin_grant').")
def grant(who: Annotated[str, typer.Argument(help="Account name, or #id.")],
          amount: Annotated[str, typer.Argument(help="Coins, a whole number.")],
          once: Annotated[str | None, typer.Option(
              "--once", help="A key of your own (e.g. a ticket number): a grant with a "
                             "key already paid to this account pays nothing.")] = None,
          database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    n = _amount(amount)

    async def work(repo):
        acc = await _account(repo, who)
        paid = await repo.grant(acc["id"], n, "admin_grant",
                                once if once is not None else secrets.token_hex(8))
        return acc["name"], paid, await repo.ledger_sum(acc["id"])
    name, paid, balance = _run(database, data_dir, work)
    if not paid:
        typer.echo(f"{name} was already granted coins with the key {once!r}; nothing paid; "
                   f"balance {balance}")
        return
    typer.echo(f"granted {n} coins to {name}; balance {balance}")


@admin.command("take", help="Take coins from an account (a ledger row 'admin_take'); "
                            "never below zero.")
def take(who: Annotated[str, typer.Argument(help="Account name, or #id.")],
         amount: Annotated[str, typer.Argument(help="Coins, a whole number.")],
         database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    n = _amount(amount)

    async def work(repo):
        acc = await _account(repo, who)
        if not await repo.take_coins(acc["id"], n, "admin_take"):
            now = await repo.account(acc["id"])
            raise AdminError(f"{acc['name']} has {int(now['coins'])} coins; cannot take {n}")
        return acc["name"], await repo.ledger_sum(acc["id"])
    name, balance = _run(database, data_dir, work)
    typer.echo(f"took {n} coins from {name}; balance {balance}")


@admin.command("ban", help="Ban an account: no login, request or connection from it.")
def ban(who: Annotated[str, typer.Argument(help="Account name, or #id.")],
        reason: Annotated[str, typer.Option("--reason", help="Shown to the player.")] = "",
        database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    if len(reason) > 200:
        raise AdminError("--reason: at most 200 characters")

    async def work(repo):
        acc = await _account(repo, who)
        await repo.set_ban(acc["id"], reason or None, banned=True)
        return acc["name"]
    typer.echo(f"banned {_run(database, data_dir, work)}")


@admin.command("reset-password", help="Set a new password for an account and end every "
                                      "session of it (on every worker).")
def reset_password(who: Annotated[str, typer.Argument(help="Account name, or #id.")],
                   password: Annotated[str | None, typer.Option(
                       "--password", help="The new password (6-128 characters); without "
                                          "it a random one is made and shown once.")] = None,
                   database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    from ..server.people.auth import Accounts
    new = password if password is not None else secrets.token_urlsafe(12)
    if not 6 <= len(new) <= 128:
        raise AdminError("--password: a password has 6 to 128 characters")

    async def work(repo):
        acc = await _account(repo, who)
        if acc["is_guest"] or not acc["password_hash"]:
            raise AdminError(f"{acc['name']} is a guest (or the house): it has no password")
        await Accounts(repo, starting_coins=0).set_password(acc["id"], new)
        return acc["name"]
    name = _run(database, data_dir, work)
    shown = "" if password is not None else f"; the new password: {new}"
    typer.echo(f"reset the password of {name} and ended every session of it{shown}")


@admin.command("unban", help="Lift an account's ban.")
def unban(who: Annotated[str, typer.Argument(help="Account name, or #id.")],
          database: DatabaseOpt = None, data_dir: DataDirOpt = None) -> None:
    async def work(repo):
        acc = await _account(repo, who)
        if acc["banned_at"] is None:
            raise AdminError(f"{acc['name']} is not banned")
        await repo.set_ban(acc["id"], None, banned=False)
        return acc["name"]
    typer.echo(f"unbanned {_run(database, data_dir, work)}")


@admin.command("close", help="Close a running table (game id) or a private room (code) "
                             "on the server that runs it.")
def close(target: Annotated[str, typer.Argument(help="Game id (g_…) or room code.")],
          url: Annotated[str, typer.Option("--url", help="That server.")] = "http://127.0.0.1:8000",
          reason: Annotated[str, typer.Option("--reason")] = "closed by the operator") -> None:
    import httpx
    token = os.environ.get("TWMJ_ADMIN_TOKEN", "")
    if not token:
        raise AdminError("set TWMJ_ADMIN_TOKEN to the server's admin token")
    try:
        r = httpx.post(f"{url.rstrip('/')}/admin/v1/close/{target}", json={"reason": reason},
                       headers={"Authorization": f"Bearer {token}"}, timeout=30)
    except httpx.HTTPError as e:
        raise AdminError(f"cannot reach {url}: {e}") from None
    if r.status_code != 200:
        try:
            message = r.json()["error"]["message"]
        except Exception:  # noqa: BLE001 - whatever it said
            message = r.text[:200]
        raise AdminError(f"{url} refused: {message}")
    got = r.json()
    typer.echo(f"closed {got['closed']} {got.get('game_id') or got.get('code')}")


from . import admin_voices  # noqa: E402,F401  (the voice-* commands register on ``admin``)

"""Running the server as a service: /metrics, /livez and /readyz, the
connection cap, the bounded send queue, JSON logs, the fast message encoder, and
`twmj admin` — each refusing bad input in one line."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import httpx
import pytest
from server_helpers import HANG, Client, simple_policy
from rich.cells import cell_len
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from twmahjong.cli import main as twmj
from twmahjong.server.app import uvicorn_config
from twmahjong.server.logs import JsonFormatter, configure
from twmahjong.server.net import protocol as P
from twmahjong.server.net.ws import Connection
from twmahjong.server.settings import Settings

ADMIN = "admin-token-for-tests-0123456789"


def run(coro):
    return asyncio.run(coro)


def metric(text: str, name: str, **labels) -> float:
    """The value of one sample in a Prometheus text page (raises if absent)."""
    from prometheus_client.parser import text_string_to_metric_families
    for fam in text_string_to_metric_families(text):
        for s in fam.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    raise KeyError(name)


async def until(cond, what: str) -> None:
    """Wait for an event (polling the server's state), bounded only by the hang guard."""
    for _ in range(int(HANG / 0.02)):
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


async def seated_with_bots(live) -> Client:
    c = await Client.open(live, live.guest())
    await c.send({"type": "quick_match", "mode": "casual"})
    await c.expect("matched")
    await c.expect("snapshot")
    return c


async def play_actions(c: Client, n: int) -> int:
    """Answer this seat's decisions until ``n`` of its own turns were played. An answer
    in a claim window is held until the window's minimum has passed (docs/protocol.md,
    "Claim windows"), so only own turns are counted as answered at once."""
    done = 0
    while done < n:
        m = await c.recv()
        legal = (m.get("observation") or {}).get("legal") if m["type"] in (
            "update", "snapshot") else None
        if legal:
            await c.send({"type": "action", "action": simple_policy(m["observation"]),
                          "turn": m["turn"]})
            done += any(a["type"] == "discard" for a in legal)
    return done


# -- the fast encoder --------------------------------------------------------------------
def test_table_messages_are_the_models_output_byte_for_byte():
    obs = {"seat": 1, "hand": "1m2m", "legal": [{"type": "discard", "tile": "2m"}]}
    clocks = [{"base": 5.0, "bank": 20.0, "running": True}, None, None, None]
    assert P.message("update", turn=3, events=[{"type": "draw", "seat": 1, "tile": "?"}],
                     observation=obs, timer={"base": 5.0}, clocks=clocks) == \
        P.out(P.Update(turn=3, events=[{"type": "draw", "seat": 1, "tile": "?"}],
                       observation=obs, timer={"base": 5.0}, clocks=clocks))
    assert P.message("snapshot", table={"game_id": "g"}, hand=None, observation=None, turn=0,
                     timer=None, clocks=None) == \
        P.out(P.Snapshot(table={"game_id": "g"}, hand=None, observation=None, turn=0,
                         timer=None, clocks=None))
    assert P.message("presence", seat=2, connected=False, auto=True) == \
        P.out(P.Presence(seat=2, connected=False, auto=True))


# -- /metrics, /livez, /readyz ---------------------------------------------------------------
def test_metrics_count_connections_tables_and_timed_actions(make_live):
    live = make_live(bot_delay=0.0, claim_window=0.02)

    async def go():
        c = await seated_with_bots(live)
        await play_actions(c, 3)
        page = live.http("GET", "/metrics").text
        await c.close()
        return page
    page = run(go())
    assert metric(page, "twmj_connections") == 1
    assert metric(page, "twmj_tables", state="playing") == 1
    assert metric(page, "twmj_actions_total") >= 3
    # our 3 actions were each timed from arrival to broadcast (the last may be in flight)
    assert metric(page, "twmj_action_broadcast_seconds_count") >= 2
    assert metric(page, "twmj_db_commit_seconds_count") >= 1
    assert metric(page, "twmj_send_queue_messages", stat="max") >= 0


def test_errors_answered_to_clients_are_counted_by_code(make_live):
    live = make_live()

    async def go():
        c = await Client.open(live, live.guest())
        await c.send({"type": "nonsense"})
        await c.expect("error", code="unknown_type")
        await c.close()
    run(go())
    assert metric(live.http("GET", "/metrics").text, "twmj_errors_total",
                  code="unknown_type") == 1


def test_livez_and_readyz_answer_and_readyz_names_what_is_wrong(make_live):
    live = make_live()
    assert live.http("GET", "/livez").json() == {"ok": True}
    r = live.http("GET", "/readyz")
    assert r.status_code == 200 and r.json()["ok"] is True

    live.server.started = False
    r = live.http("GET", "/readyz")
    assert r.status_code == 503 and r.json()["problem"].startswith("starting")
    live.server.started = True

    from twmahjong.server.store.db import create_engine
    good, live.server.engine = live.server.engine, create_engine(
        "postgresql+asyncpg://nobody:x@127.0.0.1:1/none")
    try:
        r = live.http("GET", "/readyz")
        assert r.status_code == 503 and r.json()["problem"].startswith("database")
    finally:
        live.server.engine = good
    assert live.http("GET", "/livez").status_code == 200


# -- the connection cap, the send queue ------------------------------------------------------
def test_past_the_connection_cap_a_client_is_told_the_server_is_full(make_live):
    live = make_live(max_connections=2)

    async def go():
        a = await Client.open(live, live.guest())
        b = await Client.open(live, live.guest())
        async with connect(live.ws_url) as ws:
            refused = json.loads(await ws.recv())
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            code = ws.close_code
        await a.close()
        await until(lambda: live.server.connections == 1, "a closed link is uncounted")
        c = await Client.open(live, live.guest())        # room again: accepted
        await c.close()
        await b.close()
        return refused, code
    refused, code = run(go())
    assert refused["type"] == "error" and refused["code"] == "server_full"
    assert code == 1013
    assert metric(live.http("GET", "/metrics").text, "twmj_connections_refused_total") == 1


class _StuckSocket:
    """A client that never reads (every send waits for a window that never opens)
    and never writes."""
    client = None

    async def accept(self) -> None:
        pass

    async def receive(self) -> dict:
        await asyncio.Event().wait()

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()


def test_a_client_that_does_not_read_is_dropped_without_making_the_table_wait(tmp_path):
    from twmahjong.server.core import Server
    server = Server(Settings(data_dir=tmp_path, secret_key="s", send_queue=8))

    async def go():
        conn = Connection(_StuckSocket(), server)
        handler = asyncio.create_task(conn.run())
        await until(lambda: conn.writer is not None, "the connection is up")
        for i in range(20):                 # a table pushing: push never awaits the client
            conn.push(f'{{"n":{i}}}')
        await handler                       # ends by itself, without an error
        return conn
    conn = run(go())
    assert conn.closed and conn.dropped
    assert server.connections == 0 and not server.conns
    assert conn.outbox.qsize() == 8          # the bound; nothing queued past it
    assert metric(server.metrics.exposition().decode(),
                  "twmj_slow_clients_dropped_total") == 1


# -- logs ---------------------------------------------------------------------------------------
def test_json_logs_are_one_object_a_line_with_extras_and_tracebacks(tmp_path):
    out = io.StringIO()
    handler = configure("json", "info", stream=out)
    try:
        log = logging.getLogger("twmahjong.server.play.table")
        log.info("table %s paused", "g_1", extra={"game_id": "g_1"})
        try:
            raise ValueError("boom\nsecond line")
        except ValueError:
            log.exception("table failed")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    first, second = (json.loads(x) for x in lines)
    assert first["msg"] == "table g_1 paused" and first["game_id"] == "g_1"
    assert first["level"] == "info" and first["logger"] == "twmahjong.server.play.table"
    assert "ValueError: boom" in second["exc"]
    assert uvicorn_config(None, Settings(log_format="json")).log_config is None


def test_the_json_formatter_keeps_only_what_the_call_site_added():
    r = logging.LogRecord("x", logging.WARNING, "f.py", 3, "hello", None, None)
    assert set(json.loads(JsonFormatter().format(r))) == {"ts", "level", "logger", "msg"}


# -- twmj admin -----------------------------------------------------------------------------------
def admin(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        twmj(["admin", *args])
        code = 0
    except SystemExit as e:
        code = e.code or 0
    got = capsys.readouterr()
    return code, got.out, got.err


def test_admin_lists_players_and_moves_coins_only_through_the_ledger(make_live, db_url, capsys):
    live = make_live()
    token = live.guest()
    me = live.http("GET", "/api/v1/me", token).json()
    db = ["--database", db_url]

    code, out, _ = admin(capsys, "players", "--name", me["name"], "--json", *db)
    assert code == 0
    assert [(p["name"], p["coins"]) for p in json.loads(out)] == [(me["name"], 10_000)]

    code, out, _ = admin(capsys, "grant", me["name"], "500", *db)
    assert code == 0 and out.strip() == f"granted 500 coins to {me['name']}; balance 10500"
    code, out, _ = admin(capsys, "take", f"#{me['id']}", "10500", *db)
    assert code == 0 and "balance 0" in out
    code, _, err = admin(capsys, "take", me["name"], "1", *db)
    assert code == 2 and err.strip() == f"twmj: error: {me['name']} has 0 coins; cannot take 1"

    ledger = live.http("GET", "/api/v1/me/ledger", token).json()
    assert [r["reason"] for r in ledger["rows"]] == ["welcome", "admin_grant", "admin_take"]
    assert ledger["balance"] == sum(r["amount"] for r in ledger["rows"]) == 0


@pytest.mark.parametrize("args,message", [
    (["grant", "nobody-here", "5"], "no account 'nobody-here'"),
    (["grant", "x", "0"], "amount '0': give a whole number of coins from 1 to 1000000000"),
    (["take", "x", "1.5"], "amount '1.5': give a whole number of coins from 1 to 1000000000"),
    (["unban", "#999999"], "no account '#999999'"),
])
def test_admin_refuses_bad_input_in_one_line(make_live, db_url, capsys, args, message):
    make_live()
    code, out, err = admin(capsys, *args, "--database", db_url)
    assert code == 2 and out == ""
    assert err.strip() == f"twmj: error: {message}"


def test_a_banned_account_cannot_connect_or_call_until_unbanned(make_live, db_url, capsys):
    live = make_live()
    token = live.guest()
    name = live.http("GET", "/api/v1/me", token).json()["name"]
    code, out, _ = admin(capsys, "ban", name, "--reason", "collusion", "--database", db_url)
    assert code == 0 and out.strip() == f"banned {name}"

    r = live.http("GET", "/api/v1/me", token)
    assert r.status_code == 401 and "banned: collusion" in r.json()["error"]["message"]

    async def hello():
        c = await Client.open(live)
        await c.send({"type": "hello", "token": token})
        m = await c.expect("error")
        await c.close()
        return m
    m = run(hello())
    assert m["code"] == "auth" and "banned" in m["message"]

    code, out, _ = admin(capsys, "unban", name, "--database", db_url)
    assert code == 0 and out.strip() == f"unbanned {name}"
    assert live.http("GET", "/api/v1/me", token).status_code == 200
    code, _, err = admin(capsys, "unban", name, "--database", db_url)
    assert code == 2 and err.strip() == f"twmj: error: {name} is not banned"


def test_admin_tables_shows_each_game_id_and_name_whole_at_80_columns(
        make_live, db_url, capsys, monkeypatch):
    """The operator copies a game id from `admin tables` into `admin close`, a name into
    `grant` or `ban`. At 80 columns Rich cut both with an ellipsis ("g_obwWYuO2rYS…",
    "guest-6a4a1…"), and the copied id named no table. They are now whole; the other
    columns fold to make room, and each seat is a line of its own."""
    live = make_live()
    long_name = "阿明的朋友_from_nightmkt"      # 18 characters (20 at most), 23 cells wide
    token = live.register(long_name)

    async def go():
        c = await Client.open(live, token)
        await c.send({"type": "quick_match", "mode": "casual"})
        await c.expect("matched")
        await c.expect("snapshot")
        await c.close()
        return c.game_id
    game_id = run(go())
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = admin(capsys, "tables", "--database", db_url)
    assert code == 0
    assert game_id in out and long_name in out and "…" not in out
    assert max(cell_len(x) for x in out.splitlines()) <= 80
    code, out, _ = admin(capsys, "tables", "--json", "--database", db_url)
    seats = next(g["seats"] for g in json.loads(out) if g["game_id"] == game_id)
    assert len(seats) == 4 and long_name in seats
    code, out, _ = admin(capsys, "players", "--database", db_url)
    assert code == 0 and long_name in out and "…" not in out


def test_admin_closes_a_running_table_and_its_players_are_told(make_live, capsys, monkeypatch):
    live = make_live(admin_token=ADMIN, bot_delay=0.2)

    async def go():
        c = await seated_with_bots(live)
        monkeypatch.setenv("TWMJ_ADMIN_TOKEN", ADMIN)
        code, out, _ = await asyncio.to_thread(admin, capsys, "close", c.game_id, "--url",
                                               live.base, "--reason", "maintenance")
        closed = await c.expect("error", code="table_closed")
        end = await c.expect("game_end")
        monkeypatch.setenv("TWMJ_ADMIN_TOKEN", "wrong-token-wrong-token")
        again = await asyncio.to_thread(admin, capsys, "close", c.game_id, "--url", live.base)
        await c.close()
        return c.game_id, code, out, closed, end, again
    game_id, code, out, closed, end, again = run(go())
    assert code == 0 and out.strip() == f"closed table {game_id}"
    assert "maintenance" in closed["message"]
    assert end["aborted"] is True
    assert again[0] == 2 and again[2].strip() == \
        f"twmj: error: {live.base} refused: wrong admin token"
    row = httpx.get(f"{live.base}/api/v1/health", timeout=HANG).json()
    assert row["aborted"] == 1


def test_the_admin_api_is_off_without_a_token(make_live):
    live = make_live()
    r = live.http("POST", "/admin/v1/close/g_x", headers={"Authorization": f"Bearer {ADMIN}"},
                  json={})
    assert r.status_code == 404


# -- a closing window's passes: one stored batch ---------------------------------------------
class _WindowGame:
    """A hand held in a claim window: seat 0 discarded, seats 1-3 can only pass, and
    the window resolves (seat 1 draws: an event) when the last of them has passed."""
    hand_no = 1
    lilgu = False

    def __init__(self):
        self.waiting = {1, 2, 3}
        self.acted: list[int] = []
        self.events = [{"type": "discard", "seat": 0, "tile": "1m"}]

    def in_window(self) -> bool:
        return bool(self.waiting)

    def pending(self) -> dict:
        from twmahjong.server.play.game import PASS_ONLY
        if self.waiting:
            return {s: PASS_ONLY for s in sorted(self.waiting)}
        return {1: [{"type": "discard", "tile": "2m"}]}

    def act(self, seat: int, action: dict) -> None:
        assert seat in self.waiting and action == {"type": "pass"}
        self.waiting.discard(seat)
        self.acted.append(seat)
        if not self.waiting:
            self.events.append({"type": "draw", "seat": 1, "tile": "2m"})

    def hand_over(self) -> bool:
        return False

    def event_count(self) -> int:
        return len(self.events)


class _Repo:
    def __init__(self):
        self.batches: list[list[dict]] = []

    def queue_actions(self, game_id: str, rows: list[dict]) -> int:
        self.batches.append(rows)
        return len(self.batches)

    async def stored(self, ticket: int) -> None:
        pass

    def rejected(self, game_id: str) -> None:
        return None


def test_a_closing_window_passes_for_its_pass_only_seats_in_one_stored_batch(tmp_path):
    from twmahjong.server.play.table import SeatState, Table, TableServices
    from twmahjong.server.play.timers import TurnClock

    async def go():
        repo = _Repo()
        settings = Settings(data_dir=tmp_path, secret_key="s", claim_window=0.5)
        seats = [SeatState(account_id=i, name=f"p{i}", bot=None, clock=TurnClock(5, 20))
                 for i in range(4)]
        game = _WindowGame()
        table = Table("g_w", {"mode": "casual", "options": {}}, seats, game,
                      TableServices(repo=repo, settings=settings, tokens=None,
                                    make_bot=None, on_finished=None))
        table.hand_open = True
        table._sync_pending()                     # the window opens
        number = table.window
        await table._window_over(number)          # ... and closes
        return repo, game, table, number
    repo, game, table, number = run(go())
    assert number is not None and table.window is None     # resolved: seat 1's turn
    assert game.acted == [1, 2, 3]
    assert [[(r["seat"], r["seq"]) for r in b] for b in repo.batches] == [[(1, 0), (2, 1), (3, 2)]]
    assert table.turn == 3 and list(table.pending) == [1]


def test_the_moves_commit_is_handed_the_write_lock_before_waiting_sign_ups():
    from twmahjong.server.store.repository import WriteTurns

    async def go():
        turns, order = WriteTurns(), []

        async def write(name: str, first: bool = False) -> None:
            if first:
                async with turns.first():
                    order.append(name)
            else:
                async with turns:
                    order.append(name)
                    await asyncio.sleep(0)
        await turns.acquire()                      # a transaction in progress
        tasks = [asyncio.create_task(write(f"signup{i}")) for i in range(3)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(write("moves", first=True)))
        cancelled = asyncio.create_task(write("gone"))
        await asyncio.sleep(0)
        cancelled.cancel()                         # a waiter that gave up is skipped
        turns.release()
        await asyncio.gather(*tasks)
        return order, turns.locked()
    order, held = run(go())
    assert order == ["moves", "signup0", "signup1", "signup2"]
    assert held is False

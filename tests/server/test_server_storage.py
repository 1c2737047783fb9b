"""Storage: migrations, accounts with their 新人禮包, and the coin ledger."""

import asyncio

import pytest
import sqlalchemy as sa

from twmahjong.server.people.auth import Accounts, AuthError
from twmahjong.server.store.db import create_engine, is_sqlite, migrate
from twmahjong.server.store.repository import SqlRepository


def run(coro):
    return asyncio.run(coro)


async def _repo(url):
    engine = create_engine(url)
    await migrate(engine)
    await migrate(engine)          # idempotent: a restart runs it again
    return engine, SqlRepository(engine)


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path):
    async def go():
        engine, _ = await _repo(f"sqlite+aiosqlite:///{tmp_path / 'x.sqlite3'}")
        async with engine.connect() as conn:
            mode = await conn.scalar(sa.text("PRAGMA journal_mode"))
            busy = await conn.scalar(sa.text("PRAGMA busy_timeout"))
        await engine.dispose()
        return mode, busy
    assert run(go()) == ("wal", 5000)


def test_new_account_gets_its_starting_coins_as_a_ledger_row(db_url):
    async def go():
        engine, repo = await _repo(db_url)
        accounts = Accounts(repo, starting_coins=2500)
        acc = await accounts.register("阿明", "secret-pw")
        rows = await repo.ledger_rows(acc["id"])
        again = await accounts.login("阿明", "secret-pw")
        await engine.dispose()
        return acc, rows, again
    acc, rows, again = run(go())
    assert acc["coins"] == 2500 and not acc["is_guest"]
    assert [(r["amount"], r["reason"]) for r in rows] == [(2500, "welcome")]
    assert again["id"] == acc["id"]
    assert acc["password_hash"].startswith("$argon2")


def test_login_and_registration_errors_are_user_errors(db_url):
    async def go():
        engine, repo = await _repo(db_url)
        accounts = Accounts(repo, starting_coins=100)
        await accounts.register("player1", "secret-pw")
        errors = []
        for call in (lambda: accounts.register("player1", "another-pw"),
                     lambda: accounts.login("player1", "wrong-pw"),
                     lambda: accounts.login("nobody", "secret-pw"),
                     lambda: accounts.register("x", "secret-pw"),
                     lambda: accounts.register("guest-1", "secret-pw"),
                     lambda: accounts.register("player2", "123")):
            try:
                await call()
            except AuthError as e:
                errors.append(str(e))
        await engine.dispose()
        return errors
    errors = run(go())
    assert len(errors) == 6
    assert "taken" in errors[0] and errors[1] == errors[2] == "wrong name or password"


def test_balances_equal_the_ledger_sum_after_every_movement(db_url):
    async def go():
        engine, repo = await _repo(db_url)
        a = await repo.create_account("aaa", None, is_guest=True, starting_coins=1000)
        b = await repo.create_account("bbb", None, is_guest=True, starting_coins=1000)
        house = await repo.house_id()
        await repo.move_coins([(a["id"], -160, "hand"), (b["id"], 152, "hand"),
                               (house, 8, "fee")], game_id="g1", hand_no=1)
        await repo.move_coins([(a["id"], 40, "hand"), (b["id"], -40, "hand")],
                              game_id="g1", hand_no=2)
        out = []
        for acc_id in (a["id"], b["id"], house):
            acc = await repo.account(acc_id)
            out.append((acc["coins"], await repo.ledger_sum(acc_id)))
        await engine.dispose()
        return out
    assert run(go()) == [(880, 880), (1112, 1112), (8, 8)]


def test_is_sqlite():
    assert is_sqlite("sqlite+aiosqlite:///x") and not is_sqlite("postgresql+asyncpg://h/db")


def test_a_stale_owner_cannot_write_once_another_took_the_game_on(db_url):
    """Fencing: taking a game on bumps its epoch; a write, a settlement or
    an ending that carries the old epoch is refused and stores nothing."""
    from twmahjong.server.store.repository import Fenced

    async def go():
        engine, repo = await _repo(db_url)
        game = {"id": "g_fence", "mode": "casual", "profile": "standard", "stake": "low",
                "rounds": 1, "seats": [{"account_id": None, "name": f"bot{i}", "bot": "L1"}
                                       for i in range(4)]}
        await repo.create_game(game)
        row = {"hand_no": 1, "kind": "hand", "seat": None, "data": {"seed": "1"}}
        await repo.stored(repo.queue_actions("g_fence", [{"seq": 0, **row}], epoch=1))
        assert not repo.refused("g_fence", 1)
        assert await repo.take_game("g_fence") == 2          # another process adopts it
        await repo.stored(repo.queue_actions("g_fence", [{"seq": 1, **row}], epoch=1))
        stale = repo.refused("g_fence", 1)
        settled = {"seq": 1, "hand_no": 1, "kind": "settled", "seat": None, "data": {}}
        try:
            await repo.settle_hand("g_fence", 1, [], settled, epoch=1)
            settle_fenced = False
        except Fenced:
            settle_fenced = True
        try:
            await repo.finish_game("g_fence", {"scores": [0] * 4}, epoch=1)
            finish_fenced = False
        except Fenced:
            finish_fenced = True
        await repo.stored(repo.queue_actions("g_fence", [{"seq": 1, **row}], epoch=2))
        seqs = [r["seq"] for r in await repo.game_actions("g_fence")]
        status = (await repo.game("g_fence"))["status"]
        await repo.close()
        await engine.dispose()
        return stale, settle_fenced, finish_fenced, seqs, status
    assert run(go()) == (True, True, True, [0, 1], "active")


def test_a_game_whose_rows_the_database_refuses_does_not_hold_up_the_others(db_url):
    """Two workers once wrote one game (before fencing), and the group commit
    retried the batch with the duplicate key for ever, so no table's moves were stored
    again. Now the batch is stored game by game: the other game's rows go in, the
    refused game hears so (``rejected``), and nothing is tried again as a whole."""
    from twmahjong.server.store.repository import Refused

    async def go():
        engine, repo = await _repo(db_url)
        for gid in ("g_bad", "g_good"):
            await repo.create_game({"id": gid, "mode": "casual", "profile": "standard",
                                    "stake": "low", "rounds": 1,
                                    "seats": [{"account_id": None, "name": f"bot{i}",
                                               "bot": "L1"} for i in range(4)]})
        row = {"hand_no": 1, "kind": "hand", "seat": None, "data": {"seed": "1"}}
        # another writer stored g_bad's row 0 already
        await repo.stored(repo.queue_actions("g_bad", [{"seq": 0, **row}], epoch=1))
        tried: list[list[str]] = []          # the games of each transaction tried
        commit = repo._commit

        async def spy(batch):
            tried.append(sorted({r["game_id"] for r in batch}))
            return await commit(batch)
        repo._commit = spy
        repo.queue_actions("g_bad", [{"seq": 0, **row}, {"seq": 1, **row}], epoch=1)
        good = asyncio.ensure_future(repo.stored(
            repo.queue_actions("g_good", [{"seq": 0, **row}], epoch=1)))
        # the writer stores g_good, or tries the same batch again (the old writer, for
        # ever): whichever comes first
        while not good.done() and tried.count(["g_bad", "g_good"]) < 2:
            await asyncio.sleep(0.01)
        stored_good = good.done()
        good.cancel()
        if not stored_good:
            await engine.dispose()
            return stored_good, tried, None, None, None, {}
        refusal, none = repo.rejected("g_bad"), repo.rejected("g_good")
        again = repo.rejected("g_bad")       # told once
        # the refused game is not shut out: its next rows are stored
        await repo.stored(repo.queue_actions("g_bad", [{"seq": 1, **row}], epoch=1))
        seqs = {g: [r["seq"] for r in await repo.game_actions(g)] for g in ("g_bad", "g_good")}
        await repo.close()
        await engine.dispose()
        return stored_good, tried, refusal, none, again, seqs
    stored_good, tried, refusal, none, again, seqs = run(go())
    assert stored_good, f"g_good's row was never stored; transactions tried: {tried}"
    assert isinstance(refusal, Refused) and refusal.game_id == "g_bad"
    assert none is None and again is None
    assert seqs == {"g_bad": [0, 1], "g_good": [0]}


def test_a_table_whose_moves_are_refused_ends_cleanly_while_another_plays_on(db_url, tmp_path):
    """The same at the tables: a row another writer stored where table A's next move
    goes makes A's write fail. A alone hears so (nothing of it stored, nobody told):
    it rebuilds from what is stored, and as that row does not replay it ends cleanly
    as aborted; table B's moves commit meanwhile and B plays its game to the end."""
    from twmahjong.server.core import Server
    from twmahjong.server.settings import Settings
    from twmahjong.server.store.schema import game_actions

    async def go():
        settings = Settings(data_dir=tmp_path / "data", database_url=db_url,
                            secret_key="s", bot_delay=0.0, claim_window=0.01,
                            hand_pause=0.0, turn_base=8.0, turn_bank=4.0)
        server = Server(settings)
        await server.start()
        tried: dict[tuple, int] = {}          # the rows of each transaction tried
        commit = server.repo._commit

        async def spy(batch):
            rows = tuple((r["game_id"], r["seq"]) for r in batch)
            tried[rows] = tried.get(rows, 0) + 1
            return await commit(batch)
        server.repo._commit = spy
        settles: list[tuple[str, int]] = []   # (game, seq) of each hand's settlement
        settle = server.repo.settle_hand

        async def settle_spy(game_id, hand_no, entries, row, **kw):
            settles.append((game_id, row["seq"]))
            return await settle(game_id, hand_no, entries, row, **kw)
        server.repo.settle_hand = settle_spy
        a = await server.create_table(mode="casual", profile="standard", stake="low",
                                      rounds=1, players=[None] * 4)
        # another writer's row where A's move 40 goes (it does not replay either)
        async with server.engine.begin() as conn:
            await conn.execute(game_actions.insert().values(
                game_id=a.id, seq=40, hand_no=1, kind="action", seat=0,
                data={"action": {"type": "another writer's move"}}))
        b = await server.create_table(mode="casual", profile="standard", stake="low",
                                      rounds=1, players=[None] * 4)
        # both end, or the same rows are tried a third time (once together, once game by
        # game is all; the old writer retried them for ever and B's moves never
        # committed again)
        while not (a.finished and b.finished) and max(tried.values(), default=0) < 3:
            await asyncio.sleep(0.02)
        done = a.finished and b.finished
        rows = {t.id: await server.repo.game_actions(t.id) for t in (a, b)}
        status = {t.id: (await server.repo.game(t.id))["status"] for t in (a, b)}
        await server.stop() if done else await server.engine.dispose()
        return done, a.id, b.id, rows, status, tried, settles
    done, a, b, rows, status, tried, settles = run(go())
    assert done, "the refused rows were tried again and again; B stalled"
    assert status == {a: "aborted", b: "finished"}
    # A's moves before the refused write are stored, in order; the write that met row
    # 40 (it may carry 38 and 39 too: passes of one claim window go together) stored
    # none of its rows, and nothing of A's after it was tried
    seqs = [r["seq"] for r in rows[a]]
    kept = len(seqs) - 1
    assert 38 <= kept <= 40 and seqs == [*range(kept), 40]
    assert rows[a][-1]["data"]["action"]["type"] == "another writer's move"
    refused = [[seq for g, seq in t if g == a] for t in tried if (a, 40) in t]
    # row 40 met either a write of moves or, when A's hand ended just there (the deal's
    # seed is random: about one run in a hundred), the hand's settlement, whose
    # transaction it refuses the same way; one of the two, never both
    assert bool(refused) != ((a, 40) in settles), (refused, settles)
    assert all(seqs[0] == kept for seqs in refused)
    if not refused:
        assert kept == 40
    assert [r["seq"] for r in rows[b]] == list(range(len(rows[b])))


def test_the_head_constant_names_the_newest_migration_and_a_current_database_skips_alembic(tmp_path):
    """``db.HEAD`` lets a restart skip Alembic (and its memory): it must be the newest
    revision in the migrations folder, and a database at it must not import Alembic."""
    import subprocess
    import sys

    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from twmahjong.server.store import db
    cfg = Config()
    cfg.set_main_option("script_location", str(db._MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_heads() == [db.HEAD]
    url = f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"
    probe = ("import asyncio, sys\n"
             "from twmahjong.server.store.db import create_engine, migrate\n"
             f"asyncio.run(migrate(create_engine({url!r})))\n"
             "print('alembic' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert (first.stdout.strip(), again.stdout.strip()) == ("True", "False")


def test_one_group_commit_stores_the_rows_whose_epoch_holds_and_refuses_the_rest(db_url):
    """The group commit (one fenced statement through asyncpg on PostgreSQL, the fence
    query and an insert on SQLite): in one group, a game taken on by another process
    has its rows refused and noted; a current one's and an unfenced one's go in."""
    async def go():
        engine, repo = await _repo(db_url)
        for gid in ("g_old", "g_cur", "g_free"):
            await repo.create_game({"id": gid, "mode": "casual", "profile": "standard",
                                    "stake": "low", "rounds": 1,
                                    "seats": [{"account_id": None, "name": f"bot{i}",
                                               "bot": "L1"} for i in range(4)]})
        assert await repo.take_game("g_old") == 2
        data = {"action": {"type": "discard", "tile": "5m"}, "n": [1, None], "zh": "打"}
        row = {"hand_no": 1, "kind": "action", "seat": 2, "data": data}
        repo.queue_actions("g_old", [{"seq": 0, **row}], epoch=1)
        repo.queue_actions("g_cur", [{"seq": 0, **row}, {"seq": 1, **row, "seat": None}],
                           epoch=1)
        await repo.stored(repo.queue_actions("g_free", [{"seq": 0, **row}]))
        got = {g: await repo.game_actions(g) for g in ("g_old", "g_cur", "g_free")}
        flags = (repo.refused("g_old", 1), repo.refused("g_cur", 1))
        await repo.close()
        await engine.dispose()
        return got, flags
    got, flags = run(go())
    assert flags == (True, False)
    assert got["g_old"] == []
    assert [(r["seq"], r["seat"]) for r in got["g_cur"]] == [(0, 2), (1, None)]
    assert got["g_cur"][0]["data"] == got["g_free"][0]["data"] == {
        "action": {"type": "discard", "tile": "5m"}, "n": [1, None], "zh": "打"}


def test_moves_queued_as_the_database_drops_its_connections_are_stored_after(db_url):
    """A connection PostgreSQL ends under the writer (a restart, a failover) is a wait
    and a retry, never lost rows nor a refusal."""
    if is_sqlite(db_url):
        pytest.skip("PostgreSQL only: SQLite has no server that drops a connection")

    async def go():
        engine, repo = await _repo(db_url)
        await repo.create_game({"id": "g_drop", "mode": "casual", "profile": "standard",
                                "stake": "low", "rounds": 1,
                                "seats": [{"account_id": None, "name": f"bot{i}",
                                           "bot": "L1"} for i in range(4)]})
        row = {"hand_no": 1, "kind": "action", "seat": 0, "data": {}}
        await repo.stored(repo.queue_actions("g_drop", [{"seq": 0, **row}], epoch=1))
        # every other connection of this database ends (the pool's, the writer's)
        killer = create_engine(db_url)
        async with killer.connect() as conn:
            n = await conn.scalar(sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
        await killer.dispose()
        await repo.stored(repo.queue_actions("g_drop", [{"seq": 1, **row}], epoch=1))
        seqs = [r["seq"] for r in await repo.game_actions("g_drop")]
        gone = repo.rejected("g_drop"), repo.refused("g_drop", 1)
        await repo.close()
        await engine.dispose()
        return n, seqs, gone
    n, seqs, gone = run(go())
    assert n >= 1 and seqs == [0, 1] and gone == (None, False)

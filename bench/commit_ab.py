"""A/B of the moves' group commit on PostgreSQL in one run: SQLAlchemy's fence query plus
executemany (A, the SQLite path forced) against the one fenced asyncpg statement (B), the
same rows alternating in rounds; CPU and wall per commit.

    TWMJ_TEST_POSTGRES=postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj_test \
        .venv/bin/python bench/commit_ab.py 20     # rows (games) per commit
"""
import asyncio, os, sys, time, resource
from twmahjong.drill import fresh_postgres
from twmahjong.server.store.db import create_engine, migrate
from twmahjong.server.store.repository import SqlRepository

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime

URL = fresh_postgres(os.environ["TWMJ_TEST_POSTGRES"], "twmj_fast_ab")

async def main(rows_per=int(sys.argv[1]) if len(sys.argv) > 1 else 20, commits=300, rounds=4):
    url = URL
    engine = create_engine(url); await migrate(engine)
    repo = SqlRepository(engine)
    games = [f"g{i}" for i in range(rows_per)]
    for g in games:
        await repo.create_game({"id": g, "mode": "casual", "profile": "standard", "stake": "low",
                                "rounds": 1, "seats": [{"account_id": None, "name": "b", "bot": "L1"}] * 4})
    seq = {g: 0 for g in games}
    data = {"action": {"type": "discard", "tile": "5m"}}
    res = {"A": [0.0, 0.0], "B": [0.0, 0.0]}
    for rnd in range(rounds):
        for label, pg in (("A", False), ("B", True)) if rnd % 2 == 0 else (("B", True), ("A", False)):
            repo._pg = pg
            c0, t0 = cpu(), time.perf_counter()
            for _ in range(commits):
                batch = []
                for g in games:
                    batch.append({"game_id": g, "seq": seq[g], "hand_no": 1, "kind": "action", "seat": 1, "data": data, "_epoch": 1})
                    seq[g] += 1
                await repo._commit(batch)
            res[label][0] += cpu() - c0; res[label][1] += time.perf_counter() - t0
    n = commits * rounds // 2
    for k, (c, w) in res.items():
        print(f"{k}: CPU {1000*c/n:.3f} ms/commit ({1000*c/n/rows_per:.3f} ms/row), wall {1000*w/n:.2f} ms/commit")
    print(f"B/A CPU {res['B'][0]/res['A'][0]:.2f}, wall {res['B'][1]/res['A'][1]:.2f}; loadavg {os.getloadavg()}")
    await engine.dispose()

asyncio.run(main())

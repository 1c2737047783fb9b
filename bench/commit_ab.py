"""A/B of the moves' group commit, in one run: SQLAlchemy's fence query plus
executemany (A, forced) against the one fenced statement straight to the driver (B:
``store/pg_moves.py`` on PostgreSQL, ``store/sqlite_moves.py`` with ``--sqlite``); the
same rows, the two alternating in rounds; CPU and wall time per commit.

    TWMJ_TEST_POSTGRES=postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj_test \\
        .venv/bin/python bench/commit_ab.py --rows 20     # rows (games) per commit
    .venv/bin/python bench/commit_ab.py --sqlite --rows 4   # a temporary SQLite file
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import tempfile
import time

from twmahjong.drill import fresh_postgres
from twmahjong.server.store.db import create_engine, migrate
from twmahjong.server.store.repository import SqlRepository

PG = "postgresql+asyncpg://twmj:twmj@127.0.0.1:5432/twmj_test"


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


async def ab(url: str, rows: int, commits: int, rounds: int) -> dict[str, list[float]]:
    engine = create_engine(url)
    await migrate(engine)
    repo = SqlRepository(engine)
    direct = "_pg" if repo._pg else "_lite"
    games = [f"g{i}" for i in range(rows)]
    for g in games:
        await repo.create_game({"id": g, "mode": "casual", "profile": "standard",
                                "stake": "low", "rounds": 1,
                                "seats": [{"account_id": None, "name": "b", "bot": "L1"}] * 4})
    seq = dict.fromkeys(games, 0)
    data = {"action": {"type": "discard", "tile": "5m"}}
    spent = {"A": [0.0, 0.0], "B": [0.0, 0.0]}
    for r in range(rounds):
        order = (("A", False), ("B", True)) if r % 2 == 0 else (("B", True), ("A", False))
        for label, pg in order:
            setattr(repo, direct, pg)
            c0, t0 = cpu(), time.perf_counter()
            for _ in range(commits):
                batch = []
                for g in games:
                    batch.append({"game_id": g, "seq": seq[g], "hand_no": 1, "kind": "action",
                                  "seat": 1, "data": data, "_epoch": 1})
                    seq[g] += 1
                await repo._commit(batch)
            spent[label][0] += cpu() - c0
            spent[label][1] += time.perf_counter() - t0
    await engine.dispose()
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=20, help="rows (one per game) per commit")
    ap.add_argument("--commits", type=int, default=300, help="commits per round")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--database", default=os.environ.get("TWMJ_TEST_POSTGRES", PG))
    ap.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead")
    a = ap.parse_args()
    if a.sqlite:
        url = f"sqlite+aiosqlite:///{tempfile.mkdtemp(prefix='commit-ab-')}/twmj.db"
    else:
        url = fresh_postgres(a.database, "twmj_commit_ab")
    spent = asyncio.run(ab(url, a.rows, a.commits, a.rounds))
    n = a.commits * a.rounds // 2
    for k, (c, w) in spent.items():
        print(f"{k}: CPU {1000 * c / n:.3f} ms/commit ({1000 * c / n / a.rows:.3f} ms/row), "
              f"wall {1000 * w / n:.2f} ms/commit")
    print(f"B/A: CPU x{spent['B'][0] / spent['A'][0]:.2f}, wall x{spent['B'][1] / spent['A'][1]:.2f}"
          f"; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

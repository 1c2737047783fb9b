"""Server test fixtures: the real app under uvicorn on a loopback port, real
WebSocket clients, and the database URL — SQLite always, PostgreSQL as well when
``TWMJ_TEST_POSTGRES`` names one (``postgresql+asyncpg://…``; CI sets it)."""

from __future__ import annotations

import os

import pytest
import server_helpers
from server_helpers import Live

from twmahjong.server.settings import Settings

PG = os.environ.get("TWMJ_TEST_POSTGRES")

# Abandoned tables play on here (pause_after): several tests let bots finish a game.
FAST = {**server_helpers.FAST, "pause_after": 3600.0}


def _pg_database(url: str) -> str:
    """A database of our own per xdist worker, emptied for each test."""
    from twmahjong.drill import fresh_postgres
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    # TWMJ_TEST_TAG keeps two checkouts' runs on one PostgreSQL out of each other's way
    return fresh_postgres(url, f"twmj_test_{os.environ.get('TWMJ_TEST_TAG', '')}{worker}")


@pytest.fixture(params=["sqlite"] + (["postgres"] if PG else []))
def db_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}"
    return _pg_database(PG)


@pytest.fixture
def make_live(tmp_path, db_url):
    started: list[Live] = []

    def factory(make_bot=None, game_factory=None, **over) -> Live:
        settings = Settings(data_dir=tmp_path / "data", database_url=db_url,
                            secret_key="test-secret", **{**FAST, **over})
        live = Live(settings, make_bot=make_bot, game_factory=game_factory).start()
        started.append(live)
        return live

    yield factory
    for live in started:
        live.stop()


@pytest.fixture
def live(make_live) -> Live:
    return make_live()

"""A real server for the client tests: the app under uvicorn on a loopback port,
started the way tests/server starts it (``server_helpers.Live``), on SQLite."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from server_helpers import FAST, Live  # noqa: E402

from twmahjong.server.settings import Settings  # noqa: E402


@pytest.fixture
def make_live(tmp_path):
    started: list[Live] = []

    def factory(**over) -> Live:
        # each server of a test keeps its own data (a test may start a second one)
        home = tmp_path / f"server{len(started)}" if started else tmp_path
        settings = Settings(data_dir=home / "data",
                            database_url=f"sqlite+aiosqlite:///{home / 'twmj.sqlite3'}",
                            secret_key="test-secret", **{**FAST, **over})
        live = Live(settings).start()
        started.append(live)
        return live

    yield factory
    for live in started:
        live.stop()


@pytest.fixture
def live(make_live) -> Live:
    # the result stays up until the person's key (下一局), as on a real server: with
    # the tests' 0.05 s pause the next hand would be dealt, and the table screen
    # brought back, before a test could read the result
    return make_live(hand_pause=30.0)


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Tokens and tickets go to a folder of the test's own, never the user's config."""
    monkeypatch.setenv("TWMJ_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"

"""Every terminal-client test keeps its settings and saved matches in its own folder."""

import pytest


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("TWMJ_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path / "config"

"""`twmj serve` hands off to the lean server process (an idle server's
memory): same PID, the options it was given, the hand tables mapped, no CLI left."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from server_helpers import HANG

PG = os.environ.get("TWMJ_TEST_POSTGRES")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_twmj_serve_becomes_the_server_process_with_its_options(tmp_path):
    twmj = Path(sys.executable).with_name("twmj")
    port = _free_port()
    proc = subprocess.Popen([str(twmj), "serve", "--port", str(port), "--data-dir", str(tmp_path / "d")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path)
    try:
        line = proc.stdout.readline()                     # the first line is the announcement
        assert f"serving on http://127.0.0.1:{port}/" in line, line
        assert str(tmp_path / "d") in line
        cmd = Path(f"/proc/{proc.pid}/cmdline").read_bytes().split(b"\0")
        assert cmd[1:3] == [b"-m", b"twmahjong.server.launch"]    # exec'd: the same PID
        env = dict(kv.split(b"=", 1) for kv in Path(f"/proc/{proc.pid}/environ").read_bytes()
                   .split(b"\0") if b"=" in kv)
        assert env[b"TWMJ_MAP_TABLES"] == b"1" and env[b"TWMJ_PORT"] == str(port).encode()
        r = httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=HANG)
        assert r.status_code == 200 and r.json()["ok"] is True
        assert (tmp_path / "d" / "twmj.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(HANG)


def test_a_command_line_in_process_never_replaces_its_caller(monkeypatch, tmp_path):
    """A program (or a test) calling ``cli.main([...])`` keeps its process: only the
    real command line hands off. (A worker of the test run once became a server.)"""
    from twmahjong.cli import main
    from twmahjong.commands import serve
    with pytest.raises(SystemExit):
        main(["profiles"])
    assert serve.HAND_OFF is False
    calls = []
    monkeypatch.setattr(serve, "_hand_off", lambda chosen: calls.append(chosen))
    monkeypatch.setattr(serve, "_Server", lambda config, settings: type("S", (), {"run": lambda self: None})())
    monkeypatch.setattr(serve, "_check_port", lambda host, port: None)
    serve.serve_command(data_dir=tmp_path)
    assert calls == []


def test_a_bad_option_is_still_one_line_before_any_hand_off(tmp_path):
    twmj = Path(sys.executable).with_name("twmj")
    r = subprocess.run([str(twmj), "serve", "--port", str(_free_port()), "--redis", "redis://127.0.0.1:1/0"],
                       capture_output=True, text=True, cwd=tmp_path, timeout=HANG)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "cannot reach Redis" in r.stderr


def test_a_database_that_cannot_be_reached_is_one_line_not_a_traceback(tmp_path):
    """Nothing listens where --database points (and no wait): one line naming it, the
    password left out, exit 2. It used to be uvicorn's start-up traceback and
    "Application startup failed" (exit 3)."""
    twmj = Path(sys.executable).with_name("twmj")
    url = f"postgresql+asyncpg://twmj:s3cret-pw@127.0.0.1:{_free_port()}/twmj"
    r = subprocess.run([str(twmj), "serve", "--port", str(_free_port()), "--database", url],
                       capture_output=True, text=True, cwd=tmp_path, timeout=HANG,
                       env={**os.environ, "TWMJ_DATABASE_WAIT": "0"})
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr + r.stdout and "s3cret-pw" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("twmj: error:")]
    assert len(lines) == 1 and "cannot reach the database at postgresql+asyncpg://twmj:***@" \
        in lines[0], r.stderr


@pytest.mark.skipif(not PG, reason="needs TWMJ_TEST_POSTGRES")
def test_a_worker_started_while_its_database_is_away_waits_for_it(tmp_path):
    """A PostgreSQL restart or failover while a worker (re)starts (the chaos run killed
    one during a database outage: its restart died with a traceback and the cluster
    went on a worker short). It now says once that it waits, and serves once the
    database is back; a wrong password is not waited for."""
    from twmahjong.drill import DatabaseOutage, fresh_postgres
    url = fresh_postgres(PG, f"twmj_test_{os.environ.get('TWMJ_TEST_TAG', '')}outage")
    outage = DatabaseOutage(url)
    twmj = Path(sys.executable).with_name("twmj")
    port = _free_port()
    outage.down()
    try:
        proc = subprocess.Popen([str(twmj), "serve", "--port", str(port), "--database", url,
                                 "--data-dir", str(tmp_path / "d")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=tmp_path, env={**os.environ, "TWMJ_DATABASE_WAIT": str(HANG)})
        try:
            said = proc.stderr.readline()
            assert "does not answer" in said and "waiting for it" in said, said
            assert proc.poll() is None
            outage.up()
            line = proc.stdout.readline()
            assert f"serving on http://127.0.0.1:{port}/" in line, line
            r = httpx.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=HANG)
            assert r.status_code == 200 and r.json()["ok"] is True
        finally:
            proc.terminate()
            proc.wait(HANG)
    finally:
        outage.up()
    wrong = url.replace("twmj:twmj@", "twmj:not-the-password@", 1)
    assert wrong != url
    r = subprocess.run([str(twmj), "serve", "--port", str(_free_port()), "--database", wrong],
                       capture_output=True, text=True, cwd=tmp_path, timeout=HANG,
                       env={**os.environ, "TWMJ_DATABASE_WAIT": str(HANG)})
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "cannot use the database" in r.stderr and "password authentication failed" in r.stderr

"""`twmj serve` hands off to the lean server process (issue #14: an idle server's
memory): same PID, the options it was given, the hand tables mapped, no CLI left."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import httpx
from server_helpers import HANG


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
    with __import__("pytest").raises(SystemExit):
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

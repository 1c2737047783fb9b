"""Ctrl-C stops `twmj serve` cleanly, whenever it comes: no traceback, a known exit.

Each case starts the real command (the venv's ``twmj``, which execs the server
process) and sends SIGINT at a moment told by an event, never by a clock: while the
command line loads its modules (a compiled extension is mapped in), right after the
exec into the server process, while it waits for a database that does not answer,
once it says it is listening, and twice in a row (the second lands in the shutdown
the first started). Before it serves, the exit is 130 (128 + SIGINT); after a
graceful shutdown, 0.

Not covered, and cannot be from inside the package: the first milliseconds, while
Python itself starts (site-packages, before any twmj code runs), are Python's own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_helpers import HANG

pytestmark = pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(tmp_path: Path, *extra: str) -> subprocess.Popen:
    twmj = Path(sys.executable).with_name("twmj")
    return subprocess.Popen([str(twmj), "serve", "--port", str(_free_port()),
                             "--data-dir", str(tmp_path / "d"), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)


def _when(proc: subprocess.Popen, seen) -> None:
    """Poll the process's /proc entries until ``seen`` says the moment has come."""
    while not seen(proc.pid):
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.001)


def _maps(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/maps").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ProcessLookupError):
        return b""


def _stop(proc: subprocess.Popen, times: int = 1) -> tuple[int, str]:
    for _ in range(times):
        proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, err


def _clean(err: str) -> None:
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "panicked" not in err and "Exception" not in err, err


def test_ctrl_c_once_it_listens_shuts_down_and_exits_0(tmp_path):
    proc = _start(tmp_path)
    assert "serving on" in proc.stdout.readline()
    code, err = _stop(proc)
    _clean(err)
    assert code == 0


def test_ctrl_c_twice_in_a_row_once_it_listens(tmp_path):
    """The second Ctrl-C lands in the graceful shutdown the first started: uvicorn
    stops waiting for connections, the application's own shutdown still runs."""
    proc = _start(tmp_path)
    assert "serving on" in proc.stdout.readline()
    code, err = _stop(proc, times=2)
    _clean(err)
    assert code == 0


@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_while_the_command_line_loads(tmp_path, times):
    """A compiled extension (pydantic's core, loaded by the settings) is mapped in:
    the command line is in the middle of its imports, before the exec."""
    proc = _start(tmp_path)
    _when(proc, lambda pid: "_pydantic_core" in _maps(pid))
    code, err = _stop(proc, times)
    _clean(err)
    assert code == 130


@pytest.mark.parametrize("times", [1, 2])
def test_ctrl_c_right_after_the_exec_into_the_server_process(tmp_path, times):
    proc = _start(tmp_path)
    _when(proc, lambda pid: b"twmahjong.server.launch" in _cmdline(pid))
    code, err = _stop(proc, times)
    _clean(err)
    assert code == 130


def test_ctrl_c_while_waiting_for_the_database(tmp_path):
    url = f"postgresql+asyncpg://twmj:pw@127.0.0.1:{_free_port()}/twmj"
    proc = _start(tmp_path, "--database", url)
    line = proc.stderr.readline()
    assert "does not answer" in line, line
    code, err = _stop(proc)
    _clean(err)
    assert code == 130

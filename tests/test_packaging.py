"""The wheel works on its own: built, installed into a fresh venv, ``twmj`` runs.

``python -m build`` makes the sdist and the wheel (without build isolation:
hatchling is in the dev extra, so nothing is downloaded). The wheel goes into a
new venv with ``--no-deps``; its dependencies are borrowed from the project venv
through a ``.pth`` path line appended after the venv's own site-packages, so the
installed package — not the editable checkout — is the one imported (the test
checks ``twmahjong.__file__``). Then ``twmj score``, ``waits``, ``profiles`` and
``selfplay`` run from the venv's own script, the hand tables are built into a
fresh cache dir (and still work when no cache dir can be written), and ``twmj
serve`` answers ``/`` with the browser client from inside the installed package.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytest.importorskip("build")
pytest.importorskip("hatchling")

HAND = {"profile": "standard", "concealed": "123m456p789s22z55s",
        "melds": [{"type": "pon", "tiles": "777p"}], "flowers": "1f6f", "win_tile": "2z",
        "self_drawn": False, "seat_wind": "E", "round_wind": "S", "dealer": False,
        "dealer_streak": 0, "conditions": []}


def _build(tmp: Path) -> dict[str, Path]:
    out = tmp / "dist"
    src = tmp / "src" / "twmahjong"
    # build from a clean copy: a checkout's caches and venv never reach the sdist
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".venv", ".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".mypy_cache",
        "data", "dist", "policy.npz",
        "build", "site", "*.egg-info", "node_modules"))
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    wheels = list(out.glob("twmahjong-*.whl"))
    sdists = list(out.glob("twmahjong-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return {"wheel": wheels[0], "sdist": sdists[0]}


def _install(built: dict[str, Path], tmp: Path) -> Path:
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.check_output(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], text=True).strip())
    # the project's dependencies, after the venv's own site-packages (a path line in a
    # .pth is appended to sys.path; .pth files inside that folder are not read)
    (site / "zz_project_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "--no-deps",
                        "--no-index", "-q", str(built["wheel"])],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    return env_dir


def _run(env_dir: Path, args: list[str], cache: Path, stdin: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(TWMJ_CACHE_DIR=str(cache), PATH=f"{env_dir / 'bin'}:{env.get('PATH', '')}")
    return subprocess.run([str(env_dir / "bin" / args[0]), *args[1:]], input=stdin,
                          capture_output=True, text=True, timeout=120, env=env, cwd=env_dir)


def _check_wheel_contents(built: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    for f in ("twmahjong/web/index.html", "twmahjong/web/js/app.js", "twmahjong/web/css/table.css",
              "twmahjong/profiles/standard.toml", "twmahjong/profiles/casual.toml",
              "twmahjong/profiles/classic.toml", "twmahjong/py.typed",
              "twmahjong/env/aec.py", "twmahjong/server/store/migrations/script.py.mako"):
        assert f in names, f
    ep = zipfile.ZipFile(built["wheel"]).read(
        next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "twmj = twmahjong.cli:main" in ep
    import tarfile
    members = tarfile.open(built["sdist"]).getnames()
    assert any(m.endswith("src/twmahjong/web/index.html") for m in members)
    assert not any("/.venv/" in m or "__pycache__" in m for m in members)


def _check_commands(installed: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    r = _run(installed, ["python", "-c", "import twmahjong; print(twmahjong.__file__)"], cache)
    assert r.returncode == 0 and str(installed) in r.stdout, r.stdout + r.stderr

    r = _run(installed, ["twmj", "score"], cache, stdin=json.dumps(HAND))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["winning"] is True and out["tai"] > 0
    assert list(cache.glob("hand-tables-v*.bin"))           # built once, cached

    r = _run(installed, ["twmj", "waits", "23m456m678p234s567s99p", "--json"], cache)
    assert r.returncode == 0, r.stderr
    assert [w["tile"] for w in json.loads(r.stdout)["waits"]] == ["1m", "4m", "7m"]

    r = _run(installed, ["twmj", "profiles", "--json"], cache)
    assert r.returncode == 0, r.stderr
    assert {"standard", "classic", "casual"} <= {p["id"] for p in json.loads(r.stdout)}

    r = _run(installed, ["twmj", "selfplay", "--hands", "2", "--seed", "1", "--json"], cache)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["hands"] == 2

    r = _run(installed, ["twmj", "score"], cache, stdin="{not json")
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip()


def _check_unwritable_cache(installed: Path, tmp_path: Path) -> None:
    """A read-only home (here: a cache path under a plain file, which even root cannot
    create) costs a rebuild per start, never an error."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("")
    r = _run(installed, ["twmj", "waits", "23m456m678p234s567s99p", "--json"], blocker / "cache")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["shanten"] == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _check_serve(installed: Path, tmp_path: Path, cache: Path) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["TWMJ_CACHE_DIR"] = str(cache)
    proc = subprocess.Popen([str(installed / "bin" / "twmj"), "serve", "--port", str(port),
                             "--data-dir", str(tmp_path / "data")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=tmp_path)
    try:
        body = None
        for _ in range(300):                  # up to ~30 s for the server to listen
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                    body = resp.read().decode()
                    break
            except OSError:
                time.sleep(0.1)
        assert body is not None, "server did not answer: " + (
            proc.stdout.read().decode(errors="replace")[-2000:] if proc.poll() is not None else "")
        assert "<html" in body.lower() and "js/app.js" in body
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/js/tiles.js", timeout=5) as resp:
            assert resp.status == 200
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_wheel_builds_installs_and_runs(tmp_path: Path) -> None:
    """One test, so that one worker builds and installs once (tens of seconds)."""
    built = _build(tmp_path)
    _check_wheel_contents(built)
    installed = _install(built, tmp_path)
    for d in ("run", "ro", "serve"):
        (tmp_path / d).mkdir()
    _check_commands(installed, tmp_path / "run")
    _check_unwritable_cache(installed, tmp_path / "ro")
    _check_serve(installed, tmp_path / "serve", cache=tmp_path / "run" / "cache")


# -- what `make run` and `make test` install -------------------------------------------

DEV_TOOLS = {"mypy", "mkdocs", "mkdocstrings", "playwright", "pytest", "pytest-xdist", "hypothesis",
             "numpy", "gymnasium", "pettingzoo", "build", "hatchling", "py-spy", "httpx", "mahjong",
             "pytest-asyncio"}


def _names(requirements: list[str]) -> set[str]:
    import re
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_runtime_dependencies_hold_no_dev_tool() -> None:
    """`make run` installs ``.`` alone: pyproject's dependencies are what serving and
    the command line need; every test, type-checking, docs and RL tool is an extra."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = _names(project["dependencies"])
    assert runtime & DEV_TOOLS == set()
    extras = project["optional-dependencies"]
    in_dev = _names(extras["dev"]) | _names(extras["rl"]) | _names(extras["docs"])
    assert DEV_TOOLS <= in_dev | {"twmahjong"}


def _make(*args: str, cwd: Path = ROOT) -> list[str]:
    r = subprocess.run(["make", "--no-print-directory", *args], cwd=cwd, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout.splitlines()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_installs_the_package_alone_and_make_test_the_dev_extras() -> None:
    run = _make("-n", "-B", "run")
    assert ".venv/bin/python -m pip install -q -e ." in run
    assert not any("[dev]" in line for line in run)
    test = _make("-n", "-B", "test")
    assert ".venv/bin/python -m pip install -q -e '.[dev]'" in test
    assert test[-1] == ".venv/bin/python -m pytest -q -n 4"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_passes_host_and_port_to_twmj_serve() -> None:
    assert _make("-n", "-B", "run")[-1] == ".venv/bin/twmj serve"     # twmj serve's defaults
    assert _make("-n", "-B", "run", "PORT=9123", "HOST=0.0.0.0")[-1] == \
        ".venv/bin/twmj serve --host '0.0.0.0' --port '9123'"
    assert _make("-n", "-B", "run", "PORT=8080")[-1] == ".venv/bin/twmj serve --port '8080'"


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_each_install_has_its_stamp(tmp_path: Path) -> None:
    """Run for real with a stand-in for the venv's python (it logs what pip is asked):
    `make run` after `make test` installs nothing; `make test` after `make run`
    installs the dev extras; a changed pyproject.toml installs again."""
    log = tmp_path / "pip.log"
    for order, wanted in ((["install-dev", "install"], ["-e .[dev]"]),
                          (["install", "install-dev"], ["-e .", "-e .[dev]"])):
        work = tmp_path / "-".join(order)
        (work / ".venv" / "bin").mkdir(parents=True)
        shutil.copy(ROOT / "Makefile", work)
        shutil.copy(ROOT / "pyproject.toml", work)
        fake = work / ".venv" / "bin" / "python"
        fake.write_text(f'#!/bin/sh\n[ "$3" = install ] && [ "$4" = -q ] && echo "$5 $6" >> {log}\nexit 0\n')
        fake.chmod(0o755)
        log.write_text("")
        for target in order:
            _make(target, cwd=work)
        assert log.read_text().split("\n")[:-1] == wanted, order
        assert _make("-q", "install", "install-dev", cwd=work) == []   # both up to date
    later = (work / ".venv" / ".installed-dev").stat().st_mtime + 10
    os.utime(work / "pyproject.toml", (later, later))
    log.write_text("")
    _make("install", cwd=work)
    assert log.read_text() == "-e .\n"

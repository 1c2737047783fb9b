"""Browser tests of the web client: Debian's Chromium driven by Playwright.

The static files are served from the package folder by a tiny threaded HTTP
server, exactly as the game server serves them. Screenshots of each step go to
``$TWMJ_SCREENSHOTS`` or, by default, ``screenshots/`` under pytest's temp dir.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import expect

from twmahjong.web import STATIC_DIR

CHROMIUM = os.environ.get("TWMJ_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# Hang guards, not budgets: a test waits for an event (a deal, a match's end) as long
# as a machine busy with other work needs, and fails only if it never comes.
EVENT_WAIT_MS = 600_000
ACTION_WAIT_MS = 120_000
expect.set_options(timeout=ACTION_WAIT_MS)      # assertions that wait, e.g. to_have_text


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output readable
        pass


@pytest.fixture(scope="session")
def static_url():
    handler = functools.partial(_Quiet, directory=str(STATIC_DIR))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium not found at {CHROMIUM}. The web tests need Debian's browser: "
            "run `apt-get install -y chromium fonts-noto-cjk` (or set TWMJ_CHROMIUM)."
        )
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    b = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="session")
def shot_dir(tmp_path_factory):
    env = os.environ.get("TWMJ_SCREENSHOTS")
    d = Path(env) if env else tmp_path_factory.getbasetemp() / "screenshots"
    d.mkdir(parents=True, exist_ok=True)
    return d


@pytest.fixture(scope="session")
def fixtures():
    return json.loads((STATIC_DIR / "dev" / "fixtures.json").read_text(encoding="utf-8"))


class Page:
    """A browser page at one viewport, failing the test on any script error."""

    def __init__(self, browser, base, viewport, shot_dir, test_name):
        self.context = browser.new_context(viewport=viewport, locale="zh-TW")
        self.context.set_default_timeout(ACTION_WAIT_MS)
        self.page = self.context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "console", lambda m: self.errors.append(m.text) if m.type == "error" and "favicon" not in m.text
            and "404" not in m.text else None,
        )
        self.shot_dir = shot_dir
        self.prefix = f"{test_name}-{viewport['width']}x{viewport['height']}"

    def open(self, path: str):
        self.page.goto(f"{self.base}/{path}")
        self.page.wait_for_selector("body[data-ready]", timeout=ACTION_WAIT_MS)
        return self.page

    def shot(self, step: str) -> Path:
        path = self.shot_dir / f"{self.prefix}-{step}.png"
        self.page.screenshot(path=str(path))
        return path

    def sent(self) -> list[dict]:
        return self.page.evaluate("window.__sent")


def _make(browser, static_url, shot_dir, request, viewport):
    p = Page(browser, static_url, viewport, shot_dir, request.node.name.replace("/", "_"))
    yield p
    errors = p.errors
    p.context.close()
    assert not errors, f"script errors in the page: {errors}"


@pytest.fixture
def web(browser, static_url, shot_dir, request):
    """A desktop-size page (1280x800)."""
    yield from _make(browser, static_url, shot_dir, request, DESKTOP)


@pytest.fixture
def phone(browser, static_url, shot_dir, request):
    """A phone-size page (390x844 portrait)."""
    yield from _make(browser, static_url, shot_dir, request, PHONE)


@pytest.fixture
def make_page(browser, shot_dir, request):
    """Pages at a chosen viewport against any base URL (the e2e server's)."""
    pages = []

    def make(base: str, size: str):
        p = Page(browser, base, PHONE if size == "phone" else DESKTOP, shot_dir, request.node.name.replace("/", "_"))
        pages.append(p)
        return p

    yield make
    for p in pages:
        errors = p.errors
        p.context.close()
        assert not errors, f"script errors in the page: {errors}"


# the two screens (#11): a phone held upright (touch) and a common laptop
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}


@pytest.fixture
def player(browser, shot_dir, request):
    """A page at a size ("phone": touch, 390×844; "desktop": 1366×768) and language."""
    pages = []

    def make(base: str, size: str, lang: str = "zh-TW") -> Page:
        p = Page.__new__(Page)
        touch = size == "phone"
        p.context = browser.new_context(viewport=SIZES[size], locale="zh-TW", has_touch=touch,
                                        is_mobile=touch)
        p.context.set_default_timeout(ACTION_WAIT_MS)
        p.context.add_init_script(f"localStorage.setItem('twmj.lang', {lang!r})")
        p.page = p.context.new_page()
        p.base = base
        p.errors = []
        p.page.on("pageerror", lambda e: p.errors.append(str(e)))
        p.shot_dir = shot_dir
        p.prefix = f"{request.node.name.replace('/', '_')}-{size}"
        pages.append(p)
        return p

    yield make
    for p in pages:
        errors = p.errors
        p.context.close()
        assert not errors, f"script errors in the page: {errors}"


@contextlib.contextmanager
def game_server(data_dir, **settings):
    """The real game server (twmahjong.server) on a free port, in a thread; its URL."""
    import uvicorn

    from twmahjong.server.app import create_app
    from twmahjong.server.settings import Settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings = Settings.from_env({}, data_dir=data_dir, port=port, **settings)
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + EVENT_WAIT_MS / 1000
    while not server.started:
        assert thread.is_alive(), "the game server failed to start"
        assert time.monotonic() < deadline, "the game server did not start within 30 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)

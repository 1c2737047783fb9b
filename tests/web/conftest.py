"""Browser tests of the web client: Debian's Chromium driven by Playwright.

The static files are served from the package folder by a tiny threaded HTTP
server, exactly as the game server serves them. Screenshots of each step go to
``$TWMJ_SCREENSHOTS`` or, by default, ``screenshots/`` under pytest's temp dir.

Every wait is for an event, and no single wait lasts longer than ``WAIT_MS``: a
Playwright action or assertion, a navigation, the game's next move, a server's
start. Something that takes longer as a whole (a match that plays itself) is
waited for step by step, and fails only when a step stops coming.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import socket
import sqlite3
import sys
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
# Hang guards, not budgets: a test waits for an event (a deal, a bot's move, a page
# drawn), and fails only if it does not come within a minute, which a machine busy
# with other work still gives it many times over (the events take well under a
# second when the machine is idle). Nothing waits longer on any one thing: a stall
# is a failure that names what never came, not a run that sits for minutes.
# ($TWMJ_WAIT_MS sets another guard, e.g. a short one to see how close a run comes.)
WAIT_MS = int(os.environ.get("TWMJ_WAIT_MS", 60_000))
EVENT_WAIT_MS = WAIT_MS       # something the game server does (a deal, the next move)
expect.set_options(timeout=WAIT_MS)      # assertions that wait, e.g. to_have_text


def evaluate_async(page, function: str, arg=None, timeout_ms: int = WAIT_MS):
    """``page.evaluate`` of an async ``function`` (it fetches, it imports a module),
    failing after ``timeout_ms``: Playwright gives ``evaluate`` no timeout at all,
    so a request the server never answers would hold the test for ever."""
    race = (f"([arg, ms]) => Promise.race([({function})(arg), new Promise((_, reject) =>"
            " setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))])")
    return page.evaluate(race, [arg, timeout_ms])


class _Quiet(SimpleHTTPRequestHandler):
    # A connection that sends no request (Chromium opens spare ones ahead of time) or
    # stops reading is dropped after this long, so no handler thread waits for ever.
    timeout = 30

    def log_message(self, *args):  # keep pytest output readable
        pass


class _StaticServer(ThreadingHTTPServer):
    """One thread per connection (daemon threads): a request that hangs — a browser's
    preconnect that never sends, a client that stops reading — holds only its own
    thread, never the next request, and never the session's end."""

    daemon_threads = True
    request_queue_size = 128    # Chromium opens a burst of connections per page

    def handle_error(self, request, client_address):
        # The browser hung up mid-request (a context closed while a file was on its
        # way, a spare connection dropped): not the server's error, and no traceback
        # ("Exception occurred during processing of request") in the test log.
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


@pytest.fixture(scope="session")
def static_url():
    handler = functools.partial(_Quiet, directory=str(STATIC_DIR))
    server = _StaticServer(("127.0.0.1", 0), handler)
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
    b._twmj_playwright = pw           # the media browser below launches from the same driver
    yield b
    b.close()
    pw.stop()


@pytest.fixture(scope="session")
def media_browser(browser):
    """Chromium with a fake microphone (a beeping tone) it may use without asking, and
    sound that plays without a gesture: voice at the table and recorded calls."""
    b = browser._twmj_playwright.chromium.launch(executable_path=CHROMIUM, args=[
        "--headless", "--no-sandbox", "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required"])
    yield b
    b.close()


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
        self.context.set_default_timeout(WAIT_MS)             # navigations too
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
        self.page.wait_for_selector("body[data-ready]")
        return self.page

    def shot(self, step: str) -> Path:
        """A screenshot of the page as it stands, which must read as words: a value the
        page failed to fill is shown as "null", "undefined" or "NaN" (the replay's
        review once read "共損失約 0 分 nullnull")."""
        path = self.shot_dir / f"{self.prefix}-{step}.png"
        self.page.screenshot(path=str(path))
        stray = self.page.evaluate(
            "(document.body.innerText.match(/null|undefined|NaN/g) || [])")
        assert stray == [], f"{step}: the page shows {stray}"
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


# two screens: a phone held upright (touch) and a common laptop; and
# phones held sideways (touch), as the apps are played: a common one and a small Android
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768},
         "phone-small": {"width": 360, "height": 640},
         "landscape": {"width": 844, "height": 390},
         "landscape-small": {"width": 640, "height": 360},
         "landscape-large": {"width": 915, "height": 412},
         "desktop-fhd": {"width": 1920, "height": 1080},
         "tablet": {"width": 768, "height": 1024},
         "desktop-small": {"width": 800, "height": 600}}


def _players(browser, shot_dir, request):
    """Pages made on ``browser``, each checked for script errors when the test ends."""
    pages = []

    def make(base: str, size: str, lang: str = "zh-TW") -> Page:
        p = Page.__new__(Page)
        touch = not size.startswith("desktop")
        p.context = browser.new_context(viewport=SIZES[size], locale="zh-TW", has_touch=touch,
                                        is_mobile=touch)
        p.context.set_default_timeout(WAIT_MS)
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


@pytest.fixture
def player(browser, shot_dir, request):
    """A page at a size ("phone": touch, 390×844; "phone-small": touch, 360×640;
    "desktop": 1366×768; "desktop-fhd":
    1920×1080; "desktop-small": a window of 800×600; "landscape", "landscape-small" and
    "landscape-large": touch, 844×390, 640×360 and 915×412; "tablet": touch, 768×1024)
    and language."""
    yield from _players(browser, shot_dir, request)


@pytest.fixture
def media_player(media_browser, shot_dir, request):
    """``player``'s pages on the Chromium with a fake microphone (voice, recorded calls)."""
    yield from _players(media_browser, shot_dir, request)


@contextlib.contextmanager
def game_server(data_dir, port: int | None = None, **settings):
    """The real game server (twmahjong.server) on a free port (or ``port``: the same
    server started again), in a thread; its URL."""
    import uvicorn

    from twmahjong.server.app import create_app
    from twmahjong.server.settings import Settings

    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    # every page signs up from 127.0.0.1: no sign-up limit for these servers
    settings = {"signup_burst": 100_000, "signup_net_burst": 100_000,
                "signup_global_burst": 100_000, **settings}
    settings = Settings.from_env({}, data_dir=data_dir, port=port, **settings)
    # the graceful shutdown closes what is still open (a page's socket) within seconds
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_MS / 1000
    while not server.started:
        assert thread.is_alive(), "the game server failed to start"
        assert time.monotonic() < deadline, f"the game server did not start within {WAIT_MS // 1000} s"
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    _DATABASES[url] = settings.data_dir / "twmj.sqlite3"
    try:
        yield url
    finally:
        _DATABASES.pop(url, None)
        server.should_exit = True
        thread.join(15)
        if thread.is_alive():       # no graceful end: stop at once rather than leave it playing
            server.force_exit = True
            thread.join(15)


_DATABASES: dict[str, Path] = {}        # a running game server's URL -> its SQLite file



def pass_claim(page):
    """Tap 過 and wait until that offer is answered: the bar it stood in is rebuilt
    (actions.js renders a new bar at every update), so the tapped button leaves the
    page, even when the next offer follows within one frame with a 過 of its own."""
    button = page.locator(".calls .call-pass").element_handle()
    button.click()
    page.wait_for_function("(b) => !b.isConnected", arg=button, timeout=EVENT_WAIT_MS)


def wait_for_game_over(url: str, game_id: str):
    """``GET /games/{game_id}`` of ``url``'s game server once the game is over.

    A match that plays itself lasts as long as a busy machine makes it, so the guard
    is on progress, not on the match's length: this fails once the game has stored
    no move for ``WAIT_MS`` (a table that stalled)."""
    import httpx

    database = _DATABASES[url]
    moves, moved_at = -1, time.monotonic()
    while (r := httpx.get(f"{url}/api/v1/games/{game_id}", timeout=WAIT_MS / 1000)).status_code != 200:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True,
                                                timeout=WAIT_MS / 1000)) as db:
            n = db.execute("SELECT count(*) FROM game_actions WHERE game_id = ?",
                           (game_id,)).fetchone()[0]
        if n != moves:
            moves, moved_at = n, time.monotonic()
        assert time.monotonic() - moved_at < WAIT_MS / 1000, (
            f"game {game_id} stored no move for {WAIT_MS // 1000} s ({moves} stored; "
            f"the server says {r.status_code} {r.text[:200]})")
        time.sleep(0.2)
    return r

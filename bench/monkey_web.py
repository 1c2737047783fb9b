"""A monkey at the browser's table: random taps and clicks on what a player can see.

One guest against bots on the real game server, in Debian's Chromium at phone size
(390×844, touch, zh-TW) or desktop size (1366×768, English). Every step picks, by a
seeded RNG, one visible, enabled control — a tile (tapped twice: thrown), a call
(吃 碰 槓 胡 過 聽), a 吃 choice, 下一局, the result's 回大廳, 託管 and 取消託管, 離開
and its question, 回到牌桌, 設定 and its options, 快捷語 and 表情, the deal's dice, the
auto switches, the language, the browser's Back; in the lobby 與電腦對戰, 快速配對 and
its 取消 — and taps it, at a finger's pace or in a burst.

It fails on:
- a stall: at a table that is not over, no move (no ``update``, deal or result on the
  page's WebSocket) for longer than the table's clocks allow (the player's base and
  bank, the claim window, the pause before the next deal) plus ``SLACK_S``;
- a script error in the page (``pageerror``, or a console error other than an HTTP
  refusal the page itself reports);
- a stuck spinner: the quick match's 配對中 up longer than its bot fill plus ``SLACK_S``.

    .venv/bin/python bench/monkey_web.py --minutes 20 --seed 7              # both sizes
    .venv/bin/python bench/monkey_web.py --minutes 5 --size phone --seed 7

It prints the seed first (a failure is replayed with ``--seed``: the same choices in
the same states; the server's deals and timing still vary), and then per size: clicks
(taken / missed: the control went away first), moves seen, hands and games finished,
tables sat at, the longest quiet at a table, and stalls / errors / stuck spinners
(each must be 0; exit status 1 otherwise). tests/web/test_monkey.py runs a short one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
LANGS = {"phone": "zh-TW", "desktop": "en"}
# The monkey's server: short clocks, so a table that waits for nothing is told from a
# player thinking within seconds; bots quick, so there are many moves to make.
SERVER = dict(bot_delay=0.25, claim_window=0.3, pause_after=3600, hand_pause=4.0,
              max_active_tables=2, bot_fill_wait=1.0, turn_base=4.0, turn_bank=2.0)
# What a loaded machine may add to the clocks before a quiet table counts as stalled.
SLACK_S = 15.0

# (kind, selector, weight). "throw" taps twice (a tile thrown); "tap" once; "flip" taps
# 託管 and then 取消託管 as soon as it shows; "back" is the browser's Back. Weighted so
# that play goes on between the distractions.
TABLE = [
    ("throw", ".hand.my-turn .hand-tile:not(.blocked)", 30),
    ("tap", ".hand .hand-tile", 3),
    ("tap", ".calls .call", 22),
    ("tap", ".choices .choice, .choices .choice-cancel", 10),
    ("tap", ".result-wrap .next-hand", 14),
    ("tap", ".auto-btn", 3),
    ("tap", ".auto-cancel", 4),
    ("flip", ".auto-btn", 1.5),         # 託管, 取消託管 the moment it shows, as fast taps do
    ("tap", ".leave-btn", 2),
    ("tap", ".leave-stay", 3),
    ("tap", ".leave-confirm", 2),
    ("tap", ".settings-btn", 0.8),
    ("tap", ".settings-dialog .set-option", 1),
    ("tap", ".settings-close", 5),
    ("tap", ".talk-btn", 0.8),
    ("tap", ".talk-phrase, .talk-emote", 1.5),
    ("tap", ".talk-close", 3),
    ("tap", ".deal-close", 1),
    ("tap", ".table-view .pref-btn", 0.8),
    ("tap", ".table-view .lang-btn", 0.3),
    ("back", "", 0.8),
]
LOBBY = [
    ("tap", ".guest-btn", 10),
    ("tap", ".active-panel .resume-btn", 6),
    ("tap", ".bots-btn", 4),
    ("tap", ".quick-btn", 4),
    ("tap", ".queue .btn", 0.4),
    ("tap", ".refusal-close", 1),
    ("tap", ".settings-close", 5),
]
MOVES = {"update", "snapshot", "hand_start", "hand_end", "game_end"}

FIND = """(sels) => {
  // what a finger can reach: shown, enabled, and on top where it is (a dialog, the
  // talk panel or the settings cover what is under them); off screen, a scroll away
  const ok = (e) => {
    if (!e.checkVisibility() || e.disabled || e.closest('[inert]')) return false;
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return true;
    const top = document.elementFromPoint(x, y);
    return !!top && (top === e || e.contains(top) || top.contains(e));
  };
  return {
    counts: sels.map((s) => [...document.querySelectorAll(s)]
      .map((e, i) => ok(e) ? i : -1).filter((i) => i >= 0)),
    spinner: [...document.querySelectorAll('.queue .spinner')].some((e) => e.checkVisibility()),
    table: location.hash.startsWith('#/table'),
  };
}"""


@dataclass
class Summary:
    size: str
    seed: int
    seconds: float = 0.0
    clicks: int = 0
    missed: int = 0
    idle: int = 0
    moves: int = 0
    hands: int = 0
    games: int = 0
    tables: int = 0
    longest_quiet: float = 0.0
    stalls: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    spinners: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.stalls or self.errors or self.spinners)

    def line(self) -> str:
        return (f"[{self.size}] seed {self.seed}: {self.seconds:.0f} s, clicks {self.clicks} "
                f"(missed {self.missed}), moves seen {self.moves}, hands finished {self.hands}, "
                f"games finished {self.games}, tables sat at {self.tables}, longest quiet at a "
                f"table {self.longest_quiet:.1f} s; stalls {len(self.stalls)}, errors "
                f"{len(self.errors)}, stuck spinners {len(self.spinners)}")


def stall_limit(settings: dict) -> float:
    """The longest a table may stay quiet: a person's whole clock (base + bank, then the
    server plays the seat), a claim window, the pause before the next deal, and slack."""
    return (settings["turn_base"] + settings["turn_bank"] + settings["claim_window"]
            + settings["hand_pause"] + SLACK_S)


class Monkey:
    def __init__(self, browser, url: str, size: str, seed: int, settings: dict = SERVER,
                 shots: Path | None = None, log=print):
        self.url = url
        self.size = size
        self.rng = random.Random(seed)
        self.limit = stall_limit(settings)
        self.fill_limit = settings["bot_fill_wait"] + SLACK_S
        self.shots = shots
        self.log = log
        self.sum = Summary(size=size, seed=seed)
        touch = size == "phone"
        self.context = browser.new_context(viewport=SIZES[size], locale="zh-TW", has_touch=touch,
                                           is_mobile=touch)
        self.context.add_init_script(f"localStorage.setItem('twmj.lang', {LANGS[size]!r})")
        self.context.set_default_timeout(60_000)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.sum.errors.append(f"pageerror: {e}"))
        self.page.on("console", self.console)
        self.page.on("websocket", self.socket)
        self.moved_at = time.monotonic()
        self.seated = False
        self.over = False
        self.frames: list[str] = []         # the last frames heard, for a stall's report

    def console(self, m) -> None:
        # an HTTP refusal (409 too many tables, 429) is the page's to say, not an error
        text = m.text
        if m.type == "error" and "Failed to load resource" not in text and "favicon" not in text:
            self.sum.errors.append(f"console: {m.text}")

    def socket(self, ws) -> None:
        ws.on("framereceived", self.frame)

    def frame(self, payload) -> None:
        try:
            msg = json.loads(payload)
        except (TypeError, ValueError):
            return
        kind = msg.get("type")
        if kind not in MOVES:
            return
        said = kind + (f" turn {msg.get('turn')}" if "turn" in msg else "")
        self.frames = (self.frames + [said])[-8:]
        now = time.monotonic()
        if self.seated:
            self.sum.longest_quiet = max(self.sum.longest_quiet, now - self.moved_at)
        self.moved_at = now
        if kind == "update":
            self.sum.moves += len(msg.get("events") or [])
        elif kind == "hand_end":
            self.sum.hands += 1
        elif kind == "game_end":
            self.sum.games += 1
            self.over = True
        elif kind in ("snapshot", "hand_start"):
            self.over = False

    def shot(self, name: str) -> str:
        if not self.shots:
            return ""
        path = self.shots / f"monkey-{self.size}-{self.sum.seed}-{name}.png"
        with contextlib.suppress(Exception):
            self.page.screenshot(path=str(path))
        return str(path)

    def run(self, seconds: float) -> Summary:
        page = self.page
        page.goto(self.url + "/")
        page.wait_for_selector("body[data-ready]")
        start = time.monotonic()
        spinner_since = None
        while time.monotonic() - start < seconds and self.sum.ok:
            at = page.url
            controls = TABLE if "#/table" in at else LOBBY
            found = page.evaluate(FIND, [sel or "body" for _, sel, _ in controls])
            now = time.monotonic()
            if found["table"] and not self.seated:
                self.sum.tables += 1
                self.moved_at = now           # sat down (again): its quiet counts from now
            self.seated = found["table"]
            if self.seated and not self.over and now - self.moved_at > self.limit:
                self.sum.stalls.append(
                    f"no move for {now - self.moved_at:.0f} s (limit {self.limit:.0f} s) at "
                    f"{self.sum.seconds + now - start:.0f} s; last frames {self.frames}; "
                    f"screenshot {self.shot('stall')}")
                break
            # the spinner is the lobby's: away at a table it is neither seen nor gone, so
            # a spinner left turning by a refused match is caught when the lobby is back
            if not found["table"]:
                spinner_since = (spinner_since or now) if found["spinner"] else None
            if not found["table"] and spinner_since and now - spinner_since > self.fill_limit:
                self.sum.spinners.append(
                    f"the quick match spinner up for {now - spinner_since:.0f} s; "
                                         f"screenshot {self.shot('spinner')}")
                break
            choices = [(kind, sel, i, w) for (kind, sel, w), idx in zip(controls, found["counts"])
                       for i in (idx if kind != "back" else [0]) if w]
            if choices:
                kind, sel, i, _ = self.rng.choices(choices, weights=[c[3] for c in choices])[0]
                self.act(kind, sel, i)
            else:
                self.sum.idle += 1          # nothing to tap (a screen being drawn): look again
            # a finger's pace, or a burst
            burst = self.rng.random() < 0.6
            pause = self.rng.uniform(0.03, 0.25) if burst else self.rng.uniform(0.25, 1.0)
            page.wait_for_timeout(pause * 1000)
        self.sum.seconds += time.monotonic() - start
        return self.sum

    def act(self, kind: str, sel: str, i: int) -> None:
        from playwright.sync_api import Error as PlaywrightError

        page = self.page
        try:
            if kind == "back":
                if "#/table" not in page.url:
                    return
                page.go_back(timeout=3000)
            else:
                target = page.locator(sel).nth(i)
                target.click(timeout=800)
                if kind == "throw":
                    target.click(timeout=800)
                elif kind == "flip":
                    page.locator(".auto-cancel").click(timeout=2000)
            self.sum.clicks += 1
        except PlaywrightError:
            self.sum.missed += 1        # it went (a move, a deal) before the tap landed

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.context.close()


@contextlib.contextmanager
def serve(data_dir: Path, **settings):
    """The real game server on a free port, in a thread; its URL."""
    import uvicorn

    from twmahjong.server.app import create_app
    from twmahjong.server.settings import Settings

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(Settings.from_env({}, data_dir=data_dir, port=port, **settings))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise SystemExit("the game server failed to start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minutes", type=float, default=20.0, help="per size")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--size", choices=["phone", "desktop", "both"], default="both")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--shots", type=Path, default=None, help="where a failure's screenshot goes")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    print(f"monkey_web seed {seed}", flush=True)
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    sizes = ["phone", "desktop"] if args.size == "both" else [args.size]
    results = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium,
                                     args=["--headless", "--no-sandbox"])
        for size in sizes:
            with serve(Path(tmp) / size, **SERVER) as url:
                monkey = Monkey(browser, url, size, seed, shots=args.shots)
                try:
                    s = monkey.run(args.minutes * 60)
                finally:
                    monkey.close()
            results.append(s)
            print(s.line(), flush=True)
            for problem in s.stalls + s.errors + s.spinners:
                print(f"  {problem}", flush=True)
        browser.close()
    return 0 if all(s.ok for s in results) else 1


if __name__ == "__main__":
    sys.exit(main())

"""The page's socket follows its table to the worker that plays it (docs/protocol.md,
``welcome``'s ``route``).

One journey on two real workers sharing Redis and a database, each with its own
ws:// address as its route: the page opens on worker A, sits down at a table worker
B plays (relayed through Redis), moves its socket to B by itself — no "connection
lost", no "open in two places" — A relays nothing any more, and the game goes on.
And the edges a real table cannot be made to hit on purpose, on ``GameSocket`` with
a scripted WebSocket: a move sent during the switch, a routed socket that cannot
open.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from .conftest import EVENT_WAIT_MS, evaluate_async
from .test_link import make_a_discard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from redis_helpers import fresh_prefix, need_redis, purge  # noqa: E402
from server_helpers import FAST, HANG, Live  # noqa: E402

from twmahjong.server.settings import Settings  # noqa: E402

# every socket the page opens, and what became of it; and every state of the link
# line and of the "open in two places" line the page ever showed
WATCH = """
const Real = window.WebSocket;
window.__sockets = [];
window.WebSocket = class extends Real {
  constructor(url, protocols) {
    super(url, protocols);
    const rec = { url: String(url), open: false, closed: false, frames: 0 };
    window.__sockets.push(rec);
    this.addEventListener("open", () => { rec.open = true; });
    this.addEventListener("close", () => { rec.closed = true; });
    this.addEventListener("message", () => { rec.frames += 1; });
  }
};
window.__link = [];
window.__twice = false;
new MutationObserver(() => {
  const v = document.body && document.body.dataset.link;
  if (v && window.__link[window.__link.length - 1] !== v) window.__link.push(v);
  if (document.querySelector(".twice-line:not([hidden])")) window.__twice = true;
}).observe(document, { subtree: true, attributes: true, childList: true });
"""


def _routed_pair(tmp_path, redis_url: str, prefix: str) -> list[Live]:
    lives = []
    for name in ("a", "b"):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        settings = Settings(data_dir=tmp_path / name, secret_key="test-secret",
                            database_url=f"sqlite+aiosqlite:///{tmp_path / 'twmj.sqlite3'}",
                            redis_url=redis_url, redis_prefix=prefix, cluster_lease=5.0,
                            route=f"ws://127.0.0.1:{port}/ws",
                            **{**FAST, "bot_delay": 0.3, "hand_pause": 600.0,
                               "turn_base": 60.0, "turn_bank": 20.0, "pause_after": 3600})
        live = Live(settings)
        live.port = port
        lives.append(live.start())
    return lives


def test_the_page_s_socket_moves_to_its_table_s_worker_and_play_goes_on(player, tmp_path):
    redis_url, prefix = need_redis(), fresh_prefix()
    a, b = lives = _routed_pair(tmp_path, redis_url, prefix)
    try:
        # a game worker B plays (its room started there), the page's seat in it
        token = b.guest()
        auth = {"Authorization": f"Bearer {token}"}
        seat = httpx.post(b.base + "/api/v1/rooms", json={"bots": "L1"}, headers=auth,
                          timeout=60).json()
        r = httpx.post(f"{b.base}/api/v1/rooms/{seat['code']}/start", headers=auth, timeout=60)
        assert r.status_code == 200, r.text
        game = seat["game_id"]
        assert b.server.tables.get(game) is not None and a.server.tables.get(game) is None

        p = player(a.base, "desktop", "en")
        p.context.add_init_script(f"localStorage.setItem('twmj.token', {token!r});"
                                  f"sessionStorage.setItem('twmj.ticket', {seat['ticket']!r});"
                                  + WATCH)
        page = p.page
        page.goto(a.base + "/")                 # back to the table, through worker A
        page.wait_for_selector(".table-view .hand .hand-tile", timeout=EVENT_WAIT_MS)
        # the socket to A sat down (relayed), the one to B took over, A's is closed
        page.wait_for_function(
            """([a, b]) => window.__sockets.some((s) => s.url === b && s.open && s.frames)
                && window.__sockets.filter((s) => s.url === a).every((s) => s.closed)""",
            arg=[a.ws_url, b.settings.route], timeout=EVENT_WAIT_MS)
        end = time.monotonic() + HANG
        while b.server.cluster._relays or a.server.cluster._remote.get(game):
            assert time.monotonic() < end, "A still relays the seat that moved"
            time.sleep(0.02)
        frames = page.evaluate(f"window.__sockets.find((s) => s.url === {b.settings.route!r}).frames")
        make_a_discard(page)                    # the table takes moves, through B
        p.shot("moved")
        sockets = page.evaluate("window.__sockets")
        assert [s["url"] for s in sockets] == [a.ws_url, b.settings.route]
        assert sockets[1]["frames"] > frames and not sockets[1]["closed"]
        assert "lost" not in page.evaluate("window.__link")
        assert page.evaluate("window.__twice") is False
    finally:
        for live in lives:
            live.stop()
        # Playwright's loop runs in this thread: the clean-up's asyncio.run in another
        cleanup = threading.Thread(target=purge, args=(redis_url, prefix))
        cleanup.start()
        cleanup.join()


# GameSocket on a scripted WebSocket: `applied` says whether the owner's snapshot
# shows the move sent on the first socket as done (a later turn) or still asked
SCRIPTED = """async (applied) => {
  const { GameSocket } = await import("/js/net.js");
  const sockets = [];
  let made = () => {};
  class Fake {
    constructor(url) { this.url = url; this.readyState = 0; this.sent = []; this.closed = false; sockets.push(this); made(); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.closed = true; this.readyState = 3; }
    open() { this.readyState = 1; this.onopen?.(); }
    recv(m) { this.onmessage?.({ data: JSON.stringify(m) }); }
    drop() { this.readyState = 3; this.onclose?.(); }
  }
  const nth = (n) => new Promise((resolve) => {
    made = () => sockets.length > n && resolve(sockets[n]);
    made();
  });
  const D = { type: "discard", tile: "5s" };
  const snap = (route, turn) => ({ type: "snapshot", turn, table: { game_id: "g1", route },
    observation: { seat: 0, hand: "5s", legal: [D] } });
  const two = (n) => ({ type: "notice", kind: "second_connection", data: { game_id: "g1", seat: 0, connections: n } });
  const got = [], link = [];
  const s = new GameSocket({ token: "tok", url: "ws://box.test/ws", WebSocketImpl: Fake,
    onMessage: (m) => got.push(m), onLink: (l) => link.push(l.up) });
  s.connect();
  const first = sockets[0];
  first.open();
  first.recv({ type: "welcome", account: {}, route: "/ws?w=1" });
  first.recv({ type: "matched", game_id: "g1", seat: 0, ticket: "T1" });
  first.recv(snap("/ws?w=1", 5));
  const unmoved = sockets.length;
  s.send({ type: "action", action: D, turn: 5 });         // on the first socket
  first.recv(snap("/ws?w=2", 5));                         // after an adoption: B plays it
  const second = sockets[1];
  second.open();
  first.recv(two(2));                                     // the owner counts both
  second.recv({ type: "welcome", account: {}, route: "/ws?w=2" });
  second.recv(snap("/ws?w=2", applied ? 6 : 5));
  second.recv(two(2));
  const afterMove = { firstClosed: first.closed, moves: s.moves, url: s.url };
  second.recv(two(1));                                    // the first has left the seat
  s.send({ type: "ready" });
  const quiet = link.length;                              // no lost link so far
  // B goes away: its address is tried again, refuses, and the plain /ws is next
  second.drop();
  (await nth(2)).drop();
  const fourth = await nth(3);
  s.close();
  return { unmoved, quiet, urls: sockets.map((x) => x.url), afterMove, link,
           firstSent: first.sent, secondSent: second.sent,
           got: got.map((m) => m.type === "notice" ? `notice:${m.data.connections}` : m.type) };
}"""


@pytest.mark.parametrize("applied", [False, True], ids=["not applied", "applied"])
def test_a_move_during_the_switch_is_sent_once_and_a_dead_route_falls_back(web, applied):
    page = web.open("index.html")
    r = evaluate_async(page, SCRIPTED, applied)
    assert r["unmoved"] == 1                      # a snapshot of its own worker moves nothing
    assert r["urls"] == ["ws://box.test/ws", "ws://box.test/ws?w=2", "ws://box.test/ws?w=2",
                         "ws://box.test/ws"]
    assert r["afterMove"] == {"firstClosed": True, "moves": 1, "url": "ws://box.test/ws?w=2"}
    hello = {"v": 1, "type": "hello", "token": "tok", "ticket": "T1"}
    move = {"v": 1, "type": "action", "action": {"type": "discard", "tile": "5s"}, "turn": 5}
    assert r["firstSent"] == [{"v": 1, "type": "hello", "token": "tok"}, move]
    assert r["secondSent"] == [hello] + ([] if applied else [move]) + [{"v": 1, "type": "ready"}]
    # the page saw both snapshots and the count going back to one, never two places,
    # and no lost link until the table's worker really went away (then one per try)
    assert r["got"] == ["welcome", "matched", "snapshot", "snapshot", "snapshot", "notice:1"]
    assert r["quiet"] == 0 and r["link"] == [False, False]

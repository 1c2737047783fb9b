// The game channel: one WebSocket to /ws speaking docs/protocol.md.
//
// Every frame carries "v": 1. A dropped connection is reopened with the seat's
// ticket (the reconnect token), so a phone that loses signal sits back down
// mid-hand; while it is away the server plays the seat (托管).
//
// The link is watched, not only the socket: a server that stops answering keeps a
// socket open for minutes. When nothing has been heard for PING_AFTER_MS the page
// asks (`ping`, answered by `pong`); nothing heard for SILENT_MS is a lost link
// (said within 2 s), and nothing for DEAD_MS drops the socket and dials again.
// Reopening waits a capped, jittered backoff, so a thousand pages that lost one
// server do not all knock at the same instant when it comes back.
//
// In a cluster the socket follows its table (docs/protocol.md, `welcome`): when a
// snapshot's `table.route` names another worker than the one this socket is on, the
// seat is opened there too (same token, same ticket) and, once that worker's snapshot
// has come, the first socket is let go — no "connection lost", no click. A move sent
// meanwhile that the new snapshot still asks for is sent again, once, with its turn
// (the server takes one answer per turn). A routed socket that cannot open (the worker
// gone, its table adopted elsewhere) sends the page back to the plain /ws.

export const PING_AFTER_MS = 1000;
export const SILENT_MS = 1800;
export const DEAD_MS = 8000;
const WATCH_EVERY_MS = 100;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;
// a move that has not brought its snapshot by then is given up (the seat stays relayed)
export const MOVE_MS = 8000;
// after a move the seat counts both sockets until the first has gone: the "open in
// two places" notices of that moment are the page's own, held back this long at most
const SETTLE_MS = 5000;
// the server's answers to a move that was not applied: it is no longer in flight
const REFUSALS = ["stale", "not_your_turn", "illegal_action", "rate_limited", "not_seated", "no_table"];

/** The wait before reopening, after `tries` failed ones: doubling from 0.5 s up to
 * 8 s, each a random 50–100 % of that (jitter). */
export function backoffMs(tries, random = Math.random) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(tries, 10));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

export function wsUrl(loc = globalThis.location) {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws`;
}

/** The socket address a worker's route names: a path on the same host as `home`
 * ("/ws?w=2"), or a ws:// URL of its own. */
export function routeUrl(home, route) {
  return new URL(route, home).href;
}

export class GameSocket {
  /**
   * @param {{token?: string, onMessage: (msg: object) => void, onStatus?: (s: string) => void,
   *          onLink?: (link: {up: boolean, attempt: number}) => void,
   *          url?: string, WebSocketImpl?: typeof WebSocket, now?: () => number}} opts
   * `onLink` hears the link go down ({up: false, attempt}: the reopening under way,
   * counted from 1) and come back ({up: true}); only changes, and the attempt count.
   */
  constructor({ token = null, onMessage, onStatus = () => {}, onLink = () => {}, url = wsUrl(),
    WebSocketImpl = globalThis.WebSocket, now = () => Date.now() }) {
    this.token = token;
    this.ticket = null;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onLink = onLink;
    this.home = url;          // the plain address (a balancer's)
    this.url = url;           // the socket's now: its table's worker after a move
    this.route = null;        // the worker this socket is on, as its welcome said
    this.moving = null;       // a move under way: {ws, url, route, at, held}
    this.moves = 0;
    this.inflight = null;     // the last move (action) sent, until it is answered
    this.settle = null;       // a move's own second_connection notices, held
    this.WS = WebSocketImpl;
    this.now = now;
    this.ws = null;
    this.queue = [];
    this.closed = false;
    this.tries = 0;
    this.lost = false;
    this.everUp = false;
    this.heardAt = 0;
    this.pingAt = 0;
    this.watchAt = 0;
    this.watch = null;
    this.retry = null;
  }

  connect() {
    this.closed = false;
    clearTimeout(this.retry);
    this.retry = null;
    const ws = new this.WS(this.url);
    this.ws = ws;
    this.route = null;
    this.heardAt = this.now();
    this.onStatus("connecting");
    let opened = false;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      opened = true;
      this.heardAt = this.now();
      this.onStatus("open");
      // The token authenticates; a ticket with it sits the player back down (a ticket
      // alone is no login: the server refuses it).
      ws.send(JSON.stringify(this.hello()));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
    };
    this.listen(ws);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.onStatus("closed");
      if (this.closed) return;
      // a socket that opened had a server behind it, even one closed before its first
      // word: that is a lost link (a quick match asked on it is gone with it)
      if (opened) this.everUp = true;
      // a table's worker that does not answer: the next try is the plain address
      if (!opened && this.url !== this.home) this.url = this.home;
      this.redial();
    };
    this.startWatch();
    return this;
  }

  hello() {
    return this.ticket ? { v: 1, type: "hello", token: this.token, ticket: this.ticket } : { v: 1, type: "hello", token: this.token };
  }

  /** The messages of the socket the page is on. */
  listen(ws) {
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.heardAt = this.now();
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // the server answers: the link is up (after a reopening, or a silence that ended)
      this.tries = 0;
      this.everUp = true;
      if (this.lost) {
        this.lost = false;
        this.onLink({ up: true, attempt: 0 });
      }
      this.receive(msg);
    };
  }

  receive(msg) {
    if (!this.settled(msg)) return;
    this.answered(msg);
    if (msg.type === "welcome") this.route = msg.route ?? null;
    // the ticket comes once, when the seat is reserved (never in a snapshot)
    if (msg.type === "matched" && msg.ticket) this.ticket = msg.ticket;
    this.onMessage(msg);
    if (msg.type === "snapshot") this.follow(msg.table?.route);
  }

  /** The table is played on another worker than this socket's: open the seat there,
   * and keep this socket until that worker's snapshot has come. */
  follow(route) {
    if (!route || !this.route || route === this.route || !this.ticket || this.moving || this.closed || !this.ws) return;
    let url;
    try {
      url = routeUrl(this.home, route);
    } catch {
      return;
    }
    const ws = new this.WS(url);
    const move = { ws, url, route, at: this.now(), held: [], welcome: null };
    this.moving = move;
    this.settle = { until: move.at + MOVE_MS + SETTLE_MS, top: null, held: null };
    ws.onopen = () => {
      if (this.moving === move) ws.send(JSON.stringify({ v: 1, type: "hello", token: this.token, ticket: this.ticket }));
    };
    ws.onmessage = (e) => {
      if (this.moving !== move) return;
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      if (msg.type === "snapshot") this.moved(move, msg);
      else if (msg.type === "error") this.stay(move);       // refused there: stays relayed
      else if (msg.type === "welcome") move.welcome = msg;
      else move.held.push(msg);
    };
    ws.onclose = () => {
      if (this.moving === move) this.stay(move);
    };
  }

  /** The move failed (or took too long): the seat stays where it is, relayed. */
  stay(move) {
    if (this.moving !== move) return;
    this.moving = null;
    move.ws.onopen = move.ws.onmessage = move.ws.onclose = null;
    try {
      move.ws.close();
    } catch {
      /* never opened */
    }
  }

  /** The table's worker has the seat: it is the page's socket now, the first goes. */
  moved(move, snapshot) {
    const old = this.ws;
    this.moving = null;
    this.ws = move.ws;
    this.url = move.url;
    this.route = move.welcome?.route ?? move.route;
    this.moves += 1;
    this.heardAt = this.now();
    this.listen(move.ws);
    move.ws.onclose = () => {
      if (this.ws !== move.ws) return;
      this.onStatus("closed");
      if (!this.closed) this.redial();
    };
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try {
        old.close();
      } catch {
        /* already closing */
      }
    }
    this.settle = { ...(this.settle || { top: null, held: null }), until: this.now() + SETTLE_MS };
    for (const m of this.queue.splice(0)) move.ws.send(JSON.stringify(m));
    const sent = this.inflight;
    this.receive(snapshot);
    // a move sent on the first socket that the owner may never have had: again, once
    if (sent && sent === this.inflight && snapshot.turn === sent.turn && snapshot.observation?.legal?.length) {
      move.ws.send(JSON.stringify(sent));
    }
    for (const m of move.held) this.receive(m);
  }

  /** False for a second_connection notice that only counts the page's own two sockets
   * of a move: held back until the count drops again, or said after SETTLE_MS. */
  settled(msg) {
    const s = this.settle;
    if (!s || msg.type !== "notice" || msg.kind !== "second_connection") return true;
    const n = msg.data?.connections ?? 1;
    if (n <= 1 || (s.top !== null && n < s.top)) {
      this.settle = null;      // the first socket has left the seat
      return true;
    }
    s.top = Math.max(n, s.top ?? 0);
    s.held = msg;
    return false;
  }

  answered(msg) {
    const sent = this.inflight;
    if (!sent) return;
    const t = msg.type;
    if (t === "hand_end" || t === "game_end" || (t === "error" && REFUSALS.includes(msg.code))
      || ((t === "update" || t === "snapshot") && (msg.turn ?? 0) > sent.turn)) this.inflight = null;
  }

  /** The link is gone: say so, and open a new socket after the backoff. */
  redial() {
    if (this.moving) this.stay(this.moving);
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try {
        old.close();
      } catch {
        /* already closing */
      }
    }
    this.tries += 1;
    // a link never up (no server behind /ws at all) is the page's "offline", not a loss
    if (this.everUp) {
      this.lost = true;
      this.onLink({ up: false, attempt: this.tries });
    }
    clearTimeout(this.retry);
    this.retry = setTimeout(() => !this.closed && this.connect(), backoffMs(this.tries - 1));
  }

  startWatch() {
    if (this.watch || typeof setInterval !== "function") return;
    this.watchAt = this.now();
    this.watch = setInterval(() => this.check(), WATCH_EVERY_MS);
  }

  /** One look at the link: ask when it has been quiet, say it lost when silent. */
  check() {
    const now = this.now();
    // a page in the background runs its timers seldom: the quiet is ours, not the
    // server's, so it starts counting again now (and asks at once)
    if (now - this.watchAt > 1000) this.heardAt = Math.max(this.heardAt, now - PING_AFTER_MS);
    this.watchAt = now;
    if (this.moving && now - this.moving.at > MOVE_MS) this.stay(this.moving);
    if (this.settle && now > this.settle.until) {
      const held = this.settle.held;
      this.settle = null;
      if (held) this.onMessage(held);       // a real second place after all: said now
    }
    const ws = this.ws;
    if (this.closed || !ws || ws.readyState !== 1) return;
    const quiet = now - this.heardAt;
    if (quiet >= PING_AFTER_MS && this.pingAt <= this.heardAt) {
      this.pingAt = now;
      ws.send(JSON.stringify({ v: 1, type: "ping" }));
    }
    if (quiet >= DEAD_MS) this.redial();
    else if (quiet >= SILENT_MS && !this.lost && this.everUp) {
      this.lost = true;
      this.onLink({ up: false, attempt: Math.max(1, this.tries) });
    }
  }

  /** Dial now rather than at the end of the backoff (the browser is back online). */
  hurry() {
    if (this.closed || !this.lost || this.ws) return;
    this.connect();
  }

  send(msg) {
    if (msg.type === "join" && msg.ticket) this.ticket = msg.ticket;   // a room's seat
    const framed = { v: 1, ...msg };
    if (msg.type === "action" && typeof msg.turn === "number") this.inflight = framed;
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(framed));
    else this.queue.push(framed);
  }

  close() {
    this.closed = true;
    clearInterval(this.watch);
    this.watch = null;
    clearTimeout(this.retry);
    if (this.moving) this.stay(this.moving);
    this.ws?.close();
  }
}

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

export const PING_AFTER_MS = 1000;
export const SILENT_MS = 1800;
export const DEAD_MS = 8000;
const WATCH_EVERY_MS = 100;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8000;

/** The wait before reopening, after `tries` failed ones: doubling from 0.5 s up to
 * 8 s, each a random 50–100 % of that (jitter). */
export function backoffMs(tries, random = Math.random) {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(tries, 10));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

export function wsUrl(loc = globalThis.location) {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws`;
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
    this.url = url;
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
    this.heardAt = this.now();
    this.onStatus("connecting");
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.heardAt = this.now();
      this.onStatus("open");
      // The token authenticates; a ticket with it sits the player back down (a ticket
      // alone is no login: the server refuses it).
      ws.send(JSON.stringify(this.ticket ? { v: 1, type: "hello", token: this.token, ticket: this.ticket } : { v: 1, type: "hello", token: this.token }));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
    };
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
      // the ticket comes once, when the seat is reserved (never in a snapshot)
      if (msg.type === "matched" && msg.ticket) this.ticket = msg.ticket;
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.onStatus("closed");
      if (this.closed) return;
      this.redial();
    };
    this.startWatch();
    return this;
  }

  /** The link is gone: say so, and open a new socket after the backoff. */
  redial() {
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
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(framed));
    else this.queue.push(framed);
  }

  close() {
    this.closed = true;
    clearInterval(this.watch);
    this.watch = null;
    clearTimeout(this.retry);
    this.ws?.close();
  }
}

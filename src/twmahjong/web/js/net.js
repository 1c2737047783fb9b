// The game channel: one WebSocket to /ws speaking docs/protocol.md.
//
// Every frame carries "v": 1. A dropped connection is reopened with the seat's
// ticket (the reconnect token), so a phone that loses signal sits back down
// mid-hand; while it is away the server plays the seat (托管).

const RETRY_MS = [500, 1000, 2000, 4000, 8000];
// the server closes a socket that sends nothing for a while (idle_timeout, 300 s)
const KEEPALIVE_MS = 30000;

export function wsUrl(loc = globalThis.location) {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}/ws`;
}

export class GameSocket {
  /**
   * @param {{token?: string, onMessage: (msg: object) => void, onStatus?: (s: string) => void,
   *          url?: string, WebSocketImpl?: typeof WebSocket}} opts
   */
  constructor({ token = null, onMessage, onStatus = () => {}, url = wsUrl(), WebSocketImpl = globalThis.WebSocket }) {
    this.token = token;
    this.ticket = null;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.url = url;
    this.WS = WebSocketImpl;
    this.ws = null;
    this.queue = [];
    this.closed = false;
    this.tries = 0;
  }

  connect() {
    this.closed = false;
    const ws = new this.WS(this.url);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.tries = 0;
      this.onStatus("open");
      // The token authenticates; a ticket with it sits the player back down (a ticket
      // alone is no login: the server refuses it).
      ws.send(JSON.stringify(this.ticket ? { v: 1, type: "hello", token: this.token, ticket: this.ticket } : { v: 1, type: "hello", token: this.token }));
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      clearInterval(this.keepalive);
      this.keepalive = setInterval(() => ws.readyState === 1 && ws.send('{"v":1,"type":"ping"}'), KEEPALIVE_MS);
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // the ticket comes once, when the seat is reserved (never in a snapshot)
      if (msg.type === "matched" && msg.ticket) this.ticket = msg.ticket;
      if (msg.type === "pong") return;          // the keepalive's answer
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearInterval(this.keepalive);
      this.onStatus("closed");
      if (this.closed) return;
      const wait = RETRY_MS[Math.min(this.tries++, RETRY_MS.length - 1)];
      setTimeout(() => !this.closed && this.connect(), wait);
    };
    return this;
  }

  send(msg) {
    if (msg.type === "join" && msg.ticket) this.ticket = msg.ticket;   // a room's seat
    const framed = { v: 1, ...msg };
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(framed));
    else this.queue.push(framed);
  }

  close() {
    this.closed = true;
    this.ws?.close();
  }
}

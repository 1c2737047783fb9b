// A game in progress: server messages in, the table view out (docs/protocol.md).
//
// The controller owns no rules: it forwards each `update` observation to the
// TableView, sends back the entry of `legal` the player picked with the `turn`
// that offered it (so a double click is refused as stale, not replayed), and
// turns the hand's `win` / `settlement` events into the end-of-hand panel.

import { TableView } from "./table.js";
import { loadSeatVoices } from "./myvoice.js";
import { Coach, COACH_ERRORS } from "./coach.js";
import { TalkBar } from "./talk.js";
import { VoiceBar } from "./voice.js";
import { onLangChange } from "./i18n.js";
import { splitTiles } from "./tiles.js";

/** Transfers as [from, to, amount]; the fee (payee null) is shown apart. */
function transfersOf(settlement) {
  return (settlement?.transfers || [])
    .filter((x) => x.payee !== null && x.payee !== undefined && x.payer !== null && x.payer !== undefined)
    .map((x) => [x.payer, x.payee, x.amount]);
}

/**
 * The end-of-hand view model from the server's `hand_end` result and the hand's
 * events: each win event carries the scorer's answer and the winner's hand.
 */
export function handResult(result, events) {
  // The server's result carries the win events itself; the update stream has them too.
  const wins = result.wins?.length ? result.wins : events.filter((e) => e.type === "win");
  const settlement = [...events].reverse().find((e) => e.type === "settlement");
  const hands = result.hands ? [...result.hands] : [null, null, null, null];
  for (const w of wins) {
    if (!hands[w.seat] && w.hand) {
      // The scorer's hand (formats.md) writes flowers as MPSZ text ("24f").
      const flowers = typeof w.hand.flowers === "string" ? splitTiles(w.hand.flowers) : w.hand.flowers || [];
      hands[w.seat] = { concealed: w.hand.concealed, melds: w.hand.melds, flowers };
    }
  }
  return {
    draw_game: result.type === "draw_game" || !(result.winners || []).length,
    winners: result.winners || [],
    payer: result.payer ?? null,
    wins: wins.map((w) => ({
      seat: w.seat, from: w.from, win_tile: w.tile, self_drawn: w.self_drawn, score: w.score,
    })),
    hands: hands.some(Boolean) ? hands : null,
    transfers: transfersOf(settlement),
    net: result.net || settlement?.net || [0, 0, 0, 0],
    fee: result.fee || 0,
  };
}

export class GameController {
  /**
   * @param {HTMLElement} root   where the table is drawn
   * @param {{socket: {send: Function}, account?: object, onLeave?: Function, onError?: Function}} opts
   */
  constructor(root, { socket, account = null, onLeave = () => {}, onQuit = () => {}, onError = () => {} }) {
    this.socket = socket;
    this.account = account;
    this.onLeave = onLeave;
    this.onQuit = onQuit;
    this.onError = onError;
    this.gameId = null;
    this.turn = null;
    this.events = [];
    this.players = null;
    this.scores = [0, 0, 0, 0];
    this.coins = [null, null, null, null];
    this.coinLog = [];      // this player's coins before/after each hand (終局 summary)
    root.classList.add("play-table");      // the player's own table: its layout (table.css)
    this.view = new TableView(root, {
      send: (action) => this.act(action),
      onAuto: (on) => this.socket.send({ type: "auto", on }),
      onQuit: () => this.onQuit(),
      pace: true,
    });
    // 快捷語 / 表情 and who watches (talk.js); only where a server listens
    this.talk = new TalkBar(root, {
      send: (m) => this.socket.send(m),
      me: () => this.view.obs?.seat ?? null,
      players: () => this.players,
    });
    // 教練: the AI's advice where this seat may ask (coach.js)
    this.coach = new Coach(this.view, { ask: (turn) => this.socket.send({ type: "hint", turn }) });
    // 開黑: voice at the table (voice.js), peer to peer; the server relays the signalling
    this.voice = new VoiceBar(root, {
      send: (m) => this.socket.send(m),
      me: () => this.view.obs?.seat ?? null,
      players: () => this.players,
      gameId: () => this.gameId,
      onError: (m) => this.onError(m),
    });
    this.unLang = onLangChange(() => {
      this.talk.rerender();
      this.voice.rerender();
    });
  }

  act(action) {
    const msg = { type: "action", action };
    if (this.turn !== null) msg.turn = this.turn;
    this.socket.send(msg);
  }

  setPlayers(seats) {
    // A bot goes by its place at the table (下家, 對家, 上家), which tells players more.
    this.players = seats.map((s, i) => ({
      name: s.bot ? null : s.name,
      bot: s.bot,
      auto: s.auto,
      connected: s.connected,
      persona: s.persona || null,
      level: s.level ?? null,
      coins: this.coins[i] ?? undefined,
      score: this.scores[i] ?? 0,          // the game so far: every seat's, a bot's too
    }));
    this.view.setPlayers(this.players);
  }

  /** One server message; returns true if it was a game message. */
  handle(msg) {
    switch (msg.type) {
      case "snapshot": {
        const table = msg.table || {};
        this.gameId = table.game_id ?? this.gameId;
        loadSeatVoices(this.gameId);       // which seats speak in their own voice (myvoice.js)
        this.view.setTableInfo(table, this.account);
        if (msg.hand) document.body.dataset.hand = String(msg.hand.hand_no);
        this.scores = table.scores || this.scores;
        if (this.account && msg.observation) this.coins[msg.observation.seat] = this.account.coins;
        if (table.seats) this.setPlayers(table.seats);
        this.talk.setWatchers(table.watchers || 0);
        this.turn = msg.turn ?? null;
        this.coach.setAllowed(table.hints);
        if (msg.observation) this.view.setObservation(msg.observation, { timer: msg.timer || null, clocks: msg.clocks || null });
        if (msg.observation) this.coach.observe(msg.observation, this.turn);
        if (msg.hand?.open && msg.hand.deal) this.view.showDeal(msg.hand.deal);
        this.voice.setInfo(table.voice);
        return true;
      }
      case "update":
        this.turn = msg.turn ?? null;
        for (const ev of msg.events || []) {
          this.events.push(ev);
          if (ev.type === "deal") this.deal = ev;
          if (ev.type === "win") this.view.event({ type: "win", seat: ev.seat, self_drawn: ev.self_drawn });
          if (ev.type === "draw_game") this.view.event({ type: "draw_game" });
        }
        if (msg.observation) this.view.setObservation(msg.observation, { timer: msg.timer || null, clocks: msg.clocks || null });
        if (msg.observation) this.coach.observe(msg.observation, this.turn);
        if (this.deal) {
          this.view.showDeal(this.deal);
          this.deal = null;
        }
        return true;
      case "presence":
        if (this.players?.[msg.seat]) {
          this.players[msg.seat].auto = msg.auto;
          this.players[msg.seat].connected = msg.connected;
          this.view.setPlayers(this.players);
        }
        return true;
      case "hand_start":
        this.events = [];
        this.view.hideResult();
        document.body.dataset.hand = String(msg.hand_no);
        return true;
      case "hand_end": {
        const result = handResult(msg.result || {}, this.events);
        this.scores = this.scores.map((s, i) => s + (result.net[i] || 0));
        (msg.coins || []).forEach((c, i) => {
          if (c !== null && c !== undefined) this.coins[i] = c;
        });
        if (this.players) this.players.forEach((p, i) => {
          p.coins = this.coins[i] ?? undefined;
          p.score = this.scores[i] ?? 0;
        });
        this.view.setPlayers(this.players);
        const me = this.view.obs?.seat ?? 0;
        const after = msg.coins?.[me];
        const coins = after === null || after === undefined ? null : { before: after - (result.net[me] || 0), after };
        if (coins) this.coinLog.push(coins);
        // the next deal waits for 下一局 (msg.waiting) or its countdown (msg.next_in)
        const next = msg.next_in === null || msg.next_in === undefined ? null : { in: msg.next_in, waiting: msg.waiting || [] };
        this.view.showResult(result, { scores: this.scores, onNext: () => this.nextHand(), next, coins });
        return true;
      }
      case "talk":
        this.talk.heard(msg);
        return true;
      case "watchers":
        this.talk.setWatchers(msg.count);
        return true;
      case "ready":
        this.view.setNextWaiting(msg.waiting || [], msg.next_in);
        return true;
      case "game_end":
        // The last hand's result stays up until the player has read it (下一局).
        if (this.view.lastResult) this.summary = msg;
        else this.view.showSummary(msg, { onLeave: this.onLeave, coins: this.coinLog });
        return true;
      case "hint":
        this.coach.receive(msg);
        return true;
      case "voice":
      case "voice_joined":
      case "voice_signal":
        return this.voice.handle(msg);
      case "error":
        // a refused hint request is the coach's to say (in its panel, not a toast)
        if (COACH_ERRORS.includes(msg.code) && this.coach.refused(msg)) return true;
        if (this.voice.refused(msg) === true) this.onError(msg);
        if (String(msg.code).startsWith("voice_")) return true;
        // Refused: nothing changed on the server, so the same choices stand.
        if (msg.code === "illegal_action" || msg.code === "rate_limited") this.view.unlock();
        if (msg.code !== "stale" && msg.code !== "not_your_turn") this.onError(msg);
        return true;
      default:
        return false;
    }
  }

  /** The server's `second_connection` notice: how many connections sit at this
   * player's seat; more than one is said (either tab can play), one clears it. */
  connections(data) {
    if (data.game_id && this.gameId && data.game_id !== this.gameId) return;
    this.view.setTwice((data.connections ?? 1) > 1);
  }

  /** The link to the server went (false) or came back (true). */
  setLink(up) {
    this.view.setLink(up);
  }

  /** 下一局: tell the table this player is ready; after the last hand, the match summary. */
  nextHand() {
    if (this.summary || this.view.lastResult?.[1]?.next === null) {
      this.view.hideResult();
      if (this.summary) {
        this.view.showSummary(this.summary, { onLeave: this.onLeave, coins: this.coinLog });
        this.summary = null;
      }
      return;
    }
    this.socket.send({ type: "ready" });
    this.view.markReady();
  }

  destroy() {
    this.talk.destroy();
    this.coach.destroy();
    this.voice.destroy();
    this.unLang?.();
    this.view.destroy();
  }
}

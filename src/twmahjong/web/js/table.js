// The table view (牌桌畫面): one seat's observation in, the player's actions out.
//
// `new TableView(root, {send})` then `view.setObservation(obs)` for every update:
// the view is driven the same way by the WebSocket (app.js) and by a local
// fixture (dev/table.html). It never decides anything the server must decide; it
// only offers what `legal` lists and sends back one of those entries unchanged.

import { applyI18n, onLangChange, t, tileName, toggleLang } from "./i18n.js";
import { relPos, renderBoard, seatName, POS_NAMES } from "./board.js";
import { HandView } from "./hand.js";
import { ActionBar } from "./actions.js";
import { renderResult, renderSummary } from "./result.js";
import { Announcer, clack, speakCall } from "./speech.js";
import { getPref, setPref } from "./prefs.js";

const SKELETON = `
  <div class="table-top">
    <span class="table-title" data-i18n="app.title"></span>
    <span class="table-tools">
      <button type="button" class="chip-btn lang-btn" data-i18n="lang.switch" data-i18n-label="lang.label"></button>
      <button type="button" class="chip-btn pref-btn" data-pref="sound" data-i18n="toggle.sound"></button>
    </span>
  </div>
  <div class="board-area">
    <div class="board-wrap"></div>
    <div class="flash-layer" aria-hidden="true"></div>
  </div>
  <p class="prompt"></p>
  <div class="actions-wrap"></div>
  <div class="hand-wrap"></div>
  <div class="toggles" role="group" data-i18n-label="settings">
    <button type="button" class="chip-btn pref-btn" data-pref="autoSort" data-i18n="toggle.sort"></button>
    <button type="button" class="chip-btn" aria-pressed="true" aria-disabled="true" data-i18n="toggle.flower"></button>
    <button type="button" class="chip-btn pref-btn" data-pref="autoWin" data-i18n="toggle.win"></button>
    <button type="button" class="chip-btn pref-btn" data-pref="autoPass" data-i18n="toggle.pass"></button>
  </div>
  <div class="live sr-only"></div>
  <div class="result-wrap" hidden></div>
`;

/** Which call a new meld is, for announcing and speaking it. */
function callOf(meld) {
  return meld.type === "kong" || meld.type === "added_kong" || meld.type === "concealed_kong" ? "kong" : meld.type;
}

/**
 * The discard to mark as the last one. The server names it only while it can be
 * claimed; afterwards the view remembers it until another river grows.
 */
export function lastDiscardMark(prev, obs, prevMark) {
  const ld = obs.last_discard;
  if (ld) return { seat: ld.seat, tile: ld.tile, len: obs.discards?.[ld.seat]?.length || 0 };
  if (prev && prev.seat === obs.seat) {
    for (let s = 0; s < 4; s++) {
      const river = obs.discards?.[s] || [];
      if (river.length > (prev.discards?.[s]?.length || 0)) return { seat: s, tile: river[river.length - 1], len: river.length };
    }
  }
  if (prevMark && (obs.discards?.[prevMark.seat]?.length || 0) === prevMark.len) return prevMark;
  return null;
}

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {{send: (action: object) => void, now?: () => number, claimSeconds?: number}} opts
   *   `claimSeconds` is the countdown shown when the server sends no timer (fixtures).
   */
  constructor(root, { send, now = () => Date.now(), claimSeconds = 10 }) {
    this.root = root;
    this.sendFn = send;
    this.now = now;
    this.claimSeconds = claimSeconds;
    this.obs = null;
    this.prev = null;
    this.players = null;
    this.timer = null;
    this.declareTiles = null;
    this.mark = null;
    root.classList.add("table-view");
    root.innerHTML = SKELETON;
    this.q = (sel) => root.querySelector(sel);
    this.announcer = new Announcer(this.q(".live"));
    this.hand = new HandView(this.q(".hand-wrap"), {
      onThrow: (code) => this.throwTile(code),
      onRefused: (code) => this.announcer.say(`${tileName(code)}：${t("tile.not.allowed")}`),
    });
    this.bar = new ActionBar(this.q(".actions-wrap"), {
      send: (a) => this.send(a),
      onDeclareMode: (tiles) => this.setDeclareMode(tiles),
      now,
    });
    this.q(".lang-btn").addEventListener("click", () => toggleLang());
    for (const b of root.querySelectorAll(".pref-btn")) {
      b.addEventListener("click", () => {
        setPref(b.dataset.pref, !getPref(b.dataset.pref));
        this.paintPrefs();
        if (b.dataset.pref === "autoSort" && this.obs) this.renderHand();
        if (this.obs) this.autoAct();
      });
    }
    this.unsubscribe = onLangChange(() => this.rerender());
    applyI18n(root);
    this.paintPrefs();
  }

  paintPrefs() {
    for (const b of this.root.querySelectorAll(".pref-btn")) {
      b.setAttribute("aria-pressed", getPref(b.dataset.pref) ? "true" : "false");
    }
  }

  /** The players around the table: [{name, coins, bot, auto}] by seat (optional). */
  setPlayers(players) {
    this.players = players;
    if (this.obs) this.renderBoard();
  }

  /**
   * Show a new observation. `timer` is the server's {base, bank} for this seat's
   * decision, if it is deciding; `clocks` every seat's {base, bank, running} as
   * this seat may see them (null for a bot), which the badges count down.
   */
  setObservation(obs, { timer = null, clocks = null } = {}) {
    this.prev = this.obs;
    this.obs = obs;
    this.timer = timer;
    this.clocks = clocks;
    this.timerAt = this.now();
    if ((timer || clocks?.some((c) => c?.running)) && !this.ticker && typeof setInterval === "function") {
      this.ticker = setInterval(() => this.paintTimer(), 500);
    }
    this.declareTiles = null;
    const prevMark = this.mark;
    this.mark = lastDiscardMark(this.prev, obs, prevMark);
    this.q(".result-wrap").hidden = true;
    this.renderBoard();
    this.renderHand();
    const legal = obs.legal || [];
    const seconds = timer ? Math.max(0, timer.base) : legal.length ? this.claimSeconds : null;
    this.bar.update(legal, { ownTurn: this.ownTurn(), seconds });
    this.renderPrompt();
    this.announceChanges(this.prev, obs, prevMark);
    this.autoAct();
  }

  ownTurn() {
    return (this.obs?.legal || []).some((a) => a.type === "discard");
  }

  throwable() {
    const legal = this.obs?.legal || [];
    if (this.declareTiles) return this.declareTiles;
    return new Set(legal.filter((a) => a.type === "discard").map((a) => a.tile));
  }

  renderBoard() {
    const running = this.clocks?.findIndex((c, i) => c?.running && i !== this.obs.seat) ?? -1;
    const clock = this.timer ? { seat: this.obs.seat } : running >= 0 ? { seat: running } : null;
    const shown = { ...this.obs, last_discard: this.mark ? { seat: this.mark.seat, tile: this.mark.tile } : null };
    renderBoard(this.q(".board-wrap"), shown, { players: this.players, clock });
    this.paintTimer();
  }

  /** Seconds left of the base, then of the bank (時間 + 備用時間), as the server counts. */
  timeLeft(timer = this.timer) {
    if (!timer) return null;
    const spent = (this.now() - this.timerAt) / 1000;
    const base = timer.base - spent;
    if (base > 0) return { base, bank: timer.bank };
    return { base: 0, bank: Math.max(0, timer.bank + base) };
  }

  /** Every badge's clock: a countdown while that seat decides, else its spare bank. */
  paintTimer() {
    if (!this.obs) return;
    for (let seat = 0; seat < 4; seat++) {
      const el = this.q(`.badge-timer[data-seat="${seat}"]`);
      if (!el) continue;
      const mine = seat === this.obs.seat;
      const clock = this.clocks?.[seat] ?? null;
      const ticking = mine ? this.timer : clock?.running ? clock : null;
      const left = this.timeLeft(ticking);
      el.classList.toggle("ticking", Boolean(left));
      if (left) {
        el.textContent = t("timer", { n: Math.ceil(left.base) }) +
          (left.bank ? ` ${t("timer.bank", { n: Math.ceil(left.bank) })}` : "");
      } else if (clock && !mine) {
        el.textContent = t("timer.idle", { n: Math.ceil(clock.bank) });
      } else el.textContent = "";
    }
  }

  renderHand() {
    this.hand.update(this.obs, { throwable: this.throwable(), autoSort: getPref("autoSort") });
  }

  renderPrompt() {
    const p = this.q(".prompt");
    const legal = this.obs?.legal || [];
    if (this.ownTurn()) p.textContent = t("prompt.discard");
    else if (legal.length) {
      const calls = [...new Set(legal.filter((a) => a.type !== "pass").map((a) => t(`call.${a.type}`)))];
      p.textContent = calls.length ? t("prompt.claim", { calls: calls.join(" ") }) : "";
    } else p.textContent = "";
  }

  setDeclareMode(tiles) {
    this.declareTiles = tiles;
    this.hand.setThrowable(this.throwable());
  }

  throwTile(code) {
    const legal = this.obs?.legal || [];
    const type = this.declareTiles ? "declare" : "discard";
    const action = legal.find((a) => a.type === type && a.tile === code);
    if (action) this.send(action);
  }

  /** Send one entry of `legal`, exactly as the server offered it. */
  send(action) {
    if (action.type === "discard" || action.type === "declare") clack();
    if (action.type === "declare") speakCall("declare");
    if (action.type === "win") speakCall(this.ownTurn() ? "self_draw" : "win");
    this.bar.update([], {});
    this.hand.setThrowable(new Set());
    this.hand.locked = true;
    this.sendFn(action);
  }

  /** The server refused the last action: offer the same choices again (no auto-act). */
  unlock() {
    if (!this.obs) return;
    this.renderHand();
    const legal = this.obs.legal || [];
    const left = this.timeLeft();
    this.bar.update(legal, { ownTurn: this.ownTurn(), seconds: left ? left.base : null });
  }

  /** Auto-win takes any win offered; auto-pass passes claims, but never a win or 海底. */
  autoAct() {
    const legal = this.obs?.legal || [];
    if (!legal.length || this.hand.locked) return;
    const win = legal.find((a) => a.type === "win" || a.type === "flower_win");
    if (win && getPref("autoWin")) return this.send(win);
    const pass = legal.find((a) => a.type === "pass");
    // 海底: passing would decline the last tile, which is the player's own choice.
    const lastTile = legal.some((a) => a.type === "draw");
    if (pass && !win && !lastTile && getPref("autoPass")) this.send(pass);
  }

  /** Live-region lines and spoken calls for what changed since the last observation. */
  announceChanges(prev, obs, prevMark) {
    const me = obs.seat;
    const who = (s) => seatName(s, me, this.players);
    if (prev && prev.seat === me) {
      for (let s = 0; s < 4; s++) {
        const before = prev.melds?.[s] || [];
        const after = obs.melds?.[s] || [];
        if (after.length > before.length) this.call(s, callOf(after[after.length - 1]), who(s));
        if (obs.declared?.[s] && !prev.declared?.[s]) this.call(s, "declare", who(s));
      }
    }
    const m = this.mark;
    if (m && (!prevMark || prevMark.seat !== m.seat || prevMark.len !== m.len || prevMark.tile !== m.tile)) {
      this.announcer.say(t("ann.discard", { who: who(m.seat), tile: tileName(m.tile) }));
      if (prev) clack();
    }
    if (this.ownTurn() && !(prev?.legal || []).some((a) => a.type === "discard")) {
      this.announcer.say(t("ann.turn"));
    }
  }

  /** A call made at the table: announced, spoken, and flashed on the caller's side. */
  call(seat, kind, who) {
    const label = kind === "self_draw" ? t("call.self_draw") : t(`call.${kind}`);
    this.announcer.say(t("ann.call", { who, call: label }));
    speakCall(kind);
    const flash = document.createElement("div");
    flash.className = `call-flash pos-${POS_NAMES[relPos(seat, this.obs.seat)]}`;
    flash.textContent = label;
    this.q(".flash-layer").replaceChildren(flash);
  }

  /** Events the server sends beside observations (a win, a draw game). */
  event(ev) {
    if (!this.obs) return;
    const who = seatName(ev.seat ?? 0, this.obs.seat, this.players);
    if (ev.type === "win") this.call(ev.seat, ev.self_drawn ? "self_draw" : "win", who);
    if (ev.type === "draw_game") this.announcer.say(t("ann.draw_game"));
  }

  /** The end-of-hand panel; `scores` are running totals, `onNext` the 下一局 button. */
  showResult(result, { scores = null, onNext = null } = {}) {
    this.lastResult = [result, { scores, onNext }];
    for (const w of result.wins || []) {
      const selfDrawn = w.self_drawn ?? (result.payer === null || result.payer === undefined);
      this.event({ type: "win", seat: w.seat, self_drawn: selfDrawn });
    }
    if (result.draw_game) this.event({ type: "draw_game" });
    renderResult(this.q(".result-wrap"), result, {
      me: this.obs?.seat ?? 0, players: this.players, scores, onNext,
    });
  }

  /** The end-of-match summary (`game_end`); `onLeave` returns to the lobby. */
  showSummary(msg, { onLeave = null } = {}) {
    this.lastResult = null;
    renderSummary(this.q(".result-wrap"), msg, { me: this.obs?.seat ?? 0, players: this.players, onLeave });
  }

  hideResult() {
    this.lastResult = null;
    this.q(".result-wrap").hidden = true;
  }

  rerender() {
    applyI18n(this.root);
    if (!this.obs) return;
    this.renderBoard();
    this.hand.render();
    this.bar.render();
    this.renderPrompt();
    if (this.lastResult && !this.q(".result-wrap").hidden) {
      const [result, { scores, onNext }] = this.lastResult;
      renderResult(this.q(".result-wrap"), result, { me: this.obs.seat, players: this.players, scores, onNext });
    }
  }

  destroy() {
    clearInterval(this.ticker);
    this.unsubscribe();
    this.bar.stopCountdown();
  }
}

// The table view (牌桌畫面): one seat's observation in, the player's actions out.
//
// `new TableView(root, {send})` then `view.setObservation(obs)` for every update:
// the view is driven the same way by the WebSocket (app.js) and by a local
// fixture (dev/table.html). It never decides anything the server must decide; it
// only offers what `legal` lists and sends back one of those entries unchanged.

import { applyI18n, hasKey, onLangChange, t, tileName, tn, toggleLang } from "./i18n.js";
import { relPos, renderBoard, seatName, POS_NAMES } from "./board.js";
import { h } from "./dom.js";
import { Pacer } from "./pace.js";
import { HandView } from "./hand.js";
import { discardHints, readyWaits } from "./waits.js";
import { splitTiles } from "./tiles.js";
import { ActionBar, CALL_KEYS } from "./actions.js";
import { renderResult, renderSummary } from "./result.js";
import { Announcer, clack, cue, speakCall } from "./speech.js";
import { getPref, onPrefChange, setPref } from "./prefs.js";
import { openSettings } from "./settings.js";
import { WIN_SHOW_MS, WinShow, claimTile, claimedTiles, mousePlay, tileImg, turnSeat } from "./show.js";

// the stake levels' multipliers (server settings.STAKE_LEVELS; GET /profiles says the same)
const STAKE_MULTIPLIERS = { low: 1, mid: 5, high: 20 };

const SKELETON = `
  <div class="table-top">
    <span class="table-head">
      <span class="table-title" data-i18n="app.title"></span>
      <span class="table-info"></span>
    </span>
    <span class="table-tools">
      <button type="button" class="chip-btn lang-btn" data-i18n="lang.switch" data-i18n-label="lang.label"></button>
      <button type="button" class="chip-btn pref-btn" data-pref="sound" data-i18n="toggle.sound"></button>
      <button type="button" class="chip-btn settings-btn" data-i18n="settings.open"></button>
      <button type="button" class="chip-btn auto-btn" data-i18n="table.auto.on" hidden></button>
      <button type="button" class="chip-btn leave-btn" data-i18n="table.leave" hidden></button>
    </span>
  </div>
  <div class="board-area">
    <div class="board-wrap"></div>
    <div class="flash-layer" aria-hidden="true"></div>
    <div class="deal-info" role="status" hidden>
      <p class="deal-dice"></p>
      <p class="deal-text"></p>
      <button type="button" class="btn small deal-close" data-i18n="deal.close"></button>
      <button type="button" class="btn small ghost deal-never" data-i18n="deal.never"></button>
    </div>
    <div class="auto-banner" role="status" hidden>
      <span class="auto-text" data-i18n="table.auto.banner"></span>
      <button type="button" class="btn small primary auto-cancel" data-i18n="table.auto.cancel"></button>
    </div>
    <p class="prompt"></p>
    <p class="twice-line" role="status" data-i18n="link.twice" hidden></p>
  </div>
  <div class="coach-wrap" hidden></div>
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
  <div class="leave-dialog" role="dialog" aria-modal="true" aria-labelledby="leave-title" hidden>
    <div class="leave-box">
      <h2 id="leave-title" data-i18n="leave.title"></h2>
      <p class="leave-bot" data-i18n="leave.bot"></p>
      <p class="leave-stake"></p>
      <p class="leave-back" data-i18n="leave.back"></p>
      <div class="leave-buttons">
        <button type="button" class="btn primary leave-stay" data-i18n="leave.stay"></button>
        <button type="button" class="btn leave-confirm" data-i18n="leave.confirm"></button>
      </div>
    </div>
  </div>
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

const TITLE = { base: null };
// a 託管 tap the server has not answered in this long frees the switch again
const AUTO_ANSWER_MS = 5000;      // the page's own title, put back when nothing is asked

export class TableView {
  /**
   * @param {HTMLElement} root
   * @param {{send: (action: object) => void, now?: () => number, claimSeconds?: number}} opts
   *   `claimSeconds` is the countdown shown when the server sends no timer (fixtures).
   *   `keys`: play from the keyboard (keyPlay); off where nothing is played (the replay).
   *   `cues`: a chime, a buzz and the tab's title when a move is asked (askedCue); off there too.
   *   `winShowMs`: how long a win is shown before its settlement (show.js); 0 goes straight to it.
   *   `pace`: a live table may send updates faster than a slow device draws them; with
   *   `pace` the drawing of a backlog is folded into one (drawSoon). Off, every
   *   observation is drawn before setObservation returns (fixtures, the replay).
   */
  constructor(root, { send, now = () => Date.now(), claimSeconds = 10, onAuto = null, onQuit = null, keys = true,
    cues = true, winShowMs = WIN_SHOW_MS, pace = false }) {
    this.cues = cues;
    this.drawnObs = null;          // the observation the board and hand show
    this.pacer = new Pacer(() => this.draw(), pace);
    this.root = root;
    this.sendFn = send;
    this.onAuto = onAuto;
    this.onQuit = onQuit;
    this.info = null;
    // the clocks stand still while the link is lost (frozenAt), and run on from the
    // server's next word
    this.frozenAt = null;
    this.linkLost = false;
    this.now = () => this.frozenAt ?? now();
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
    this.winShow = new WinShow(this.q(".board-area"), { ms: winShowMs });      // 胡 / 自摸, before the settlement
    this.claimed = new Set();                               // river tiles claimed away (show.js)
    this.announcer = new Announcer(this.q(".live"));
    this.hand = new HandView(this.q(".hand-wrap"), {
      onThrow: (code) => this.throwTile(code),
      onRefused: (code) => this.announcer.say(`${tileName(code)}：${t("tile.not.allowed")}`),
      onLift: () => this.renderPrompt(),
    });
    this.bar = new ActionBar(this.q(".actions-wrap"), {
      send: (a) => this.send(a),
      onDeclareMode: (tiles) => this.setDeclareMode(tiles),
      now: () => this.now(),
    });
    this.q(".lang-btn").addEventListener("click", () => toggleLang());
    this.q(".settings-btn").addEventListener("click", () => openSettings());
    this.unPref = onPrefChange((name, value) => {
      this.paintPrefs();
      if (name === "readyHints" && this.obs) this.renderHand();
      if (name === "dealInfo" && !value) this.hideDeal();
      if (name === "dealInfo" && value) this.dealSeen = null;     // turned on again: the next deal shows
    });
    // 託管 and 離開 exist only where a server listens (not in a fixture preview)
    this.q(".auto-btn").hidden = !onAuto;
    this.q(".leave-btn").hidden = !onQuit;
    this.autoWish = null;     // 託管 asked for (true) or given back (false), not yet answered
    this.q(".auto-btn").addEventListener("click", () => this.tapAuto(true));
    this.q(".auto-cancel").addEventListener("click", () => this.tapAuto(false));
    this.q(".leave-btn").addEventListener("click", () => this.askLeave());
    this.q(".deal-close").addEventListener("click", () => this.hideDeal());
    // every hand until the first discard it covered the top seats and the river across:
    // a player who knows it turns it off (設定 turns it on again)
    this.q(".deal-never").addEventListener("click", () => setPref("dealInfo", false));
    this.q(".leave-stay").addEventListener("click", () => this.closeLeave());
    this.q(".leave-confirm").addEventListener("click", () => {
      this.closeLeave();
      onQuit?.();
    });
    for (const b of root.querySelectorAll(".pref-btn")) {
      b.addEventListener("click", () => {
        setPref(b.dataset.pref, !getPref(b.dataset.pref));
        this.paintPrefs();
        if (b.dataset.pref === "autoSort" && this.obs) this.renderHand();
        if (this.obs) this.autoAct();
      });
    }
    this.unsubscribe = onLangChange(() => this.rerender());
    // Escape closes what is open over the table, the topmost first, as a desktop
    // player expects of a dialog (a phone has its close buttons)
    this.onKey = (e) => {
      if (e.defaultPrevented) return;
      if (e.key === "Escape") {
        if (this.closeTopmost()) e.preventDefault();
      } else if (keys && this.keyPlay(e)) {
        e.preventDefault();
      }
    };
    document.addEventListener("keydown", this.onKey);
    this.onVisible = () => this.flagTitle(this.asked);
    document.addEventListener("visibilitychange", this.onVisible);
    applyI18n(root);
    this.paintPrefs();
  }

  /**
   * A key that plays (actions.js CALL_KEYS; the terminal client's keys, docs/terminal.md). Not while
   * typing, under a dialog, or with a modifier (the browser's own shortcuts); Enter
   * and Space on a focused button stay that button's (a tile, a call, 下一局).
   */
  keyPlay(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || !this.root.isConnected || this.linkLost) return false;
    const el = document.activeElement;
    if (el?.closest?.("input, textarea, select, [contenteditable]")) return false;
    if (document.querySelector(".settings-dialog") || !this.q(".leave-dialog").hidden ||
        this.q(".talk-panel:not([hidden])")) return false;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === "ArrowLeft" || key === "ArrowRight") return this.hand.step(key === "ArrowRight" ? 1 : -1);
    if (key === "Enter" || key === " ") {
      if (el && el !== document.body && el.closest("button, a, [role=button]")) return false;
      if (this.winShow.open) {
        this.winShow.done();
        return true;
      }
      const next = this.q(".result-wrap:not([hidden]) .next-hand:not([disabled])");   // 下一局
      if (next) {
        next.click();
        return true;
      }
      return this.hand.throwLifted();
    }
    if (/^[1-9]$/.test(key)) {
      const choice = this.root.querySelectorAll(".choices .choice")[Number(key) - 1];
      choice?.click();
      return !!choice;
    }
    const call = (CALL_KEYS[key] || []).map((name) => this.q(`.actions-wrap .call-${name}`)).find(Boolean);
    call?.click();
    return !!call;
  }

  /** Close the topmost thing open over the table (the leave question, table talk, a
   * 吃 / 槓 choice, the deal's dice); false when nothing was open. */
  closeTopmost() {
    if (!this.q(".leave-dialog").hidden) {
      this.closeLeave();
      return true;
    }
    const close = this.q(".talk-panel:not([hidden]) .talk-close") || this.q(".choices .choice-cancel");
    if (close) {
      close.click();
      return true;
    }
    if (!this.q(".deal-info").hidden) {
      this.hideDeal();
      return true;
    }
    return false;
  }

  paintPrefs() {
    for (const b of this.root.querySelectorAll(".pref-btn")) {
      b.setAttribute("aria-pressed", getPref(b.dataset.pref) ? "true" : "false");
    }
  }

  /** The players around the table: [{name, coins, bot, auto}] by seat (optional). */
  setPlayers(players) {
    this.players = players;
    // the server's word on this seat's 託管 answers a tap waiting for it
    if (this.autoWish !== null && this.seatOnAuto() === this.autoWish) this.autoAnswered();
    if (this.obs) this.renderBoard();
    this.paintAuto();
    // 託管 switched without a new observation: the prompt says who moves, and a move
    // asked of the player is asked no more (askedCue judges each observation)
    if (this.obs) this.renderPrompt();
    if (this.asked && this.seatOnAuto()) {
      this.asked = false;
      this.flagTitle(false);
    }
  }

  /** What is played here (the snapshot's `table`): mode, stakes, speed. */
  setTableInfo(info, account = null) {
    this.info = info;
    this.account = account;
    this.paintInfo();
  }

  paintInfo() {
    const info = this.info;
    const el = this.q(".table-info");
    if (!info) return;
    const speed = info.speed || "standard";
    const turn = info.turn_time;
    const mode = t(`mode.${info.mode || "casual"}`);
    const rules = info.profile && hasKey(`rules.short.${info.profile}`) ? t(`rules.short.${info.profile}`) : info.profile;
    el.textContent = t(rules ? "table.info.rules" : "table.info", {
      rules,
      mode: info.tier ? t("table.mode.tier", { mode, n: info.tier }) : mode,
      stake: t(`stake.${info.stake || "low"}`, { n: STAKE_MULTIPLIERS[info.stake] ?? 1 }),
      speed: turn ? t("speed.detail", { name: t(`speed.${speed}`), base: Math.round(turn.base), bank: Math.round(turn.bank) }) : t(`speed.${speed}`),
    });
  }

  /**
   * The deal (擲骰開門): the dealer's dice, where the wall is broken, and one line on
   * why the dealer sits where they do — from the profile's rule, which the winds
   * show: East at the wall break (standard, classic) or at the dealer (casual).
   * Stays until the player's first discard or call, or until they close it.
   */
  showDeal(deal) {
    if (!deal?.dice?.length || !this.obs || this.playedYet(this.obs) || !getPref("dealInfo")) return;
    // once a table (counted from when it was first on screen): each hand's dice banner
    // sat over the board while claims were asked
    if (this.dealSeen && this.dealSeen !== deal) return;
    this.dealShown = deal;
    this.paintDeal();
  }

  /** The player has thrown or called this hand (the deal's line has done its job). */
  playedYet(obs) {
    const me = obs.seat;
    return (obs.discards?.[me]?.length || 0) > 0 || (obs.melds?.[me]?.length || 0) > 0;
  }

  paintDeal() {
    const deal = this.dealShown;
    const box = this.q(".deal-info");
    if (!deal || !this.obs) return;
    const me = this.obs.seat;
    const [a, b, c] = deal.dice;
    const sum = deal.dice.reduce((x, y) => x + y, 0);
    const faces = deal.dice.map((n) => "⚀⚁⚂⚃⚄⚅"[n - 1] || String(n)).join(" ");
    const breakSeat = deal.wall_break?.[0] ?? deal.dealer;
    const winds = deal.seat_winds || this.obs.seat_winds || [];
    const dealerWind = winds[deal.dealer] || "E";
    const fromDealer = dealerWind === "E" && breakSeat !== deal.dealer;
    this.q(".deal-dice").textContent = `${faces}  ${t("deal.dice", { a, b, c: c ?? 0, sum })}`;
    this.q(".deal-dice").dataset.sum = String(sum);
    const who = (s) => (s === me ? t("seat.self") : seatName(s, me, this.players));
    const breaker = breakSeat === me ? t("seat.breaker.self") : who(breakSeat);
    const line = deal.dealer === me ? t("deal.break.self", { sum, breaker }) : t("deal.break", { dealer: who(deal.dealer), sum, breaker });
    this.q(".deal-text").textContent = `${line} ` +
      (fromDealer ? t("deal.from_dealer") : t("deal.wall_break", { wind: t(`wind.${dealerWind}`) }));
    box.dataset.dealer = String(deal.dealer);
    box.dataset.breaker = String(breakSeat);
    // never over the board while a move is asked (a claim, the dealer's first turn):
    // it stands aside until the question is answered, then comes back
    box.hidden = (this.obs.legal || []).length > 0;
    if (!box.hidden) this.dealSeen = deal;
  }

  hideDeal() {
    this.dealShown = null;
    this.q(".deal-info").hidden = true;
  }

  /**
   * The link to the server went (false) or came back (true). While it is lost the
   * clocks stand still, the hand and the calls take no tap or key (a move would
   * go nowhere), and the prompt says why; the server's next snapshot redraws all.
   */
  setLink(up) {
    if (up === !this.linkLost) return;
    this.linkLost = !up;
    // back, the clocks show the time that really passed (the server's ran on)
    this.frozenAt = up ? null : this.now();
    this.root.classList.toggle("link-lost", !up);
    for (const sel of [".actions-wrap", ".hand-wrap", ".auto-banner"]) this.q(sel).inert = !up;
    this.paintAuto();
    this.paintTimer();
    this.paintNext();
    this.renderPrompt();
  }

  /** This seat is also open in another tab (or device) of the account: both can play. */
  setTwice(on) {
    this.q(".twice-line").hidden = !on;
  }

  /**
   * 託管 / 取消託管 tapped: asked of the server once, and the switch waits for its
   * answer (`presence`) before it takes another tap. What the switch shows is always
   * the server's word, never the tap: fast taps cannot leave them disagreeing.
   * An answer that never comes (a refused or a no-op request) frees it after a while.
   */
  tapAuto(on) {
    if (this.autoWish !== null || this.linkLost || !this.onAuto) return;
    this.autoWish = on;
    clearTimeout(this.autoWait);
    this.autoWait = setTimeout(() => this.autoAnswered(), AUTO_ANSWER_MS);
    this.paintAuto();
    this.onAuto(on);
  }

  /** The server answered (its presence for this seat), or refused, or said nothing. */
  autoAnswered() {
    clearTimeout(this.autoWait);
    this.autoWish = null;
    this.paintAuto();
  }

  /** 託管中: the banner with 取消託管 while a bot plays this seat. */
  paintAuto() {
    const auto = this.seatOnAuto();
    this.q(".auto-banner").hidden = !auto || !this.onAuto;
    this.q(".auto-btn").hidden = auto || !this.onAuto;
    const waiting = this.autoWish !== null;
    for (const b of [this.q(".auto-btn"), this.q(".auto-cancel")]) {
      b.disabled = waiting || this.linkLost;
      b.setAttribute("aria-busy", waiting ? "true" : "false");
    }
    this.root.classList.toggle("on-auto", auto);
  }

  /** 離開: say what happens before the player goes (a bot keeps the seat; coins count). */
  askLeave() {
    const info = this.info || {};
    const params = {
      mode: t(`mode.${info.mode || "casual"}`),
      stake: t(`stake.${info.stake || "low"}`, { n: STAKE_MULTIPLIERS[info.stake] ?? 1 }),
    };
    const me = this.obs?.seat;
    const coins = me !== undefined ? this.players?.[me]?.coins : undefined;
    this.q(".leave-stake").textContent = coins !== undefined && coins !== null
      ? t("leave.stake", { ...params, coins: Number(coins).toLocaleString() })
      : t("leave.stake.nocoins", params);
    this.q(".leave-dialog").hidden = false;
    this.q(".leave-stay").focus();
  }

  /** The browser's Back (a phone's back gesture) at a table in play: ask, as 離開
   * does, rather than drop the player in the lobby with their seat's clock running;
   * Back with the question open closes it (the player stays). False: nothing to ask
   * (the match is over, or no server listens), Back goes where it goes. */
  backPressed() {
    if (this.q(".leave-btn").hidden) return false;
    if (this.q(".leave-dialog").hidden) this.askLeave();
    else this.closeLeave();
    return true;
  }

  closeLeave() {
    this.q(".leave-dialog").hidden = true;
    this.q(".leave-btn").focus();
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
    // a claimed tile stays in its river dimmed, and the last-discard arrow leaves it
    this.claimed = claimedTiles(this.prev, obs, this.claimed);
    if (this.mark && this.claimed.has(`${this.mark.seat}:${this.mark.len - 1}`)) this.mark = null;
    // the hand's result stays up over the hand's last observation (本局結算)
    if (obs.phase !== "over") this.q(".result-wrap").hidden = true;
    if (this.dealShown && this.playedYet(obs)) this.hideDeal();
    else if (this.dealShown) this.paintDeal();        // it gives way while a move is asked
    // every observation's news is told (each discard, each call), drawn or not
    this.announceChanges(this.prev, obs, prevMark);
    this.drawSoon();
  }

  /**
   * Draw the latest observation now, unless this table is paced and the device spends
   * more time drawing than the updates leave between them (a phone at a fast bot
   * table, a busy machine). Then one drawing follows the backlog: drawn one by one,
   * the table fell further behind the game with every update, and a player saw moves
   * that were seconds old.
   */
  drawSoon() {
    this.pacer.soon();
  }

  /** The board, the hand, the call bar and the prompt for the latest observation. */
  draw() {
    const obs = this.obs;
    if (!obs) return;
    const before = this.drawnObs;
    this.renderBoard();
    this.renderHand();
    this.paintAuto();
    const legal = obs.legal || [];
    const timer = this.timer;
    const seconds = timer ? Math.max(0, timer.base) : legal.length ? this.claimSeconds : null;
    this.bar.update(legal, { ownTurn: this.ownTurn(), seconds, bank: timer ? Math.max(0, timer.bank) : 0,
      claimTile: claimTile(obs) });
    this.renderPrompt();
    this.drawnObs = obs;
    this.autoAct();
    this.askedCue(before, obs);
  }

  /**
   * A move newly asked of the player (their turn, or a call other than 過) that no
   * auto switch has answered: a chime and a buzz (speech.cue), and, while the tab is
   * hidden, the tab's title says so. A claim window offering only 過 asks nothing.
   */
  askedCue(prev, obs) {
    const real = (o) => (o?.legal || []).filter((a) => a.type !== "pass");
    const now = real(obs);
    // on 託管 the server's bot moves for the seat: chiming at each of its turns would
    // call back a player who chose to step away
    this.asked = this.cues && now.length > 0 && !this.hand.locked && !this.seatOnAuto();
    if (this.asked && JSON.stringify(now) !== JSON.stringify(real(prev))) cue();
    this.flagTitle(this.asked);
  }

  flagTitle(on) {
    if (!globalThis.document) return;
    TITLE.base ??= document.title;
    document.title = on && document.hidden ? `${t("title.turn")} — ${TITLE.base}` : TITLE.base;
  }

  /** The server plays this seat (託管): the player's own switch, or a lost connection's. */
  seatOnAuto() {
    const me = this.obs?.seat;
    return me !== undefined && Boolean(this.players?.[me]?.auto);
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
    const turn = turnSeat(this.obs);
    const clock = this.timer && this.ownTurn() ? { seat: this.obs.seat } : running >= 0 ? { seat: running }
      : turn !== null ? { seat: turn } : this.timer ? { seat: this.obs.seat } : null;
    // melds new since the last observation arrive from their river (show.css)
    const prev = this.drawnObs?.seat === this.obs.seat ? this.drawnObs : null;
    const fresh = prev ? [0, 1, 2, 3].map((s) => prev.melds?.[s]?.length ?? 0) : null;
    const shown = { ...this.obs, last_discard: this.mark ? { seat: this.mark.seat, tile: this.mark.tile } : null,
      claimed_tiles: this.claimed, fresh_melds: fresh };
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
      el.classList.toggle("bank", Boolean(left) && left.base <= 0);
      if (left && left.base > 0) {
        el.textContent = t("timer", { n: Math.ceil(left.base) }) +
          (left.bank ? ` ${t("timer.bank", { n: Math.ceil(left.bank) })}` : "");
      } else if (left) {
        // the base is spent: the bank counts down (備用), never a bare 0
        el.textContent = t("timer.idle", { n: Math.ceil(left.bank) });
      } else if (clock && !mine) {
        el.textContent = t("timer.idle", { n: Math.ceil(clock.bank) });
      } else el.textContent = "";
    }
  }

  /** 聽牌提示 (waits.js): on this seat's turn, each throwable tile that leaves the hand
   * ready → its waits; between turns, what a ready hand waits on. Off in 設定, none. */
  hints() {
    const obs = this.obs;
    if (!obs || obs.phase === "over" || !getPref("readyHints")) return { discard: {}, ready: [] };
    const lilgu = Boolean(this.info?.lilgu);
    if (this.ownTurn()) return { discard: discardHints(obs, { allowed: this.throwable(), lilgu }), ready: [] };
    return { discard: {}, ready: readyWaits(obs, { lilgu }) };
  }

  renderHand() {
    this.hintsNow = this.hints();
    this.hand.update(this.obs, { throwable: this.throwable(), autoSort: getPref("autoSort"),
      ready: new Set(Object.keys(this.hintsNow.discard)) });
  }

  /** "一萬(1) 四萬(3)，共 4 張" as nodes, each wait kept on one line (a sideways
   * screen's prompt wraps); more than four kinds are counted, not listed. A wait
   * with none left is greyed, and waits with none left at all say 空聽 in words: a
   * ready hand that can no longer win is no reason to keep it. */
  waitsNodes(ws) {
    const total = ws.reduce((a, w) => a + w.live, 0);
    const nowrap = (text, more = "") => h("span", { class: `hint-wait ${more}`.trim() }, text);
    const list = ws.length > 4 ? [nowrap(t("hint.many", { kinds: ws.length }))]
      : ws.flatMap((w, i) => [i ? " " : "", w.blocked
        // 過水 keeps the seat from winning on it for now: listed, and said so
        ? nowrap(t("hint.wait_blocked", { tile: tileName(w.tile), n: w.live }), "blocked")
        : nowrap(t("hint.wait", { tile: tileName(w.tile), n: w.live }), w.live ? "" : "dead")]);
    return [...list, total ? nowrap(t("hint.total", { n: total })) : nowrap(t("hint.dead"), "none")];
  }

  /** A translated line with `{waits}` filled by `waitsNodes`. */
  withWaits(key, params, ws) {
    const [before, after = ""] = t(key, { ...params, waits: "\u0000" }).split("\u0000");
    return [before, ...this.waitsNodes(ws), after];
  }

  renderPrompt() {
    const p = this.q(".prompt");
    const legal = this.obs?.legal || [];
    const hints = this.hintsNow || { discard: {}, ready: [] };
    const lifted = this.hand.liftedCode();
    // a lost link first: no move reaches the server until it is back
    if (this.linkLost) p.textContent = t("link.wait");
    // on 託管 the banner says who moves; "輪到你：點一下牌…" would say it is the player
    else if (this.seatOnAuto()) p.textContent = "";
    else if (this.ownTurn()) {
      if (lifted && hints.discard[lifted]) {
        p.replaceChildren(...this.withWaits("hint.discard", { tile: tileName(lifted) }, hints.discard[lifted]));
      } else if (Object.keys(hints.discard).length) p.textContent = t("prompt.discard.ready");
      else p.textContent = t(mousePlay() ? "prompt.discard.click" : "prompt.discard");
    } else if (legal.length) {
      const calls = [...new Set(legal.filter((a) => a.type !== "pass").map((a) => t(`call.${a.type}`)))];
      const tile = claimTile(this.obs);
      if (calls.length && tile) {
        // 「可以鳴牌 [五筒]：碰」: the tile drawn, and named for a screen reader
        const [before, after = ""] = t("prompt.claim.tile", { tile: "\u0000", calls: calls.join(" ") }).split("\u0000");
        p.replaceChildren(before, tileImg(tile, "tile-img prompt-tile"), after);
      } else p.textContent = calls.length ? t("prompt.claim", { calls: calls.join(" ") }) : "";
    } else if (hints.ready.length) p.replaceChildren(...this.withWaits("hint.ready", {}, hints.ready));
    else p.textContent = "";
    // 過水: a win let go holds until the profile lifts it — said for as long as it holds
    const passed = this.linkLost ? "" : passedText(this.obs);
    if (passed) p.append(h("span", { class: "passed-note" }, passed));
  }

  setDeclareMode(tiles) {
    this.declareTiles = tiles;
    this.renderHand();
  }

  throwTile(code) {
    const legal = this.obs?.legal || [];
    const type = this.declareTiles ? "declare" : "discard";
    const action = legal.find((a) => a.type === type && a.tile === code);
    if (action) this.send(action);
  }

  /** Send one entry of `legal`, exactly as the server offered it. */
  send(action) {
    this.asked = false;
    this.flagTitle(false);
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
    if (this.autoWish !== null) this.autoAnswered();
    if (!this.obs) return;
    this.renderHand();
    const legal = this.obs.legal || [];
    const left = this.timeLeft();
    this.bar.update(legal, { ownTurn: this.ownTurn(), seconds: left ? left.base : null, bank: left ? left.bank : 0 });
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
      const tile = tileName(m.tile);
      this.announcer.say(m.seat === me ? t("ann.discard.self", { tile })
                                       : t("ann.discard", { who: who(m.seat), tile }));
      if (prev) clack();
    }
    if (this.ownTurn() && !(prev?.legal || []).some((a) => a.type === "discard")) {
      this.announcer.say(t("ann.turn"));
    }
    if (obs.passed_win && !prev?.passed_win) this.announcer.say(passedText(obs));
  }

  /** A call made at the table: announced, spoken, and flashed on the caller's side. */
  call(seat, kind, who) {
    const label = kind === "self_draw" ? t("call.self_draw") : t(`call.${kind}`);
    this.announcer.say(t("ann.call", { who, call: label }));
    speakCall(kind, seat);
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

  /**
   * The end-of-hand panel; `scores` are running totals, `onNext` the 下一局 button,
   * `next` the server's {in, waiting} (the next deal's countdown and whom it waits
   * for; null after the last hand), `coins` this player's {before, after}.
   */
  showResult(result, { scores = null, onNext = null, next = undefined, coins = null } = {}) {
    this.lastResult = [result, { scores, onNext, next, coins }];
    this.ready = false;
    this.nextAt = next ? this.now() + next.in * 1000 : null;
    this.nextWaiting = next ? next.waiting : [];
    for (const w of result.wins || []) {
      const selfDrawn = w.self_drawn ?? (result.payer === null || result.payer === undefined);
      this.event({ type: "win", seat: w.seat, self_drawn: selfDrawn });
    }
    if (result.draw_game) this.event({ type: "draw_game" });
    if ((result.wins || []).length && this.winShow.ms > 0) {
      // the win's moment first (show.js); the settlement when it is tapped or done
      this.q(".result-wrap").hidden = true;
      this.winShow.show(result, { me: this.obs?.seat ?? 0, players: this.players }, () => this.drawResult());
    } else this.drawResult();
    if (this.nextAt !== null && !this.nextTicker && typeof setInterval === "function") {
      this.nextTicker = setInterval(() => this.paintNext(), 250);
    }
  }

  drawResult() {
    if (!this.lastResult) return;
    const [result, { scores, onNext, coins }] = this.lastResult;
    renderResult(this.q(".result-wrap"), result, {
      me: this.obs?.seat ?? 0, players: this.players, scores, onNext, coins,
    });
    this.paintNext();
  }

  /** 下一局 pressed: the panel stays (saying whom the deal waits for) unless nobody else is awaited. */
  markReady() {
    this.ready = true;
    const me = this.obs?.seat;
    this.nextWaiting = this.nextWaiting.filter((s) => s !== me);
    if (!this.nextWaiting.length) this.hideResult();
    else this.paintNext();
  }

  /** The server's `ready`: who the next deal still waits for, and when it comes anyway. */
  setNextWaiting(waiting, nextIn) {
    this.nextWaiting = waiting;
    if (typeof nextIn === "number") this.nextAt = this.now() + nextIn * 1000;
    this.paintNext();
  }

  /** The countdown to the next deal, on the 下一局 button and beside it. */
  paintNext() {
    const box = this.q(".result-wrap .next-info");
    const button = this.q(".result-wrap .next-hand");
    if (!box || this.nextAt === null || !this.lastResult || this.winShow.open) return;
    const left = Math.max(0, Math.ceil((this.nextAt - this.now()) / 1000));
    box.dataset.left = String(left);
    const me = this.obs?.seat;
    const others = this.nextWaiting.filter((s) => s !== me).length;
    box.textContent = this.ready ? `${tn("next.waiting", others)} ${t("next.in", { n: left })}` : t("next.in", { n: left });
    if (button) {
      button.textContent = this.ready ? t("next.ready") : t("result.next.in", { n: left });
      button.disabled = this.ready || this.linkLost;
    }
  }

  /** The end-of-match summary (`game_end`); `onLeave` returns to the lobby. */
  showSummary(msg, { onLeave = null, coins = null } = {}) {
    this.winShow.cancel();
    this.lastResult = null;
    this.nextAt = null;
    this.lastSummary = [msg, { onLeave, coins }];
    this.q(".leave-btn").hidden = true;
    this.q(".auto-btn").hidden = true;
    renderSummary(this.q(".result-wrap"), msg, { me: this.obs?.seat ?? 0, players: this.players, onLeave, coins });
  }

  hideResult() {
    this.winShow.cancel();
    this.lastResult = null;
    this.nextAt = null;
    this.q(".result-wrap").hidden = true;
  }

  rerender() {
    applyI18n(this.root);
    if (!this.obs) return;
    this.renderBoard();
    this.hand.render();
    this.bar.render();
    this.renderPrompt();
    this.paintInfo();
    this.paintDeal();
    if (this.winShow.open) this.winShow.draw();
    if (this.lastResult && !this.q(".result-wrap").hidden) this.drawResult();
    else if (this.lastSummary && !this.q(".result-wrap").hidden) {
      const [msg, opts] = this.lastSummary;
      renderSummary(this.q(".result-wrap"), msg, { me: this.obs.seat, players: this.players, ...opts });
    }
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.flagTitle(false);
    this.unPref?.();
    clearInterval(this.ticker);
    clearInterval(this.nextTicker);
    clearTimeout(this.autoWait);
    this.pacer.cancel();
    this.winShow.cancel();
    this.unsubscribe();
    this.bar.stopCountdown();
  }
}

/** 過水 in the profile's words (the observation's `passed_win`, only ever the seat's
 * own), or "" when the seat may win. */
export function passedText(obs) {
  const pw = obs?.passed_win;
  if (!pw || !hasKey(`passed.${pw.until}`)) return "";
  const tiles = splitTiles(pw.tiles || "").map(tileName).join(t("coach.sep"));
  return t(`passed.${pw.until}`, { tiles });
}

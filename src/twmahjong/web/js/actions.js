// Call buttons (吃 碰 槓 胡 過 聽) built from the seat's `legal` list, with a countdown.
//
// Only what `legal` offers is ever shown, so a button can never ask the server
// for an illegal action. When a call can be made in several ways (two 吃
// sequences, two 槓 tiles) the button opens a choice drawn with the tiles.

import { t, tileName } from "./i18n.js";
import { sortCodes, splitTiles, tileSVG } from "./tiles.js";
import { tileImg } from "./show.js";

// the calls that take the tile offered: their buttons show it (吃 [3萬])
const CLAIMS = new Set(["chi", "pon", "kong", "win"]);

// Display order: the claims, then the declarations, then 胡, then 過 last.
const GROUPS = [
  ["chi", ["chi"]],
  ["pon", ["pon"]],
  ["kong", ["kong", "added_kong", "concealed_kong"]],
  ["declare", ["declare"]],
  ["flower_win", ["flower_win"]],
  ["win", ["win"]],
  ["draw", ["draw"]],
  ["pass", ["pass"]],
];

/** The key that presses each call, as in the terminal client (docs/terminal.md):
 * 吃 碰 槓 胡 聽 海底 過. A button shows its key where there is a keyboard. */
export const CALL_KEYS = {
  c: ["chi"], p: ["pon"], k: ["kong"], w: ["win", "flower_win"], t: ["declare"], d: ["draw"], x: ["pass"],
};
const KEY_OF = Object.fromEntries(Object.entries(CALL_KEYS).flatMap(([k, names]) => names.map((n) => [n, k])));

/** Tiles an action shows: a chi's sequence, a kong's four, a pon's three. */
export function actionTiles(a) {
  // 吃 names the claimed tile and the two from hand: {"tile": "3m", "tiles": "45m"}.
  if (a.type === "chi" && a.tile && a.tiles) return sortCodes([a.tile, ...splitTiles(a.tiles)]);
  if (a.tiles) return splitTiles(a.tiles);
  if (a.tile && ["pon"].includes(a.type)) return [a.tile, a.tile, a.tile];
  if (a.tile && ["kong", "added_kong", "concealed_kong"].includes(a.type)) return [a.tile, a.tile, a.tile, a.tile];
  return a.tile ? [a.tile] : [];
}

function tilesHTML(codes, claimed = null) {
  let marked = false;
  return codes
    .map((c) => {
      const mark = !marked && c === claimed;
      if (mark) marked = true;
      return `<span class="tile${mark ? " claimed" : ""}">${tileSVG(c)}</span>`;
    })
    .join("");
}

export class ActionBar {
  /**
   * @param {HTMLElement} root
   * @param {{send: Function, onDeclareMode: (tiles: Set<string>|null) => void, now?: () => number}} hooks
   *   `now` is injectable so the countdown can be driven without a wall clock.
   */
  constructor(root, { send, onDeclareMode, now = () => Date.now() }) {
    this.root = root;
    this.send = send;
    this.onDeclareMode = onDeclareMode;
    this.now = now;
    this.legal = [];
    this.ownTurn = false;
    this.declaring = false;
    this.deadline = null;
    this.total = 0;
    this.timer = null;
    this.decorate = null;   // (root): marks laid on the buttons (coach.js)
  }

  /** Show the buttons for `legal`; `seconds` (the base) then `bank` are the visible countdown. */
  update(legal, { ownTurn = false, seconds = null, bank = 0, claimTile = null } = {}) {
    this.legal = legal || [];
    this.ownTurn = ownTurn;
    this.claimTile = claimTile;
    this.declaring = false;
    this.choice = null;
    if (seconds !== null && this.legal.length) this.startCountdown(seconds, bank);
    else if (!this.legal.length) this.stopCountdown();
    this.render();
  }

  groups() {
    const out = [];
    for (const [name, types] of GROUPS) {
      const acts = this.legal.filter((a) => types.includes(a.type));
      if (acts.length) out.push([name, acts]);
    }
    return out;
  }

  label(name) {
    if (name === "win") return t(this.ownTurn ? "call.self_draw" : "call.win");
    return t(`call.${name}`);
  }

  render() {
    const bar = document.createElement("div");
    bar.className = "action-bar";
    const groups = this.groups();
    if (groups.length) {
      const buttons = document.createElement("div");
      buttons.className = "calls";
      for (const [name, acts] of groups) buttons.append(this.button(name, acts));
      buttons.append(this.countdownEl());
      bar.append(buttons);
    }
    if (this.declaring) {
      const hint = document.createElement("p");
      hint.className = "call-hint";
      hint.textContent = t("choose.declare");
      bar.append(hint);
    }
    if (this.choice) bar.append(this.choiceEl(...this.choice));
    this.root.replaceChildren(bar);
    this.decorate?.(this.root);
  }

  button(name, acts) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `call call-${name}`;
    b.dataset.call = name;
    b.textContent = this.label(name);
    if (this.claimTile && CLAIMS.has(name)) {
      b.append(tileImg(this.claimTile, "tile-img call-tile"));
      b.dataset.tile = this.claimTile;
      b.setAttribute("aria-label", `${this.label(name)} ${tileName(this.claimTile)}`);
    }
    if (KEY_OF[name]) {
      b.dataset.key = KEY_OF[name].toUpperCase();
      b.setAttribute("aria-keyshortcuts", KEY_OF[name].toUpperCase());
    }
    if (name === "declare") b.setAttribute("aria-pressed", this.declaring ? "true" : "false");
    const only = acts.length === 1 ? acts[0] : null;
    if (only && only.type !== "pass" && name !== "declare") {
      const codes = actionTiles(only);
      if (codes.length) b.setAttribute("aria-label", `${this.label(name)} ${codes.map(tileName).join(" ")}`);
    }
    b.addEventListener("click", () => this.press(name, acts));
    return b;
  }

  press(name, acts) {
    if (name === "declare" && acts.some((a) => a.tile)) {
      // 聽 with a discard: the hand picks the tile.
      this.declaring = !this.declaring;
      this.onDeclareMode(this.declaring ? new Set(acts.map((a) => a.tile)) : null);
      this.render();
      return;
    }
    if (acts.length > 1) {
      this.choice = this.choice?.[0] === name ? null : [name, acts];
      this.render();
      return;
    }
    this.fire(acts[0]);
  }

  choiceEl(name, acts) {
    const box = document.createElement("div");
    box.className = "choices";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t(name === "chi" ? "choose.chi" : "choose.kong"));
    const title = document.createElement("p");
    title.className = "choices-title";
    title.textContent = t(name === "chi" ? "choose.chi" : "choose.kong");
    box.append(title);
    acts.forEach((a, i) => {
      const codes = actionTiles(a);
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice";
      b.dataset.tiles = codes.join("");
      if (i < 9) {
        b.dataset.key = String(i + 1);           // a digit picks it (TableView.keyPlay)
        b.setAttribute("aria-keyshortcuts", String(i + 1));
      }
      b.setAttribute("aria-label", `${t(`call.${a.type}`)} ${codes.map(tileName).join(" ")}`);
      b.innerHTML = tilesHTML(codes, a.type === "chi" ? a.tile : null);
      b.addEventListener("click", () => this.fire(a));
      box.append(b);
    });
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "choice-cancel";
    cancel.textContent = t("choose.cancel");
    cancel.addEventListener("click", () => {
      this.choice = null;
      this.render();
    });
    box.append(cancel);
    return box;
  }

  /** Send one legal action and clear the bar until the next observation. */
  fire(action) {
    this.legal = [];
    this.choice = null;
    if (this.declaring) this.onDeclareMode(null);
    this.declaring = false;
    this.stopCountdown();
    this.render();
    this.send(action);
  }

  countdownEl() {
    const box = document.createElement("div");
    box.className = "countdown";
    box.setAttribute("role", "timer");
    box.setAttribute("aria-label", t("countdown.label"));
    box.innerHTML =
      `<svg viewBox="0 0 36 36" aria-hidden="true"><circle class="cd-track" cx="18" cy="18" r="15.5"/>` +
      `<circle class="cd-ring" cx="18" cy="18" r="15.5" pathLength="100"/></svg><span class="countdown-n"></span>` +
      `<span class="countdown-bank">${t("timer.bank.label")}</span>`;
    this.paintCountdown(box);
    return box;
  }

  startCountdown(seconds, bank = 0) {
    this.total = seconds;
    this.bank = bank;
    this.deadline = this.now() + seconds * 1000;
    if (!this.timer && typeof setInterval === "function") {
      this.timer = setInterval(() => this.paintCountdown(this.root.querySelector(".countdown")), 250);
    }
  }

  stopCountdown() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.deadline = null;
  }

  /** Whole seconds left of the base, then (base spent) of the bank: never a 0 while bank remains. */
  secondsLeft() {
    if (this.deadline === null) return null;
    const ms = this.deadline - this.now();
    if (ms > 0 || !this.bank) return Math.max(0, Math.ceil(ms / 1000));
    return Math.max(0, Math.ceil((this.bank * 1000 + ms) / 1000));
  }

  inBank() {
    return this.deadline !== null && this.bank > 0 && this.deadline - this.now() <= 0;
  }

  paintCountdown(box) {
    if (!box) return;
    const left = this.secondsLeft();
    box.hidden = left === null;
    if (left === null) return;
    const bank = this.inBank();
    box.querySelector(".countdown-n").textContent = String(left);
    box.classList.toggle("bank", bank);
    const ms = this.deadline - this.now();
    const frac = bank ? Math.max(0, (this.bank * 1000 + ms) / (this.bank * 1000))
      : this.total ? Math.max(0, ms / (this.total * 1000)) : 0;
    box.style.setProperty("--frac", frac.toFixed(3));
    box.classList.toggle("urgent", left <= 3);
  }
}

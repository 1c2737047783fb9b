// What just happened at the table, shown: the win's moment (胡 / 自摸) before the
// settlement, the claimed tile leaving the thrower's river, whose turn it is.
//
// Everything here reads what the table view already has (observations, the hand's
// result); it decides nothing. table.js calls it through a few hooks.

import { pick, t, tileName } from "./i18n.js";
import { seatName } from "./board.js";
import { revealedHand } from "./result.js";
import { tileSVG } from "./tiles.js";

/** How long the win is shown before the settlement, unless tapped away first. */
export const WIN_SHOW_MS = 2000;

/** A tile drawn as an image: seen in a button or a line, never read into its text. */
export function tileImg(code, className = "tile-img") {
  const img = document.createElement("img");
  img.className = className;
  img.alt = tileName(code);
  img.dataset.tile = code;
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(tileSVG(code))}`;
  return img;
}

/** The tile a claim window offers (the discard, or the tile of a kong being added). */
export function claimTile(obs) {
  const legal = obs?.legal || [];
  // a call that takes it (摸海底, the last tile, takes none)
  if (!legal.some((a) => ["chi", "pon", "kong", "win"].includes(a.type))) return null;
  if (legal.some((a) => a.type === "discard")) return null;      // the seat's own turn
  return obs.last_discard?.tile || obs.added_kong?.tile || null;
}

/**
 * The seat to move, from what everyone sees: on a turn the seat to throw holds one
 * tile more than the others (17 counting each meld as three). In a claim window
 * nobody is marked — who may claim is nobody's business.
 */
export function turnSeat(obs) {
  if (!obs || obs.phase !== "turn") return null;
  for (let s = 0; s < 4; s++) {
    const held = (obs.concealed_count?.[s] ?? 0) + 3 * (obs.melds?.[s]?.length ?? 0);
    if (held === 17) return s;
  }
  return null;
}

/**
 * River tiles taken by a claim (吃 碰 明槓), as "seat:index" keys. A claim takes the
 * thrower's newest discard, so a meld new since the last observation marks the last
 * unmarked tile of its face in its thrower's river; marks made before stay. A claim
 * with no mark yet (a table first seen mid-hand: a reconnect) takes its thrower's
 * latest unmarked discard of that face.
 */
export function claimedTiles(prev, obs, known) {
  const out = new Set();
  const river = (s) => obs.discards?.[s] || [];
  const same = prev && prev.seat === obs.seat;
  const fresh = [];
  const older = [];
  for (let s = 0; s < 4; s++) {
    const before = same ? (prev.melds?.[s] || []).length : Infinity;
    (obs.melds?.[s] || []).forEach((m, i) => {
      if (m.from === undefined || m.from === null || !m.claimed) return;
      (i >= before ? fresh : older).push(m);
    });
  }
  if (same) {
    for (const k of known || []) {
      const [s, i] = k.split(":").map(Number);
      if (river(s)[i] !== undefined) out.add(k);
    }
  }
  const used = new Set();
  const mark = (m, reuse) => {
    const r = river(m.from);
    for (const pass of reuse ? [true, false] : [false]) {
      for (let i = r.length - 1; i >= 0; i--) {
        const k = `${m.from}:${i}`;
        if (r[i] !== m.claimed || used.has(k) || out.has(k) !== pass) continue;
        out.add(k);
        used.add(k);
        return;
      }
    }
  };
  for (const m of fresh) mark(m, false);
  for (const m of older) mark(m, true);
  return out;
}

/** Whether a device plays with a mouse (a desktop), not a finger. */
export function mousePlay() {
  return Boolean(globalThis.matchMedia?.("(hover: hover) and (pointer: fine)").matches);
}

/** A seat's level for its badge: a personality's tier, or a levelled bot's L1-L5. */
export function levelText(p) {
  if (!p?.bot) return "";
  if (p.persona) return t("persona.tier", { n: p.persona.tier });
  return typeof p.level === "number" ? t("bot.level", { n: p.level }) : t("bot");
}

/** The persona's style line, for a badge's title. */
export function personaTitle(p) {
  return p?.persona ? pick({ zh: p.persona.description_zh || p.persona.description, en: p.persona.description }) : "";
}

/**
 * The win's moment (胡 / 自摸): who won, how and from whom, the hand laid down with
 * the winning tile marked. It stands for WIN_SHOW_MS or until tapped (or Enter),
 * then `onDone` draws the settlement.
 */
export class WinShow {
  constructor(host, { ms = WIN_SHOW_MS } = {}) {
    this.ms = ms;
    this.el = document.createElement("div");
    this.el.className = "win-show";
    this.el.setAttribute("role", "status");
    this.el.hidden = true;
    this.el.addEventListener("click", () => this.done());
    host.append(this.el);
    this.onDone = null;
  }

  get open() {
    return !this.el.hidden;
  }

  show(result, { me, players }, onDone) {
    this.cancel();
    this.onDone = onDone;
    this.args = [result, { me, players }];
    this.draw();
    this.el.hidden = false;
    this.el.dataset.shown = String((Number(this.el.dataset.shown) || 0) + 1);
    this.timer = setTimeout(() => this.done(), this.ms);
  }

  draw() {
    if (!this.args) return;
    const [result, { me, players }] = this.args;
    const boxes = (result.wins || []).map((w) => {
      const box = document.createElement("section");
      box.className = "win-show-box";
      box.dataset.seat = String(w.seat);
      const selfDrawn = w.self_drawn ?? (result.payer === null || result.payer === undefined);
      const call = document.createElement("p");
      call.className = `win-show-call ${selfDrawn ? "self-drawn" : "on-discard"}`;
      call.textContent = t(selfDrawn ? "call.self_draw" : "call.win");
      const who = document.createElement("p");
      who.className = "win-show-who";
      const mine = w.seat === me;
      const name = seatName(w.seat, me, players);
      const from = w.from ?? result.payer;
      if (selfDrawn) who.textContent = t(mine ? "show.self_drawn.me" : "show.self_drawn", { who: name });
      else if (from === me) who.textContent = t("show.on_discard.mine", { who: name });
      else who.textContent = t(mine ? "show.on_discard.me" : "show.on_discard", { who: name, from: seatName(from, me, players) });
      box.append(call, who);
      const hand = result.hands?.[w.seat];
      if (hand) box.append(revealedHand(hand, w.win_tile));
      else if (w.win_tile) box.append(revealedHand({ concealed: "" }, w.win_tile));
      const tai = w.score?.tai;
      if (typeof tai === "number") {
        const p = document.createElement("p");
        p.className = "win-show-tai";
        p.textContent = t("result.tai", { n: tai });
        box.append(p);
      }
      return box;
    });
    const more = document.createElement("p");
    more.className = "win-show-more";
    more.textContent = t(mousePlay() ? "show.more.click" : "show.more");
    this.el.replaceChildren(...boxes, more);
  }

  /** Tapped, or its time is up: the settlement comes. */
  done() {
    if (this.el.hidden) return;
    this.cancel();
    const fn = this.onDone;
    this.onDone = null;
    fn?.();
  }

  /** Taken away with nothing after it (the next deal came, the view is gone). */
  cancel() {
    clearTimeout(this.timer);
    this.el.hidden = true;
  }
}

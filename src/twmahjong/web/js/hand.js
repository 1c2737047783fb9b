// The player's own hand (手牌): tap to lift, tap again or swipe up to discard.
//
// 「動態放大點選的牌」: a tapped tile rises and grows so it can be read at phone
// size; 「滑牌打出」: a tile pushed upwards is thrown. Both use pointer events, so
// mouse, pen and touch behave alike; keyboard players press the tile button twice, or
// pick with ← → and throw with Enter (TableView's keys).
// The drawn tile (摸進的牌) stands apart at the right, as on a real table.

import { t, tileName } from "./i18n.js";
import { sortCodes, splitTiles, tileSVG } from "./tiles.js";

const TAP_SLOP = 12;        // px a finger may wander and still tap
const MIN_SWIPE = 28;       // px upwards that always counts as a throw

/** Keep the player's own order where tiles stay; new tiles go to the right end. */
export function keepOrder(previous, next) {
  const pool = [...next];
  const kept = [];
  for (const code of previous) {
    const i = pool.indexOf(code);
    if (i >= 0) {
      kept.push(code);
      pool.splice(i, 1);
    }
  }
  return kept.concat(pool);
}

export class HandView {
  /**
   * @param {HTMLElement} root
   * @param {{onThrow: (code: string) => void, onRefused?: (code: string) => void}} hooks
   *   onThrow gets a tile the player chose to throw; onRefused one they may not.
   */
  constructor(root, { onThrow, onRefused = () => {}, onLift = () => {} }) {
    this.root = root;
    this.onThrow = onThrow;
    this.onRefused = onRefused;
    this.onLift = onLift;   // the lifted tile changed (its 聽牌提示 is said)
    this.ready = new Set(); // codes whose discard leaves the hand ready (聽牌提示)
    this.order = [];
    this.drawn = null;
    this.throwable = new Set();
    this.lifted = null;     // index into the rendered tiles
    this.locked = false;    // a throw is in flight until the next observation
    this.drag = null;
    this.decorate = null;   // (button, code, index): marks laid on a tile (coach.js)
  }

  /**
   * Show the hand of `obs`. `throwable` is the set of codes a tap may throw now
   * (discard, or 聽 declaration tiles); empty when it is not the player's move.
   */
  update(obs, { throwable = new Set(), autoSort = true, ready = new Set() } = {}) {
    this.ready = ready;
    const concealed = splitTiles(obs.hand || "");
    const sameTiles =
      concealed.length === this.order.length && sortCodes(concealed).join() === sortCodes(this.order).join() &&
      (obs.drawn || null) === this.drawn;
    this.order = autoSort ? sortCodes(concealed) : keepOrder(this.order, concealed);
    this.drawn = obs.drawn || null;
    this.throwable = throwable;
    this.locked = false;
    if (!sameTiles) this.lifted = null;
    this.render();
  }

  setThrowable(throwable) {
    this.throwable = throwable;
    this.render();
  }

  codes() {
    return this.drawn ? [...this.order, this.drawn] : [...this.order];
  }

  render() {
    const focused = this.root.contains(document.activeElement) ? document.activeElement.dataset.index : null;
    const box = document.createElement("div");
    box.className = "hand";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("hand"));
    if (this.throwable.size) box.classList.add("my-turn");
    const codes = this.codes();
    codes.forEach((code, i) => {
      const isDrawn = this.drawn !== null && i === codes.length - 1;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "hand-tile";
      b.dataset.tile = code;
      b.dataset.index = String(i);
      if (isDrawn) b.classList.add("drawn");
      if (i === this.lifted) b.classList.add("lifted");
      if (this.throwable.size && !this.throwable.has(code)) b.classList.add("blocked");
      const ready = this.throwable.has(code) && this.ready.has(code);
      if (ready) b.classList.add("ready-discard");
      const label = (isDrawn ? `${tileName(code)}（${t("drawn")}）` : tileName(code)) +
        (ready ? `，${t("hint.label")}` : "");
      b.setAttribute("aria-label", label);
      b.setAttribute("aria-pressed", i === this.lifted ? "true" : "false");
      b.innerHTML = `<span class="tile">${tileSVG(code)}</span>`;
      this.decorate?.(b, code, i);
      this.wire(b, i, code);
      box.append(b);
    });
    this.root.replaceChildren(box);
    if (focused !== null) box.querySelector(`[data-index="${focused}"]`)?.focus();
    this.onLift(this.liftedCode());
  }

  liftedCode() {
    return this.lifted === null ? null : this.codes()[this.lifted] ?? null;
  }

  wire(b, index, code) {
    b.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || this.locked) return;
      this.drag = { id: e.pointerId, x: e.clientX, y: e.clientY, b };
      try {
        b.setPointerCapture(e.pointerId);
      } catch {
        /* synthetic pointers cannot always be captured */
      }
    });
    b.addEventListener("pointermove", (e) => {
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      const dy = Math.min(0, e.clientY - d.y);
      if (dy < -4) {
        b.classList.add("dragging");
        b.style.setProperty("--drag", `${Math.max(dy, -160)}px`);
      }
    });
    const finish = (e, cancelled) => {
      const d = this.drag;
      if (!d || d.id !== e.pointerId) return;
      this.drag = null;
      b.classList.remove("dragging");
      b.style.removeProperty("--drag");
      if (cancelled) return;
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      const swipe = Math.max(MIN_SWIPE, b.getBoundingClientRect().height * 0.5);
      if (dy < -swipe) this.throwTile(index, code);
      else if (Math.abs(dx) < TAP_SLOP && Math.abs(dy) < TAP_SLOP) this.tap(index, code);
    };
    b.addEventListener("pointerup", (e) => finish(e, false));
    b.addEventListener("pointercancel", (e) => finish(e, true));
    // Keyboard activation arrives as a click with detail 0; pointer clicks are handled above.
    b.addEventListener("click", (e) => {
      if (e.detail === 0 && !this.locked) this.tap(index, code);
    });
  }

  /**
   * ← → on a keyboard: lift the next or the previous tile, and focus it, so Enter or
   * Space (the tile button's own click) throws it. The first ← lifts the drawn tile,
   * the usual throw; the first → the leftmost.
   */
  step(delta) {
    const n = this.codes().length;
    if (!n || this.locked) return false;
    this.lifted = this.lifted === null ? (delta > 0 ? 0 : n - 1) : (this.lifted + delta + n) % n;
    this.render();
    this.root.querySelector(`[data-index="${this.lifted}"]`)?.focus();
    return true;
  }

  /** Enter or Space with no tile focused: throw the lifted tile, if one is lifted. */
  throwLifted() {
    if (this.lifted === null || this.locked) return false;
    this.throwTile(this.lifted, this.codes()[this.lifted]);
    return true;
  }

  tap(index, code) {
    if (this.lifted === index) {
      if (this.throwable.has(code)) {
        this.throwTile(index, code);
        return;
      }
      if (this.throwable.size) this.onRefused(code);
      this.lifted = null;
    } else {
      this.lifted = index;
    }
    this.render();
  }

  throwTile(index, code) {
    if (!this.throwable.has(code)) {
      if (this.throwable.size) this.onRefused(code);
      return;
    }
    this.locked = true;
    this.lifted = null;
    const b = this.root.querySelector(`[data-index="${index}"]`);
    b?.classList.add("thrown");
    this.onThrow(code);
  }
}

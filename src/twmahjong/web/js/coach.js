// 教練 (the coach): at the player's own decision, what the AI would play and why.
//
// The server computes the advice (the `hint` message, docs/protocol.md) from what
// this seat may see, and only where hints are allowed (`snapshot.table.hints`: bot
// tables, the tutorial, private rooms whose host allows them); the page only asks
// and shows. The 設定 choice `coach` is off, on request (a 教練 button) or always
// (asked at every decision). Shown:
// - the AI's choice in words, with the tile (a ring) or the call button marked;
// - every tile of the hand with its risk (安全 ○ / 小心 △ / 危險 ✕, a colour and a
//   sign, with a legend), and, for a lifted or hovered tile, shanten and 進張;
// - at a claim, whether the AI would call and why; the hand's outlook (台, 棄胡).
//
// The table view stays the table's: the coach draws into its own `.coach-wrap` and
// decorates the hand's tiles and the call buttons through their `decorate` hooks.

import { h } from "./dom.js";
import { getLang, onLangChange, t, tileName } from "./i18n.js";
import { actionTiles } from "./actions.js";
import { seatName } from "./board.js";
import { getChoice, onPrefChange } from "./prefs.js";

/** The refusals of a `hint` request (the server's error codes). */
export const COACH_ERRORS = ["hints_off", "no_decision", "stale", "rate_limited", "hint_failed"];
export const RISKS = ["safe", "careful", "danger"];
// a sign beside the colour, so the class reads without colour too
export const RISK_SIGN = { safe: "○", careful: "△", danger: "✕" };

/** Whether the observation asks something of the player (anything but a lone 過). */
export function isDecision(obs) {
  return (obs?.legal || []).some((a) => a.type !== "pass");
}

/** The player's `coach` setting: "off", "ask" (a 教練 button) or "always". */
export function coachMode() {
  return getChoice("coach");
}

/** One of the server's {zh, en} sentences in the page's language. */
function said(say) {
  if (!say) return "";
  return (getLang() === "zh-TW" ? say.zh : say.en) || say.en || say.zh || "";
}

function sameAction(a, b) {
  if (!a || !b || a.type !== b.type) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
}

/** "打後一向聽" / "聽牌" / "胡" for a shanten number after the throw. */
export function shantenText(n) {
  if (n === null || n === undefined) return "";
  if (n < 0) return t("coach.shanten.win");
  if (n === 0) return t("coach.shanten.ready");
  // zh in words, as the coach's own sentences say it (打完一向聽)
  return t("coach.shanten", { n, zn: "零一二三四五六七八九"[Math.min(n, 9)] });
}

export class Coach {
  /**
   * @param {import("./table.js").TableView} view  the table it advises at
   * @param {{ask: (turn: number|null) => void, root?: HTMLElement}} opts  `ask` sends
   *   `{type: "hint", turn}`; `root` is where the words go (the table's `.coach-wrap`
   *   unless given: the first hand says them in its step's box)
   */
  constructor(view, { ask, root = null }) {
    this.view = view;
    this.ask = ask;
    this.allowed = false;     // the server's word: this seat may ask here
    this.turn = null;
    this.obs = null;
    this.hint = null;         // the answer for this turn
    this.asked = null;        // the turn a request went out for
    this.note = null;         // a refusal, said in the panel
    this.focus = null;        // the tile code lifted or hovered: its line
    this.root = root || view.root.querySelector(".coach-wrap");
    view.hand.decorate = (b, code, i) => this.markTile(b, code, i);
    view.bar.decorate = (root) => this.markCalls(root);
    this.off = [
      onLangChange(() => this.render()),
      onPrefChange((name) => {
        if (name !== "coach") return;
        if (this.decision() && coachMode() === "always") this.request();
        this.redraw();
      }),
    ];
    // O asks from the keyboard (the terminal's key), as the calls have theirs
    this.onKey = (e) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.key.toLowerCase() !== "o") return;
      if (!view.root.isConnected || document.activeElement?.closest?.("input, textarea, select, [contenteditable]")) return;
      if (document.querySelector(".settings-dialog") || view.q(".talk-panel:not([hidden])")) return;
      if (!this.decision()) return;
      e.preventDefault();
      this.request();
    };
    document.addEventListener("keydown", this.onKey);
    view.q(".hand-wrap").addEventListener("pointerover", (e) => {
      const b = e.target.closest?.(".hand-tile");
      if (b && e.pointerType === "mouse") this.setFocus(b.dataset.tile);
    });
  }

  /** `snapshot.table.hints`: the control exists only where the seat may ask. */
  setAllowed(on) {
    this.allowed = Boolean(on);
    this.render();
  }

  /** A decision is open: allowed here, asked of the player, and not played by 託管. */
  decision() {
    return this.allowed && coachMode() !== "off" && isDecision(this.obs) && !this.view.seatOnAuto() &&
      !this.view.linkLost;
  }

  /** Every observation, with the `turn` that offered its `legal`. */
  observe(obs, turn) {
    this.obs = obs;
    if (turn !== this.turn || !isDecision(obs)) {
      this.turn = turn;
      this.hint = null;
      this.note = null;
      this.asked = null;
      this.focus = null;
    }
    if (this.decision() && coachMode() === "always") this.request();
    this.render();
  }

  /** Ask the server, once per decision. */
  request() {
    if (!this.decision() || this.asked === this.turn) return;
    this.asked = this.turn;
    this.note = null;
    this.ask(this.turn);
    this.render();
  }

  pending() {
    return this.asked !== null && this.asked === this.turn && !this.hint && !this.note;
  }

  /** The server's `hint` message: shown if it answers the decision still open. */
  receive(msg) {
    if (msg.turn !== this.turn || !msg.hint) return;
    this.hint = msg.hint;
    this.redraw();
  }

  /** A refused request: said in the panel. True when the error was the coach's. */
  refused(msg) {
    const code = msg.code;
    const ours = ["hints_off", "no_decision", "hint_failed"].includes(code) || (COACH_ERRORS.includes(code) && this.pending());
    if (!ours) return false;
    if (code === "hints_off") this.allowed = false;
    // stale: the decision moved on while the answer was on its way; nothing to say
    this.note = code === "stale" ? null : t(`coach.err.${code}`);
    // a stale or crowded request may be made again at the same decision
    if (code === "stale" || code === "rate_limited" || code === "hint_failed") this.asked = null;
    this.redraw();
    return true;
  }

  /** Redraw the panel, the hand's marks and the call buttons' mark. */
  redraw() {
    this.render();
    if (!this.view.obs) return;
    this.view.bar.render();
    const hand = this.view.hand;
    // a tile being swiped keeps its button until the finger lifts (a redraw would drop it)
    if (!hand.drag) hand.render();
    else document.addEventListener("pointerup", () => setTimeout(() => hand.locked || hand.render()), { once: true });
  }

  /** A hint is there and the player wants to see it (the setting is not off). */
  shows() {
    return Boolean(this.hint) && this.allowed && coachMode() !== "off";
  }

  tileInfo(code) {
    return this.hint?.tiles?.find((x) => x.tile === code) || null;
  }

  choice() {
    return this.hint?.choice || null;
  }

  /** The hand's hook: risk class, sign, title and words for one tile button. */
  markTile(b, code, index) {
    if (!this.shows()) return;
    const info = this.tileInfo(code);
    const choice = this.choice();
    if (choice?.tile === code && ["discard", "declare"].includes(choice.type)) {
      const codes = this.view.hand.codes();
      const drawn = this.view.hand.drawn;
      const at = drawn === code ? codes.length - 1 : codes.indexOf(code);
      if (at === index) {
        b.classList.add("coach-pick");
        b.setAttribute("aria-label", `${b.getAttribute("aria-label")}，${t("coach.pick")}`);
      }
    }
    if (!info || !RISKS.includes(info.risk)) return;
    b.classList.add(`coach-${info.risk}`);
    b.dataset.risk = info.risk;
    b.append(h("span", { class: "coach-mark", "aria-hidden": "true" }, RISK_SIGN[info.risk]));
    b.title = this.tileLine(info);
    b.setAttribute("aria-label", `${b.getAttribute("aria-label")}，${t(`coach.risk.${info.risk}`)}`);
    if (b.classList.contains("lifted") && this.focus !== code) {
      this.focus = code;
      queueMicrotask(() => this.render());
    }
  }

  /** The call bar's hook: the AI's call (or 過) marked. */
  markCalls(root) {
    const choice = this.shows() ? this.choice() : null;
    if (!choice || choice.type === "discard") return;
    for (const b of root.querySelectorAll(".calls .call")) {
      const name = b.dataset.call;
      const hit = name === choice.type || (name === "kong" && choice.type.endsWith("kong"));
      if (hit) {
        b.classList.add("coach-pick");
        b.setAttribute("aria-label", `${b.getAttribute("aria-label") || b.textContent}，${t("coach.pick")}`);
      }
    }
    // a 吃 / 槓 that can be made several ways: the AI's way among the choices
    const legal = (this.obs?.legal || []).some((a) => sameAction(a, choice));
    for (const b of root.querySelectorAll(".choices .choice")) {
      if (legal && b.dataset.tiles === actionTiles(choice).join("")) b.classList.add("coach-pick");
    }
  }

  setFocus(code) {
    if (!this.hint || code === this.focus || !this.tileInfo(code)) return;
    this.focus = code;
    this.render();
  }

  /** Why a tile is safe or not, in words: 現物, 筋, 壁, a seat that looks ready or declared. */
  whyText(info) {
    const me = this.obs?.seat ?? 0;
    return (info.why || []).map((w) => {
      const who = w.seat === undefined || w.seat === null ? "" : seatName(w.seat, me, this.view.players);
      return t(`coach.why.${w.code}`, { who });
    }).join(t("coach.sep"));
  }

  /** "五萬：打後一向聽，進張 12 張（三萬 2 …）；危險（筋）" for one tile. */
  tileLine(info) {
    const list = (info.accept || []).slice(0, 6).map((a) => t("coach.accept.one", { tile: tileName(a.tile), n: a.live }));
    if ((info.accept || []).length > 6) list.push("…");
    const why = this.whyText(info);
    return t("coach.tile", {
      tile: tileName(info.tile),
      shanten: shantenText(info.shanten),
      total: info.accept_total ?? 0,
      accept: list.length ? t("coach.accept.list", { list: list.join(t("coach.sep")) }) : "",
      risk: t(`coach.risk.${info.risk}`) + (why ? t("coach.why", { why }) : ""),
    });
  }

  outlookText() {
    const o = this.hint?.outlook;
    if (!o) return "";
    return said(o.say) || t(o.fold ? "coach.outlook.fold" : "coach.outlook", { tai: Number(o.tai ?? 0).toFixed(1) });
  }

  render() {
    const root = this.root;
    if (!root) return;
    const open = this.decision();
    // no control where the seat may not ask, nor when the setting is off
    root.hidden = !this.allowed || coachMode() === "off";
    if (root.hidden) {
      root.replaceChildren();
      return;
    }
    const hint = this.hint;
    const parts = [];
    const head = h("p", { class: "coach-say", role: "status" }, h("b", { class: "coach-badge" }, t("coach")));
    if (hint) head.append(" ", said(hint.say) || this.choiceText(hint.choice));
    else if (this.note) head.append(" ", h("span", { class: "coach-note" }, this.note));
    else if (this.pending()) head.append(" ", t("coach.thinking"));
    else if (open) {
      head.append(" ", h("button", { type: "button", class: "btn small coach-ask", "aria-keyshortcuts": "O",
        onclick: () => this.request() }, t("coach.ask")));
    } else head.append(" ", h("span", { class: "coach-idle" }, t("coach.idle")));
    parts.push(head);
    const claim = hint?.claim ? said(hint.claim.say) || t(hint.claim.call ? "coach.claim.call" : "coach.claim.pass") : "";
    // said once when the choice's line says it already
    if (claim && claim !== said(hint.say)) parts.push(h("p", { class: "coach-claim" }, claim));
    if (hint?.outlook) {
      parts.push(h("p", { class: `coach-outlook${hint.outlook.fold ? " fold" : ""}` }, this.outlookText()));
    }
    if (hint?.tiles?.length) {
      const info = this.tileInfo(this.focus) || this.tileInfo(hint.choice?.tile);
      if (info) parts.push(h("p", { class: "coach-tile", dataset: { tile: info.tile } }, this.tileLine(info)));
      parts.push(h("p", { class: "coach-legend", "aria-hidden": "true" },
        ...RISKS.map((r) => h("span", { class: `coach-key coach-${r}` },
          h("i", {}, RISK_SIGN[r]), t(`coach.risk.${r}`)))));
    }
    root.replaceChildren(h("section", { class: "coach", "aria-label": t("coach"),
      dataset: { state: hint ? "shown" : this.note ? "note" : this.pending() ? "pending" : "idle" } }, ...parts));
  }

  /** The choice in words when the server sent no sentence. */
  choiceText(a) {
    if (!a) return "";
    if (a.type === "discard") return t("coach.do.discard", { tile: tileName(a.tile) });
    if (a.type === "pass") return t("coach.do.pass");
    return t("coach.do.call", { call: t(`call.${a.type.endsWith("kong") ? "kong" : a.type}`) });
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    for (const off of this.off) off();
  }
}

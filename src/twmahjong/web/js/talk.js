// Table talk (快捷語 and 表情) at the table: the picker, the bubbles, mute.
//
// Two taps: 💬 opens the picker over the board (never over the hand or the claim
// buttons, which sit below the board), a phrase or an emote sends it and closes.
// Only catalogue ids go to the server (GET /api/v1/talk): no free text. A `talk`
// from the server shows a bubble at the speaker's seat and is spoken in the voice
// the listener chose (speech.js: recorded clip, then speechSynthesis, else silent).
// Mute (one seat or all, bots too) is sent to the server, which then drops those
// lines for this connection; the view drops them as well.

import { pick, t } from "./i18n.js";
import { POS_NAMES, relPos, seatName } from "./board.js";
import { reportRow, setVoiceMuted } from "./myvoice.js";
import { speakPhrase } from "./speech.js";
import { emoteArt } from "./emotes.js";

let catalogue = null;
let loading = null;

/** The phrases and emotes, fetched once (an older server: none, and no 💬). */
export function loadTalk(fetchImpl = globalThis.fetch) {
  if (!loading) {
    loading = fetchImpl("/api/v1/talk")
      .then((r) => (r.ok ? r.json() : null))
      .then((c) => (catalogue = c))
      .catch(() => null);
  }
  return loading;
}

export function setTalkCatalogue(c) {
  catalogue = c;
  loading = Promise.resolve(c);
}

const BUBBLE_MS = 3500;

export class TalkBar {
  /**
   * @param {HTMLElement} root  the table view's root (has .table-tools and .board-area)
   * @param {{send: (msg: object) => void, me: () => number|null, players: () => object[]|null}} opts
   */
  constructor(root, { send, me, players }) {
    this.root = root;
    this.sendFn = send;
    this.me = me;
    this.players = players;
    this.muted = new Set();
    this.timers = new Map();
    const q = (s) => root.querySelector(s);
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "chip-btn talk-btn";
    this.button.setAttribute("aria-haspopup", "dialog");
    this.button.setAttribute("aria-expanded", "false");
    this.button.addEventListener("click", () => this.toggle());
    this.watchers = document.createElement("span");
    this.watchers.className = "watchers-chip";
    this.watchers.hidden = true;
    const tools = q(".table-tools");
    tools.prepend(this.button);
    q(".table-head").append(this.watchers);
    this.panel = document.createElement("div");
    this.panel.className = "talk-panel";
    this.panel.setAttribute("role", "dialog");
    this.panel.hidden = true;
    this.layer = document.createElement("div");
    this.layer.className = "talk-layer";
    this.layer.setAttribute("aria-live", "polite");
    q(".board-area").append(this.layer, this.panel);
    this.paint();
    loadTalk().then(() => this.paint());
  }

  toggle(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) this.paintPanel();
  }

  paint() {
    // a speech bubble, and the word beside it where the bar has room (phone: the icon)
    this.button.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-8l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" fill="currentColor"/></svg><span class="talk-label"></span>';
    this.button.querySelector(".talk-label").textContent = t("talk.open");
    this.button.setAttribute("aria-label", t("talk.title"));
    this.button.hidden = !catalogue;
    if (!this.panel.hidden) this.paintPanel();
  }

  paintPanel() {
    if (!catalogue) return;
    const box = this.panel;
    box.replaceChildren();
    box.setAttribute("aria-label", t("talk.title"));
    const head = document.createElement("div");
    head.className = "talk-head";
    const title = document.createElement("span");
    title.textContent = t("talk.title");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "talk-close";
    close.setAttribute("aria-label", t("talk.close"));
    close.textContent = "×";
    close.addEventListener("click", () => this.toggle(false));
    head.append(title, close);
    const emotes = document.createElement("div");
    emotes.className = "talk-emotes";
    for (const e of catalogue.emotes) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "talk-emote";
      b.dataset.emote = e.id;
      b.append(emoteArt(e.id) || e.glyph);
      b.title = pick(e);
      b.setAttribute("aria-label", pick(e));
      b.addEventListener("click", () => this.say({ emote: e.id }));
      emotes.append(b);
    }
    const phrases = document.createElement("div");
    phrases.className = "talk-phrases";
    for (const p of catalogue.phrases) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "talk-phrase";
      b.dataset.phrase = p.id;
      b.textContent = pick(p);
      b.addEventListener("click", () => this.say({ phrase: p.id }));
      phrases.append(b);
    }
    box.append(head, emotes, phrases, this.muteRow());
    const report = reportRow(this.me(), this.players());
    if (report) box.append(report);
  }

  /** 靜音: one toggle a seat (bots too), and one for everyone. */
  muteRow() {
    const row = document.createElement("div");
    row.className = "talk-mute";
    const label = document.createElement("span");
    label.textContent = t("talk.mute");
    row.append(label);
    const me = this.me();
    const others = [0, 1, 2, 3].filter((s) => s !== me);
    const add = (text, pressed, onClick, seat = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "chip-btn mute-btn";
      b.dataset.seat = String(seat);
      b.setAttribute("aria-pressed", pressed ? "true" : "false");
      b.textContent = text;
      b.addEventListener("click", () => {
        onClick();
        this.sendMute();
        this.paintPanel();
      });
      row.append(b);
    };
    for (const s of others) {
      add(seatName(s, me, this.players()), this.muted.has(s), () => {
        if (this.muted.has(s)) this.muted.delete(s);
        else this.muted.add(s);
      }, s);
    }
    const all = others.every((s) => this.muted.has(s));
    add(t("talk.mute.all"), all, () => {
      for (const s of others) {
        if (all) this.muted.delete(s);
        else this.muted.add(s);
      }
    }, "all");
    return row;
  }

  sendMute() {
    setVoiceMuted(this.muted);         // their recorded voice too (myvoice.js)
    this.sendFn({ type: "mute", seats: [...this.muted].sort() });
  }

  say(what) {
    this.toggle(false);
    this.sendFn({ type: "talk", ...what });
  }

  /** A `talk` from the server: a bubble at the seat, and the phrase spoken. */
  heard(msg) {
    if (this.muted.has(msg.seat) || !catalogue) return;
    const me = this.me();
    const bubble = document.createElement("div");
    bubble.className = `talk-bubble pos-${POS_NAMES[relPos(msg.seat, me ?? 0)]}`;
    bubble.dataset.seat = String(msg.seat);
    if (msg.emote) {
      const e = catalogue.emotes.find((x) => x.id === msg.emote);
      if (!e) return;
      bubble.classList.add("emote");
      bubble.dataset.emote = e.id;
      bubble.append(emoteArt(e.id) || e.glyph);
      bubble.setAttribute("aria-label", `${seatName(msg.seat, me, this.players())}：${pick(e)}`);
    } else {
      const p = catalogue.phrases.find((x) => x.id === msg.phrase);
      if (!p) return;
      bubble.dataset.phrase = p.id;
      bubble.textContent = pick(p);
      bubble.setAttribute("aria-label", `${seatName(msg.seat, me, this.players())}：${pick(p)}`);
      speakPhrase(p, msg.seat);
    }
    this.layer.querySelector(`.talk-bubble[data-seat="${msg.seat}"]`)?.remove();
    this.layer.append(bubble);
    this.place(bubble, msg.seat);
    clearTimeout(this.timers.get(msg.seat));
    this.timers.set(msg.seat, setTimeout(() => bubble.remove(), BUBBLE_MS));
  }

  /** Beside the speaker's badge: above it in the board's lower half, else below it,
   * kept inside the board (so never over the hand or the calls below the board). */
  place(bubble, seat) {
    const badge = this.root.querySelector(`.badge[data-seat="${seat}"]`);
    const area = this.layer.getBoundingClientRect();
    if (!badge || !area.width) return;
    const b = badge.getBoundingClientRect();
    const w = bubble.offsetWidth;
    const h = bubble.offsetHeight;
    const cx = b.left + b.width / 2 - area.left;
    const lower = b.top + b.height / 2 - area.top > area.height / 2;
    const left = Math.min(Math.max(4, cx - w / 2), area.width - w - 4);
    const top = lower ? b.top - area.top - h - 6 : b.bottom - area.top + 6;
    bubble.style.left = `${left}px`;
    bubble.style.top = `${Math.min(Math.max(0, top), area.height - h)}px`;
  }

  /** 觀戰: how many watch this table (shown to the seated players). */
  setWatchers(n) {
    this.watchers.hidden = !n;
    this.watchers.dataset.count = String(n || 0);
    this.watchers.textContent = t("talk.watchers", { n });
  }

  rerender() {
    this.paint();
    if (this.watchers.dataset.count) this.setWatchers(Number(this.watchers.dataset.count));
  }

  destroy() {
    for (const id of this.timers.values()) clearTimeout(id);
  }
}

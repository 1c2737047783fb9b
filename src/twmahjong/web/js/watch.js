// 觀戰: watching a friend's table, from the server's delayed public frames.
//
// The server sends only what anyone at the table sees (rivers, melds, flowers,
// counts, scores), a round of discards behind (docs/protocol.md, "觀戰"). The board
// is drawn from no seat (`seat: null`): every hand shows as backs, every badge by
// name. A watcher cannot talk to the table; where the room's host allows it, a
// watcher may listen to the table's voice (開黑), receiving only.

import { applyI18n, pick, t } from "./i18n.js";
import { renderBoard } from "./board.js";
import { VoiceBar } from "./voice.js";

export class WatchView {
  /** @param {HTMLElement} root  @param {{onLeave: () => void, send?: Function, onError?: Function}} opts */
  constructor(root, { onLeave, send = () => {}, onError = () => {} }) {
    this.root = root;
    root.classList.add("table-view", "watch-view");
    root.innerHTML = `
      <div class="table-top">
        <span class="table-head">
          <span class="table-title" data-i18n="watch.title"></span>
          <span class="watch-delay"></span>
        </span>
        <span class="table-tools">
          <button type="button" class="chip-btn watch-leave" data-i18n="watch.leave"></button>
        </span>
      </div>
      <div class="board-area"><div class="board-wrap"><p class="watch-wait" data-i18n="watch.wait"></p></div></div>
      <p class="watch-status" role="status"></p>`;
    this.q = (s) => root.querySelector(s);
    this.q(".watch-leave").addEventListener("click", () => onLeave());
    this.info = null;
    this.frame = null;
    // the table's voice, to listen to where its host allows watchers to (voice.js)
    this.voice = new VoiceBar(root, { listen: true, send, me: () => null, onError,
      gameId: () => this.gameId ?? null, players: () => this.players() });
    applyI18n(root);
  }

  players() {
    return (this.seats || []).map((s) => ({
      name: s.bot ? (s.persona ? pick(s.persona) : t("bot")) : s.name, bot: s.bot, persona: s.persona || null,
    }));
  }

  destroy() {
    this.voice.destroy();
  }

  handle(msg) {
    if (this.voice.handle(msg)) return;
    if (msg.type === "watching") {
      this.info = msg;
      this.gameId = msg.game_id;
      this.seats = msg.table.seats || [];
      this.voice.setInfo(msg.table.voice || { allowed: false });
    } else if (msg.type === "watch") {
      this.frame = msg;
      this.q(".watch-status").textContent = "";
    } else if (msg.type === "hand_end") {
      this.q(".watch-status").textContent = t("watch.hand_end", { n: msg.hand_no });
    } else if (msg.type === "game_end") {
      this.q(".watch-status").textContent = t("watch.game_end");
    }
    this.render();
  }

  render() {
    applyI18n(this.root);
    if (this.info) this.q(".watch-delay").textContent = t("watch.delay", { n: this.info.delay });
    if (!this.frame) return;
    // from no chair: bots by their personality's name (or 電腦), people by theirs
    const players = this.players();
    const board = renderBoard(this.q(".board-wrap"), { ...this.frame.view, seat: null }, { players });
    board.dataset.turn = String(this.frame.turn);
  }
}

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
import { handResult } from "./game.js";
import { renderResult } from "./result.js";
import { Pacer } from "./pace.js";

export class WatchView {
  /** @param {HTMLElement} root  @param {{onLeave: () => void, send?: Function, onError?: Function, pace?: boolean}} opts
   * `pace`: frames drawn as the live table's are (pace.js); off, each is drawn at once. */
  constructor(root, { onLeave, send = () => {}, onError = () => {}, pace = false }) {
    this.root = root;
    this.pacer = new Pacer(() => this.render(), pace);
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
      <p class="watch-status" role="status"></p>
      <div class="result-wrap" hidden></div>`;
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
    this.pacer.cancel();
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
      if (this.ended && msg.hand_no !== this.ended.hand_no) {
        this.ended = null;             // the next hand is dealt: its backs again
        this.closeResult();
      }
      this.frame = msg;
      this.q(".watch-status").textContent = "";
    } else if (msg.type === "hand_end") {
      // every hand turned up on the board, and the result as the players see it
      this.ended = msg;
      this.resultClosed = false;
      const before = this.frame?.scores || this.info?.table?.scores || [0, 0, 0, 0];
      this.endScores = before.map((x, i) => x + (msg.result?.net?.[i] || 0));
      this.q(".watch-status").textContent = t("watch.hand_end", { n: msg.hand_no });
    } else if (msg.type === "game_end") {
      this.q(".watch-status").textContent = t("watch.game_end");
    }
    this.renderSoon();
  }

  /** Frames can come faster than a slow device draws a whole board: then one drawing
   * follows the backlog instead of each frame in turn (as the player's table does). */
  renderSoon() {
    this.pacer.soon();
  }

  render() {
    applyI18n(this.root);
    if (this.info) this.q(".watch-delay").textContent = t("watch.delay", { n: this.info.delay });
    if (!this.frame) return;
    // from no chair: people by their names, personalities by theirs (board.seatName),
    // other bots by their seat's number (their level is on the badge)
    const players = (this.seats || []).map((s, i) => ({
      name: s.bot ? t("bot.seat", { n: i + 1 }) : s.name, bot: s.bot, persona: s.persona || null,
      level: s.level ?? null, score: (this.ended ? this.endScores : this.frame.scores)?.[i],
    }));
    const result = this.ended ? handResult(this.ended.result || {}, []) : null;
    const revealed = result?.hands?.map((h, seat) => {
      if (!h) return null;
      const win = result.wins.find((w) => w.seat === seat);
      return { concealed: h.concealed ?? "", win_tile: win?.win_tile ?? null };
    }) ?? null;
    const view = { ...this.frame.view, seat: null, revealed, melds: [...(this.frame.view.melds || [])] };
    // the melds as the hand ended (a 暗槓 turned up), not the delayed frame's
    result?.hands?.forEach((h, seat) => { if (h?.melds) view.melds[seat] = h.melds; });
    const board = renderBoard(this.q(".board-wrap"), view, { players });
    board.dataset.turn = String(this.frame.turn);
    if (result && !this.resultClosed) {
      renderResult(this.q(".result-wrap"), result, { me: null, players, scores: this.endScores,
        onNext: () => this.closeResult() });
      this.q(".result-wrap .next-hand").textContent = t("watch.result.close");
    }
  }

  /** The result read (or the next hand's frames came): the board again. */
  closeResult() {
    this.resultClosed = true;
    this.q(".result-wrap").hidden = true;
  }
}

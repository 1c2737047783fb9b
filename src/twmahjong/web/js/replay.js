// Replay viewer (牌譜重播): step through a stored game, forward and back.
//
// The server re-deals each hand from its seed and feeds the stored actions to
// the engine, giving one observation per step for the chosen seat
// (GET /api/v1/games/{id}/replay?hand=N&seat=S, see docs/protocol.md). The
// viewer draws each step with the same TableView as live play, read-only.

import { t } from "./i18n.js";
import { h } from "./dom.js";
import { TableView } from "./table.js";
import { handResult } from "./game.js";

/** Step state with no DOM: index moves clamp to the frames that exist. */
export class Stepper {
  constructor(n) {
    this.n = n;
    this.i = 0;
  }
  go(i) {
    this.i = Math.max(0, Math.min(this.n - 1, i));
    return this.i;
  }
}

export async function renderReplay(root, { gameId, api, me = null, account = null, hand = 1, seat = null }) {
  root.replaceChildren(h("p", { class: "muted center-text" }, t("status.connecting")));
  let record;
  let data;
  try {
    // the player's own seat needs the account: wait for it if it is still on its way
    if (!me && account) me = await account;
    record = await api.gameRecord(gameId);
    const mySeat = seat ?? Math.max(0, record.players.indexOf(me?.name));
    data = await api.gameReplay(gameId, hand, mySeat);
  } catch {
    root.replaceChildren(
      h("section", { class: "panel replay-missing" },
        h("h2", {}, t("replay.title")),
        h("p", {}, t("replay.unavailable")),
        h("a", { class: "btn", href: "#/" }, t("back"))));
    return;
  }
  const frames = data.frames || [];
  const stepper = new Stepper(frames.length);
  const tableRoot = h("div", { class: "replay-table" });
  const view = new TableView(tableRoot, { send: () => {} });
  // Bots go by their place at the table (下家, 對家, 上家), as in live play.
  view.setPlayers(record.players.map((name) => ({ name: name && name.startsWith("bot:") ? null : name })));
  const label = h("span", { class: "replay-step", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, frames.length - 1), value: 0, "aria-label": t("replay.title") });
  const show = (i) => {
    const f = frames[stepper.go(i)];
    if (!f) return;
    const { legal, ...obs } = f.observation; // read-only: nothing to decide in a replay
    view.setObservation(obs);
    if (f.result) view.showResult(handResult(f.result, f.events || []), {});
    label.textContent = t("replay.step", { i: stepper.i + 1, n: frames.length });
    slider.value = String(stepper.i);
  };
  slider.addEventListener("input", () => show(Number(slider.value)));
  const btn = (key, fn) => h("button", { type: "button", class: `btn small replay-${key}`, onclick: fn }, t(`replay.${key}`));
  const hands = [];
  for (let n = 1; n <= (record.hands || []).length; n++) {
    hands.push(h("a", { class: `chip-btn${n === hand ? " current" : ""}`, href: "#", onclick: (e) => {
      e.preventDefault();
      renderReplay(root, { gameId, api, me, account, hand: n, seat });
    } }, t("replay.hand", { n })));
  }
  root.replaceChildren(
    h("div", { class: "replay" },
      h("div", { class: "replay-head" }, h("h2", {}, t("replay.title")), h("nav", { class: "replay-hands" }, ...hands)),
      tableRoot,
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.title") },
        btn("first", () => show(0)), btn("prev", () => show(stepper.i - 1)),
        slider, label,
        btn("next", () => show(stepper.i + 1)), btn("last", () => show(frames.length - 1)))));
  root.onkeydown = (e) => {
    if (e.key === "ArrowRight") show(stepper.i + 1);
    if (e.key === "ArrowLeft") show(stepper.i - 1);
  };
  show(0);
}

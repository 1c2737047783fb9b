// Replay viewer (牌譜重播): step through a stored game, forward and back.
//
// The server re-deals each hand from its seed and feeds the stored actions to
// the engine, giving one observation per step for the chosen seat
// (GET /api/v1/games/{id}/replay?hand=N&seat=S, see docs/protocol.md). The
// viewer draws each step with the same TableView as live play, read-only.
//
// For the player's own seat of their own game, the AI's review (牌譜分析, GET
// /api/v1/games/{id}/analysis?hand=N) is fetched beside it: each decision is marked
// under the slider at the step that shows the move (mistakes in red), and the
// step's panel tells the move played, the AI's choice and the expected points lost.

import { t, tileName, tn } from "./i18n.js";
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

/** The replay on screen lets go of the page (its keys, its table's listeners, the
 * review it waits for). */
let closeShown = null;

/** Another screen is shown: the replay lets go at once, not at the next key press. */
export function leaveReplay() {
  closeShown?.();
  closeShown = null;
}

export async function renderReplay(root, { gameId, api, me = null, account = null, hand = 1, seat = null }) {
  leaveReplay();
  root.replaceChildren(h("p", { class: "muted center-text" }, t("status.connecting")));
  let record;
  let data;
  let mySeat = 0;
  let mine = false; // the signed-in player's own seat: the AI's review is theirs to see
  try {
    // the player's own seat needs the account: wait for it if it is still on its way
    if (!me && account) me = await account;
    record = await api.gameRecord(gameId);
    const own = record.players.indexOf(me?.name);
    mySeat = seat ?? Math.max(0, own);
    mine = own >= 0 && mySeat === own;
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
  // ← → step the replay; nothing is asked of anyone, so no chime
  const view = new TableView(tableRoot, { send: () => {}, keys: false, cues: false });
  // Bots go by their place at the table (下家, 對家, 上家), as in live play.
  view.setPlayers(record.players.map((name) => ({ name: name && name.startsWith("bot:") ? null : name })));
  const label = h("span", { class: "replay-step", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, frames.length - 1), value: 0, "aria-label": t("replay.title") });
  const review = new ReviewPanel((i) => show(i));
  const show = (i) => {
    const f = frames[stepper.go(i)];
    if (!f) return;
    review.show(stepper.i);
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
        mine ? review.panel : null,
        btn("first", () => show(0)), btn("prev", () => show(stepper.i - 1)),
        // the review's marks sit under the slider, each at its step's place on it
        mine ? h("div", { class: "replay-track" }, slider, review.marks, review.legend) : slider, label,
        btn("next", () => show(stepper.i + 1)), btn("last", () => show(frames.length - 1)))));
  // ← → Home End step the replay from anywhere on the page: the keys were heard only
  // with the focus inside it, so not after arriving by the lobby's link. Not in the
  // slider (it steps itself: both stepped, two steps a press) nor under 設定.
  const onKey = (e) => {
    if (!root.contains(tableRoot)) {      // another screen: let go
      close();
      return;
    }
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.activeElement?.closest?.("input, textarea, select, [contenteditable]")) return;
    if (document.querySelector(".settings-dialog")) return;
    const to = { ArrowRight: stepper.i + 1, ArrowLeft: stepper.i - 1, Home: 0, End: frames.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  };
  const asking = new AbortController();
  const close = () => {
    asking.abort();          // the review of a hand left behind is no longer waited for
    document.removeEventListener("keydown", onKey);
    view.destroy();
    if (closeShown === close) closeShown = null;
  };
  document.addEventListener("keydown", onKey);
  closeShown = close;
  show(0);
  if (mine) {
    review.load((heard) => api.gameAnalysis(gameId, hand, heard, asking.signal), frames.length,
      () => stepper.i);
  }
}

/** A move as the player reads it: "打出 五條", "碰 三萬", "過". */
export function moveText(a) {
  if (!a) return "";
  if (a.type === "discard") return t("analysis.discard", { tile: tileName(a.tile) });
  const call = t(`call.${a.type}`);
  return a.tile ? `${call} ${tileName(a.tile)}` : call;
}

const points = (x) => String(Math.round(x));

/** The AI's review of one hand: marks under the slider and, above the controls, the
 * current step's decision (or the hand's summary between decisions). */
class ReviewPanel {
  constructor(go) {
    this.go = go;
    this.byStep = new Map();
    this.data = null;
    this.marks = h("div", { class: "analysis-marks", role: "group", "aria-label": t("analysis.title") });
    // what the marks' colours say, under them (the colours alone said nothing)
    this.legend = h("ul", { class: "analysis-legend", "aria-label": t("analysis.legend") },
      ...["agree", "differ", "mistake"].map((kind) => h("li", { class: `legend-${kind}` },
        h("span", { class: `legend-swatch ${kind}`, "aria-hidden": "true" }), t(`analysis.legend.${kind}`))));
    this.panel = h("section", { class: "analysis", "aria-live": "polite" },
      h("span", { class: "muted" }, t("analysis.loading")));
  }

  async load(fetchIt, nFrames, current) {
    const loading = this.panel.firstChild;
    // where the review stands while the player waits: hands ahead, then decisions done
    const heard = (p) => {
      if (!loading?.isConnected) return;
      loading.textContent = p.ahead
        ? tn("analysis.queued", p.ahead)
        : p.total ? t("analysis.progress", { done: p.done, total: p.total }) : t("analysis.loading");
    };
    // a screen reader hears the review when it is there, not every count on the way
    this.panel.setAttribute("aria-busy", "true");
    try {
      this.data = await fetchIt(heard);
    } catch (e) {
      this.panel.removeAttribute("aria-busy");
      // 429: the AI is still on this player's other hands (three at once at most)
      const why = e?.status === 429 ? "analysis.busy" : "analysis.unavailable";
      this.panel.replaceChildren(h("span", { class: "muted" }, t(why)));
      return;
    }
    this.panel.removeAttribute("aria-busy");
    const decisions = this.data.decisions || [];
    const span = Math.max(1, nFrames - 1);
    for (const d of decisions) {
      this.byStep.set(d.step, d);
      const kind = d.mistake ? "mistake" : d.agrees ? "agree" : "differ";
      const text = t("analysis.mark", { n: d.step + 1, move: moveText(d.played) });
      this.marks.append(h("button", {
        type: "button", class: `analysis-mark ${kind}`, style: `left: ${(100 * d.step) / span}%`,
        title: text, "aria-label": text, "data-step": d.step, onclick: () => this.go(d.step),
      }));
    }
    this.show(current());
  }

  show(step) {
    if (!this.data) return;
    const d = this.byStep.get(step);
    const title = h("span", { class: "analysis-title" }, t("analysis.title"));
    if (!d) {
      // replaceChildren writes a null out as the text "null" (h() skips it): filter
      this.panel.replaceChildren(title, ...this.summary().filter(Boolean));
      return;
    }
    const badge = d.mistake
      ? h("span", { class: "analysis-badge mistake" }, t("analysis.mistake"))
      : d.agrees ? h("span", { class: "analysis-badge agree" }, t("analysis.agrees")) : null;
    this.panel.replaceChildren(...[title, badge,
      h("span", { class: "analysis-move" }, t("analysis.you", { move: moveText(d.played) })),
      h("span", { class: "analysis-ai" }, t("analysis.ai", { move: moveText(d.bot) })),
      // the AI's own move gives nothing away (docs/analysis.md): no loss beside 與 AI 相同
      d.agrees ? null : h("span", { class: `analysis-loss${d.mistake ? " mistake" : ""}` },
        t("analysis.loss", { loss: points(d.loss), spread: points(d.spread) }))].filter(Boolean));
  }

  summary() {
    const ds = this.data.decisions || [];
    if (!ds.length) return [h("span", { class: "muted" }, t("analysis.none"))];
    // what the moves apart from the AI's gave away (the server's total_loss)
    const lost = this.data.total_loss ?? ds.reduce((a, d) => a + (d.agrees ? 0 : d.loss), 0);
    const n = ds.filter((d) => d.mistake).length;
    const worst = (this.data.costliest || []).map((k) => ds.find((d) => d.n === k)).filter(Boolean);
    return [
      h("span", { class: "analysis-summary" }, n === 0 && points(lost) === "0"
        ? t("analysis.summary.clean") : tn("analysis.summary", n, { loss: points(lost) })),
      worst.length ? h("span", { class: "muted" }, t("analysis.costliest")) : null,
      worst.length ? h("ol", { class: "analysis-worst" }, ...worst.map((d) =>
        h("li", {}, h("a", {
          href: "#", title: `${moveText(d.played)} → ${moveText(d.bot)}`,
          onclick: (e) => { e.preventDefault(); this.go(d.step); },
        }, `${t("analysis.turn", { n: d.turn })} −${points(d.loss)}`)))) : null,
    ];
  }
}

// The first hand (新手教學): a scripted hand from a stacked wall that walks a
// newcomer through draw and discard, 碰, 聽 and 胡 on the real table view. Each
// step offers only the move it teaches; any other press is answered with a hint.

import { h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { TableView } from "./table.js";
import { Coach } from "./coach.js";
import { LEARN_HINTS } from "./learn_hints.js";

const PLAYERS = [null, null, null, null].map(() => ({ name: null, bot: true, auto: false }));

function base(over) {
  return {
    seat: 0, dealer: 0, dealer_streak: 0, round_wind: "E", seat_winds: ["E", "S", "W", "N"],
    wall_remaining: 60, melds: [[], [], [], []], flowers: [[], [], [], []],
    discards: [[], [], [], []], concealed_count: [16, 16, 16, 16], declared: [false, false, false, false],
    last_discard: null, phase: "turn", ...over,
  };
}

/** The hand, step by step: what the table shows and the one move each step teaches. */
export const STEPS = [
  { key: "draw", want: "discard",
    obs: base({ hand: "123456789m55p78p99s3s", drawn: "1z", legal: [{ type: "discard", tile: "1z" }] }) },
  { key: "pon", want: "pon",
    obs: base({ phase: "claim", hand: "123456789m55p78p99s3s", drawn: null,
      discards: [["1z"], ["2z"], ["9m"], ["5p"]], last_discard: { seat: 3, tile: "5p" }, wall_remaining: 57,
      legal: [{ type: "pon", tile: "5p" }, { type: "pass" }] }) },
  { key: "after_pon", want: "discard",
    obs: base({ hand: "123456789m78p99s3s", drawn: null, discards: [["1z"], ["2z"], ["9m"], []],
      melds: [[{ type: "pon", tiles: "555p", from: 3 }], [], [], []], wall_remaining: 57,
      legal: [{ type: "discard", tile: "3s" }] }) },
  { key: "declare", want: "declare",
    obs: base({ hand: "123456789m78p99s", drawn: "2z", discards: [["1z", "3s"], ["2z", "4z"], ["9m", "1s"], ["6z"]],
      melds: [[{ type: "pon", tiles: "555p", from: 3 }], [], [], []], wall_remaining: 53,
      legal: [{ type: "declare", tile: "2z" }, { type: "discard", tile: "2z" }] }) },
  { key: "win", want: "win",
    obs: base({ phase: "claim", hand: "123456789m78p99s", drawn: null, declared: [true, false, false, false],
      discards: [["1z", "3s", "2z"], ["2z", "4z", "6p"], ["9m", "1s"], ["6z"]], last_discard: { seat: 1, tile: "6p" },
      melds: [[{ type: "pon", tiles: "555p", from: 3 }], [], [], []], wall_remaining: 51,
      legal: [{ type: "win", tile: "6p" }, { type: "pass" }] }) },
];

/** Draw the tutorial into `root`; the steps advance as the player makes each move. */
export function renderLearn(root) {
  const guide = h("div", { class: "learn-guide", role: "status", "aria-live": "polite" });
  // 教練 speaks in the step's own box, under its words, and marks the tile or call it
  // would play on the table: the lesson's layout keeps its height (a panel of its own
  // pushed an upright tablet's page 45 px past the screen's foot)
  const advice = h("div", { class: "learn-coach", hidden: true });
  const table = h("main", { class: "table-screen" });
  root.replaceChildren(h("div", { class: "learn" }, guide, table));
  let step = 0;
  const say = (text, cls = "") => {
    guide.className = `learn-guide ${cls}`;
    guide.dataset.step = STEPS[step]?.key || "done";
    guide.replaceChildren(h("strong", {}, t("learn.title", { n: Math.min(step + 1, STEPS.length), of: STEPS.length })),
      " ", text, advice);
  };
  const view = new TableView(table, {
    send: (action) => {
      const s = STEPS[step];
      if (action.type !== s.want) {
        say(t(`learn.${s.key}.hint`), "hint");
        view.unlock();
        return;
      }
      step += 1;
      if (step < STEPS.length) show();
      else finish();
    },
  });
  view.setPlayers(PLAYERS);
  // no server table stands behind this hand, so the coach's answers for its steps
  // ship with the page (learn_hints.js, from twmahjong.coach); a step with a single
  // move has nothing to advise. The 設定 choice (off, on request, always) is the
  // table's.
  const coach = new Coach(view, {
    root: advice,
    ask: (turn) => queueMicrotask(() => coach.receive({ type: "hint", turn, hint: LEARN_HINTS[STEPS[turn]?.key] })),
  });
  const show = () => {
    view.hand.locked = false;
    coach.setAllowed(Boolean(LEARN_HINTS[STEPS[step].key]));
    view.setObservation(STEPS[step].obs, {});
    coach.observe(STEPS[step].obs, step);
    say(t(`learn.${STEPS[step].key}`));
  };
  const finish = () => {
    coach.setAllowed(false);
    guide.dataset.step = "done";
    guide.className = "learn-guide done";
    guide.replaceChildren(
      h("strong", {}, t("learn.done.title")), " ", t("learn.done"),
      h("div", { class: "learn-buttons" },
        h("a", { class: "btn primary", href: "#/" }, t("learn.play")),
        h("button", { type: "button", class: "btn ghost learn-again", onclick: () => { step = 0; show(); } }, t("learn.again"))));
  };
  show();
  const off = onLangChange(() => (step < STEPS.length ? say(t(`learn.${STEPS[step].key}`)) : finish()));
  const destroy = view.destroy.bind(view);
  view.destroy = () => {
    off();
    coach.destroy();
    destroy();
  };
  document.body.dataset.ready = "1";
  return view;
}

// Rules and 台 help (詳細台型圖文說明), generated from the active profile's data.
//
// The server answers GET /api/v1/profiles/{id}/patterns with every pattern of
// the profile, its 台, and an example hand that the scorer itself has valued
// (twmahjong.web.help), so this page can never disagree with the scorer.

import { pick, t, tileName } from "./i18n.js";
import { h } from "./dom.js";
import { meldEl } from "./board.js";
import { sortCodes, splitTiles, tileEl } from "./tiles.js";

function tiles(codes, className = "tiles-row") {
  return h("span", { class: className }, ...codes.map((c) => tileEl(c, { label: tileName(c) })));
}

function exampleEl(ex, id) {
  if (!ex) return null;
  const win = ex.win_tile ? tiles([ex.win_tile], "tiles-row win") : null;
  if (win) win.firstChild.classList.add("win-tile");
  return h("div", { class: "example" },
    h("span", { class: "example-label" }, t("help.example")),
    h("div", { class: "revealed" },
      tiles(sortCodes(splitTiles(ex.concealed))),
      win,
      ...(ex.melds || []).map((m) => meldEl(m)),
      ex.flowers ? tiles(splitTiles(ex.flowers), "tiles-row flowers-row") : null),
    ex.win_tile ? h("span", { class: "example-win" }, t("help.win", { tile: tileName(ex.win_tile) })) : null,
    ex.score?.patterns
      ? h("ul", { class: "example-score" }, ...ex.score.patterns.map((q) =>
          h("li", { class: q.id === id ? "this-pattern" : "" }, `${pick(q)} ${t("result.tai", { n: q.tai })}`)),
          h("li", { class: "example-total" }, `${t("result.total")} ${t("result.tai", { n: ex.score.tai })}`))
      : null);
}

/** Fill `root` with the help page for `profile`; `load(profile)` fetches the data. */
export async function renderHelp(root, { profile, load }) {
  root.replaceChildren(h("p", { class: "muted center-text" }, t("status.connecting")));
  let data;
  try {
    data = await load(profile);
  } catch {
    root.replaceChildren(h("section", { class: "panel help" }, h("h2", {}, t("help.title")), h("p", {}, t("help.unavailable"))));
    document.body.dataset.ready = "1";
    return;
  }
  const name = data.profile ? pick({ zh: data.profile.name_zh, en: data.profile.name_en }) : profile;
  root.replaceChildren(
    h("section", { class: "help", "aria-labelledby": "help-title" },
      h("h2", { id: "help-title" }, `${t("help.title")} — ${name}`),
      h("p", { class: "muted" }, t("help.intro")),
      h("ol", { class: "help-patterns" },
        ...data.patterns.map((p) =>
          h("li", { class: "help-pattern", dataset: { pattern: p.id } },
            h("div", { class: "help-head" },
              h("h3", { class: "help-name" }, pick(p)),
              h("span", { class: "help-tai" }, p.each ? t("help.per", { n: p.tai }) : t("result.tai", { n: p.tai }))),
            p.enabled === false ? h("p", { class: "help-note" }, t("help.disabled")) : null,
            exampleEl(p.example, p.id))))));
  document.body.dataset.ready = "1";
}

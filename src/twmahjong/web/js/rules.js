// How to play (玩法規則): the table rules — 吃碰槓, 補花, 過水, 海底, 流局, 連莊 —
// written from the active profile's data (GET /api/v1/profiles/{id}/rules), with
// tile pictures, so the page says what this server plays.

import { pick, t, tileName } from "./i18n.js";
import { h } from "./dom.js";
import { tileEl } from "./tiles.js";

function tiles(codes, mark = null) {
  return h("span", { class: "tiles-row rule-tiles" }, ...codes.map((c, i) => {
    const e = tileEl(c, { label: tileName(c) });
    if (i === mark) e.classList.add("win-tile");
    return e;
  }));
}

function section(id, title, ...body) {
  return h("section", { class: "panel rule", dataset: { rule: id } }, h("h3", {}, title), ...body);
}

/** The page's sections for one profile's data. */
export function ruleSections(d) {
  const play = d.play;
  const tai = d.tai || {};
  const p = (key, params = {}) => h("p", {}, t(key, params));
  return [
    // how a tile is thrown and a call made: tap and swipe, or the keyboard (TableView.keyPlay)
    section("controls", t("rules.controls"), p("rules.controls.touch"), p("rules.controls.keys")),
    section("claims", t("rules.claims"),
      p("rules.chi"), tiles(["2m", "3m", "4m"], 2),
      p("rules.pon"), tiles(["5p", "5p", "5p"], 2),
      p("rules.kong"), tiles(["7s", "7s", "7s", "7s"]),
      p(play.after_pon_discard === "forbidden" ? "rules.after_pon.forbidden" : "rules.after_pon.forfeits"),
      play.no_claims_last ? p("rules.no_claims_last", { n: play.no_claims_last }) : null,
      p(play.multiple_winners === "nearest" ? "rules.multiple.nearest" : "rules.multiple.all")),
    section("flowers", t("rules.flowers"),
      p("rules.flower", { n: tai.seat_flower ?? 1 }), tiles(["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"])),
    section("passed", t("rules.passed"),
      p(`rules.passed.${play.passed_win}`)),
    section("last", t("rules.last"),
      p("rules.dead_wall", { n: play.dead_wall, stacks: play.dead_wall / 2 }),
      p("rules.last_tile", { n: tai.last_tile ?? 1 }),
      play.may_decline_last_tile ? p("rules.decline_last") : null),
    section("draw", t("rules.drawn"), p("rules.draw_game", { n: play.dead_wall })),
    section("streak", t("rules.streak"),
      p("rules.dealer", { n: tai.dealer ?? 1, m: tai.dealer_streak ?? 2 }),
      p(play.seat_wind_from === "wall_break" ? "rules.winds.wall_break" : "rules.winds.dealer")),
  ];
}

/** Fill `root` with the rules page for `profile`; `load(profile)` fetches the data. */
export async function renderRules(root, { profile, load }) {
  root.replaceChildren(h("p", { class: "muted center-text" }, t("status.connecting")));
  let data;
  try {
    data = await load(profile);
  } catch {
    root.replaceChildren(h("section", { class: "panel help" }, h("h2", {}, t("rules.title")), h("p", {}, t("help.unavailable"))));
    document.body.dataset.ready = "1";
    return;
  }
  const name = pick({ zh: data.profile.name_zh, en: data.profile.name_en });
  root.replaceChildren(
    h("div", { class: "help rules", "aria-labelledby": "rules-title" },
      h("h2", { id: "rules-title" }, `${t("rules.title")} — ${name}`),
      h("p", { class: "muted" }, t("rules.intro")),
      h("p", {}, h("a", { class: "btn primary learn-link", href: "#/learn" }, t("rules.learn")),
        " ", h("a", { class: "btn ghost", href: `#/help/${encodeURIComponent(profile)}` }, t("nav.help"))),
      h("div", { class: "rule-list" }, ...ruleSections(data))));
  document.body.dataset.ready = "1";
}

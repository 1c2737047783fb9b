// The square table (牌桌) seen from one seat: rivers, opponents, badges, centre.
//
// Everything is drawn from the seat's observation alone (docs/architecture.md,
// "Observation"), so nothing here can show what the seat may not see. Each seat's
// river and band is laid out once as if it sat at the bottom, then the whole zone
// is rotated to its side of the table — the way a real table looks from a chair.

import { pick, t, tileName } from "./i18n.js";
import { backEl, splitTiles, tileEl } from "./tiles.js";
import { levelText, personaTitle } from "./show.js";

/** Position on screen relative to `me`: 0 self (bottom), 1 下家 right, 2 對家 across, 3 上家 left. */
export function relPos(seat, me) {
  return (seat - me + 4) % 4;
}

export const POS_NAMES = ["self", "right", "across", "left"];
const WHO_KEYS = ["seat.self", "seat.right", "seat.across", "seat.left"];

/** What a seat is called from `me`'s chair: 你 / 下家 / 對家 / 上家, or the player's name. */
export function seatName(seat, me, players) {
  const p = players?.[seat];
  if (p?.persona && seat !== me) return pick(p.persona);     // 阿呆, 碰碰伯…
  if (p?.name && seat !== me) return p.name;
  return t(WHO_KEYS[relPos(seat, me)]);
}

function el(tag, className, attrs = {}) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function face(code, className = "") {
  return tileEl(code, { label: tileName(code), className });
}

/** One meld (明牌): chi / pon / kong as faces; a concealed kong shows its ends face down. */
export function meldEl(meld, { fresh = false } = {}) {
  const box = el("span", "meld", { "data-type": meld.type, role: "group" });
  const codes = splitTiles(meld.tiles || "");
  const label = `${t(`call.${meld.type}`)} ${codes.map(tileName).join(" ")}`.trim();
  box.setAttribute("aria-label", label);
  if (meld.type === "concealed_kong") {
    // Others may be sent no tiles for it at all: then four backs.
    const shown = codes.length === 4 ? codes : [null, null, null, null];
    shown.forEach((c, i) => box.append(c === null || i === 0 || i === 3 ? backEl() : face(c)));
    return box;
  }
  // the tile taken from a river is marked (and, just claimed, arrives from there)
  let taken = meld.claimed && meld.from !== undefined && meld.from !== null ? meld.claimed : null;
  for (const c of codes) {
    const mark = taken !== null && c === taken;
    if (mark) taken = null;
    box.append(face(c, mark ? `from-river${fresh ? " arriving" : ""}` : ""));
  }
  return box;
}

// discards a river holds in three rows of full-size tiles, then in four of smaller ones
const RIVER_ROOMY = 30;
const RIVER_DENSE = 52;

function riverEl(obs, seat, me, players) {
  const pos = relPos(seat, me);
  const sec = el("section", `river pos-${POS_NAMES[pos]}`, {
    "aria-label": seat === me ? t("river.self") : t("river", { who: seatName(seat, me, players) }),
    "data-seat": String(seat),
  });
  const tiles = obs.discards?.[seat] || [];
  // late in a hand a river outgrows three rows: smaller tiles keep it in its own zone
  if (tiles.length > RIVER_ROOMY) sec.classList.add(tiles.length > RIVER_DENSE ? "denser" : "dense");
  const last = obs.last_discard;
  const claimed = obs.claimed_tiles;
  tiles.forEach((code, i) => {
    // a tile claimed away (吃 碰 槓) stays in its place, dimmed, and is never the last discard
    const taken = claimed?.has(`${seat}:${i}`);
    const isLast = !taken && last && last.seat === seat && i === tiles.length - 1 && last.tile === code;
    const tile = face(code, isLast ? "last-discard" : taken ? "claimed" : "");
    if (isLast) tile.setAttribute("aria-label", `${tileName(code)}（${t("last.discard")}）`);
    if (taken) tile.setAttribute("aria-label", `${tileName(code)}（${t("river.claimed")}）`);
    sec.append(tile);
  });
  return sec;
}

function bandEl(obs, seat, me, players) {
  const pos = relPos(seat, me);
  const band = el("section", `band pos-${POS_NAMES[pos]}`, {
    "aria-label": seatName(seat, me, players),
    "data-seat": String(seat),
  });
  const row = el("div", "band-row");
  const shown = obs.revealed?.[seat];
  if (seat !== me && shown) {
    // the hand is over: its tiles are turned up (攤牌)
    const up = el("span", "concealed revealed-up", { role: "group", "aria-label": t("result.hands") });
    for (const c of splitTiles(shown.concealed ?? "")) up.append(face(c));
    if (shown.win_tile) up.append(face(shown.win_tile, "win-tile"));
    row.append(up);
  } else if (seat !== me) {
    const n = obs.concealed_count?.[seat] ?? 0;
    const backs = el("span", "concealed", {
      role: "img",
      "aria-label": t("concealed", { n }),
      "data-count": String(n),
    });
    for (let i = 0; i < n; i++) backs.append(backEl());
    row.append(backs);
  }
  const melds = el("span", "melds", { "aria-label": t("melds"), role: "group" });
  const fresh = obs.fresh_melds?.[seat] ?? Infinity;
  (obs.melds?.[seat] || []).forEach((m, i) => melds.append(meldEl(m, { fresh: i >= fresh })));
  row.append(melds);
  band.append(row);
  const flowers = el("div", "flowers", { "aria-label": t("flowers"), role: "group" });
  for (const f of obs.flowers?.[seat] || []) flowers.append(face(f, "flower"));
  band.append(flowers);
  return band;
}

function badgeEl(obs, seat, me, players, clock) {
  const pos = relPos(seat, me);
  const p = players?.[seat] || {};
  const wind = obs.seat_winds?.[seat] || "ESWN"[seat];
  const box = el("div", `badge pos-${POS_NAMES[pos]}`, { "data-seat": String(seat) });
  if (clock && clock.seat === seat) box.classList.add("active");
  const windEl = el("span", "badge-wind", { "aria-label": t(`wind.${wind}`) });
  windEl.textContent = t(`wind.short.${wind}`);
  box.append(windEl);
  if (obs.dealer === seat) {
    const d = el("span", "badge-dealer", { title: t("dealer") });
    d.textContent = t("dealer.badge");
    box.append(d);
  }
  // the wind is on the disc beside it: the name alone fits ("Across (South)" was cut to
  // "Across (Sou…"); the whole label stays in the title and for screen readers
  const who = seatName(seat, me, players);
  const label = t("seat.label", { who, wind: t(`wind.${wind}`) });
  const name = el("span", "badge-name", { title: label, "aria-label": label });
  name.textContent = who;
  box.append(name);
  if (p.bot) {
    // a bot's strength: a personality's tier (its name is the badge's), a level's L1-L5
    const level = el("span", "badge-persona badge-level", { title: personaTitle(p) });
    level.textContent = levelText(p);
    box.append(level);
  }
  if (typeof p.coins === "number") {
    const coins = el("span", "badge-coins", { "aria-label": `${t("coins.label")} ${p.coins}` });
    coins.textContent = p.coins.toLocaleString();
    box.append(coins);
  }
  if (typeof p.score === "number" && typeof p.coins !== "number") {
    // a seat without coins to show (a bot; anyone, to a watcher): its game so far
    const d = (p.score > 0 ? "+" : "") + p.score.toLocaleString();
    const score = el("span", `badge-score ${p.score > 0 ? "plus" : p.score < 0 ? "minus" : ""}`.trim(),
      { "aria-label": t("badge.score", { d }), "data-score": String(p.score) });
    score.textContent = t("badge.score", { d });
    box.append(score);
  }
  const timer = el("span", "badge-timer", { "data-seat": String(seat) });
  box.append(timer);
  if (obs.declared?.[seat]) {
    const r = el("span", "badge-ready");
    r.textContent = t("ready.badge");
    box.append(r);
  }
  if (p.auto) {
    const a = el("span", "badge-auto");
    a.textContent = t("auto.play");
    box.append(a);
  }
  return box;
}

function centerEl(obs, me, clock) {
  const c = el("div", "center");
  const round = el("div", "center-round");
  round.textContent = t("round", { wind: t(`wind.short.${obs.round_wind || "E"}`) });
  const wall = el("div", "center-wall", { "aria-label": t("wall.label") });
  wall.textContent = t("wall", { n: obs.wall_remaining ?? 0 });
  c.append(round, wall);
  if (obs.dealer_streak > 0) {
    const s = el("div", "center-streak");
    s.textContent = t("streak", { n: obs.dealer_streak });
    c.append(s);
  }
  for (let seat = 0; seat < 4; seat++) {
    const pos = relPos(seat, me);
    const wind = obs.seat_winds?.[seat] || "ESWN"[seat];
    const w = el("span", `side-wind pos-${POS_NAMES[pos]}`, { "aria-hidden": "true" });
    if (obs.dealer === seat) w.classList.add("dealer");
    if (clock && clock.seat === seat) w.classList.add("active");
    w.textContent = t(`wind.short.${wind}`);
    c.append(w);
  }
  return c;
}

/** Rebuild the board for one observation. `players` and `clock` are optional extras. */
export function renderBoard(root, obs, { players = null, clock = null } = {}) {
  const me = obs.seat;
  const board = el("div", "board");
  board.append(centerEl(obs, me, clock));
  for (let seat = 0; seat < 4; seat++) {
    board.append(riverEl(obs, seat, me, players));
    board.append(bandEl(obs, seat, me, players));
    board.append(badgeEl(obs, seat, me, players, clock));
  }
  root.replaceChildren(board);
  return board;
}

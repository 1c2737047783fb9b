// End of hand (本局結算): every hand revealed, the 台 pattern by pattern, who pays whom.
//
// Renders the `result` of the server's `hand_end` message (docs/protocol.md) —
// the engine's settlement, with the scorer's own pattern list, so the numbers
// shown are the numbers paid. Fields the result lacks are simply not drawn.

import { pick, t, tileName } from "./i18n.js";
import { meldEl, seatName } from "./board.js";
import { splitTiles, tileEl } from "./tiles.js";

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function tilesRow(codes, className = "tiles-row", mark = null) {
  const row = el("span", className);
  codes.forEach((c, i) => {
    const tile = tileEl(c, { label: tileName(c) });
    if (mark !== null && i === mark) tile.classList.add("win-tile");
    row.append(tile);
  });
  return row;
}

export function revealedHand(h, winTile) {
  const box = el("div", "revealed");
  const concealed = splitTiles(h.concealed ?? h.hand ?? "");
  box.append(tilesRow(concealed, "tiles-row"));
  if (winTile) {
    const w = tilesRow([winTile], "tiles-row win");
    w.firstChild.classList.add("win-tile");
    box.append(w);
  }
  for (const m of h.melds || []) box.append(meldEl(m));
  const flowers = typeof h.flowers === "string" ? splitTiles(h.flowers) : h.flowers || [];
  if (flowers.length) box.append(tilesRow(flowers, "tiles-row flowers-row"));
  return box;
}

function winBlock(win, result, me, players) {
  const box = el("section", "win-block");
  box.dataset.seat = String(win.seat);
  const who = seatName(win.seat, me, players);
  const head = el("h3", "win-head", win.seat === me ? t("result.winner.self") : t("result.winner", { who }));
  const how = el("span", "win-how");
  const selfDrawn = win.self_drawn ?? (result.payer === null || result.payer === undefined);
  how.textContent = selfDrawn
    ? t("result.self_drawn")
    : dealtIn(win.from ?? result.payer, me, players);
  head.append(" ", how);
  box.append(head);

  const score = win.score || {};
  if (score.split?.length) {
    const split = el("div", "split");
    split.setAttribute("aria-label", t("result.split"));
    for (const group of score.split) split.append(tilesRow(splitTiles(group), "tiles-row set"));
    box.append(split);
  }
  const table = el("table", "patterns");
  const cap = el("caption", "", t("result.patterns"));
  table.append(cap);
  const body = el("tbody");
  for (const p of score.patterns || []) {
    const tr = el("tr", "pattern");
    tr.dataset.pattern = p.id;
    tr.append(el("th", "pattern-name", pick(p)), el("td", "pattern-tai", t("result.tai", { n: p.tai })));
    body.append(tr);
  }
  const total = el("tr", "pattern-total");
  total.append(el("th", "", t("result.total")), el("td", "total-tai", t("result.tai", { n: score.tai ?? 0 })));
  body.append(total);
  table.append(body);
  box.append(table);
  return box;
}

// English conjugates and lowercases "you" ("You pay Left", "Left pays you", "dealt in
// by you"): the self's own sentences, where seatName's "You" fits only a label
function dealtIn(seat, me, players) {
  return seat === me ? t("result.dealt_in.self") : t("result.dealt_in", { who: seatName(seat, me, players) });
}

function paysText(from, to, me, players) {
  if (from === me) return t("result.pays.self", { to: seatName(to, me, players) });
  if (to === me) return t("result.pays.to_self", { from: seatName(from, me, players) });
  return t("result.pays", { from: seatName(from, me, players), to: seatName(to, me, players) });
}

function payments(result, me, players) {
  const box = el("section", "payments");
  box.append(el("h3", "", t("result.payments")));
  const list = el("ul", "transfers");
  for (const [from, to, amount] of result.transfers || []) {
    const li = el("li", "transfer");
    li.append(
      el("span", "", paysText(from, to, me, players)),
      el("strong", "amount", amount.toLocaleString()),
    );
    list.append(li);
  }
  box.append(list);
  if (result.fee) box.append(el("p", "fee", t("result.fee", { n: result.fee })));
  return box;
}

function scoresTable(result, me, players, scores) {
  const box = el("section", "scores");
  box.append(el("h3", "", t("result.scores")));
  const table = el("table", "score-table");
  // two columns of numbers say which is which: a newcomer read "+140  140" as a typo
  const head = el("tr");
  head.append(el("th"), el("th", "col", t("result.col.hand")));
  if (scores) head.append(el("th", "col", t("result.col.total")));
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (let seat = 0; seat < 4; seat++) {
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    if (seat === me) tr.classList.add("me");
    const net = result.net?.[seat] ?? 0;
    const netCell = el("td", net > 0 ? "net plus" : net < 0 ? "net minus" : "net", (net > 0 ? "+" : "") + net);
    tr.append(el("th", "", seatName(seat, me, players)), netCell);
    if (scores) tr.append(el("td", "running", String(scores[seat])));
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  return box;
}

/**
 * Fill `root` with the result of one hand. `me` is the viewing seat; `scores` the
 * running totals after this hand (optional); `onNext` the 下一局 button's action.
 */
export function renderResult(root, result, { me = 0, players = null, scores = null, onNext = null, coins = null } = {}) {
  const panel = el("div", "result-panel");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-modal", "false");
  panel.setAttribute("aria-labelledby", "result-title");
  const title = el("h2", "result-title", t("result.title"));
  title.id = "result-title";
  panel.append(title);

  const wins = result.wins || [];
  if (result.draw_game || !wins.length) panel.append(el("p", "draw-game", t("result.draw")));
  for (const w of wins) panel.append(winBlock(w, result, me, players));

  if (result.hands?.length) {
    const hands = el("section", "all-hands");
    hands.append(el("h3", "", t("result.hands")));
    result.hands.forEach((h, seat) => {
      if (!h) return; // the server revealed nothing for this seat
      const row = el("div", "hand-row");
      row.dataset.seat = String(seat);
      row.append(el("span", "hand-owner", seatName(seat, me, players)));
      const win = wins.find((w) => w.seat === seat);
      row.append(revealedHand(h, win?.win_tile));
      hands.append(row);
    });
    panel.append(hands);
  }
  const money = el("div", "money");
  if (result.transfers?.length) money.append(payments(result, me, players));
  money.append(scoresTable(result, me, players, scores));
  panel.append(money);
  if (coins) panel.append(coinLine(coins));
  if (onNext) {
    const bar = el("div", "next-bar");
    const next = el("button", "next-hand", t("result.next"));
    next.type = "button";
    next.addEventListener("click", onNext);
    bar.append(next, el("span", "next-info"));
    panel.append(bar);
  }
  root.replaceChildren(panel);
  root.hidden = false;
  return panel;
}

/** This player's coins before → after, and the change (籌碼增減). */
function coinLine({ before, after }) {
  const d = after - before;
  const p = el("p", `coin-change ${d > 0 ? "plus" : d < 0 ? "minus" : ""}`,
    t("result.coins", { before: before.toLocaleString(), after: after.toLocaleString(), d: (d > 0 ? "+" : "") + d.toLocaleString() }));
  p.dataset.delta = String(d);
  return p;
}

/** End of match (終局): final scores, ranks, rating change, challenge outcome. */
export function renderSummary(root, msg, { me = 0, players = null, onLeave = null, coins = null } = {}) {
  const panel = el("div", "result-panel summary-panel");
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-labelledby", "summary-title");
  const title = el("h2", "result-title", t("summary.title"));
  title.id = "summary-title";
  panel.append(title);
  const table = el("table", "score-table summary-table");
  const body = el("tbody");
  const order = [0, 1, 2, 3].sort((a, b) => (msg.ranks?.[a] ?? 0) - (msg.ranks?.[b] ?? 0));
  for (const seat of order) {
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    if (seat === me) tr.classList.add("me");
    const score = msg.scores?.[seat] ?? 0;
    tr.append(
      el("td", "rank", t("summary.rank", { n: msg.ranks?.[seat] ?? "?" })),
      el("th", "", seatName(seat, me, players)),
      el("td", score > 0 ? "net plus" : score < 0 ? "net minus" : "net", (score > 0 ? "+" : "") + score),
    );
    body.append(tr);
  }
  table.append(body);
  panel.append(table);
  // the server sends every seat's rating: the player's own change is the line
  const mine = (x) => (Array.isArray(x) ? x[me] : x);
  const before = mine(msg.rating?.before);
  const after = mine(msg.rating?.after);
  if (typeof before === "number" && typeof after === "number") {
    const d = Math.round((after - before) * 10) / 10;
    const one = (x) => String(Math.round(x * 10) / 10);
    panel.append(el("p", "rating-change", t("summary.rating", { before: one(before), after: one(after), d: (d >= 0 ? "+" : "") + d })));
  }
  // the whole game's coins, as the server counts them (a table resumed mid-game
  // saw only the hands since); else what this page saw hand by hand
  const game = msg.coins?.[me];
  if (game) panel.append(coinLine(game));
  else if (coins?.length) panel.append(coinLine({ before: coins[0].before, after: coins[coins.length - 1].after }));
  if (msg.challenge) {
    panel.append(el("p", "challenge-result", t(msg.challenge.beaten ? "summary.challenge.won" : "summary.challenge.lost", { n: msg.challenge.tier })));
  }
  if (onLeave) {
    const b = el("button", "next-hand", t("summary.leave"));
    b.type = "button";
    b.addEventListener("click", onLeave);
    panel.append(b);
  }
  root.replaceChildren(panel);
  root.hidden = false;
  return panel;
}

// 聽牌提示 in the browser: which discards leave the hand ready, what a ready hand
// waits on, and how many of each wait this seat has not seen.
//
// The same hint as the terminal's (twmahjong.hints), read from the same observation;
// computed here, so the server spends nothing on it at ten thousand seats. The win
// check is the plain one: at the lowest tile of a suit, a pung is always safe to take
// (three chows of it are three pungs), and what is left must start chows. Tests
// compare every answer with the Python library's (tests/web/test_waits.py).

import { ALL_CODES, kindOf, splitTiles } from "./tiles.js";

const KINDS = 34;

/** "123m5z" (or a list of such strings) → kind indices 0-33 (flowers left out). */
export function kinds(text) {
  return splitTiles(Array.isArray(text) ? text.join("") : text).map(kindOf).filter((k) => k < KINDS);
}

const tileCode = (k) => ALL_CODES[k];

function counts(ks) {
  const c = new Array(KINDS).fill(0);
  for (const k of ks) c[k] += 1;
  return c;
}

/** Sets only (no pair): counts[from..to) read as pungs and chows, honors as pungs. */
function allSets(c, from, to, suited) {
  const a = c.slice(from, to);
  for (let i = 0; i < a.length; i++) {
    let n = a[i];
    if (n >= 3) n -= 3;
    if (!n) continue;
    if (!suited || i + 2 >= a.length || a[i + 1] < n || a[i + 2] < n) return false;
    a[i + 1] -= n;
    a[i + 2] -= n;
  }
  return true;
}

const SUITS = [[0, 9, true], [9, 18, true], [18, 27, true], [27, 34, false]];

/** 3k+2 concealed tiles as k sets and a pair (胡). */
export function isComplete(c) {
  const total = c.reduce((a, b) => a + b, 0);
  if (total % 3 !== 2) return false;
  for (let k = 0; k < KINDS; k++) {
    if (c[k] < 2) continue;
    c[k] -= 2;
    const ok = SUITS.every(([from, to, suited]) => allSets(c, from, to, suited));
    c[k] += 2;
    if (ok) return true;
  }
  return false;
}

/** 嚦咕嚦咕 / 八對半: 17 tiles as seven pairs and one pung (a kind held four times is two pairs). */
export function isLilgu(c) {
  if (c.reduce((a, b) => a + b, 0) !== 17) return false;
  const odd = c.filter((n) => n & 1);
  return odd.length === 1 && odd[0] === 3;
}

/** Kinds completing 3k+1 concealed tiles, ascending; never a fifth copy of one held
 * four times (`held`, the concealed counts unless given). */
export function waitsOf(c, { held = c, lilgu = false } = {}) {
  const out = [];
  for (let k = 0; k < KINDS; k++) {
    if (held[k] >= 4) continue;
    c[k] += 1;
    if (isComplete(c) || (lilgu && isLilgu(c))) out.push(k);
    c[k] -= 1;
  }
  return out;
}

/** 34 counts of what this seat has seen: its tiles, every river, every exposed meld. A
 * claimed discard stays in its thrower's river and sits in the meld: counted once. */
export function seenCounts(obs) {
  const c = counts([...kinds(obs.hand), ...kinds(obs.drawn)]);
  for (const river of obs.discards || []) for (const k of kinds(river)) c[k] += 1;
  for (const melds of obs.melds || []) {
    for (const m of melds) {
      for (const k of kinds(m.tiles)) c[k] += 1;
      for (const k of kinds(m.claimed)) c[k] -= 1;
    }
  }
  return c.map((n) => Math.max(0, Math.min(4, n)));
}

/** 過水 (the observation's own `passed_win`): the kinds this seat may not win on, or
 * null for every kind; with `discard` (a kind thrown on its turn), as they stand after
 * it — any discard lifts until_own_discard, a tile that was no winning tile of the hand
 * before the turn lifts until_non_winning_discard. Same answers as twmahjong.hints. */
export function passedBlocked(obs, discard = null, { lilgu = false } = {}) {
  const pw = obs.passed_win;
  if (!pw) return new Set();
  if (pw.tiles) return new Set(kinds(pw.tiles));
  if (discard === null) return null;
  if (pw.until === "until_own_discard") return new Set();
  if (pw.until === "until_non_winning_discard") {
    const before = kinds(obs.hand);
    const claimed = ((obs.melds || [])[obs.seat || 0] || []).filter((m) => m.claimed);
    if (!obs.drawn && claimed.length) {
      const own = kinds(claimed[claimed.length - 1].tiles);
      own.splice(own.indexOf(kinds(claimed[claimed.length - 1].claimed)[0]), 1);
      before.push(...own);
    }
    if (before.length % 3 === 1 && !waitsOf(counts(before), { lilgu }).includes(discard)) return new Set();
  }
  return null;
}

function waitList(ws, seen, blocked) {
  return ws.map((w) => {
    const out = { tile: tileCode(w), live: 4 - seen[w] };
    if (blocked === null || blocked.has(w)) out.blocked = true;
    return out;
  });
}

/** On the seat's own turn: each discard (a tile code) that leaves the hand ready → its
 * waits [{tile, live, blocked?}] (blocked: 過水 keeps the seat from winning on it).
 * `allowed` (codes) keeps the discards the rules permit now. */
export function discardHints(obs, { allowed = null, lilgu = false } = {}) {
  const hand = [...kinds(obs.hand), ...kinds(obs.drawn)];
  if (hand.length % 3 !== 2) return {};
  const c = counts(hand);
  const seen = seenCounts(obs);
  const ok = allowed ? new Set(kinds([...allowed])) : null;
  const out = {};
  for (let k = 0; k < KINDS; k++) {
    if (!c[k] || (ok && !ok.has(k))) continue;
    c[k] -= 1;
    const ws = waitsOf(c, { lilgu });
    c[k] += 1;
    if (ws.length) out[tileCode(k)] = waitList(ws, seen, passedBlocked(obs, k, { lilgu }));
  }
  return out;
}

/** Between turns: what a ready hand waits on, with live counts; [] when not ready. */
export function readyWaits(obs, { lilgu = false } = {}) {
  const hand = kinds(obs.hand);
  if (obs.drawn || hand.length % 3 !== 1) return [];
  const seen = seenCounts(obs);
  return waitList(waitsOf(counts(hand), { lilgu }), seen, passedBlocked(obs));
}

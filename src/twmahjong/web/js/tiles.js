// Tile art (牌面): every one of the 42 faces drawn by the project as SVG.
//
// Drawn from paths, circles and CJK text in the system font stack, so a tile is
// crisp at any size and nothing is downloaded at run time. Codes are MPSZ
// (`1m`..`9m`, `1p`..`9p`, `1s`..`9s`, `1z`..`7z` 東南西北白發中, `1f`..`8f`
// 春夏秋冬梅蘭菊竹), the notation the server and the engine speak.
//
//   tileSVG("5p")      -> "<svg ...>…</svg>" (the face)
//   tileEl("7z")       -> <span class="tile" data-tile="7z" role="img" aria-label="中">
//   backSVG()          -> the green back shown for tiles nobody may see

const W = 60;
const H = 80;

const INK = "#1b2430";
const RED = "#c0281d";
const RED_DARK = "#7e1810";
const GREEN = "#17703d";
const GREEN_DARK = "#0c4a27";
const BLUE = "#1f4f9c";
const BLUE_DARK = "#12306a";
const FACE = "#fbf7ea";
const FACE_EDGE = "#cbbf9f";
const BACK = "#24784a";
const BACK_DARK = "#185a36";

// Traditional Ming-style glyphs first: they are what printed tiles look like.
export const CJK_FONTS =
  "'Noto Serif CJK TC','Noto Serif TC','Source Han Serif TC','PMingLiU','MingLiU'," +
  "'Songti TC','Noto Sans CJK TC','PingFang TC','Microsoft JhengHei','Noto Serif CJK JP',serif";

const ZH_NUMERALS = "一二三四伍六七八九"; // 伍 as printed on Taiwanese tiles
const HONOR_GLYPHS = "東南西北白發中";
const FLOWER_GLYPHS = "春夏秋冬梅蘭菊竹";

/** Every face code, in kind order 0-41. */
export const ALL_CODES = [
  ..."123456789".split("").map((d) => d + "m"),
  ..."123456789".split("").map((d) => d + "p"),
  ..."123456789".split("").map((d) => d + "s"),
  ..."1234567".split("").map((d) => d + "z"),
  ..."12345678".split("").map((d) => d + "f"),
];

const SUIT_BASE = { m: 0, p: 9, s: 18, z: 27, f: 34 };

/** Kind index 0-41 of a code, for sorting as the engine sorts. */
export function kindOf(code) {
  const rank = Number(code[0]);
  const suit = code[1];
  if (!(suit in SUIT_BASE) || !(rank >= 1)) throw new Error(`not a tile code: ${code}`);
  return SUIT_BASE[suit] + rank - 1;
}

/** Split MPSZ text ("123m55z") into single codes (["1m","2m","3m","5z","5z"]). */
export function splitTiles(text) {
  const out = [];
  let digits = [];
  for (const ch of text || "") {
    if (ch >= "0" && ch <= "9") digits.push(ch);
    else if ("mpszf".includes(ch)) {
      for (const d of digits) out.push(d + ch);
      digits = [];
    }
  }
  return out;
}

export function sortCodes(codes) {
  return [...codes].sort((a, b) => kindOf(a) - kindOf(b));
}

// ---- drawing primitives ---------------------------------------------------

function text(x, y, glyph, { size, fill, weight = 700, family = CJK_FONTS, extra = "" }) {
  return (
    `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" fill="${fill}" ` +
    `font-family="${family}" text-anchor="middle" dominant-baseline="central" ${extra}>${glyph}</text>`
  );
}

/** One 筒 circle: coloured ring, ivory ring, coloured eye — the printed coin. */
function coin(cx, cy, r, color) {
  const dark = color === RED ? RED_DARK : color === GREEN ? GREEN_DARK : BLUE_DARK;
  let petals = "";
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    const px = (cx + Math.cos(a) * r * 0.62).toFixed(2);
    const py = (cy + Math.sin(a) * r * 0.62).toFixed(2);
    petals += `<circle cx="${px}" cy="${py}" r="${(r * 0.1).toFixed(2)}" fill="${dark}"/>`;
  }
  return (
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${color}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${(r * 0.8).toFixed(2)}" fill="${FACE}"/>` +
    petals +
    `<circle cx="${cx}" cy="${cy}" r="${(r * 0.42).toFixed(2)}" fill="${color}"/>` +
    `<circle cx="${cx}" cy="${cy}" r="${(r * 0.17).toFixed(2)}" fill="${FACE}"/>`
  );
}

/** One 條 stick: a bamboo cane with nodes at both ends and in the middle. */
function stick(cx, cy, len, color, angle = 0) {
  const dark = color === RED ? RED_DARK : color === GREEN ? GREEN_DARK : BLUE_DARK;
  const w = 5.4;
  const x = cx - w / 2;
  const y = cy - len / 2;
  const rot = angle ? ` transform="rotate(${angle} ${cx} ${cy})"` : "";
  return (
    `<g${rot}>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${len}" rx="2.7" fill="${color}"/>` +
    `<rect x="${x - 0.7}" y="${cy - 1.1}" width="${w + 1.4}" height="2.2" rx="1.1" fill="${dark}"/>` +
    `<rect x="${x - 0.5}" y="${y + 0.6}" width="${w + 1}" height="2" rx="1" fill="${dark}"/>` +
    `<rect x="${x - 0.5}" y="${y + len - 2.6}" width="${w + 1}" height="2" rx="1" fill="${dark}"/>` +
    `<line x1="${cx - 1.1}" y1="${y + 3.5}" x2="${cx - 1.1}" y2="${cy - 2.2}" stroke="#fff" stroke-opacity=".45" stroke-width="1"/>` +
    `<line x1="${cx - 1.1}" y1="${cy + 2.2}" x2="${cx - 1.1}" y2="${y + len - 3.5}" stroke="#fff" stroke-opacity=".45" stroke-width="1"/>` +
    `</g>`
  );
}

// ---- faces ------------------------------------------------------------------

function characters(rank) {
  return (
    text(30, 22, ZH_NUMERALS[rank - 1], { size: 25, fill: INK, weight: 900 }) +
    text(30, 53, "萬", { size: 29, fill: RED, weight: 900 })
  );
}

// Traditional arrangements of the coins, as [x, y, colour] with one radius per rank.
const DOTS = {
  2: [10, [[30, 21, GREEN], [30, 53, BLUE]]],
  3: [9, [[15, 15, BLUE], [30, 37, RED], [45, 59, GREEN]]],
  4: [10, [[18, 21, BLUE], [42, 21, GREEN], [18, 53, GREEN], [42, 53, BLUE]]],
  5: [8.6, [[17, 17, BLUE], [43, 17, GREEN], [30, 37, RED], [17, 57, GREEN], [43, 57, BLUE]]],
  6: [8.2, [[19, 15, GREEN], [41, 15, GREEN], [19, 40, RED], [41, 40, RED], [19, 59, RED], [41, 59, RED]]],
  7: [7, [[14, 12, GREEN], [30, 19, GREEN], [46, 26, GREEN],
          [19, 44, RED], [41, 44, RED], [19, 61, RED], [41, 61, RED]]],
  8: [7.3, [19, 41].flatMap((x) => [13, 28.7, 44.3, 60].map((y) => [x, y, BLUE]))],
  9: [7, [[15, 15, BLUE], [30, 15, BLUE], [45, 15, BLUE],
          [15, 37, RED], [30, 37, RED], [45, 37, RED],
          [15, 59, GREEN], [30, 59, GREEN], [45, 59, GREEN]]],
};

function dots(rank) {
  if (rank === 1) {
    // 一筒: the big ornamented coin.
    let ring = "";
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6;
      ring += `<circle cx="${(30 + Math.cos(a) * 15.5).toFixed(2)}" cy="${(37 + Math.sin(a) * 15.5).toFixed(2)}" r="2.3" fill="${i % 2 ? BLUE : GREEN}"/>`;
    }
    return (
      `<circle cx="30" cy="37" r="22" fill="${GREEN}"/>` +
      `<circle cx="30" cy="37" r="19.5" fill="${FACE}"/>` + ring +
      `<circle cx="30" cy="37" r="11" fill="${RED}"/>` +
      `<circle cx="30" cy="37" r="7.5" fill="${FACE}"/>` +
      `<circle cx="30" cy="37" r="4.5" fill="${RED}"/>` +
      `<circle cx="30" cy="37" r="1.6" fill="${FACE}"/>`
    );
  }
  const [r, spots] = DOTS[rank];
  return spots.map(([x, y, c]) => coin(x, y, r, c)).join("");
}

// 一條: a bird (the sparrow of printed sets), drawn as a few filled shapes.
function bird() {
  return (
    // tail feathers
    `<path d="M24 46 C14 52 10 62 12 69 C17 63 21 58 27 53 Z" fill="${BLUE}"/>` +
    `<path d="M27 48 C22 56 21 64 24 71 C27 64 29 58 32 52 Z" fill="${GREEN}"/>` +
    `<path d="M30 49 C30 57 33 64 38 69 C37 61 36 55 35 50 Z" fill="${RED}"/>` +
    // body and wing
    `<ellipse cx="31" cy="38" rx="11" ry="14" fill="${GREEN}"/>` +
    `<path d="M26 34 C31 31 38 35 39 44 C34 42 29 41 26 34 Z" fill="${GREEN_DARK}"/>` +
    `<path d="M27 36 C31 35 35 37 36 41" stroke="${FACE}" stroke-width="1.1" fill="none"/>` +
    `<ellipse cx="34" cy="41" rx="5" ry="7" fill="${RED}" opacity=".85"/>` +
    // head, crest, eye, beak
    `<circle cx="35" cy="20" r="7" fill="${GREEN}"/>` +
    `<path d="M31 14 C31 8 35 6 37 9 C36 11 35 12 33 14 Z" fill="${RED}"/>` +
    `<circle cx="37" cy="19" r="2.4" fill="${FACE}"/><circle cx="37.5" cy="19" r="1.2" fill="${INK}"/>` +
    `<path d="M41 20 L48 22 L41 24 Z" fill="#d98b1c"/>` +
    // legs
    `<path d="M29 51 L27 60 M33 51 L35 60" stroke="${RED_DARK}" stroke-width="1.6" stroke-linecap="round"/>`
  );
}

function bamboo(rank) {
  const L = 23;
  switch (rank) {
    case 1: return bird();
    case 2: return stick(30, 22, L, BLUE) + stick(30, 53, L, GREEN);
    case 3: return stick(30, 22, L, BLUE) + stick(20, 53, L, GREEN) + stick(40, 53, L, GREEN);
    case 4: return stick(20, 22, L, GREEN) + stick(40, 22, L, BLUE) + stick(20, 53, L, BLUE) + stick(40, 53, L, GREEN);
    case 5: return stick(16, 22, L, GREEN) + stick(44, 22, L, BLUE) + stick(30, 37.5, L, RED) +
                   stick(16, 53, L, BLUE) + stick(44, 53, L, GREEN);
    case 6: return [16, 30, 44].map((x) => stick(x, 22, L, GREEN) + stick(x, 53, L, BLUE)).join("");
    case 7: return stick(30, 16, 17, RED) +
                   [16, 30, 44].map((x) => stick(x, 37.5, 17, GREEN) + stick(x, 59, 17, BLUE)).join("");
    case 8: return (
      stick(13, 22, L, GREEN) + stick(23.5, 22, L, GREEN, 22) + stick(36.5, 22, L, GREEN, -22) + stick(47, 22, L, GREEN) +
      stick(13, 53, L, BLUE) + stick(23.5, 53, L, BLUE, -22) + stick(36.5, 53, L, BLUE, 22) + stick(47, 53, L, BLUE)
    );
    case 9: return [[16, GREEN], [30, RED], [44, BLUE]]
      .map(([x, c]) => stick(x, 16, 17, c) + stick(x, 37.5, 17, c) + stick(x, 59, 17, c)).join("");
    default: throw new Error(`no bamboo ${rank}`);
  }
}

function honor(rank) {
  if (rank === 5) {
    // 白板: the blue frame.
    return (
      `<rect x="11" y="11" width="38" height="52" rx="3" fill="none" stroke="${BLUE}" stroke-width="3"/>` +
      `<rect x="16" y="16" width="28" height="42" rx="1.5" fill="none" stroke="${BLUE}" stroke-width="1.4"/>`
    );
  }
  const fill = rank === 6 ? GREEN : rank === 7 ? RED : INK;
  return text(30, 38, HONOR_GLYPHS[rank - 1], { size: 42, fill, weight: 900 });
}

// Flowers: seasons in green, plants in red, the number of the group in a disc.
function flower(rank) {
  const color = rank <= 4 ? GREEN : RED;
  const number = ((rank - 1) % 4) + 1;
  let blossom = "";
  for (let i = 0; i < 5; i++) {
    const a = (i * 2 * Math.PI) / 5 - Math.PI / 2;
    blossom += `<circle cx="${(30 + Math.cos(a) * 3.6).toFixed(2)}" cy="${(62 + Math.sin(a) * 3.6).toFixed(2)}" r="2.7" fill="${color}" opacity=".8"/>`;
  }
  return (
    `<circle cx="14" cy="14" r="8" fill="${color}"/>` +
    text(14, 14.5, String(number), { size: 12, fill: FACE, weight: 700, family: "'DejaVu Sans',Arial,sans-serif" }) +
    text(32, 38, FLOWER_GLYPHS[rank - 1], { size: 34, fill: color, weight: 900 }) +
    blossom + `<circle cx="30" cy="62" r="1.8" fill="#e8b52c"/>`
  );
}

function faceContent(code) {
  const rank = Number(code[0]);
  switch (code[1]) {
    case "m": return characters(rank);
    case "p": return dots(rank);
    case "s": return bamboo(rank);
    case "z": return honor(rank);
    case "f": return flower(rank);
    default: throw new Error(`not a tile code: ${code}`);
  }
}

// The tile body: a green back showing below the ivory face, as a tile stood up.
function frame(inner) {
  return (
    `<rect x="1" y="4" width="58" height="75" rx="7" fill="${BACK}"/>` +
    `<rect x="1" y="1" width="58" height="72" rx="7" fill="${FACE}" stroke="${FACE_EDGE}" stroke-width="1"/>` +
    `<path d="M7 3.5 H53" stroke="#fff" stroke-opacity=".9" stroke-width="1.5" stroke-linecap="round"/>` +
    inner
  );
}

const cache = new Map();

/** The SVG markup of one face; memoised since a table shows the same faces often. */
export function tileSVG(code) {
  if (!cache.has(code)) {
    kindOf(code); // validates
    cache.set(
      code,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" class="tile-svg" data-face="${code}" aria-hidden="true">` +
        frame(faceContent(code)) + `</svg>`,
    );
  }
  return cache.get(code);
}

/** The back of a tile (暗牌): what others' concealed tiles and the wall look like. */
export function backSVG() {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" class="tile-svg" data-face="back" aria-hidden="true">` +
    `<rect x="1" y="4" width="58" height="75" rx="7" fill="${FACE}" stroke="${FACE_EDGE}"/>` +
    `<rect x="1" y="1" width="58" height="72" rx="7" fill="${BACK}"/>` +
    `<rect x="6" y="6" width="48" height="62" rx="4" fill="none" stroke="${BACK_DARK}" stroke-width="2"/>` +
    `<path d="M30 22 L40 37 L30 52 L20 37 Z" fill="${BACK_DARK}"/>` +
    `<path d="M7 3.5 H53" stroke="#fff" stroke-opacity=".35" stroke-width="1.5" stroke-linecap="round"/>` +
    `</svg>`
  );
}

/**
 * A tile as a DOM element. `label` is the spoken name (from i18n), since a
 * screen reader cannot read the drawing.
 */
export function tileEl(code, { label = code, className = "" } = {}) {
  const el = document.createElement("span");
  el.className = `tile ${className}`.trim();
  el.dataset.tile = code;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  el.innerHTML = tileSVG(code);
  return el;
}

export function backEl({ label = "", className = "" } = {}) {
  const el = document.createElement("span");
  el.className = `tile back ${className}`.trim();
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  el.innerHTML = backSVG();
  return el;
}

// Player preferences (設定) that outlive the page: sound, voice, auto toggles.
//
// Stored one key each in localStorage; a blocked storage (private mode) only
// means the choice is not remembered.

const DEFAULTS = {
  sound: true,      // 聲音: speech and tile sounds
  hokkien: true,    // 台語語音 when the browser has a Taiwanese voice
  autoSort: true,   // 自動理牌
  autoWin: false,   // 自動胡牌
  autoPass: false,  // 自動過
  readyHints: true, // 聽牌提示 (waits.js)
  dealInfo: true,   // 開局說明: the deal's dice, wall break and dealer's seat each hand
  voiceChat: false, // 語音聊天 (開黑, voice.js): join the voice of private rooms
  voiceQuick: false, // … and of quick-match tables, with strangers who allowed it too
  playerVoices: true, // 玩家真人語音: other players' own recorded calls (myvoice.js)
};

const listeners = new Set();

export function getPref(name) {
  if (!(name in DEFAULTS)) throw new Error(`unknown preference ${name}`);
  try {
    const raw = globalThis.localStorage?.getItem(`twmj.${name}`);
    if (raw === "1") return true;
    if (raw === "0") return false;
  } catch {
    /* fall through to the default */
  }
  return DEFAULTS[name];
}

export function setPref(name, value) {
  if (!(name in DEFAULTS)) throw new Error(`unknown preference ${name}`);
  try {
    globalThis.localStorage?.setItem(`twmj.${name}`, value ? "1" : "0");
  } catch {
    /* not remembered, still applied */
  }
  for (const fn of listeners) fn(name, value);
}

// Choices among several values (設定 panel): one key each, a known value or the default.
const CHOICES = {
  tileSize: ["m", "s", "l"],                  // 牌的大小: medium (default), small, large
  speed: ["standard", "fast", "slow"],        // 牌桌速度 of the tables this player makes
  coach: ["ask", "always", "off"],            // 教練: a 教練 button (default), asked at every decision, none
  voiceMode: ["open", "ptt"],                 // 開放麥克風 or 按住說話 (voice.js)
};

export function getChoice(name) {
  const options = CHOICES[name];
  if (!options) throw new Error(`unknown preference ${name}`);
  try {
    const raw = globalThis.localStorage?.getItem(`twmj.${name}`);
    if (options.includes(raw)) return raw;
  } catch {
    /* the default */
  }
  return options[0];
}

export function setChoice(name, value) {
  if (!CHOICES[name]?.includes(value)) throw new Error(`unknown ${name} ${value}`);
  try {
    globalThis.localStorage?.setItem(`twmj.${name}`, value);
  } catch {
    /* not remembered, still applied */
  }
  for (const fn of listeners) fn(name, value);
}

export function onPrefChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

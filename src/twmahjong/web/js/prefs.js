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

export function onPrefChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Calls spoken aloud (語音) and announced to screen readers.
//
// The calls 碰 吃 槓 胡 自摸 聽 are spoken in Mandarin through the browser's
// speechSynthesis, or in Taiwanese Hokkien (台語) when the browser has such a
// voice and the player wants it. Where no Chinese voice exists the game stays
// silent rather than letting an English voice mangle the characters. Every call
// and the last discard also go to an aria-live region, sound or not.

import { getPref } from "./prefs.js";

// Recorded calls (語音包) the server has: {cmn: ["pon", …], nan: […]} (GET /api/v1/voices).
let packs = { cmn: [], nan: [] };
const CLIP = { added_kong: "kong", concealed_kong: "kong" };
// 真人語音 (myvoice.js): (seat, call) => true when that seat's own recording plays
let seatVoice = null;

export function setSeatVoice(fn) {
  seatVoice = fn;
}

/** Ask the server which calls it has recorded; none is fine (speech is tried). */
export async function loadVoicePacks(fetchImpl = globalThis.fetch) {
  try {
    const res = await fetchImpl("/api/v1/voices");
    if (res.ok) packs = { cmn: [], nan: [], ...(await res.json()).voices };
  } catch {
    /* no server or an older one: no recordings */
  }
  return packs;
}

export function setVoicePacks(p) {
  packs = { cmn: [], nan: [], ...p };
}

/**
 * How each voice would be heard here: "recorded" (the server's clips), "browser"
 * (a voice of the browser's speech), or "none" — for the settings panel.
 */
export function voiceStatus() {
  const s = synth();
  let voices = [];
  try {
    voices = s ? s.getVoices() : [];
  } catch {
    voices = [];
  }
  const mandarin = chooseVoice(voices, { hokkien: false });
  return {
    cmn: packs.cmn?.length ? "recorded" : mandarin ? "browser" : "none",
    nan: packs.nan?.length ? "recorded" : hasHokkienVoice() ? "browser" : "none",
  };
}

function playClip(voice, call) {
  if (!packs[voice]?.includes(call)) return false;
  try {
    const a = new Audio(`/api/v1/voices/${voice}/${call}`);
    const p = a.play();
    if (p && p.catch) p.catch(() => {});
  } catch {
    return false;
  }
  return true;
}

function heard(how) {
  // which way the last call went out, for the settings panel's test and for tests
  if (globalThis.document) document.documentElement.dataset.lastCall = how;
  return how;
}

// What is spoken: the Chinese call itself, whatever the interface language.
export const SPOKEN = {
  chi: "吃", pon: "碰", kong: "槓", added_kong: "槓", concealed_kong: "槓",
  win: "胡", self_draw: "自摸", declare: "聽", flower_win: "花胡",
};

function synth() {
  try {
    return globalThis.speechSynthesis || null;
  } catch {
    return null;
  }
}

/** The best voice for calls: Hokkien if wanted and present, else Taiwan Mandarin. */
export function chooseVoice(voices, { hokkien = true } = {}) {
  const byLang = (re) => voices.find((v) => re.test((v.lang || "").replace("_", "-")));
  const hok = voices.find(
    (v) => /^nan\b|^nan-/i.test(v.lang || "") || /hokkien|taiwanese|台語|閩南/i.test(v.name || ""),
  );
  if (hokkien && hok) return hok;
  return (
    byLang(/^zh-TW$/i) || byLang(/^cmn-Hant/i) || byLang(/^zh-Hant/i) ||
    byLang(/^zh-HK$/i) || byLang(/^(zh|cmn)\b/i) || null
  );
}

export function hasHokkienVoice() {
  const s = synth();
  if (!s) return false;
  try {
    return s.getVoices().some((v) => /^nan/i.test(v.lang || "") || /hokkien|taiwanese|台語|閩南/i.test(v.name || ""));
  } catch {
    return false;
  }
}

/**
 * Say one call ("pon", "self_draw", …) if sound is on: the caller's own recording
 * (`seat`'s 真人語音, when the listener allows it), else the server's recording in
 * the chosen voice (台語 or 普通話) first, then the browser's voice for it, then the
 * other voice's recording, then the browser's Mandarin. Returns how it was said.
 */
export function speakCall(kind, seat = null) {
  const words = SPOKEN[kind];
  if (!words || !getPref("sound")) return false;
  const call = CLIP[kind] || kind;
  if (seat !== null && seatVoice?.(seat, call)) return heard(`player:${seat}:${call}`);
  const wanted = getPref("hokkien") ? "nan" : "cmn";
  const other = wanted === "nan" ? "cmn" : "nan";
  if (playClip(wanted, call)) return heard(`recorded:${wanted}:${call}`);
  const s = synth();
  if (wanted === "nan" && s && hasHokkienVoice() && speakWith(s, words, true)) return heard(`browser:nan:${call}`);
  if (playClip(other, call)) return heard(`recorded:${other}:${call}`);
  if (s && speakWith(s, words, false)) return heard(`browser:cmn:${call}`);
  return false;
}

/**
 * Say one 快捷語 (a phrase of GET /api/v1/talk: {id, nan, cmn}) in the listener's voice:
 * the recorded clip `phrase_<id>` of the chosen voice, then the browser's voice for
 * that voice's line (台語 needs a Hokkien voice), then the other voice's clip, then the
 * browser's Mandarin; silent when none exists. Returns how it was said (or false).
 */
export function speakPhrase(phrase, seat = null) {
  if (!phrase || !getPref("sound")) return false;
  const call = `phrase_${phrase.id}`;
  if (seat !== null && seatVoice?.(seat, call)) return heard(`player:${seat}:${call}`);
  const wanted = getPref("hokkien") ? "nan" : "cmn";
  const other = wanted === "nan" ? "cmn" : "nan";
  if (playClip(wanted, call)) return heard(`recorded:${wanted}:${call}`);
  const s = synth();
  if (wanted === "nan" && s && hasHokkienVoice() && speakWith(s, phrase.nan, true)) return heard(`browser:nan:${call}`);
  if (playClip(other, call)) return heard(`recorded:${other}:${call}`);
  if (s && speakWith(s, phrase.cmn, false)) return heard(`browser:cmn:${call}`);
  return false;
}

function speakWith(s, words, hokkien) {
  try {
    const voice = chooseVoice(s.getVoices(), { hokkien });
    if (!voice) return false;
    const u = new SpeechSynthesisUtterance(words);
    u.voice = voice;
    u.lang = voice.lang;
    u.rate = 1.05;
    s.speak(u);
    return true;
  } catch {
    return false; // a broken speech engine must never break the game
  }
}

let audio = null;

/** The page's one audio context (made at the first sound), or null without audio. */
function audioContext() {
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (Ctx) audio = audio || new Ctx();
  return Ctx ? audio : null;
}

/** A short wooden clack for a discard, synthesised so nothing is downloaded. */
export function clack() {
  if (!getPref("sound")) return;
  try {
    const ctx = audioContext();
    if (!ctx) return;
    const n = Math.floor(ctx.sampleRate * 0.06);
    const buf = ctx.createBuffer(1, n, ctx.sampleRate);
    const data = buf.getChannelData(0);
    // Fixed-seed noise: the same clack every time, and no unseeded randomness.
    let x = 12345;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      data[i] = ((x / 0x3fffffff) - 1) * Math.pow(1 - i / n, 6);
    }
    const src = ctx.createBufferSource();
    src.buffer = buf;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = 1800;
    band.Q.value = 1.2;
    const gain = ctx.createGain();
    gain.gain.value = 0.5;
    src.connect(band).connect(gain).connect(ctx.destination);
    src.start();
  } catch {
    /* no audio device: silent */
  }
}

/**
 * It is this player's move (their turn, or a call they may make): a soft two-note
 * chime and, on a phone, a short buzz, so a player who looked away does not let the
 * countdown run out. Sound off in 設定 silences both. Says what it did in
 * `<html data-last-cue>` (tests, like `data-last-call`).
 */
export function cue() {
  if (!getPref("sound")) return false;
  let how = "";
  try {
    const ctx = audioContext();
    if (ctx) {
      const t0 = ctx.currentTime;
      for (const [i, freq] of [[0, 1318.5], [1, 1760]]) {          // E6, then A6
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = "sine";
        osc.frequency.value = freq;
        const at = t0 + i * 0.09;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
        osc.connect(gain).connect(ctx.destination);
        osc.start(at);
        osc.stop(at + 0.17);
      }
      how = "chime";
    }
  } catch {
    /* no audio device: the buzz alone */
  }
  try {
    // a page the player has not touched yet may not buzz (the browser refuses, and
    // says so in the console): the first deal can come before any tap
    const nav = globalThis.navigator;
    const touched = nav?.userActivation ? nav.userActivation.hasBeenActive : true;
    if (touched && nav?.vibrate?.(35)) how = how ? `${how}+buzz` : "buzz";
  } catch {
    /* no vibration */
  }
  if (globalThis.document) document.documentElement.dataset.lastCue = how || "none";
  return how || false;
}

/** Polite live region: the last discard and each claim, for screen readers. */
export class Announcer {
  constructor(el) {
    this.el = el;
    el.setAttribute("aria-live", "polite");
    el.setAttribute("role", "status");
  }

  say(message) {
    // Re-setting identical text is not re-read; a changing wrapper forces it.
    this.el.textContent = "";
    const line = document.createElement("span");
    line.textContent = message;
    this.el.append(line);
  }
}

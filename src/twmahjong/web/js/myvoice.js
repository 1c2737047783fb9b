// 真人語音: calls in the players' own voices.
//
// In 設定 a registered player records their calls (碰 吃 槓 胡 自摸 聽 花胡) and, if they
// like, the 快捷語 (which are also the bots' lines), in 台語 or 普通話, with the
// browser's MediaRecorder: record, hear it back, keep it (uploaded: PUT
// /api/v1/me/clips/{voice}/{call}) or redo it. The server checks each clip (at most
// 2.5 s, its bytes must be audio, a quota) and says why it refuses one.
//
// At a table, a seat's calls and phrases play in that player's recorded voice to a
// listener who allows 「玩家真人語音」 (on by default) and has not muted the seat
// (the talk panel's 靜音 mutes both); otherwise speech.js says them as before (the
// voice pack, then the browser's speech). Which seats have clips: GET
// /api/v1/games/{id}/voices, asked when the table opens. A clip is fetched once
// (GET /api/v1/clips/{id}, with the session) and played by the page's one
// <audio class="player-voice">.

import * as api from "./api.js";
import { h } from "./dom.js";
import { addStrings, errorText, getLang, onLangChange, t } from "./i18n.js";
import { getPref, setPref } from "./prefs.js";
import { setSeatVoice } from "./speech.js";

addStrings({
  "myvoice.title": ["真人語音（用自己的聲音喊牌）", "Your own voice for calls"],
  "myvoice.open": ["真人語音…", "Players' voices…"],
  "myvoice.listen": ["播放其他玩家的真人語音", "Play other players' recorded voices"],
  "myvoice.listen.note": ["關閉時改用你選的語音；牌桌上的「靜音」也會關掉該玩家的聲音", "Off: your chosen voice says their calls. Muting a seat at the table silences its voice too"],
  "myvoice.guest": ["註冊帳號後，就可以錄下自己的喊牌聲", "Register to record your own calls"],
  "myvoice.intro": ["每句最長 {s} 秒。按「錄音」說出來，聽一次，再決定保留或重錄", "Each call is at most {s} s. Press Record, say it, hear it back, then keep it or redo it"],
  "myvoice.voice": ["錄音語言", "Language of the recordings"],
  "myvoice.phrases": ["快捷語（也是電腦玩家的台詞）", "Quick phrases (the bots' lines too)"],
  "myvoice.record": ["錄音", "Record"],
  "myvoice.stop": ["停止", "Stop"],
  "myvoice.play": ["播放", "Play"],
  "myvoice.keep": ["保留", "Keep"],
  "myvoice.redo": ["重錄", "Redo"],
  "myvoice.delete": ["刪除", "Delete"],
  "myvoice.none": ["未錄", "not recorded"],
  "myvoice.kept": ["已錄 {s} 秒", "recorded, {s} s"],
  "myvoice.take": ["試聽中：保留或重錄？", "New take: keep or redo?"],
  "myvoice.recording": ["錄音中…", "Recording…"],
  "myvoice.saving": ["儲存中…", "Saving…"],
  "myvoice.used": ["已用 {n}/{max} 句", "{n} of {max} clips used"],
  "myvoice.nomic": ["無法使用麥克風：請允許瀏覽器使用麥克風", "The microphone cannot be used: allow the browser to use it"],
  "myvoice.norec": ["這個瀏覽器不能錄音", "This browser cannot record"],
  "myvoice.report": ["檢舉語音", "Report voice"],
  "myvoice.reported": ["已檢舉，謝謝", "Reported, thank you"],
  "room.voices": ["允許玩家真人語音", "Allow players' recorded voices"],
  "err.reason.clip_too_big": ["錄音檔太大，請錄短一點", "The recording is too large; keep it shorter"],
  "err.reason.clip_too_long": ["錄音太長：每句最長 2.5 秒", "The recording is too long: at most 2.5 s a call"],
  "err.reason.clip_not_audio": ["這不是遊戲能播放的錄音檔", "This is not a recording the game can play"],
  "err.reason.clip_empty": ["錄音是空的，請再錄一次", "The recording is empty; record it again"],
  "err.reason.clip_quota": ["錄音已達上限，請先刪除一些", "You have recorded all you may keep; delete some first"],
  "err.reason.guest_clips": ["訪客不能錄音，註冊後即可", "Guests cannot record calls; register first"],
  "err.reason.no_such_call": ["沒有這句可以錄", "There is no such call to record"],
  "err.reason.no_clip": ["這段錄音已經不在了", "This recording is gone"],
  "err.reason.no_game": ["找不到這局牌", "No such game"],
  "err.reason.not_seated": ["只有這局的玩家聽得到玩家語音", "Only the players of a game hear its voices"],
});

const CALL_KEYS = { chi: "call.chi", pon: "call.pon", kong: "call.kong", win: "call.win",
  self_draw: "call.self_draw", declare: "call.declare", flower_win: "call.flower_win" };
const STOP_MS = 2300;           // under the server's 2.5 s
const TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"];

/** A request with the session; its body as JSON, or the server's error as api.ApiError. */
async function call(path, { method = "GET", body, raw = false } = {}) {
  const headers = {};
  const token = api.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body instanceof Blob) headers["Content-Type"] = body.type || "application/octet-stream";
  else if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers,
      body: body === undefined || body instanceof Blob ? body : JSON.stringify(body) });
  } catch {
    throw new api.ApiError(0, "offline", "");
  }
  if (!res.ok) {
    let err = {};
    try {
      err = (await res.json())?.error || {};
    } catch {
      /* not JSON */
    }
    throw new api.ApiError(res.status, err.code || "http", err.message || "", err.reason || null);
  }
  return raw ? res : res.json();
}

// -- at the table ----------------------------------------------------------------------------
const table = { gameId: null, on: false, seats: new Map(), muted: new Set(), loaded: null, loadedAt: 0 };
const blobs = new Map();        // clip id -> object URL (fetched once a page)

/** Ask which seats of `gameId` have clips (once a game; again after a minute). */
export function loadSeatVoices(gameId) {
  if (!gameId || !api.getToken()) return Promise.resolve(null);
  if (table.gameId === gameId && table.loaded && Date.now() - table.loadedAt < 60_000) return table.loaded;
  if (table.gameId !== gameId) {           // another table: the last one's clips go
    for (const url of blobs.values()) url.then((u) => URL.revokeObjectURL(u)).catch(() => {});
    blobs.clear();
  }
  table.gameId = gameId;
  table.loadedAt = Date.now();
  table.loaded = call(`/games/${encodeURIComponent(gameId)}/voices`).then((v) => {
    table.on = Boolean(v.on);
    table.seats = new Map(v.seats.map((s) => [s.seat, s.clips]));
    if (globalThis.document) document.documentElement.dataset.seatVoices = v.seats.map((s) => s.seat).join(",");
    return v;
  }).catch(() => null);
  return table.loaded;
}

/** The seats whose voice this listener muted (the talk panel's 靜音). */
export function setVoiceMuted(seats) {
  table.muted = new Set(seats);
}

function voiceElement() {
  let el = document.querySelector("audio.player-voice");
  if (!el) {
    el = h("audio", { class: "player-voice", preload: "auto" });
    el.hidden = true;
    // the speaker's badge wears a speaker mark while their own voice plays
    const mark = (on) => {
      for (const b of document.querySelectorAll(".badge.player-voice-on")) b.classList.remove("player-voice-on");
      if (on) document.querySelector(`.badge[data-seat="${el.dataset.seat}"]`)?.classList.add("player-voice-on");
    };
    el.addEventListener("playing", () => {
      el.dataset.state = "playing";
      el.dataset.played = String(Number(el.dataset.played || 0) + 1);     // clips heard (tests)
      mark(true);
    });
    el.addEventListener("ended", () => {
      el.dataset.state = "ended";
      mark(false);
    });
    el.addEventListener("error", () => {
      el.dataset.state = "error";
      mark(false);
    });
    document.body.append(el);
  }
  return el;
}

async function clipUrl(id) {
  if (!blobs.has(id)) {
    blobs.set(id, call(`/clips/${id}`, { raw: true }).then(async (r) => URL.createObjectURL(await r.blob()))
      .catch((e) => {
        blobs.delete(id);
        throw e;
      }));
  }
  return blobs.get(id);
}

/** Play `seat`'s own clip of `call` (listener's voice first); true if there is one. */
function playSeatClip(seat, callName) {
  if (table.gameId && Date.now() - table.loadedAt >= 60_000) loadSeatVoices(table.gameId);   // for the next call
  if (!table.on || !getPref("playerVoices") || table.muted.has(seat) || !globalThis.document) return false;
  const clips = table.seats.get(seat);
  if (!clips) return false;
  const wanted = getPref("hokkien") ? ["nan", "cmn"] : ["cmn", "nan"];
  const voice = wanted.find((v) => clips[v]?.[callName]);
  if (!voice) return false;
  const id = clips[voice][callName];
  const el = voiceElement();
  el.dataset.seat = String(seat);
  el.dataset.clip = String(id);
  el.dataset.state = "loading";
  clipUrl(id).then((url) => {
    if (el.dataset.clip !== String(id)) return;      // a later call came first
    el.src = url;
    const p = el.play();
    if (p && p.catch) p.catch(() => (el.dataset.state = "blocked"));
  }).catch(() => (el.dataset.state = "error"));
  return true;
}

setSeatVoice(playSeatClip);

/** The talk panel's row of 檢舉語音 buttons, one per other seat with clips (null: none). */
export function reportRow(me, players) {
  const seats = [...table.seats.keys()].filter((s) => s !== me);
  if (!table.on || !seats.length) return null;
  return h("div", { class: "talk-mute voice-report" },
    h("span", {}, t("myvoice.report")),
    ...seats.map((s) => h("button", { type: "button", class: "chip-btn report-btn", dataset: { seat: String(s) },
      onclick: async (e) => {
        const btn = e.currentTarget;
        const ids = Object.values(table.seats.get(s) || {}).flatMap((c) => Object.values(c));
        const last = Number(voiceElement().dataset.seat) === s ? Number(voiceElement().dataset.clip) : ids[0];
        try {
          await call(`/clips/${last}/report`, { method: "POST", body: { reason: "listener", game_id: table.gameId } });
          btn.textContent = t("myvoice.reported");
        } catch (err) {
          btn.textContent = errorText(err);
        }
        btn.disabled = true;
      } }, players?.[s]?.name || t(`seat.${["self", "right", "across", "left"][(s - (me ?? 0) + 4) % 4]}`))));
}

// -- in 設定: recording ------------------------------------------------------------------------
function recorderType() {
  const MR = globalThis.MediaRecorder;
  return MR ? TYPES.find((ty) => MR.isTypeSupported?.(ty)) || "" : null;
}

/** Record up to STOP_MS from the microphone; resolves to the recording (a Blob). */
async function record(onStart, stopSignal) {
  const type = recorderType();
  if (type === null || !navigator.mediaDevices?.getUserMedia) throw new Error("norec");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  } catch {
    throw new Error("nomic");
  }
  const rec = new MediaRecorder(stream, { ...(type ? { mimeType: type } : {}), audioBitsPerSecond: 64000 });
  const parts = [];
  rec.ondataavailable = (e) => e.data.size && parts.push(e.data);
  const done = new Promise((resolve) => (rec.onstop = resolve));
  rec.start();
  onStart();
  const timer = setTimeout(() => rec.state === "recording" && rec.stop(), STOP_MS);
  stopSignal.stop = () => rec.state === "recording" && rec.stop();
  await done;
  clearTimeout(timer);
  for (const tr of stream.getTracks()) tr.stop();
  return new Blob(parts, { type: rec.mimeType || type || "audio/webm" });
}

function label(callName, phrases) {
  if (CALL_KEYS[callName]) return t(CALL_KEYS[callName]);
  const p = phrases?.find((x) => `phrase_${x.id}` === callName);
  return p ? (getPref("hokkien") ? p.nan : p.cmn) : callName;
}

/** What a phrase means, in the page's language when that is not the line itself (English). */
function meaningOf(callName, phrases) {
  const p = phrases?.find((x) => `phrase_${x.id}` === callName);
  return p && getLang() === "en" ? p.en : null;
}

/** The 真人語音 part of the settings panel: the listener's switch and, for a registered
 * player, the recorder. Draws itself again after each change. */
export function myVoiceSection() {
  const box = h("section", { class: "set-row myvoice", dataset: { set: "myvoice" } });
  const state = { voice: getPref("hokkien") ? "nan" : "cmn", mine: null, me: null, phrases: null,
    take: null, busy: null, error: "" };
  const audio = new Audio();

  const draw = () => {
    const listen = h("label", { class: "check myvoice-listen" },
      h("input", { type: "checkbox", checked: getPref("playerVoices"),
        onchange: (e) => setPref("playerVoices", e.target.checked) }),
      h("span", {}, t("myvoice.listen")));
    const head = [h("h3", {}, t("myvoice.title")), listen, h("small", { class: "set-note" }, t("myvoice.listen.note"))];
    if (!state.me) return box.replaceChildren(...head);
    if (state.me.guest) return box.replaceChildren(...head, h("p", { class: "set-note myvoice-guest" }, t("myvoice.guest")));
    const lim = state.mine?.limits || { seconds: 2.5, quota_clips: 0 };
    const kept = new Map((state.mine?.clips || []).filter((c) => c.voice === state.voice).map((c) => [c.call, c]));
    const row = (callName) => {
      const clip = kept.get(callName);
      const take = state.take?.call === callName ? state.take : null;
      const busy = state.busy === callName;
      const buttons = [];
      if (busy && state.recording) {
        buttons.push(h("button", { type: "button", class: "btn small myvoice-stop", onclick: () => state.stop?.() }, t("myvoice.stop")));
      } else if (take) {
        buttons.push(
          h("button", { type: "button", class: "btn small myvoice-play", onclick: () => playBlob(take.url) }, t("myvoice.play")),
          h("button", { type: "button", class: "btn small primary myvoice-keep", disabled: busy, onclick: () => keep(take) }, t("myvoice.keep")),
          h("button", { type: "button", class: "btn small myvoice-redo", disabled: busy, onclick: () => rec(callName) }, t("myvoice.redo")));
      } else {
        buttons.push(h("button", { type: "button", class: "btn small myvoice-rec", disabled: Boolean(state.busy), onclick: () => rec(callName) }, t(clip ? "myvoice.redo" : "myvoice.record")));
        if (clip) {
          buttons.push(
            h("button", { type: "button", class: "btn small myvoice-play", onclick: () => playKept(clip) }, t("myvoice.play")),
            h("button", { type: "button", class: "btn small ghost myvoice-del", disabled: Boolean(state.busy), onclick: () => del(clip) }, t("myvoice.delete")));
        }
      }
      const status = busy && state.recording ? t("myvoice.recording")
        : busy ? t("myvoice.saving")
        : take ? t("myvoice.take")
        : clip ? t("myvoice.kept", { s: (clip.duration_ms / 1000).toFixed(1) }) : t("myvoice.none");
      const meaning = meaningOf(callName, state.phrases);
      return h("li", { class: "myvoice-call", dataset: { call: callName, kept: clip ? "1" : "0" } },
        h("span", { class: "myvoice-name", title: meaning }, label(callName, state.phrases),
          meaning ? h("small", { class: "myvoice-meaning" }, meaning) : null),
        h("small", { class: "myvoice-status" }, status),
        h("span", { class: "myvoice-btns" }, ...buttons));
    };
    const voices = h("div", { class: "set-options", role: "radiogroup", "aria-label": t("myvoice.voice") },
      ...["nan", "cmn"].map((v) => h("label", { class: "set-option" },
        h("input", { type: "radio", name: "myvoice-voice", value: v, checked: v === state.voice,
          onchange: () => { state.voice = v; state.take = null; draw(); } }),
        h("span", {}, t(`settings.voice.${v}`)))));
    box.replaceChildren(...[...head,
      h("p", { class: "set-note" }, t("myvoice.intro", { s: lim.seconds })),
      voices,
      state.error ? h("p", { class: "myvoice-error", role: "alert" }, state.error) : null,
      h("ul", { class: "myvoice-calls" }, ...(state.mine?.calls || []).map(row)),
      h("details", { class: "myvoice-more" }, h("summary", {}, t("myvoice.phrases")),
        h("ul", { class: "myvoice-calls" }, ...(state.mine?.phrases || []).map(row))),
      h("small", { class: "set-note myvoice-used" }, t("myvoice.used", { n: state.mine?.used?.clips ?? 0, max: lim.quota_clips }))]
      .filter(Boolean));
    const open = box.querySelector(".myvoice-more");
    if (open && state.phrasesOpen) open.open = true;
    open?.addEventListener("toggle", () => (state.phrasesOpen = open.open));
  };

  const playBlob = (url) => {
    audio.src = url;
    audio.play().catch(() => {});
  };
  const playKept = async (clip) => {
    try {
      playBlob(await clipUrl(clip.id));
    } catch (e) {
      state.error = errorText(e);
      draw();
    }
  };
  const refresh = async () => {
    state.mine = await call("/me/clips");
    draw();
  };
  const rec = async (callName) => {
    state.error = "";
    state.take = null;
    state.busy = callName;
    const stop = {};
    state.stop = () => stop.stop?.();
    try {
      const blob = await record(() => {
        state.recording = true;
        draw();
      }, stop);
      state.take = { call: callName, voice: state.voice, blob, url: URL.createObjectURL(blob) };
    } catch (e) {
      state.error = t(e.message === "nomic" ? "myvoice.nomic" : "myvoice.norec");
    }
    state.recording = false;
    state.busy = null;
    draw();
    if (state.take) playBlob(state.take.url);       // heard back at once
  };
  const keep = async (take) => {
    state.busy = take.call;
    state.error = "";
    draw();
    try {
      await call(`/me/clips/${take.voice}/${take.call}`, { method: "PUT", body: take.blob });
      state.take = null;
      await refresh();
    } catch (e) {
      state.error = errorText(e);
    }
    state.busy = null;
    draw();
  };
  const del = async (clip) => {
    try {
      await call(`/me/clips/${clip.voice}/${clip.call}`, { method: "DELETE" });
      await refresh();
    } catch (e) {
      state.error = errorText(e);
      draw();
    }
  };

  draw();
  if (api.getToken()) {
    Promise.all([call("/me"), call("/me/clips"), call("/talk").catch(() => null)]).then(([me, mine, talk]) => {
      state.me = me;
      state.mine = mine;
      state.phrases = talk?.phrases || null;
      draw();
    }).catch(() => {});
  }
  return box;
}

/** The settings panel's button that opens the 真人語音 panel over it. */
export function myVoiceButton() {
  return h("button", { type: "button", class: "btn small myvoice-open", onclick: openMyVoice }, t("myvoice.open"));
}

/** The 真人語音 panel: over 設定 (or anything), closed by its button, Escape or a tap
 * beside it; drawn again when the language changes. */
export function openMyVoice() {
  document.querySelector(".myvoice-dialog")?.closeMyVoice?.();
  const dialog = h("div", { class: "myvoice-dialog", role: "dialog", "aria-modal": "true", "aria-label": t("myvoice.title") });
  let off = () => {};
  const opener = document.activeElement;
  const onKey = (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    e.stopImmediatePropagation();        // the settings under it stay open
    close();
  };
  const close = () => {
    off();
    globalThis.removeEventListener("keydown", onKey, true);
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  };
  dialog.closeMyVoice = close;
  const draw = () => dialog.replaceChildren(h("div", { class: "myvoice-box" }, myVoiceSection(),
    h("button", { type: "button", class: "btn primary myvoice-close", onclick: close }, t("settings.close"))));
  draw();
  off = onLangChange(draw);
  globalThis.addEventListener("keydown", onKey, true);      // before the settings' own Escape
  dialog.addEventListener("click", (e) => e.target === dialog && close());
  document.body.append(dialog);
  dialog.querySelector("input")?.focus();
  return dialog;
}

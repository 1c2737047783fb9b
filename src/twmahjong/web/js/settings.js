// The settings panel (設定): sound, voice (普通話 / 台語, saying which can be heard
// and how), tile size, the speed of tables one makes, and the language. Every
// choice is a preference kept in localStorage (prefs.js) and applies at once.

import { h } from "./dom.js";
import { getLang, onLangChange, setLang, t } from "./i18n.js";
import { getChoice, getPref, setChoice, setPref } from "./prefs.js";
import { myVoiceButton } from "./myvoice.js";
import { speakCall, voiceStatus } from "./speech.js";
import { voiceSettings } from "./voice.js";

/** The tile size as a class on <body>, read by the table's CSS (tiles-s / -m / -l). */
export function applyTileSize(size = getChoice("tileSize")) {
  if (!globalThis.document) return;
  for (const s of ["s", "m", "l"]) document.body.classList.toggle(`tiles-${s}`, s === size);
}

function radios(name, options, value, onchange) {
  return h("div", { class: "set-options", role: "radiogroup" }, ...options.map(([v, label, note]) =>
    h("label", { class: "set-option" },
      h("input", { type: "radio", name, value: v, checked: v === value, onchange: () => onchange(v) }),
      h("span", {}, label),
      note ? h("small", { class: "set-note", dataset: { for: v } }, note) : null)));
}

/** How a voice will be heard, in a word: 錄音 / 瀏覽器語音 / 無 (then the fallback). */
function voiceNote(status, voice) {
  if (status[voice] === "recorded") return t("settings.voice.recorded");
  if (status[voice] === "browser") return t("settings.voice.browser");
  if (voice === "nan") return t(status.cmn === "none" ? "settings.voice.none" : "settings.voice.fallback");
  return t(status.nan === "recorded" ? "settings.voice.fallback.nan" : "settings.voice.none");
}

function panel(close) {
  const status = voiceStatus();
  const voice = getPref("hokkien") ? "nan" : "cmn";
  return h("div", { class: "settings-box" },
    h("h2", { id: "settings-title" }, t("settings")),
    h("section", { class: "set-row set-switch", dataset: { set: "sound" } },
      h("h3", {}, t("toggle.sound")),
      radios("set-sound", [["on", t("settings.on")], ["off", t("settings.off")]], getPref("sound") ? "on" : "off",
        (v) => setPref("sound", v === "on"))),
    h("section", { class: "set-row", dataset: { set: "voice" } },
      h("h3", {}, t("settings.voice")),
      radios("set-voice", [["cmn", t("settings.voice.cmn"), voiceNote(status, "cmn")],
        ["nan", t("settings.voice.nan"), voiceNote(status, "nan")]], voice,
      (v) => setPref("hokkien", v === "nan")),
      h("div", { class: "set-buttons" },
        h("button", { type: "button", class: "btn small set-try", onclick: () => speakCall("pon") }, t("settings.voice.try")),
        myVoiceButton())),
    ...voiceSettings(radios),
    h("section", { class: "set-row set-switch", dataset: { set: "hints" } },
      h("h3", {}, t("settings.hints")),
      radios("set-hints", [["on", t("settings.on")], ["off", t("settings.off")]], getPref("readyHints") ? "on" : "off",
        (v) => setPref("readyHints", v === "on")),
      h("small", { class: "set-note" }, t("settings.hints.note"))),
    h("section", { class: "set-row set-switch", dataset: { set: "coach" }, title: t("settings.coach.note") },
      h("h3", {}, t("settings.coach")),
      radios("set-coach", ["off", "ask", "always"].map((v) => [v, t(`settings.coach.${v}`)]), getChoice("coach"),
        (v) => setChoice("coach", v))),
    h("section", { class: "set-row set-switch", dataset: { set: "deal" } },
      h("h3", {}, t("settings.deal")),
      radios("set-deal", [["on", t("settings.on")], ["off", t("settings.off")]], getPref("dealInfo") ? "on" : "off",
        (v) => setPref("dealInfo", v === "on")),
      h("small", { class: "set-note" }, t("settings.deal.note"))),
    h("section", { class: "set-row", dataset: { set: "tiles" } },
      h("h3", {}, t("settings.tiles")),
      radios("set-tiles", [["s", t("settings.tiles.s")], ["m", t("settings.tiles.m")], ["l", t("settings.tiles.l")]],
        getChoice("tileSize"), (v) => {
          setChoice("tileSize", v);
          applyTileSize(v);
        })),
    h("section", { class: "set-row", dataset: { set: "speed" } },
      h("h3", {}, t("settings.speed")),
      radios("set-speed", ["fast", "standard", "slow"].map((v) => [v, t(`speed.${v}`)]), getChoice("speed"),
        (v) => setChoice("speed", v)),
      h("small", { class: "set-note" }, t("settings.speed.note"))),
    h("section", { class: "set-row", dataset: { set: "lang" } },
      h("h3", {}, t("settings.lang")),
      radios("set-lang", [["zh-TW", "中文"], ["en", "English"]], getLang(), (v) => setLang(v))),
    h("button", { type: "button", class: "btn primary settings-close", onclick: close }, t("settings.close")));
}

/** Open the panel over the page; it redraws itself when the language changes. */
export function openSettings() {
  document.querySelector(".settings-dialog")?.closeSettings?.();
  const dialog = h("div", { class: "settings-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "settings-title" });
  let off = () => {};
  const opener = document.activeElement;
  // Escape closes it, before anything under it sees the key (the table's own Escape)
  const onKey = (e) => {
    if (e.key !== "Escape") return;
    e.preventDefault();
    close();
  };
  const close = () => {
    off();
    document.removeEventListener("keydown", onKey, true);
    dialog.remove();
    if (opener?.isConnected) opener.focus();
  };
  dialog.closeSettings = close;
  const draw = () => dialog.replaceChildren(panel(close));
  draw();
  off = onLangChange(draw);
  document.addEventListener("keydown", onKey, true);
  dialog.addEventListener("click", (e) => e.target === dialog && close());
  document.body.append(dialog);
  dialog.querySelector("input:checked")?.focus();
  return dialog;
}

// Voice at the table (開黑): talk while you play, peer to peer.
//
// Off by default. Each player turns it on for themselves: 設定 → 語音聊天 joins the
// voice of every private room (開房) they sit at, and the 🎙 control at the table
// joins or leaves it there. A quick-match (快速配對) table seats strangers: its voice
// exists for a player only when they allowed it for such tables too (a separate
// setting), and the server refuses it otherwise. A room's host may forbid voice.
//
// The sound never goes through the server. Each pair of seats in voice holds one
// RTCPeerConnection (a mesh of up to four); the server relays only their session
// descriptions (docs/protocol.md: voice, voice_joined, voice_signal). ICE candidates
// ride inside them (gathered first, no trickle: two small messages a pair). The one
// who joins calls the seats already in; the others answer.
//
// Open mic, or push to talk (hold the button, or the V key). A seat muted here stops
// its sound at once (the <audio> muted) and stops it being sent at all: this side
// offers again with the sound from that seat refused ("sendonly"), so the seat's
// browser stops sending it. Who is speaking is read from each receiver's audio level
// and marked on the seat's badge and in the panel.
//
// A watcher (觀戰) hears nothing of it — unless the room's host let watchers listen:
// then the watch view's control makes the watcher a listener, which calls each seat
// in voice with an offer that only receives; the seats answer (sending only) and
// see how many listen.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName } from "./board.js";
import { getChoice, getPref, onPrefChange, setChoice, setPref } from "./prefs.js";

const GATHER_MS = 2500;       // ICE gathering (STUN/TURN) before the description goes
const MAX_SDP = 3600;         // the server's limit on one description
const SPEAKING = 0.04;        // an audio level (0-1) above this is speech
const LEVEL_MS = 150;

const MIC_SVG = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.9V21h2v-3.1A7 7 0 0 0 19 11z" fill="currentColor"/></svg>';

/** The settings panel's rows for voice (settings.js draws them with its `radios`). */
export function voiceSettings(radios) {
  return [
    h("section", { class: "set-row set-switch", dataset: { set: "voicechat" } },
      h("h3", {}, t("voice.setting")),
      radios("set-voicechat", [["on", t("settings.on")], ["off", t("settings.off")]],
        getPref("voiceChat") ? "on" : "off", (v) => setPref("voiceChat", v === "on")),
      h("small", { class: "set-note" }, t("voice.setting.note"))),
    h("section", { class: "set-row set-switch", dataset: { set: "voicequick" } },
      h("h3", {}, t("voice.quick")),
      radios("set-voicequick", [["on", t("settings.on")], ["off", t("settings.off")]],
        getPref("voiceQuick") ? "on" : "off", (v) => setPref("voiceQuick", v === "on")),
      h("small", { class: "set-note" }, t("voice.quick.note"))),
    h("section", { class: "set-row", dataset: { set: "voicemode" } },
      h("h3", {}, t("voice.mode")),
      radios("set-voicemode", [["open", t("voice.mode.open")], ["ptt", t("voice.mode.ptt")]],
        getChoice("voiceMode"), (v) => setChoice("voiceMode", v))),
  ];
}

/** Leave out the TCP candidates when a description is over the server's limit. */
export function trimSdp(sdp) {
  if (sdp.length <= MAX_SDP) return sdp;
  return sdp.split("\r\n").filter((l) => !(l.startsWith("a=candidate:") && / tcp /i.test(l))).join("\r\n");
}

function gathered(pc) {
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (pc.iceGatheringState !== "complete") return;
      pc.removeEventListener("icegatheringstatechange", done);
      resolve();
    };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, GATHER_MS);
  });
}

export class VoiceBar {
  /**
   * @param {HTMLElement} root  the table view's root (has .table-tools and .board-area)
   * @param {{send: (msg: object) => void, me: () => number|null, players: () => object[]|null,
   *          gameId: () => string|null, onError?: (msg: object) => void}} opts
   */
  constructor(root, { send, me, players, gameId, onError = () => {}, listen = false }) {
    this.root = root;
    this.listen = listen;        // a watcher's page: it may only listen
    this.listenerIds = [];       // the watchers listening (seats answer their calls)
    this.sendFn = send;
    this.me = me;
    this.players = players;
    this.gameId = gameId;
    this.onError = onError;
    this.info = null;            // the table's voice: {allowed, room, seats}
    this.inVoice = new Set();    // seats in the table's voice (the server says)
    this.joined = false;         // this page is in it
    this.wanted = null;          // the player's choice at this table (null: the setting's)
    this.iceServers = [];
    this.stream = null;          // the microphone
    this.peers = new Map();      // seat -> {pc, audio, making}
    this.muted = new Set();      // seats this player does not want to hear
    this.micOff = false;         // open mic, muted for now
    this.talking = false;        // push to talk: held
    this.levels = new Map();     // seat -> 0..1
    const q = (s) => root.querySelector(s);
    this.button = h("button", { type: "button", class: "chip-btn voice-btn", "aria-haspopup": "dialog",
      "aria-expanded": "false", onclick: () => this.toggle() });
    this.button.hidden = true;
    q(".table-tools").prepend(this.button);
    this.panel = h("div", { class: "voice-panel", role: "dialog" });
    this.panel.hidden = true;
    this.ptt = h("button", { type: "button", class: "voice-ptt", hidden: true });
    const hold = (on) => (e) => {
      e.preventDefault();
      this.hold(on);
    };
    this.ptt.addEventListener("pointerdown", hold(true));
    for (const ev of ["pointerup", "pointerleave", "pointercancel"]) this.ptt.addEventListener(ev, hold(false));
    this.onKey = (e) => {
      if ((e.key !== "v" && e.key !== "V") || e.repeat || !this.joined || getChoice("voiceMode") !== "ptt") return;
      if (e.type === "keydown" && (e.ctrlKey || e.metaKey || e.altKey)) return;   // the browser's own
      if (e.target instanceof HTMLElement && e.target.closest("input, textarea")) return;
      this.hold(e.type === "keydown");
    };
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("keyup", this.onKey);
    q(".board-area").append(this.panel, this.ptt);
    this.unPref = onPrefChange((name) => {
      if (name === "voiceMode") this.applyMic();
      if (name === "voiceChat" || name === "voiceQuick" || name === "voiceMode") this.sync();
    });
    this.timer = setInterval(() => this.readLevels(), LEVEL_MS);
    this.paint();
  }

  /** May this player use voice here? The host's word, and for strangers their own. */
  available() {
    if (this.listen) return Boolean(this.info?.allowed && this.info.listen);
    if (!this.info?.allowed || this.me() === null) return false;
    return this.info.room || getPref("voiceQuick");
  }

  /** The table's voice as the snapshot says (after every (re)connection). */
  setInfo(info) {
    if (!info) return;
    this.info = info;
    this.inVoice = new Set(info.seats || []);
    this.listenerIds = info.listeners || [];
    // a new connection is in nobody's voice: join again if the player is in it
    if (this.joined && !this.inVoice.has(this.me())) this.joined = false;
    this.closeGone();
    this.sync();
  }

  /** Join or leave as the player chose (at this table, else by the setting). */
  sync() {
    // the setting joins a seat's voice; a watcher listens only when it asks to
    const want = this.available() && (this.wanted ?? (!this.listen && getPref("voiceChat")));
    if (want && !this.joined && !this.joining) this.join();
    else if (!want && (this.joined || this.joining)) this.leave();
    this.paint();
  }

  toggle(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.button.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) this.paintPanel();
  }

  async join() {
    this.joining = true;
    try {
      if (!this.stream && !this.listen) {
        this.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
        this.meter = this.localMeter(this.stream);
      }
    } catch {
      this.joining = false;
      this.wanted = false;
      this.onError({ code: "voice_no_mic" });
      this.paint();
      return;
    }
    if (!this.joining) {                   // left while the microphone was asked for
      this.stopMic();
      return;
    }
    this.applyMic();
    this.sendFn(this.listen ? { type: "voice", on: true } : { type: "voice", on: true, quick: !this.info?.room });
  }

  leave() {
    this.joining = false;
    if (this.joined) this.sendFn({ type: "voice", on: false });
    this.joined = false;
    for (const seat of [...this.peers.keys()]) this.hangUp(seat);
    this.stopMic();
    this.paint();
  }

  stopMic() {
    for (const tr of this.stream?.getTracks() || []) tr.stop();
    this.stream = null;
    this.meter?.ctx.close().catch(() => {});
    this.meter = null;
  }

  /** The player's own level, from the microphone (an analyser on it). */
  localMeter(stream) {
    try {
      const ctx = new AudioContext();
      const source = ctx.createMediaStreamSource(stream);
      const analyser = ctx.createAnalyser();
      analyser.fftSize = 512;
      source.connect(analyser);
      const data = new Float32Array(analyser.fftSize);
      return { ctx, read: () => {
        analyser.getFloatTimeDomainData(data);
        let sum = 0;
        for (const x of data) sum += x * x;
        return Math.min(1, Math.sqrt(sum / data.length) * 4);
      } };
    } catch {
      return null;
    }
  }

  /** The microphone sends while open mic is on and not muted, or while held (PTT). */
  applyMic() {
    const ptt = getChoice("voiceMode") === "ptt";
    const on = ptt ? this.talking : !this.micOff;
    for (const tr of this.stream?.getAudioTracks() || []) tr.enabled = on;
    this.ptt.hidden = !(this.joined && ptt && !this.listen);
    this.ptt.classList.toggle("held", this.talking);
  }

  hold(on) {
    this.talking = on;
    this.meter?.ctx.resume?.().catch(() => {});
    this.applyMic();
  }

  // -- server messages ---------------------------------------------------------------
  handle(msg) {
    switch (msg.type) {
      case "voice":
        this.inVoice = new Set(msg.seats || []);
        this.listenerIds = msg.listeners || [];
        if (this.info) Object.assign(this.info, { seats: msg.seats || [], listeners: this.listenerIds });
        this.closeGone();
        if (this.listen && this.joined) {          // a listener calls each seat that joined
          for (const seat of this.inVoice) if (!this.peers.has(seat)) this.call(seat).catch(() => this.hangUp(seat));
        }
        this.paint();
        return true;
      case "voice_joined":
        if (!this.joining) {                 // left meanwhile
          this.sendFn({ type: "voice", on: false });
          return true;
        }
        this.joining = false;
        this.joined = true;
        this.listenerId = msg.listener ?? null;
        this.iceServers = msg.ice_servers || [];
        this.applyMic();
        for (const seat of msg.peers || []) this.call(seat);
        this.paint();
        return true;
      case "voice_signal": {
        const key = msg.seat ?? `L${msg.listener}`;     // a seat, or a watcher listening
        this.signal(key, msg).catch(() => this.hangUp(key));
        return true;
      }
      default:
        return false;
    }
  }

  /** A refusal of a voice message: out of voice, said once. */
  refused(msg) {
    if (!String(msg.code || "").startsWith("voice_")) return false;
    if (["voice_forbidden", "voice_quick", "voice_watcher"].includes(msg.code)) {
      this.joining = false;
      this.joined = false;
      this.wanted = false;
      this.stopMic();
    }
    this.paint();
    return msg.code !== "voice_no_peer";    // a seat that just left: nothing to say
  }

  // -- the peer connections ------------------------------------------------------------
  peer(seat) {
    let p = this.peers.get(seat);
    if (p) return p;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    const audio = h("audio", { autoplay: true, class: "voice-audio", dataset: { seat: String(seat) } });
    audio.muted = this.muted.has(seat);
    this.root.append(audio);
    p = { pc, audio, seat };
    pc.addEventListener("track", (e) => {
      audio.srcObject = e.streams[0] || new MediaStream([e.track]);
      audio.play?.().catch(() => {});
    });
    pc.addEventListener("connectionstatechange", () => {
      if (pc.connectionState === "failed") this.hangUp(seat);
      this.paint();
    });
    this.peers.set(seat, p);
    return p;
  }

  /** Which way the sound goes with ``key`` (a seat, or "L<n>" a listener): nothing
   * from a muted seat, nothing from a listener, nothing to anyone from a listener. */
  direction(key) {
    if (this.listen) return "recvonly";
    if (typeof key === "string") return "sendonly";
    return this.muted.has(key) ? "sendonly" : "sendrecv";
  }

  async call(seat) {
    if (this.peers.has(seat)) this.hangUp(seat);
    const { pc } = this.peer(seat);
    const track = this.stream?.getAudioTracks()[0];
    pc.addTransceiver(track || "audio", { direction: this.direction(seat), streams: this.stream ? [this.stream] : [] });
    await this.offer(seat);
  }

  async offer(seat) {
    const p = this.peers.get(seat);
    if (!p) return;
    p.making = true;
    try {
      await p.pc.setLocalDescription(await p.pc.createOffer());
      await gathered(p.pc);
      this.send(seat, "offer", p.pc.localDescription.sdp);
    } finally {
      p.making = false;
    }
  }

  async signal(seat, msg) {
    if (!this.joined) return;
    if (msg.kind === "answer") {
      const p = this.peers.get(seat);
      if (p && p.pc.signalingState === "have-local-offer") {
        await p.pc.setRemoteDescription({ type: "answer", sdp: msg.sdp });
        this.renegotiate(seat);
      }
      return;
    }
    let p = this.peers.get(seat);
    if (p && p.pc.signalingState !== "stable") {
      // both offered at once: the higher seat gives way (rolls its own back)
      if (typeof seat === "number" && this.me() < seat) return;
      await p.pc.setLocalDescription({ type: "rollback" });
    }
    if (p) {
      try {
        await p.pc.setRemoteDescription({ type: "offer", sdp: msg.sdp });
      } catch {
        this.hangUp(seat);               // a new call from that seat (it came back)
        p = null;
      }
    }
    if (!p) {
      p = this.peer(seat);
      await p.pc.setRemoteDescription({ type: "offer", sdp: msg.sdp });
      const tr = p.pc.getTransceivers()[0];
      const track = this.stream?.getAudioTracks()[0];
      if (tr && track) {
        await tr.sender.replaceTrack(track);
        tr.sender.setStreams?.(this.stream);
      }
    }
    const tr = p.pc.getTransceivers()[0];
    if (tr) tr.direction = this.direction(seat);
    await p.pc.setLocalDescription(await p.pc.createAnswer());
    await gathered(p.pc);
    this.send(seat, "answer", p.pc.localDescription.sdp);
    this.renegotiate(seat);
  }

  /** Offer again if what this side wants from ``seat`` is not what was agreed. */
  renegotiate(seat) {
    if (this.listen || typeof seat === "string") return;   // a listener's call never changes
    const p = this.peers.get(seat);
    if (!p || p.making || p.pc.signalingState !== "stable") return;
    const tr = p.pc.getTransceivers()[0];
    if (tr && tr.currentDirection && tr.currentDirection !== "stopped"
        && wantsToHear(tr.currentDirection) !== !this.muted.has(seat)) {
      tr.direction = this.direction(seat);
      this.offer(seat).catch(() => this.hangUp(seat));
    }
  }

  send(seat, kind, sdp) {
    const gameId = this.gameId();
    if (!gameId) return;
    const to = typeof seat === "string" ? { listener: Number(seat.slice(1)) } : { to: seat };
    this.sendFn({ type: "voice_signal", game_id: gameId, ...to, kind, sdp: trimSdp(sdp) });
  }

  hangUp(seat) {
    const p = this.peers.get(seat);
    if (!p) return;
    this.peers.delete(seat);
    p.pc.close();
    p.audio.srcObject = null;
    p.audio.remove();
    this.levels.delete(seat);
  }

  /** Seats that left the voice: their calls end. */
  closeGone() {
    for (const key of [...this.peers.keys()]) {
      const gone = typeof key === "string" ? !this.listenerIds.includes(Number(key.slice(1))) : !this.inVoice.has(key);
      if (gone) this.hangUp(key);
    }
  }

  /** Mute (or hear again) one seat: at once here, and no longer sent (offered again). */
  setMuted(seat, muted) {
    if (muted) this.muted.add(seat);
    else this.muted.delete(seat);
    const p = this.peers.get(seat);
    if (p) {
      p.audio.muted = muted;
      this.renegotiate(seat);
    }
    this.paint();
  }

  // -- who is speaking -----------------------------------------------------------------
  readLevels() {
    const me = this.me();
    if (this.info && me !== this.lastMe) {     // the seat became known (the first deal)
      this.lastMe = me;
      this.sync();
    }
    if (!this.joined) {
      if (this.levels.size) this.levels.clear();
    } else {
      const track = this.stream?.getAudioTracks()[0];
      if (me !== null) this.levels.set(me, track?.enabled && this.meter ? this.meter.read() : 0);
      for (const [seat, p] of this.peers) {
        if (typeof seat === "string") continue;          // a listener: it sends nothing
        const src = p.pc.getReceivers()[0]?.getSynchronizationSources?.()[0];
        const fresh = src && performance.now() - src.timestamp < 1000;
        this.levels.set(seat, this.muted.has(seat) || !fresh ? 0 : src.audioLevel || 0);
      }
    }
    for (const badge of this.root.querySelectorAll(".badge[data-seat]")) {
      const seat = Number(badge.dataset.seat);
      badge.classList.toggle("voice-in", this.inVoice.has(seat));
      badge.classList.toggle("voice-speaking", (this.levels.get(seat) || 0) > SPEAKING);
    }
    if (!this.panel.hidden) {
      for (const bar of this.panel.querySelectorAll(".voice-level[data-seat]")) {
        const level = this.levels.get(Number(bar.dataset.seat)) || 0;
        bar.style.setProperty("--level", String(Math.min(1, level * 3)));
        bar.closest(".voice-seat")?.classList.toggle("speaking", level > SPEAKING);
      }
    }
  }

  // -- drawing -------------------------------------------------------------------------
  paint() {
    const can = this.available();
    this.button.hidden = !can;
    if (!can && !this.panel.hidden) this.toggle(false);
    this.button.innerHTML = `${MIC_SVG}<span class="voice-label"></span>`;
    this.button.querySelector(".voice-label").textContent = t(this.joined ? (this.listen ? "voice.listening" : "voice.on") : "voice.open");
    this.button.setAttribute("aria-label", t("voice.title"));
    this.button.setAttribute("aria-pressed", this.joined ? "true" : "false");
    this.button.classList.toggle("live", this.joined);
    this.applyMic();
    this.ptt.textContent = t("voice.ptt");
    if (!this.panel.hidden) this.paintPanel();
  }

  paintPanel() {
    const me = this.me();
    const players = this.players() || [];
    const ptt = getChoice("voiceMode") === "ptt";
    const join = h("button", { type: "button", class: `btn small voice-join${this.joined ? "" : " primary"}`,
      onclick: () => {
        this.wanted = !(this.joined || this.joining);
        this.meter?.ctx.resume?.().catch(() => {});
        this.sync();
      } }, t(this.joined ? (this.listen ? "voice.unlisten" : "voice.leave") : this.joining ? "voice.joining" : this.listen ? "voice.listen" : "voice.join"));
    const mode = h("div", { class: "voice-mode", role: "radiogroup", "aria-label": t("voice.mode") },
      ...[["open", "voice.mode.open"], ["ptt", "voice.mode.ptt"]].map(([v, key]) =>
        h("button", { type: "button", class: "chip-btn", role: "radio", dataset: { mode: v },
          "aria-checked": (getChoice("voiceMode") === v) ? "true" : "false",
          onclick: () => setChoice("voiceMode", v) }, t(key))));
    const rows = [0, 1, 2, 3].filter((s) => (!players[s]?.bot || s === me) && players[s]).map((seat) => {
      const self = seat === me;
      const inVoice = this.inVoice.has(seat);
      const name = self ? t("seat.self") : seatName(seat, me, players);
      const state = self
        ? (this.joined ? (ptt ? t("voice.state.ptt") : this.micOff ? t("voice.state.micoff") : t("voice.state.open")) : t("voice.state.out"))
        : (inVoice ? (this.peers.get(seat)?.pc.connectionState === "connected" ? t("voice.state.in") : t("voice.state.connecting")) : t("voice.state.out"));
      const control = self
        ? (this.joined && !ptt ? h("button", { type: "button", class: "chip-btn voice-mic", "aria-pressed": this.micOff ? "true" : "false",
          onclick: () => {
            this.micOff = !this.micOff;
            this.applyMic();
            this.paintPanel();
          } }, t(this.micOff ? "voice.mic.on" : "voice.mic.off")) : null)
        : h("button", { type: "button", class: "chip-btn voice-mute", dataset: { seat: String(seat) },
          "aria-pressed": this.muted.has(seat) ? "true" : "false", disabled: !inVoice && !this.muted.has(seat),
          onclick: () => this.setMuted(seat, !this.muted.has(seat)) }, t(this.muted.has(seat) ? "voice.unmute" : "voice.mute"));
      return h("div", { class: `voice-seat${inVoice ? " in" : ""}`, dataset: { seat: String(seat) } },
        h("span", { class: "voice-name" }, name),
        h("span", { class: "voice-level", dataset: { seat: String(seat) }, "aria-hidden": "true" }),
        h("small", { class: "voice-state" }, state),
        control);
    });
    const close = h("button", { type: "button", class: "talk-close", "aria-label": t("talk.close"),
      onclick: () => this.toggle(false) }, "×");
    this.panel.setAttribute("aria-label", t("voice.title"));
    const listeners = this.listenerIds.length
      ? h("small", { class: "voice-listeners" }, t("voice.listeners", { n: this.listenerIds.length })) : null;
    const note = this.listen ? "voice.note.listen" : this.info?.room ? "voice.note.room" : "voice.note.quick";
    this.panel.replaceChildren(...[
      h("div", { class: "talk-head" }, h("span", {}, t("voice.title")), close),
      h("div", { class: "voice-top" }, join, this.listen ? null : mode),
      h("div", { class: "voice-seats" }, ...rows),
      listeners,
      h("small", { class: "voice-note" }, t(note))].filter(Boolean));
    this.readLevels();
  }

  rerender() {
    this.paint();
  }

  destroy() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("keyup", this.onKey);
    this.unPref?.();
    this.leave();
  }
}

/** Does an agreed direction (ours) bring the other seat's sound here? */
function wantsToHear(direction) {
  return direction === "sendrecv" || direction === "recvonly";
}

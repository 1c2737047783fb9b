// The application shell: screens by URL hash, the account, and the game channel.
//
//   #/            lobby (大廳)          #/table          the game in progress
//   #/help        rules and 台 help    #/replay/<id>    replay viewer
//
// The app holds the state; screens only render it. A seat's ticket is kept in
// sessionStorage so reloading the page sits the player back at their table.

import * as api from "./api.js";
import { applyI18n, errorText, onLangChange, t, toggleLang } from "./i18n.js";
import { GameSocket } from "./net.js";
import { GameController } from "./game.js";
import { paintOnline, renderLobby } from "./lobby.js";
import { shareText } from "./share.js";
import { renderHelp } from "./help.js";
import { renderRules } from "./rules.js";
import { renderLearn } from "./learn.js";
import { leaveReplay, renderReplay } from "./replay.js";
import { applyTileSize, openSettings } from "./settings.js";
import { loadVoicePacks } from "./speech.js";
import { getChoice, onPrefChange, setChoice } from "./prefs.js";
import { loadTalk } from "./talk.js";
import { noticeStack } from "./friends.js";
import { WatchView } from "./watch.js";

const TICKET_KEY = "twmj.ticket";
const FRIENDS_EVERY_MS = 5000;
const ONLINE_EVERY_MS = 15_000;
const LINK_BACK_MS = 4000;
const screen = document.getElementById("screen");
const toastEl = document.getElementById("toast");

const state = {
  account: null,
  profiles: null,
  challenge: null,
  leaderboard: null,
  games: null,
  queue: null,
  room: null,
  busy: false,
  bots: null,
  options: { profile: "standard", stake: "low", rounds: 1, bots: "", speed: getChoice("speed") },
  // what the player typed: kept across re-renders and failed requests
  form: { name: "", password: "", code: "", friend: "" },
  gift: null,         // {kind: "welcome" | "daily", amount}: shown once in the lobby
  friends: null,      // GET /friends: friends and where they are, requests, 最近同桌
  invites: [],        // invitations to a room, each {id, from, code, until}
  refusal: null,      // "too_many_tables": the lobby leads with the games to finish or forfeit
  forfeit: null,      // the game whose 認輸 is being asked about
};
let watchView = null;
const noticeEl = document.createElement("div");
noticeEl.className = "notice-layer";
document.body.append(noticeEl);
let dailyAsked = false;
let socket = null;
let game = null;
let roomPoll = null;
let sitting = null;        // {seat, tries}: a room's seat being sat down at
const SIT_TRIES = 30;
let learnView = null;

function toast(message) {
  toastEl.textContent = message;
  toastEl.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (toastEl.hidden = true), 5000);
}

/** A failed request: said in the page's language (by the error's reason or code).
 * Any refusal ends a wait (the quick match's spinner); too many tables shows the
 * games in progress, each with 回到牌桌 and 認輸, at the lobby's head. */
function fail(err, params = {}) {
  state.busy = false;
  state.queue = null;
  if (err instanceof api.ApiError && err.code === "too_many_tables") return refuseTooMany();
  if (err instanceof api.ApiError && err.code === "offline") toast(t("status.offline"));
  else if (err instanceof api.ApiError) toast(errorText(err, params));
  else toast(t("err.unknown", { code: String(err?.message || err) }));
  render();
}

function refuseTooMany() {
  state.refusal = "too_many_tables";
  if ((location.hash || "#/") !== "#/") location.hash = "#/";
  render();
  window.scrollTo(0, 0);           // the games in progress lead the lobby
  // the list as it stands now (a game may have ended meanwhile)
  api.games().then((g) => {
    state.games = g.games;
    if ((location.hash || "#/") === "#/") render();
  }, () => {});
}

function saveTicket(ticket) {
  try {
    if (ticket) sessionStorage.setItem(TICKET_KEY, ticket);
    else sessionStorage.removeItem(TICKET_KEY);
  } catch {
    /* no session storage: a reload returns to the lobby */
  }
}

function savedTicket() {
  try {
    return sessionStorage.getItem(TICKET_KEY);
  } catch {
    return null;
  }
}

// ---- the game channel -------------------------------------------------------

// The link to the server: a lost one is said over the top of every screen (the
// table's title row; never over the hand or the calls), with the reopening's count;
// its return is said once. The table freezes its clocks and takes no move meanwhile.
const linkEl = document.createElement("div");
linkEl.className = "link-banner";
linkEl.setAttribute("role", "status");
linkEl.hidden = true;
document.body.append(linkEl);
let linkDown = null;          // {attempt} while the link is lost

let linkBack = false;        // 已重新連線: said in the banner's place for a moment

function onLink({ up, attempt }) {
  const was = linkDown;
  if (!up && !game && state.queue) {
    // the server drops a closed socket's place in the queue: the spinner would turn for
    // a match nobody is making, so it stops and says to ask again
    state.queue = null;
    toast(t("queue.lost"));
    render();
  }
  linkDown = up ? null : { attempt };
  linkBack = Boolean(up && was);
  clearTimeout(onLink.timer);
  if (linkBack) {
    onLink.timer = setTimeout(() => {
      linkBack = false;
      paintLink();
    }, LINK_BACK_MS);
  }
  paintLink();
  game?.setLink(up);
}

function paintLink() {
  linkEl.hidden = !linkDown && !linkBack;
  linkEl.classList.toggle("back", !linkDown && linkBack);
  document.body.dataset.link = linkDown ? "lost" : "up";
  if (linkDown) linkEl.textContent = t("link.lost", { n: linkDown.attempt });
  else if (linkBack) linkEl.textContent = t("link.back");
}

/** The page lets go of its socket on purpose (leaving, signing out): nothing is lost. */
function dropSocket() {
  socket?.close();
  socket = null;
  linkDown = null;
  linkBack = false;
  paintLink();
}

window.addEventListener("online", () => socket?.hurry());

function ensureSocket() {
  if (socket) return socket;
  socket = new GameSocket({ token: api.getToken(), onMessage, onLink,
                            onStatus: (s) => (document.body.dataset.socket = s) });
  const ticket = savedTicket();
  if (ticket) socket.ticket = ticket;
  socket.connect();
  return socket;
}

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      state.account = msg.account;
      if (location.hash.startsWith("#/table") && !game) enterTable();
      break;
    case "queued":
      state.queue = msg;
      render();
      break;
    case "matched":
      state.queue = null;
      saveTicket(msg.ticket);
      enterTable();
      break;
    case "snapshot":
      sitting = null;
      if (!game) enterTable();
      game.handle(msg);
      break;
    case "error":
      if (!game && state.queue) {
        // a refused quick match: its spinner stops, and the refusal says what to do
        state.queue = null;
        render();
      }
      if (msg.code === "not_started") {
        // a saved ticket's room not started: nothing to do; sitting down too soon: asked
        // again, and said (below) once the tries are spent
        if (!sitting || sitAgain()) return;
        sitting = null;
      }
      if (game) game.handle(msg);
      else fail(new api.ApiError(0, msg.code, msg.message, msg.reason || null));
      break;
    case "pong":
      break;
    case "notice":
      onNotice(msg);
      break;
    case "watching":
    case "watch":
      if (msg.type === "watching") enterWatch();
      watchView?.handle(msg);
      break;
    case "voice":
    case "voice_joined":
    case "voice_signal":
      (game || watchView)?.handle(msg);     // a watcher listens where the host allows it
      break;
    case "hand_end":
    case "game_end":
      if (watchView && !game) watchView.handle(msg);
      else game?.handle(msg);
      if (msg.type === "game_end" && !watchView) saveTicket(null);
      break;
    default:
      game?.handle(msg);
  }
}

function enterTable() {
  state.gift = null;       // said once: a game started is past the lobby's greeting
  if (!game) {
    const root = document.createElement("main");
    root.className = "table-screen";
    game = new GameController(root, {
      socket: ensureSocket(),
      account: state.account,
      onLeave: leaveTable,
      onQuit: quitTable,
      onError: (m) => toast(errorText(m)),
    });
    game.root = root;
    if (linkDown) game.setLink(false);
  }
  if (location.hash !== "#/table") location.hash = "#/table";
  else render();
}

// ---- friends, notices, 觀戰 ------------------------------------------------------

/** A notice from the server (any worker): an invitation, a friend request, … */
function onNotice(msg) {
  const d = msg.data || {};
  if (msg.kind === "second_connection") return game?.connections(d);
  if (msg.kind === "invite") {
    state.invites = [...state.invites.filter((i) => i.id !== d.id), { ...d, until: Date.now() + d.expires_in * 1000 }];
    paintNotices();
    setTimeout(paintNotices, d.expires_in * 1000 + 50);     // gone when it expires
  } else if (["friend_request", "friend_accepted", "invite_declined"].includes(msg.kind)) {
    toast(t(`notice.${msg.kind}`, { from: d.from || "" }));
  }
  if (msg.kind !== "invite_declined") refreshFriends();
}

/** Invitations stay over every screen (the lobby and a table alike), counting down. */
function paintNotices() {
  state.invites = state.invites.filter((i) => i.until > Date.now());
  const stack = noticeStack(state, actions);
  noticeEl.replaceChildren(...(stack ? [stack] : []));
  clearTimeout(paintNotices.timer);
  if (state.invites.length) paintNotices.timer = setTimeout(paintNotices, 1000);
}

async function refreshFriends() {
  if (!api.getToken() || !state.account || state.account.guest) return;
  try {
    state.friends = await api.friends();
  } catch {
    return;
  }
  if ((location.hash || "#/") === "#/") render();
}

function enterWatch() {
  if (!watchView) {
    const root = document.createElement("main");
    root.className = "table-screen";
    watchView = new WatchView(root, { onLeave: leaveWatch, send: (m) => socket?.send(m), pace: true,
      onError: (m) => toast(errorText(m)) });
    watchView.root = root;
  }
  if (location.hash !== "#/watch") location.hash = "#/watch";
  else render();
}

function leaveWatch() {
  watchView?.destroy();           // out of the table's voice first (if it listened)
  socket?.send({ type: "unwatch" });
  watchView = null;
  location.hash = "#/";
  refreshLobby();
}

function leaveTable() {
  game?.destroy();
  game = null;
  saveTicket(null);
  location.hash = "#/";
  refreshLobby();
}

/** 離開 mid-game (confirmed): the seat goes on 託管 now, and this page lets go of
 * the table; the lobby offers 回到牌桌 for it. */
function quitTable() {
  socket?.send({ type: "auto", on: true });
  dropSocket();
  leaveTable();
}

// ---- lobby actions ----------------------------------------------------------

async function session(fn, fresh = false) {
  state.busy = true;
  render();
  try {
    state.account = await fn();
    state.form.password = "";
    // a new account: its 新人禮包 (the day's login bonus starts tomorrow)
    if (fresh) state.gift = { kind: "welcome", amount: state.account.coins };
    dailyAsked = fresh;
    dropSocket();
    state.busy = false;
    await refreshLobby();
  } catch (e) {
    fail(e);
  }
}

async function sitDown(seat) {
  saveTicket(seat.ticket);
  sitting = { seat, tries: 0 };
  ensureSocket().send({ type: "join", ticket: seat.ticket });
}

/** The server answered a seat's join with not_started: its game is still being made
 * (a moment on a busy server). Asked again a little later, a bounded number of times. */
function sitAgain() {
  if (sitting.tries >= SIT_TRIES) return false;
  sitting.tries += 1;
  const { seat } = sitting;
  setTimeout(() => {
    if (sitting?.seat === seat && !game) ensureSocket().send({ type: "join", ticket: seat.ticket });
  }, 1000);
  return true;
}

function stopRoomPoll() {
  clearInterval(roomPoll);
  roomPoll = null;
}

/** Read the room every 2 s until its game starts. A request still out when the next
 * tick comes is not doubled; one that fails for a moment (offline, a busy server) is
 * tried again on the next tick; only a room that is gone ends the waiting. */
function pollRoom(seat) {
  stopRoomPoll();
  let asking = false;
  const poll = setInterval(async () => {
    if (asking) return;
    asking = true;
    try {
      const { room } = await api.room(seat.code);
      if (roomPoll !== poll) return;
      state.room = room;
      if (room.started) {
        stopRoomPoll();
        state.room = null;
        await sitDown(seat);
      } else render();
    } catch (e) {
      if (roomPoll !== poll) return;
      if (e instanceof api.ApiError && e.status === 404) {
        stopRoomPoll();
        state.room = null;
        fail(e, { code: seat.code });
      } else if (e instanceof api.ApiError && e.code === "offline") toast(t("status.offline"));
    } finally {
      asking = false;
    }
  }, 2000);
  roomPoll = poll;
}

/** The room request: the lobby's options, `bots` only when the player chose one. */
function roomOptions() {
  const { bots, watch, hints, voice, voice_watchers: listen, ...rest } = state.options;
  const out = bots ? { ...rest, bots } : rest;
  if (hints) out.hints = true;                                // 教練: the host may allow it
  if (voice === false) out.voice = false;                     // 開黑: the host may forbid it
  else if (listen === true) out.voice_watchers = true;        // … or let watchers listen
  return watch === false ? { ...out, watch: false } : out;    // 觀戰: the host may forbid it
}

const actions = {
  guest: () => session(api.guest, true),
  /** `then` for a signed-in player; a newcomer is first signed in as a guest (with its
   * 新人禮包), so 快速配對 and 與電腦對戰 are one tap from the door. */
  asGuest: async (then) => {
    if (!state.account) await session(api.guest, true);
    if (state.account) then();
  },
  login: (name, pw) => session(() => api.login(name, pw)),
  register: (name, pw) => session(() => api.register(name, pw), true),
  closeGift: () => {
    state.gift = null;
    render();
  },
  logout: () => {
    api.logout();
    dropSocket();
    state.account = null;
    state.games = null;
    render();
  },
  option: (key, value) => {
    state.options[key] = value;
    if (key === "speed") setChoice("speed", value);     // remembered, as in 設定
  },
  quick: (mode) => {
    const { profile, stake } = state.options;
    ensureSocket().send({ type: "quick_match", mode, profile, stake });
    state.queue = { waiting: 1, fill_after: 0 };
    render();
  },
  cancelQueue: () => {
    socket?.send({ type: "cancel_match" });
    state.queue = null;
    render();
  },
  // Against bots: a private room started at once; the server seats bots in the empty chairs.
  bots: async () => {
    state.busy = true;
    render();
    try {
      const seat = await api.createRoom(roomOptions());
      await api.startRoom(seat.code);
      state.busy = false;
      await sitDown(seat);
    } catch (e) {
      fail(e);
    }
  },
  createRoom: async () => {
    try {
      const seat = await api.createRoom(roomOptions());
      state.room = seat.room;
      render();
      pollRoom(seat);
      refreshFriends();          // who can be invited now (邀請)
    } catch (e) {
      fail(e);
    }
  },
  joinRoom: async (code) => {
    if (!code) return;
    try {
      const seat = await api.joinRoom(code);
      if (seat.room.started) await sitDown(seat);
      else {
        state.room = seat.room;
        render();
        pollRoom(seat);
      }
    } catch (e) {
      fail(e, { code });
    }
  },
  // 離開房間: the seat is given up (the host's leaving closes the room for everyone)
  leaveRoom: async () => {
    const code = state.room?.code;
    if (!code) return;
    try {
      await api.leaveRoom(code);
    } catch (e) {
      // a room already gone (404) has no seat left to give up: the lobby forgets it as
      // if left; anything else (started, offline) is said, and the page stays in it
      if (!(e instanceof api.ApiError && e.status === 404)) return fail(e, { code });
    }
    stopRoomPoll();
    state.room = null;
    toast(t("room.left"));
    render();
    refreshFriends();
  },
  // the button is drawn only for the host of the room shown: its code is the room's
  startRoom: async () => {
    if (!state.room) return;
    try {
      await api.startRoom(state.room.code);
    } catch (e) {
      fail(e);
    }
  },
  addFriend: (name) => friendCall(async () => {
    const r = await api.addFriend(name);
    if (state.form.friend.trim() === name) state.form.friend = "";    // sent: the field is free again
    return r;
  }, (r) => t(r.state === "friends" ? "friends.now" : "friends.sent", { name: r.name })),
  acceptFriend: (name) => friendCall(() => api.acceptFriend(name), () => t("friends.now", { name })),
  declineFriend: (name) => friendCall(() => api.declineFriend(name)),
  removeFriend: (name) => friendCall(() => api.removeFriend(name)),
  blockPlayer: (name) => friendCall(() => api.blockPlayer(name)),
  unblockPlayer: (name) => friendCall(() => api.unblockPlayer(name)),
  inviteFriend: (name) => friendCall(() => api.invite(state.room.code, name), () => t("notice.invited", { name })),
  watch: (gameId) => ensureSocket().send({ type: "watch", game_id: gameId }),
  shareRoom: async (code) => {
    const how = await shareText({ title: t("app.title"), text: t("room.share.text", { code }), url: location.origin + "/" });
    if (how !== "cancelled") toast(t(`room.share.${how}`, { code }));
  },
  joinInvite: async (inv) => {
    state.invites = state.invites.filter((i) => i.id !== inv.id);
    paintNotices();
    if (game) return toast(t("err.code.seated"));
    try {
      const seat = await api.acceptInvite(inv.id);
      if (seat.room.started) await sitDown(seat);
      else {
        state.room = seat.room;
        location.hash = "#/";
        render();
        pollRoom(seat);
      }
    } catch (e) {
      fail(e);
    }
  },
  declineInvite: async (inv) => {
    state.invites = state.invites.filter((i) => i.id !== inv.id);
    paintNotices();
    try {
      await api.declineInvite(inv.id);
    } catch {
      /* expired meanwhile: nothing to decline */
    }
  },
  form: (key, value) => {
    state.form[key] = value;
  },
  closeRefusal: () => {
    state.refusal = null;
    render();
  },
  askForfeit: (g) => {
    state.forfeit = g;
    render();
    document.querySelector(".forfeit-keep")?.focus();
  },
  keepGame: () => {
    state.forfeit = null;
    render();
  },
  // 認輸: the game ends now (nobody else at it) or a bot plays the seat to its end
  forfeit: async (g) => {
    state.forfeit = null;
    state.busy = true;
    render();
    try {
      const r = await api.forfeit(g.game_id);
      state.busy = false;
      state.refusal = null;
      if (game && game.gameId === g.game_id) {
        game.destroy();
        game = null;
        saveTicket(null);
      }
      toast(t(r.outcome === "bot_plays" ? "forfeit.bot" : "forfeit.ended"));
    } catch (e) {
      state.busy = false;
      toast(e instanceof api.ApiError ? errorText(e) : t("err.unknown", { code: String(e?.message || e) }));
    }
    await refreshLobby();
  },
  // 回到牌桌: sit back down at an unfinished game (its seat's ticket from GET /games)
  resume: (g) => {
    state.refusal = null;
    if (game && game.gameId === g.game_id) {
      location.hash = "#/table";
      return;
    }
    if (game) {
      game.destroy();
      game = null;
    }
    saveTicket(g.ticket);
    if (socket) socket.send({ type: "join", ticket: g.ticket });
    else ensureSocket();
  },
};

/** A friends request; a toast says what happened; the list is read again. */
async function friendCall(fn, said = null) {
  try {
    const r = await fn();
    if (said) toast(said(r));
  } catch (e) {
    fail(e);
  }
  await refreshFriends();
}

// The account as soon as it is known: a replay opened by a link waits for it to pick
// the player's own seat, instead of being drawn again (and reset) when it arrives.
// Asked before the first render, so a replay opened by a link (#/replay/<id>) knows
// whose game it is from the start; refreshLobby then takes this answer.
let bootAccount = api.getToken() ? api.me() : null;
let accountReady = bootAccount ? bootAccount.then((a) => a, () => null) : Promise.resolve(null);

async function refreshLobby() {
  const jobs = [
    api.profiles().then((p) => {
      state.profiles = p;
      if (!p.profiles.includes(state.options.profile)) state.options.profile = p.default;
    }),
    api.leaderboard().then((l) => (state.leaderboard = l.players)),
    api.bots().then((b) => (state.bots = b)),
    api.online().then((o) => (state.online = o.online)).catch(() => {}),
  ];
  if (api.getToken() && !dailyAsked) {
    // 每日登入獎勵: asked once a page load; the server pays it at most once a day
    dailyAsked = true;
    try {
      const d = await api.daily();
      if (d.paid > 0) state.gift = { kind: "daily", amount: d.paid };
    } catch {
      /* an older server, or offline: no bonus shown */
    }
  }
  if (api.getToken()) {
    const me = (bootAccount ?? api.me()).then((a) => (state.account = a));
    bootAccount = null;
    accountReady = me.then((a) => a, () => null);
    jobs.push(me);
    jobs.push(api.games().then((g) => (state.games = g.games)));
    jobs.push(api.challenge().then((c) => (state.challenge = c)).catch(() => {}));
    // friends, and the game channel open in the lobby too: invitations reach the player
    jobs.push(me.then((a) => (a.guest ? null : api.friends().then((f) => (state.friends = f)))).catch(() => {}));
    ensureSocket();
  }
  const results = await Promise.allSettled(jobs);
  if (!api.getToken()) state.account = null;
  const offline = results.find((r) => r.status === "rejected" && r.reason?.code === "offline");
  if (offline) toast(t("status.offline"));
  // Only the lobby shows what was just fetched. Drawing a replay, the help or the
  // rules page again would throw away where the reader is (the replay's step, the scroll).
  if (!isReadingRoute()) render();
}

function isReadingRoute() {
  const hash = location.hash || "#/";
  return ["#/replay/", "#/help", "#/rules", "#/learn"].some((p) => hash.startsWith(p));
}

// ---- screens ----------------------------------------------------------------

function render() {
  const hash = location.hash || "#/";
  document.body.classList.toggle("in-game", hash.startsWith("#/table") || hash.startsWith("#/watch"));
  for (const a of document.querySelectorAll(".app-nav a")) {
    a.setAttribute("aria-current", a.getAttribute("href") === hash ? "page" : "false");
  }
  if (!hash.startsWith("#/replay/")) leaveReplay();
  if (hash.startsWith("#/watch")) {
    if (watchView) screen.replaceChildren(watchView.root);
    else location.hash = "#/";
  } else if (hash.startsWith("#/table")) {
    if (game) screen.replaceChildren(game.root);
    else if (savedTicket()) ensureSocket();
    else location.hash = "#/";
  } else if (hash.startsWith("#/rules")) {
    const profile = hash.split("/")[2] || state.options.profile;
    renderRules(screen, { profile, load: api.profileRules });
  } else if (hash.startsWith("#/learn")) {
    // the tutorial keeps its place across a language switch (it redraws itself)
    if (!learnView || !screen.contains(learnView.root)) {
      learnView?.destroy();
      learnView = renderLearn(screen);
    }
  } else if (hash.startsWith("#/help")) {
    const profile = hash.split("/")[2] || state.options.profile;
    renderHelp(screen, { profile, load: api.profileHelp });
  } else if (hash.startsWith("#/replay/")) {
    renderReplay(screen, { gameId: decodeURIComponent(hash.slice("#/replay/".length)), api,
                           me: state.account, account: accountReady });
  } else {
    renderLobby(screen, state, actions);
  }
  applyI18n(document);
  document.body.dataset.ready = "1";
}

document.querySelector(".app-lang").addEventListener("click", () => toggleLang());
document.querySelector(".app-settings").addEventListener("click", () => openSettings());
applyTileSize();
loadVoicePacks();
loadTalk();
onPrefChange((name, value) => {
  if (name === "speed") {
    state.options.speed = value;     // the tables one makes from now on
    if ((location.hash || "#/") === "#/") render();
  }
});
onLangChange(() => {
  render();
  paintNotices();
  paintLink();
});
/** Which screen a hash shows ("" the lobby, "replay", "help"…): a new one opens at its top. */
const screenOf = (hash) => (hash || "#/").split("/")[1] || "";
let shownScreen = screenOf(location.hash);
window.addEventListener("hashchange", () => {
  // Back from a table in play asks first (the table stays; 離開 in its question leaves)
  if (game && shownScreen === "table" && screenOf(location.hash) !== "table" && game.view.backPressed()) {
    history.pushState(null, "", "#/table");
    return;
  }
  render();
  // the lobby's 重播 link is far down its page: the replay opened 20-1000 px down, its
  // title and hand chips under the app bar
  const now = screenOf(location.hash);
  if (now !== shownScreen) window.scrollTo(0, 0);
  shownScreen = now;
  // back in the lobby (the back button too): show the games in progress as they are now
  if ((location.hash || "#/") === "#/" && api.getToken()) refreshLobby();
});
applyI18n(document);
render();
if (savedTicket() && api.getToken()) {
  location.hash = "#/table";
  ensureSocket();
}
refreshLobby();
// where friends are changes without a notice: read it again now and then in the lobby
setInterval(() => {
  if ((location.hash || "#/") === "#/" && !document.hidden) refreshFriends();
}, FRIENDS_EVERY_MS);
// and how many are online (「N 人在線」): the server holds the figure a few seconds
setInterval(() => {
  if ((location.hash || "#/") !== "#/" || document.hidden) return;
  api.online().then((o) => {
    state.online = o.online;
    paintOnline(screen, state);
  }, () => {});
}, ONLINE_EVERY_MS);


// Installable (加到主畫面): the service worker keeps a copy of the client and shows a
// page that says the game needs its server when there is no connection.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("sw.js").catch(() => {
    /* no worker: the app still works online */
  });
}

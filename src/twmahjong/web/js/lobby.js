// The lobby (大廳): account or guest, coins, and every way to sit down at a table.
//
// Pure rendering: `renderLobby(root, state, actions)` draws the state the app
// holds (account, profiles, queue, room) and wires buttons to `actions`, which
// talk to the server. Re-rendering after each change keeps it simple.

import { pick, t, tn } from "./i18n.js";
import { h } from "./dom.js";
import { friendsPanel } from "./friends.js";

function accountPanel(state, actions) {
  const acc = state.account;
  if (!acc) {
    // what the player typed survives a re-render and a refused request
    const name = h("input", { id: "login-name", name: "name", autocomplete: "username", required: true, minlength: 2,
      value: state.form?.name ?? "", oninput: (e) => actions.form?.("name", e.target.value) });
    const pw = h("input", { id: "login-pw", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: 6,
      value: state.form?.password ?? "", oninput: (e) => actions.form?.("password", e.target.value) });
    const form = h("form", { class: "login-form", onsubmit: (e) => { e.preventDefault(); actions.login(name.value, pw.value); } },
      h("label", { for: "login-name" }, t("account.name")), name,
      h("label", { for: "login-pw" }, t("account.password")), pw,
      h("div", { class: "form-buttons" },
        h("button", { type: "submit", class: "btn" }, t("account.login")),
        h("button", { type: "button", class: "btn ghost", onclick: () => actions.register(name.value, pw.value) }, t("account.register"))));
    return h("section", { class: "panel account-panel", "aria-labelledby": "account-title" },
      h("h2", { id: "account-title" }, t("account.title")),
      h("button", { type: "button", class: "btn big primary guest-btn", onclick: actions.guest }, t("account.guest")),
      form);
  }
  return h("section", { class: "panel account-panel signed-in", "aria-labelledby": "account-title" },
    h("h2", { id: "account-title" }, t("account.title")),
    h("p", { class: "account-name" }, acc.name, acc.guest ? h("span", { class: "tag" }, t("account.guest.badge")) : null),
    h("p", { class: "account-coins" }, t("account.coins", { n: Number(acc.coins).toLocaleString() })),
    h("p", { class: "account-rating" }, t("account.rating", { n: Math.round(acc.rating ?? 1500) })),
    h("button", { type: "button", class: "btn ghost small", onclick: actions.logout }, t("account.logout")));
}

function select(id, label, options, value, onchange, cls = "field") {
  const s = h("select", { id, onchange: (e) => onchange(e.target.value) },
    ...options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
  return h("label", { class: cls, for: id }, h("span", {}, label), s);
}

/** The opponent selector: stake default, adaptive, levels L1-L5, then the
 * personalities grouped by tier (GET /api/v1/bots). */
function botsSelect(state, actions) {
  const cat = state.bots;
  const value = state.options.bots || "";
  const opt = (v, text, title) => h("option", { value: v, selected: v === value, title }, text);
  const groups = [];
  if (cat?.levels?.length) {
    groups.push(h("optgroup", { label: t("bots.levels") }, ...cat.levels.map((l) => opt(l.id, t(`bots.level.${l.id}`)))));
  }
  for (let tier = 1; tier <= 5; tier++) {
    const ps = (cat?.personalities || []).filter((p) => p.tier === tier);
    if (ps.length) {
      groups.push(h("optgroup", { label: t("bots.tier", { n: tier }) },
        ...ps.map((p) => opt(p.id, pick(p), pick({ zh: p.description_zh || p.description, en: p.description })))));
    }
  }
  const s = h("select", { id: "opt-bots", onchange: (e) => actions.option("bots", e.target.value) },
    opt("", t("bots.default")),
    cat?.adaptive ? opt("adaptive", t("bots.adaptive")) : null,
    ...groups);
  return h("label", { class: "field field-wide", for: "opt-bots" }, h("span", {}, t("play.bots.who")), s);
}

function playPanel(state, actions) {
  const p = state.profiles || { profiles: ["standard"], stakes: { low: 1 }, default: "standard" };
  const opts = state.options;
  const profileLabel = (id) => (["standard", "classic", "casual"].includes(id) ? t(`profile.${id}`) : id);
  const stakeLabel = (id) => (["low", "mid", "high"].includes(id) ? t(`stake.${id}`, { n: p.stakes[id] }) : id);
  const disabled = !state.account || state.busy;
  const ch = state.challenge;
  const challengeText = ch && ch.next === null ? t("play.challenge.done") : t("play.challenge", { n: ch?.next ?? 1 });
  return h("section", { class: "panel play-panel", "aria-labelledby": "play-title" },
    h("div", { class: "panel-head" },
      h("h2", { id: "play-title" }, t("play.title")),
      onlineEl(state.online, state.account)),
    // the ways to sit down come first, the table's options after them: on a phone, upright
    // or sideways, the options filled the first screen and 快速配對 was a scroll away
    h("div", { class: "play-buttons" },
      // the two big buttons work from the door: one tap signs a newcomer in as a guest
      // and plays (一鍵匹配), where it took 訪客 and then the button, disabled until then
      h("button", { type: "button", class: "btn big primary quick-btn", disabled: state.busy,
        onclick: () => actions.asGuest(() => actions.quick("casual")) }, t("play.quick")),
      h("button", { type: "button", class: "btn big bots-btn", disabled: state.busy,
        onclick: () => actions.asGuest(actions.bots) }, t("play.bots")),
      h("button", { type: "button", class: "btn ranked-btn", disabled, onclick: () => actions.quick("ranked") }, t("play.ranked")),
      h("button", { type: "button", class: "btn challenge-btn", disabled: disabled || (ch && ch.next === null), onclick: () => actions.quick("challenge") }, challengeText)),
    state.queue ? queuePanel(state.queue, actions) : null,
    h("div", { class: "fields" },
      // the rules take a row of their own: their names ("標準（競賽規則）") do not fit a third of it
      select("opt-profile", t("play.profile"), p.profiles.map((id) => [id, profileLabel(id)]), opts.profile, (v) => actions.option("profile", v),
        "field field-wide"),
      select("opt-stake", t("play.stake"), Object.keys(p.stakes).map((id) => [id, stakeLabel(id)]), opts.stake, (v) => actions.option("stake", v)),
      select("opt-rounds", t("play.rounds"), [1, 2, 3, 4].map((n) => [String(n), tn("play.rounds.n", n)]), String(opts.rounds), (v) => actions.option("rounds", Number(v))),
      speedSelect(state, actions),
      botsSelect(state, actions)));
}

/** 「N 人在線」: the players online now (GET /api/v1/online), beside the play panel's
 * title; nothing until the server has said. */
function onlineEl(figure, me) {
  const shown = typeof figure === "number";
  // the server counted before this page's own socket said hello (it holds the figure a
  // few seconds): a player signed in is online, so never fewer than one
  const n = shown && me ? Math.max(1, figure) : figure;
  return h("span", { class: "online-count", role: "status", hidden: !shown, dataset: { n: shown ? String(n) : "" } },
    shown ? t("lobby.online", { n: n.toLocaleString() }) : "");
}

/** The figure changed while the lobby is shown: only its line is redrawn (a redraw of
 * the whole lobby would close a list the player has open). */
export function paintOnline(root, state) {
  const old = root.querySelector(".online-count");
  if (old) old.replaceWith(onlineEl(state.online, state.account));
}

/** Table speed (快 / 標準 / 慢) for a table made here, with its seconds (GET /profiles). */
function speedSelect(state, actions) {
  const speeds = state.profiles?.speeds || { fast: null, standard: null, slow: null };
  const label = (id) => {
    const s = speeds[id];
    const name = t(`speed.${id}`);
    return s ? t("speed.detail", { name, base: Math.round(s.base), bank: Math.round(s.bank) }) : name;
  };
  const value = state.options.speed || "standard";
  const s = h("select", { id: "opt-speed", onchange: (e) => actions.option("speed", e.target.value) },
    ...Object.keys(speeds).map((id) => h("option", { value: id, selected: id === value }, label(id))));
  return h("label", { class: "field field-wide", for: "opt-speed" }, h("span", {}, t("play.speed")), s);
}

/** 挑戰賽: five tiers, sixteen opponents (name, style line), progress, what unlocks next. */
function ladderPanel(state, actions) {
  const ch = state.challenge;
  if (!ch?.tiers?.length) return null;
  const beaten = ch.beaten ?? 0;
  const next = ch.next;
  const disabled = !state.account || state.busy;
  const unlock = next === null ? t("ladder.done") : next >= ch.tiers.length ? t("ladder.last") : t("ladder.unlock", { n: next, m: next + 1 });
  return h("section", { class: "panel ladder-panel", "aria-labelledby": "ladder-title" },
    h("h2", { id: "ladder-title" }, t("ladder.title")),
    h("p", { class: "ladder-progress" }, t("ladder.progress", { n: beaten })),
    h("p", { class: "ladder-unlock" }, unlock),
    h("ol", { class: "ladder" }, ...ch.tiers.map((tier) => {
      const status = tier.tier <= beaten ? "beaten" : tier.tier === next ? "current" : "locked";
      return h("li", { class: `ladder-tier ${status}`, dataset: { tier: String(tier.tier), status } },
        h("div", { class: "ladder-head" },
          h("span", { class: "ladder-name" }, t("ladder.tier", { n: tier.tier })),
          h("span", { class: `ladder-status ${status}` }, t(`ladder.${status}`)),
          status === "current"
            ? h("button", { type: "button", class: "btn primary small ladder-play", disabled, onclick: () => actions.quick("challenge") }, t("ladder.play", { n: tier.tier }))
            : null),
        h("ul", { class: "ladder-bots" }, ...tier.bots.map((b) =>
          h("li", { class: "ladder-bot", dataset: { bot: b.id } },
            h("strong", {}, pick(b)),
            b.description ? h("span", { class: "ladder-style" }, pick({ zh: b.description_zh || b.description, en: b.description })) : null))));
    })));
}

/** 新人禮包 / 每日登入獎勵: said once, with the coins it brought. */
function giftPanel(state, actions) {
  const g = state.gift;
  if (!g) return null;
  const n = Number(g.amount).toLocaleString();
  return h("section", { class: `panel gift-panel gift-${g.kind}`, role: "status", "aria-labelledby": "gift-title" },
    h("span", { class: "gift-icon", "aria-hidden": "true" }, t("gift.icon")),
    h("div", { class: "gift-text" },
      h("h2", { id: "gift-title" }, t(`gift.${g.kind}.title`)),
      h("p", {}, t(`gift.${g.kind}`, { n }))),
    h("button", { type: "button", class: "btn primary small gift-close", onclick: actions.closeGift }, t("gift.close")));
}

/** Whether `g` (a row of GET /games) has no other person at it: all bots besides me. */
export function aloneAt(g) {
  return (g.players || []).every((n, i) => i === g.seat || !n || n.startsWith("bot:"));
}

/** Unfinished games (GET /games, status "active", not forfeited): each with 回到牌桌
 * and 認輸. After a refusal for too many tables, the panel leads with what to do. */
function activePanel(state, actions) {
  const active = (state.games || []).filter((g) => g.status === "active" && g.ticket && !g.forfeited);
  const refused = state.refusal === "too_many_tables";
  if (!active.length && !refused) return null;
  return h("section", { class: `panel active-panel${refused ? " refused" : ""}`, "aria-labelledby": "active-title",
    role: refused ? "alert" : null },
    h("h2", { id: "active-title" }, t("games.active")),
    refused
      ? h("div", { class: "refusal" },
          h("p", { class: "refusal-text" }, t("refusal.too_many")),
          h("button", { type: "button", class: "btn ghost small refusal-close", onclick: actions.closeRefusal }, t("refusal.close")))
      : null,
    h("ul", { class: "games" }, ...active.map((g) =>
      h("li", { class: "game-row active-game", dataset: { game: g.game_id } },
        h("span", { class: "game-players" }, t("games.active.row", {
          mode: t(`mode.${g.mode}`), stake: t(`stake.${g.stake}`, { n: state.profiles?.stakes?.[g.stake] ?? "" }),
          players: g.players.map((n) => (n && n.startsWith("bot:") ? t("bot") : n)).join("・"),
        })),
        h("span", { class: "game-buttons" },
          h("button", { type: "button", class: "btn primary small resume-btn", onclick: () => actions.resume(g) }, t("games.resume")),
          h("button", { type: "button", class: "btn ghost small forfeit-btn", onclick: () => actions.askForfeit(g) }, t("games.forfeit")))))),
    state.forfeit ? forfeitDialog(state.forfeit, actions) : null);
}

/** 認輸: what happens, said before it does (the game ends now, or a bot plays on). */
function forfeitDialog(g, actions) {
  const alone = aloneAt(g);
  return h("div", { class: "leave-dialog forfeit-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": "forfeit-title",
    dataset: { game: g.game_id, alone: alone ? "1" : "0" } },
    h("div", { class: "leave-box" },
      h("h2", { id: "forfeit-title" }, t("forfeit.title")),
      h("p", { class: "forfeit-what" }, t(alone ? "forfeit.alone" : "forfeit.others")),
      h("div", { class: "leave-buttons" },
        h("button", { type: "button", class: "btn primary forfeit-keep", onclick: actions.keepGame }, t("forfeit.keep")),
        h("button", { type: "button", class: "btn forfeit-confirm", onclick: () => actions.forfeit(g) }, t("forfeit.confirm")))));
}

function queuePanel(q, actions) {
  return h("div", { class: "queue", role: "status" },
    h("span", { class: "spinner", "aria-hidden": "true" }),
    h("span", {}, t("queue.waiting", { n: q.waiting ?? 1, s: Math.round(q.fill_after ?? 0) })),
    h("button", { type: "button", class: "btn ghost small", onclick: actions.cancelQueue }, t("queue.cancel")));
}

function roomPanel(state, actions) {
  const disabled = !state.account || state.busy;
  const code = h("input", { id: "room-code", name: "code", maxlength: 8, autocomplete: "off", autocapitalize: "characters", placeholder: "K7QF2M",
    value: state.form?.code ?? "", oninput: (e) => actions.form?.("code", e.target.value) });
  const room = state.room;
  const hosting = room?.host === state.account?.name;
  return h("section", { class: "panel room-panel", "aria-labelledby": "room-title" },
    h("h2", { id: "room-title" }, t("room.title")),
    room
      ? h("div", { class: "room-info" },
          h("div", { class: "room-code-row" },
            h("p", { class: "room-code", dataset: { code: room.code } }, t("room.code.show", { code: room.code })),
            h("button", { type: "button", class: "btn small share-room-btn", onclick: () => actions.shareRoom(room.code) },
              t("room.share"))),
          h("ol", { class: "room-players" }, ...room.players.map((name) => h("li", {}, name || t("room.empty")))),
          h("p", { class: "room-hints", dataset: { hints: room.hints ? "on" : "off" } }, t(room.hints ? "room.hints.on" : "room.hints.off")),
          hosting ? null : h("p", {}, t("room.waiting")),
          h("div", { class: "room-actions" },
            hosting
              ? h("button", { type: "button", class: "btn primary start-btn", onclick: actions.startRoom }, t("room.start"))
              : null,
            h("button", { type: "button", class: "btn ghost leave-room-btn", onclick: actions.leaveRoom }, t("room.leave"))))
      : h("div", { class: "room-forms" },
          h("button", { type: "button", class: "btn create-room-btn", disabled, onclick: actions.createRoom }, t("room.create")),
          h("label", { class: "check room-watch" },
            h("input", { type: "checkbox", id: "room-watch", checked: state.options.watch !== false,
              onchange: (e) => actions.option("watch", e.target.checked) }),
            h("span", {}, t("room.watch"))),
          h("label", { class: "check room-voice" },
            h("input", { type: "checkbox", id: "room-voice", checked: state.options.voice !== false,
              onchange: (e) => actions.option("voice", e.target.checked) }),
            h("span", {}, t("room.voice"))),
          h("label", { class: "check room-voice-watchers" },
            h("input", { type: "checkbox", id: "room-voice-watchers", checked: state.options.voice_watchers === true,
              onchange: (e) => actions.option("voice_watchers", e.target.checked) }),
            h("span", {}, t("room.voice_watchers"))),
          h("label", { class: "check room-voices" },
            h("input", { type: "checkbox", id: "room-voices", checked: state.options.voices !== false,
              onchange: (e) => actions.option("voices", e.target.checked) }),
            h("span", {}, t("room.voices"))),
          h("label", { class: "check room-hints-opt" },
            h("input", { type: "checkbox", id: "room-hints", checked: state.options.hints === true,
              onchange: (e) => actions.option("hints", e.target.checked) }),
            h("span", {}, t("room.hints"))),
          h("form", { class: "join-form", onsubmit: (e) => { e.preventDefault(); actions.joinRoom(code.value.trim().toUpperCase()); } },
            h("label", { for: "room-code" }, t("room.code")), code,
            h("button", { type: "submit", class: "btn", disabled }, t("room.join")))));
}

function leaderboardPanel(state) {
  const rows = state.leaderboard || [];
  return h("section", { class: "panel board-panel", "aria-labelledby": "lb-title" },
    h("h2", { id: "lb-title" }, t("leaderboard.title")),
    rows.length
      ? h("ol", { class: "leaderboard" }, ...rows.slice(0, 10).map((r) =>
          h("li", {}, h("span", { class: "lb-name" }, r.name), h("span", { class: "lb-rating" }, String(r.rating)),
            h("span", { class: "lb-games" }, tn("leaderboard.games", r.ranked_games)))))
      : h("p", { class: "muted" }, t("leaderboard.empty")));
}

function gamesPanel(state, actions) {
  const games = state.games || [];
  return h("section", { class: "panel games-panel", "aria-labelledby": "games-title" },
    h("h2", { id: "games-title" }, t("games.title")),
    games.length
      ? h("ul", { class: "games" }, ...games.slice(0, 20).map((g) => {
          const mine = g.result && g.seat !== null ? t("games.rank", { n: g.result.ranks[g.seat], score: g.result.scores[g.seat] }) : "";
          const when = new Date((g.finished_at || g.created_at) * 1000).toLocaleString();
          return h("li", { class: "game-row", dataset: { game: g.game_id } },
            h("span", { class: "game-when" }, when),
            h("span", { class: "game-players" }, g.players.map((n) => (n && n.startsWith("bot:") ? t("bot") : n)).join("・")),
            h("span", { class: "game-score" }, mine),
            // 已認輸 stays on a game given up, whether it ended there or a bot played on
            g.forfeited ? h("span", { class: "tag forfeited" }, t("games.forfeited")) : null,
            g.status === "finished"
              ? h("a", { class: "btn small", href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("games.replay"))
              : !g.forfeited && g.status === "active" && g.ticket
                ? h("button", { type: "button", class: "btn primary small resume-btn", onclick: () => actions.resume(g) }, t("games.resume"))
                : null);
        }))
      : h("p", { class: "muted" }, t("games.empty")));
}

/** Draw the whole lobby for `state`; `actions` are the app's handlers. The lobby
 * redraws whenever data arrives (profiles, bots, the ladder, a room), also while
 * someone is typing: the field they are in keeps the focus, the caret and the
 * selection, so a slow phone does not drop the keyboard or the next keystrokes. */
export function renderLobby(root, state, actions) {
  const was = document.activeElement;
  const id = was && was.id && root.contains(was) ? was.id : null;
  const caret = id && typeof was.selectionStart === "number" ? [was.selectionStart, was.selectionEnd] : null;
  drawLobby(root, state, actions);
  const now = id ? document.getElementById(id) : null;
  if (now && now !== was && !now.disabled) {
    now.focus({ preventScroll: true });
    if (caret) {
      try {
        now.setSelectionRange(caret[0], caret[1]);
      } catch {
        /* a field without a caret (a select, a number input) */
      }
    }
  }
}

function drawLobby(root, state, actions) {
  root.replaceChildren(
    h("div", { class: state.account ? "lobby signed-in" : "lobby" },
      h("div", { class: "lobby-hero" },
        h("h1", { class: "lobby-title" }, t("app.title")),
        h("p", { class: "lobby-tagline" }, t("app.tagline"))),
      state.account ? giftPanel(state, actions) : null,
      state.account ? activePanel(state, actions) : null,
      h("div", { class: "lobby-grid" },
        // signed in, playing is what the lobby is for: its panel leads, the account follows
        state.account ? playPanel(state, actions) : accountPanel(state, actions),
        state.account ? accountPanel(state, actions) : playPanel(state, actions),
        roomPanel(state, actions),
        friendsPanel(state, actions),
        state.account ? ladderPanel(state, actions) : null,
        leaderboardPanel(state),
        state.account ? gamesPanel(state, actions) : null)),
  );
}

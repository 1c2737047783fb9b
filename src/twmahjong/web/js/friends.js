// Friends (好友) in the lobby, and the notices that reach a player anywhere.
//
// `friendsPanel(state, actions)`: the friends with where they are (在大廳 / 牌桌中 /
// 觀戰中 / 離線), with 邀請 (to the private room one is in) and 觀戰 (a friend at a
// table); requests to answer; add by name or from 最近同桌; remove and block.
// Guests are told to register. `noticeStack(state, actions)`: invitations with a
// join button and their countdown (they expire), and one-line notices.

import { t } from "./i18n.js";
import { h } from "./dom.js";

function person(name, ...buttons) {
  return h("li", { class: "friend-row", dataset: { name } }, h("span", { class: "friend-name" }, name), ...buttons);
}

function small(text, onclick, cls = "") {
  return h("button", { type: "button", class: `btn small ${cls}`.trim(), onclick }, text);
}

export function friendsPanel(state, actions) {
  const acc = state.account;
  if (!acc) return null;
  const head = h("h2", { id: "friends-title" }, t("friends.title"));
  if (acc.guest) {
    return h("section", { class: "panel friends-panel", "aria-labelledby": "friends-title" },
      head, h("p", { class: "muted friends-guest" }, t("friends.guest")));
  }
  const f = state.friends || { friends: [], incoming: [], outgoing: [], blocked: [], recent: [] };
  const room = state.room && !state.room.started ? state.room : null;
  const input = h("input", { id: "friend-name", name: "friend", autocomplete: "off", maxlength: 20,
    placeholder: t("friends.name"), "aria-label": t("friends.name"),
    // what the player typed survives the lobby being drawn again (a presence refresh)
    value: state.form?.friend ?? "", oninput: (e) => actions.form?.("friend", e.target.value) });
  const add = h("form", { class: "friend-add", onsubmit: (e) => { e.preventDefault(); actions.addFriend(input.value.trim()); } },
    input, h("button", { type: "submit", class: "btn small" }, t("friends.add")));
  const section = (key, items) => (items.length
    ? [h("h3", { class: "friends-sub" }, t(key)), h("ul", { class: `friends friends-${key.split(".")[1]}` }, ...items)]
    : []);
  const list = f.friends.map((x) => person(x.name,
    h("span", { class: `friend-status status-${x.status}`, dataset: { status: x.status } }, t(`friend.status.${x.status}`)),
    room && x.status !== "offline" && !room.players.includes(x.name)
      ? small(t("friends.invite"), () => actions.inviteFriend(x.name), "primary invite-btn") : null,
    x.status === "table" && x.game_id ? small(t("friends.watch"), () => actions.watch(x.game_id), "watch-btn") : null,
    small(t("friends.remove"), () => actions.removeFriend(x.name), "ghost remove-btn"),
    small(t("friends.block"), () => actions.blockPlayer(x.name), "ghost block-btn")));
  return h("section", { class: "panel friends-panel", "aria-labelledby": "friends-title" },
    head, add,
    ...section("friends.incoming", f.incoming.map((n) => person(n,
      small(t("friends.accept"), () => actions.acceptFriend(n), "primary accept-btn"),
      small(t("friends.decline"), () => actions.declineFriend(n), "ghost decline-btn")))),
    list.length ? h("ul", { class: "friends friends-list" }, ...list) : h("p", { class: "muted" }, t("friends.none")),
    ...section("friends.outgoing", f.outgoing.map((n) => person(n))),
    ...section("friends.recent", f.recent.map((n) => person(n,
      small(t("friends.add"), () => actions.addFriend(n), "add-recent-btn")))),
    ...section("friends.blocked", f.blocked.map((n) => person(n,
      small(t("friends.unblock"), () => actions.unblockPlayer(n), "ghost unblock-btn")))));
}

/** Seconds an invitation has left, as the server said when it came (`expires_in`). */
export function secondsLeft(inv, now = Date.now()) {
  return Math.max(0, Math.ceil((inv.until - now) / 1000));
}

/** Invitations (join / decline, counting down) and short notices, over any screen. */
export function noticeStack(state, actions, now = Date.now()) {
  const invites = (state.invites || []).filter((i) => secondsLeft(i, now) > 0);
  if (!invites.length) return null;
  return h("div", { class: "notice-stack", role: "region", "aria-live": "polite" },
    ...invites.map((inv) => h("div", { class: "notice invite-notice", dataset: { invite: inv.id } },
      h("p", { class: "notice-text" }, t("notice.invite", { from: inv.from, code: inv.code })),
      h("p", { class: "notice-expiry", dataset: { left: String(secondsLeft(inv, now)) } }, t("notice.expires", { n: secondsLeft(inv, now) })),
      h("div", { class: "notice-buttons" },
        small(t("notice.join"), () => actions.joinInvite(inv), "primary join-invite-btn"),
        small(t("notice.decline"), () => actions.declineInvite(inv), "ghost decline-invite-btn")))));
}

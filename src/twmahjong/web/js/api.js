// The server's HTTP API (docs/protocol.md, /api/v1) and the session token.
//
// The token lives in localStorage so a returning player (or guest) keeps their
// coins and games; every failure becomes an ApiError carrying the server's
// code and its player-readable message.

const TOKEN_KEY = "twmj.token";
const BASE = "/api/v1";

export class ApiError extends Error {
  constructor(status, code, message, reason = null, field = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.reason = reason;   // which failure (docs/protocol.md, Errors): the text the player reads
    this.field = field;
  }
}

export function getToken() {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token) {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* private mode: the session lasts this page only */
  }
}

/** The request with the session's token: the response if it is ok, else the server's
 * error as an ApiError (a refused session forgets its token). */
async function request(path, { method = "GET", body = undefined, accept = "application/json", signal } = {}) {
  const headers = { Accept: accept };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(BASE + path, { method, headers, signal, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "offline", "");
  }
  if (res.ok) return res;
  let err = {};
  try {
    err = (await res.json())?.error || {};
  } catch {
    /* an empty or non-JSON body */
  }
  if (res.status === 401) setToken(null);
  throw new ApiError(res.status, err.code || "http", err.message || res.statusText, err.reason || null, err.field || null);
}

export async function api(path, opts = {}) {
  const res = await request(path, opts);
  try {
    return await res.json();
  } catch {
    return null; // an empty or non-JSON body
  }
}

async function session(path, body) {
  const data = await api(path, { method: "POST", body });
  setToken(data.token);
  return data.account;
}

export const guest = () => session("/guests", undefined);
export const login = (name, password) => session("/sessions", { name, password });
export const register = (name, password) => session("/accounts", { name, password });
export const logout = () => setToken(null);
export const me = () => api("/me");
export const profiles = () => api("/profiles");
export const bots = () => api("/bots");
export const profileHelp = (name) => api(`/profiles/${encodeURIComponent(name)}/patterns`);
export const profileRules = (name) => api(`/profiles/${encodeURIComponent(name)}/rules`);
export const createRoom = (opts) => api("/rooms", { method: "POST", body: opts });
export const room = (code) => api(`/rooms/${encodeURIComponent(code)}`);
export const joinRoom = (code) => api(`/rooms/${encodeURIComponent(code)}/join`, { method: "POST" });
export const startRoom = (code) => api(`/rooms/${encodeURIComponent(code)}/start`, { method: "POST" });
export const leaveRoom = (code) => api(`/rooms/${encodeURIComponent(code)}/leave`, { method: "POST" });
export const games = () => api("/games");
export const forfeit = (id) => api(`/games/${encodeURIComponent(id)}/forfeit`, { method: "POST" });
export const gameRecord = (id) => api(`/games/${encodeURIComponent(id)}`);
export const gameReplay = (id, handNo, seat) =>
  api(`/games/${encodeURIComponent(id)}/replay?hand=${handNo}&seat=${seat}`);
// 牌譜分析: the AI's review of one hand, for the game's own player only. It takes
// seconds (longer behind other players' hands), so the server streams where it stands
// — {"ahead": n} hands first, then {"done": k, "total": n} decisions — and last
// {"review": …}; onProgress hears each of those lines.
// A signal's abort (the player went on to another hand or screen) closes the stream,
// and the server calls off a review nobody waits for any more.
export async function gameAnalysis(id, handNo, onProgress = () => {}, signal = undefined) {
  const path = `/games/${encodeURIComponent(id)}/analysis?hand=${handNo}&progress=1`;
  const res = await request(path, { accept: "application/x-ndjson", signal });
  if (!res.body) throw new ApiError(0, "offline", "");
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch {
      throw new ApiError(0, "offline", "");
    }
    buf += chunk.value || "";
    let nl;
    while ((nl = buf.indexOf("\n")) >= 0) {
      const line = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (line.review) return line.review;
      if (line.error) throw new ApiError(200, line.error.code || "http", line.error.message || "");
      onProgress(line);
    }
    if (chunk.done) {
      // the last line may come without its newline
      const line = buf.trim() ? JSON.parse(buf) : {};
      if (line.review) return line.review;
      throw new ApiError(0, "offline", "");
    }
  }
}
export const leaderboard = () => api("/leaderboard");
export const online = () => api("/online");
export const daily = () => api("/me/daily", { method: "POST" });
export const challenge = () => api("/challenge");
// friends (好友), invitations and the talk catalogue (docs/protocol.md, "Friends")
const who = (name) => encodeURIComponent(name);
export const friends = () => api("/friends");
export const addFriend = (name) => api("/friends", { method: "POST", body: { name } });
export const acceptFriend = (name) => api(`/friends/${who(name)}/accept`, { method: "POST" });
export const declineFriend = (name) => api(`/friends/${who(name)}/decline`, { method: "POST" });
export const removeFriend = (name) => api(`/friends/${who(name)}`, { method: "DELETE" });
export const blockPlayer = (name) => api(`/friends/${who(name)}/block`, { method: "POST" });
export const unblockPlayer = (name) => api(`/blocks/${who(name)}`, { method: "DELETE" });
export const invite = (code, name) => api(`/rooms/${encodeURIComponent(code)}/invite`, { method: "POST", body: { name } });
export const invites = () => api("/invites");
export const acceptInvite = (id) => api(`/invites/${encodeURIComponent(id)}/accept`, { method: "POST" });
export const declineInvite = (id) => api(`/invites/${encodeURIComponent(id)}/decline`, { method: "POST" });

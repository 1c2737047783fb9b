// The eight 表情 as small drawings, so they look the same on every device (an emoji
// font is not everywhere). Ids are the server's catalogue (GET /api/v1/talk).

const FACE = '<circle cx="32" cy="32" r="28" fill="#ffd54a" stroke="#8a5a00" stroke-width="2.5"/>';

const ART = {
  thumbs: `<circle cx="32" cy="32" r="29" fill="#f2c14e" stroke="#8a5a00" stroke-width="2.5"/>
    <path d="M18 30h8v20h-8z" fill="#c0281d"/><path d="M26 30l8-14c3 0 5 2 4 6l-2 7h10c3 0 5 3 4 6l-3 11c-1 3-3 4-6 4H26z" fill="#fff" stroke="#8a5a00" stroke-width="2"/>`,
  laugh: `${FACE}<path d="M17 26q5-6 10 0M37 26q5-6 10 0" stroke="#5a3200" stroke-width="3" fill="none" stroke-linecap="round"/>
    <path d="M17 36q15 20 30 0z" fill="#8a1c12"/><path d="M12 30q-4 8 2 12M52 30q4 8-2 12" stroke="#4aa3ff" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  cry: `${FACE}<circle cx="23" cy="27" r="3.5" fill="#5a3200"/><circle cx="41" cy="27" r="3.5" fill="#5a3200"/>
    <path d="M22 48q10-9 20 0" stroke="#5a3200" stroke-width="3" fill="none" stroke-linecap="round"/>
    <path d="M21 31v22M43 31v22" stroke="#4aa3ff" stroke-width="5" stroke-linecap="round"/>`,
  angry: `<circle cx="32" cy="32" r="28" fill="#ff7a59" stroke="#7a1d0c" stroke-width="2.5"/>
    <path d="M16 21l12 6M48 21l-12 6" stroke="#3b0f06" stroke-width="3.5" stroke-linecap="round"/>
    <circle cx="24" cy="31" r="3.5" fill="#3b0f06"/><circle cx="40" cy="31" r="3.5" fill="#3b0f06"/>
    <path d="M22 47q10-8 20 0" stroke="#3b0f06" stroke-width="3.5" fill="none" stroke-linecap="round"/>`,
  shock: `${FACE}<circle cx="23" cy="27" r="6" fill="#fff" stroke="#5a3200" stroke-width="2"/><circle cx="41" cy="27" r="6" fill="#fff" stroke="#5a3200" stroke-width="2"/>
    <circle cx="23" cy="27" r="2.5" fill="#5a3200"/><circle cx="41" cy="27" r="2.5" fill="#5a3200"/><ellipse cx="32" cy="45" rx="6" ry="8" fill="#8a1c12"/>`,
  cool: `${FACE}<path d="M12 24h40v4c0 6-4 9-9 9s-8-3-9-8h-4c-1 5-4 8-9 8s-9-3-9-9z" fill="#1b2430"/>
    <path d="M21 45q11 8 22 0" stroke="#5a3200" stroke-width="3" fill="none" stroke-linecap="round"/>`,
  tea: `<circle cx="32" cy="32" r="29" fill="#2f7d4f" stroke="#0f2e1e" stroke-width="2.5"/>
    <path d="M16 30h28v8c0 8-6 13-14 13s-14-5-14-13z" fill="#fbf7ea" stroke="#0f2e1e" stroke-width="2"/>
    <path d="M44 33h4c3 0 4 5 0 7h-4" fill="none" stroke="#fbf7ea" stroke-width="3"/>
    <path d="M24 24q-3-4 0-8M32 24q-3-4 0-8" stroke="#fbf7ea" stroke-width="2.5" fill="none" stroke-linecap="round"/>`,
  fire: `<circle cx="32" cy="32" r="29" fill="#5b1d14" stroke="#2a0a05" stroke-width="2.5"/>
    <path d="M32 10c4 10 14 14 14 26a14 14 0 0 1-28 0c0-7 4-10 6-15 2 5 4 6 6 6-2-6 0-12 2-17z" fill="#ff8b2b"/>
    <path d="M32 30c2 5 7 7 7 13a7 7 0 0 1-14 0c0-4 3-6 4-9 1 2 2 3 3 3-1-3-1-5 0-7z" fill="#ffe066"/>`,
};

/** The drawing of emote `id` as an <svg> element (null for an id it does not know). */
export function emoteArt(id) {
  if (!ART[id]) return null;
  const wrap = document.createElement("span");
  wrap.innerHTML = `<svg viewBox="0 0 64 64" aria-hidden="true" focusable="false">${ART[id]}</svg>`;
  return wrap.firstElementChild;
}

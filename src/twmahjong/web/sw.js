// The service worker: the installed app opens fast and, with no connection, says so.
//
// Network first for every page and static file (so a new version of the client is
// used as soon as the server has it), a copy kept of each for when the network
// fails; a page that cannot be fetched or found in the copy is the offline page,
// which says the game needs its server. The API and the game channel are never
// cached: a game is played live or not at all.

const CACHE = "twmj-client-v1";
const SHELL = ["./", "index.html", "offline.html", "manifest.json", "icons/icon.svg", "icons/icon-192.png",
  "css/base.css", "css/tiles.css", "css/table.css", "css/app.css", "css/social.css", "css/voice.css",
  "css/myvoice.css", "css/coach.css", "css/show.css", "js/app.js"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws") return;
  event.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (res.ok) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => c.put(req, copy));
      }
      return res;
    } catch {
      // offline: a page opens as the offline page (the app cannot play without its server)
      if (req.mode === "navigate") return (await caches.match("offline.html")) || Response.error();
      return (await caches.match(req)) || Response.error();
    }
  })());
});

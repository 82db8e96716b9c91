// The app shell (the two pages, their scripts, styles and icons) kept on the phone, so the page
// reopens at once and without a network. Stale-while-revalidate: the cached copy answers at
// once and the network refreshes it for the next visit. The API (/v1/…) is never cached.
"use strict";

const CACHE = "sanma-shell-v1";
const SHELL = [
  "/", "/game.html", "/game.js", "/game.css", "/manifest.webmanifest",
  "/static/app.js", "/static/text.js", "/static/keep.js", "/static/style.css",
  "/static/icon.svg", "/static/icon-192.png", "/static/icon-512.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  const path = url.pathname;
  if (!SHELL.includes(path)) return; // the API, photos, /docs: always from the network
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const key = path; // "/?game=…" is the page "/"
    const cached = await cache.match(key);
    const fresh = fetch(event.request).then((response) => {
      if (response.ok) cache.put(key, response.clone());
      return response;
    });
    if (cached) {
      event.waitUntil(fresh.catch(() => undefined));
      return cached;
    }
    return fresh;
  }));
});

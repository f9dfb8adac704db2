/* The rulings site's service worker (made by `rulings site`): after the first visit over http(s)
 * every file of the site is kept, so every page and the search work with the network off. A new
 * build has a new version: its files replace the old ones. Pages are answered from the saved copy
 * first (the site changes only when rebuilt), else from the network. */
"use strict";
var VERSION = {{ version|tojson }};
var FILES = {{ files|tojson }};
var CACHE = "rulings-" + VERSION;
var FIRST = ["index.html", "search.html", "assets/style.css", "assets/site.js", "assets/search.js",
             "assets/search-index.js"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FIRST); })
    .then(function () { return self.skipWaiting(); }));
});

/* the rest in batches, four at a time, in the background: a page can already be used meanwhile */
function keepAll() {
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (have) {
      var got = new Set(have.map(function (r) { return new URL(r.url).pathname; }));
      var base = new URL(self.registration.scope).pathname;
      var todo = FILES.filter(function (f) { return !got.has(base + f); });
      var i = 0;
      function next() {  // one lane: batches of 25 files, one after the other
        if (i >= todo.length) return Promise.resolve();
        var batch = todo.slice(i, i + 25);
        i += 25;
        return cache.addAll(batch).then(next);
      }
      return Promise.all([next(), next(), next(), next()]);
    });
  }).then(function () {
    return self.clients.matchAll({includeUncontrolled: true}).then(function (clients) {
      clients.forEach(function (c) { c.postMessage({offline: "ready", files: FILES.length}); });
    });
  });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("rulings-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
  keepAll();
});

self.addEventListener("message", function (event) {
  if (event.data === "status") {
    caches.open(CACHE).then(function (cache) { return cache.keys(); }).then(function (keys) {
      var ready = keys.length >= FILES.length;
      if (!ready) keepAll();
      event.source.postMessage({offline: ready ? "ready" : "saving", files: keys.length, of: FILES.length});
    });
  }
});

self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET") return;
  var url = new URL(event.request.url);
  if (url.origin !== self.location.origin) return;
  var wanted = url.pathname.slice(-1) === "/" ? url.pathname + "index.html" : event.request;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(wanted, {ignoreSearch: true}).then(function (hit) {
      return hit || fetch(event.request).then(function (response) {
        if (response.ok) cache.put(event.request, response.clone());
        return response;
      });
    });
  }));
});

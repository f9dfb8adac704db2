/* The rulings site's service worker (made by `rulings site`): after the first visit over http(s)
 * every file of the site is kept, so every page and the search work with the network off. A new
 * build has a new version: its files replace the old ones. The site's own files (FILES) are answered
 * from the saved copy first (the site changes only when rebuilt), else from the server; anything
 * else is left to the network and never kept.
 *
 * One version's copy is one build's files: each is saved from the server itself, never from the
 * browser's HTTP cache, which may still hold an earlier build's (a host's `Cache-Control: max-age`);
 * the data files and the pages that load them also say which build they are of, and the page checks
 * (searchspec.js fresh()). The copy is named after the site's scope and a new version deletes only this
 * site's older copies: two rulings sites on one origin (/a/ and /b/) keep each their own. */
"use strict";
var VERSION = {{ version|tojson }};
var FILES = {{ files|tojson }};
var SCOPE = self.registration.scope;
var PREFIX = "rulings " + SCOPE + " ";
var CACHE = PREFIX + VERSION;
var LISTED = new Set(FILES);
/* saved at install, in one go: the pages that load data, their scripts and the data */
var FIRST = ["index.html", "search.html", "deck.html", "assets/style.css", "assets/site.js", "assets/query.js",
             "assets/question.js", "assets/searchspec.js", "assets/ranking.js", "assets/search.js", "assets/ui.js",
             "assets/resolve.js", "assets/decklist.js", "assets/deckformats.js", "assets/deckcards.js",
             "assets/deckrules.js", "assets/deck.js", "assets/worker.js", "assets/search-index.js", "assets/deck-data.js"];

/* a file of the site asked of the server itself, past the browser's HTTP cache */
function fromServer(path) {
  return new Request(new URL(path, SCOPE).href, {cache: "reload"});
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(FIRST.map(fromServer)); })
    .then(function () { return self.skipWaiting(); }));
});

/* what every page of the site says in its footer (site.js) */
function tell(message) {
  return self.clients.matchAll({includeUncontrolled: true}).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

/* the rest in batches, four at a time, in the background: a page can already be used meanwhile */
var saving = null;
function keepAll() {
  if (saving) return saving;
  saving = caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (have) {
      var got = new Set(have.map(function (r) { return r.url; }));
      var todo = FILES.filter(function (f) { return !got.has(new URL(f, SCOPE).href); });
      if (todo.length) tell({offline: "saving", files: have.length, of: FILES.length});
      var i = 0;
      function next() {  // one lane: batches of 25 files, one after the other
        if (i >= todo.length) return Promise.resolve();
        var batch = todo.slice(i, i + 25);
        i += 25;
        return cache.addAll(batch.map(fromServer)).then(next);
      }
      return Promise.all([next(), next(), next(), next()]);
    });
  }).then(function () { return tell({offline: "ready", files: FILES.length}); });
  saving.then(function () { saving = null; }, function () { saving = null; });
  return saving;
}

/* whether a copy is this site's: named after its scope, or, made before copies were (`rulings-` and
 * a version), holding this site's home page */
function ours(name) {
  if (name.indexOf(PREFIX) === 0) return Promise.resolve(true);
  if (!/^rulings-[0-9a-f]{16}$/.test(name)) return Promise.resolve(false);
  return caches.open(name).then(function (cache) { return cache.match(new URL("index.html", SCOPE).href); })
    .then(function (hit) { return !!hit; });
}

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) {
      return ours(n).then(function (mine) { return mine && caches.delete(n); });
    }));
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

/* the path of the site's file a request asks for, or "" for anything else: a page whatever its query
 * (search.html?q=...), any other file only as the site names it */
function listed(url) {
  var root = new URL(SCOPE);
  if (url.origin !== root.origin || url.pathname.indexOf(root.pathname) !== 0) return "";
  var path = url.pathname.slice(root.pathname.length);
  if (path === "" || path.slice(-1) === "/") path += "index.html";
  if (!LISTED.has(path) || (url.search && path.slice(-5) !== ".html")) return "";
  return path;
}

self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET") return;
  var path = listed(new URL(event.request.url));
  if (!path) return;  // not a file of the site: the network's, and not kept
  event.respondWith(caches.open(CACHE).then(function (cache) {
    var key = new URL(path, SCOPE).href;
    return cache.match(key).then(function (hit) {
      return hit || fetch(fromServer(path)).then(function (response) {
        if (response.ok) cache.put(key, response.clone());
        return response;
      });
    });
  }));
});

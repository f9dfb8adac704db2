/* Every page of the rulings site: the way back up, Back to the same place, and offline use. Over
 * http(s) the service worker (sw.js, at the site's root) keeps every file after the first visit, and
 * the footer says how far it is; from file:// nothing is needed (the files are already on the disk). */
(function () {
  "use strict";
  var up = document.querySelector(".to-top");
  function onScroll() {
    if (up) up.classList.toggle("shown", window.scrollY > window.innerHeight);
  }
  window.addEventListener("scroll", onScroll, {passive: true});
  requestAnimationFrame(onScroll);  // with the next frame's layout, not one forced now

  // Back to the same ruling. A page of rulings (or an index of letters) draws only those near the
  // screen (style.css), the others keeping a guessed height until drawn, so the scroll offset the
  // browser restores when a page is opened again from the history (not kept whole in its
  // back-forward cache) may land elsewhere: the page keeps, in its history entry, the ruling or
  // letter at the top of the screen and how far down it was, and goes back to it once the browser
  // has restored its offset.
  var places = document.querySelectorAll("main article.ruling[id], main section.entries[id]");
  if (places.length) {
    var topOf = function () {  // the first one not wholly under the sticky header (binary search)
      var header = document.querySelector("header.top"), line = header ? header.getBoundingClientRect().bottom : 0;
      var lo = 0, hi = places.length - 1;
      if (places[hi].getBoundingClientRect().bottom <= line) return null;
      while (lo < hi) {
        var mid = (lo + hi) >> 1;
        if (places[mid].getBoundingClientRect().bottom <= line) lo = mid + 1; else hi = mid;
      }
      return places[lo];
    };
    var keep = function () {
      var first = window.scrollY > 0 ? topOf() : null, state = Object.assign({}, history.state);
      state.place = first ? {id: first.id, top: first.getBoundingClientRect().top} : null;
      try {
        history.replaceState(state, "");
      } catch (e) {}  // a browser that limits how often (Safari: 100 times in 30 s) keeps the last place
    };
    var later = function (then) { requestAnimationFrame(function () { setTimeout(then); }); };
    var place = (history.state || {}).place, entry = (performance.getEntriesByType("navigation")[0] || {}).type;
    var at = place && (entry === "back_forward" || entry === "reload") && document.getElementById(place.id);
    if (at) {
      var settle = function (times) {  // again once what is now on screen is drawn at its height
        window.scrollBy(0, at.getBoundingClientRect().top - place.top);
        if (times) later(function () { settle(times - 1); });
      };
      var restored = function () { later(function () { settle(2); }); };
      if (document.readyState === "complete") restored();
      else window.addEventListener("load", restored);
    }
    var pause = null;
    window.addEventListener("scroll", function () {
      clearTimeout(pause);
      pause = setTimeout(keep, 200);
    }, {passive: true});
    // kept the moment the page is left by a link too (one followed right after scrolling, before
    // the scroll's pause): pagehide comes too late in some browsers
    document.addEventListener("click", function (ev) {
      if (ev.target && ev.target.closest && ev.target.closest("a[href]")) keep();
    }, true);
    window.addEventListener("pagehide", keep);
  }

  // The footer: whether the site is saved on this device, and whether this page is read offline.
  // navigator.onLine is believed when it says offline, never when it says online (Chromium may say
  // online in a page loaded with the network off): the page asks the server for sw.js, a file never
  // kept (sw.js serves only the site's own files from the saved copy); no answer means offline.
  var status = document.getElementById("offline");
  var away = !navigator.onLine, saved = null;
  function show() {
    // a page whose data came from the network because its saved copy mixed two builds (searchspec.js
    // fresh()) makes no claim for the saved copy
    var mixed = document.documentElement.hasAttribute("data-mixed");
    var text = "";
    if (away) text = mixed ? "Offline." : "Offline: you are reading the copy saved on this device.";
    else if (mixed) text = "The copy saved on this device is of another version of the site: this page's data came from the network.";
    else if (saved && saved.offline === "ready") text = "Saved on this device: every page and the search work offline.";
    else if (saved && saved.offline === "saving") text = "Saving the site for offline use (" + saved.files + " of " + saved.of + " files)…";
    if (status) status.textContent = text;
  }
  var web = /^https?:$/.test(location.protocol);
  var script = document.currentScript || document.querySelector('script[src$="assets/site.js"]');
  var root = new URL("../", script.src);
  function probe() {
    if (!web) return;
    fetch(new URL("sw.js", root).href, {method: "HEAD", cache: "no-store"})
      .then(function () { away = false; }, function () { away = true; }).then(show);
  }
  window.addEventListener("offline", function () { away = true; show(); });
  window.addEventListener("online", function () { probe(); ask(); });
  function ask() {
    if ("serviceWorker" in navigator && web) {
      navigator.serviceWorker.ready.then(function (reg) { if (reg.active) reg.active.postMessage("status"); });
    }
  }
  show();
  probe();
  if (!("serviceWorker" in navigator) || !web) return;
  navigator.serviceWorker.addEventListener("message", function (event) {
    saved = event.data || {};
    show();
  });
  function register() {
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.href}).then(ask, function () {});
  }
  // once the page has loaded, so that saving the site never competes with the page being read
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();

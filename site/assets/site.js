/* Every page of the rulings site: the way back up, and offline use. Over http(s) the service worker
 * (sw.js, at the site's root) keeps every file after the first visit, and the footer says how far
 * it is; from file:// nothing is needed (the files are already on the disk). */
(function () {
  "use strict";
  var up = document.querySelector(".to-top");
  function onScroll() {
    if (up) up.classList.toggle("shown", window.scrollY > window.innerHeight);
  }
  window.addEventListener("scroll", onScroll, {passive: true});
  requestAnimationFrame(onScroll);  // with the next frame's layout, not one forced now

  var status = document.getElementById("offline");
  function say(text) { if (status) status.textContent = text; }
  function network() {
    if (!navigator.onLine) say("Offline: you are reading the copy saved on this device.");
  }
  window.addEventListener("offline", network);
  window.addEventListener("online", function () { say(""); ask(); });
  if (!("serviceWorker" in navigator) || !/^https?:$/.test(location.protocol)) return;
  var script = document.currentScript || document.querySelector('script[src$="assets/site.js"]');
  var root = new URL("../", script.src);
  navigator.serviceWorker.addEventListener("message", function (event) {
    var d = event.data || {};
    if (!navigator.onLine) return network();
    if (d.offline === "ready") say("Saved on this device: every page and the search work offline.");
    else if (d.offline === "saving") say("Saving the site for offline use (" + d.files + " of " + d.of + " files)…");
  });
  function ask() {
    navigator.serviceWorker.ready.then(function (reg) { if (reg.active) reg.active.postMessage("status"); });
  }
  function register() {
    navigator.serviceWorker.register(new URL("sw.js", root).href, {scope: root.href}).then(ask, function () {});
  }
  // once the page has loaded, so that saving the site never competes with the page being read
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
  network();
})();

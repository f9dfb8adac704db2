/* The deck check off the page's thread: a worker made of the page's own scripts (worker_source: each module's
 * own function as its source, so that the worker runs from the site's folder on disk too, file://, where
 * Chromium refuses a worker's script file), given the site's data once and then each list (serve), and the
 * page's Checker, which sends it the lists (or checks one on the page where the browser makes no worker).
 * The browser's own, with no Python counterpart (the terminal checks a list in its own process).
 * Loads by a script tag after the deck modules (window.RulingsWorker); in the worker, it serves. */
(function worker_js(root) {
  "use strict";

  /* the modules a deck check runs, by the names they load as, each after those it needs */
  var MODULES = ["RulingsQuery", "RulingsSpec", "RulingsResolve", "RulingsDeckList", "RulingsDeckFormats", "RulingsDeckCards",
    "RulingsDeckRules", "RulingsDeck"];

  /* The worker's script: the modules the check runs (MODULES, in the order the page loads them) and this one,
   * each module's own function as its source, so that the worker runs from the site's folder on disk too
   * (file://), where Chromium refuses a worker's script file; it is given the data once, then each list (serve). */
  function worker_source() {
    return MODULES.map(function (name) { return root[name]; }).concat([api])
      .map(function (m) { return "(" + m.module + ")(self);"; }).join("\n");
  }

  /* in the worker: the site's data once ({data}), then each list ({id, bytes, options}), answered with its
   * progress ({id, progress: [what, done, of]}) and its result ({id, result}, or {id, failed}) */
  function serve(self) {
    var spec = null, deck = null;
    self.onmessage = function (ev) {
      var m = ev.data;
      if (m.data) {
        self.RULINGS_INDEX = m.data.index; self.RULINGS_DOCS = m.data.docs; self.RULINGS_PARTS = m.data.parts;
        spec = self.RulingsSpec.open(); deck = m.data.deck;
        return;
      }
      var options = Object.assign({}, m.options, {progress: function (what, done, of) {
        self.postMessage({id: m.id, progress: [what, done, of]});
      }});
      try { self.postMessage({id: m.id, result: self.RulingsDeck.check_job(m.bytes, spec, deck, options)}); } catch (e) {
        self.postMessage({id: m.id, failed: String(e && e.stack || e)});
      }
    };
  }

  /* The page's deck checks, each in a worker (the page stays free to scroll, type and click), or where the
   * browser makes none on the page itself once it has shown that it is checking. */
  function Checker(spec, deck) { this.spec = spec; this.deck = deck; this.worker = null; this.id = 0; this.busy = false; this.none = false; }

  Checker.prototype.start = function () {
    if (this.none) return null;
    try {
      var worker = new Worker(URL.createObjectURL(new Blob([worker_source()], {type: "text/javascript"})));
      worker.postMessage({data: {index: root.RULINGS_INDEX, docs: root.RULINGS_DOCS, parts: root.RULINGS_PARTS, deck: this.deck}});
      return worker;
    } catch (e) { this.none = true; return null; }
  };

  /* bytes (a Uint8Array) checked; progress(what, done, of) told as it goes, done([report, text]) at the end. A
   * list checked while another is drops the other (its worker stopped). */
  Checker.prototype.check = function (bytes, options, progress, done) {
    var self = this, id = ++this.id;
    if (this.busy) { this.worker.terminate(); this.worker = null; }
    if (!this.worker) this.worker = this.start();
    function here() {
      progress("checking", 0, 1);
      root.requestAnimationFrame(function () {
        setTimeout(function () { if (id === self.id) done(root.RulingsDeck.check_job(bytes, self.spec, self.deck, options)); }, 0);
      });
    }
    if (!this.worker) { here(); return; }
    var worker = this.worker;
    this.busy = true;
    worker.onmessage = function (ev) {
      var m = ev.data;
      if (m.id !== id) return;
      if (m.progress) { if (id === self.id) progress(m.progress[0], m.progress[1], m.progress[2]); return; }
      self.busy = false;
      if (id !== self.id) return;  // dropped
      if (m.failed) {
        if (root.console) root.console.error(m.failed);
        m.result = [{error: "the deck check failed (" + m.failed.split("\n")[0] + ")", hint: "Reload the page and try again."}, null];
      }
      done(m.result);
    };
    worker.onerror = function (ev) {  // a worker that cannot run here: this list, and the next, on the page
      if (ev.preventDefault) ev.preventDefault();
      worker.terminate();
      self.worker = null; self.busy = false; self.none = true;
      if (id === self.id) here();
    };
    worker.postMessage({id: id, bytes: bytes, options: options});
  };

  /* no list awaited: the report of one being checked is dropped when it comes */
  Checker.prototype.drop = function () { this.id += 1; };

  var api = {module: worker_js, MODULES: MODULES, Checker: Checker, worker_source: worker_source};
  if (root.document) root.RulingsWorker = api;
  else if (typeof root.importScripts === "function") serve(root);  // the deck check's worker (worker_source)
})(typeof window !== "undefined" ? window : this);

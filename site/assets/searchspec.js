/* The search data, loaded: kb/search/searchspec.py's SearchSpec in JavaScript, over the site's index
 * (assets/search-index.js, which kb/site/browserdata.py writes: the knowledge base's search.json made
 * compact, its encodings undone here as a query needs them). It is the vocabulary query.js reads a
 * question with (kb.search.query.Vocabulary) and holds the documents search.js and ranking.js score, each
 * read by its fields' names (kb.search.searchspec.Doc) with what the build decided of it.
 * Loads by a script tag (window.RulingsSpec) or in node (module.exports).; its `module` is its own function, which
 * deck.js runs again in the deck check's worker. */
(function searchspec_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;
  var own = Q.own;

  /* data: the site's index (kb.site.browserdata.packed), with (on the site) a "site" entry giving page addresses */
  function SearchSpec(data) {
    if (!data || typeof data.docs !== "string" || typeof data.sections !== "string" || !data.query || !data.doc_fields) {
      throw new Error("no search data");
    }
    if (data.encoding !== "gaps36") throw new Error("unknown search data encoding");
    var q = data.query, self = this;
    this.raw = data;
    this.lines = data.docs.split("\n");  // the documents as JSON lines, each parsed when first needed
    this.docs_count = this.lines.length;
    // each section's path and its heading's terms, JSON lines too (kb.site.browserdata.LINES)
    this._lines = {sections: data.sections.split("\n"), heading_terms: data.heading_terms.split("\n")};
    this._sections = new Map();
    this.limits = data.limits;  // kb/search/query.py's and kb/search/ranking.py's numbers
    // kb.search.query's patterns (written to mean the same here: no "u" flag, so \w, \b, \d are ASCII as
    // Python's re.ASCII), question words, endings, prefixes, weights; each phrase that names no card
    // as found in typed text (its spaces any run of other characters)
    this.rules = {};
    Object.keys(q.rules).forEach(function (name) {
      self.rules[name] = {one: new RegExp(q.rules[name], "i"), all: new RegExp(q.rules[name], "gi")};
    });
    Q.use_sounds(q.sounds);
    this.question_words = new Set(q.question_words);
    this.suffixes = q.suffixes;
    this.prefixes = new Set(q.prefixes);
    this.not_names = q.not_names.map(function (phrase) {
      return new RegExp("\\b" + phrase.replace(/ /g, "[^a-z0-9]+") + "\\b", "gi");
    });
    this.weights = q.weights;
    this.tables = {};
    ["abbreviations", "synonyms", "rule_numbers"].forEach(function (name) {
      var table = new Map();
      Object.keys(q[name]).forEach(function (k) { table.set(k.toLowerCase(), q[name][k]); });
      self.tables[name] = table;
    });
    this.bucketed = new Set(data.buckets);
    this.read_words = new Map();  // corpus words as query.js read them (analyze_word)
    this._docs = new Array(this.docs_count);
    this._data = new Map();
    this._heads = new Map();
    this._parts = {};
    this._whole = new Map();
    this._postings = new Map();
    this._keys = new Map();
    this._pools = new Map();
    this._names_by_first = new Map();
    this._phrases = {};
    this._common = null;
    this._game_words = null;
    this._english = null;
    this._name_index = null;
    this._divider = undefined;
  }

  // -- the tables looked up by key, in buckets of JSON text (kb.site.browserdata.buckets), each parsed when
  // a key of it is first looked up; postings and keys decoded per key (kb.site.browserdata.gaps, undone)

  /* kb.site.browserdata.bucket: a key's bucket, its first two characters, or for a key with colons its
   * first and the first two after its last colon */
  function bucket(key) {
    var colon = key.lastIndexOf(":");
    return colon >= 0 ? Q.firstChar(key) + Q.firstChars(key.slice(colon + 1), 2) : Q.firstChars(key, 2);
  }

  /* entry: a table's value for a key, or undefined */
  SearchSpec.prototype.entry = function (table, key) {
    if (!this.bucketed.has(table)) return own(this.raw[table], key);
    var part = this.part(table, bucket(key));
    return part === null ? undefined : own(part, key);
  };
  /* part: one bucket of a table, parsed (null when the table has no such bucket) */
  SearchSpec.prototype.part = function (table, b) {
    var cache = this._parts[table] || (this._parts[table] = new Map());
    if (!cache.has(b)) {
      var text = own(this.raw[table], b);
      cache.set(b, text === undefined ? null : JSON.parse(text));
    }
    return cache.get(b);
  };
  /* keys_starting: a table's keys whose first character is first, in the table's order within a bucket */
  SearchSpec.prototype.keys_starting = function (table, first) {
    var self = this, out = [];
    Object.keys(this.raw[table]).forEach(function (b) {
      if (Q.firstChar(b) === first) Object.keys(self.part(table, b)).forEach(function (key) { out.push(key); });
    });
    return out;
  };
  /* table: a whole table as one object (every bucket parsed): for reading every card name */
  SearchSpec.prototype.table = function (table) {
    if (!this._whole.has(table)) {
      var whole = {}, self = this;
      Object.keys(this.raw[table]).forEach(function (b) { Object.assign(whole, self.part(table, b)); });
      this._whole.set(table, whole);
    }
    return this._whole.get(table);
  };

  /* kb.site.browserdata.gaps, undone: every `step`-th number a gap from the previous document number
   * (base 36), the others term frequencies */
  function ungap(text, step) {
    if (text === "") return [];
    var parts = text.split(","), out = new Array(parts.length), last = 0;
    for (var i = 0; i < parts.length; i++) {
      if (i % step === 0) out[i] = last += parseInt(parts[i], 36);
      else out[i] = parseFloat(parts[i]);
    }
    return out;
  }
  SearchSpec.prototype.numbers = function (table, key, step) {
    var cache = table === "postings" ? this._postings : this._keys;
    if (!cache.has(key)) {
      var entry = this.entry(table, key);
      cache.set(key, entry === undefined ? undefined : ungap(entry, step));
    }
    return cache.get(key);
  };
  /* postings_of: [doc, tf, doc, tf, ...] of an index term, or undefined */
  SearchSpec.prototype.postings_of = function (term) { return this.numbers("postings", term, 2); };
  /* keys_of: the documents of an exact key ("about:gandalf"), or undefined */
  SearchSpec.prototype.keys_of = function (key) { return this.numbers("keys", key, 1); };

  // -- kb.search.query.Vocabulary ---------------------------------------------------------------------------

  SearchSpec.prototype.terms_of = function (key) {
    var entry = this.entry("vocab", key);
    return entry === undefined ? null : entry.slice(1);
  };
  SearchSpec.prototype.count_of = function (key) {
    var entry = this.entry("vocab", key);
    return entry ? entry[0] : 0;
  };
  SearchSpec.prototype.df = function (term) {
    var post = this.postings_of(term);
    return post ? Math.floor(post.length / 2) : 0;
  };
  SearchSpec.prototype.spelling_pool = function (first) {
    if (!this._pools.has(first)) {
      this._pools.set(first, this.keys_starting("vocab", first).filter(function (w) { return /^[A-Za-z]+$/.test(w); }));
    }
    return this._pools.get(first);
  };
  SearchSpec.prototype.card_names = function (key) {
    return this.entry("names", key) || null;
  };
  SearchSpec.prototype.name_keys = function (first) {
    var f = Q.firstChar(first);
    if (!this._names_by_first.has(f)) this._names_by_first.set(f, this.keys_starting("names", f));
    return this._names_by_first.get(f);
  };
  /* is_name_word: a word of a card's name: the site's index has them one per line, looked up as text */
  SearchSpec.prototype.is_name_word = function (word) {
    return word !== "" && word.indexOf("\n") < 0 && this.raw.name_words.indexOf("\n" + word + "\n") >= 0;
  };
  SearchSpec.prototype.is_common_word = function (word) {
    if (this._common === null) this._common = new Set(this.raw.common);
    return this._common.has(word);
  };
  SearchSpec.prototype.is_game_word = function (word) {
    if (this._game_words === null) this._game_words = new Set(this.raw.game_words);
    return this._game_words.has(word);
  };
  SearchSpec.prototype.is_english = function (word) {
    if (this._english === null) this._english = new Set(this.later("english"));
    return this._english.has(word);
  };
  SearchSpec.prototype.name_index = function () {
    if (this._name_index === null) this._name_index = new Q.NameIndex(this.table("names"));
    return this._name_index;
  };
  SearchSpec.prototype.expansion = function (table, key) {
    var v = this.tables[table].get(key);
    return v === undefined ? null : v;
  };
  SearchSpec.prototype.phrases = function (table) {
    if (!this._phrases[table]) this._phrases[table] = phrase_pattern(Array.from(this.tables[table].keys()));
    return this._phrases[table];
  };

  /* phrase_pattern: any of the phrases as whole words, longest first */
  function phrase_pattern(keys) {
    var sorted = keys.map(function (k) { return [Q.cpLen(k), k]; })  // each length counted once, not at every comparison
      .sort(function (x, y) { return y[0] - x[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0); })
      .map(function (e) { return e[1]; });
    return new RegExp("(?<![\\w'])(?:" + sorted.map(Q.escapeRe).join("|") + ")(?![\\w'])", "gi");
  }

  // -- documents -------------------------------------------------------------------------------------

  /* doc: document d, its fields by name (kb.search.searchspec.Doc): its row's values under the names of
   * doc_fields, those its row leaves out at their defaults (doc_defaults) */
  SearchSpec.prototype.doc = function (d) {
    var doc = this._docs[d];
    if (doc === undefined) {
      var row = JSON.parse(this.lines[d]), names = this.raw.doc_fields, defaults = this.raw.doc_defaults;
      doc = this._docs[d] = {};
      for (var i = 0; i < names.length; i++) doc[names[i]] = i < row.length ? row[i] : defaults[names[i]];
    }
    return doc;
  };
  /* prior: document d's constant ranking features (kb.search.ranking.document_fields) */
  SearchSpec.prototype.prior = function (d) { return this.raw.priors[this.doc(d).prior]; };
  /* heading_terms: the index terms of a section's heading as the build read them, a Set; null for a
   * section without a heading */
  SearchSpec.prototype.heading_terms = function (section) {
    if (!this._heads.has(section)) {
      var terms = JSON.parse(this._lines.heading_terms[section]);
      this._heads.set(section, terms === null ? null : new Set(terms));
    }
    return this._heads.get(section);
  };

  /* section: the path of section n (its titles, outermost first), parsed when first read */
  SearchSpec.prototype.section = function (n) {
    if (!this._sections.has(n)) this._sections.set(n, JSON.parse(this._lines.sections[n]));
    return this._sections.get(n);
  };

  /* data: the display data of document d, as every command shows a ruling (plus its page address) */
  SearchSpec.prototype.data = function (d) {
    if (!this._data.has(d)) {
      var doc = this.doc(d), s = this.raw.sources[doc.source];
      var data = {id: doc.id, source: s.id, source_title: s.title, source_kind: s.kind, edition: s.edition,
        current: s.current, game: s.game, kind: doc.kind, number: doc.number, title: doc.title, about: doc.about,
        section: this.section(doc.section), text: doc.text, markers: doc.markers, lines: doc.lines,
        path: s.path, parser: s.parser, incomplete: doc.incomplete};
      // its page address only when shown: a query ranks a hundred documents and shows twenty
      Object.defineProperty(data, "url", {enumerable: true, get: this.url.bind(this, d)});
      this._data.set(d, data);
    }
    return this._data.get(d);
  };

  // -- the site: where each document and card lives (kb.site.browserdata.browser_index's "site") ----------

  /* later: a part of the search data the site's index ships as JSON text (kb.site.browserdata.LATER),
   * parsed when first read; null when the data has no such part */
  SearchSpec.prototype.later = function (name) {
    var value = own(this.raw, name), text;
    if (value === undefined && this.raw.later && (text = own(this.raw.later, name)) !== undefined) {
      value = this.raw[name] = JSON.parse(text);
    }
    return value === undefined ? null : value;
  };
  /* site: where each document and card lives on the site, or null outside it */
  Object.defineProperty(SearchSpec.prototype, "site", {get: function () { return this.later("site"); }});

  /* The page a document lives on, relative to the site's root ("" outside the site). */
  SearchSpec.prototype.url = function (d) {
    var site = this.site;
    if (!site) return "";
    var anchor = own(site.anchors, String(d));
    return site.pages[site.doc_pages[d]] + "#" + (anchor === undefined ? this.doc(d).id : anchor);
  };
  /* divider: the site's pattern of a section divider ("-= III =-"), made once; null outside the site */
  SearchSpec.prototype.divider = function () {
    if (this._divider === undefined) this._divider = this.site && this.site.divider ? new RegExp(this.site.divider) : null;
    return this._divider;
  };
  /* shown: document d's text as a reader reads it (kb.read.render.reading: its emphasis, icon codes and
   * "@" read), from its stored text and the site's edits of it (kb.site.browserdata.edits); outside the
   * site, the stored text */
  SearchSpec.prototype.shown = function (d) {
    var text = this.doc(d).text, site = this.site, changes = site && site.shown ? own(site.shown, String(d)) : undefined;
    if (!changes) return text;
    var out = "", at = 0;
    changes.forEach(function (c) { out += text.slice(at, c[0]) + c[2]; at = c[0] + c[1]; });
    return out + text.slice(at);
  };
  /* card_url: the page of a card (by its English name), or null (outside the site) */
  SearchSpec.prototype.card_url = function (name) {
    var cards = this.later("site_cards"), url = cards ? own(cards, name) : undefined;
    return url === undefined ? null : url;
  };

  // -- the page's own search data: one build's (kb.store.snapshot: every file read from one build) --------

  /* fresh(status, then): whether every data file the page loaded is of the page's own build: each
   * script tag names its build (data-build) and the file says its own (data-built, kb.site.website.stamp).
   * A copy that mixes two builds (a saved copy, or the HTTP cache, holding an earlier build's file)
   * is never read: the files that differ are asked again of the server (file?build=..., which no
   * cache answers: sw.js keeps a file only as the site names it), and then() runs once they are in;
   * until then, and if the server's differ too, status says why. The page is marked (data-mixed on
   * its <html>), so the footer (site.js) does not claim the saved copy works offline. */
  function fresh(status, then) {
    var doc = root.document, scripts = doc.querySelectorAll("script[data-build]"), stale = [];
    for (var i = 0; i < scripts.length; i++) {
      if (scripts[i].dataset.built !== scripts[i].dataset.build) stale.push(scripts[i]);
    }
    if (!stale.length) return true;
    doc.documentElement.setAttribute("data-mixed", "");
    if (stale.some(function (s) { return s.dataset.again; })) {
      status.textContent = "This page is of another version of the site than its data on the server: reload the page.";
      return false;
    }
    status.textContent = "Loading the rulings from the network (the saved copy is of another version of the site)…";
    var waiting = stale.length;
    stale.forEach(function (old) {
      var again = doc.createElement("script");
      again.dataset.build = old.dataset.build;
      again.dataset.again = "1";
      again.onload = function () { if (--waiting === 0) then(); };
      again.onerror = function () {
        status.textContent = "The saved copy of this page is of another version of the site than its data, and the "
          + "network cannot be reached: reload the page when online.";
      };
      again.src = old.src.split("?")[0] + "?build=" + encodeURIComponent(old.dataset.build);
      old.parentNode.replaceChild(again, old);
    });
    return false;
  }

  /* open: the page's own search data (search-index.js: its data a JSON text, its documents, sections
   * and headings' terms JSON lines and its tables buckets of JSON text, each parsed when a query needs it) */
  function open() {
    var data = JSON.parse(root.RULINGS_INDEX);
    data.docs = root.RULINGS_DOCS;
    var parts = root.RULINGS_PARTS || {}, lines = parts.lines || {};
    Object.keys(parts).forEach(function (table) { if (table !== "lines") data[table] = parts[table]; });
    Object.keys(lines).forEach(function (name) { data[name] = lines[name]; });  // kb.site.browserdata.LINES
    return new SearchSpec(data);
  }

  var api = {module: searchspec_js, SearchSpec: SearchSpec, bucket: bucket, phrase_pattern: phrase_pattern, open: open, fresh: fresh};
  if (node) module.exports = api;
  else root.RulingsSpec = api;
})(typeof window !== "undefined" ? window : this);

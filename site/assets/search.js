/* Offline search for the rulings site: kb/query.py, kb/search.py and kb/ranking.py executed step by
 * step over the knowledge base's own search data (search.json; on the site the compact copy
 * kb/browserdata.py writes as search-index.js, its postings decoded per term), so a
 * question gets the same answers in the browser as in the terminal.
 *
 * Nothing is re-indexed here: the postings, the vocabulary (every corpus word's index terms), card
 * names, the query patterns and tables, BM25's parameters and the ranking weights all come prebuilt.
 * Each function below carries the name of the Python function it executes; keep them in step (the
 * parity test, tests/test_parity.py, runs every evaluation question through both).
 *
 * Where JavaScript and Python differ, the Python meaning is kept: str.split() whitespace (PY_SPACE),
 * lengths and slices in code points, `\w` of a word as Python's Unicode \w ([\p{L}\p{N}_]: marks are
 * not word characters). Accents are removed after NFKD as the marks of MARKS (Python removes the
 * characters of combining class other than 0: the same for Latin, Greek and Cyrillic accents and
 * emoji). Floats are added in Python's order; Math.log and Math.exp may differ from the C library's
 * in the last bit, so scores agree to about 1e-15, not always exactly.
 * Loads in node for tests: module.exports = {Searcher, ...}. */
(function (root) {
  "use strict";

  /* kb/query.py's and kb/ranking.py's numbers (query length, name words, rarity, coverage floor):
   * the search data carries them (spec.limits); set by the Searcher */
  var C = null;

  /* Python's str.split()/strip() whitespace (JavaScript's \s adds U+FEFF and lacks U+001C-U+001F, U+0085) */
  var PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var SPACES = new RegExp("[" + PY_SPACE + "]+");
  var EDGE_SPACES = new RegExp("^[" + PY_SPACE + "]+|[" + PY_SPACE + "]+$", "g");
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
  var APOSTROPHES = /['`\u00b4\u02b9\u2018\u2019]/g;
  var TOKEN = /[\p{L}\p{N}_]+(?:[.\/\-][\p{L}\p{N}_]+)*/gu;  // kb.query.TOKEN: \w+(?:[./\-]\w+)*
  var QUERY_WORD = new RegExp("[^" + PY_SPACE + ",;:!?()\\[\\]{}\"]+", "gu");
  var COMPOUND = /[.\/\-]/;
  var NAME_WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;  // kb.query.NAME_WORD: [^\W_]+(?:'[^\W_]+)*
  var POSSESSIVE = /'s$/i;
  var NAME_CONTEXT = /[a-z,;] $/;  // kb.query.NAME_CONTEXT
  var CASED = /[a-z,;] [A-Z][a-z]/;  // kb.query.CASED
  /* unicodedata.combining(c) != 0, closely: every mark but the grapheme joiner and the variation
   * selectors (an emoji's U+FE0F); other marks of combining class 0 are spacing or enclosing marks
   * of non-Latin scripts (Devanagari vowel signs, Thaana), which Python keeps and this removes */
  var MARKS = /(?![\u034f\ufe00-\ufe0f\u{e0100}-\u{e01ef}])\p{M}/gu;

  // -- Python's string predicates, on code points -------------------------------------------------

  function pySplit(s) { return s.split(SPACES).filter(function (w) { return w !== ""; }); }
  function pyStrip(s) { return s.replace(EDGE_SPACES, ""); }
  function stripChars(s, chars) {
    var a = 0, b = s.length;
    while (a < b && chars.indexOf(s[a]) >= 0) a++;
    while (b > a && chars.indexOf(s[b - 1]) >= 0) b--;
    return s.slice(a, b);
  }
  function astral(s) { return /[\ud800-\udfff]/.test(s); }
  function cpLen(s) { return astral(s) ? Array.from(s).length : s.length; }
  function chars(s) { return astral(s) ? Array.from(s) : s; }
  function firstChars(s, n) {  // the first n code points
    var out = "";
    for (var i = 0; i < n && s; i++) {
      var c = firstChar(s);
      out += c;
      s = s.slice(c.length);
    }
    return out;
  }
  function firstChar(s) {  // the first code point
    if (!s) return "";
    var c = s.charCodeAt(0);
    return c >= 0xd800 && c <= 0xdbff && s.length > 1 && (s.charCodeAt(1) & 0xfc00) === 0xdc00 ? s.slice(0, 2) : s[0];
  }
  function isDigits(s) { return /^\p{Nd}+$/u.test(s); }          // str.isdigit
  function isAlpha(s) { return /^\p{L}+$/u.test(s); }            // str.isalpha
  function isAlnum(s) { return /^[\p{L}\p{N}]+$/u.test(s); }     // str.isalnum
  function isAsciiAlpha(s) { return /^[A-Za-z]+$/.test(s); }     // str.isalpha() and str.isascii()
  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\\/\-]/g, "\\$&"); }
  function replaceAll(s, what, by) { return s.split(what).join(by); }  // str.replace: every occurrence
  function extendNew(list, items) {  // list += [x for x in items if x not in list]
    var add = items.filter(function (x) { return list.indexOf(x) < 0; });
    for (var i = 0; i < add.length; i++) list.push(add[i]);
  }
  function tupleLess(a, b) {  // Python tuple comparison of numbers and strings
    for (var i = 0; i < a.length; i++) {
      if (a[i] < b[i]) return true;
      if (a[i] > b[i]) return false;
    }
    return false;
  }
  function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function tokens(text) { return text.match(TOKEN) || []; }
  function sameSet(a, b) {
    if (a.size !== b.size) return false;
    var ok = true;
    a.forEach(function (x) { if (!b.has(x)) ok = false; });
    return ok;
  }

  // -- kb.query: text clean-up ---------------------------------------------------------------------

  /* clean: control characters out, length capped, spaces collapsed */
  function clean(text, limit) {
    text = String(text === undefined || text === null ? "" : text).normalize("NFC").replace(CONTROL, " ");
    if (text.length > limit) text = Array.from(text).slice(0, limit).join("");
    return pySplit(text).join(" ");
  }

  var NOT_ASCII = /[^\x00-\x7f]/;
  /* strip_marks: accents off, case kept; curly quotes made straight */
  function strip_marks(text) {
    if (!NOT_ASCII.test(text)) return text;  // nothing to take off
    return text.normalize("NFKD").replace(MARKS, "").replace(/[\u2019\u2018]/g, "'").replace(/[\u201c\u201d]/g, '"');
  }

  function fold_key(token) { return strip_marks(token).toLowerCase(); }

  /* fold: lower-case ASCII words joined by single spaces */
  function fold(text) {
    var ascii = strip_marks(text.replace(APOSTROPHES, "")).replace(/[^\x00-\x7f]/g, "");
    return (ascii.toLowerCase().match(/[a-z0-9]+/g) || []).join(" ");
  }

  /* distance: optimal string alignment (insert, delete, substitute, swap two neighbours), or
   * limit + 1 once beyond it */
  function distance(a, b, limit) {  // only the cells within `limit` of the diagonal: the others lie beyond it
    a = chars(a);
    b = chars(b);
    var n = a.length, m = b.length, big = limit + 1, i, j;
    if (Math.abs(n - m) > limit) return big;
    var before = [], prev = [];
    for (j = 0; j <= m; j++) prev.push(j <= limit ? j : big);
    for (i = 1; i <= n; i++) {
      var cur = new Array(m + 1).fill(big);
      var best = cur[0] = i <= limit ? i : big;
      for (j = Math.max(1, i - limit); j <= Math.min(m, i + limit); j++) {
        var v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2] + 1);
        cur[j] = v = Math.min(v, big);
        best = Math.min(best, v);
      }
      if (best > limit) return big;
      before = prev;
      prev = cur;
    }
    return prev[m];
  }

  /* kb.searchspec.phrase_pattern: any of the phrases as whole words, longest first */
  function phrase_pattern(keys) {
    var sorted = keys.map(function (k) { return [cpLen(k), k]; })  // each length counted once, not at every comparison
      .sort(function (x, y) { return y[0] - x[0] || cmpStr(x[1], y[1]); }).map(function (e) { return e[1]; });
    return new RegExp("(?<![\\w'])(?:" + sorted.map(escapeRe).join("|") + ")(?![\\w'])", "gi");
  }

  function Understanding(query) {
    return {query: query, annotations: [], rules: [], cards: [], near_cards: [], abbreviations: [], synonyms: [],
      corrections: [], dropped: [], content: [], typed: [], terms: [], games: [], arda: false, card_text: false,
      card_query: false, how_many: false, question: false, numbers: [], story_cards: [], story: [], define: []};
  }

  // -- the searcher: kb.searchspec.SearchSpec + kb.search.Searcher ------------------------------------

  /* data: the knowledge base's search.json, with (on the site) a "site" entry giving page addresses */
  function Searcher(data) {
    if (!data || !data.docs || !data.query) throw new Error("no search data");
    var q = data.query, self = this;
    C = data.limits;
    this.spec = data;
    // the site's index: the documents as JSON lines, each parsed when first needed, and their sources
    // as runs ([source, first document] for each run of documents of one source)
    this.lines = data.docs.split("\n");
    this.docs = new Array(this.lines.length);
    this.source_runs = data.source_runs || null;
    this.docs_count = this.docs.length;
    this.avg_length = data.avg_length;
    this.k1 = Number(data.bm25.k1);
    this.b = Number(data.bm25.b);
    this.candidate_count = Number(data.candidates);
    this.weights = data.weights || {};
    this.rules = {};
    Object.keys(q.rules).forEach(function (name) {
      // written to mean the same here (no "u" flag: ASCII \w, \b, \d as Python's re.ASCII)
      self.rules[name] = {one: new RegExp(q.rules[name], "i"), all: new RegExp(q.rules[name], "gi")};
    });
    this.capitalised = new RegExp(q.capitalised, "g");
    this.question_words = new Set(q.question_words);
    this.suffixes = q.suffixes;
    this.prefixes = new Set(q.prefixes);
    // each phrase that names no card, as found in folded text and (spaces as any separator) in typed text
    this.not_name_patterns = q.not_names.map(function (phrase) {
      return {folded: new RegExp("\\b" + phrase + "\\b", "g"),
        typed: new RegExp("\\b" + phrase.replace(/ /g, "[^a-z0-9]+") + "\\b", "gi")};
    });
    this.W = q.weights;
    this.tables = {};
    ["abbreviations", "synonyms"].forEach(function (name) {
      var table = new Map();
      Object.keys(q[name]).forEach(function (k) { table.set(k.toLowerCase(), q[name][k]); });
      self.tables[name] = table;
    });
    this._pools = new Map();
    this._names_by_first = new Map();
    this.bucketed = new Set(data.buckets || []);
    this._parts = {};
    this._whole = new Map();
    this._name_words = null;
    this._common = null;
    this._game_words = null;
    this._english = null;
    this._name_index = null;
    this._phrases = {};
    this._filters = new Map();
    this._may = null;
    this._divider = undefined;
    this._data = new Map();
    this._words = new Map();
    this._heads = new Map();
    this._postings = new Map();
    this._keys = new Map();
    if (data.encoding !== undefined && data.encoding !== "gaps36") throw new Error("unknown search data encoding");
    this.compact = data.encoding === "gaps36";
    this.sections = data.sections;
  }

  /* kb.browserdata.gaps, undone: every `step`-th number a gap from the previous document number
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

  /* numbers: a postings or keys entry as numbers, decoded once (ungap) when the index is compact */
  Searcher.prototype.numbers = function (table, key, step) {
    var cache = table === "postings" ? this._postings : this._keys;
    if (cache.has(key)) return cache.get(key);
    var entry = this.entry(table, key);
    if (!this.compact || entry === undefined) return entry;
    entry = ungap(entry, step);
    cache.set(key, entry);
    return entry;
  };
  /* postings_of: [doc, tf, doc, tf, ...] of an index term, or undefined */
  Searcher.prototype.postings_of = function (term) { return this.numbers("postings", term, 2); };
  /* keys_of: the documents of an exact key ("about:gandalf"), or undefined */
  Searcher.prototype.keys_of = function (key) { return this.numbers("keys", key, 1); };

  // kb.query.Vocabulary, as kb.searchspec.SearchSpec provides it

  Searcher.prototype.terms_of = function (key) {
    var entry = this.entry("vocab", key);
    return entry === undefined ? null : entry.slice(1);
  };
  Searcher.prototype.count_of = function (key) {
    var entry = this.entry("vocab", key);
    return entry ? entry[0] : 0;
  };
  Searcher.prototype.df = function (term) {
    var post = this.postings_of(term);
    return post ? Math.floor(post.length / 2) : 0;
  };
  Searcher.prototype.spelling_pool = function (first) {
    if (!this._pools.has(first)) this._pools.set(first, this.keys_starting("vocab", first).filter(isAsciiAlpha));
    return this._pools.get(first);
  };
  Searcher.prototype.card_names = function (key) {
    return this.entry("names", key) || null;
  };
  Searcher.prototype.name_keys = function (first) {
    var f = firstChar(first);
    if (!this._names_by_first.has(f)) this._names_by_first.set(f, this.keys_starting("names", f));
    return this._names_by_first.get(f);
  };

  // the tables looked up by key: whole (search.json) or in buckets of JSON text (the site's index,
  // kb.browserdata.buckets), each parsed when a key of it is first looked up

  /* bucket: kb.browserdata.bucket, a key's bucket: its first two characters, or for a key with colons its first
   * and the first two after its last colon */
  function bucket(key) {
    var colon = key.lastIndexOf(":");
    return colon >= 0 ? firstChar(key) + firstChars(key.slice(colon + 1), 2) : firstChars(key, 2);
  }
  /* entry: a table's value for a key, or undefined */
  Searcher.prototype.entry = function (table, key) {
    if (!this.bucketed.has(table)) return own(this.spec[table], key);
    var part = this.part(table, bucket(key));
    return part === null ? undefined : own(part, key);
  };
  /* part: one bucket of a table, parsed (null when the table has no such bucket) */
  Searcher.prototype.part = function (table, b) {
    var cache = this._parts[table] || (this._parts[table] = new Map());
    if (!cache.has(b)) {
      var text = own(this.spec[table], b);
      cache.set(b, text === undefined ? null : JSON.parse(text));
    }
    return cache.get(b);
  };
  /* keys_starting: a table's keys whose first character is first, in the table's order within a bucket */
  Searcher.prototype.keys_starting = function (table, first) {
    var self = this;
    if (!this.bucketed.has(table)) {
      return Object.keys(this.table(table)).filter(function (key) { return firstChar(key) === first; });
    }
    var out = [];
    Object.keys(this.spec[table]).forEach(function (b) {
      if (firstChar(b) === first) Object.keys(self.part(table, b)).forEach(function (key) { out.push(key); });
    });
    return out;
  };
  /* table: a whole table as one object (every bucket parsed): for reading every card name */
  Searcher.prototype.table = function (table) {
    if (!this.bucketed.has(table)) return this.spec[table];
    if (!this._whole.has(table)) {
      var whole = {}, self = this;
      Object.keys(this.spec[table]).forEach(function (b) { Object.assign(whole, self.part(table, b)); });
      this._whole.set(table, whole);
    }
    return this._whole.get(table);
  };
  Searcher.prototype.is_name_word = function (word) {
    var text = this.spec.name_words;  // the site's index: the words one per line, looked up as text
    if (typeof text === "string") return word !== "" && word.indexOf("\n") < 0 && text.indexOf("\n" + word + "\n") >= 0;
    if (this._name_words === null) {
      var words = this._name_words = new Set();
      Object.keys(this.table("names")).forEach(function (key) { key.split(" ").forEach(function (w) { words.add(w); }); });
    }
    return this._name_words.has(word);
  };
  Searcher.prototype.is_common_word = function (word) {
    if (this._common === null) this._common = new Set(this.spec.common);
    return this._common.has(word);
  };
  Searcher.prototype.is_game_word = function (word) {
    if (this._game_words === null) this._game_words = new Set(this.spec.game_words);
    return this._game_words.has(word);
  };
  Searcher.prototype.is_english = function (word) {
    if (this._english === null) this._english = new Set(this.spec.english);
    return this._english.has(word);
  };
  Searcher.prototype.name_index = function () {
    if (this._name_index === null) this._name_index = new NameIndex(this.table("names"));
    return this._name_index;
  };
  Searcher.prototype.expansion = function (table, key) {
    var v = this.tables[table].get(key);
    return v === undefined ? null : v;
  };
  Searcher.prototype.phrases = function (table) {
    if (!this._phrases[table]) this._phrases[table] = phrase_pattern(Array.from(this.tables[table].keys()));
    return this._phrases[table];
  };

  /* doc: document d of the search data, its fields by name (kb.searchspec.Doc): its row's values
   * under the names of doc_fields, those its row leaves out at their defaults (doc_defaults) */
  Searcher.prototype.doc = function (d) {
    var doc = this.docs[d];
    if (doc === undefined) {
      var row = JSON.parse(this.lines[d]), names = this.spec.doc_fields, defaults = this.spec.doc_defaults;
      doc = this.docs[d] = {};
      for (var i = 0; i < names.length; i++) doc[names[i]] = i < row.length ? row[i] : defaults[names[i]];
    }
    return doc;
  };

  /* data: the display data of document d, as every command shows a ruling (plus its page address) */
  Searcher.prototype.data = function (d) {
    if (!this._data.has(d)) {
      var doc = this.doc(d), s = this.spec.sources[doc.source];
      var data = {id: doc.id, source: s.id, source_title: s.title, source_kind: s.kind, edition: s.edition,
        current: s.current, game: s.game, kind: doc.kind, number: doc.number, title: doc.title, about: doc.about,
        section: this.sections[doc.section], text: doc.text, markers: doc.markers, lines: doc.lines,
        path: s.path, parser: s.parser};
      // its page address only when shown: a query ranks a hundred documents and shows twenty
      Object.defineProperty(data, "url", {enumerable: true, get: this.url.bind(this, d)});
      this._data.set(d, data);
    }
    return this._data.get(d);
  };

  /* later: a part of the search data the site's index ships as JSON text (kb.browserdata.LATER),
   * parsed when first read; null when the data has no such part */
  Searcher.prototype.later = function (name) {
    var value = own(this.spec, name), text;
    if (value === undefined && this.spec.later && (text = own(this.spec.later, name)) !== undefined) {
      value = this.spec[name] = JSON.parse(text);
    }
    return value === undefined ? null : value;
  };
  /* site: where each document and card lives on the site, or null outside it */
  Object.defineProperty(Searcher.prototype, "site", {get: function () { return this.later("site"); }});

  /* The page a document lives on, relative to the site's root ("" outside the site). */
  Searcher.prototype.url = function (d) {
    var site = this.site;
    if (!site) return "";
    var anchor = own(site.anchors, String(d));
    return site.pages[site.doc_pages[d]] + "#" + (anchor === undefined ? this.doc(d).id : anchor);
  };
  /* divider: the site's pattern of a section divider ("-= III =-"), made once; null outside the site */
  Searcher.prototype.divider = function () {
    if (this._divider === undefined) this._divider = this.site && this.site.divider ? new RegExp(this.site.divider) : null;
    return this._divider;
  };
  /* shown: document d's text as a reader reads it (kb.render.reading: its emphasis, icon codes and
   * "@" read), from its stored text and the site's edits of it (kb.browserdata.edits); outside the
   * site, the stored text */
  Searcher.prototype.shown = function (d) {
    var text = this.doc(d).text, site = this.site, changes = site && site.shown ? own(site.shown, String(d)) : undefined;
    if (!changes) return text;
    var out = "", at = 0;
    changes.forEach(function (c) { out += text.slice(at, c[0]) + c[2]; at = c[0] + c[1]; });
    return out + text.slice(at);
  };
  Searcher.prototype.card_url = function (name) {
    var n = this.site ? own(this.site.cards, name) : undefined;
    return n === undefined ? null : this.site.pages[n];
  };
  // -- kb.query: understanding ----------------------------------------------------------------------

  /* analyze_word: the index terms of one typed word, from the corpus's vocabulary, else by an ending
   * off, else by the nearest common spelling; recorded in u */
  Searcher.prototype.analyze_word = function (word, u) {
    if (u) return this.read_word(word, u);
    // corpus text (u null) reads the same whatever the query: each word is read once per page
    var known = this._words.get(word);
    if (known === undefined) {
      known = this.read_word(word, null);
      this._words.set(word, known);
    }
    return known;
  };
  Searcher.prototype.read_word = function (word, u) {
    var self = this, key = fold_key(word), terms = this.terms_of(key), fixed;
    if (terms !== null) {
      if (u && cpLen(key) >= 4 && !isDigits(key) && !this.is_name_word(key) && this.count_of(key) <= 2 &&
          terms.every(function (t) { return self.df(t) < C.RARE * self.docs_count; })) {
        fixed = this.correct(key);
        if (fixed) {
          u.corrections.push([key, fixed]);
          return this.terms_of(fixed) || [];
        }
      }
      return terms;
    }
    if (COMPOUND.test(key)) {  // a compound the corpus lacks: whole, and its parts (as the build's analyzer)
      if (/^\p{Nd}/u.test(key)) return [key];
      var out = [key];
      key.split(/[.\/\-]/).forEach(function (part) {
        if (part && !self.prefixes.has(part)) self.analyze_word(part, u).forEach(function (t) { out.push(t); });
      });
      return out;
    }
    for (var i = 0; i < this.suffixes.length; i++) {
      var suffix = this.suffixes[i];
      if (key.endsWith(suffix) && cpLen(key) - cpLen(suffix) >= 3) {
        var base = key.slice(0, key.length - suffix.length), cs = Array.from(base);
        var candidates = [base, base + "e",
          cs.length > 3 && cs[cs.length - 1] === cs[cs.length - 2] ? cs.slice(0, -1).join("") : "",
          suffix === "ies" || suffix === "ied" ? base + "y" : ""];
        for (var j = 0; j < candidates.length; j++) {
          var found = candidates[j] ? this.terms_of(candidates[j]) : null;
          if (found && found.length) return found;
        }
      }
    }
    if (u && !this.is_name_word(key)) {
      fixed = this.correct(key);
      if (fixed) {
        u.corrections.push([key, fixed]);
        return this.terms_of(fixed) || [];
      }
    }
    return isAlnum(key) ? [key] : [];
  };

  /* correct: the common corpus word a rare or unknown word most likely misspells */
  Searcher.prototype.correct = function (word) {
    var length = cpLen(word);
    if (length < 4 || !isAlpha(word) || this.is_english(word)) return null;
    var seen = this.count_of(word);
    if (seen > 2) return null;
    var limit = length >= 7 ? 2 : 1, best = null, pool = this.spelling_pool(firstChar(word));
    for (var i = 0; i < pool.length; i++) {
      var w = pool[i];
      if (w === word || Math.abs(w.length - length) > limit) continue;
      var n = this.count_of(w);
      if (n < 10 * (seen + 1) * (seen ? 1 : 0) + 3) continue;
      var d = distance(word, w, limit);
      if (d <= limit && (best === null || tupleLess([d, -n, w], best))) best = [d, -n, w];
    }
    return best ? best[2] : null;
  };

  /* name_spans: where a query names cards ({start, end, names, near}), in query order, and whether
   * it is nothing but a name: the longest name first, never a name inside a name, a plain phrase
   * only capitalised, a one-word name capitalised mid-sentence, a misspelt name read as read_card reads it */
  Searcher.prototype.name_spans = function (query) {
    var self = this, text = this.blank_not_names(query), whole = fold(text);
    if (!whole) return [[], false];
    var exact = this.card_names(whole);
    if (exact) return [[{start: 0, end: query.length, names: exact.slice(), near: false}], true];
    var tokens = [], m;
    for (m of text.matchAll(NAME_WORD)) tokens.push([m[0], m.index, m.index + m[0].length]);
    var keys = tokens.map(function (t) { return fold(t[0]); });
    var bare = tokens.map(function (t) { return fold(t[0].replace(POSSESSIVE, "")); });
    if (tokens.length <= 5 && keys.every(function (w) { return self.count_of(w) < 3 || self.is_name_word(w); })) {
      var match = this.near_name(whole);  // a short query that nearly spells one name is that name
      if (match.length) return [[{start: 0, end: query.length, names: match, near: true}], true];
    }
    var cased = CASED.test(text), spans = [], i = 0;
    while (i < tokens.length) {
      var step = 1, n, found = null;
      for (n = Math.min(C.MAX_NAME_WORDS, tokens.length - i); n > 1; n--) {
        found = this.name_of(keys.slice(i, i + n - 1), keys[i + n - 1], bare[i + n - 1]);
        if (found && (tokens.slice(i, i + n).some(capitalised) || !(cased || this.is_common_word(found[0])))) {
          spans.push({start: tokens[i][1], end: tokens[i + n - 1][2], names: found[1], near: false});
          step = n;
          break;
        }
        found = null;
      }
      if (found === null) {
        var run = i + 1 < tokens.length && capitalised(tokens[i + 1]);
        var one = this.one_word_name(tokens[i], bare[i], i === 0 && tokens.length > 4, run, text);
        if (one.length) spans.push({start: tokens[i][1], end: tokens[i][2], names: one, near: false});
      }
      i += step;
    }
    spans = spans.concat(this.near_spans(tokens, keys, bare, spans, cased));
    return [spans.map(function (sp, k) { return [sp.start, k, sp]; })
      .sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; }).map(function (e) { return e[2]; }), false];
  };

  function capitalised(token) { return /^\p{Lu}/u.test(token[0]); }

  /* name_of: [name key, names] these words make, the last one also without a final "'s", or null */
  Searcher.prototype.name_of = function (inner, last, bareLast) {
    var ends = bareLast === last ? [last] : [last, bareLast];
    for (var i = 0; i < ends.length; i++) {
      var key = inner.concat([ends[i]]).join(" "), names = this.card_names(key);
      if (names && names.length) return [key, names.slice()];
    }
    return null;
  };

  /* one_word_name: the cards a capitalised word names (mid-sentence or opening the query) */
  Searcher.prototype.one_word_name = function (token, bare, opensLong, run, text) {
    var start = token[1];
    if (!capitalised(token) || bare.length <= 3 ||
        !(start === 0 || NAME_CONTEXT.test(text.slice(Math.max(0, start - 2), start)))) return [];
    if ((opensLong && this.is_common_word(bare)) || this.is_game_word(bare)) return [];
    var names = this.card_names(bare);
    if (names && names.length) return names.slice();
    if (bare.endsWith("s")) {  // "Gandalfs" typed for Gandalf's
      names = this.card_names(bare.slice(0, -1));
      if (names && names.length) return names.slice();
    }
    return run ? [] : this.first_word_names(bare);  // "True Fana": the next word is not theirs
  };

  /* near_spans: misspelt names in a question, around each word the corpus does not know */
  Searcher.prototype.near_spans = function (tokens, keys, bare, taken, cased) {
    var self = this, free = tokens.map(function (t) {
      return !taken.some(function (sp) { return sp.start <= t[1] && t[1] < sp.end; });
    });
    function unknown(j) {
      return free[j] && keys[j].length >= 4 && isAlpha(keys[j]) && !self.question_words.has(keys[j]) &&
        self.count_of(keys[j]) === 0 && self.count_of(bare[j]) === 0;
    }
    function namish(j) {
      return free[j] && !self.question_words.has(keys[j]) && (unknown(j) || self.is_name_word(bare[j]));
    }
    var found = [], i = 0;
    while (i < tokens.length) {
      if (!unknown(i)) { i += 1; continue; }
      var lo = i, hi = i + 1;
      while (lo > 0 && i - lo < C.NEAR_RUN - 1 && namish(lo - 1)) lo -= 1;
      while (hi < tokens.length && hi - i < C.NEAR_RUN && namish(hi)) hi += 1;
      var span = this.near_run(tokens, keys, lo, hi, i, cased);
      if (span === null) { i += 1; continue; }
      found.push(span[0]);
      for (var j = span[1]; j < span[2]; j++) free[j] = false;
      i = span[2];
    }
    return found;
  };

  /* near_run: the longest run of tokens[lo:hi] holding token i that reads as one card, and its bounds */
  Searcher.prototype.near_run = function (tokens, keys, lo, hi, i, cased) {
    for (var n = Math.min(hi - lo, C.NEAR_RUN); n > 0; n--) {
      for (var a = Math.max(lo, i - n + 1); a <= Math.min(i, hi - n); a++) {
        var run = tokens.slice(a, a + n);
        if (cased && !run.some(capitalised)) continue;
        var read = read_name(this, run.map(function (t) { return t[0]; }).join(" "), this.name_index());
        if (read[0].length !== 1) continue;
        if (n === 1 && !capitalised(tokens[i]) && (this.is_english(keys[i]) || this.correct(keys[i]))) {
          return null;  // "charcter" a common word misspelt, "care" a word: not cards
        }
        return [{start: tokens[a][1], end: tokens[a + n - 1][2], names: read[0], near: read[1]}, a, a + n];
      }
    }
    return null;
  };

  /* not_names: the text with each phrase that names no card blanked out (same length) */
  Searcher.prototype.blank_not_names = function (text) {
    this.not_name_patterns.forEach(function (p) {
      text = text.replace(p.typed, function (m) { return " ".repeat(cpLen(m)); });
    });
    return text;
  };

  /* first_word_names: the cards a capitalised, seldom used word is the first word of */
  Searcher.prototype.first_word_names = function (key) {
    if (key.indexOf(" ") >= 0 || !this.is_name_word(key) || this.count_of(key) > C.RARE_NAME_WORD) return [];
    var keys = this.name_keys(key).filter(function (k) { return k.startsWith(key + " "); }).sort(cmpStr);
    var names = [];
    for (var i = 0; i < keys.length; i++) extendNew(names, this.card_names(keys[i]) || []);
    return names.length > 0 && names.length <= C.FIRST_WORD_NAMES ? names : [];
  };

  /* near_name: the names a short query nearly spells ("morgul knive"), or begins ("khamul") */
  Searcher.prototype.near_name = function (whole) {
    var length = whole.length;  // folded: ASCII
    var limit = length >= 5 ? Math.max(Math.floor(length / 6), 1) : 0;
    var best = null, starts = [], keys = this.name_keys(whole.slice(0, 1));
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i];
      if (key.startsWith(whole + " ") && length >= 4) starts.push(key);
      if (Math.abs(key.length - length) <= limit) {
        var d = distance(whole, key, limit);
        if (d <= limit && (best === null || tupleLess([d, key], best))) best = [d, key];
      }
    }
    if (best !== null) return (this.card_names(best[1]) || []).slice();
    var names = [];
    starts.sort(cmpStr).slice(0, 6).forEach(function (key) { extendNew(names, this.card_names(key) || []); }, this);
    return names;
  };

  // -- kb.resolve: a typed card name read, and the nearest names suggested (the deck page uses these) --

  /* kb.resolve._close: whether a and b are within limit edits; cheap tests first */
  function close(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit || !b || (a[0] !== b[0] && a[a.length - 1] !== b[b.length - 1])) return false;
    return distance(a, b, limit) <= limit;
  }

  /* kb.resolve.NameIndex: folded names -> what they stand for, searched for the names nearest a misspelling */
  function NameIndex(keys) {
    this.keys = keys;
    this._words = null;
  }
  NameIndex.prototype.words = function () {
    if (this._words === null) {
      var words = this._words = new Map();
      Object.keys(this.keys).forEach(function (key) {
        key.split(" ").forEach(function (w) {
          if (!words.has(w)) words.set(w, new Set());
          words.get(w).add(key);
        });
      });
    }
    return this._words;
  };
  /* _near_words: the name words a typed word may mean, with their distance */
  NameIndex.prototype.near_words = function (w) {
    var words = this.words();
    if (w.length < 3) return words.has(w) ? [[w, 0]] : [];
    var limit = w.length < 5 ? 0 : w.length < 9 ? 1 : 2, out = [];
    words.forEach(function (_, word) {
      if (word === w || (w.length >= 4 && word.startsWith(w))) out.push([word, 0]);
      else if (limit && close(w, word, limit)) out.push([word, distance(w, word, limit)]);
    });
    return out;
  };
  /* rank: the display names nearest to typed, best first */
  NameIndex.prototype.rank = function (typed, n) {
    n = n === undefined ? 5 : n;
    var key = fold(typed), self = this;
    if (!key || key.length > 120) return [];
    var best = new Map();
    function offer(k, score) {
      own(self.keys, k).forEach(function (name) {
        if (!best.has(name) || tupleLess(score, best.get(name))) best.set(name, score);
      });
    }
    var limit = Math.max(1, Math.floor(key.length / 5)), compact = key.split(" ").join("");
    Object.keys(this.keys).forEach(function (k) {
      if (k.startsWith(key) || (k.length >= 4 && key.startsWith(k)) || k.split(" ").join("").startsWith(compact)) {
        offer(k, [0, Math.abs(k.length - key.length), 0]);
      } else if (close(key, k, limit)) {
        offer(k, [1, distance(key, k, limit), 0]);
      }
    });
    var hits = new Map();
    key.split(" ").forEach(function (w) {
      self.near_words(w).forEach(function (wd) {
        self.words().get(wd[0]).forEach(function (k) {
          var h = hits.get(k);
          if (!h) hits.set(k, h = [0, 0]);
          h[0] += 1;
          h[1] += wd[1];
        });
      });
    });
    hits.forEach(function (h, k) { offer(k, [2, -h[0], h[1] * 100 + k.length]); });
    return Array.from(best.keys()).sort(function (x, y) {
      return tupleLess(best.get(x), best.get(y)) ? -1 : tupleLess(best.get(y), best.get(x)) ? 1 : cmpStr(fold(x), fold(y));
    }).slice(0, n);
  };
  /* all_words_in_one: the display names whose words hold every typed word */
  NameIndex.prototype.all_words_in_one = function (typed) {
    var self = this, words = fold(typed).split(" ").filter(function (w) { return w.length >= 3; });
    if (!words.length) return [];
    var common = null;
    words.forEach(function (w) {
      var found = new Set();
      self.near_words(w).forEach(function (wd) { self.words().get(wd[0]).forEach(function (k) { found.add(k); }); });
      common = common === null ? found : new Set(Array.from(common).filter(function (k) { return found.has(k); }));
    });
    var names = new Set();
    common.forEach(function (k) { own(self.keys, k).forEach(function (name) { names.add(name); }); });
    return Array.from(names).sort(function (x, y) { return cmpStr(fold(x), fold(y)); });
  };

  /* kb.resolve.read_card: the card(s) a typed name means (names), the choices an ambiguous one leaves,
   * or nothing; read_as says how it was read when not exactly */
  function read_card(searcher, typed, index) {
    var read = read_name(searcher, typed, index || searcher.name_index()), names = read[0];
    if (!read[1]) return {names: names, read_as: "", choices: []};
    if (names.length === 1) return {names: names, read_as: quoted(typed) + " read as " + names[0], choices: []};
    return {names: [], read_as: "", choices: names.length <= 8 ? names : []};
  }

  /* kb.query.read_name: [the card names a typed name may mean, whether read from a near spelling] */
  function read_name(searcher, typed, index) {
    var key = fold(typed);
    if (!key || key.length > 120) return [[], false];
    var exact = searcher.card_names(key);
    if (exact) return [exact.slice(), false];
    var near = searcher.near_name(key);
    return [(near.length ? near : index.all_words_in_one(typed)).slice(), true];
  }

  /* what Python's str.isprintable() refuses: other, separator (but the space) */
  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;

  /* kb.resolve.quoted: user text for a message, one line, quoted (Python's repr of a str), cut short */
  function quoted(text, limit) {
    limit = limit === undefined ? 40 : limit;
    var flat = pySplit(text).join(" ");
    if (cpLen(flat) > limit) flat = Array.from(flat).slice(0, limit).join("") + "...";
    var q = flat.indexOf("'") >= 0 && flat.indexOf('"') < 0 ? '"' : "'";
    var body = flat.replace(/\\/g, "\\\\");
    if (q === "'") body = body.replace(/'/g, "\\'");
    body = body.replace(NOT_PRINTABLE, function (c) {  // as repr() shows what str.isprintable() refuses
      var n = c.codePointAt(0), hex = n.toString(16);
      return n < 0x100 ? "\\x" + ("0" + hex).slice(-2) : n < 0x10000 ? "\\u" + ("000" + hex).slice(-4)
        : "\\U" + ("0000000" + hex).slice(-8);
    });
    return q + body + q;
  }

  /* kb.query.Focus: which sentences of a query ask its question (ends: where each ends; asking: whether
   * it asks); in a post of several sentences where some end with "?", those, the others the story */
  function Focus(text, pattern, story) {
    var ends = [], asking = [], m;
    for (m of text.matchAll(pattern)) {
      ends.push(m.index + m[0].length);
      asking.push(m[0].indexOf("?") >= 0);
    }
    if (!ends.length || pyStrip(text.slice(ends[ends.length - 1]))) {
      ends.push(text.length);
      asking.push(false);
    }
    if (ends.length < 2 || asking.indexOf(true) < 0) {
      ends = [text.length];
      asking = [true];
    }
    function asks(at) {
      for (var i = 0; i < ends.length; i++) if (at < ends[i]) return asking[i];
      return asking[asking.length - 1];
    }
    return {ends: ends, asking: asking, asks: asks, weight: function (at) { return asks(at) ? 1.0 : story; }};
  }

  /* understand: references, cards, abbreviations, synonyms, typos, question words -> weighted terms */
  Searcher.prototype.understand = function (query) {
    var self = this, R = this.rules, W = this.W, m;
    var q = clean(query, C.MAX_QUERY), u = Understanding(q), a = strip_marks(q);
    if (R.other_game.one.test(a)) u.games.push("lotr-tcg");
    u.arda = R.arda.one.test(a);
    u.how_many = R.how_many.one.test(a);
    var numbers = new Set();
    for (m of a.matchAll(R.number.all)) numbers.add(m[0].toLowerCase());
    u.numbers = Array.from(numbers).sort(cmpStr);
    var rest = a;
    for (m of a.matchAll(R.annotation.all)) {
      u.annotations.push(m[1].toLowerCase());
      rest = replaceAll(rest, m[0], " ");
    }
    for (m of rest.matchAll(R.timing.all)) u.rules.push(m[1].toLowerCase());
    for (m of rest.matchAll(R.rule.all)) {
      u.rules.push(m[1].toLowerCase());
      rest = replaceAll(rest, m[0], " ");
    }
    var meaning = R.define.one.exec(rest);
    if (meaning) {
      var subject = meaning[1] || meaning[2] || "";
      u.define = this.analyze_text(subject).filter(function (t) { return !/^\p{Nd}/u.test(t); });
    }
    var focus = Focus(rest, R.sentence_end.all, W.story);
    var read = pyStrip(rest) ? this.name_spans(rest) : [[], false], spans = read[0], asked = new Set();
    spans.forEach(function (sp) {
      extendNew(u.cards, sp.names);
      if (sp.near) u.near_cards.push([fold(rest.slice(sp.start, sp.end)), sp.names[0]]);
      if (focus.asks(sp.start)) sp.names.forEach(function (c) { asked.add(c); });
    });
    u.story_cards = u.cards.filter(function (c) { return !asked.has(c); });
    u.card_text = R.card_text.one.test(rest);
    var bare = fold(rest.replace(R.card_text.all, " ")), bareNames = this.card_names(bare), named = new Set();
    u.cards.forEach(function (c) { fold(c).split(" ").forEach(function (w) { if (w) named.add(w); }); });
    u.card_query = u.cards.length > 0 && (read[1] || !!(bareNames && bareNames.length) ||
      bare.split(" ").filter(Boolean).every(function (w) { return named.has(w) || self.count_of(w) === 0; }));
    for (m of rest.matchAll(R.filler.all)) u.dropped.push(m[0]);
    rest = rest.replace(R.filler.all, " ");
    var weights = new Map();
    function add(terms, weight) {
      terms.forEach(function (t) { weights.set(t, Math.max(weights.has(t) ? weights.get(t) : 0.0, weight)); });
    }
    function analyzed(texts, u) {
      var out = [];
      texts.forEach(function (text) {
        tokens(text).forEach(function (token) { self.analyze_word(token, u).forEach(function (t) { out.push(t); }); });
      });
      return out;
    }
    focus = Focus(rest, R.sentence_end.all, W.story);
    var synonyms = [], saidSpans = [];
    for (m of rest.matchAll(this.phrases("synonyms"))) {
      var said = m[0], rulesWords = this.expansion("synonyms", said.toLowerCase()) || "";
      u.synonyms.push([said, rulesWords]);
      synonyms.push([rulesWords, focus.weight(m.index)]);
      saidSpans.push([m.index, m.index + said.length]);
    }
    var expanded = [], typed = [];
    for (m of rest.matchAll(QUERY_WORD)) {
      var word = stripChars(m[0], ".'-");
      if (!word) continue;
      var at = m.index;
      var weight = saidSpans.some(function (s) { return s[0] <= at && at < s[1]; }) ? W.said : W.typed;
      weight *= focus.weight(at);
      var expansion = this.expansion("abbreviations", word.toLowerCase());
      if (expansion) {
        u.abbreviations.push([word, expansion]);
        expanded.push([expansion, focus.weight(at)]);
        u.content.push(word);
        typed.push([analyzed([word], null), weight]);
        continue;
      }
      var key = fold(word);
      if (!key || this.question_words.has(key)) {
        u.dropped.push(word);
        continue;
      }
      var before = u.corrections.length, terms = analyzed([word], u);
      u.content.push(u.corrections.slice(before).map(function (c) { return c[1]; }).join(" ") || word);
      if (!focus.asks(at)) u.story.push(u.content[u.content.length - 1]);
      typed.push([terms, weight]);
    }
    expanded.slice().forEach(function (entry) {
      for (var s of entry[0].matchAll(self.phrases("synonyms"))) {
        synonyms.push([self.expansion("synonyms", s[0].toLowerCase()) || "", entry[1]]);
      }
    });
    synonyms.forEach(function (entry) { add(analyzed([entry[0]], null), W.synonym * entry[1]); });
    expanded.forEach(function (entry) { add(analyzed([entry[0]], null), W.abbreviation * entry[1]); });
    typed.forEach(function (entry) {
      entry[0].forEach(function (t) { u.typed.push(t); });
      add(entry[0], entry[1]);
    });
    var out = Array.from(weights.entries()), story = new Set(u.story_cards);
    u.cards.forEach(function (name) {
      var k = fold(name), told = story.has(name) ? W.story : 1.0;
      out.push(["about:" + k, (u.card_query ? W.about : W.about_named) * told]);
      out.push(["mention:" + k, W.mentions * told]);
    });
    u.annotations.forEach(function (n) {
      out.push(["number:annotation:" + n, W.number], ["cites:annotation:" + n, W.cites_annotation]);
    });
    u.rules.forEach(function (n) { out.push(["number:" + n, W.number], ["cites:rule:" + n, W.cites_rule]); });
    u.terms = out;
    u.question = q.indexOf("?") >= 0 || u.dropped.length >= 2 || pySplit(q).length >= 6;
    return u;
  };

  // -- kb.search: candidates, ranking, arrangement ----------------------------------------------------

  /* allowed: which documents a search may return, as a mask (allowed[d] is 1), per filter */
  Searcher.prototype.allowed = function (games, source) {
    var key = JSON.stringify([games, source || ""]);
    if (!this._filters.has(key)) {
      var ok = this.spec.sources.map(function (s) { return games.indexOf(s.game) >= 0 && (!source || s.id === source); });
      var allowed = new Uint8Array(this.docs_count), runs = this.source_runs;  // the site's index has them apart
      if (runs) {
        for (var r = 0; r < runs.length; r++) {
          if (ok[runs[r][0]]) allowed.fill(1, runs[r][1], r + 1 < runs.length ? runs[r + 1][1] : this.docs_count);
        }
      } else {
        for (var d = 0; d < this.docs_count; d++) if (ok[this.doc(d).source]) allowed[d] = 1;
      }
      this._filters.set(key, allowed);
    }
    return this._filters.get(key);
  };

  Searcher.prototype.idf = function (df) {
    return Math.log(this.docs_count / (df + 1)) + 1;
  };

  /* candidates: how a query is understood and the n documents BM25 scores best for it */
  Searcher.prototype.candidates = function (query, n, game, source) {
    var u = this.understand(query);
    var allowed = this.allowed(game ? [game] : (u.games.length ? u.games : ["meccg"]), source);
    // scores and covered weights by document number (0.0 until a term adds to them), and the
    // documents scored, in the order first reached
    var scores = new Float64Array(this.docs_count), covered = new Float64Array(this.docs_count);
    var scored = new Uint8Array(this.docs_count), reached = [], idf = new Map();
    var k1 = this.k1, b = this.b, avg = this.avg_length, lengths = this.spec.lengths, i, d;
    u.terms.forEach(function (entry) {
      var term = entry[0], weight = entry[1];
      if (term.indexOf(":") >= 0) {
        var docs = this.keys_of(term) || [];
        idf.set(term, this.idf(docs.length));
        var add = weight * idf.get(term);
        for (i = 0; i < docs.length; i++) {
          d = docs[i];
          if (allowed[d]) {
            if (!scored[d]) { scored[d] = 1; reached.push(d); }
            scores[d] += add;
          }
        }
        return;
      }
      var post = this.postings_of(term) || [];
      idf.set(term, post.length ? this.idf(Math.floor(post.length / 2)) : 0.0);
      var w = weight * idf.get(term);
      for (i = 0; i < post.length; i += 2) {
        d = post[i];
        if (allowed[d]) {
          var tf = post[i + 1];
          var part = tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[d] / avg));
          if (!scored[d]) { scored[d] = 1; reached.push(d); }
          scores[d] += w * part;
          covered[d] += w;
        }
      }
    }, this);
    var total = 0;
    u.terms.forEach(function (entry) { if (entry[0].indexOf(":") < 0) total += entry[1] * idf.get(entry[0]); });
    var top = best(reached, scores, n), named = this.name_coverage(u, top, idf);
    return {understanding: u, idf: idf, total: total, matching: reached.length, docs: top.map(function (d) {
      return [d, scores[d], total ? (covered[d] + (named.has(d) ? named.get(d) : 0.0)) / total : 0.0];
    })};
  };

  /* name_coverage: what the words of a card's name add to the coverage of the rulings on that card */
  Searcher.prototype.name_coverage = function (u, docs, idf) {
    var weights = new Map(), out = new Map(), self = this;
    u.terms.forEach(function (e) { if (e[0].indexOf(":") < 0) weights.set(e[0], e[1]); });
    u.cards.forEach(function (card) {
      var key = fold(card), terms = [];
      self.analyze_text(card).forEach(function (t) {
        if (terms.indexOf(t) < 0 && (weights.has(t) ? weights.get(t) : 0.0) * (idf.has(t) ? idf.get(t) : 0.0) > 0) terms.push(t);
      });
      if (!terms.length) return;
      var holders = terms.map(function (t) {
        var post = self.postings_of(t) || [], docs = new Set();
        for (var i = 0; i < post.length; i += 2) docs.add(post[i]);
        return docs;
      });
      docs.forEach(function (d) {
        if (self.doc(d).about.indexOf(key) < 0) return;
        var add = 0;
        terms.forEach(function (t, k) { if (!holders[k].has(d)) add += weights.get(t) * idf.get(t); });
        out.set(d, (out.has(d) ? out.get(d) : 0.0) + add);
      });
    });
    return out;
  };

  /* best: the n documents of the highest scores, best first (equal scores by document number): only
   * those at or above the n-th highest score are sorted by a comparison (a question reaches
   * thousands of documents; the numbers alone are sorted natively) */
  function best(docs, scores, n) {
    var cut = -Infinity;
    if (docs.length > n) {
      var values = new Float64Array(docs.length);
      for (var i = 0; i < docs.length; i++) values[i] = scores[docs[i]];
      values.sort();
      cut = values[docs.length - n];
    }
    return docs.filter(function (d) { return scores[d] >= cut; }).sort(function (x, y) {
      return scores[x] !== scores[y] ? (scores[x] > scores[y] ? -1 : 1) : x - y;
    }).slice(0, n);
  }

  /* search: the best `limit` rulings for a query, one per wording, current editions first */
  Searcher.prototype.search = function (query, limit, options) {
    options = options || {};
    limit = Math.max(1, Math.min(limit || 10, 200));
    var found = this.candidates(query, Math.max(this.candidate_count, limit * 4 + 20), options.game, options.source);
    var results = this.rank(found, limit, options.source || null, this.weights);
    var u = found.understanding;
    results.forEach(function (r) { r.matched = this.matched_terms(r, u); }, this);
    return {understanding: u, results: results, total: found.matching};
  };

  /* rank: score each candidate by its features (kb.ranking); keep one result per wording */
  Searcher.prototype.rank = function (found, limit, source, w) {
    var context = this.context(found.understanding, source, found.total), scored = [];
    found.docs.forEach(function (entry) {
      var d = entry[0], bm25 = entry[1], f = this.features(d, entry[2], context), data = this.data(d);
      scored.push({id: data.id, score: score(bm25, f, w), data: data, doc: d, also_in: [], also_docs: [], matched: [], features: f,
        text: data.text});
    }, this);
    return this.arrange(scored, found.understanding, limit);
  };

  /* arrange: best first; for a card name, its own rulings and mentions in turn; one result per
   * wording, an older edition's ruling folded into its current counterpart */
  Searcher.prototype.arrange = function (scored, u, limit) {
    scored.sort(function (x, y) { return x.score !== y.score ? (x.score > y.score ? -1 : 1) : x.doc - y.doc; });
    if (u.card_query) scored = interleave_card_results(scored, u.cards, u.card_text);
    var present = new Map(), seen = new Map(), out = [];
    scored.forEach(function (r) { present.set(r.doc, r); });
    for (var i = 0; i < scored.length; i++) {
      var r = scored[i], key = this.wording(r.doc), newer = own(this.spec.editions, String(r.doc));
      var twin = seen.get(key) || present.get(newer === undefined ? -1 : newer);
      if (twin !== undefined && twin !== r) {
        twin.also_in.push(r.id);
        twin.also_docs.push(r.doc);
        continue;
      }
      seen.set(key, r);
      out.push(r);
      if (out.length === limit) break;
    }
    return out;
  };

  /* wording: the first document with document d's words (folded, as the build found them) */
  Searcher.prototype.wording = function (d) {
    var same = this.doc(d).same_words;
    return same === null ? d : same;
  };

  /* matched_terms: the query's terms a result's passage holds (its text, or its section path) */
  Searcher.prototype.matched_terms = function (r, u) {
    var wanted = [];
    u.terms.forEach(function (e) { if (e[0].indexOf(":") < 0 && wanted.indexOf(e[0]) < 0) wanted.push(e[0]); });
    if (!wanted.length) return [];  // found by a number or a card: no words to look for
    var may = this.could_mean(wanted);
    var text = new Set(this.analyze_text(r.data.text, may)), path = new Set(this.analyze_text(r.data.section.join(" "), may));
    return wanted.filter(function (t) { return text.has(t); })
      .concat(wanted.filter(function (t) { return path.has(t) && !text.has(t); }).map(function (t) { return "section:" + t; }));
  };

  /* analyze_text: the index terms of corpus text, from the vocabulary the build wrote; given `may`
   * (could_mean), only of its words that may have the terms wanted */
  Searcher.prototype.analyze_text = function (text, may) {
    var out = [], self = this;
    tokens(text).forEach(function (token) {
      if (!may || may(token)) self.analyze_word(token, null).forEach(function (t) { out.push(t); });
    });
    return out;
  };

  /* could_mean: a test of whether a corpus word may have one of the wanted index terms; null (every
   * word may) unless the build found that every word's terms have the word's own first two characters
   * as theirs (kb.browserdata.terms_keep_prefix): then only a compound or a word whose first two
   * are a wanted term's may, and no other word is looked up in the vocabulary */
  Searcher.prototype.could_mean = function (wanted) {
    if (this.spec.terms_keep_prefix !== true) return null;
    var starts = new Set(wanted.map(function (t) { return firstChars(t, 2); }));
    var key = Array.from(starts).sort(cmpStr).join("\n");
    if (!this._may || this._may.key !== key) {  // one test (and what it said of each word) per query
      var said = new Map();
      this._may = {key: key, test: function (token) {
        var yes = said.get(token);
        if (yes === undefined) {
          var folded = fold_key(token);
          yes = COMPOUND.test(token) || starts.has(astral(folded.slice(0, 4)) ? firstChars(folded, 2) : folded.slice(0, 2));
          said.set(token, yes);
        }
        return yes;
      }};
    }
    return this._may.test;
  };

  /* interleave_card_results: its own rulings and the rulings that mention it, in turn, with the
   * card's text after the first two (first when the query asks for the card text) */
  function interleave_card_results(results, cards, textFirst) {
    var names = new Set(cards.map(fold));
    function onCard(r) { return r.data.about.some(function (a) { return names.has(a); }); }
    var texts = results.filter(function (r) { return r.data.kind === "card" && onCard(r); });
    var mine = results.filter(function (r) { return r.data.kind !== "card" && onCard(r); });
    var rest = results.filter(function (r) { return !onCard(r); });
    var others = rest.map(function (r, i) { return [r.data.kind === "card" ? 1 : 0, r.data.title ? 1 : 0, i, r]; })
      .sort(function (x, y) { return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; })
      .map(function (e) { return e[3]; });
    var mixed = [], n = Math.min(mine.length, others.length);
    for (var i = 0; i < n; i++) mixed.push(mine[i], others[i]);
    mixed = mixed.concat(mine.slice(others.length), others.slice(mine.length));
    var at = textFirst ? 0 : 2;
    return mixed.slice(0, at).concat(texts, mixed.slice(at));
  }

  // -- kb.ranking: features and score ------------------------------------------------------------------

  /* QueryContext.of: what every candidate of one query is compared with */
  Searcher.prototype.context = function (u, source, total) {
    var words = phrase_words(u);
    return {total: total, query_stems: new Set(u.typed), phrase: short_phrase(u, words),
      phrase_words: words, cards: new Set(u.cards.map(fold)), card_text: u.card_text, card_query: u.card_query,
      reference: u.annotations.length > 0 || u.rules.length > 0, how_many: u.how_many, numbers: new Set(u.numbers),
      variant_asked: u.arda, source: source, story_cards: new Set(u.story_cards.map(fold)), define: new Set(u.define)};
  };

  /* features: the features of candidate document d for one query (absent means 0); what no query
   * changes is the document's own (kb.searchspec.Doc): its prior, the terms it defines, its heading's
   * terms, the numbers and the step it gives */
  Searcher.prototype.features = function (d, covered, q) {
    var doc = this.doc(d), f = {}, self = this;
    this.spec.priors[doc.prior].forEach(function (name) {
      if (name === "source:variant" && (q.variant_asked || q.source === self.spec.sources[doc.source].id)) {
        name = "source:variant asked";
      }
      f[name] = 1.0;
    });
    if (doc.kind === "card") {
      var named = doc.about.some(function (a) { return q.cards.has(a); });  // a card's text is about its card alone
      if (named && q.card_text) f["card:asked text"] = 1.0;
      else if (!(named && q.card_query)) f["card:other"] = 1.0;
    } else {
      var onNamed = doc.about.some(function (a) { return q.cards.has(a); });
      if (doc.about.length && !onNamed) f["card:unnamed ruling"] = 1.0;
      else if (doc.about.length && !q.card_query) {
        var told = doc.about.every(function (a) { return !q.cards.has(a) || q.story_cards.has(a); });
        f[told ? "card:story ruling" : "card:named ruling"] = 1.0;
      }
      if (doc.defines.length) {
        var defined = new Set(doc.defines);
        if (q.define.size && sameSet(defined, q.define)) f["definition asked"] = 1.0;
        else if (sameSet(defined, q.query_stems) && !q.card_query) f.defines = 1.0;
      }
    }
    var head = this.heading_terms(doc.section);
    if (head !== null && (sameSet(head, q.query_stems) || (q.define.size && sameSet(head, q.define)))) {
      f.heading_is_query = 1.0;
    }
    if (q.total && !(q.reference || q.card_query)) {
      f.coverage = Math.log(C.COVERAGE_FLOOR + (1 - C.COVERAGE_FLOOR) * covered);
    }
    if (q.how_many && doc.numbers.some(function (n) { return !q.numbers.has(n); })) f.number_answer = 1.0;
    if (q.phrase !== null && may_hold(doc.text, q.phrase_words)) {
      var folded = fold(doc.text), found = q.phrase.exec(folded);
      if (found && (defines(pySplit(folded.slice(0, found.index)), found[0], doc.text)
                    || (doc.step && q.phrase.exec(doc.step) !== null))) f.definition = 1.0;
    }
    return f;
  };

  /* defines: whether a ruling puts the phrase where a definition does */
  function defines(prefix, phrase, text) {
    var n = prefix.length, last2 = prefix.slice(-2), before = prefix.slice(-3, -1);
    var afterIe = (last2.length === 2 && last2[0] === "i" && last2[1] === "e") ||
      (before.length === 2 && before[0] === "i" && before[1] === "e" && ["the", "a", "an"].indexOf(prefix[n - 1]) >= 0);
    if (n <= 2 || afterIe) return true;
    var first = pySplit(phrase)[0];
    return new RegExp("[\"\u201c\u00ab][" + PY_SPACE + "]*" + escapeRe(first)).test(text.toLowerCase());
  }

  /* heading_terms: the index terms of a section's heading as the build read them, a Set; null for a
   * section without a heading */
  Searcher.prototype.heading_terms = function (section) {
    if (!this._heads.has(section)) {
      var terms = this.spec.heading_terms[section];
      this._heads.set(section, terms === null ? null : new Set(terms));
    }
    return this._heads.get(section);
  };

  /* score: BM25 times exp(sum of weight x feature), summed in the features' order */
  function score(bm25, f, weights) {
    var sum = 0;
    Object.keys(f).forEach(function (name) {
      var w = own(weights, name);
      sum += (w === undefined ? 0.0 : w) * f[name];
    });
    return bm25 * Math.exp(sum);
  }

  /* phrase_words: the query's content words, folded, each as short_phrase's phrase must hold it
   * (its trailing s off) */
  function phrase_words(u) {
    return pySplit(fold(u.content.join(" "))).map(function (w) { return w.replace(/s+$/, ""); });
  }

  /* may_hold: false only where a text cannot hold the phrase (so it is not folded and searched): an
   * ASCII text's folded words are its own, apostrophes out, in lower case, so each word of the
   * phrase is then in the text so written */
  function may_hold(text, words) {
    if (NOT_ASCII.test(text)) return true;
    var lower = text.replace(APOSTROPHES, "").toLowerCase();
    return words.every(function (w) { return lower.indexOf(w) >= 0; });
  }

  /* short_phrase: for a short query naming a term (its phrase_words), the term as a folded phrase */
  function short_phrase(u, words) {
    if (!(words.length > 1 && words.length <= 4) || u.cards.length || u.annotations.length || u.rules.length) return null;
    var body = words.map(function (w) { return escapeRe(w) + "\\w{0,3}"; }).join("\\s+");
    return new RegExp("\\b" + body + "\\b");
  }

  // -- the page ----------------------------------------------------------------------------------------

  /* highlight_spans: where the query's words (or their stems, or recognised names) occur in a text */
  Searcher.prototype.highlight_spans = function (text, u) {
    var wanted = new Set(), spans = [], self = this, m;
    u.terms.forEach(function (e) { if (e[0].indexOf(":") < 0) wanted.add(e[0]); });
    var may = wanted.size ? this.could_mean(Array.from(wanted)) : null;
    for (m of wanted.size ? text.matchAll(TOKEN) : []) {
      if (may && !may(m[0])) continue;
      if (self.analyze_word(m[0], null).some(function (t) { return wanted.has(t); })) spans.push([m.index, m.index + m[0].length]);
    }
    var lowered = text.toLowerCase();
    u.cards.forEach(function (name) {
      var start = lowered.indexOf(name.toLowerCase());
      if (start >= 0) spans.push([start, start + name.length]);
    });
    return spans.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; });
  };

  var ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};
  function escapeHtml(s) {
    return String(s).replace(/[&<>"']/g, function (c) { return ENTITIES[c]; });
  }

  /* The text, escaped, with the spans marked (an overlapping span is skipped). */
  function highlight(text, spans) {
    var out = "", last = 0;
    spans.forEach(function (s) {
      if (s[0] < last) return;
      out += escapeHtml(text.slice(last, s[0])) + "<mark>" + escapeHtml(text.slice(s[0], s[1])) + "</mark>";
      last = s[1];
    });
    return out + escapeHtml(text.slice(last));
  }

  /* how the query was read, each thing once: the cards (a near spelling with what was typed), the
   * numbers, the abbreviations and synonyms, the spellings (a word of a card name read once, as the card) */
  function notes(u) {
    var out = [], typed = new Map(), named = new Set();
    u.near_cards.forEach(function (p) {
      typed.set(p[1], p[0]);
      pySplit(fold(p[0])).forEach(function (w) { named.add(w); });
    });
    u.cards.forEach(function (c) { out.push(typed.has(c) ? "“" + typed.get(c) + "” read as the card " + c : "card: " + c); });
    u.annotations.forEach(function (n) { out.push("annotation " + n); });
    u.rules.forEach(function (n) { out.push("rule " + n); });
    u.abbreviations.concat(u.synonyms).forEach(function (p) { out.push(p[0] + " → " + p[1]); });
    var spelt = u.corrections.filter(function (p) { return !named.has(fold(p[0])); });
    if (spelt.length) out.push("read as " + spelt.map(function (p) { return p[0] + " → " + p[1]; }).join(", "));
    return out;
  }

  /* own_words: the reader's own words (as typed) that a result matched: those whose index terms, or
   * the terms of what they were read as (an abbreviation, a synonym, a spelling), are among the
   * terms it matched (r.matched); the terms themselves are for --explain */
  function own_words(searcher, query, u, matched) {
    var found = new Set(matched), read = new Map(), out = [];
    u.abbreviations.concat(u.synonyms, u.corrections).forEach(function (p) { read.set(p[0].toLowerCase(), p[1]); });
    tokens(query).forEach(function (token) {
      var said = [token].concat(read.has(token.toLowerCase()) ? tokens(read.get(token.toLowerCase())) : []);
      if (out.indexOf(token) < 0 && said.some(function (w) {
        return searcher.analyze_word(w, null).some(function (t) { return found.has(t); });
      })) out.push(token);
    });
    return out;
  }

  /* A section path as a reader sees it: a divider ("-= III =-") as its letter (the site's "divider"). */
  function place(searcher, section) {
    var divider = searcher.divider();
    return section.map(function (title) {
      var m = divider ? divider.exec(title.trim()) : null;
      return m ? m[1].charAt(0).toUpperCase() : title;
    });
  }

  var PAGE = 20;

  /* the results of one query, `limit` of them (more on request), filtered by game and source */
  function render(searcher, state, ui, found) {
    var list = ui.list, status = ui.status;
    list.innerHTML = "";
    ui.more.hidden = true;
    if (!found) { status.textContent = "Type a question, a card name, a phase or an annotation number."; return; }
    var u = found.understanding, said = notes(u);
    var why = said.length ? " (" + said.join(" · ") + ")" : "";
    var shown = Math.min(found.results.length, found.total);
    status.textContent = found.results.length ? found.total + " rulings match" + why + "; showing " + shown + "."
      : "Nothing matches" + why + ". Try fewer or other words" + (state.source ? ", or every source" : "") + ".";
    var out = document.createDocumentFragment();
    u.cards.forEach(function (name) {
      var url = searcher.card_url(name);
      if (!url) return;
      var li = document.createElement("li");
      li.className = "card-hit";
      li.innerHTML = '<a href="' + escapeHtml(url) + '"><strong>' + escapeHtml(name) +
        '</strong></a> <span class="where">card page: its text, rulings and mentions</span>';
      out.appendChild(li);
    });
    found.results.forEach(function (r) {
      var d = r.data, li = document.createElement("li");
      var where = place(searcher, d.section);
      var label = d.kind === "card" ? "card: " + (d.title || "") : d.kind + (d.number ? " " + d.number : "");  // a card by name, not its database id
      var head = '<a href="' + escapeHtml(d.url) + '">' + escapeHtml(label) + "</a>" +
        ' <span class="where">' + escapeHtml(d.source_title + ", edition " + d.edition + (d.current ? "" : " (older edition)") +
        (where.length ? " › " + where.join(" › ") : "")) + "</span>";
      var also = r.also_docs.map(function (other) {
        var o = searcher.data(other);
        return '<a href="' + escapeHtml(o.url) + '">' + escapeHtml(o.source_title + (o.current ? "" : ", an older edition")) + "</a>";
      }).filter(Boolean);
      var text = searcher.shown(r.doc);
      var words = own_words(searcher, state.q, u, r.matched.filter(function (t) { return t.indexOf(":") < 0; }));
      li.innerHTML = head + '<div class="text">' + highlight(text, searcher.highlight_spans(text, u)) + "</div>" +
        (also.length ? '<div class="where">also in ' + also.join(", ") + ", in the same words</div>" : "") +
        (words.length ? '<div class="matched">matched: ' + escapeHtml(words.join(", ")) + "</div>" : "");
      out.appendChild(li);
    });
    list.appendChild(out);
    if (found.results.length >= state.limit && found.total > state.limit && state.limit < 200) {
      ui.more.hidden = false;
      ui.more.textContent = "Show " + Math.min(PAGE, found.total - state.limit) + " more";
    }
  }

  /* the page's address for a state: ?q= (shareable), plus the filters when set */
  function address(state) {
    var p = "?q=" + encodeURIComponent(state.q).replace(/%20/g, "+");
    if (state.game) p += "&game=" + encodeURIComponent(state.game);
    if (state.source) p += "&source=" + encodeURIComponent(state.source);
    return p;
  }

  function start() {
    var form = document.getElementById("search-form"), input = document.getElementById("q");
    var ui = {list: document.getElementById("results"), status: document.getElementById("status"),
      more: document.getElementById("more")};
    var game = document.getElementById("game"), source = document.getElementById("source");
    if (!form) return;
    if (!root.RULINGS_INDEX && !root.RULINGS_DATA) { ui.status.textContent = "The search data did not load."; return; }
    if (!fresh(ui.status, start)) return;
    var searcher = open();
    var params = new URLSearchParams(root.location.search);
    var saved = root.history.state && root.history.state.rulings ? root.history.state.rulings : null;
    var state = {q: params.get("q") || "", game: params.get("game") || "", source: params.get("source") || "",
      limit: PAGE, scroll: 0};
    if (saved && saved.q === state.q) state = saved;  // Back to this page: the same results, the same place
    input.value = state.q;
    if (game) game.value = state.game;
    if (source) source.value = state.source;

    // the place to come back to: read when the page scrolls or is left, never right after a
    // render (reading it then would lay out the new results before they can be painted)
    var scrolled = state.scroll;
    function remember(push) {
      state.scroll = scrolled;
      try {
        root.history[push ? "pushState" : "replaceState"]({rulings: state}, "", address(state));
      } catch (e) { /* file:// in some browsers */ }
    }
    function run(push, then) {
      var y = then ? root.scrollY : 0;
      render(searcher, state, ui, state.q.trim() ? searcher.search(state.q, state.limit,
        {game: state.game || undefined, source: state.source || undefined}) : null);
      if (then) then(y);
      remember(push);
    }
    var back = state.scroll;
    run(false, back ? function () { root.scrollTo(0, back); } : null);

    var timer = null;
    input.addEventListener("input", function () {  // results while typing, once the typing pauses
      clearTimeout(timer);
      timer = setTimeout(function () {
        state.q = input.value;
        state.limit = PAGE;
        run(false);
      }, 250);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      clearTimeout(timer);
      state.q = input.value;
      state.limit = PAGE;
      run(false);
    });
    function filter() {
      state.game = game ? game.value : "";
      state.source = source ? source.value : "";
      if (source && state.source) {  // a source is searched as a document of its own game
        var opt = source.options[source.selectedIndex];
        if (opt && opt.dataset.game) { state.game = opt.dataset.game; if (game) game.value = state.game; }
      }
      state.limit = PAGE;
      run(false);
    }
    if (game) game.addEventListener("change", filter);
    if (source) source.addEventListener("change", filter);
    ui.more.addEventListener("click", function () {
      state.limit = Math.min(state.limit + PAGE, 200);
      run(false, function (y) { root.scrollTo(0, y); });
    });
    var pending = null;
    root.addEventListener("scroll", function () {  // the place to come back to
      if (pending) return;
      pending = setTimeout(function () { pending = null; scrolled = root.scrollY; remember(false); }, 200);
    }, {passive: true});
    function leaving() { scrolled = root.scrollY; remember(false); }
    // the place is also kept the moment the page is left by a link (a result tapped right after
    // scrolling, before the scroll's pause): pagehide comes too late in some browsers
    root.document.addEventListener("click", function (ev) {
      if (ev.target && ev.target.closest && ev.target.closest("a[href]")) leaving();
    }, true);
    root.addEventListener("pagehide", leaving);
  }

  /* fresh(status, then): whether every data file the page loaded is of the page's own build: each
   * script tag names its build (data-build) and the file says its own (data-built, kb.website.stamp).
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

  /* open: the searcher of the page's own index */
  function open() {
    if (root.RULINGS_DATA) return new Searcher(root.RULINGS_DATA);
    var data = JSON.parse(root.RULINGS_INDEX);
    data.docs = root.RULINGS_DOCS;  // JSON lines, each parsed when a query needs it
    var parts = root.RULINGS_PARTS || {};  // the tables in buckets of JSON text, each parsed when first used
    Object.keys(parts).forEach(function (table) { data[table] = parts[table]; });
    return new Searcher(data);
  }

  var api = {Searcher: Searcher, open: open, fresh: fresh, bucket: bucket, clean: clean, strip_marks: strip_marks, fold: fold, fold_key: fold_key,
    distance: distance, NameIndex: NameIndex, read_card: read_card, quoted: quoted};
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else if (root.document) {
    root.RulingsSearch = api;
    // the search page's script comes after its form and results list: it starts at once, without
    // waiting for the rest of the page; elsewhere (or before they are parsed) once the page is read
    if (root.document.readyState === "loading" && !root.document.getElementById("more")) {
      root.document.addEventListener("DOMContentLoaded", start);
    } else {
      start();
    }
  }
})(typeof window !== "undefined" ? window : this);

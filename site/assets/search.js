/* Offline search for the rulings site: kb/search/search.py in JavaScript, the engine: a question read by
 * question.js (kb/search/question.py) and query.js (kb/search/query.py), BM25 over the passage units' postings, the candidates scored by
 * ranking.js (kb/search/ranking.py) and arranged for reading, over the knowledge base's own search data as
 * the site ships it (searchspec.js over assets/search-index.js), so a question gets the same
 * answers in the browser as in the terminal. Nothing is re-indexed or decided here that the build
 * decided: the postings, the vocabulary (every corpus word's index terms), card names, the query
 * patterns and tables, BM25's parameters, the ranking weights and each document's constant
 * features all come prebuilt.
 * Each module carries the name of the Python module it executes and each function the name of the
 * Python function; tests/data/search/cases.json holds both to the same readings, results and
 * scores, and tests/test_parity.py runs every evaluation question through both.
 * Loads by a script tag (window.RulingsSearch) or in node (module.exports). */
(function (root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;
  var U = node ? require("./question.js") : root.RulingsQuestion;
  var S = node ? require("./searchspec.js") : root.RulingsSpec;
  var R = node ? require("./ranking.js") : root.RulingsRanking;

  /* Searcher: the search data of the page (spec, a SearchSpec), opened once */
  function Searcher(spec) {
    this.spec = spec;
    var raw = spec.raw;
    this.k1 = Number(raw.bm25.k1);
    this.b = Number(raw.bm25.b);
    this.candidate_count = Number(raw.candidates);
    this.weights = raw.weights;
    this._filters = new Map();
    this._may = null;
  }

  Searcher.prototype.understand = function (query) { return U.understand(query, this.spec); };

  /* _allowed: which documents a search may return, as a mask (allowed[d] is 1), per filter, made a run
   * of one source's documents at a time (the site's index gives the runs) */
  Searcher.prototype.allowed = function (games, source) {
    var key = JSON.stringify([games, source || ""]);
    if (!this._filters.has(key)) {
      var spec = this.spec, runs = spec.raw.source_runs;
      var ok = spec.raw.sources.map(function (s) { return games.indexOf(s.game) >= 0 && (!source || s.id === source); });
      var allowed = new Uint8Array(spec.docs_count);
      for (var r = 0; r < runs.length; r++) {
        if (ok[runs[r][0]]) allowed.fill(1, runs[r][1], r + 1 < runs.length ? runs[r + 1][1] : spec.docs_count);
      }
      this._filters.set(key, allowed);
    }
    return this._filters.get(key);
  };

  Searcher.prototype.idf = function (df) {
    return Math.log(this.spec.docs_count / (df + 1)) + 1;
  };

  /* candidates: how a query is understood and the n documents BM25 (kb.search.search.Searcher.bm25) scores best for it */
  Searcher.prototype.candidates = function (query, n, game, source) {
    var u = this.understand(query), spec = this.spec;
    var allowed = this.allowed(game ? [game] : (u.games.length ? u.games : ["meccg"]), source);
    // scores and covered weights by document number (0.0 until a term adds to them), and the
    // documents scored, in the order first reached
    var scores = new Float64Array(spec.docs_count), covered = new Float64Array(spec.docs_count);
    var scored = new Uint8Array(spec.docs_count), reached = [], idf = new Map();
    var k1 = this.k1, b = this.b, avg = spec.raw.avg_length, lengths = spec.raw.lengths, i, d;
    u.terms.forEach(function (entry) {
      var term = entry[0], weight = entry[1];
      if (term.indexOf(":") >= 0) {
        var docs = spec.keys_of(term) || [];
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
      var post = spec.postings_of(term) || [];
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
    var weights = new Map(), out = new Map(), spec = this.spec;
    u.terms.forEach(function (e) { if (e[0].indexOf(":") < 0) weights.set(e[0], e[1]); });
    u.cards.forEach(function (card) {
      var key = Q.fold(card), terms = [];
      Q.analyze_text(card, spec).forEach(function (t) {
        if (terms.indexOf(t) < 0 && (weights.has(t) ? weights.get(t) : 0.0) * (idf.has(t) ? idf.get(t) : 0.0) > 0) terms.push(t);
      });
      if (!terms.length) return;
      var holders = terms.map(function (t) {
        var post = spec.postings_of(t) || [], docs = new Set();
        for (var i = 0; i < post.length; i += 2) docs.add(post[i]);
        return docs;
      });
      docs.forEach(function (d) {
        if (spec.doc(d).about.indexOf(key) < 0) return;
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

  /* rank: score each candidate by its features (ranking.js); keep one result per wording */
  Searcher.prototype.rank = function (found, limit, source, w) {
    var context = R.context(found.understanding, source, this.spec, found.total), scored = [];
    found.docs.forEach(function (entry) {
      var d = entry[0], f = R.features(d, entry[2], context), data = this.spec.data(d);
      scored.push({id: data.id, score: R.score(entry[1], f, w), data: data, doc: d, also_in: [], also_docs: [],
        same_rule: [], same_docs: [], matched: [], features: f, text: data.text});
    }, this);
    return this.arrange(scored, found.understanding, limit);
  };

  /* arrange: best first; for a card name, its own rulings and mentions in turn; one result per
   * wording, an older edition's ruling folded into its current counterpart; one result per rule: a
   * ruling that states the rule of a result ranked above it is shown under that result (same_rule) */
  Searcher.prototype.arrange = function (scored, u, limit) {
    scored.sort(function (x, y) { return x.score !== y.score ? (x.score > y.score ? -1 : 1) : x.doc - y.doc; });
    if (u.card_query) scored = interleave_card_results(scored, u.cards, u.card_text);
    var present = new Map(), seen = new Map(), shown = new Set(), out = [], raw = this.spec.raw;
    scored.forEach(function (r) { present.set(r.doc, r); });
    for (var i = 0; i < scored.length; i++) {
      var r = scored[i];
      if (shown.has(r.doc)) continue;
      var key = this.wording(r.doc), newer = Q.own(raw.editions, String(r.doc));
      var twin = seen.get(key) || present.get(newer === undefined ? -1 : newer);
      if (twin !== undefined && twin !== r) {
        twin.also_in.push(r.id);
        twin.also_docs.push(r.doc);
        continue;
      }
      seen.set(key, r);
      var same = Q.own(raw.same_rule, String(r.doc)) || [];
      same.forEach(function (d) { shown.add(d); });
      r.same_docs = same.slice();
      r.same_rule = same.map(this.equivalent, this);
      out.push(r);
      if (out.length === limit) break;
    }
    return out;
  };

  /* equivalent: a ruling shown under a result that states the same rule: its id, source and text */
  Searcher.prototype.equivalent = function (d) {
    var doc = this.spec.doc(d);
    return {id: doc.id, source: this.spec.raw.sources[doc.source].id, text: doc.text};
  };

  /* wording: the first document with document d's words (folded, as the build found them) */
  Searcher.prototype.wording = function (d) {
    var same = this.spec.doc(d).same_words;
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
    var out = [], spec = this.spec;
    Q.tokens(text).forEach(function (token) {
      if (!may || may(token)) Q.analyze_word(token, spec, null).forEach(function (t) { out.push(t); });
    });
    return out;
  };

  /* could_mean: a test of whether a corpus word may have one of the wanted index terms; null (every
   * word may) unless the build found that every word's terms have the word's own first two characters
   * as theirs (kb.site.browserdata.terms_keep_prefix): then only a compound or a word whose first two
   * are a wanted term's may, and no other word is looked up in the vocabulary */
  Searcher.prototype.could_mean = function (wanted) {
    if (this.spec.raw.terms_keep_prefix !== true) return null;
    var starts = new Set(wanted.map(function (t) { return Q.firstChars(t, 2); }));
    var key = Array.from(starts).sort().join("\n");
    if (!this._may || this._may.key !== key) {  // one test (and what it said of each word) per query
      var said = new Map();
      this._may = {key: key, test: function (token) {
        var yes = said.get(token);
        if (yes === undefined) {
          var folded = Q.fold_key(token);
          yes = Q.COMPOUND.test(token) || starts.has(Q.astral(folded.slice(0, 4)) ? Q.firstChars(folded, 2) : folded.slice(0, 2));
          said.set(token, yes);
        }
        return yes;
      }};
    }
    return this._may.test;
  };

  /* interleave_card_results: its own rulings and the rulings that mention it, in turn, with the
   * card's text after the first two rulings (first when the query asks for the card text): another
   * card's text that names it never comes before its own */
  function interleave_card_results(results, cards, textFirst) {
    var names = new Set(cards.map(Q.fold));
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
    var at = textFirst ? 0 : Math.min(2, mixed.length);
    for (var k = 0; k < at; k++) if (mixed[k].data.kind === "card") { at = k; break; }
    return mixed.slice(0, at).concat(texts, mixed.slice(at));
  }

  /* highlight_spans: where the query's words (or their stems, or recognised names) occur in a text: each span
   * once, in order (by start, then end), as kb.search.search.highlight_spans gives them */
  Searcher.prototype.highlight_spans = function (text, u) {
    var wanted = new Set(), spans = [], spec = this.spec, m;
    u.terms.forEach(function (e) { if (e[0].indexOf(":") < 0) wanted.add(e[0]); });
    var may = wanted.size ? this.could_mean(Array.from(wanted)) : null;
    for (m of wanted.size ? text.matchAll(Q.TOKEN) : []) {
      if (may && !may(m[0])) continue;
      if (Q.analyze_word(m[0], spec, null).some(function (t) { return wanted.has(t); })) spans.push([m.index, m.index + m[0].length]);
    }
    var lowered = text.toLowerCase();
    u.cards.forEach(function (name) {
      var start = lowered.indexOf(name.toLowerCase());
      if (start >= 0) spans.push([start, start + name.length]);
    });
    return spans.sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; }).filter(function (s, i, all) {
      return i === 0 || s[0] !== all[i - 1][0] || s[1] !== all[i - 1][1];
    });
  };

  /* open: the searcher of the page's own search data (kb.search.search.open_searcher; searchspec.js open) */
  function open() { return new Searcher(S.open()); }

  /* of: the searcher of search data given whole (kb.site.browserdata.packed's, as tests and tools hand it over) */
  function of(data) { return new Searcher(new S.SearchSpec(data)); }

  var api = {Searcher: Searcher, open: open, of: of};
  if (node) module.exports = api;
  else root.RulingsSearch = api;
})(typeof window !== "undefined" ? window : this);

/* Ranking: kb/search/ranking.py in JavaScript, what each search hit is (its features) and its score, BM25
 * times exp(sum of weight x feature), the weights and the documents' constant features (their prior,
 * the terms they define, their headings' terms, the numbers and steps they give) read from the
 * search data, where the build decided them (kb.search.ranking.document_fields, kb.search.searchspec.Doc).
 * Floats are added in the features' order, as kb.search.ranking.plain_sum adds; Math.log and Math.exp may
 * differ from the C library's in the last bit, so scores agree to about 1e-15, not always exactly.
 * Loads by a script tag (window.RulingsRanking) or in node (module.exports). */
(function (root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;

  function sameSet(a, b) {
    if (a.size !== b.size) return false;
    var ok = true;
    a.forEach(function (x) { if (!b.has(x)) ok = false; });
    return ok;
  }

  /* QueryContext.of: what every candidate of one query is compared with (total: the IDF-weighted
   * total of its plain terms, which coverage is a share of) */
  function context(u, source, spec, total) {
    var words = phrase_words(u);
    return {total: total, query_stems: new Set(u.typed), phrase: short_phrase(u, words),
      phrase_words: words, cards: new Set(u.cards.map(Q.fold)), card_text: u.card_text, card_query: u.card_query,
      reference: u.annotations.length > 0 || u.rules.length > 0, how_many: u.how_many, numbers: new Set(u.numbers),
      variant_asked: u.arda, source: source, spec: spec, story_cards: new Set(u.story_cards.map(Q.fold)),
      define: new Set(u.define)};
  }

  /* features: the features of candidate document d for one query (absent means 0); what no query
   * changes is the document's own (kb.search.searchspec.Doc): its prior, the terms it defines, its heading's
   * terms, the numbers and the step it gives */
  function features(d, covered, q) {
    var spec = q.spec, doc = spec.doc(d), f = {};
    spec.prior(d).forEach(function (name) {
      if (name === "source:variant" && (q.variant_asked || q.source === spec.raw.sources[doc.source].id)) {
        name = "source:variant asked";  // kb.search.ranking.VARIANT, when the query asks for the variant
      }
      f[name] = 1.0;
    });
    var named = doc.about.some(function (a) { return q.cards.has(a); });
    if (doc.kind === "card") {  // a card's text is about its card alone
      if (named && q.card_text) f["card:asked text"] = 1.0;
      else if (!(named && q.card_query)) f["card:other"] = 1.0;
    } else {
      if (doc.about.length && !named) f["card:unnamed ruling"] = 1.0;
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
    var heading = spec.heading_terms(doc.section);
    if (heading !== null && (sameSet(heading, q.query_stems) || (q.define.size && sameSet(heading, q.define)))) {
      f.heading_is_query = 1.0;
    }
    if (q.total && !(q.reference || q.card_query)) {
      var floor = spec.limits.COVERAGE_FLOOR;
      f.coverage = Math.log(floor + (1 - floor) * covered);
    }
    if (q.how_many && doc.numbers.some(function (n) { return !q.numbers.has(n); })) f.number_answer = 1.0;
    if (q.phrase !== null && may_hold(doc.text, q.phrase_words)) {
      var folded = Q.fold(doc.text), found = q.phrase.exec(folded);
      if (found && (defines(folded.slice(0, found.index).split(" ").filter(Boolean), found[0], doc.text)
                    || (doc.step && q.phrase.exec(doc.step) !== null))) f.definition = 1.0;
    }
    return f;
  }

  /* defines: whether a ruling puts the phrase where a definition does (prefix: the folded words before it) */
  function defines(prefix, phrase, text) {
    var n = prefix.length, last2 = prefix.slice(-2), before = prefix.slice(-3, -1);
    var afterIe = (last2.length === 2 && last2[0] === "i" && last2[1] === "e") ||
      (before.length === 2 && before[0] === "i" && before[1] === "e" && ["the", "a", "an"].indexOf(prefix[n - 1]) >= 0);
    if (n <= 2 || afterIe) return true;
    var first = phrase.split(" ")[0];  // a folded phrase: words and single spaces
    return new RegExp("[\"\u201c\u00ab][" + Q.PY_SPACE + "]*" + Q.escapeRe(first)).test(text.toLowerCase());
  }

  /* score: BM25 times exp(sum of weight x feature), added in the features' order (kb.search.ranking.plain_sum) */
  function score(bm25, f, weights) {
    var sum = 0;
    Object.keys(f).forEach(function (name) {
      var w = Q.own(weights, name);
      sum += (w === undefined ? 0.0 : w) * f[name];
    });
    return bm25 * Math.exp(sum);
  }

  /* phrase_words: the query's content words, folded, each as short_phrase's phrase must hold it
   * (its trailing s off) */
  function phrase_words(u) {
    return Q.fold(u.content.join(" ")).split(" ").filter(Boolean).map(function (w) { return w.replace(/s+$/, ""); });
  }

  /* may_hold: false only where a text cannot hold the phrase (so it is not folded and searched): an
   * ASCII text's folded words are its own, apostrophes out, in lower case, so each word of the
   * phrase is then in the text so written */
  function may_hold(text, words) {
    if (Q.NOT_ASCII.test(text)) return true;
    var lower = text.replace(Q.APOSTROPHES, "").toLowerCase();
    return words.every(function (w) { return lower.indexOf(w) >= 0; });
  }

  /* short_phrase: for a short query naming a term (its phrase_words), the term as a folded phrase */
  function short_phrase(u, words) {
    if (!(words.length > 1 && words.length <= 4) || u.cards.length || u.annotations.length || u.rules.length) return null;
    var body = words.map(function (w) { return Q.escapeRe(w) + "\\w{0,3}"; }).join("\\s+");
    return new RegExp("\\b" + body + "\\b");
  }

  var api = {context: context, features: features, defines: defines, score: score, short_phrase: short_phrase};
  if (node) module.exports = api;
  else root.RulingsRanking = api;
})(typeof window !== "undefined" ? window : this);

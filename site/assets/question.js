/* A question understood: kb/search/question.py in JavaScript, function for function: a judge's words in,
 * weighted index terms and recognised references out, in the four steps understand() takes, over
 * what query.js reads (its words, their terms, the card names) and the page's search data.
 * Loads by a script tag (window.RulingsQuestion) or in node (module.exports). */
(function question_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;
  var clean = Q.clean, strip_marks = Q.strip_marks, fold = Q.fold, analyze_text = Q.analyze_text, name_spans = Q.name_spans;
  var Understanding = Q.Understanding, extendNew = Q.extendNew, QUERY_WORD = Q.QUERY_WORD, EDGE_MARKS = Q.EDGE_MARKS;

  /* Focus: which sentences of a query ask its question (ends: where each ends; asking: whether
   * it asks); in a post of several sentences where some end with "?", those, the others the story */
  function Focus(text, pattern, story) {
    var ends = [], asking = [], m;
    for (m of text.matchAll(pattern)) {
      ends.push(m.index + m[0].length);
      asking.push(m[0].indexOf("?") >= 0);
    }
    if (!ends.length || /[^ ]/.test(text.slice(ends[ends.length - 1]))) {  // more than spaces after the last
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

  /* understand: a query read, in the four steps kb.search.question.understand takes: references, cards, words, weights */
  function understand(query, vocab) {
    var q = clean(query, vocab.limits.MAX_QUERY), u = Understanding(q);
    var rest = read_references(u, strip_marks(q), vocab);
    rest = read_cards(u, rest, vocab);
    u.terms = weigh_references(u, read_words(u, rest, vocab), vocab);
    u.question = q.indexOf("?") >= 0 || u.dropped.length >= 2 || (q ? q.split(" ").length : 0) >= 6;
    return u;
  }

  /* kb.keys.numbers_meant: the typed number itself if it is one of those differing from it only in case, else all of them */
  function numbers_meant(typed, alike) { return alike.indexOf(typed) >= 0 ? [typed] : alike.slice(); }

  /* rule_numbers: the rule numbers a typed one stands for, by the search data's rule_numbers table */
  function rule_numbers(typed, vocab) {
    var lower = typed.toLowerCase();
    return numbers_meant(typed, (vocab.expansion("rule_numbers", lower) || lower).split(" "));
  }

  /* read_references: another game, Arda, how many, numbers, annotations and rules (taken out), the term defined or asked about */
  function read_references(u, a, vocab) {
    var R = vocab.rules, m;
    if (R.other_game.one.test(a)) u.games.push("lotr-tcg");
    u.arda = R.arda.one.test(a);
    u.how_many = R.how_many.one.test(a);
    var numbers = new Set();
    for (m of a.matchAll(R.number.all)) numbers.add(m[0].toLowerCase());
    u.numbers = Array.from(numbers).sort();
    var rest = a;
    for (m of a.matchAll(R.annotation.all)) {
      u.annotations.push(m[1].toLowerCase());
      rest = rest.split(m[0]).join(" ");
    }
    for (m of rest.matchAll(R.timing.all)) u.rules.push.apply(u.rules, rule_numbers(m[1], vocab));
    for (m of rest.matchAll(R.rule.all)) {
      u.rules.push.apply(u.rules, rule_numbers(m[1], vocab));
      rest = rest.split(m[0]).join(" ");
    }
    var meaning = R.define.one.exec(rest) || R.asked.one.exec(rest);
    if (meaning) {
      var subject = meaning[1] || meaning[2] || "";
      u.define = analyze_text(subject, vocab).filter(function (t) { return !/^\p{Nd}/u.test(t); });
    }
    return rest;
  }

  /* read_cards: the cards named, those only in the story, card text asked, names alone; the text without filler */
  function read_cards(u, rest, vocab) {
    var R = vocab.rules, m;
    var focus = Focus(rest, R.sentence_end.all, vocab.weights.story);
    var read = /[^ ]/.test(rest) ? name_spans(rest, vocab) : [[], false], spans = read[0], asked = new Set();
    spans.forEach(function (sp) {
      extendNew(u.cards, sp.names);
      if (sp.near) u.near_cards.push([fold(rest.slice(sp.start, sp.end)), sp.names[0]]);
      if (focus.asks(sp.start)) sp.names.forEach(function (c) { asked.add(c); });
    });
    u.story_cards = u.cards.filter(function (c) { return !asked.has(c); });
    u.card_text = R.card_text.one.test(rest);
    var bare = fold(rest.replace(R.card_text.all, " ")), bareNames = vocab.card_names(bare), named = new Set();
    u.cards.forEach(function (c) { fold(c).split(" ").forEach(function (w) { if (w) named.add(w); }); });
    u.card_query = u.cards.length > 0 && (read[1] || !!(bareNames && bareNames.length) ||
      bare.split(" ").filter(Boolean).every(function (w) { return named.has(w) || vocab.count_of(w) === 0; }));
    for (m of rest.matchAll(R.filler.all)) u.dropped.push(m[0]);
    return rest.replace(R.filler.all, " ");
  }

  /* read_synonyms: [the rules' words of each players' phrase said, its weight] and where each was said */
  function read_synonyms(u, rest, focus, vocab) {
    var synonyms = [], saidSpans = [], m;
    for (m of rest.matchAll(vocab.phrases("synonyms"))) {
      var said = m[0], rulesWords = vocab.expansion("synonyms", said.toLowerCase()) || "";
      u.synonyms.push([said, rulesWords]);
      synonyms.push([rulesWords, focus.weight(m.index)]);
      saidSpans.push([m.index, m.index + said.length]);
    }
    return [synonyms, saidSpans];
  }

  /* read_words: each index term of the query's words at its best weight (a Map, in insertion order) */
  function read_words(u, rest, vocab) {
    var W = vocab.weights, m, weights = new Map();
    function add(terms, weight) {
      terms.forEach(function (t) { weights.set(t, Math.max(weights.has(t) ? weights.get(t) : 0.0, weight)); });
    }
    var focus = Focus(rest, vocab.rules.sentence_end.all, W.story);
    var said = read_synonyms(u, rest, focus, vocab), synonyms = said[0], saidSpans = said[1];
    var expanded = [], typed = [];
    for (m of rest.matchAll(QUERY_WORD)) {
      var word = m[0].replace(EDGE_MARKS, "");
      if (!word) continue;
      var at = m.index;
      var weight = saidSpans.some(function (s) { return s[0] <= at && at < s[1]; }) ? W.said : W.typed;
      weight *= focus.weight(at);
      var expansion = vocab.expansion("abbreviations", word.toLowerCase());
      if (expansion) {
        u.abbreviations.push([word, expansion]);
        expanded.push([expansion, focus.weight(at)]);
        u.content.push(word);
        typed.push([analyze_text(word, vocab), weight]);
        continue;
      }
      var key = fold(word);
      if (!key || vocab.question_words.has(key)) {
        u.dropped.push(word);
        continue;
      }
      var before = u.corrections.length, terms = analyze_text(word, vocab, u);
      u.content.push(u.corrections.slice(before).map(function (c) { return c[1]; }).join(" ") || word);
      if (!focus.asks(at)) u.story.push(u.content[u.content.length - 1]);
      typed.push([terms, weight]);
    }
    expanded.slice().forEach(function (entry) {
      for (var s of entry[0].matchAll(vocab.phrases("synonyms"))) {
        synonyms.push([vocab.expansion("synonyms", s[0].toLowerCase()) || "", entry[1]]);
      }
    });
    synonyms.forEach(function (entry) { add(analyze_text(entry[0], vocab), W.synonym * entry[1]); });
    expanded.forEach(function (entry) { add(analyze_text(entry[0], vocab), W.abbreviation * entry[1]); });
    typed.forEach(function (entry) {
      entry[0].forEach(function (t) { u.typed.push(t); });
      add(entry[0], entry[1]);
    });
    return weights;
  }

  /* weigh_references: the words' terms, then each card's, annotation's and rule's */
  function weigh_references(u, weights, vocab) {
    var W = vocab.weights, out = Array.from(weights.entries()), story = new Set(u.story_cards);
    u.cards.forEach(function (name) {
      var k = fold(name), told = story.has(name) ? W.story : 1.0;
      out.push(["about:" + k, (u.card_query ? W.about : W.about_named) * told]);
      out.push(["mention:" + k, W.mentions * told]);
    });
    u.annotations.forEach(function (n) {
      out.push(["number:annotation:" + n, W.number], ["cites:annotation:" + n, W.cites_annotation]);
    });
    u.rules.forEach(function (n) { out.push(["number:" + n, W.number], ["cites:rule:" + n, W.cites_rule]); });
    return out;
  }

  var api = {module: question_js, Focus: Focus, understand: understand, rule_numbers: rule_numbers};
  if (node) module.exports = api;
  else root.RulingsQuestion = api;
})(typeof window !== "undefined" ? window : this);

/* Offline search for the MECCG rulings site: BM25 over every ruling, built in the browser from
 * search-data.js (no server, works from file://). Forgiving like the CLI where practical: accents
 * folded, a light English stemmer, judges' abbreviations and players' words from the same tables,
 * card names despite typos, "annotation 18" / "rule 2.IV.iii" recognised, misspelt words corrected
 * from the corpus's own vocabulary. Also loads in node for tests: module.exports = {Searcher}. */
(function (root) {
  "use strict";

  var STOP = new Set(("a an the i me my mine we our you your he his she her they their them it its is are was were " +
    "be been am do does did doing done can could would should shall will may might must what whats which who whom " +
    "whose when where why how many much if then than there here this that these those just still also happen happens " +
    "happened legal allowed okay ok possible please tell anyone someone some any really get gets got so too very " +
    "about into onto or and but not no yes of to in on at by for with as from").split(" "));
  var ANNOTATION_REF = /\b(?:annotations?|annot|anno|ann)\.?\s*#?\s*(\d{1,2}[ab]?)\b/gi;
  var RULE_REF = /(?:^|[^\w.])((?:\d{1,2}|g)(?:\.[A-Za-z0-9]+)+)(?![\w.])/g;
  var TIMING_REF = /\b(?:timing\s+)?rule\s+(\d[A-Da-d]?)(?![.\w])/gi;
  var OTHER_GAME = /\b(?:lotr|lord of the rings tcg|decipher)\b/i;
  var ARDA = /\barda\b/i;
  var MAX_QUERY = 2000;

  function fold(s) {
    return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/['’‘`´ʹ]/g, "").toLowerCase();
  }
  function foldWords(s) { return (fold(s).match(/[a-z0-9]+/g) || []).join(" "); }

  function stem(w) {
    if (w.length <= 3 || /\d/.test(w)) return w;
    if (/ies$/.test(w) && w.length > 4) return w.slice(0, -3) + "y";
    if (/(ss|us|is)$/.test(w)) return w;
    w = w.replace(/(?:ing|ed|ings)$/, function (m, i, s) { return s.length - m.length >= 3 ? "" : m; });
    if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
    w = w.replace(/(?:es)$/, function (m, i, s) { return /(?:ch|sh|x|ss|zz)es$/.test(s) ? "" : "e"; });
    if (w.length > 3 && /s$/.test(w) && !/ss$/.test(w)) w = w.slice(0, -1);
    if (w.length > 4 && /e$/.test(w)) w = w.slice(0, -1);
    return w;
  }

  var STEMS = {};  /* corpus word -> its stem by the CLI's analyzer ("" for its stop words); set by Searcher */

  function stemOf(word) {
    var known = STEMS[word];
    return known === undefined ? stem(word) : known;
  }

  /* Words of a text: compounds kept whole ("m/h", "2.iv.iii", "on-guard") and also split and stemmed. */
  function analyze(text) {
    var out = [], m, re = /[a-z0-9]+(?:[\/.\-][a-z0-9]+)*/g, s = fold(text);
    while ((m = re.exec(s)) !== null) {
      var word = m[0];
      if (/[\/.\-]/.test(word)) out.push(word);
      var parts = word.split(/[\/.\-]/);
      for (var i = 0; i < parts.length; i++) {
        var st = parts[i] && !STOP.has(parts[i]) ? stemOf(parts[i]) : "";
        if (st) out.push(st);
      }
    }
    return out;
  }

  /* For a card's name: its own rulings and the rulings that name it, in turn; its card text third. */
  function interleave(ranked, own, naming, docs) {
    var texts = [], mine = [], others = [], rest = [], out = [];
    ranked.forEach(function (r) {
      var d = r[1];
      if (own.has(d) && docs[d][3] === "card") texts.push(r);
      else if (own.has(d)) mine.push(r);
      else if (naming.has(d)) others.push(r);
      else rest.push(r);
    });
    others = others.filter(function (r) { return docs[r[1]][3] !== "card"; })
      .concat(others.filter(function (r) { return docs[r[1]][3] === "card"; }));  // rulings before other cards
    for (var i = 0; i < Math.max(mine.length, others.length); i++) {
      if (i < mine.length) out.push(mine[i]);
      if (i < others.length) out.push(others[i]);
    }
    return out.slice(0, 2).concat(texts, out.slice(2), rest);
  }

  function sameWords(a, words) {
    var x = analyze(a).filter(function (t) { return !/[\/.\-]/.test(t) && !/^\d/.test(t); });  // no section number
    if (!x.length || x.length !== new Set(words).size) return false;
    return x.every(function (t) { return words.indexOf(t) >= 0; });
  }

  function escapeHtml(s) {
    return s.replace(/[&<>"']/g, function (c) { return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]; });
  }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&"); }

  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    var prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) prev[j] = j;
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var best = i;
      for (j = 1; j <= b.length; j++) {
        cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (cur[j] < best) best = cur[j];
      }
      if (best > max) return max + 1;
      prev = cur;
    }
    return prev[b.length];
  }

  function phrasePattern(keys) {
    keys = keys.slice().sort(function (a, b) { return b.length - a.length; });
    return new RegExp("(?:^|[^\\w'’])(" + keys.map(escapeRe).join("|") + ")(?![\\w'’])", "gi");
  }

  function Searcher(data) {
    this.data = data;
    STEMS = data.stems || {};
    var docs = data.docs, post = new Map(), lens = new Float64Array(docs.length), total = 0, freq = new Map();
    this.byNumber = new Map();
    for (var d = 0; d < docs.length; d++) {
      var doc = docs[d], words = analyze(doc[6] + " " + doc[7]).concat(analyze(doc[5]), analyze(doc[5]));
      var tf = new Map();
      for (var w = 0; w < words.length; w++) tf.set(words[w], (tf.get(words[w]) || 0) + 1);
      tf.forEach(function (n, term) {
        var list = post.get(term);
        if (!list) { list = []; post.set(term, list); }
        list.push(d, n);
        freq.set(term, (freq.get(term) || 0) + n);
      });
      lens[d] = words.length;
      total += words.length;
      if (doc[4]) {
        var key = doc[3] + ":" + doc[4].toLowerCase();
        if (!this.byNumber.has(key)) this.byNumber.set(key, []);
        this.byNumber.get(key).push(d);
      }
    }
    this.folded = docs.map(function (doc) { return foldWords(doc[6]); });
    this.post = post;
    this.freq = freq;
    this.lens = lens;
    this.avg = total / Math.max(docs.length, 1);
    this.abbrev = phrasePattern(Object.keys(data.abbreviations));
    this.abbrevTable = {};
    for (var k in data.abbreviations) this.abbrevTable[k.toLowerCase()] = data.abbreviations[k];
    this.syn = phrasePattern(Object.keys(data.synonyms));
    this.cardKeys = Object.keys(data.cards);
    // the CLI's ranking weights (kb/data/ranking.toml): a feature multiplies a score by exp(weight)
    this.weights = data.weights || {};
    this.onCards = new Set();  // the rulings that are on one card (its CRF section)
    for (var c in data.cards) data.cards[c][2].forEach(function (d) { this.onCards.add(d); }, this);
  }

  Searcher.prototype.factor = function (feature) {
    return Math.exp(this.weights[feature] || 0);
  };

  Searcher.prototype.understand = function (raw) {
    var q = String(raw || "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ").slice(0, MAX_QUERY).trim();
    var u = {query: q, refs: [], expansions: [], cards: [], corrections: [], words: []}, m, self = this;
    ANNOTATION_REF.lastIndex = 0;
    while ((m = ANNOTATION_REF.exec(q)) !== null) u.refs.push("annotation:" + m[1].toLowerCase());
    RULE_REF.lastIndex = 0;
    while ((m = RULE_REF.exec(q)) !== null) u.refs.push("rule:" + m[1].toLowerCase());
    TIMING_REF.lastIndex = 0;
    while ((m = TIMING_REF.exec(q)) !== null) u.refs.push("rule:" + m[1].toLowerCase());
    var extra = [];
    this.abbrev.lastIndex = 0;
    while ((m = this.abbrev.exec(q)) !== null) {
      var exp = this.abbrevTable[m[1].toLowerCase()];
      if (exp) { u.expansions.push(m[1] + " → " + exp); extra.push([exp, 1.0]); }
    }
    this.syn.lastIndex = 0;
    while ((m = this.syn.exec(q)) !== null) {
      var s = this.data.synonyms[m[1].toLowerCase()];
      if (s) { u.expansions.push(m[1] + " → " + s); extra.push([s, 0.7]); }
    }
    var named = this.findCards(q);
    u.cards = named.cards;
    u.cardQuery = named.whole;  // the query is a card's name (exactly or nearly), not a question naming one
    var content = analyze(q).filter(function (t) { return !/[\/.\-]/.test(t); });
    u.content = content;
    var plain = foldWords(q).split(" ").filter(function (w) { return w && !STOP.has(w); });
    u.phrase = !u.cards.length && !u.refs.length && plain.length >= 2 && plain.length <= 4
      ? plain.map(function (w) { return escapeRe(w.replace(/s$/, "")) + "\\w{0,3}"; }).join("\\s+") : null;
    var weights = new Map();
    analyze(q).forEach(function (t) {
      if (!self.post.has(t) && !/\d/.test(t) && t.length >= 4) {
        var fixed = self.correct(t);
        if (fixed) { u.corrections.push(t + " → " + fixed); t = fixed; }
      }
      weights.set(t, Math.max(weights.get(t) || 0, 1));
    });
    extra.forEach(function (e) {
      analyze(e[0]).forEach(function (t) { if (!weights.has(t)) weights.set(t, e[1]); });
    });
    u.words = Array.from(weights.keys());
    u.weights = weights;
    u.otherGame = OTHER_GAME.test(q);
    u.arda = ARDA.test(q);
    return u;
  };

  Searcher.prototype.correct = function (word) {
    var best = null, bestFreq = 0, max = word.length >= 7 ? 2 : 1, self = this;
    this.post.forEach(function (_, term) {
      if (term[0] !== word[0] || /[\/.\-\d]/.test(term)) return;
      var f = self.freq.get(term);
      if (f > bestFreq && distance(word, term, max) <= max) { best = term; bestFreq = f; }
    });
    return best;
  };

  Searcher.prototype.findCards = function (q) {
    var cards = this.data.cards, words = foldWords(q).split(" ").filter(Boolean), whole = words.join(" ");
    if (!whole) return {cards: [], whole: false};
    if (cards[whole]) return {cards: [cards[whole]], whole: true};
    var found = [];
    for (var i = 0; i < words.length; i++) {
      for (var n = Math.min(7, words.length - i); n >= 2; n--) {
        var key = words.slice(i, i + n).join(" ");
        if (cards[key] && found.indexOf(cards[key]) < 0) { found.push(cards[key]); i += n - 1; break; }
      }
    }
    if (!found.length && words.length <= 5 && whole.length >= 5) {
      var best = null, bestD = 99, max = Math.max(1, Math.floor(whole.length / 6));
      for (var c = 0; c < this.cardKeys.length; c++) {
        var k = this.cardKeys[c];
        if (k[0] !== whole[0] || Math.abs(k.length - whole.length) > max) continue;
        var dist = distance(whole, k, max);
        if (dist < bestD) { best = k; bestD = dist; }
      }
      if (best !== null && bestD <= max) return {cards: [cards[best]], whole: true};
    }
    return {cards: found, whole: false};
  };

  Searcher.prototype.search = function (raw, limit) {
    limit = limit || 10;
    var u = this.understand(raw), docs = this.data.docs, sources = this.data.sources;
    var scores = new Map(), hits = new Map(), N = docs.length, self = this, k1 = 1.2, b = 0.75;
    u.weights.forEach(function (weight, term) {
      var list = self.post.get(term);
      if (!list) return;
      var idf = Math.log(1 + (N - list.length / 2 + 0.5) / (list.length / 2 + 0.5));
      for (var i = 0; i < list.length; i += 2) {
        var d = list[i], tf = list[i + 1];
        var s = weight * idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * self.lens[d] / self.avg));
        scores.set(d, (scores.get(d) || 0) + s);
        hits.set(d, (hits.get(d) || 0) + weight);
      }
    });
    var totalWeight = 0;
    u.weights.forEach(function (w) { totalWeight += w; });
    var top = 0;
    scores.forEach(function (s, d) {
      var cover = totalWeight ? hits.get(d) / totalWeight : 0;
      s *= Math.max(Math.sqrt(cover), 0.1);
      scores.set(d, s);
      if (s > top) top = s;
    });
    top = top || 1;
    u.refs.forEach(function (ref) {
      (self.byNumber.get(ref) || []).forEach(function (d) { scores.set(d, (scores.get(d) || 0) + top * 3); });
    });
    // a card's own rulings (its text, its CRF section) first, then the rulings that name it; far more
    // so when the query is the card's name alone than when a question names it
    var ownDocs = new Set(), namingDocs = new Set();
    u.cards.forEach(function (card) {
      var own = u.cardQuery ? 3 : 0.5, named = u.cardQuery ? 1.5 : 0.3;
      card[2].forEach(function (d) { ownDocs.add(d); scores.set(d, (scores.get(d) || 0) + top * own); });
      card[3].forEach(function (d) { namingDocs.add(d); scores.set(d, (scores.get(d) || 0) + top * named); });
    });
    var phrase = u.phrase ? new RegExp("\\b" + u.phrase + "\\b") : null;
    var ranked = [];
    scores.forEach(function (s, d) {
      var doc = docs[d], src = sources[doc[2]];
      if (src.game !== "meccg" && !u.otherGame) s *= 0.2;
      if (src.kind === "variant") s *= self.factor(u.arda ? "source:variant asked" : "source:variant");
      else s *= self.factor("source:" + src.kind);
      if (doc[5] && sameWords(doc[5].split(" › ").pop(), u.content)) s *= self.factor("heading_is_query");
      if (phrase) {
        var text = self.folded[d], at = text.search(phrase);
        if (at >= 0) s *= at < 12 || /\bi e $/.test(text.slice(0, at)) ? 2.25 : 1.5;  // defined there
      }
      if (!src.current) s *= self.factor("older edition");
      if (doc[3] === "card") { if (!u.cards.length) s *= self.factor("card:other"); }
      else s *= self.factor("kind:" + doc[3]);
      if (self.onCards.has(d) && !ownDocs.has(d) && doc[3] !== "card") s *= self.factor("card:unnamed ruling");
      ranked.push([s, d]);
    });
    ranked.sort(function (x, y) { return y[0] - x[0] || x[1] - y[1]; });
    if (u.cardQuery) ranked = interleave(ranked, ownDocs, namingDocs, docs);
    var shown = new Set(), out = [], texts = new Set();
    for (var i = 0; i < ranked.length && out.length < limit; i++) {
      var d = ranked[i][1], current = this.data.editions[d];
      if (texts.has(this.folded[d])) continue;  // the same words twice: shown once
      texts.add(this.folded[d]);
      if (current !== undefined && (shown.has(current) || scores.has(current))) {
        var earlier = out.filter(function (r) { return r.index === current; })[0];
        if (earlier) earlier.older = docs[d][1];
        if (earlier || scores.has(current)) continue;
      }
      shown.add(d);
      var doc = docs[d];
      out.push({index: d, id: doc[0], url: doc[1], source: doc[2], kind: doc[3], number: doc[4], section: doc[5],
        text: doc[6], score: ranked[i][0], older: null});
    }
    return {understanding: u, results: out, total: ranked.length};
  };

  var MARKDOWN = new Set(["crf", "coe_rules", "rulebook"]);
  /* Markdown emphasis dropped for a plain result list ("*Card Erratum*:" -> "Card Erratum:"): only
   * markers that come in pairs around text; a lone "*" (a footnote, "no * by the MPs") is text. */
  function plainMarkdown(text) {
    for (var i = 0; i < 3; i++) {  // nested: "***a** b*" is bold inside italic
      var next = text.replace(/(\*{1,3})(?=\S)([^*]*?\S)\1(?!\*)/g, "$2");
      if (next === text) break;
      text = next;
    }
    return text;
  }

  /* The text, escaped, with every word whose stem the query asked for marked. */
  function highlight(text, words) {
    var wanted = new Set(words), out = "", at = 0, m, re = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
    while ((m = re.exec(text)) !== null) {
      var key = (fold(m[0]).match(/[a-z0-9]+/g) || []).join("");
      if (key && !STOP.has(key) && wanted.has(stemOf(key))) {
        out += escapeHtml(text.slice(at, m.index)) + "<mark>" + escapeHtml(m[0]) + "</mark>";
        at = m.index + m[0].length;
      }
    }
    return out + escapeHtml(text.slice(at));
  }

  function render(searcher, query, list, status) {
    list.innerHTML = "";
    if (!query.trim()) { status.textContent = "Type a question, a card name, a phase or an annotation number."; return; }
    var found = searcher.search(query, 20), u = found.understanding, sources = searcher.data.sources;
    var notes = [];
    if (u.cards.length) notes.push("card: " + u.cards.map(function (c) { return c[0]; }).join(", "));
    if (u.expansions.length) notes.push(u.expansions.join("; "));
    if (u.corrections.length) notes.push("read as " + u.corrections.join(", "));
    status.textContent = found.results.length
      ? found.total + " rulings match" + (notes.length ? " (" + notes.join(" · ") + ")" : "") + "."
      : "Nothing matches" + (notes.length ? " (" + notes.join(" · ") + ")" : "") + ". Try fewer or other words.";
    u.cards.forEach(function (card) {
      var li = document.createElement("li");
      li.className = "card-hit";
      li.innerHTML = '<a href="' + escapeHtml(card[1]) + '"><strong>' + escapeHtml(card[0]) +
        "</strong></a> <span class=\"where\">card page: its text, rulings and mentions</span>";
      list.appendChild(li);
    });
    found.results.forEach(function (r) {
      var src = sources[r.source], li = document.createElement("li");
      var head = '<a href="' + escapeHtml(r.url) + '">' + escapeHtml(r.kind + (r.number ? " " + r.number : "")) + "</a>" +
        ' <span class="where">' + escapeHtml(src.title + ", edition " + src.edition + (src.current ? "" : " (older)") +
        (r.section ? " › " + r.section : "")) + "</span>";
      var older = r.older ? ' <span class="where">(the older CRF says the same: <a href="' + escapeHtml(r.older) + '">older edition</a>)</span>' : "";
      var shown = MARKDOWN.has(src.parser) ? plainMarkdown(r.text) : r.text;
      li.innerHTML = head + '<div class="text">' + highlight(shown, u.words) + "</div>" + older;
      list.appendChild(li);
    });
  }

  function start() {
    var form = document.getElementById("search-form"), input = document.getElementById("q");
    var list = document.getElementById("results"), status = document.getElementById("status");
    if (!form || !root.RULINGS_DATA) { if (status) status.textContent = "The search data did not load."; return; }
    var searcher = new Searcher(root.RULINGS_DATA);
    var params = new URLSearchParams(root.location.search), q = params.get("q") || "";
    input.value = q;
    render(searcher, q, list, status);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var value = input.value;
      try { root.history.replaceState(null, "", "?q=" + encodeURIComponent(value).replace(/%20/g, "+")); } catch (e) { /* file:// in some browsers */ }
      render(searcher, value, list, status);
    });
  }

  if (typeof module === "object" && module.exports) {
    module.exports = {Searcher: Searcher, analyze: analyze, stem: stem, fold: fold};
  } else if (root.document) {
    root.RulingsSearch = {Searcher: Searcher, analyze: analyze};
    if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : this);

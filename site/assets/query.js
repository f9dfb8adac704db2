/* A query's words read: kb/search/query.py in JavaScript, function for function, over the same search data
 * (the patterns, tables and numbers kb/search/query.py ships in it, read here from the vocabulary: the
 * page's SearchSpec, assets/searchspec.js), so a question's words are read in the browser as in the
 * terminal (question.js understands the whole question with them).
 *
 * Where JavaScript and Python differ, the Python meaning is kept: lengths and slices in code
 * points, `\w` of a word as Python's Unicode \w ([\p{L}\p{N}_]: marks are not word characters),
 * str.split()'s whitespace where user text is split (clean, quoted). Accents are removed after NFKD
 * as the marks of MARKS (Python removes the characters of combining class other than 0: the same for
 * Latin, Greek and Cyrillic accents and emoji).
 * Loads by a script tag (window.RulingsQuery) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function query_js(root) {
  "use strict";

  /* Python's whitespace (str.split(), re's \s): JavaScript's \s adds U+FEFF and lacks U+001C-U+001F
   * and U+0085. Needed where user text is split (clean, kb.search.resolve.quoted) and where a ruling's text
   * is matched around it (kb.search.ranking.defines); once clean() has run, a query's only whitespace is the
   * space (its NFKD and folding add no other), which the rest of the reading relies on. */
  var PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  var SPACES = new RegExp("[" + PY_SPACE + "]+");
  var CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
  var APOSTROPHES = /['`\u00b4\u02b9\u2018\u2019]/g;
  var TOKEN = /[\p{L}\p{N}_]+(?:[.\/\-][\p{L}\p{N}_]+)*/gu;  // kb.search.query.TOKEN: \w+(?:[./\-]\w+)*
  var QUERY_WORD = /[^ ,;:!?()\[\]{}"]+/gu;  // kb.search.query.QUERY_WORD, where a query's only whitespace is the space
  var COMPOUND = /[.\/\-]/;  // kb.search.query.COMPOUND
  var NAME_WORD = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;  // kb.search.query.NAME_WORD: [^\W_]+(?:'[^\W_]+)*
  var POSSESSIVE = /'s$/i;
  var NAME_CONTEXT = /[a-z,;] $/;  // kb.search.query.NAME_CONTEXT
  var CASED = /[a-z,;] [A-Z][a-z]/;  // kb.search.query.CASED
  var NOT_ASCII = /[^\x00-\x7f]/;
  var EDGE_MARKS = /^[.'-]+|[.'-]+$/g;  // str.strip(".'-")
  /* unicodedata.combining(c) != 0, closely: every mark but the grapheme joiner and the variation
   * selectors (an emoji's U+FE0F); other marks of combining class 0 are spacing or enclosing marks
   * of non-Latin scripts (Devanagari vowel signs, Thaana), which Python keeps and this removes */
  var MARKS = /(?![\u034f\ufe00-\ufe0f\u{e0100}-\u{e01ef}])\p{M}/gu;

  // -- Python's str on code points (a JavaScript string counts UTF-16 units) -----------------------

  function astral(s) { return /[\ud800-\udfff]/.test(s); }
  function cpLen(s) { return astral(s) ? Array.from(s).length : s.length; }
  function chars(s) { return astral(s) ? Array.from(s) : s; }
  function firstChar(s) {  // s[0]
    if (!s) return "";
    var c = s.charCodeAt(0);
    return c >= 0xd800 && c <= 0xdbff && s.length > 1 && (s.charCodeAt(1) & 0xfc00) === 0xdc00 ? s.slice(0, 2) : s[0];
  }
  function firstChars(s, n) {  // s[:n]
    var out = "";
    for (var i = 0; i < n && s; i++) {
      var c = firstChar(s);
      out += c;
      s = s.slice(c.length);
    }
    return out;
  }
  function isDigits(s) { return /^\p{Nd}+$/u.test(s); }          // str.isdigit
  function isAlpha(s) { return /^\p{L}+$/u.test(s); }            // str.isalpha
  function isAlnum(s) { return /^[\p{L}\p{N}]+$/u.test(s); }     // str.isalnum
  function splitSpaces(s) { return s.split(SPACES).filter(function (w) { return w !== ""; }); }  // str.split()
  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }
  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\\/\-]/g, "\\$&"); }
  function extendNew(list, items) {  // list += [x for x in items if x not in list]
    items.forEach(function (x) { if (list.indexOf(x) < 0) list.push(x); });
  }
  function tokens(text) { return text.match(TOKEN) || []; }
  function capitalised(token) { return /^\p{Lu}/u.test(token[0]); }

  // -- text ------------------------------------------------------------------------------------------

  /* clean: control characters out, length capped, spaces collapsed */
  function clean(text, limit) {
    text = String(text === undefined || text === null ? "" : text).normalize("NFC").replace(CONTROL, " ");
    if (text.length > limit) text = Array.from(text).slice(0, limit).join("");
    return splitSpaces(text).join(" ");
  }

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

  /* kb.search.query.SOUNDS: spellings of one sound, as the search data ships them (use_sounds, called by
   * searchspec.js as it reads the data: the table is written once, in kb/search/query.py) */
  var SOUNDS = null, SOUND = null;
  function use_sounds(table) {
    SOUNDS = table;
    SOUND = new RegExp(Object.keys(table).join("|"), "g");
  }
  var DOUBLED = /([a-z])\1/g;

  /* sounded: a folded name as it sounds, each spelling of SOUNDS as its sound, then each letter doubled once */
  function sounded(key) {
    if (SOUND === null) throw new Error("the search data's sounds are not read yet (searchspec.js reads them)");
    return key.replace(SOUND, function (m) { return SOUNDS[m]; }).replace(DOUBLED, "$1");
  }

  /* reach: the typos forgiven in a typed name (or a word of one) this many letters long */
  function reach(length) {
    return length < 5 ? 0 : length < 9 ? 1 : Math.max(2, Math.floor(length / 6));
  }

  /* name_reach: the typos forgiven in a typed name, no more than its words carry */
  function name_reach(key) {
    var whole = reach(key.length), words = 0;
    key.split(" ").forEach(function (w) { words += reach(w.length); });
    return Math.min(whole, Math.max(1, Math.floor(key.length / 6), words));
  }

  /* near_distance: distance(), but a name typed as it sounds counts one typo */
  function near_distance(a, b, limit) {
    var d = distance(a, b, limit);
    if (d <= 1) return d;
    var said = sounded(a), heard = sounded(b);
    if (said === heard) return 1;
    return limit < 2 ? d : Math.min(d, distance(said, heard, limit - 1) + 1);
  }

  function Understanding(query) {
    return {query: query, annotations: [], rules: [], cards: [], near_cards: [], abbreviations: [], synonyms: [],
      corrections: [], dropped: [], content: [], typed: [], terms: [], games: [], arda: false, card_text: false,
      card_query: false, how_many: false, question: false, numbers: [], story_cards: [], story: [], define: []};
  }

  // -- words -----------------------------------------------------------------------------------------

  /* analyze_word: the index terms of one typed word, from the corpus's vocabulary, else by an ending
   * off, else by the nearest common spelling; recorded in u. Corpus text (u null) reads the same
   * whatever the query: each of its words is read once per page (the vocabulary keeps them). */
  function analyze_word(word, vocab, u) {
    if (u) return read_word(word, vocab, u);
    var known = vocab.read_words.get(word);
    if (known === undefined) {
      known = read_word(word, vocab, null);
      vocab.read_words.set(word, known);
    }
    return known;
  }

  function read_word(word, vocab, u) {
    var key = fold_key(word), terms = vocab.terms_of(key), fixed;
    if (terms !== null) {
      if (u && cpLen(key) >= 4 && !isDigits(key) && !vocab.is_name_word(key) && vocab.count_of(key) <= 2 &&
          terms.every(function (t) { return vocab.df(t) < vocab.limits.RARE * vocab.docs_count; })) {
        fixed = correct(key, vocab);
        if (fixed) {
          u.corrections.push([key, fixed]);
          return vocab.terms_of(fixed) || [];
        }
      }
      return terms;
    }
    if (COMPOUND.test(key)) {  // a compound the corpus lacks: whole, and its parts (as the build's analyzer)
      if (/^\p{Nd}/u.test(key)) return [key];
      var out = [key];
      key.split(/[.\/\-]/).forEach(function (part) {
        if (part && !vocab.prefixes.has(part)) analyze_word(part, vocab, u).forEach(function (t) { out.push(t); });
      });
      return out;
    }
    for (var i = 0; i < vocab.suffixes.length; i++) {
      var suffix = vocab.suffixes[i];
      if (key.endsWith(suffix) && cpLen(key) - cpLen(suffix) >= 3) {
        var base = key.slice(0, key.length - suffix.length), cs = Array.from(base);
        var candidates = [base, base + "e",
          cs.length > 3 && cs[cs.length - 1] === cs[cs.length - 2] ? cs.slice(0, -1).join("") : "",
          suffix === "ies" || suffix === "ied" ? base + "y" : ""];
        for (var j = 0; j < candidates.length; j++) {
          var found = candidates[j] ? vocab.terms_of(candidates[j]) : null;
          if (found && found.length) return found;
        }
      }
    }
    if (u && !vocab.is_name_word(key)) {
      fixed = correct(key, vocab);
      if (fixed) {
        u.corrections.push([key, fixed]);
        return vocab.terms_of(fixed) || [];
      }
    }
    return isAlnum(key) ? [key] : [];
  }

  /* analyze_text: the index terms of each word of a text (analyze_word; its corrections recorded in u) */
  function analyze_text(text, vocab, u) {
    var out = [];
    tokens(text).forEach(function (token) { analyze_word(token, vocab, u || null).forEach(function (t) { out.push(t); }); });
    return out;
  }

  /* correct: the common corpus word a rare or unknown word most likely misspells; the fewest edits,
   * then the most used, then the first in order */
  function correct(word, vocab) {
    var length = cpLen(word);
    if (length < 4 || !isAlpha(word) || vocab.is_english(word)) return null;
    var seen = vocab.count_of(word);
    if (seen > 2) return null;
    var limit = length >= 7 ? 2 : 1, best = null, pool = vocab.spelling_pool(firstChar(word));
    for (var i = 0; i < pool.length; i++) {
      var w = pool[i];
      if (w === word || Math.abs(w.length - length) > limit) continue;
      var n = vocab.count_of(w);
      if (n < 10 * (seen + 1) * (seen ? 1 : 0) + 3) continue;
      var d = distance(word, w, limit);
      if (d <= limit && (best === null || d < best.d || (d === best.d && (n > best.n || (n === best.n && w < best.w))))) {
        best = {d: d, n: n, w: w};
      }
    }
    return best ? best.w : null;
  }

  // -- card names --------------------------------------------------------------------------------------

  /* kb.search.query._close: near_distance(a, b, limit), or limit + 1 where cheap tests tell it is beyond */
  function close(a, b, limit) {
    if (Math.abs(a.length - b.length) > limit + 1 || !b || (a[0] !== b[0] && a[a.length - 1] !== b[b.length - 1])) {
      return limit + 1;
    }
    return near_distance(a, b, limit);
  }

  /* NameIndex: folded names -> what they stand for, searched for the names nearest a misspelling */
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
    var limit = reach(w.length), out = [];
    words.forEach(function (_, word) {
      var d;
      if (word === w || (w.length >= 4 && word.startsWith(w))) out.push([word, 0]);
      else if (limit && (d = close(w, word, limit)) <= limit) out.push([word, d]);
    });
    return out;
  };
  /* rank: the display names nearest to typed, best first; each name's score [rank, then two numbers]
   * compared number by number, then the names folded */
  NameIndex.prototype.rank = function (typed, n) {
    n = n === undefined ? 5 : n;
    var key = fold(typed), self = this;
    if (!key || key.length > 120) return [];
    var best = new Map();
    function compare(x, y) { return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]; }
    function offer(k, score) {
      own(self.keys, k).forEach(function (name) {
        if (!best.has(name) || compare(score, best.get(name)) < 0) best.set(name, score);
      });
    }
    var limit = Math.max(1, Math.floor(key.length / 3)), compact = key.split(" ").join("");
    Object.keys(this.keys).forEach(function (k) {
      if (k.startsWith(key) || (k.length >= 4 && key.startsWith(k)) || k.split(" ").join("").startsWith(compact)) {
        offer(k, [0, Math.abs(k.length - key.length), 0]);
      } else {
        var d = close(key, k, limit);
        if (d <= limit) offer(k, [1, d, 0]);
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
    return Array.from(best.keys()).map(function (name) { return [best.get(name), fold(name), name]; })
      .sort(function (x, y) { return compare(x[0], y[0]) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0); })
      .slice(0, n).map(function (e) { return e[2]; });
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
    return Array.from(names).map(function (name) { return [fold(name), name]; }).sort(function (x, y) {
      return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0;
    }).map(function (e) { return e[1]; });
  };

  /* read_name: [the card names a typed name may mean, whether read from a near spelling] */
  function read_name(typed, vocab, index) {
    var key = fold(typed);
    if (!key || key.length > 120) return [[], false];
    var exact = vocab.card_names(key) || (key.startsWith("the ") ? vocab.card_names(key.slice(4)) : null);
    if (exact) return [exact.slice(), false];
    var near = near_name(key, vocab);
    return [(near.length ? near : index.all_words_in_one(typed)).slice(), true];
  }

  /* name_spans: where a query names cards ({start, end, names, near}), in query order, and whether
   * it is nothing but a name: the longest name first, never a name inside a name, a plain phrase
   * only capitalised, a one-word name capitalised mid-sentence, a misspelt name read as read_name reads it */
  function name_spans(query, vocab) {
    var text = not_names(query, vocab), whole = fold(text);
    if (!whole) return [[], false];
    var exact = vocab.card_names(whole);
    if (exact) return [[{start: 0, end: query.length, names: exact.slice(), near: false}], true];
    var tokens = [], m;
    for (m of text.matchAll(NAME_WORD)) tokens.push([m[0], m.index, m.index + m[0].length]);
    var keys = tokens.map(function (t) { return fold(t[0]); });
    var bare = tokens.map(function (t) { return fold(t[0].replace(POSSESSIVE, "")); });
    if (tokens.length <= 5 && keys.every(function (w) { return vocab.count_of(w) < 3 || vocab.is_name_word(w); })) {
      var match = near_name(whole, vocab);  // a short query that nearly spells one name is that name
      if (match.length) return [[{start: 0, end: query.length, names: match, near: true}], true];
    }
    var cased = CASED.test(text), spans = [], i = 0;
    while (i < tokens.length) {
      var step = 1, n, found = null;
      for (n = Math.min(vocab.limits.MAX_NAME_WORDS, tokens.length - i); n > 1; n--) {
        found = name_of(keys.slice(i, i + n - 1), keys[i + n - 1], bare[i + n - 1], vocab);
        if (found && (tokens.slice(i, i + n).some(capitalised) || !(cased || vocab.is_common_word(found[0])))) {
          spans.push({start: tokens[i][1], end: tokens[i + n - 1][2], names: found[1], near: false});
          step = n;
          break;
        }
        found = null;
      }
      if (found === null) {
        var run = i + 1 < tokens.length && capitalised(tokens[i + 1]);
        var one = one_word_name(tokens[i], bare[i], i === 0 && tokens.length > 4, run, text, vocab);
        if (one.length) spans.push({start: tokens[i][1], end: tokens[i][2], names: one, near: false});
      }
      i += step;
    }
    spans = spans.concat(near_spans(tokens, keys, bare, spans, cased, vocab));
    return [spans.map(function (sp, k) { return [sp.start, k, sp]; })
      .sort(function (x, y) { return x[0] - y[0] || x[1] - y[1]; }).map(function (e) { return e[2]; }), false];
  }

  /* near_spans: misspelt names in a question, around each word the corpus does not know */
  function near_spans(tokens, keys, bare, taken, cased, vocab) {
    var free = tokens.map(function (t) {
      return !taken.some(function (sp) { return sp.start <= t[1] && t[1] < sp.end; });
    });
    function unknown(j) {
      return free[j] && keys[j].length >= 4 && isAlpha(keys[j]) && !vocab.question_words.has(keys[j]) &&
        vocab.count_of(keys[j]) === 0 && vocab.count_of(bare[j]) === 0;
    }
    function namish(j) {
      return free[j] && !vocab.question_words.has(keys[j]) && (unknown(j) || vocab.is_name_word(bare[j]));
    }
    var found = [], i = 0, tries = 0, most = vocab.limits.NEAR_RUN;
    while (i < tokens.length && tries < vocab.limits.NEAR_TRIES) {
      if (!unknown(i)) { i += 1; continue; }
      tries += 1;
      var lo = i, hi = i + 1;
      while (lo > 0 && i - lo < most - 1 && namish(lo - 1)) lo -= 1;
      while (hi < tokens.length && hi - i < most && namish(hi)) hi += 1;
      var span = near_run(tokens, keys, lo, hi, i, cased, vocab);
      if (span === null) { i += 1; continue; }
      found.push(span[0]);
      for (var j = span[1]; j < span[2]; j++) free[j] = false;
      i = span[2];
    }
    return found;
  }

  /* _near_run: the longest run of tokens[lo:hi] holding token i that reads as one card, and its bounds */
  function near_run(tokens, keys, lo, hi, i, cased, vocab) {
    for (var n = Math.min(hi - lo, vocab.limits.NEAR_RUN); n > 0; n--) {
      for (var a = Math.max(lo, i - n + 1); a <= Math.min(i, hi - n); a++) {
        var run = tokens.slice(a, a + n);
        if (cased && !run.some(capitalised)) continue;
        var read = read_name(run.map(function (t) { return t[0]; }).join(" "), vocab, vocab.name_index());
        if (read[0].length !== 1) continue;
        if (n === 1 && !capitalised(tokens[i]) && (vocab.is_english(keys[i]) || correct(keys[i], vocab))) {
          return null;  // "charcter" a common word misspelt, "care" a word: not cards
        }
        return [{start: tokens[a][1], end: tokens[a + n - 1][2], names: read[0], near: read[1]}, a, a + n];
      }
    }
    return null;
  }

  /* _name_of: [name key, names] these words make, the last one also without a final "'s", or null */
  function name_of(inner, last, bareLast, vocab) {
    var ends = bareLast === last ? [last] : [last, bareLast];
    for (var i = 0; i < ends.length; i++) {
      var key = inner.concat([ends[i]]).join(" "), names = vocab.card_names(key);
      if (names && names.length) return [key, names.slice()];
    }
    return null;
  }

  /* _one_word_name: the cards a capitalised word names (mid-sentence or opening the query) */
  function one_word_name(token, bare, opensLong, run, text, vocab) {
    var start = token[1];
    if (!capitalised(token) || bare.length <= 3 ||
        !(start === 0 || NAME_CONTEXT.test(text.slice(Math.max(0, start - 2), start)))) return [];
    if ((opensLong && vocab.is_common_word(bare)) || vocab.is_game_word(bare)) return [];
    var names = vocab.card_names(bare);
    if (names && names.length) return names.slice();
    if (bare.endsWith("s")) {  // "Gandalfs" typed for Gandalf's
      names = vocab.card_names(bare.slice(0, -1));
      if (names && names.length) return names.slice();
    }
    return run ? [] : first_word_names(bare, vocab);  // "True Fana": the next word is not theirs
  }

  /* not_names: the text with each phrase that names no card blanked out (same length) */
  function not_names(text, vocab) {
    vocab.not_names.forEach(function (pattern) {
      text = text.replace(pattern, function (m) { return " ".repeat(m.length); });  // positions hold, in UTF-16 units
    });
    return text;
  }

  /* first_word_names: the cards a capitalised, seldom used word is the first word of, a word of their names
   * alone (never written in lower case: "Healing" names no card) */
  function first_word_names(key, vocab) {
    if (key.indexOf(" ") >= 0 || !vocab.is_name_word(key) || vocab.count_of(key) > vocab.limits.RARE_NAME_WORD ||
        vocab.is_common_word(key)) return [];
    var keys = vocab.name_keys(key).filter(function (k) { return k.startsWith(key + " "); }).sort();
    var names = [];
    for (var i = 0; i < keys.length; i++) extendNew(names, vocab.card_names(keys[i]) || []);
    return names.length > 0 && names.length <= vocab.limits.FIRST_WORD_NAMES ? names : [];
  }

  /* near_name: the names a short query nearly spells within name_reach() ("morgul knive", "gandalph": the
   * nearest, each of them where several are as near), or begins ("khamul") */
  function near_name(whole, vocab) {
    var length = whole.length;  // folded: ASCII
    var limit = name_reach(whole), best = limit + 1, nearest = [], starts = [], keys = vocab.name_keys(whole.slice(0, 1));
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i];
      if (key.startsWith(whole + " ") && length >= 4) starts.push(key);
      if (limit && Math.abs(key.length - length) <= limit + 1) {
        var d = near_distance(whole, key, Math.min(limit, best));
        if (d < best) {
          best = d;
          nearest = [key];
        } else if (d === best && best <= limit) {
          nearest.push(key);
        }
      }
    }
    var names = [];
    (nearest.length ? nearest.sort() : starts.sort().slice(0, 6)).forEach(function (key) {
      extendNew(names, vocab.card_names(key) || []);
    });
    return names;
  }

  var api = {module: query_js, clean: clean, strip_marks: strip_marks, fold_key: fold_key, fold: fold, distance: distance,
    use_sounds: use_sounds, sounded: sounded, reach: reach, name_reach: name_reach, near_distance: near_distance,
    Understanding: Understanding, analyze_word: analyze_word, analyze_text: analyze_text, correct: correct,
    NameIndex: NameIndex, read_name: read_name, name_spans: name_spans, near_name: near_name,
    TOKEN: TOKEN, QUERY_WORD: QUERY_WORD, EDGE_MARKS: EDGE_MARKS, extendNew: extendNew, COMPOUND: COMPOUND, NOT_ASCII: NOT_ASCII, APOSTROPHES: APOSTROPHES,
    PY_SPACE: PY_SPACE, astral: astral, cpLen: cpLen, firstChar: firstChar, firstChars: firstChars, splitSpaces: splitSpaces,
    own: own, escapeRe: escapeRe, tokens: tokens};
  if (typeof module === "object" && module.exports && typeof require === "function") module.exports = api;
  else root.RulingsQuery = api;
})(typeof window !== "undefined" ? window : this);

/* The site's pages: the search page, then the deck page (below).
 *
 * The search page (search.html): a question typed or carried in the address (?q=, &game=,
 * &source=) answered as you type by search.js over the site's index, each result's text as a
 * reader reads it with the words it matched marked and named, 20 results and 20 more on request;
 * Back to the page returns to the same results at the same place. The page's part of the search,
 * with no Python counterpart (the terminal's is cli.py's `rulings search`).
 * Loads by a script tag, after query.js, question.js, searchspec.js, ranking.js and search.js, before search-index.js. */
(function (root) {
  "use strict";

  var Q = root.RulingsQuery, P = root.RulingsSpec, S = root.RulingsSearch;

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
      Q.fold(p[0]).split(" ").filter(Boolean).forEach(function (w) { named.add(w); });
    });
    u.cards.forEach(function (c) { out.push(typed.has(c) ? "“" + typed.get(c) + "” read as the card " + c : "card: " + c); });
    u.annotations.forEach(function (n) { out.push("annotation " + n); });
    u.rules.forEach(function (n) { out.push("rule " + n); });
    u.abbreviations.concat(u.synonyms).forEach(function (p) { out.push(p[0] + " → " + p[1]); });
    var spelt = u.corrections.filter(function (p) { return !named.has(Q.fold(p[0])); });
    if (spelt.length) out.push("read as " + spelt.map(function (p) { return p[0] + " → " + p[1]; }).join(", "));
    return out;
  }

  /* own_words: the reader's own words (as typed) that a result matched: those whose index terms, or
   * the terms of what they were read as (an abbreviation, a synonym, a spelling), are among the
   * terms it matched (r.matched); the terms themselves are for --explain */
  function own_words(spec, query, u, matched) {
    var found = new Set(matched), read = new Map(), out = [];
    u.abbreviations.concat(u.synonyms, u.corrections).forEach(function (p) { read.set(p[0].toLowerCase(), p[1]); });
    Q.tokens(query).forEach(function (token) {
      var said = [token].concat(read.has(token.toLowerCase()) ? Q.tokens(read.get(token.toLowerCase())) : []);
      if (out.indexOf(token) < 0 && said.some(function (w) {
        return Q.analyze_word(w, spec, null).some(function (t) { return found.has(t); });
      })) out.push(token);
    });
    return out;
  }

  /* A section path as a reader sees it: a divider ("-= III =-") as its letter (the site's "divider"). */
  function place(spec, section) {
    var divider = spec.divider();
    return section.map(function (title) {
      var m = divider ? divider.exec(title.trim()) : null;
      return m ? m[1].charAt(0).toUpperCase() : title;
    });
  }

  var PAGE = 20;

  /* the results of one query, `limit` of them (more on request), filtered by game and source */
  function render(searcher, state, ui, found) {
    var list = ui.list, status = ui.status, spec = searcher.spec;
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
      var url = spec.card_url(name);
      if (!url) return;
      var li = document.createElement("li");
      li.className = "card-hit";
      li.innerHTML = '<a href="' + escapeHtml(url) + '"><strong>' + escapeHtml(name) +
        '</strong></a> <span class="where">card page: its text, rulings and mentions</span>';
      out.appendChild(li);
    });
    found.results.forEach(function (r) {
      var d = r.data, li = document.createElement("li");
      var where = place(spec, d.section);
      var label = d.kind === "card" ? "card: " + (d.title || "") : d.kind + (d.number ? " " + d.number : "");  // a card by name, not its database id
      var head = '<a href="' + escapeHtml(d.url) + '">' + escapeHtml(label) + "</a>" +
        ' <span class="where">' + escapeHtml(d.source_title + ", edition " + d.edition + (d.current ? "" : " (older edition)") +
        (where.length ? " › " + where.join(" › ") : "")) + "</span>";
      var also = r.also_docs.map(function (other) {
        var o = spec.data(other);
        return '<a href="' + escapeHtml(o.url) + '">' + escapeHtml(o.source_title + (o.current ? "" : ", an older edition")) + "</a>";
      }).filter(Boolean);
      // the rulings of other documents that state the same rule, a line each, the most authoritative first
      var same = r.same_docs.map(function (other) {
        var o = spec.data(other);
        return '<div class="same-rule">same rule, <a href="' + escapeHtml(o.url) + '">' + escapeHtml(o.source_title) + "</a>: " +
          escapeHtml(spec.shown(other)) + "</div>";
      }).join("");
      var text = spec.shown(r.doc);
      var words = own_words(spec, state.q, u, r.matched.filter(function (t) { return t.indexOf(":") < 0; }));
      // a ruling the source's text leaves incomplete (kb.model.Ruling.incomplete) says so before its words
      var incomplete = d.incomplete ? '<p class="warning incomplete"><strong>Incomplete in the source\'s text:</strong> ' +
        escapeHtml(d.incomplete) + ". Read it as a fragment, not as a whole rule.</p>" : "";
      li.innerHTML = head + incomplete + '<div class="text">' + highlight(text, searcher.highlight_spans(text, u)) + "</div>" +
        (also.length ? '<div class="where">also in ' + also.join(", ") + ", in the same words</div>" : "") + same +
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
    if (!root.RULINGS_INDEX || !P || !S) { ui.status.textContent = "The search data did not load."; return; }
    if (!P.fresh(ui.status, start)) return;
    var searcher = S.open();
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
    // back to a place down the page: the box gets its focus now, without a scroll, for its autofocus
    // (done by the browser at its next frame, after this) would scroll the page back to the top
    if (back) input.focus({preventScroll: true});
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

  // the search page's script comes after its form and results list and before its search data
  // (search-index.js, the page's last and largest file, so that the engine's scripts are compiled
  // while it still downloads): it starts the moment the data has run (or failed to load), without
  // waiting for the rest of the page; elsewhere (or before they are parsed) once the page is read
  function boot() {
    var doc = root.document;
    if (root.RULINGS_INDEX || doc.readyState !== "loading") { start(); return; }
    // the data's script element is not parsed yet: its load (or error: start says the data did not
    // load) is caught on its way down to it, once
    function loaded(ev) {
      if (!ev.target || !ev.target.dataset || !ev.target.dataset.build) return;
      doc.removeEventListener("load", loaded, true);
      doc.removeEventListener("error", loaded, true);
      start();
    }
    doc.addEventListener("load", loaded, true);
    doc.addEventListener("error", loaded, true);
  }
  if (root.document) {
    if (root.document.readyState === "loading" && !root.document.getElementById("more")) {
      root.document.addEventListener("DOMContentLoaded", boot);
    } else {
      boot();
    }
  }
})(typeof window !== "undefined" ? window : this);

/* The deck page (deck.html): a decklist pasted, dropped as a file, or carried in the address after "#", read in
 * any of its formats and checked against the CoE deck-construction rules as `rulings deck` checks it, with the
 * same report made from the site's data, offline (deck.js and the modules before it), in a worker
 * (worker.js), its progress shown. The page's part of the deck check, with no Python counterpart (the
 * terminal's is kb/deck/deck.py's report as the terminal prints it).
 * Loads by a script tag, after the deck modules and worker.js. */
(function deck_page(root) {
  "use strict";

  if (!root.document) return;
  var P = root.RulingsSpec, L = root.RulingsDeckList || {}, K = root.RulingsDeckRules || {}, D = root.RulingsDeck || {};
  var W = root.RulingsWorker || {};
  var own = L.own, patterns = L.patterns, size_text = L.size_text, too_large = L.too_large, counted = K.counted;
  var MAX_SHOWN = D.MAX_SHOWN, lines_text = D.lines_text, miss_text = D.miss_text, read_error = D.read_error;
  var reading_text = D.reading_text, sections_text = D.sections_text, whose_text = D.whose_text, Checker = W.Checker;

  function el(tag, cls, text) {
    var e = root.document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function link(href, text) {
    var a = el("a", "", text);
    a.setAttribute("href", href);
    return a;
  }

  function ruling(spec, d) {
    var r = spec.data(d), li = el("li", "ruling");
    li.appendChild(link(r.url, "[" + r.kind + (r.number ? " " + r.number : "") + "]"));
    li.appendChild(el("span", "where", " " + r.source_title + (r.current ? "" : " (older edition)") + " · " + r.id));
    li.appendChild(el("div", "text", spec.shown(d)));  // as a reader reads it (searchspec.js shown)
    return li;
  }

  function rulings(spec, title, ids) {
    var box = el("div", "deck-rulings");
    box.appendChild(el("h4", "", title + " (" + ids.length + ")"));
    var list = el("ul", "results");
    ids.forEach(function (d) { list.appendChild(ruling(spec, d)); });
    box.appendChild(list);
    return box;
  }

  var HELP = "Paste your decklist, or choose its file: a list typed one card a line (\"2 Gandalf\", \"Gandalf x2\"), " +
    "a meccg-online or GCCG .meccg file, an OCTGN .o8d file or a deck builder's JSON.";

  var HEADS = {problem: "Problem", open: "Open question", "not checked": "Not checked", note: "Note"};

  /* each finding with its rule, linked to the rule's page and quoted as a reader reads it */
  function render_findings(spec, deck, findings, box) {
    if (!findings.length) return;
    var list = el("ul", "deck-findings");
    findings.forEach(function (finding) {
      var li = el("li", finding.status.replace(" ", "-"));
      var d = finding.rule ? own(deck.rules_docs, finding.rule) : undefined;
      li.appendChild(el("strong", "", HEADS[finding.status]));
      if (d !== undefined) {
        li.appendChild(document_text(" (rule "));
        li.appendChild(link(spec.data(d).url, finding.rule));
        li.appendChild(document_text(")"));
      }
      li.appendChild(document_text(": " + finding.message + (finding.lines.length ? "; " + lines_text(finding.lines) : "")));
      if (d !== undefined) li.appendChild(el("blockquote", "rule", spec.shown(d)));
      list.appendChild(li);
    });
    box.appendChild(list);
  }

  /* the verdict first: whose deck it is, each finding, then each alignment it was checked as, if several */
  function render_verdict(spec, deck, report, out) {
    var legal = report.verdict.legal, box = el("section", "deck-verdict " + (legal ? "legal" : legal === null ? "unsure" : "not-legal"));
    box.appendChild(el("h2", "", report.verdict.summary));
    box.appendChild(el("p", "where", whose_text(report) + (report.alignment.player || report.alignment.sure === "not judged" ? "" :
      " Choose its alignment above.")));
    render_findings(spec, deck, report.findings, box);
    report.readings.forEach(function (reading) {
      box.appendChild(el("h3", "", reading_text(reading)));
      render_findings(spec, deck, reading.findings, box);
    });
    out.appendChild(box);
  }

  function document_text(text) { return root.document.createTextNode(text); }

  /* the report, or the one line `rulings deck` prints where it refuses the list */
  function render(spec, deck, report, out, status) {
    out.textContent = "";
    if (report.error) { status.textContent = "Error: " + report.error + ". " + report.hint; return; }
    var n = report.cards.length + report.quiet.length, misses = report.not_found.concat(report.ambiguous);
    status.textContent = (report.title ? report.title + ": " : "") + counted(n, "card") + " (" + counted(report.copies, "copy", "copies") +
      ") on " + counted(report.lines, "line") + " · " + report.format + (deck.crf ? " · " + deck.crf.title + " edition " + deck.crf.edition : "") +
      " · " + (misses.length ? counted(misses.length, "name") + " not read." : "every name is a card.");
    render_verdict(spec, deck, report, out);
    report.warnings.forEach(function (w) { out.appendChild(el("p", "where", "note: " + w)); });
    if (misses.length) {
      var nf = el("section", "deck-missing"), ul = el("ul");
      nf.appendChild(el("h3", "", "Not read (" + misses.length + ")"));
      misses.slice(0, 200).forEach(function (miss) { ul.appendChild(el("li", "", miss_text(miss))); });
      nf.appendChild(ul);
      out.appendChild(nf);
    }
    report.cards.forEach(function (e) {
      var sec = el("section", "deck-card"), h = el("h3");
      var url = spec.card_url(e.names[0]);
      h.appendChild(url ? link(url, e.name) : el("span", "", e.name));
      h.appendChild(el("span", "count", " ×" + e.count));
      sec.appendChild(h);
      sec.appendChild(el("p", "where", sections_text(e) + e.read_as.map(function (r) { return "; " + r; }).join("")));
      if (e.errata.length) sec.appendChild(rulings(spec, "Errata", e.errata));
      if (e.rulings.length) sec.appendChild(rulings(spec, "CRF rulings", e.rulings));
      if (e.mentions) {
        var more = el("details", "mentions");
        more.appendChild(el("summary", "", "Mentioned in " + counted(e.mentions, "other ruling")));
        var list = el("ul", "results");
        more.addEventListener("toggle", function () {
          if (more.open && !list.childNodes.length) e.mentioned_in.forEach(function (d) { list.appendChild(ruling(spec, d)); });
        });
        more.appendChild(list);
        sec.appendChild(more);
      }
      out.appendChild(sec);
    });
    if (report.quiet.length) {
      var q = el("section", "deck-quiet");
      q.appendChild(el("h3", "", "Nothing to say (" + report.quiet.length + ")"));
      q.appendChild(el("p", "", report.quiet.map(function (e) {  // a name read as a near spelling says so
        return e.name + " ×" + e.count + e.read_as.map(function (r) { return " (" + r + ")"; }).join("");
      }).join(", ")));
      out.appendChild(q);
    }
  }

  function from_fragment() {
    var hash = root.location.hash.slice(1);
    try { return decodeURIComponent(hash); } catch (e) { return ""; }
  }

  /* 480000 as "480,000" (toLocaleString's first call costs a page tens of milliseconds) */
  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+$)/g, ","); }

  /* progress(what, done, of) shown: the bar's share of lines read, then the cards being checked */
  function shown_progress(box) {
    var bar = box.querySelector("progress"), said = box.querySelector("span");
    return function (what, done, of) {
      box.hidden = false;
      if (what === "reading") {
        bar.max = Math.max(of, 1);
        bar.value = done;
        said.textContent = "Read " + thousands(done) + " of " + thousands(of) + " lines…";
      } else {
        bar.removeAttribute("value");
        said.textContent = "Checking the cards…";
      }
    };
  }

  /* The deck page: its form, its report, and the list it checks: the box's (typed, or carried in the page's
   * address), or a file's (shown in the box where it is short enough, else checked from its bytes: chosen) */
  function DeckPage(doc, spec, deck) {
    this.spec = spec; this.deck = deck; this.checker = new Checker(spec, deck);
    this.input = doc.getElementById("decklist"); this.out = doc.getElementById("deck-report");
    this.status = doc.getElementById("deck-status"); this.box = doc.getElementById("deck-progress");
    this.note = doc.getElementById("deck-chosen");
    this.choices = {game: doc.getElementById("deck-game"), alignment: doc.getElementById("deck-alignment"),
      form: doc.getElementById("deck-format")};
    this.title = ""; this.named = ""; this.chosen = null;
  }

  DeckPage.prototype.options = function () {
    var c = this.choices;
    return {game: c.game.value || "short", alignment: c.alignment.value, form: c.form.value, title: this.title,
      name: this.named || "the list"};
  };

  /* the options and the list (where it is short enough) kept in the page's address */
  DeckPage.prototype.remember = function () {
    var query = new URLSearchParams(), c = this.choices;
    Object.keys(c).forEach(function (k) { if (c[k].value && !(k === "game" && c[k].value === "short")) query.set(k, c[k].value); });
    var list = this.chosen || this.input.value.length > MAX_SHOWN ? "" : "#" + encodeURIComponent(this.input.value);
    var address = (query.toString() ? "?" + query.toString() : root.location.pathname.split("/").pop()) + list;
    try { root.history.replaceState(null, "", address); } catch (e) { if (list) root.location.hash = list; }
  };

  /* bytes checked, the report (or the line refusing them) shown when it comes; then(text, report) first */
  DeckPage.prototype.check = function (bytes, then) {
    var self = this;
    this.out.textContent = "";
    this.status.textContent = "Checking " + (this.named || "the list") + "…";
    this.checker.check(bytes, this.options(), shown_progress(this.box), function (result) {
      self.box.hidden = true;
      if (then) then(result[1], result[0]);
      render(self.spec, self.deck, result[0], self.out, self.status);
    });
  };

  /* the list checked again (keep: the address says so) */
  DeckPage.prototype.run = function (keep) {
    if (keep) this.remember();
    if (this.chosen) { this.check(this.chosen.slice()); return; }
    if (patterns(this.deck).blank_text.test(this.input.value)) {
      this.checker.drop(); this.box.hidden = true; this.out.textContent = ""; this.status.textContent = HELP;
      return;
    }
    this.check(new TextEncoder().encode(this.input.value));
  };

  /* a file chosen or dropped: refused unread when too large, as the terminal refuses it; else checked */
  DeckPage.prototype.load = function (f) {
    var self = this;
    if (!f) return;
    this.title = f.name.replace(/\.[^.]*$/, "").replace(/\.deck$/, "");  // kb.deck.deck.file_title
    this.named = f.name;
    this.note.hidden = true;
    if (f.size > this.deck.max_bytes) {
      render(this.spec, this.deck, read_error(too_large(f.name, f.size, this.deck), this.deck), this.out, this.status);
      return;
    }
    f.arrayBuffer().then(function (buffer) {
      self.chosen = new Uint8Array(buffer);
      self.check(self.chosen.slice(), function (text, report) { self.shown(f.name, buffer.byteLength, text, report); });
    });
  };

  /* a file checked: its text in the box where it is short enough (or the box as it was, where it is refused),
   * else the box emptied and the page saying the list is checked from its file */
  DeckPage.prototype.shown = function (name, size, text, report) {
    if (text !== null || report.error) {
      this.chosen = null;
      if (text !== null) { this.input.value = text; this.remember(); }
      return;
    }
    this.input.value = "";
    this.note.textContent = name + " (" + size_text(size) + ") is checked from its file: too long to show in the box or " +
      "to carry in the page's address. Type or paste a list in the box to check another.";
    this.note.hidden = false;
    this.remember();
  };

  /* the list is the box's again, named by no file */
  DeckPage.prototype.typed = function () { this.title = ""; this.named = ""; this.chosen = null; this.note.hidden = true; };

  function start() {
    var doc = root.document, form = doc.getElementById("deck-form"), status = doc.getElementById("deck-status");
    if (!form) return;
    if (!root.RULINGS_INDEX || !root.RULINGS_DECK || !P || !D.deck_report || !Checker) { status.textContent = "The deck data did not load."; return; }
    if (!P.fresh(status, start)) return;
    var page = new DeckPage(doc, P.open(), root.RULINGS_DECK), input = page.input, choices = page.choices;
    var params = new URLSearchParams(root.location.search), file = doc.getElementById("deck-file");
    Object.keys(choices).forEach(function (k) { if (choices[k] && params.get(k)) choices[k].value = params.get(k); });
    input.value = from_fragment();
    page.run(false);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); page.run(true); });
    Object.keys(choices).forEach(function (k) { choices[k].addEventListener("change", function () { page.run(true); }); });
    if (file) file.addEventListener("change", function () { page.load(file.files[0]); });
    input.addEventListener("dragover", function (ev) { ev.preventDefault(); });
    input.addEventListener("drop", function (ev) {
      if (ev.dataTransfer && ev.dataTransfer.files.length) { ev.preventDefault(); page.load(ev.dataTransfer.files[0]); }
    });
    input.addEventListener("input", function () { page.typed(); });
    root.addEventListener("hashchange", function () { page.typed(); input.value = from_fragment(); page.run(false); });
  }

  if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", start);
  else start();
})(typeof window !== "undefined" ? window : this);

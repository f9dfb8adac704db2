/* The search page (search.html): a question typed or carried in the address (?q=, &game=,
 * &source=) answered as you type by search.js over the site's index, each result's text as a
 * reader reads it with the words it matched marked and named, 20 results and 20 more on request;
 * Back to the page returns to the same results at the same place. The page's part of the search,
 * with no Python counterpart (the terminal's is cli.py's `rulings search`).
 * Loads by a script tag, after query.js, searchspec.js, ranking.js and search.js, before search-index.js. */
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

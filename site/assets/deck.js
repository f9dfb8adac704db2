/* The deck page: a decklist pasted (or carried in the address after "#") read as `rulings deck`
 * reads it, and the same report made from the site's data, offline.
 *
 * The lines are read by kb/decklist.py's patterns and section names, shipped in deck-data.js
 * (window.RULINGS_DECK, made by kb.deck.deck_data, which also gives each card's errata, rulings and
 * mentions as indexes into the search data); the names are read by search.js's read_card, which
 * executes kb.resolve.read_card over the search data's card names. Each function below carries the
 * name of the Python function it executes; tests/test_deck.py runs both over the same lists.
 * Loads in node for tests: module.exports = {read_lines, read_names, deck_report}. */
(function (root) {
  "use strict";

  var S = typeof module === "object" && module.exports ? require("./search.js") : root.RulingsSearch;

  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }

  /* kb.decklist.PATTERNS: each rule compiled as Python's re.I | re.A reads it (no "u" flag: ASCII classes) */
  function patterns(deck) {
    if (!deck._patterns) {
      var out = {};
      Object.keys(deck.rules).forEach(function (name) { out[name] = new RegExp(deck.rules[name], "i"); });
      out.break_all = new RegExp(deck.rules["break"], "g");
      deck._patterns = out;
    }
    return deck._patterns;
  }

  /* kb.decklist.split_lines */
  function split_lines(text, P) {
    var lines = text.split(P.break_all);
    return lines.length > 1 && lines[lines.length - 1] === "" ? lines.slice(0, -1) : lines;
  }

  /* kb.decklist.section_of */
  function section_of(name, deck, P) {
    var section = own(deck.sections, S.fold(name));
    if (section === undefined) section = name.split(" ").filter(Boolean).join(" ");
    return [section, P.sideboard.test(S.fold(section))];
  }

  function line(number, kind, text, extra) {
    var out = {number: number, kind: kind, text: text, name: "", count: 1, set_code: "", section: "", sideboard: false};
    Object.keys(extra || {}).forEach(function (k) { out[k] = extra[k]; });
    return out;
  }

  /* kb.decklist.read_line */
  function read_line(number, raw, section, sideboard, deck, P) {
    var text = S.clean(raw, deck.max_line + 1), where = {section: section, sideboard: sideboard};
    if (Array.from(text).length > deck.max_line) return line(number, "long", "", where);
    if (!text) return line(number, "blank", text, where);
    var header = P.header.exec(text);
    if (header && (header[2] || own(deck.sections, S.fold(header[1])) !== undefined)) {
      var named = section_of(header[1], deck, P);
      return line(number, "header", text, {section: named[0], sideboard: named[1]});
    }
    if (P.comment.test(text)) return line(number, "comment", text, where);
    var rest = text.replace(P.bullet, ""), m = P.sideboard_prefix.exec(rest);
    if (m) { rest = rest.slice(m[0].length); sideboard = true; }
    rest = rest.replace(P.trailing_comment, "");
    var set_code = "", count = 1;
    m = P.set_code.exec(rest);
    if (m) { set_code = m[1].toUpperCase(); rest = rest.slice(0, m.index); }
    m = P.count_after.exec(rest);
    if (m) {
      count = parseInt(m[2] || m[3] || m[4], 10);
      rest = m[1];
    } else {
      m = P.count_before.exec(rest);
      if (m) { count = parseInt(m[1], 10); rest = m[2]; }
    }
    return line(number, "card", text, {name: rest.replace(/^[ ,;.]+|[ ,;.]+$/g, ""), count: count,
      set_code: set_code, section: section, sideboard: sideboard});
  }

  /* kb.decklist.read_lines */
  function read_lines(text, deck) {
    var P = patterns(deck), out = [], section = "", sideboard = false;
    split_lines(text.replace(/^\ufeff/, ""), P).forEach(function (raw, i) {
      var l = read_line(i + 1, raw, section, sideboard, deck, P);
      if (l.kind === "header") { section = l.section; sideboard = l.sideboard; }
      out.push(l);
    });
    return out;
  }

  var NOT_NEAR = "not read for near spellings";

  /* kb.deck.read_names: each different name read exactly, or (the first max_near) by near spellings */
  function read_names(lines, searcher, deck, index) {
    var readings = new Map(), near = 0;
    lines.forEach(function (l) {
      var key = S.fold(l.name);
      if (readings.has(key)) return;
      var exact = key && key.length <= deck.max_name ? searcher.card_names(key) : null;
      if (exact) readings.set(key, {names: exact.slice(), read_as: "", choices: []});
      else if (near < deck.max_near) { near += 1; readings.set(key, S.read_card(searcher, l.name, index)); }
      else readings.set(key, {names: [], read_as: NOT_NEAR, choices: []});
    });
    return readings;
  }

  function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  /* kb.deck._add_section */
  function add_section(sections, l) {
    for (var i = 0; i < sections.length; i++) {
      if (sections[i].section === l.section && sections[i].sideboard === l.sideboard) { sections[i].count += l.count; return; }
    }
    sections.push({section: l.section, sideboard: l.sideboard, count: l.count});
  }

  /* kb.lookup.card_rulings, from the shipped lists: [errata, rulings, mentions] as document indexes */
  function card_rulings(names, searcher, deck) {
    var lists = [[], [], []];
    names.forEach(function (name) {
      var got = own(deck.cards, name);
      if (got) got.forEach(function (ids, i) { ids.forEach(function (d) { if (lists[i].indexOf(d) < 0) lists[i].push(d); }); });
    });
    if (names.length > 1) {  // current editions first, then source and document order, as Shaper.rulings
      lists.forEach(function (ids) {
        ids.sort(function (a, b) { return (searcher.data(b).current - searcher.data(a).current) || a - b; });
      });
    }
    lists[2] = lists[2].filter(function (d) { return lists[0].indexOf(d) < 0 && lists[1].indexOf(d) < 0; });
    return lists;
  }

  /* kb.deck.deck_report: each card once, the quiet ones apart, the names not found with suggestions;
   * {error} where `rulings deck` refuses the list */
  function deck_report(text, searcher, deck) {
    if (!S.clean(text, 1e9)) return {error: "An empty decklist."};
    var lines = read_lines(text, deck);
    var cards = lines.filter(function (l) { return l.kind === "card"; });
    if (!cards.length) return {error: "No card in it (" + lines.length + " lines of blanks, comments, headers or overlong lines)."};
    var index = new S.NameIndex(searcher.table("names"));
    var readings = read_names(cards, searcher, deck, index);
    var found = new Map(), missed = new Map();
    cards.forEach(function (l) {
      var key = S.fold(l.name), reading = readings.get(key);
      if (!reading.names.length) {
        if (!missed.has(key)) missed.set(key, {name: l.name, lines: [], count: 0, choices: reading.choices, suggestions: [],
          looked_near: reading.read_as !== NOT_NEAR});
        var miss = missed.get(key);
        miss.lines.push(l.number);
        miss.count += l.count;
        return;
      }
      var names = reading.names.slice().sort(cmpStr), id = names.join("\u0000");
      if (!found.has(id)) found.set(id, {name: names.join(" / "), names: names, count: 0, sections: [], lines: [],
        typed: [], read_as: [], set_codes: []});
      var entry = found.get(id);
      entry.count += l.count;
      entry.lines.push(l.number);
      [["typed", l.name], ["read_as", reading.read_as], ["set_codes", l.set_code]].forEach(function (fv) {
        if (fv[1] && entry[fv[0]].indexOf(fv[1]) < 0) entry[fv[0]].push(fv[1]);
      });
      add_section(entry.sections, l);
    });
    if (!found.size) {
      var first = missed.values().next().value;
      return {error: "No line names a card (" + cards.length + " card lines; line " + first.lines[0] + " reads " +
        S.quoted(first.name) + ")."};
    }
    var skipped = 0;
    missed.forEach(function (miss) {
      if (!miss.looked_near) skipped += 1;
      else if (!miss.choices.length) miss.suggestions = index.rank(miss.name);
    });
    var said = [], quiet = [];
    found.forEach(function (entry) {
      var lists = card_rulings(entry.names, searcher, deck);
      entry.errata = lists[0];
      entry.rulings = lists[1];
      entry.mentioned_in = lists[2];
      entry.mentions = lists[2].length;
      (lists[0].length || lists[1].length || lists[2].length ? said : quiet).push(entry);
    });
    var copies = cards.reduce(function (n, l) { return n + l.count; }, 0), warnings = [];
    if (copies > deck.many_copies) warnings.push(copies + " copies on " + lines.length + " lines: more than a deck; every card is checked all the same");
    if (skipped) warnings.push(skipped + " names were not read for near spellings (only the first " + deck.max_near + " are)");
    cards.forEach(function (l) {
      var names = readings.get(S.fold(l.name)).names.slice().sort(cmpStr);
      if (!l.set_code || !names.length) return;
      var printed = [];
      names.forEach(function (name) {
        (own(deck.sets, name) || []).forEach(function (code) { if (printed.indexOf(code) < 0) printed.push(code); });
      });
      printed.sort(cmpStr);
      if (printed.indexOf(l.set_code) < 0) {
        warnings.push("line " + l.number + ": " + found.get(names.join("\u0000")).name + " has no printing in " + l.set_code +
          " (printed in " + printed.join(", ") + ")");
      }
    });
    return {lines: lines.length, card_lines: cards.length, copies: copies, warnings: warnings, cards: said, quiet: quiet,
      not_found: Array.from(missed.values())};
  }

  // -- the page ---------------------------------------------------------------------------------------

  /* kb.deck.counted */
  function counted(n, noun, plural) { return n + " " + (n === 1 ? noun : plural || noun + "s"); }

  /* kb.deck.sections_text */
  function sections_text(entry) {
    return entry.sections.map(function (s) {
      return (s.section || "no section") + (s.sideboard && s.section.toLowerCase().indexOf("side") < 0 ? " (sideboard)" : "") + " " + s.count;
    }).join(", ");
  }

  /* kb.deck._miss_text */
  function miss_text(miss) {
    var shown = miss.lines.slice(0, 10).join(", ") + (miss.lines.length > 10 ? " ..." : "");
    var text = "line" + (miss.lines.length > 1 ? "s" : "") + " " + shown + ": " + S.quoted(miss.name);
    if (miss.choices.length) return text + " could be " + miss.choices.join(", ");
    if (miss.suggestions.length) return text + ": did you mean " + miss.suggestions.join(", ") + "?";
    return text + ": no card near it";
  }

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

  function ruling(searcher, d) {
    var r = searcher.data(d), li = el("li", "ruling");
    li.appendChild(link(r.url, "[" + r.kind + (r.number ? " " + r.number : "") + "]"));
    li.appendChild(el("span", "where", " " + r.source_title + (r.current ? "" : " (older edition)") + " · " + r.id));
    li.appendChild(el("div", "text", r.text));
    return li;
  }

  function rulings(searcher, title, ids) {
    var box = el("div", "deck-rulings");
    box.appendChild(el("h4", "", title + " (" + ids.length + ")"));
    var list = el("ul", "results");
    ids.forEach(function (d) { list.appendChild(ruling(searcher, d)); });
    box.appendChild(list);
    return box;
  }

  function render(searcher, deck, text, out, status) {
    out.textContent = "";
    if (!text.trim()) { status.textContent = "Paste a decklist: one card a line (\"2 Gandalf\", \"Gandalf x2\", \"Gandalf [TW]\"), headers and comments allowed."; return; }
    var report = deck_report(text, searcher, deck);
    if (report.error) { status.textContent = report.error + " Write one card a line, e.g. \"2 Gandalf\", \"Gandalf x2\" or \"Gandalf [TW]\"."; return; }
    var n = report.cards.length + report.quiet.length;
    status.textContent = counted(n, "card") + " (" + counted(report.copies, "copy", "copies") + ") on " + counted(report.lines, "line") +
      (deck.crf ? " · " + deck.crf.title + " edition " + deck.crf.edition : "") + " · " +
      (report.not_found.length ? counted(report.not_found.length, "name") + (report.not_found.length === 1 ? " matches" : " match") +
        " no card." : "every name is a card.");
    report.warnings.forEach(function (w) { out.appendChild(el("p", "where", "note: " + w)); });
    report.cards.forEach(function (entry) {
      var sec = el("section", "deck-card"), h = el("h3");
      var url = searcher.card_url(entry.names[0]);
      h.appendChild(url ? link(url, entry.name) : el("span", "", entry.name));
      h.appendChild(el("span", "count", " ×" + entry.count));
      sec.appendChild(h);
      sec.appendChild(el("p", "where", sections_text(entry) + entry.read_as.map(function (r) { return "; " + r; }).join("")));
      if (entry.errata.length) sec.appendChild(rulings(searcher, "Errata", entry.errata));
      if (entry.rulings.length) sec.appendChild(rulings(searcher, "CRF rulings", entry.rulings));
      if (entry.mentions) {
        var more = el("details", "mentions");
        more.appendChild(el("summary", "", "Mentioned in " + counted(entry.mentions, "other ruling")));
        var list = el("ul", "results");
        more.addEventListener("toggle", function () {
          if (more.open && !list.childNodes.length) entry.mentioned_in.forEach(function (d) { list.appendChild(ruling(searcher, d)); });
        });
        more.appendChild(list);
        sec.appendChild(more);
      }
      out.appendChild(sec);
    });
    if (report.quiet.length) {
      var q = el("section", "deck-quiet");
      q.appendChild(el("h3", "", "Nothing to say (" + report.quiet.length + ")"));
      q.appendChild(el("p", "", report.quiet.map(function (e) { return e.name + " ×" + e.count; }).join(", ")));
      out.appendChild(q);
    }
    if (report.not_found.length) {
      var nf = el("section", "deck-missing"), ul = el("ul");
      nf.appendChild(el("h3", "", "Not found (" + report.not_found.length + ")"));
      report.not_found.slice(0, 200).forEach(function (miss) { ul.appendChild(el("li", "", miss_text(miss))); });
      nf.appendChild(ul);
      out.appendChild(nf);
    }
  }

  function from_fragment() {
    var hash = root.location.hash.slice(1);
    try { return decodeURIComponent(hash); } catch (e) { return ""; }
  }

  function start() {
    var form = root.document.getElementById("deck-form"), input = root.document.getElementById("decklist");
    var out = root.document.getElementById("deck-report"), status = root.document.getElementById("deck-status");
    if (!form) return;
    if (!(root.RULINGS_DATA || root.RULINGS_INDEX) || !root.RULINGS_DECK || !S) { status.textContent = "The deck data did not load."; return; }
    if (!S.fresh(status, start)) return;
    var searcher = S.open(), deck = root.RULINGS_DECK;
    input.value = from_fragment();
    render(searcher, deck, input.value, out, status);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var hash = "#" + encodeURIComponent(input.value);
      try { root.history.replaceState(null, "", hash); } catch (e) { root.location.hash = hash; }
      render(searcher, deck, input.value, out, status);
    });
    root.addEventListener("hashchange", function () {
      input.value = from_fragment();
      render(searcher, deck, input.value, out, status);
    });
  }

  var api = {read_lines: read_lines, read_names: read_names, deck_report: deck_report, miss_text: miss_text};
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else if (root.document) {
    root.RulingsDeck = api;
    if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", start);
    else start();
  }
})(typeof window !== "undefined" ? window : this);

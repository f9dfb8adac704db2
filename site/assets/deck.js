/* The deck check's report: kb/deck/deck.py in JavaScript, function for function: a list's names read to cards
 * (read_names, each by resolve.js's read_card over the search data's card names), lists on a line and
 * starting companies placed, the rules checked (deckrules.js), and the report deck_report makes, each card's
 * errata, rulings and mentions given as indexes into the search data; the texts the report is told in
 * (finding_text, whose_text, ...). check_deck reads a list's bytes as `rulings deck` does.
 * Loads by a script tag (window.RulingsDeck) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function deck_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;  // kb.search.query: fold, clean
  var R = node ? require("./resolve.js") : root.RulingsResolve;  // kb.search.resolve: read_card, quoted
  var L = node ? require("./decklist.js") : root.RulingsDeckList;
  var Refused = L.Refused, cmpStr = L.cmpStr, cpSlice = L.cpSlice, decode = L.decode, item_lines = L.item_lines,
    list_items = L.list_items, list_spans = L.list_spans, own = L.own, patterns = L.patterns,
    short_name = L.short_name, sum = L.sum, title_at = L.title_at, unique = L.unique;
  var F = node ? require("./deckformats.js") : root.RulingsDeckFormats;
  var read_deck = F.read_deck;
  var C = node ? require("./deckcards.js") : root.RulingsDeckCards;
  var a_name = C.a_name, entry = C.entry, facts_of = C.facts_of, has = C.has, part_of = C.part_of,
    scope_of = C.scope_of, site_alignments = C.site_alignments, versions = C.versions, whose_deck = C.whose_deck,
    whose_how = C.whose_how, whose_json = C.whose_json;
  var K = node ? require("./deckrules.js") : root.RulingsDeckRules;
  var check = K.check, counted = K.counted, verdicts = K.verdicts;

  var NOT_NEAR = "not read for near spellings";
  var OTHER_SET = "of a set the card database does not hold: read by its exact name only";

  /* kb.deck.deck.read_names: each different name read exactly, or (the first max_near) by near spellings */
  function read_names(lines, spec, deck, index, sets) {
    var readings = new Map(), near = 0;
    lines.forEach(function (l) {
      var key = Q.fold(l.name);
      if (readings.has(key)) return;
      var exact = key && key.length <= deck.max_name ? spec.card_names(key) : null;
      if (exact) readings.set(key, {names: exact.slice(), read_as: "", choices: []});
      else if (l.set_code && !own(sets, l.set_code)) readings.set(key, {names: [], read_as: OTHER_SET, choices: []});
      else if (near < deck.max_near) { near += 1; readings.set(key, R.read_card(spec, l.name, index)); }
      else readings.set(key, {names: [], read_as: NOT_NEAR, choices: []});
    });
    return readings;
  }

  /* kb.deck.deck.expand_lists */
  function expand_lists(lines, spec, by_id, deck) {
    var out = [];
    lines.forEach(function (l) {
      if (l.kind === "list" || l.kind === "labelled") out = out.concat(read_list(l, spec, deck));
      else out.push(l.kind === "card" && !own(by_id, l.card_id) ? unbracketed(l, spec, deck) : l);
    });
    return out;
  }

  /* kb.deck.deck.unbracketed */
  function unbracketed(l, spec, deck) {
    var bracketed = patterns(deck).bracketed.exec(l.name);
    if (bracketed && !spec.card_names(Q.fold(l.name))) return Object.assign({}, l, {name: bracketed[1]});
    return l;
  }

  /* kb.deck.deck.read_list: a line listing cards, read as its writer means it */
  function read_list(l, spec, deck) {
    var P = patterns(deck), whole = item_lines(l, l.name, deck, P);
    if (whole[0].kind === "card" && spec.card_names(Q.fold(whole[0].name))) return whole;
    var items = [].concat.apply([], joined_items(l, spec, deck)).filter(function (c) { return c.kind === "card"; });
    var known = items.filter(function (c) { return spec.card_names(Q.fold(unbracketed(c, spec, deck).name)); }).length;
    if (items.length > 1 && known >= Math.max(2, items.length - known + 1)) {
      return items.map(function (c) { return unbracketed(c, spec, deck); });
    }
    if (l.kind === "labelled" || P.sentence.test(l.name)) return [Object.assign({}, l, {kind: "note", name: ""})];
    if (short_name(l.name, deck)) return whole;
    return [Object.assign({}, l, {kind: "long", name: ""})];
  }

  /* kb.deck.deck.joined_items: each item read as a line, items next to each other as one where together they name a card */
  function joined_items(l, spec, deck) {
    var P = patterns(deck), text = l.name, spans = list_spans(text, P), out = [], i = 0;
    var singles = spans.map(function (sp) { return item_lines(l, text.slice(sp[0], sp[1]), deck, P); });
    var keys = singles.map(function (g) { return g[0].kind === "card" ? Q.fold(g[0].name) : ""; });
    var between = spans.slice(1).map(function (sp, n) { return Q.fold(text.slice(spans[n][1], sp[0])); });
    while (i < spans.length) {
      var found = false;
      for (var j = Math.min(spans.length, i + deck.max_joined); j > i + 1; j--) {
        var words = [];
        for (var k = i; k < j; k++) words.push(k > i ? between[k - 1] : "", keys[k]);
        if (keys.slice(i, j).every(Boolean) && spec.card_names(words.filter(Boolean).join(" "))) {
          out.push(item_lines(l, text.slice(spans[i][0], spans[j - 1][1]), deck, P)); i = j; found = true; break;
        }
      }
      if (!found) { out.push(singles[i]); i += 1; }
    }
    return out;
  }

  /* kb.deck.deck.read_title: [the lines, the first made the title where it may be one and names no card; that title] */
  function read_title(lines, spec, deck, index) {
    var at = title_at(lines, deck, patterns(deck));
    if (at === null || ["card", "list", "labelled"].indexOf(lines[at].kind) < 0) return [lines, ""];
    var l = lines[at], reading = R.read_card(spec, l.name, index);
    if (reading.names.length || reading.choices.length ||
        list_items(l.name, patterns(deck)).some(function (item) { return spec.card_names(Q.fold(item)); })) return [lines, ""];
    var title = l.text.replace(patterns(deck).markup_all, " ").split(" ").filter(Boolean).join(" ") || l.text;
    return [lines.slice(0, at).concat([Object.assign({}, l, {kind: "title", name: ""})], lines.slice(at + 1)),
      cpSlice(title, deck.max_title)];
  }

  /* kb.deck.deck.place_starting: [the card lines counted, the lines left out, the counts that cannot be told] */
  function place_starting(lines, readings, by_id, by_name) {
    if (!lines.some(function (l) { return l.part === "starting"; })) return [lines, [], []];
    var keys = lines.map(function (l) {
      var names = name_of(l, readings, by_id)[0];
      return names.length ? "\u0001" + names.slice().sort(cmpStr).join(" / ") : "\u0002" + Q.fold(l.name);
    });
    var sources = lines.map(function (l) { return l.part === "starting" ? "\u0003" + l.section : l.part === "pool" ? "" : null; });
    function is_unique(k) {  /* kb.deck.deck.Cards.unique */
      return k.slice(1).split(" / ").every(function (n) { return (own(by_name, n) || []).every(function (f) { return has(f, "u"); }); });
    }
    var elsewhere = new Set(), totals = new Map(), best = new Map(), counted = [], repeated = [], unsure = [];
    keys.forEach(function (k, i) { if (sources[i] === null && k.charAt(0) === "\u0001" && is_unique(k)) elsewhere.add(k); });
    lines.forEach(function (l, i) {
      if (sources[i] === null) return;
      if (!totals.has(keys[i])) totals.set(keys[i], new Map());
      var by = totals.get(keys[i]);
      by.set(sources[i], (by.get(sources[i]) || 0) + l.count);
    });
    totals.forEach(function (by, k) { best.set(k, most_copies(by)); });
    lines.forEach(function (l, i) {
      var k = keys[i], source = sources[i];
      if (source === null) counted.push(l);
      else if (source !== best.get(k) || (source && elsewhere.has(k))) repeated.push(l);
      else counted.push(source ? Object.assign({}, l, {part: "pool"}) : l);
    });
    best.forEach(function (won, k) {
      var by = totals.get(k), own_lines = by.get("");
      if (!won || !own_lines || elsewhere.has(k)) return;
      var cards = lines.filter(function (l, i) { return keys[i] === k; });
      unsure.push({rule: "", status: "not checked", message: "how many copies of " +
        (k.charAt(0) === "\u0001" ? k.slice(1) : cards[0].name) + " the pool holds: its own lines give " + own_lines +
        ", its starting companies or draft " + by.get(won) + "; counted " + by.get(won),
        lines: unique_numbers(cards), cards: []});
    });
    return [counted, repeated, unsure];
  }

  function unique_numbers(lines) {
    return unique(lines.map(function (l) { return l.number; })).sort(function (a, b) { return a - b; });
  }

  /* kb.deck.deck.repeated_text */
  function repeated_text(repeated) {
    var names = unique(repeated.map(function (l) { return l.name; }));
    return lines_text(unique(repeated.map(function (l) { return l.number; }))) + ": " + names.slice(0, 8).join(", ") +
      (names.length > 8 ? " ..." : "") + " named again (the pool, its starting companies, its draft): each counted once";
  }

  /* kb.deck.deck.most_copies: the place giving the most copies of a card, the list's own lines ("") on a tie, else the first */
  function most_copies(by) {
    var order = Array.from(by.keys()), won = order[0];
    order.forEach(function (s) {
      if (by.get(s) > by.get(won) || (by.get(s) === by.get(won) && s === "" && won !== "")) won = s;
    });
    return won;
  }

  /* kb.deck.deck.unread_findings: a check not made for each part of the deck holding lines not read */
  function unread_findings(lines, deck) {
    var unread = new Map();
    lines.forEach(function (l) {
      if (l.kind !== "long" || own(deck.part_checks, l.part) === undefined) return;
      if (!unread.has(l.part)) unread.set(l.part, []);
      unread.get(l.part).push(l.number);
    });
    var out = [];
    unread.forEach(function (numbers, part) {
      var check = deck.part_checks[part], many = numbers.length > 1;
      out.push({rule: check[1], status: "not checked", message: check[0] + " was not checked whole: " +
        counted(numbers.length, "line") + " too long for a card's name, and no list of cards' names, " +
        (many ? "were" : "was") + " not read", lines: numbers, cards: []});
    });
    return out;
  }

  /* kb.deck.deck.missing_parts: a check not made when a whole deck has no location deck at all */
  function missing_parts(lines, entries, scope, deck) {
    if (scope.kind !== "deck" || lines.some(function (l) { return l.part === "sites" && (l.kind === "card" || l.kind === "long"); }) ||
        entries.some(function (e) { return e.versions.length && part_of(e.part, e.versions[0]) === "sites"; })) return [];
    var rule = deck.part_checks.sites[1];
    return [{rule: rule, status: "not checked", message: "the list has no location deck: rule " + rule + " and its " +
      "parts (the sites each player may include) not checked", lines: [], cards: []}];
  }

  /* kb.deck.deck.name_of: [names, read_as] */
  function name_of(l, readings, by_id) {
    if (own(by_id, l.card_id)) return [[by_id[l.card_id].name], ""];
    var reading = readings.get(Q.fold(l.name));
    return [reading.names.slice(), reading.read_as];
  }

  /* kb.deck.deck._add_section */
  function add_section(sections, l) {
    for (var i = 0; i < sections.length; i++) {
      var s = sections[i];
      if (s.section === l.section && s.part === l.part && s.sideboard === l.sideboard) { s.count += l.count; return; }
    }
    sections.push({section: l.section, part: l.part, sideboard: l.sideboard, count: l.count});
  }

  /* kb.read.lookup's Reader.card_rulings, shipped: [errata, rulings, mentions] as document indexes, for a
   * card or for the cards a name stands for (their English names, sorted, joined by " / ") */
  function card_rulings(names, deck) {
    return own(deck.cards, names.join(" / ")) || [[], [], []];
  }

  /* a list refused: {error, hint}, the one line `rulings deck` prints ("Error: {error}. {hint}") */
  function read_error(e, deck) {
    if (e instanceof Refused) return {error: e.message, hint: e.hint === null ? deck.example : e.hint};
    throw e;
  }

  /* kb.deck.deck.deck_report: the verdict and findings, whose deck it is, each card once, the quiet ones
   * apart, the names not read with suggestions; {error} where `rulings deck` refuses the list.
   * options: {name, form, game, alignment, title, progress: told (what, done, of) as the work goes on} */
  function deck_report(text, spec, deck, options) {
    options = options || {};
    var name = options.name || "deck", game = options.game || "short", progress = options.progress;
    if (patterns(deck).blank_text.test(text)) return read_error(new Refused(name + ": an empty decklist"), deck);
    var read_list;
    try { read_list = read_deck(text, name, options.form || "", deck, progress); } catch (e) { return read_error(e, deck); }
    if (progress) progress("checking", 0, 1);
    var lines = read_list.lines, none = read_error(new Refused(name + ": no card in it (" + read_list.line_count +
      " lines of blanks, comments, headers, notes or overlong lines)"), deck);
    if (!lines.some(function (l) { return ["card", "list", "labelled"].indexOf(l.kind) >= 0; })) return none;
    var F = facts_of(deck), by_id = F.by_id, by_name = F.by_name;
    var index = new Q.NameIndex(spec.table("names")), titled_lines = read_title(lines, spec, deck, index);
    lines = expand_lists(titled_lines[0], spec, by_id, deck);
    var cards = lines.filter(function (l) { return l.kind === "card"; });
    if (!cards.length) return none;
    var readings = read_names(cards.filter(function (l) { return !own(by_id, l.card_id); }), spec, deck, index, F.sets);
    var found = new Map(), missed = new Map(), read = [], unread = [], warnings = [], card_count = cards.length;
    var placed_lines = place_starting(cards, readings, by_id, by_name);
    cards = placed_lines[0];
    cards.forEach(function (l) {
      var got = name_of(l, readings, by_id), names = got[0], read_as = got[1];
      if (!names.length) {
        var key = Q.fold(l.name), reading = readings.get(key);
        if (!missed.has(key)) missed.set(key, {name: l.name, lines: [], count: 0, choices: reading.choices, suggestions: [],
          looked_near: reading.read_as !== NOT_NEAR && reading.read_as !== OTHER_SET});
        var miss = missed.get(key);
        miss.lines.push(l.number);
        miss.count += l.count;
        unread.push(entry(l.number, l.count, l.part, l.group, [], l.name));
        return;
      }
      if (own(by_id, l.card_id) && l.name) {
        var exact = spec.card_names(Q.fold(l.name));
        if (names.map(Q.fold).indexOf(Q.fold(l.name)) < 0 && exact && exact.indexOf(names[0]) < 0) {
          warnings.push("line " + l.number + ": " + R.quoted(l.name) + " has the card id " + l.card_id + ", which is " +
            names[0] + ": read as " + names[0]);
        }
      }
      var sorted = names.slice().sort(cmpStr), id = sorted.join("\u0000");
      if (!found.has(id)) found.set(id, {name: sorted.join(" / "), names: sorted, count: 0, sections: [], lines: [],
        typed: [], read_as: [], set_codes: [], printings: []});
      var e = found.get(id);
      e.count += l.count;
      e.lines.push(l.number);
      [["typed", l.name], ["read_as", read_as], ["set_codes", l.set_code]].forEach(function (fv) {
        if (fv[1] && e[fv[0]].indexOf(fv[1]) < 0) e[fv[0]].push(fv[1]);
      });
      add_section(e.sections, l);
      var start = own(by_id, l.card_id) ? [by_id[l.card_id]] : [].concat.apply([], names.map(function (n) { return own(by_name, n) || []; }));
      read.push([l, start, id]);
    });
    if (placed_lines[1].length) warnings.push(repeated_text(placed_lines[1]));
    if (!found.size) {
      var first = missed.values().next().value;
      return read_error(new Refused(name + ": no line names a card (" + card_count + " card lines; line " + first.lines[0] +
        " reads " + R.quoted(first.name) + ")"), deck);
    }
    var first_pass = read.map(function (r) {
      return entry(r[0].number, r[0].count, r[0].part, r[0].group, versions(r[1], r[0].set_code, r[0].tag, r[0].group, "", deck), r[0].name);
    });
    var scope = scope_of(first_pass, deck);
    var whose = whose_deck(first_pass, options.alignment || "", read_list.alignment, deck, scope), how = whose_how(whose, deck);
    var extra = placed_lines[2].concat(unread_findings(lines, deck), missing_parts(lines, first_pass, scope, deck));
    var players = scope.kind === "not a deck" ? [] : whose.players;
    var results = (players.length ? players : [""]).map(function (player) {  // each alignment the evidence leaves
      var entries = site_alignments(read.map(function (r) {
        return entry(r[0].number, r[0].count, r[0].part, r[0].group, versions(r[1], r[0].set_code, r[0].tag, r[0].group, player, deck),
          r[0].name);
      }), player);
      entries.forEach(function (chosen, i) {
        var e = found.get(read[i][2]);
        chosen.versions.forEach(function (f) { if (e.printings.indexOf(f.id) < 0) e.printings.push(f.id); });
      });
      return check(entries, player, game, unread, deck.unknown_bans, how, deck, scope).concat(extra);
    });
    var judged = verdicts(players, results, deck, scope), findings = judged[1];
    missed.forEach(function (miss) {
      if (miss.looked_near && !miss.choices.length) miss.suggestions = index.rank(miss.name);
    });
    var said = [], quiet = [];
    found.forEach(function (e) {
      var lists = card_rulings(e.names, deck);
      e.errata = lists[0];
      e.rulings = lists[1];
      e.mentioned_in = lists[2];
      e.mentions = lists[2].length;
      (lists[0].length || lists[1].length || lists[2].length ? said : quiet).push(e);
    });
    var copies = sum(cards, function (l) { return l.count; });
    var skipped = 0;
    missed.forEach(function (miss, key) { if (readings.get(key).read_as === NOT_NEAR) skipped += 1; });
    if (skipped) warnings.push(skipped + " names were not read for near spellings (only the first " + deck.max_near + " are)");
    cards.forEach(function (l) {
      var names = name_of(l, readings, by_id)[0].slice().sort(cmpStr);
      if (!l.set_code || !names.length) return;
      var printed = unique([].concat.apply([], names.map(function (n) {
        return (own(by_name, n) || []).map(function (f) { return f.set_code; });
      }))).sort(cmpStr);
      if (printed.indexOf(l.set_code) < 0) {
        warnings.push("line " + l.number + ": " + found.get(names.join("\u0000")).name + " has no printing in " + l.set_code +
          " (printed in " + printed.join(", ") + ")");
      }
    });
    var kinds = {};
    ["note", "comment", "long", "header"].forEach(function (k) { kinds[k] = lines.filter(function (l) { return l.kind === k; }).length; });
    var misses = Array.from(missed.values());
    return {title: read_list.title || titled_lines[1] || options.title || "", format: read_list.format, verdict: judged[0],
      findings: findings, readings: judged[2], alignment: whose_json(whose, deck), game: game,
      lines: read_list.line_count, card_lines: cards.length, skipped: kinds, copies: copies, warnings: warnings,
      not_found: misses.filter(function (m) { return !m.choices.length; }),
      ambiguous: misses.filter(function (m) { return m.choices.length; }), cards: said, quiet: quiet};
  }


  /* kb.deck.deck.sections_text */
  function sections_text(e) {
    return e.sections.map(function (s) {
      return (s.section || "no section") + (s.sideboard && s.section.toLowerCase().indexOf("side") < 0 ? " (sideboard)" : "") + " " + s.count;
    }).join(", ");
  }

  /* kb.deck.deck.lines_text */
  function lines_text(lines, limit) {
    limit = limit === undefined ? 10 : limit;
    if (!lines.length) return "";
    var shown = lines.slice(0, limit).join(", ") + (lines.length > limit ? " ... (" + lines.length + " lines)" : "");
    return "line" + (lines.length > 1 ? "s" : "") + " " + shown;
  }

  /* kb.deck.deck.finding_text */
  function finding_text(finding) {
    var where = finding.lines.length ? "; " + lines_text(finding.lines) : "";
    var rule = finding.rule ? " (rule " + finding.rule + ")" : "";
    return (finding.status === "open" ? "open question" : finding.status) + rule + ": " + finding.message + where;
  }

  /* kb.deck.deck._miss_text */
  function miss_text(miss) {
    var shown = miss.lines.slice(0, 10).join(", ") + (miss.lines.length > 10 ? " ..." : "");
    var text = "line" + (miss.lines.length > 1 ? "s" : "") + " " + shown + ": " + R.quoted(miss.name);
    if (miss.choices.length) return text + " could be " + miss.choices.join(", ");
    if (miss.suggestions.length) return text + ": did you mean " + miss.suggestions.join(", ") + "?";
    return text + ": no card near it";
  }

  /* kb.deck.deck.whose_text */
  function whose_text(report) {
    var a = report.alignment;
    if (a.player) return "A " + a.name + " deck (" + a.how + "), a " + report.game + " game.";
    if (a.readings.length) return "Whose deck it is is not sure: " + a.how + "; a " + report.game + " game.";
    return "Whose deck it is is not " + (a.sure === "not judged" ? "judged" : "known") + ": " + a.how + ".";
  }

  /* kb.deck.deck.reading_text */
  function reading_text(reading) {
    return "As " + a_name(reading.name) + " deck: " + reading.verdict.summary;
  }


  var MAX_SHOWN = 50000;
  /* A list of more characters is checked without being shown in the box or carried in the page's address:
   * laying out a box of 200,000 lines takes a browser seconds, and no address holds megabytes. */

  /* one list checked: [the report (or {error, hint}), its text where it is short enough to show] */
  function check_job(bytes, spec, deck, options) {
    var text;
    try { text = decode(bytes, options.name || "deck", deck); } catch (e) { return [read_error(e, deck), null]; }
    return [deck_report(text, spec, deck, options), text.length <= MAX_SHOWN ? text : null];
  }

  /* kb.deck.deck.check_deck: the report on a decklist's bytes (a file's, or a typed list's UTF-8) as `rulings deck`
   * makes it, or {error, hint} where it refuses them (options as deck_report's) */
  function check_deck(bytes, spec, deck, options) { return check_job(bytes, spec, deck, options || {})[0]; }

  var api = {module: deck_js, MAX_SHOWN: MAX_SHOWN, check_deck: check_deck, check_job: check_job,
    deck_report: deck_report, finding_text: finding_text, lines_text: lines_text, miss_text: miss_text,
    read_error: read_error, read_names: read_names, reading_text: reading_text, sections_text: sections_text,
    whose_text: whose_text};
  if (node) module.exports = api;
  else root.RulingsDeck = api;
})(typeof window !== "undefined" ? window : this);

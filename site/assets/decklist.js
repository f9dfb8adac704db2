/* A decklist's text read line by line: kb/deck/decklist.py in JavaScript, function for function. Its bytes are
 * decoded as the terminal decodes them (decode, within the limits kb/deck/decklist.py ships), and its lines read:
 * counts, names, set codes, alignment tags, headers giving sections, parts and groups, lists on one line,
 * GCCG frames, the title; over the patterns, section names, tags and limits deck-data.js carries
 * (window.RULINGS_DECK, made by kb.deck.deck.deck_data). Each function carries the name of the Python function it
 * executes; tests/data/decks/cases.json holds both runtimes to the same answers (tests/parity/driver.js).
 * Here too the small helpers the deck modules share (Python's own: dict.get, sum, a list's unique items, a
 * str's code points).
 * Loads by a script tag (window.RulingsDeckList) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function decklist_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;  // kb.search.query: fold, clean

  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }
  function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function cps(s) { return Array.from(s); }  // code points, as Python indexes a str
  function cpLen(s) { return Q.cpLen(s); }  // len(s), without a list of its code points where it has no astral one
  function cpSlice(s, n) { return s.length <= n || !Q.astral(s) ? s.slice(0, n) : cps(s).slice(0, n).join(""); }
  function sum(xs, f) { return xs.reduce(function (n, x) { return n + f(x); }, 0); }
  function unique(xs) { return Array.from(new Set(xs)); }  // first seen first, in linear time

  /* kb.deck.decklist.PATTERNS: each rule compiled as Python's re.I | re.A reads it (no "u" flag: ASCII classes) */
  function patterns(deck) {
    if (!deck._patterns) {
      var out = {};
      Object.keys(deck.rules).forEach(function (name) { out[name] = new RegExp(deck.rules[name], "i"); });
      out.break_all = new RegExp(deck.rules["break"], "g");
      out.list_split_all = new RegExp(deck.rules.list_split, "gi");
      out.influence_all = new RegExp(deck.rules.influence, "gi");
      out.markup_all = new RegExp(deck.rules.markup, "gi");
      out.xml_attribute_all = new RegExp(deck.rules.xml_attribute, "gi");
      out.xml_entity_all = new RegExp(deck.rules.xml_entity, "gi");
      out.control_all = new RegExp(deck.rules.control, "g");
      out.json_token_all = new RegExp(deck.rules.json_token, "gi");
      deck._patterns = out;
    }
    return deck._patterns;
  }

  var SIDEBOARDS = ["sideboard", "fw-sideboard"];
  var PARTS = ["pool", "play", "sideboard", "fw-sideboard", "sites", "notes", "starting"];

  // -- the input: bytes to text, within the limits kb/deck/decklist.py ships -------------------------------------

  var PROGRESS_LINES = 8192;  // the page is told of its progress each time this many lines are read

  /* kb.inputs.size_text: "4.0 MB", "1.5 KB", rounded as Python's format rounds (half to even) */
  function size_text(size) {
    var unit = size >= 1048576 ? 1048576 : 1024, q = Math.floor(size * 10 / unit), r = size * 10 - q * unit;
    if (2 * r > unit || (2 * r === unit && q % 2 === 1)) q += 1;
    return Math.floor(q / 10) + "." + (q % 10) + (unit === 1024 ? " KB" : " MB");
  }

  /* kb.deck.decklist.too_large */
  function too_large(name, size, deck) {
    return new Refused(name + ": " + size_text(size) + ", over the " + size_text(deck.max_bytes) + " a decklist may be " +
      "(10,000 lines of card names are about 300 KB)", deck.too_large_hint);
  }

  /* bytes.decode("cp1252", errors="replace"): 0x80 to 0x9F as kb.deck.decklist.CP1252 gives them, every other byte its
   * Latin-1 character (no TextDecoder is the same: node's reads 0x80 as U+0080, a browser's 0x81 as U+0081) */
  function cp1252(bytes, deck) {
    var units = new Uint16Array(bytes.length), chunks = [];
    for (var i = 0; i < bytes.length; i++) units[i] = bytes[i] >= 0x80 && bytes[i] < 0xa0 ? deck.cp1252.charCodeAt(bytes[i] - 0x80) : bytes[i];
    for (var at = 0; at < units.length; at += 8192) chunks.push(String.fromCharCode.apply(null, units.subarray(at, at + 8192)));
    return chunks.join("");
  }

  /* kb.deck.decklist.decode: a decklist's text from its bytes (a Uint8Array), or Refused as the terminal refuses them */
  function decode(bytes, name, deck) {
    var binary = name + ": binary data, not a decklist", text;
    if (bytes.length > deck.max_bytes) throw too_large(name, bytes.length, deck);
    if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
      try {
        text = new TextDecoder(bytes[0] === 0xff ? "utf-16le" : "utf-16be", {fatal: true, ignoreBOM: true}).decode(bytes.subarray(2));
      } catch (e) { throw new Refused(binary + " (not UTF-16 after its byte-order mark)"); }
    } else if (bytes.indexOf(0) >= 0) {
      throw new Refused(binary + " (a NUL byte at byte " + bytes.indexOf(0) + ")");
    } else {
      try { text = new TextDecoder("utf-8", {fatal: true}).decode(bytes); } catch (e) { text = cp1252(bytes, deck); }
    }
    var controls = (text.match(patterns(deck).control_all) || []).length, length = text.length;
    for (var i = 0; i < text.length; i++) if ((text.charCodeAt(i) & 0xfc00) === 0xdc00) length -= 1;  // code points
    if (controls * deck.control_share > length) throw new Refused(binary + " (" + controls + " control characters in " + length + ")");
    return text;
  }

  /* kb.deck.decklist.split_lines */
  function split_lines(text, P) {
    var lines = text.split(P.break_all);
    return lines.length > 1 && lines[lines.length - 1] === "" ? lines.slice(0, -1) : lines;
  }

  function cleaned(raw) { return Q.clean(raw, raw.length + 1); }

  /* kb.deck.decklist.section_key */
  function section_key(name, P) { return Q.fold(name).replace(P.section_count, ""); }

  /* kb.deck.decklist.names_part */
  function names_part(key, deck, P) {
    return own(deck.sections, key) !== undefined || P.sideboard.test(key) || P.fw_sideboard.test(key) || P.starting.test(key);
  }

  /* kb.deck.decklist.section_of */
  function section_of(name, part, deck, P) {
    var key = section_key(name, P), known = own(deck.sections, key);
    if (known !== undefined) {
      var starts = known[1];
      if (!starts) starts = SIDEBOARDS.indexOf(part) >= 0 ? part : "play";
      return [known[0], starts, known[2]];
    }
    var words = name.split(" ").filter(Boolean).join(" ");
    if (P.fw_sideboard.test(key)) return [words, "fw-sideboard", ""];
    if (P.sideboard.test(key)) return [words, "sideboard", ""];
    if (P.starting.test(key)) return [words, "starting", ""];
    var near = known_section(key, deck);
    if (near) return section_of(near, part, deck, P);
    return [words].concat(named_within(key, part, deck));
  }

  /* kb.deck.decklist.known_section: the section a header's one word is or spells nearly, the nearest if one is, or "" */
  function known_section(key, deck) {
    if (own(deck.sections, key) !== undefined || key.indexOf(" ") >= 0 || cpLen(key) < deck.near_section - 1) {
      return own(deck.sections, key) !== undefined ? key : "";
    }
    var near = {}, best = null;
    (own(deck.near_keys, cpSlice(key, 2)) || []).forEach(function (known) {
      var limit = cpLen(known) < deck.near_section + 3 ? 1 : 2, d = Q.distance(key, known, limit);
      if (d <= limit) {
        if (!own(near, d)) near[d] = [];
        near[d].push(known);
        if (best === null || d < best) best = d;
      }
    });
    return best !== null && near[best].length === 1 ? near[best][0] : "";
  }

  /* kb.deck.decklist.named_within: [part, group] a section's key names by its words when it is none of the sections */
  function named_within(key, part, deck) {
    var named = key.split(" ").filter(function (w) { return own(deck.sections, w) !== undefined; })
      .map(function (w) { return deck.sections[w]; });
    var groups = named.filter(function (e) { return !e[1]; }).map(function (e) { return e[2]; });
    if (!groups.length) return [part, ""];
    var parts = named.filter(function (e) { return e[1]; }).map(function (e) { return e[1]; });
    return [parts.length ? parts[0] : SIDEBOARDS.indexOf(part) >= 0 ? part : "play", groups[0]];
  }

  /* kb.deck.decklist.framed_section */
  function framed_section(name, deck, P) {
    var s = section_of(name, "notes", deck, P);
    return PARTS.indexOf(s[1]) >= 0 ? [s[0], s[1], ""] : [s[0], "notes", ""];
  }

  /* kb.deck.decklist.framed_heading: [section, part, group] a GCCG heading starts inside its frame's part */
  function framed_heading(name, part, deck, P) {
    var s = section_of(name, part, deck, P);
    var named = section_key(name, P).split(" ").filter(function (w) {
      var known = own(deck.sections, w);
      return known !== undefined && known[2];
    });
    return [s[0], part, s[2] || (named.length ? deck.sections[named[named.length - 1]][2] : "")];
  }

  /* kb.deck.decklist.read_name: [name, set code, tag, count or null, what it carries] */
  function read_name(text, deck, P, framed) {
    var rest = text.replace(P.influence_all, ""), set_code = "", tag = "", carried = "", m;
    m = framed ? P.any_set_code.exec(rest) : null;
    if (m && !P.set_code.test(rest)) { set_code = m[1].toUpperCase(); rest = rest.slice(0, m.index); }
    for (var i = 0; i < 3; i++) {
      m = P.tag.exec(rest);
      if (m && !tag) { tag = deck.tags[Q.fold(m[1])]; rest = rest.slice(0, m.index); continue; }
      m = P.set_code.exec(rest);
      if (m && !set_code) { set_code = m[1].toUpperCase(); rest = rest.slice(0, m.index); continue; }
      m = P.trailing_note.exec(rest);
      if (m) { carried = carried || (m[1] || m[2] || "").replace(/^[ ,;.]+|[ ,;.]+$/g, ""); rest = rest.slice(0, m.index); continue; }
      break;
    }
    var count = null;
    m = P.count_after.exec(rest);
    if (m) {
      count = parseInt(m[2] || m[3] || m[4] || m[5], 10);
      rest = m[1];
    } else {
      m = P.count_before.exec(rest);
      if (m) { count = parseInt(m[1], 10); rest = m[2]; }
    }
    m = P.tag_before.exec(rest);
    if (m && !tag) { tag = deck.tags[Q.fold(m[1])]; rest = rest.slice(m[0].length); }
    return [rest.replace(/^[ ,;.]+|[ ,;.]+$/g, ""), set_code, tag, count, carried];
  }

  /* kb.deck.decklist.placed */
  function placed(number, kind, text, section, part, group, name, count, set_code, tag, card_id) {
    return {number: number, kind: kind, text: text, name: name || "", count: count === undefined ? 1 : count,
      set_code: set_code || "", tag: tag || "", card_id: card_id || "", section: section, part: part, group: group,
      sideboard: SIDEBOARDS.indexOf(part) >= 0};
  }

  /* kb.deck.decklist.part_words */
  function part_words(name, deck, P) {
    var key = section_key(name, P);
    return key.split(" ").filter(Boolean).length <= 4 && names_part(key, deck, P);
  }

  /* kb.deck.decklist.short_name */
  function short_name(name, deck) {
    return name.split(" ").filter(Boolean).length <= deck.max_name_words && cpLen(name) <= deck.max_name_length;
  }

  /* kb.deck.decklist.read_line: the lines one line reads as */
  function read_line(number, raw, section, part, group, mode, deck, P) {
    var text = cleaned(raw), whole = whole_line(number, text, section, part, group, mode, deck, P);
    var lines = whole !== null ? [whole] : labelled_line(number, text, section, part, group, mode, deck, P);
    if (cpLen(text) <= deck.max_line) return lines;
    return lines.map(function (l) { return Object.assign({}, l, {text: ""}); });
  }

  /* kb.deck.decklist.list_spans: [start, end] of each item of a line listing cards */
  function list_spans(text, P) {
    var spans = [], start = 0, depth = 0, m, re = new RegExp(P.list_split_all.source, "gi");
    while ((m = re.exec(text)) !== null) {
      var mark = m[0];
      if (mark === "(" || mark === "[") depth += 1;
      else if (mark === ")" || mark === "]") depth = Math.max(0, depth - 1);
      else if (depth === 0) { spans.push([start, m.index]); start = m.index + mark.length; }
    }
    spans.push([start, text.length]);
    return spans.filter(function (s) { return text.slice(s[0], s[1]).replace(/^[ ,;.]+|[ ,;.]+$/g, ""); });
  }

  /* kb.deck.decklist.list_items */
  function list_items(text, P) {
    return list_spans(text, P).map(function (s) { return text.slice(s[0], s[1]).replace(/^ +| +$/g, ""); });
  }

  /* kb.deck.decklist.item_lines: some items of a list line read as one line in its place */
  function item_lines(l, text, deck, P) {
    return card_lines(l.number, l.text, text.replace(/^ +| +$/g, ""), l.section, l.part, l.group, false, deck, P);
  }

  /* kb.deck.decklist.long_line */
  function long_line(number, text, section, part, group, P) {
    var prose = part === "notes" || P.sentence.test(text) || P.prose.test(text);
    return placed(number, prose ? "note" : "long", "", section, part, group);
  }

  /* kb.deck.decklist.whole_line: a line that names no card, or null */
  function whole_line(number, text, section, part, group, mode, deck, P) {
    var s;
    if (cpLen(text) > deck.max_line && (mode !== "text" || part === "notes" || cpLen(text) > deck.max_list_line ||
        list_items(text, P).length < 2)) {
      return long_line(number, text, section, part, group, P);
    }
    if (!text) return placed(number, "blank", text, section, part, group);
    if (mode === "frame") {
      s = framed_section(text, deck, P);
      return placed(number, "header", text, s[0], s[1], s[2]);
    }
    if (P.frame.test(text)) return placed(number, "comment", text, section, part, group);
    var header = P.header.exec(text);
    if (mode === "framed") {
      if (part === "notes") return placed(number, "note", text, section, part, group);
      if (header && text.charAt(0) === "#" && (own(deck.sections, section_key(header[1], P)) !== undefined ||
          (part && P.gccg_heading.test(text)))) {
        s = framed_heading(header[1], part, deck, P);
        return placed(number, "header", text, s[0], s[1], s[2]);
      }
    } else if (header && (header[2] || part_words(header[1], deck, P))) {  // "[characters]" names a part of its own
      s = section_of(header[1], text.charAt(0) === "[" ? "" : part, deck, P);
      return placed(number, "header", text, s[0], s[1], s[2]);
    } else if (part === "notes") {
      return placed(number, "note", text, section, part, group);
    }
    if (P.comment.test(text)) return placed(number, "comment", text, section, part, group);
    return null;
  }

  /* kb.deck.decklist.labelled_line: a line that may name cards, after its bullet, prefix or label */
  function labelled_line(number, text, section, part, group, mode, deck, P) {
    var rest = text.replace(P.bullet, ""), prefix = P.sideboard_prefix.exec(rest);
    var label = mode === "text" ? P.label.exec(rest) : null, header = [];
    if (label && (!prefix || list_items(label[2], P).length > 1)) {
      if (!names_part(section_key(label[1], P), deck, P)) {
        var listed = named_cards(number, text, label[2], section, part, group, false, deck, P)[0];
        var kind = listed.kind === "list" ? "labelled" : "note";
        return [Object.assign({}, listed, {kind: kind, name: kind === "labelled" ? listed.name : ""})];
      }
      var s = section_of(label[1], part, deck, P);
      section = s[0]; part = s[1]; group = s[2];
      header.push(placed(number, "header", text, section, part, group));
      rest = label[2];
    } else if (prefix) { rest = rest.slice(prefix[0].length); part = "sideboard"; }
    return header.concat(named_cards(number, text, rest, section, part, group, mode === "framed", deck, P));
  }

  /* kb.deck.decklist.named_cards: what the rest of a line names, a list or one card */
  function named_cards(number, text, rest, section, part, group, framed, deck, P) {
    rest = rest.replace(P.trailing_comment, "");
    if (P.placeholder.test(rest) || P.aside.test(rest) || P.legend.test(rest)) return [placed(number, "note", text, section, part, group)];
    var items = framed ? [] : list_items(rest, P);
    if (items.length > 1 && items.every(function (i) { return short_name(i, deck); })) {
      return [placed(number, "list", text, section, part, group, rest)];
    }
    return card_lines(number, text, rest, section, part, group, framed, deck, P);
  }

  /* kb.deck.decklist.card_lines: what the rest of a line names read as one card */
  function card_lines(number, text, rest, section, part, group, framed, deck, P) {
    if (cpLen(rest) > deck.max_line) return [long_line(number, rest, section, part, group, P)];
    var read = read_name(rest, deck, P, framed), name = read[0], count = read[3], carried = read[4];
    if (P.decoration.test(name) || count === 0) return [placed(number, "comment", text, section, part, group)];
    if (count === null && (P.sentence.test(rest) || !short_name(name, deck))) return [placed(number, "note", text, section, part, group)];
    var card = placed(number, "card", text, section, part, group, name, count === null ? 1 : count, read[1], read[2]);
    if (carried && !P.decoration.test(carried)) return [card, placed(number, "card", text, section, part, group, carried)];
    return [card];
  }

  /* kb.deck.decklist.frame_names: which lines name a GCCG frame's part, the frames read in turn from the top */
  function frame_names(frames) {
    var names = new Set(), i = 0;
    while (i + 2 < frames.length) {
      if (frames[i] && !frames[i + 1] && frames[i + 2]) { names.add(i + 1); i += 3; } else i += 1;
    }
    return names;
  }

  /* kb.deck.decklist.read_lines; progress (the page's): told of each PROGRESS_LINES lines read */
  function read_lines(text, deck, framed, progress) {
    var P = patterns(deck), raws = split_lines(text.replace(/^\ufeff/, ""), P), out = [];
    var names = framed ? frame_names(raws.map(function (raw) { return P.frame.test(cleaned(raw)); })) : new Set();
    var section = "", part = "", group = "", given = [];
    raws.forEach(function (raw, i) {
      if (progress && i % PROGRESS_LINES === 0) progress("reading", i, raws.length);
      var mode = "text";
      if (framed) mode = names.has(i) ? "frame" : "framed";
      var lines = read_line(i + 1, raw, section, part, group, mode, deck, P), head = lines[0], keep = part;
      if (head.kind === "header" && (part === "pool" || part === "starting") && keeps_pool(head, given, deck)) {
        lines = lines.map(function (l) { return Object.assign({}, l, {part: keep, sideboard: false}); });
        given.push(head.section);
      } else if (head.kind === "header") given = [];
      if (lines.some(function (l) { return (l.kind === "card" || l.kind === "list") && !l.group; })) given.push("");
      lines.forEach(function (l) {
        if (l.kind === "header") { section = l.section; part = l.part; group = l.group; }
        out.push(l);
      });
    });
    return titled(out, deck, P);
  }

  /* kb.deck.decklist.keeps_pool */
  function keeps_pool(header, given, deck) {
    return deck.pool_sections.indexOf(header.section) >= 0 && given.indexOf(header.section) < 0 &&
      !(header.section === "Characters" && given.indexOf("") >= 0);
  }

  /* kb.deck.decklist.title_at: where a text list's own title may be, or null */
  function title_at(lines, deck, P) {
    var first = -1;
    for (var i = 0; i < lines.length; i++) if (lines[i].kind !== "blank") { first = i; break; }
    if (first < 0 || ["note", "card", "list", "labelled"].indexOf(lines[first].kind) < 0) return null;
    var l = lines[first], after = null;
    for (var j = first + 1; j < lines.length; j++) if (lines[j].number > l.number) { after = lines[j]; break; }
    if (after === null || (after.kind !== "blank" && after.kind !== "header") || cpLen(l.text) > deck.max_title ||
        P.banner.test(Q.fold(l.text))) return null;
    return l.kind === "note" || l.kind === "labelled" || l.name === l.text ? first : null;
  }

  /* kb.deck.decklist.titled */
  function titled(lines, deck, P) {
    var at = title_at(lines, deck, P);
    if (at === null || lines[at].kind !== "note") return lines;
    return lines.slice(0, at).concat([Object.assign({}, lines[at], {kind: "title"})], lines.slice(at + 1));
  }

  /* kb.deck.decklist.text_title */
  function text_title(lines, deck, P) {
    for (var i = 0; i < lines.length; i++) {
      var l = lines[i];
      if (l.kind === "blank") continue;
      if (l.kind === "title") return cpSlice(l.text, deck.max_title);
      if (l.kind !== "comment" || P.frame.test(l.text)) break;
      var words = l.text.replace(P.comment_marks, "").replace(/^ +| +$/g, "");
      if (words && !P.banner.test(Q.fold(words))) return cpSlice(words, deck.max_title);
    }
    return "";
  }

  /* kb.errors.Refused: its message is the terminal's, its hint what to do (kb.deck.decklist.EXAMPLE unless told) */
  function Refused(message, hint) { this.message = message; this.hint = hint === undefined ? null : hint; }

  /* kb.deck.decklist.json_fault: [offset, how] where a JSON text goes past the limits, or null */
  function json_fault(text, deck, P) {
    var depth = 0, m, re = new RegExp(P.json_token_all.source, "gi");
    while ((m = re.exec(text)) !== null) {
      var token = m[0];
      if (token === "[" || token === "{") {
        depth += 1;
        if (depth > deck.max_depth + 1) return [m.index, "nested more than " + deck.max_depth + " levels deep"];
      } else if (token === "]" || token === "}") {
        depth = Math.max(0, depth - 1);
      } else if (token.charAt(0) !== '"') {
        return [m.index, "holding a number of more than " + deck.max_digits + " digits"];
      }
    }
    return null;
  }

  var api = {module: decklist_js, Refused: Refused, SIDEBOARDS: SIDEBOARDS, cleaned: cleaned, cmpStr: cmpStr, cpSlice: cpSlice,
    decode: decode, item_lines: item_lines, json_fault: json_fault, list_items: list_items, list_spans: list_spans,
    own: own, patterns: patterns, placed: placed, read_lines: read_lines, read_name: read_name,
    section_of: section_of, short_name: short_name, size_text: size_text, split_lines: split_lines, sum: sum,
    text_title: text_title, title_at: title_at, too_large: too_large, unique: unique};
  if (node) module.exports = api;
  else root.RulingsDeckList = api;
})(typeof window !== "undefined" ? window : this);

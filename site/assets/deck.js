/* The deck page: a decklist pasted, dropped as a file, or carried in the address after "#", read in
 * any of its formats and checked against the CoE deck-construction rules as `rulings deck` checks it,
 * with the same report made from the site's data, offline.
 *
 * Reading executes kb/deck/decklist.py (the patterns, section names, tags and JSON fields it ships in
 * deck-data.js, window.RULINGS_DECK, made by kb.deck.deck.deck_data); the names are read by resolve.js's
 * read_card (kb.search.resolve.read_card over the search data's card names, searchspec.js); the rules execute
 * kb/deck/deckrules.py over the card facts and limits deck-data.js carries; the report executes
 * kb.deck.deck.deck_report, each card's errata, rulings and mentions given as indexes into the search
 * data. Each function below carries the name of the Python function it executes; tests/test_deck.py
 * runs both over the same lists.
 * On the page a list is read and checked in a worker made of this module and the three before it (worker_source,
 * serve, Checker), with its progress shown; the bytes of a file or of a typed list are read as the terminal reads
 * them (decode: the limits kb/deck/decklist.py ships).
 * Loads in node for tests: module.exports = {read_deck, read_lines, read_names, deck_report, check_deck, ...}. */
(function deck_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;         // kb.search.query: fold, clean, NameIndex
  var P = node ? require("./searchspec.js") : root.RulingsSpec;     // kb.search.searchspec: the site's search data
  var R = node ? require("./resolve.js") : root.RulingsResolve;     // kb.search.resolve: read_card, quoted

  function own(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined; }
  function cmpStr(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function cps(s) { return Array.from(s); }  // code points, as Python indexes a str
  function cpLen(s) { return Q.cpLen(s); }  // len(s), without a list of its code points where it has no astral one
  function cpSlice(s, n) { return s.length <= n || !Q.astral(s) ? s.slice(0, n) : cps(s).slice(0, n).join(""); }
  function sum(xs, f) { return xs.reduce(function (n, x) { return n + f(x); }, 0); }
  function unique(xs) { return Array.from(new Set(xs)); }  // first seen first, in linear time
  function counted(n, noun, plural) { return n + " " + (n === 1 ? noun : plural || noun + "s"); }

  // -- reading a list: kb/deck/decklist.py -------------------------------------------------------------------

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

  /* kb.deck.decklist.line_starts */
  function line_starts(text, P) {
    var starts = [0], re = new RegExp(P.break_all.source, "g"), m;
    while ((m = re.exec(text)) !== null) starts.push(m.index + m[0].length);
    return starts;
  }

  /* kb.deck.decklist.line_at: bisect_right */
  function line_at(starts, offset) {
    var lo = 0, hi = starts.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (starts[mid] <= offset) lo = mid + 1; else hi = mid; }
    return lo;
  }

  var ENTITIES = {amp: "&", lt: "<", gt: ">", quot: '"', apos: "'"};

  /* kb.deck.decklist.xml_text */
  function xml_text(raw, P) {
    return raw.replace(P.xml_entity_all, function (all, named, dec, hex) {
      if (named) return ENTITIES[named.toLowerCase()];
      var code = dec ? parseInt(dec, 10) : parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    });
  }

  /* kb.errors.Refused: its message is the terminal's, its hint what to do (kb.deck.decklist.EXAMPLE unless told) */
  function Refused(message, hint) { this.message = message; this.hint = hint === undefined ? null : hint; }

  var XML_KINDS = [["<!--", "-->", "skip"], ["<![CDATA[", "]]>", "cdata"], ["<?", "?>", "skip"], ["<!", ">", "skip"],
    ["<", ">", "tag"]];

  /* kb.deck.decklist.xml_tokens: [offset, kind, element or text, attributes, self-closing] */
  function xml_tokens(text, name, P) {
    var out = [], at = 0, end = text.length;
    while (at < end) {
      var lt = text.indexOf("<", at);
      if (lt < 0) lt = end;
      if (lt > at) out.push([at, "text", xml_text(text.slice(at, lt), P), {}, false]);
      if (lt >= end) break;
      for (var k = 0; k < XML_KINDS.length; k++) {
        var opener = XML_KINDS[k][0], closer = XML_KINDS[k][1], kind = XML_KINDS[k][2];
        if (!text.startsWith(opener, lt)) continue;
        var stop = text.indexOf(closer, lt + opener.length);
        if (stop < 0) {
          throw new Refused(name + ": XML whose " + (kind === "tag" ? "tag" : opener) + " at line " +
            line_at(line_starts(text, P), lt) + " never ends");
        }
        var body = text.slice(lt, stop + closer.length);
        if (kind === "cdata") out.push([lt, "text", body.slice(opener.length, body.length - closer.length), {}, false]);
        else if (kind === "tag") {
          var m = P.xml_name.exec(body);
          if (m) {
            var attrs = {}, rest = body.slice(m[0].length), a, re = new RegExp(P.xml_attribute_all.source, "gi");
            while ((a = re.exec(rest)) !== null) attrs[a[1].toLowerCase()] = xml_text(a[2] !== undefined ? a[2] : a[3], P);
            out.push([lt, m[1] ? "close" : "open", m[2].toLowerCase(), attrs, body.endsWith("/>")]);
          }
        }
        at = stop + closer.length;
        break;
      }
    }
    return out;
  }

  /* kb.deck.decklist.as_count */
  function as_count(value) {
    if (typeof value === "number") return Number.isInteger(value) ? value : null;
    if (typeof value === "string") {
      var t = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
      return /^[0-9]{1,6}$/.test(t) ? parseInt(t, 10) : null;
    }
    return null;
  }

  /* kb.deck.decklist.structured_card */
  function structured_card(number, typed, count, card_id, section, part, group, deck, P) {
    var text = cpSlice(cleaned(typed), deck.max_line), read = read_name(text, deck, P);
    var given = as_count(count), n = given === null ? 1 : given;
    var ident = cpSlice(cleaned(card_id), 40), m = P.card_id.exec(ident);
    if (m) ident = m[1].toUpperCase() + "-" + parseInt(m[2], 10);
    if (n < 1 || !(read[0] || ident)) return placed(number, "comment", text, section, part, group);
    return placed(number, "card", text, section, part, group, read[0], Math.min(n, 999), read[1], read[2], ident);
  }

  /* kb.deck.decklist.read_octgn */
  function read_octgn(text, name, deck, P) {
    var tokens = xml_tokens(text, name, P), starts = line_starts(text, P);
    var root_tag = null;
    for (var i = 0; i < tokens.length; i++) if (tokens[i][1] === "open") { root_tag = tokens[i]; break; }
    if (root_tag === null || root_tag[2] !== "deck") {
      throw new Refused(name + ": XML " + (root_tag ? "whose root element is <" + root_tag[2] + ">" : "with no element") +
        ", not an OCTGN deck (<deck> holding <section> and <card> elements)");
    }
    var lines = [], section = "", part = "", group = "", card = null, card_at = 0, words = "", in_notes = false;
    tokens.forEach(function (t) {
      var offset = t[0], kind = t[1], element = t[2], attrs = t[3], closed = t[4];
      if (kind === "open" && element === "section") {
        var s = section_of(own(attrs, "name") || "", "", deck, P);
        section = s[0]; part = s[1]; group = s[2];
      } else if (kind === "open" && element === "notes" && !closed) {
        in_notes = true;
        lines.push(placed(line_at(starts, offset), "note", "notes", "Notes", "notes", ""));
      } else if (kind === "close" && element === "notes") {
        in_notes = false;
      } else if (kind === "open" && element === "card" && !in_notes) {
        card = closed ? null : attrs; card_at = offset; words = "";
      } else if (kind === "text" && card !== null) {
        words += element;
      } else if (kind === "close" && element === "card" && card !== null) {
        var qty = own(card, "qty"), id = own(card, "id");
        lines.push(structured_card(line_at(starts, card_at), words, qty === undefined ? "1" : qty,
          id === undefined ? "" : id, section, part, group, deck, P));
        card = null;
      }
    });
    if (!lines.some(function (l) { return l.kind === "card"; })) throw new Refused(name + ": an OCTGN deck with no <card> in it");
    return {format: "octgn", title: "", alignment: "", lines: lines, line_count: split_lines(text, P).length};
  }

  /* kb.deck.decklist._field */
  function field(entry, kind, deck, P) {
    var keys = Object.keys(entry), names = deck.json_fields[kind];
    for (var i = 0; i < keys.length; i++) {
      var value = entry[keys[i]];
      if (names.indexOf(Q.fold(keys[i])) < 0) continue;
      var trimmed = typeof value === "string" ? value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "") : "";
      if (kind === "id" && !(typeof value === "string" && P.card_id.test(trimmed))) continue;
      if (kind === "name" && (typeof value !== "string" || P.card_id.test(trimmed))) continue;
      if (kind === "count" && as_count(value) === null) continue;
      return value;
    }
    return null;
  }

  function isDict(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  /* kb.deck.decklist._JsonReader */
  function JsonReader(text, deck, P) {
    this.text = text; this.deck = deck; this.P = P;
    this.starts = line_starts(text, P); this.cursor = 0; this.lines = [];
  }
  JsonReader.prototype.locate = function () {
    for (var i = 0; i < arguments.length; i++) {
      if (!arguments[i]) continue;
      var needle = JSON.stringify(arguments[i]);
      var found = this.text.slice(this.cursor, this.cursor + this.deck.look_ahead).indexOf(needle);
      if (found >= 0 && found + needle.length <= this.deck.look_ahead) {
        found += this.cursor;
        this.cursor = found + 1;
        return line_at(this.starts, found);
      }
    }
    return line_at(this.starts, this.cursor);
  };
  JsonReader.prototype.walk = function (value, section, part, group, top) {
    var self = this, deck = this.deck, P = this.P;
    if (Array.isArray(value)) {
      value.forEach(function (item) {
        if (typeof item === "string") self.card(item, 1, "", section, part, group);
        else self.walk(item, section, part, group);
      });
      return;
    }
    if (!isDict(value)) return;
    var name = field(value, "name", deck, P), ident = field(value, "id", deck, P);
    if (!top && (name !== null || ident !== null)) {
      var count = field(value, "count", deck, P);
      this.card(name || "", count === null ? 1 : count, ident || "", section, part, group);
      return;
    }
    Object.keys(value).forEach(function (key) {
      var item = value[key], folded = Q.fold(key);
      if (deck.json_fields.notes.indexOf(folded) >= 0 && typeof item === "string") {
        self.lines.push(placed(self.locate(key), "note", folded, "Notes", "notes", ""));
      } else if (top && (deck.json_fields.title.indexOf(folded) >= 0 || deck.json_fields.alignment.indexOf(folded) >= 0) &&
          !(item !== null && typeof item === "object")) {
        // the deck's own name and alignment (read_json)
      } else if (own(deck.sections, folded) !== undefined || P.sideboard.test(folded) || P.fw_sideboard.test(folded)) {
        self.locate(key);
        var s = section_of(key, part, deck, P), known = own(deck.sections, folded);
        var starts = known !== undefined && !known[1] ? part : s[1];
        self.walk(item, s[0], starts, s[2] || group);
      } else if (as_count(item) !== null && typeof item !== "string" && (part || group)) {
        self.card(key, item, "", section, part, group);
      } else {
        self.walk(item, section, part, group);
      }
    });
  };
  JsonReader.prototype.card = function (name, count, ident, section, part, group) {
    this.lines.push(structured_card(this.locate(name, ident), name, count, ident, section, part, group, this.deck, this.P));
  };

  /* kb.deck.decklist.read_json */
  function read_json(text, name, deck, P) {
    var data, fault = json_fault(text, deck, P);
    if (fault !== null) {
      throw new Refused(name + ": JSON " + fault[1] + " at line " + line_at(line_starts(text, P), fault[0]) +
        ": no deck builder's file");
    }
    try { data = JSON.parse(text); } catch (e) {
      var wrong = new JsonCheck(text, P).fault();
      throw new Refused(name + ": not valid JSON" + (wrong ? " at line " + line_at(line_starts(text, P), wrong.at) + " (" + wrong.what + ")" : ""));
    }
    var reader = new JsonReader(text, deck, P);
    reader.walk(data, "", "", "", true);
    if (!reader.lines.some(function (l) { return l.kind === "card"; })) {
      throw new Refused(name + ": JSON with no card in it (it holds " + (json_holds(data, text) || "nothing") + "), not a deck " +
        "builder's deck (parts such as \"pool\" or \"deck\" listing cards with a name or card id and a count)");
    }
    var title = "", alignment = "";
    if (isDict(data)) {
      var keys = Object.keys(data), i;
      for (i = 0; i < keys.length; i++) {
        if (deck.json_fields.title.indexOf(Q.fold(keys[i])) >= 0 && typeof data[keys[i]] === "string") {
          title = cpSlice(Q.clean(data[keys[i]], deck.max_title * 2), deck.max_title); break;
        }
      }
      for (i = 0; i < keys.length; i++) {
        if (deck.json_fields.alignment.indexOf(Q.fold(keys[i])) >= 0 && typeof data[keys[i]] === "string") {
          alignment = own(deck.alignments, Q.fold(data[keys[i]])) || ""; break;
        }
      }
    }
    return {format: "json", title: title, alignment: alignment, lines: reader.lines, line_count: split_lines(text, P).length};
  }

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

  /* kb.deck.decklist.JsonCheck: a JSON text that does not parse read again, to say where it first goes wrong */
  function JsonFault(at, what) { this.at = at; this.what = what; }
  function JsonCheck(text, P) { this.text = text; this.P = P; }

  JsonCheck.prototype.fault = function () {
    try {
      var at = this.space(this.value(this.space(0)));
      if (at < this.text.length) throw new JsonFault(at, "nothing more expected");
    } catch (e) {
      if (e instanceof JsonFault) return e;
      throw e;
    }
    return null;
  };
  JsonCheck.prototype.match = function (rule, at) {  // re.match(PATTERNS[rule], text, at): its end, or -1
    var re = this.P[rule + "_sticky"] || (this.P[rule + "_sticky"] = new RegExp(this.P[rule].source, "iy"));
    re.lastIndex = at;
    return re.exec(this.text) ? re.lastIndex : -1;
  };
  JsonCheck.prototype.space = function (at) { return this.match("json_space", at); };
  JsonCheck.prototype.value = function (at) {
    var c = this.text.slice(at, at + 1), number = this.match("json_number", at);
    if (c === "{" || c === "[") return this.items(this.space(at + 1), c === "{" ? "}" : "]");
    if (c === '"') return this.string(at);
    if (number > at) return number;
    var words = ["true", "false", "null"];
    for (var i = 0; i < words.length; i++) if (this.text.startsWith(words[i], at)) return at + words[i].length;
    throw new JsonFault(at, "a value expected");
  };
  JsonCheck.prototype.items = function (at, close) {
    var t = this.text;
    if (t.slice(at, at + 1) === close) return at + 1;
    for (;;) {
      if (close === "}") {
        if (t.slice(at, at + 1) !== '"') throw new JsonFault(at, "a name in double quotes expected");
        at = this.space(this.string(at));
        if (t.slice(at, at + 1) !== ":") throw new JsonFault(at, "':' expected");
        at = this.space(at + 1);
      }
      at = this.space(this.value(at));
      if (t.slice(at, at + 1) === close) return at + 1;
      if (t.slice(at, at + 1) !== ",") throw new JsonFault(at, "',' or '" + close + "' expected");
      at = this.space(at + 1);
    }
  };
  JsonCheck.prototype.string = function (at) {
    var i = at + 1;
    for (;;) {
      i = this.match("json_run", i);
      var c = this.text.slice(i, i + 2);
      if (!c || c === "\\") throw new JsonFault(at, "a string that never ends");
      if (c.charAt(0) === '"') return i + 1;
      if (c.charAt(0) !== "\\") throw new JsonFault(i, "a control character in a string");
      if ('"\\/bfnrt'.indexOf(c.charAt(1)) >= 0) i += 2;
      else if (c.charAt(1) === "u" && this.match("json_hex", i + 2) >= 0) i += 6;
      else throw new JsonFault(i, "an unknown escape");
    }
  };

  /* what a JSON text with no card holds, as kb.deck.decklist.read_json names it (Python's type names) */
  function json_holds(data, text) {
    if (isDict(data)) return Object.keys(data).slice(0, 5).join(", ");
    if (Array.isArray(data)) return "a list of " + data.length;
    if (data === null) return "NoneType";
    if (typeof data === "number") return /[.eE]/.test(text) ? "float" : "int";
    return typeof data === "boolean" ? "bool" : "str";
  }

  /* kb.deck.decklist.detect */
  function detect(text, deck, P) {
    var start = text.replace(/^[\ufeff \t\r\n]+/, "").charAt(0);
    if (start === "{") return "json";
    if (P.netmeccg.test(text.replace(/^[\ufeff \t\r\n]+/, ""))) return "netmeccg";
    if (start === "[") {  // JSON, past the limits (refused as such) or parsed
      if (json_fault(text.replace(/^\ufeff+/, ""), deck, P) !== null) return "json";
      try { JSON.parse(text.replace(/^\ufeff+/, "")); return "json"; } catch (e) { return "text"; }
    }
    if (start === "<" && P.xml.test(text.replace(/^[\ufeff \t\r\n]+/, ""))) return "octgn";
    var raws = split_lines(text.replace(/^\ufeff/, ""), P), frames = [];
    raws.forEach(function (raw, i) { if (P.frame.test(cleaned(raw))) frames.push(i); });
    for (var i = 1; i < frames.length; i++) if (frames[i] - frames[i - 1] === 2) return "meccg";
    return "text";
  }

  /* kb.deck.decklist.read_deck */
  function read_deck(text, name, form, deck, progress) {
    var P = patterns(deck);
    form = form || detect(text, deck, P);
    if (form === "json") return read_json(text.replace(/^\ufeff/, ""), name, deck, P);
    if (form === "octgn") return read_octgn(text.replace(/^\ufeff/, ""), name, deck, P);
    var lines = read_lines(text, deck, form === "meccg", progress);
    if (form === "netmeccg") lines = lines.map(function (l) { return version_marked(l, deck, P); });
    return {format: form, title: text_title(lines, deck, P), alignment: "", lines: lines,
      line_count: split_lines(text.replace(/^\ufeff/, ""), P).length};
  }

  /* kb.deck.decklist.version_marked: a NetMECCG card line, its name's mark read as the version it asks for */
  function version_marked(l, deck, P) {
    if (l.kind !== "card" || l.tag) return l;
    var m = P.version_mark.exec(l.name);
    return Object.assign({}, l, m ? {name: m[1], tag: deck.version_marks[m[2]]} : {tag: deck.version_marks[""]});
  }

  // -- the rules: kb/deck/deckrules.py -------------------------------------------------------------------------

  /* kb.deck.deckrules.CardFacts, from deck-data.js's rows; made once */
  function facts_of(deck) {
    if (!deck._facts) {
      var fields = deck.fact_fields, by_id = {}, by_name = {}, sets = {};
      deck.facts.forEach(function (row) {
        var f = {};
        fields.forEach(function (name, i) { f[name] = row[i]; });
        by_id[f.id] = f;
        sets[f.set_code] = true;
        if (!own(by_name, f.name)) by_name[f.name] = [];
        by_name[f.name].push(f);
      });
      deck._facts = {by_id: by_id, by_name: by_name, sets: sets};
    }
    return deck._facts;
  }

  /* kb.deck.deckrules.CardFacts.has */
  function has(f, letters) {
    for (var i = 0; i < letters.length; i++) if (f.flags.indexOf(letters[i]) >= 0) return true;
    return false;
  }

  /* kb.deck.deckrules.in_group */
  function in_group(card, group) {
    if (group === "characters") return card.type === "Character";
    if (group === "resources") return card.type === "Resource" || has(card, "r");
    if (group === "hazards") return card.type === "Hazard" || has(card, "zg");
    return card.type === "Site" || card.type === "Region";
  }

  var GROUPS = ["characters", "resources", "hazards", "sites"];

  /* kb.deck.deckrules.versions */
  function versions(cards, set_code, tag, group, player, deck) {
    var narrowed = cards, kept;
    function narrow(test) { kept = narrowed.filter(test); if (kept.length) narrowed = kept; }
    if (set_code) narrow(function (f) { return f.set_code === set_code; });
    if (tag) narrow(function (f) { return f.alignment === tag || (tag === "Fallen-wizard" && f.alignment === "Stage"); });
    if (GROUPS.indexOf(group) >= 0) narrow(function (f) { return in_group(f, group); });
    var tiers = own(deck.preferred, player) || [];
    for (var i = 0; i < tiers.length; i++) {
      kept = narrowed.filter(function (f) { return tiers[i].indexOf(f.alignment) >= 0; });
      if (kept.length) return kept;
    }
    return narrowed;
  }

  /* kb.deck.deckrules.part_of */
  function part_of(part, facts) {
    if (facts.type === "Site" || facts.type === "Region") return "sites";
    return ["pool", "play", "sideboard", "fw-sideboard"].indexOf(part) >= 0 ? part : "play";
  }

  function entry(line, count, part, group, cards, typed) {
    return {line: line, count: count, part: part, group: group, versions: cards, typed: typed};
  }

  /* kb.deck.deckrules.Evidence */
  function evidence(kind, players, says, lines, cards) {
    return {kind: kind, players: players, says: says, lines: lines, cards: cards || []};
  }

  /* kb.deck.deckrules.Whose.how */
  function whose_how(whose, deck) {
    if (whose.sure === "unknown") return "no avatar, tag or card says whose deck it is";
    if (whose.sure === "not judged") return "the list is no CoE deck, so no player's rules apply";
    var said = whose.evidence.map(function (e) { return e.says; });
    if (whose.sure === "weak") {
      said.push("every card fits " + whose.players.map(function (p) { return a_name(deck.player_names[p]) + " deck"; })
        .join(" and ") + ": checked as each");
    } else if (whose.sure === "split") {
      said.push("no alignment fits every card: checked as " + (whose.players.length > 1 ? "each of those" : "the one") +
        " whose rules the fewest copies break");
    }
    return said.join("; ");
  }

  /* kb.deck.deckrules.Whose.to_json */
  function whose_json(whose, deck) {
    var player = whose.players.length === 1 ? whose.players[0] : "";
    return {player: player, name: own(deck.player_names, player) || "", how: whose_how(whose, deck), sure: whose.sure,
      readings: whose.players.slice(), evidence: whose.evidence};
  }

  /* kb.deck.deckrules.whose_deck: {players, sure, evidence} */
  function whose_deck(entries, forced, declared, deck, scope) {
    var avatars = entries.filter(function (e) {
      return e.versions.length && e.versions.every(function (f) { return has(f, "a") && f.type === "Character"; });
    });
    var sauron = entries.filter(function (e) { return e.versions.length && e.versions.every(function (f) { return has(f, "v"); }); });
    var got = avatar_evidence(avatars, sauron, deck), candidates = got[0], said = got[1];
    if (scope && scope.kind === "not a deck") return {players: [], sure: "not judged", evidence: said};
    if (forced || declared) {
      var player = forced || declared;
      return {players: [player], sure: "decided", evidence: [evidence(forced ? "option" : "file", [player],
        forced ? "--alignment" : "the file says so", [])]};
    }
    var stage = entries.some(function (e) { return e.versions.some(function (f) { return f.alignment === "Stage"; }); });
    if (candidates.length > 1 && candidates.indexOf("fallen-wizard") >= 0 && !stage) {
      candidates = candidates.filter(function (p) { return p !== "fallen-wizard"; });
      said.push(evidence("stage", candidates, "no Stage resource, which a Fallen-wizard's pool must hold (1.7.F1)", []));
    }
    if (candidates.length === 1) return {players: candidates, sure: "decided", evidence: said};
    var chosen = new Set(avatars), names = new Set();
    avatars.forEach(function (e) { e.versions.forEach(function (f) { names.add(f.name); }); });
    var others = entries.filter(function (e) { return e.versions.length && !chosen.has(e); }), misfits = {};
    candidates.forEach(function (p) {
      misfits[p] = [];
      others.forEach(function (e) { var rule = alignment_rule(e, p, names, deck); if (rule) misfits[p].push([e, rule]); });
    });
    candidates.forEach(function (p) {
      if (misfits[p].length) said.push(misfit_evidence(p, misfits[p], candidates.filter(function (q) { return q !== p; }), deck));
    });
    var fits = candidates.filter(function (p) { return !misfits[p].length; });
    if (fits.length === 1) return {players: fits, sure: "decided", evidence: said};
    if (fits.length) {
      var told = avatars.length || sauron.length || said.some(function (e) { return e.kind === "cards"; });
      return {players: told ? fits : [], sure: told ? "weak" : "unknown", evidence: said};
    }
    function copies(p) { return sum(misfits[p], function (m) { return m[0].count; }); }
    var least = Math.min.apply(null, candidates.map(copies));
    return {players: candidates.filter(function (p) { return copies(p) === least; }), sure: "split", evidence: said};
  }

  /* kb.deck.deckrules._avatar_evidence: [candidates, evidence] */
  function avatar_evidence(avatars, sauron, deck) {
    if (!avatars.length && !sauron.length) return [deck.players.slice(), []];
    var both = avatars.concat(sauron), each = both.map(function (e) {
      return unique(e.versions.map(function (f) { return own(deck.player_of, f.alignment) || ""; })).filter(Boolean);
    });
    var shared = each.reduce(function (a, b) { return a.filter(function (p) { return b.indexOf(p) >= 0; }); });
    if (!shared.length) shared = unique([].concat.apply([], each));
    var candidates = deck.players.filter(function (p) { return shared.indexOf(p) >= 0; });
    var what = candidates.map(function (p) { return a_name(deck.player_names[p]); }).join(" or ");
    var said = avatars.length ? ["its avatar" + (avatars.length > 1 ? "s" : "") + " " + named(avatars, 5, true)] : [];
    if (sauron.length) said.push("played as Sauron (" + named(sauron, 5, true, true) + ")");
    return [candidates, [evidence("avatar", candidates, said.join(" and ") + ": " + what,
      both.map(function (e) { return e.line; }), names_of(both))]];
  }

  /* kb.deck.deckrules._misfit_evidence */
  function misfit_evidence(player, misfits, left, deck) {
    var rules = unique(misfits.map(function (m) { return m[1]; })).sort(function (a, b) {
      return deck.rule_order.indexOf(a) - deck.rule_order.indexOf(b);
    });
    var entries = misfits.map(function (m) { return m[0]; }), cards = names_of(entries);
    var which = "rule" + (rules.length > 1 ? "s" : "") + " " + rules.join(", ");
    var said = cards.length <= deck.evidence_cards ? named(entries, 5, true) + " (" + which + ")" :
      cards.length + " of its cards (" + which + "), such as " + named(entries, deck.evidence_cards, true, false, false);
    return evidence("cards", left, a_name(deck.player_names[player]) + " deck may not include " + said,
      entries.map(function (e) { return e.line; }), cards);
  }

  /* kb.deck.deckrules._names: the cards of some lines, each once, in order */
  function names_of(entries) {
    return unique(entries.map(function (e) { return e.versions.length ? e.versions[0].name : e.typed; }));
  }

  /* kb.deck.deckrules._a */
  function a_name(name) { return ("AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name; }

  /* kb.deck.deckrules._listed */
  function listed(words) { return words.length > 1 ? words.slice(0, -1).join(", ") + " and " + words[words.length - 1] : words.join(""); }

  /* kb.deck.deckrules.named */
  function named(entries, limit, lines, comma, more) {
    limit = limit === undefined ? 5 : limit;
    more = more === undefined ? true : more;
    var at = new Map();
    entries.forEach(function (e) {
      var name = e.versions.length ? e.versions[0].name : e.typed;
      if (!at.has(name)) at.set(name, []);
      at.get(name).push(e.line);
    });
    var shown = Array.from(at.entries()).slice(0, limit).map(function (kv) {
      var ns = kv[1], where = "line" + (ns.length > 1 ? "s" : "") + " " + ns.slice(0, 3).join(", ") + (ns.length > 3 ? ", ..." : "");
      return !lines ? kv[0] : comma ? kv[0] + ", " + where : kv[0] + " (" + where + ")";
    });
    if (at.size > shown.length && more) return shown.join(comma ? "; " : ", ") + " and " + (at.size - shown.length) + " more";
    return comma ? shown.join("; ") : listed(shown);
  }

  /* kb.deck.deckrules.Findings */
  function Findings(part) { this.out = []; this.part = !!part; }
  Findings.prototype.add = function (status, rule, message, entries) {
    entries = entries || [];
    this.out.push({rule: rule, status: status, message: message,
      lines: unique(entries.map(function (e) { return e.line; })).sort(function (a, b) { return a - b; }),
      cards: status === "not checked" ? [] :
        unique(entries.filter(function (e) { return e.versions.length; }).map(function (e) { return e.versions[0].name; }))});
  };
  Findings.prototype.problem = function (rule, message, entries) { this.add("problem", rule, message, entries); };
  /* kb.deck.deckrules.Findings.short: a minimum not reached, a problem; on part of a deck, a check not made */
  Findings.prototype.short = function (rule, message, entries) {
    if (this.part) this.add("not checked", rule, message + " (" + NOT_JUDGED + ")", entries);
    else this.problem(rule, message, entries);
  };
  Findings.prototype.open = function (rule, message, entries) { this.add("open", rule, message, entries); };
  Findings.prototype.unchecked = function (rule, message, entries) { this.add("not checked", rule, message, entries); };
  Findings.prototype.note = function (rule, message, entries) { this.add("note", rule, message, entries); };

  function total(entries) { return sum(entries, function (e) { return e.count; }); }

  var NOT_JUDGED = "not judged on part of a deck";
  var DECK = {kind: "deck", why: ""};

  /* kb.deck.deckrules.scope_of: {kind: deck, part or "not a deck", why} */
  function scope_of(entries, deck) {
    var read = entries.filter(function (e) { return e.versions.length; }), most = deck.most_cards, all = 0;
    var cards = total(read.filter(function (e) { return e.versions[0].type !== "Site" && e.versions[0].type !== "Region"; }));
    Object.keys(most).forEach(function (part) { all += most[part]; });
    if (cards > all) {
      var parts = listed(Object.keys(most).map(function (part) { return "a " + part + " of " + most[part]; }));
      return {kind: "not a deck", why: cards + " cards besides its sites: more than a CoE deck can hold (at most " + all + ": " +
        parts + ")"};
    }
    var lacks = ["Hazard", "Resource"].filter(function (kind) {
      return !read.some(function (e) { return e.versions[0].type === kind; });
    }).map(function (kind) { return "no " + kind.toLowerCase() + "s"; });
    return lacks.length ? {kind: "part", why: "this list has " + lacks.join(" and ")} : DECK;
  }

  /* kb.deck.deckrules.check */
  function check(entries, player, game, unread, unknown_bans, why, deck, scope) {
    scope = scope || DECK;
    if (scope.kind === "not a deck") {
      return [{rule: "", status: "not checked", message: "every deck-construction rule (1.2 to 1.8): not judged, " + scope.why,
        lines: [], cards: []}];
    }
    var f = new Findings(scope.kind === "part"), read = entries.filter(function (e) { return e.versions.length; });
    if (unread.length) {
      f.unchecked("", counted(unread.length, "line") + " " + (unread.length === 1 ? "names" : "name") +
        " no card or could be several cards: every count leaves them out", unread);
    }
    if (!player) {
      f.unchecked("1.2", "whose deck it is: " + why + "; the rules of one player (the alignment of its avatars, " +
        "characters, resources and sites; agents as hazards) are not checked: give its alignment");
    }
    copies(f, read, player, deck);
    agents(f, read, deck);
    play_deck(f, read, player, deck);
    sideboard(f, read, game, deck);
    pool(f, read, player, deck);
    pool_sites(f, read);
    locations(f, read, player, deck);
    if (player) alignment(f, read, player, own(unknown_bans, player) || [], deck);
    if (player === "fallen-wizard") declared_avatar(f, read);
    var order = deck.rule_order, statuses = deck.statuses;
    return f.out.map(function (x, i) { return [x, i]; }).sort(function (a, b) {
      return (statuses.indexOf(a[0].status) - statuses.indexOf(b[0].status)) ||
        (order.indexOf(a[0].rule) - order.indexOf(b[0].rule)) || (a[1] - b[1]);
    }).map(function (p) { return p[0]; });
  }

  function within(entries) {
    var parts = Array.prototype.slice.call(arguments, 1);
    return entries.filter(function (e) { return parts.indexOf(part_of(e.part, e.versions[0])) >= 0; });
  }

  function grouped(entries, key) {  // insertion-ordered groups, as a Python dict of lists
    var keys = [], groups = {};
    entries.forEach(function (e) {
      var k = key(e);
      if (!own(groups, k)) { groups[k] = []; keys.push(k); }
      groups[k].push(e);
    });
    return keys.map(function (k) { return [k, groups[k]]; });
  }

  /* kb.deck.deckrules._copies */
  function copies(f, entries, player, deck) {
    var limit = deck.limits.copies, fw = deck.limits.fallen_wizard_copies;
    var groups = grouped(within(entries, "pool", "play", "sideboard", "fw-sideboard"), function (e) { return e.versions[0].name; });
    groups.forEach(function (kv) {
      var name = kv[0], group = kv[1], n = total(group), card = group[0].versions[0];
      if (has(card, "u") && !has(card, "a") && n > limit.unique) {
        f.problem(limit.rule, n + " copies of " + name + ", a unique card (at most " + limit.unique + " in the deck)", group);
      } else if (!has(card, "u") && n > limit.other) {
        f.problem(limit.rule, n + " copies of " + name + " (at most " + limit.other + " in the deck)", group);
      } else if (player === "fallen-wizard" && !has(card, "u")) {
        var kind = card.alignment === "Stage" ? "stage" : card.type === "Character" ? "character" :
          card.type === "Resource" && card.alignment === "Hero" ? "hero" :
          card.type === "Resource" && card.alignment === "Minion" ? "minion" : "";
        if (kind && n > fw[kind]) {
          var what = {stage: "Stage resource", character: "character", hero: "hero resource", minion: "minion resource"}[kind];
          f.problem(fw.rule, n + " copies of " + name + ", a non-unique " + what + " (a Fallen-wizard player may include at most " +
            fw[kind] + ")", group);
        }
      }
    });
    manifestations(f, groups, deck);
  }

  /* kb.deck.deckrules._manifestations: groups, [name, entries] in order */
  function manifestations(f, groups, deck) {
    var rule = deck.limits.copies.rule, by_name = new Map(groups);
    grouped(groups.filter(function (kv) {
      var card = kv[1][0].versions[0];
      return has(card, "u") && !has(card, "a");
    }), function (kv) { return kv[1][0].versions[0].same; }).forEach(function (entity) {
      var names = entity[1].map(function (kv) { return kv[0]; });
      function type_of(n) { return by_name.get(n)[0].versions[0].type; }
      function entries_of(ns) { return [].concat.apply([], ns.map(function (n) { return by_name.get(n); })); }
      var resources = names.filter(function (n) { return type_of(n) === "Resource"; });
      var others = names.filter(function (n) { return type_of(n) !== "Resource"; });
      if (resources.length > 1) {
        var group = entries_of(resources);
        f.problem(rule, total(group) + " copies of " + resources.join(" / ") + ", manifestations of one unique resource: " +
          "one unique card (at most 1 in the deck)", group);
      }
      if (resources.length && others.length) {
        var kinds = [];
        ["Resource", "Hazard", "Character"].forEach(function (kind) {
          var g = names.filter(function (n) { return type_of(n) === kind; });
          if (g.length) kinds.push(listed(g) + " (" + (g.length === 1 ? "a " : "") + kind.toLowerCase() + (g.length > 1 ? "s" : "") + ")");
        });
        f.open(rule, "the rules leave open whether " + listed(kinds) + ", manifestations of one another, count as one " +
          "unique card: 1.3.1 makes one card of the manifestations of a unique resource, and CRF 22 speaks only of " +
          "two resource manifestations", entries_of(names));
      }
    });
  }

  /* kb.deck.deckrules._agents */
  function agents(f, entries, deck) {
    var limit = deck.limits.agent_mind;
    var chosen = within(entries, "pool", "play", "sideboard", "fw-sideboard").filter(function (e) { return has(e.versions[0], "g"); });
    var mind = sum(chosen, function (e) { return e.count * e.versions[0].mind; });
    if (mind > limit.max) f.problem(limit.rule, "the agents' mind totals " + mind + " (at most " + limit.max + " in the deck)", chosen);
  }

  /* kb.deck.deckrules._agent_is_hazard */
  function agent_is_hazard(card, player) {
    return has(card, "g") && (card.type === "Hazard" || player === "hero" || player === "balrog");
  }

  /* kb.deck.deckrules._play_groups: the play deck's lines as 1.5 counts them */
  function play_groups(entries, player) {
    var g = {resources: [], hazards: [], flexible: [], characters: [], avatars: [], resource_avatars: []};
    within(entries, "play").forEach(function (e) {
      var card = e.versions[0];
      if (card.type === "Character" && has(card, "a")) g.avatars.push(e);
      else if (agent_is_hazard(card, player)) g.hazards.push(e);
      else if (card.type === "Character") g.characters.push(e);
      else if (has(card, "rz")) g.flexible.push(e);
      else if (card.type === "Resource") (has(card, "v") ? g.resource_avatars : g.resources).push(e);
      else if (card.type === "Hazard") g.hazards.push(e);
    });
    return g;
  }

  /* kb.deck.deckrules._play_deck */
  function play_deck(f, entries, player, deck) {
    var limit = deck.limits.play_deck, g = play_groups(entries, player), characters = g.characters;
    resource_avatars(f, g, player, deck);
    if (total(characters) > limit.characters) {
      var note = entries.some(function (e) { return e.part === "pool"; }) ? "" : " (the list marks no pool: mark the pool's characters)";
      f.problem(limit.rule, counted(total(characters), "non-avatar character") + " in the play deck (at most " + limit.characters + ")" +
        note, characters);
    }
    creatures(f, g.hazards, player, deck);
  }

  /* kb.deck.deckrules._resource_avatars: 1.5's balance and avatars, a resource avatar among the resources; a note where
   * counting it among the avatars instead would change whether the play deck keeps 1.5 */
  function resource_avatars(f, g, player, deck) {
    var others = g.resource_avatars, as_resources = new Findings(f.part);
    balance(as_resources, g.resources.concat(others), g.hazards, g.flexible, player, deck);
    avatars_check(as_resources, g.avatars, deck);
    if (others.length) {
      var as_avatars = new Findings(f.part);
      balance(as_avatars, g.resources, g.hazards, g.flexible, player, deck, true);
      avatars_check(as_avatars, g.avatars.concat(others), deck, true);
      var said = [as_resources, as_avatars].map(function (way) {
        return way.out.filter(function (x) { return x.status === "problem"; }).map(function (x) { return x.message; });
      });
      if (!said[0].length !== !said[1].length) {
        var n = total(others), one = n === 1, names = unique(others.map(function (e) { return e.versions[0].name; })).length;
        var which = names === 1 && !one ? "the " + n + " copies of " + named(others) : named(others);
        f.note(deck.limits.play_deck.rule, which + " " + (one ? "is" : "are") + " counted as " +
          (one ? "a resource" : "resources") + " (the CoE glossary makes an avatar a character); were " +
          (one ? "it" : "they") + " counted as " + (one ? "an avatar" : "avatars") + ", " +
          (said[1].join("; ") || "the play deck would keep 1.5"), others);
      }
    }
    f.out = f.out.concat(as_resources.out);
  }

  /* kb.deck.deckrules._avatars: up to three avatars in the play deck, any combination but three different ones */
  function avatars_check(f, avatars, deck, would) {
    var limit = deck.limits.play_deck, has = would ? "would have" : "has";
    if (total(avatars) > limit.avatars) {
      f.problem(limit.rule, "the play deck " + has + " " + counted(total(avatars), "avatar") + " (" + named(avatars) +
        "): at most " + limit.avatars, avatars);
    }
    var different = unique(avatars.map(function (e) { return e.versions[0].name; })).sort(cmpStr);
    if (different.length >= limit.different_avatars) {
      f.problem(limit.rule, "the play deck " + has + " " + different.length + " different avatars (" + different.join(", ") +
        "): any combination but three different avatars", avatars);
    }
  }

  /* kb.deck.deckrules._balance: one finding, what the play deck has and what it must have */
  function balance(f, resources, hazards, flexible, player, deck, would) {
    var limit = deck.limits.play_deck, flexible_limit = deck.limits.fallen_wizard_flexible, by_name = new Map(), flex_max = 0;
    flexible.forEach(function (e) { by_name.set(e.versions[0].name, (by_name.get(e.versions[0].name) || 0) + e.count); });
    by_name.forEach(function (n) { flex_max += player === "fallen-wizard" ? Math.min(n, flexible_limit.as_resources) : n; });
    var r = total(resources), h = total(hazards), x = total(flexible), lo = limit.resources_min, hi = limit.resources_max;
    var state = resource_count(r, h, x, flex_max, deck), fault = state[0], k = state[1], balanced = state[2];
    if (!fault && balanced) return;
    var has = would ? "would have" : "has";
    if (balanced) {
      var said = "the play deck " + has + " " + counted(r + k, "resource") + counting(k, x) + ": ";
      if (fault === "few") f.short(limit.rule, said + "it needs at least " + lo, resources.concat(flexible));
      else f.problem(limit.rule, said + "it may have at most " + hi, resources.concat(flexible));
      return;
    }
    var cards = x ? counted(r, "resource") + ", " + counted(h, "hazard") + " and " + counted(x, "card") + " that may be either (1.3.3)" :
      counted(r, "resource") + " and " + counted(h, "hazard");
    var needs = {few: "at least " + lo + " resources and ", many: "at most " + hi + " resources and ", "": ""}[fault];
    var either = x ? ", which counting " + (x === 1 ? "that card" : "those " + x) + " either way does not give" : "";
    var message = "the play deck " + has + " " + cards + ": it must have " + needs + "as many hazards as resources" + either;
    if (fault === "many") f.problem(limit.rule, message, resources.concat(hazards, flexible));
    else f.short(limit.rule, message, resources.concat(hazards, flexible));
  }

  /* kb.deck.deckrules._resource_count: [what the count of resources breaks ("few", "many" or ""), how many of the cards
   * that may be either are counted as resources to say so, whether some count makes as many hazards as resources] */
  function resource_count(r, h, x, flex_max, deck) {
    var lo = deck.limits.play_deck.resources_min, hi = deck.limits.play_deck.resources_max, balanced = [], k;
    for (k = 0; k <= flex_max; k++) if (r + k === h + x - k) balanced.push(k);  // as many hazards as resources
    for (k = 0; k <= flex_max; k++) {  // 30 to 50 resources
      if ((!balanced.length || balanced.indexOf(k) >= 0) && lo <= r + k && r + k <= hi) return ["", 0, balanced.length > 0];
    }
    k = balanced.length ? balanced[0] : r + flex_max < lo ? flex_max : 0;
    return [r + k < lo ? "few" : "many", k, balanced.length > 0];
  }

  /* kb.deck.deckrules._counting */
  function counting(k, x) {
    if (!x) return "";
    var cards = counted(x, "card") + " that may be either (1.3.3)";
    if (!k) return ", with its " + cards + " as hazards, to match its resources";
    var some = k === x ? "its " + cards : k + " of its " + cards;
    return ", with " + some + " as " + (k === 1 ? "a resource" : "resources") + ", to match its hazards";
  }

  /* kb.deck.deckrules._creatures */
  function creatures(f, hazards, player, deck) {
    var limit = deck.limits.creatures;
    var full = total(hazards.filter(function (e) { return has(e.versions[0], "c") && !has(e.versions[0], "g"); }));
    var halves = hazards.filter(function (e) { return has(e.versions[0], "edw") || agent_is_hazard(e.versions[0], player); });
    var n = full + Math.floor(total(halves) / 2);
    if (n < limit.min) {
      var half = halves.length ? " (" + counted(total(halves), "card") + " counting as half a creature)" : "";
      f.short(limit.rule, "the hazards hold " + counted(n, "creature") + half + ": at least " + limit.min,
        hazards.filter(function (e) { return has(e.versions[0], "c"); }).concat(halves));
    }
  }

  /* kb.deck.deckrules._sideboard */
  function sideboard(f, entries, game, deck) {
    var limit = deck.limits.sideboard, avatars_limit = deck.limits.sideboard_avatars;
    var board = within(entries, "sideboard"), extra = within(entries, "fw-sideboard");
    if (total(board) > limit[game]) {
      var also = extra.length ? "" : " (up to " + limit.fallen_wizard + " more may be kept apart for Fallen-wizard opponents)";
      f.problem(limit.rule, "the sideboard has " + counted(total(board), "card") + ": at most " + limit[game] + " in a " + game +
        " game" + also, board);
    }
    if (total(extra) > limit.fallen_wizard) {
      f.problem(limit.rule, counted(total(extra), "card") + " kept for Fallen-wizard opponents: at most " + limit.fallen_wizard, extra);
    }
    var repeated = grouped(within(entries, "play", "sideboard", "fw-sideboard").filter(function (e) {
      return has(e.versions[0], "a") && e.versions[0].type === "Character";
    }), function (e) { return e.versions[0].name; }).filter(function (kv) { return total(kv[1]) > 1; });
    if (repeated.length > avatars_limit.repeated) {
      f.problem(avatars_limit.rule, repeated.length + " avatars with several copies in the play deck and sideboard (" +
        repeated.map(function (kv) { return kv[0]; }).sort(cmpStr).join(", ") + "): at most " + avatars_limit.repeated,
        [].concat.apply([], repeated.map(function (kv) { return kv[1]; })));
    }
  }

  /* kb.deck.deckrules._pool */
  function pool(f, entries, player, deck) {
    var limit = deck.limits.pool, fw = deck.limits.fallen_wizard_pool, in_pool = within(entries, "pool");
    var characters = in_pool.filter(function (e) { return e.versions[0].type === "Character" && !has(e.versions[0], "a"); });
    var items = in_pool.filter(function (e) { return has(e.versions[0], "n"); });
    var stage = in_pool.filter(function (e) {
      return player === "fallen-wizard" && e.versions[0].alignment === "Stage" && has(e.versions[0], "p");
    });
    if (total(characters) > limit.characters) {
      f.problem(limit.rule, counted(total(characters), "character") + " in the pool (at most " + limit.characters + ")", characters);
    }
    var bad = items.filter(function (e) { return has(e.versions[0], "uo"); });
    if (bad.length) f.problem(limit.rule, "the pool's minor items must be non-unique and not hoard items: " + named(bad), bad);
    if (total(items) > limit.minor_items) {
      f.problem(limit.rule, counted(total(items), "minor item") + " in the pool (" + named(items) + "): at most " + limit.minor_items,
        items);
    }
    var known = new Set(characters.concat(items, stage)), others = in_pool.filter(function (e) { return !known.has(e); });
    if (others.length) {
      f.problem(limit.rule, "the pool holds only non-avatar characters and up to two minor items" +
        (player === "fallen-wizard" ? STAGE_TOO : "") + ", not " + named(others), others);
    }
    if (player === "fallen-wizard") {
      if (!in_pool.length) {
        f.unchecked(fw.rule, "a Fallen-wizard's pool must hold Stage resources worth exactly " + fw.stage_points +
          " stage points: the list marks no pool");
        return;
      }
      var points = sum(stage, function (e) { return e.count * e.versions[0].stage; });
      var said = "the pool's Stage resources (" + counted(total(stage), "card") + ", " + counted(points, "stage point") +
        ") must be at most " + fw.stage_cards + " worth exactly " + fw.stage_points + " stage points, one of them non-unique";
      if (total(stage) > fw.stage_cards || points > fw.stage_points) f.problem(fw.rule, said, stage);
      else if (points < fw.stage_points || !stage.some(function (e) { return !has(e.versions[0], "u"); })) {
        f.short(fw.rule, said, stage.length ? stage : in_pool);
      }
    }
  }

  var STAGE_TOO = " (and a Fallen-wizard's Stage resources)";

  /* kb.deck.deckrules._pool_sites */
  function pool_sites(f, entries) {
    var sites = entries.filter(function (e) { return e.part === "pool" && (e.versions[0].type === "Site" || e.versions[0].type === "Region"); });
    if (sites.length) {
      f.note("1.7", named(sites) + ", listed in the pool, " + (sites.length === 1 ? "is" : "are") + " checked as part of " +
        "the location deck: a pool holds characters and minor items", sites);
    }
  }

  /* kb.deck.deckrules._declared_avatar */
  function declared_avatar(f, entries) {
    if (!entries.some(function (e) { return has(e.versions[0], "a") && e.versions[0].alignment === "Fallen-wizard"; })) {
      f.short("1.8.F1", "a Fallen-wizard player's deck holds at least one copy of the Fallen-wizard avatar they " +
        "declare: the list has none", []);
    }
  }

  /* kb.deck.deckrules._locations */
  function locations(f, entries, player, deck) {
    var limit = deck.limits.location_deck, sites = within(entries, "sites");
    var regions = sites.filter(function (e) { return has(e.versions[0], "y"); });
    if (regions.length) f.problem(limit.rule, "a location deck holds no region cards: " + named(regions), regions);
    grouped(sites.filter(function (e) { return e.versions[0].type === "Site"; }), function (e) {
      var sides = player === "fallen-wizard" ? site_sides(e) : [];
      return e.versions[0].name + "\t" + (sides.length ? "" : e.versions[0].alignment);
    }).forEach(function (kv) {
      var group = kv[1], card = group[0].versions[0];
      if (player === "fallen-wizard") fallen_wizard_site(f, card, group);
      else if (total(group) > limit.site && !has(card, "h")) {
        f.problem(limit.rule, total(group) + " copies of the site " + card.name + ": one of each non-haven site", group);
      }
    });
  }

  /* kb.deck.deckrules._fallen_wizard_site */
  function fallen_wizard_site(f, card, group) {
    var sides = group.map(site_sides), name = card.name, n = total(group);
    if (!sides.some(function (s) { return s.length; })) {
      if (card.alignment !== "Fallen-wizard" && n > 1) {
        f.problem("1.4.F1", n + " copies of the site " + name + ": one of each site but Fallen-wizard sites", group);
      }
      return;
    }
    var hero = 0, minion = 0;
    group.forEach(function (e, i) {
      if (sides[i].length === 1 && sides[i][0] === "Hero") hero += e.count;
      if (sides[i].length === 1 && sides[i][0] === "Minion") minion += e.count;
    });
    if (hero > 1 || minion > 1 || n > 2) {
      f.problem("1.4.F1", n + " copies of the site " + name + " (" + hero + " hero, " + minion + " minion): one copy " +
        "of each hero site and one of each minion site, havens too", group);
    } else if (n > 1 && hero + minion < n) {
      f.unchecked("1.4.F1", n + " copies of the site " + name + ": which are its hero and which its minion " +
        "site (one of each) the list does not say: mark them [H] and [M]", group);
    }
  }

  /* kb.deck.deckrules._site_sides: the alignments, hero or minion, a site line may mean (in this order) */
  function site_sides(e) {
    return ["Hero", "Minion"].filter(function (a) { return e.versions.some(function (f) { return f.alignment === a; }); });
  }

  /* kb.deck.deckrules.site_alignments */
  function site_alignments(entries, player) {
    if (player !== "fallen-wizard") return entries;
    var chosen = new Map();
    grouped(entries.filter(function (e) {
      return e.versions.length && part_of(e.part, e.versions[0]) === "sites" && e.versions[0].type === "Site";
    }), function (e) { return e.versions[0].name; }).forEach(function (kv) {
      var group = kv[1], taken = [];
      var either = group.filter(function (e) { return site_sides(e).length === 2; });
      group.forEach(function (e) { var s = site_sides(e); if (s.length === 1 && taken.indexOf(s[0]) < 0) taken.push(s[0]); });
      var free = ["Hero", "Minion"].filter(function (a) { return taken.indexOf(a) < 0; });
      if (either.length === 1 && either[0].count === 1 && free.length === 1) {
        var e = either[0];
        chosen.set(e, entry(e.line, e.count, e.part, e.group, e.versions.filter(function (c) { return c.alignment === free[0]; }), e.typed));
      }
    });
    return entries.map(function (e) { return chosen.get(e) || e; });
  }

  var PLAYER_RULES = {hero: ["1.3.W1", "1.3.W2", "1.3.W3", "1.4.W1"], minion: ["1.3.R1", "1.3.R2", "1.3.R3", "1.4.R1"],
    "fallen-wizard": ["1.3.F3", "1.3.F4", "", "1.4.F1"], balrog: ["1.3.B1", "1.3.B2", "1.3.B3", "1.4.B1"]};
  var OWN = {hero: "Hero", minion: "Minion", "fallen-wizard": "Fallen-wizard", balrog: "Balrog"};
  var OWN_RESOURCES = {hero: ["Hero", "Dual"], minion: ["Minion", "Dual"], balrog: ["Minion", "Dual"]};

  /* kb.deck.deckrules._alignment: a problem for each alignment rule the deck's cards break */
  function alignment(f, entries, player, unknown_bans, deck) {
    var bad = [], by_rule = {}, avatars = new Set();
    entries.forEach(function (e) { if (has(e.versions[0], "a") && e.versions[0].type === "Character") avatars.add(e.versions[0].name); });
    entries.forEach(function (e) {
      var rule = alignment_rule(e, player, avatars, deck);
      if (rule) {
        if (!own(by_rule, rule)) { by_rule[rule] = []; bad.push(rule); }
        by_rule[rule].push(e);
      }
    });
    var texts = alignment_texts(player, deck);
    bad.forEach(function (rule) {
      var group = by_rule[rule];
      var listed = group.slice(0, 8).map(function (e) { return misfit(e, rule, deck); }).join(", ");
      var held = group.some(function (e) { return SIDEBOARDS.indexOf(e.part) >= 0; }) ?
        "; rule 1.6 holds a sideboard to the deck's player-specific restrictions" : "";
      f.problem(rule, (own(texts, rule) || rule) + ": " + listed + (group.length > 8 ? " ..." : "") + held, group);
    });
    if (unknown_bans.length) f.unchecked(deck.bans[player], "names no card of the card database: " + unknown_bans.join(", "));
  }

  /* kb.deck.deckrules._misfit: a card an alignment rule forbids, for people: what it is, and where when in a sideboard */
  function misfit(e, rule, deck) {
    var card = e.versions[0], what = card.alignment + " " + card.type;
    if (rule === deck.limits.balrog_versions.rule && card.alignment === "Minion") {
      var kinds = [["x", "Under-deeps site"], ["k", "Dark-hold"]].filter(function (lk) { return has(card, lk[0]); })
        .map(function (lk) { return lk[1]; });
      what = "a minion " + (kinds.join(" and ") || "site " + rule + " names") + ", which requires a Balrog version";
    }
    return card.name + " (" + what + (SIDEBOARDS.indexOf(e.part) >= 0 ? ", in the sideboard" : "") + ")";
  }

  /* kb.deck.deckrules._alignment_rule: the rule an entry breaks in a player's deck, or "" (avatars: a Set of names) */
  function alignment_rule(e, player, avatars, deck) {
    var cards = e.versions, rules = PLAYER_RULES[player], rule = "";
    if (cards[0].type === "Character" && has(cards[0], "a")) {
      rule = cards.some(function (c) { return c.alignment === OWN[player]; }) ? "" : rules[0];
    } else if (cards[0].type === "Character" && !agent_is_hazard(cards[0], player)) {  // 1.3.W2, 1.3.B2: a hazard
      rule = character_rule(cards, player, rules[1], deck);
    } else if (cards[0].type === "Resource" && rules[2]) {
      rule = resource_rule(cards, player, rules[2], deck);
    } else if (cards[0].type === "Site" && part_of(e.part, cards[0]) === "sites") {
      rule = cards.some(function (c) { return site_allowed(c, player, deck); }) ? "" : rules[3];
    }
    if (!rule && own(deck.bans, player) && cards.every(function (c) { return has(c, player === "fallen-wizard" ? "F" : "B"); })) {
      rule = deck.bans[player];
    }
    if (!rule && cards.some(function (c) { return c.specific; })) rule = specific(cards, player, avatars);
    return rule;
  }

  /* kb.deck.deckrules._character_rule: `rule` for a character of no alignment the player may have, 1.3.B4, or "" */
  function character_rule(cards, player, rule, deck) {
    var ok;
    if (player === "hero") ok = cards.some(function (c) { return c.alignment === "Hero" || has(c, "g"); });
    else if (player === "fallen-wizard") ok = cards.some(function (c) { return c.alignment === "Hero" || c.alignment === "Minion"; });
    else ok = cards.some(function (c) { return c.alignment === "Minion"; });
    if (!ok) return rule;
    if (player !== "balrog") return "";
    var b4 = deck.limits.balrog_characters;
    var fits = cards.some(function (c) {
      return b4.races.some(function (r) { return c.race.indexOf(r) >= 0; }) && (c.mind < b4.mind_below || c.specific === "Balrog");
    });
    return fits ? "" : b4.rule;
  }

  /* kb.deck.deckrules._resource_rule: `rule` for a resource that is not the player's own, 1.3.B4, or "" */
  function resource_rule(cards, player, rule, deck) {
    var other = {hero: "Minion", minion: "Hero"}[player] || "", own_resources = own(OWN_RESOURCES, player) || [];
    if (!cards.some(function (c) { return own_resources.indexOf(c.alignment) >= 0 || (other && c.alignment === other && has(c, "i")); })) {
      return rule;
    }
    if (player !== "balrog" || !has(cards[0], "f")) return "";
    var b4 = deck.limits.balrog_characters;
    return cards.some(function (c) { return b4.faction_races.indexOf(c.race) >= 0; }) ? "" : b4.rule;
  }

  /* kb.deck.deckrules._alignment_texts: what each alignment rule asks of a player's deck */
  function alignment_texts(player, deck) {
    var who = deck.player_names[player], rules = PLAYER_RULES[player], texts = {};
    texts[rules[0]] = "a " + who + " player's avatars";
    texts[rules[1]] = "a " + who + " player's characters";
    texts[rules[2]] = "a " + who + " player's resources";
    texts[rules[3]] = "a " + who + " player's location deck";
    texts["1.3.B4"] = "a Balrog player's characters (Orc or Troll, mind under 9 unless Balrog-specific) and factions " +
      "(Orc, Troll, Wolf, Animal or Dragon)";
    if (own(deck.bans, player)) texts[deck.bans[player]] = "cards a " + who + " player may not include";
    texts["1.3.4"] = "cards specific to an avatar or player the deck is not for";
    return texts;
  }

  /* kb.deck.deckrules.BALROG_SITES, NEEDS_BALROG: made once */
  function balrog_names(deck) {
    if (!deck._balrog) {
      deck._balrog = {sites: new Set(deck.limits.balrog_sites.names.map(Q.fold)), needs: new Set(deck.limits.balrog_versions.names.map(Q.fold))};
    }
    return deck._balrog;
  }

  /* kb.deck.deckrules._site_allowed */
  function site_allowed(card, player, deck) {
    var balrog = balrog_names(deck);
    if (card.alignment === "Balrog" && balrog.sites.has(Q.fold(card.name))) return true;
    if (player === "hero") return card.alignment === "Hero";
    if (player === "minion") return card.alignment === "Minion";
    if (player === "fallen-wizard") return ["Hero", "Minion", "Fallen-wizard"].indexOf(card.alignment) >= 0;
    if (card.alignment === "Balrog") return true;
    return card.alignment === "Minion" && !balrog.needs.has(Q.fold(card.name)) && !has(card, "xk");
  }

  /* kb.deck.deckrules._specific */
  function specific(cards, player, avatars) {
    var to = cards[0].specific;
    if (to === "Balrog") return player === "balrog" ? "" : "1.3.4";
    return player === "fallen-wizard" && avatars.has(to) ? "" : "1.3.4";
  }

  /* kb.deck.deckrules.verdict */
  function verdict(findings, deck, scope) {
    scope = scope || DECK;
    var n = deck.statuses.slice(0, 3).map(function (status) { return findings.filter(function (f) { return f.status === status; }).length; });
    var problems = n[0], questions = n[1], unchecked = n[2], rest = [], summary;
    if (questions) rest.push("the rules leave " + counted(questions, "question") + " open");
    if (unchecked) rest.push(counted(unchecked, "check") + " could not be made");
    var legal = !problems && !rest.length;
    if (scope.kind !== "deck") {
      legal = null;
      summary = scope_head(scope);
      if (scope.kind === "part") summary += ": " + [problems ? counted(problems, "problem") : "no problem found"].concat(rest).join("; ");
    } else if (!problems && !rest.length) summary = "Legal: it keeps every deck-construction rule of the CoE rules";
    else if (problems) summary = ["Not legal: " + counted(problems, "problem")].concat(rest).join("; ");
    else summary = "No problem found, but " + rest.join(" and ");
    return {legal: legal, problems: problems, open: questions, not_checked: unchecked, summary: summary,
      scope: {kind: scope.kind, why: scope.why}};
  }

  /* kb.deck.deckrules._scope_head */
  function scope_head(scope) {
    var why = scope.why.charAt(0).toUpperCase() + scope.why.slice(1);
    return scope.kind === "part" ? why + ": it reads as part of a deck; checked as a part" : why + ": not a CoE deck, not judged";
  }

  /* kb.deck.deckrules.verdicts: [verdict, shared findings, readings] */
  function verdicts(players, results, deck, scope) {
    scope = scope || DECK;
    if (results.length === 1) return [verdict(results[0], deck, scope), results[0], []];
    function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
    function holds(r, f) { return r.some(function (g) { return same(f, g); }); }
    var shared = results[0].filter(function (f) { return results.slice(1).every(function (r) { return holds(r, f); }); });
    var readings = players.map(function (p, i) {
      return {player: p, name: deck.player_names[p], verdict: verdict(results[i], deck, scope),
        findings: results[i].filter(function (f) { return !holds(shared, f); })};
    }).map(function (r, i) { return [r, i]; }).sort(function (a, b) {
      return (!a[0].verdict.legal - !b[0].verdict.legal) || (a[1] - b[1]);
    }).map(function (p) { return p[0]; });
    var legal = readings.filter(function (r) { return r.verdict.legal; }).map(function (r) { return a_name(r.name) + " deck"; });
    var others = readings.filter(function (r) { return !r.verdict.legal; }).map(function (r) {
      return "as " + a_name(r.name) + " deck, " + said_of(r.verdict);
    });
    var summary, top;
    if (scope.kind !== "deck") {
      top = verdict(shared, deck, scope);
      top.summary = scope_head(scope) + ", " + others.join("; ");
      return [top, shared, readings];
    }
    if (!others.length) summary = "Legal as " + legal.join(" or as ");
    else if (legal.length) summary = ["Legal as " + legal.join(" or as ")].concat(others).join("; ");
    else if (readings.every(function (r) { return r.verdict.problems; })) summary = "Not legal: " + others.join("; ");
    else { summary = others.join("; "); summary = summary.charAt(0).toUpperCase() + summary.slice(1); }
    top = verdict(shared, deck, scope);
    top.legal = legal.length && others.length ? null : !others.length;
    top.summary = summary;
    return [top, shared, readings];
  }

  /* kb.deck.deckrules._said */
  function said_of(v) {
    var rest = [];
    if (v.open) rest.push(counted(v.open, "question") + " the rules leave open");
    if (v.not_checked) rest.push(counted(v.not_checked, "check") + " not made");
    if (!v.problems && !rest.length) return "no problem found";
    return v.problems ? [counted(v.problems, "problem")].concat(rest).join(", ") : "no problem, but " + rest.join(" and ");
  }

  // -- the report: kb/deck/deck.py ---------------------------------------------------------------------------------

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

  /* kb.deck.deck.check_deck: the report on a decklist's bytes (a file's, or a typed list's UTF-8) as `rulings deck`
   * makes it, or {error, hint} where it refuses them (options as deck_report's) */
  function check_deck(bytes, spec, deck, options) {
    var text;
    try { text = decode(bytes, options.name || "deck", deck); } catch (e) { return read_error(e, deck); }
    return deck_report(text, spec, deck, options);
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

  // -- the page ---------------------------------------------------------------------------------------

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

  // -- the check off the page's thread: a worker made of this page's own scripts ------------------------------

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

  /* The worker's script: query.js, searchspec.js, resolve.js and deck.js, each module's own function as its
   * source, so that the worker runs from the site's folder on disk too (file://), where Chromium refuses a
   * worker's script file; it is given the data once, then each list (serve). */
  function worker_source() {
    return [Q, P, R, api].map(function (m) { return "(" + m.module + ")(self);"; }).join("\n");
  }

  /* in the worker: the site's data once ({data}), then each list ({id, bytes, options}), answered with its
   * progress ({id, progress: [what, done, of]}) and its result ({id, result}, or {id, failed}) */
  function serve(self) {
    var spec = null, deck = null;
    self.onmessage = function (ev) {
      var m = ev.data;
      if (m.data) {
        self.RULINGS_INDEX = m.data.index; self.RULINGS_DOCS = m.data.docs; self.RULINGS_PARTS = m.data.parts;
        spec = P.open(); deck = m.data.deck;
        return;
      }
      var options = Object.assign({}, m.options, {progress: function (what, done, of) {
        self.postMessage({id: m.id, progress: [what, done, of]});
      }});
      try { self.postMessage({id: m.id, result: check_job(m.bytes, spec, deck, options)}); } catch (e) {
        self.postMessage({id: m.id, failed: String(e && e.stack || e)});
      }
    };
  }

  /* The page's deck checks, each in a worker (the page stays free to scroll, type and click), or where the
   * browser makes none on the page itself once it has shown that it is checking. */
  function Checker(spec, deck) { this.spec = spec; this.deck = deck; this.worker = null; this.id = 0; this.busy = false; this.none = false; }

  Checker.prototype.start = function () {
    if (this.none) return null;
    try {
      var worker = new Worker(URL.createObjectURL(new Blob([worker_source()], {type: "text/javascript"})));
      worker.postMessage({data: {index: root.RULINGS_INDEX, docs: root.RULINGS_DOCS, parts: root.RULINGS_PARTS, deck: this.deck}});
      return worker;
    } catch (e) { this.none = true; return null; }
  };

  /* bytes (a Uint8Array) checked; progress(what, done, of) told as it goes, done([report, text]) at the end. A
   * list checked while another is drops the other (its worker stopped). */
  Checker.prototype.check = function (bytes, options, progress, done) {
    var self = this, id = ++this.id;
    if (this.busy) { this.worker.terminate(); this.worker = null; }
    if (!this.worker) this.worker = this.start();
    function here() {
      progress("checking", 0, 1);
      root.requestAnimationFrame(function () {
        setTimeout(function () { if (id === self.id) done(check_job(bytes, self.spec, self.deck, options)); }, 0);
      });
    }
    if (!this.worker) { here(); return; }
    var worker = this.worker;
    this.busy = true;
    worker.onmessage = function (ev) {
      var m = ev.data;
      if (m.id !== id) return;
      if (m.progress) { if (id === self.id) progress(m.progress[0], m.progress[1], m.progress[2]); return; }
      self.busy = false;
      if (id !== self.id) return;  // dropped
      if (m.failed) {
        if (root.console) root.console.error(m.failed);
        m.result = [{error: "the deck check failed (" + m.failed.split("\n")[0] + ")", hint: "Reload the page and try again."}, null];
      }
      done(m.result);
    };
    worker.onerror = function (ev) {  // a worker that cannot run here: this list, and the next, on the page
      if (ev.preventDefault) ev.preventDefault();
      worker.terminate();
      self.worker = null; self.busy = false; self.none = true;
      if (id === self.id) here();
    };
    worker.postMessage({id: id, bytes: bytes, options: options});
  };

  /* no list awaited: the report of one being checked is dropped when it comes */
  Checker.prototype.drop = function () { this.id += 1; };

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
    if (!root.RULINGS_INDEX || !root.RULINGS_DECK || !P || !R) { status.textContent = "The deck data did not load."; return; }
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

  var api = {read_deck: read_deck, read_lines: read_lines, read_names: read_names, deck_report: deck_report, check_deck: check_deck,
    decode: decode, size_text: size_text, module: deck_js,
    miss_text: miss_text, finding_text: finding_text, whose_text: whose_text, reading_text: reading_text, detect: function (text, deck) { return detect(text, deck, patterns(deck)); }};
  if (node) {
    module.exports = api;
  } else if (root.document) {
    root.RulingsDeck = api;
    if (root.document.readyState === "loading") root.document.addEventListener("DOMContentLoaded", start);
    else start();
  } else if (typeof root.importScripts === "function") {
    serve(root);  // the deck check's worker (worker_source)
  }
})(typeof window !== "undefined" ? window : this);

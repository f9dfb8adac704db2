/* A decklist read in its format: kb/deck/deckformats.py in JavaScript, function for function: the format told
 * from the content (detect) or forced, OCTGN's XML and a deck builder's JSON read to the lines a typed list
 * gives (decklist.js), a damaged JSON file refused naming its line and what was expected there (JsonCheck),
 * NetMECCG's marks read as versions.
 * Loads by a script tag (window.RulingsDeckFormats) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function deckformats_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;  // kb.search.query: fold, clean
  var L = node ? require("./decklist.js") : root.RulingsDeckList;
  var Refused = L.Refused, cleaned = L.cleaned, cpSlice = L.cpSlice, json_fault = L.json_fault, own = L.own,
    patterns = L.patterns, placed = L.placed, read_lines = L.read_lines, read_name = L.read_name,
    section_of = L.section_of, split_lines = L.split_lines, text_title = L.text_title;

  /* kb.deck.deckformats.line_starts */
  function line_starts(text, P) {
    var starts = [0], re = new RegExp(P.break_all.source, "g"), m;
    while ((m = re.exec(text)) !== null) starts.push(m.index + m[0].length);
    return starts;
  }

  /* kb.deck.deckformats.line_at: bisect_right */
  function line_at(starts, offset) {
    var lo = 0, hi = starts.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (starts[mid] <= offset) lo = mid + 1; else hi = mid; }
    return lo;
  }

  var ENTITIES = {amp: "&", lt: "<", gt: ">", quot: '"', apos: "'"};

  /* kb.deck.deckformats.xml_text */
  function xml_text(raw, P) {
    return raw.replace(P.xml_entity_all, function (all, named, dec, hex) {
      if (named) return ENTITIES[named.toLowerCase()];
      var code = dec ? parseInt(dec, 10) : parseInt(hex, 16);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
    });
  }

  var XML_KINDS = [["<!--", "-->", "skip"], ["<![CDATA[", "]]>", "cdata"], ["<?", "?>", "skip"], ["<!", ">", "skip"],
    ["<", ">", "tag"]];

  /* kb.deck.deckformats.xml_tokens: [offset, kind, element or text, attributes, self-closing] */
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

  /* kb.deck.deckformats.as_count */
  function as_count(value) {
    if (typeof value === "number") return Number.isInteger(value) ? value : null;
    if (typeof value === "string") {
      var t = value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
      return /^[0-9]{1,6}$/.test(t) ? parseInt(t, 10) : null;
    }
    return null;
  }

  /* kb.deck.deckformats.structured_card */
  function structured_card(number, typed, count, card_id, section, part, group, deck, P) {
    var text = cpSlice(cleaned(typed), deck.max_line), read = read_name(text, deck, P);
    var given = as_count(count), n = given === null ? 1 : given;
    var ident = cpSlice(cleaned(card_id), 40), m = P.card_id.exec(ident);
    if (m) ident = m[1].toUpperCase() + "-" + parseInt(m[2], 10);
    if (n < 1 || !(read[0] || ident)) return placed(number, "comment", text, section, part, group);
    return placed(number, "card", text, section, part, group, read[0], Math.min(n, 999), read[1], read[2], ident);
  }

  /* kb.deck.deckformats.read_octgn */
  function read_octgn(text, name, deck, P) {
    var tokens = xml_tokens(text, name, P), starts = line_starts(text, P);
    var root_tag = null;
    for (var i = 0; i < tokens.length; i++) if (tokens[i][1] === "open") { root_tag = tokens[i]; break; }
    if (root_tag === null || root_tag[2] !== "deck") {
      throw new Refused(name + ": XML " + (root_tag ? "whose root element is <" + root_tag[2] + ">" : "with no element") +
        ", not an OCTGN deck (<deck> holding <section> and <card> elements)");
    }
    var lines = [], section = "", part = "", group = "", card = null, card_at = 0, words = "", in_notes = false, notes_at = 0;
    tokens.forEach(function (t) {
      var offset = t[0], kind = t[1], element = t[2], attrs = t[3], closed = t[4];
      if (kind === "open" && element === "section") {
        var s = section_of(own(attrs, "name") || "", "", deck, P);
        section = s[0]; part = s[1]; group = s[2];
      } else if (kind === "open" && element === "notes" && !closed) {
        in_notes = true; notes_at = line_at(starts, offset);
        lines.push(placed(notes_at, "note", "notes", "Notes", "notes", ""));
      } else if (kind === "close" && element === "notes") {  // every line of the notes is a line of notes skipped
        in_notes = false;
        for (var n = notes_at + 1; n <= line_at(starts, offset); n++) lines.push(placed(n, "note", "notes", "Notes", "notes", ""));
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

  /* kb.deck.deckformats._field */
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

  /* kb.deck.deckformats._JsonReader */
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

  /* kb.deck.deckformats.read_json */
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

  /* kb.deck.deckformats.JsonCheck: a JSON text that does not parse read again, to say where it first goes wrong */
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

  /* what a JSON text with no card holds, as kb.deck.deckformats.read_json names it (Python's type names) */
  function json_holds(data, text) {
    if (isDict(data)) return Object.keys(data).slice(0, 5).join(", ");
    if (Array.isArray(data)) return "a list of " + data.length;
    if (data === null) return "NoneType";
    if (typeof data === "number") return /[.eE]/.test(text) ? "float" : "int";
    return typeof data === "boolean" ? "bool" : "str";
  }

  /* kb.deck.deckformats.detect */
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

  /* kb.deck.deckformats.read_deck */
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

  /* kb.deck.deckformats.version_marked: a NetMECCG card line, its name's mark read as the version it asks for */
  function version_marked(l, deck, P) {
    if (l.kind !== "card" || l.tag) return l;
    var m = P.version_mark.exec(l.name);
    return Object.assign({}, l, m ? {name: m[1], tag: deck.version_marks[m[2]]} : {tag: deck.version_marks[""]});
  }

  var api = {module: deckformats_js, read_deck: read_deck,
    detect: function (text, deck) { return detect(text, deck, L.patterns(deck)); }};
  if (node) module.exports = api;
  else root.RulingsDeckFormats = api;
})(typeof window !== "undefined" ? window : this);

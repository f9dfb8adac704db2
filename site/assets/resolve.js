/* Names a judge types resolved to cards: kb/search/resolve.py's read_card and quoted in JavaScript, for the
 * deck page (deck.js), over the site's search data (searchspec.js) and query.js's reading of a name.
 * Loads by a script tag (window.RulingsResolve) or in node (module.exports).; its `module` is its own function, which
 * deck.js runs again in the deck check's worker. */
(function resolve_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;

  var MAX_CHOICES = 8;  // kb.search.resolve.MAX_CHOICES

  /* read_card: the card(s) a typed name means (names), the choices an ambiguous one leaves, or
   * nothing; read_as says how it was read when not exactly */
  function read_card(spec, typed, index) {
    var read = Q.read_name(typed, spec, index || spec.name_index()), names = read[0];
    if (!read[1]) return {names: names, read_as: "", choices: []};
    if (names.length === 1) return {names: names, read_as: quoted(typed) + " read as " + names[0], choices: []};
    return {names: [], read_as: "", choices: names.length <= MAX_CHOICES ? names : []};
  }

  /* what Python's str.isprintable() refuses: other, separator (but the space) */
  var NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/gu;

  /* quoted: user text for a message, one line, quoted (Python's repr of a str), cut short */
  function quoted(text, limit) {
    limit = limit === undefined ? 40 : limit;
    var flat = Q.splitSpaces(text).join(" ");
    if (Q.cpLen(flat) > limit) flat = Array.from(flat).slice(0, limit).join("") + "...";
    var q = flat.indexOf("'") >= 0 && flat.indexOf('"') < 0 ? '"' : "'";
    var body = flat.replace(/\\/g, "\\\\");
    if (q === "'") body = body.replace(/'/g, "\\'");
    body = body.replace(NOT_PRINTABLE, function (c) {  // as repr() shows what str.isprintable() refuses
      var n = c.codePointAt(0), hex = n.toString(16);
      return n < 0x100 ? "\\x" + ("0" + hex).slice(-2) : n < 0x10000 ? "\\u" + ("000" + hex).slice(-4)
        : "\\U" + ("0000000" + hex).slice(-8);
    });
    return q + body + q;
  }

  var api = {module: resolve_js, read_card: read_card, quoted: quoted};
  if (node) module.exports = api;
  else root.RulingsResolve = api;
})(typeof window !== "undefined" ? window : this);

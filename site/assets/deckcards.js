/* A deck's cards as the rules see them: kb/deck/deckcards.py in JavaScript, function for function: each card's
 * facts (deck-data.js's rows), the version each line means (versions), what the list is (scope_of: a deck,
 * part of one, no CoE deck), whose deck it is (whose_deck, with its evidence) and which cards each player's
 * alignment allows (alignment_rule).
 * Loads by a script tag (window.RulingsDeckCards) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function deckcards_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var Q = node ? require("./query.js") : root.RulingsQuery;  // kb.search.query: fold, clean
  var L = node ? require("./decklist.js") : root.RulingsDeckList;
  var own = L.own, sum = L.sum, unique = L.unique;

  /* kb.deck.deckcards.CardFacts, from deck-data.js's rows; made once */
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

  /* kb.deck.deckcards.CardFacts.has */
  function has(f, letters) {
    for (var i = 0; i < letters.length; i++) if (f.flags.indexOf(letters[i]) >= 0) return true;
    return false;
  }

  /* kb.deck.deckcards.in_group */
  function in_group(card, group) {
    if (group === "characters") return card.type === "Character";
    if (group === "resources") return card.type === "Resource" || has(card, "r");
    if (group === "hazards") return card.type === "Hazard" || has(card, "zg");
    return card.type === "Site" || card.type === "Region";
  }

  var GROUPS = ["characters", "resources", "hazards", "sites"];

  /* kb.deck.deckcards.versions */
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

  /* kb.deck.deckcards.part_of */
  function part_of(part, facts) {
    if (facts.type === "Site" || facts.type === "Region") return "sites";
    return ["pool", "play", "sideboard", "fw-sideboard"].indexOf(part) >= 0 ? part : "play";
  }

  function entry(line, count, part, group, cards, typed) {
    return {line: line, count: count, part: part, group: group, versions: cards, typed: typed};
  }

  /* kb.deck.deckcards.Evidence */
  function evidence(kind, players, says, lines, cards) {
    return {kind: kind, players: players, says: says, lines: lines, cards: cards || []};
  }

  /* kb.deck.deckcards.Whose.how */
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

  /* kb.deck.deckcards.Whose.to_json */
  function whose_json(whose, deck) {
    var player = whose.players.length === 1 ? whose.players[0] : "";
    return {player: player, name: own(deck.player_names, player) || "", how: whose_how(whose, deck), sure: whose.sure,
      readings: whose.players.slice(), evidence: whose.evidence};
  }

  /* kb.deck.deckcards.whose_deck: {players, sure, evidence} */
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

  /* kb.deck.deckcards._avatar_evidence: [candidates, evidence] */
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

  /* kb.deck.deckcards._misfit_evidence */
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

  /* kb.deck.deckcards._names: the cards of some lines, each once, in order */
  function names_of(entries) {
    return unique(entries.map(function (e) { return e.versions.length ? e.versions[0].name : e.typed; }));
  }

  /* kb.deck.deckcards.a_name */
  function a_name(name) { return ("AEIOU".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name; }

  /* kb.deck.deckcards.listed */
  function listed(words) { return words.length > 1 ? words.slice(0, -1).join(", ") + " and " + words[words.length - 1] : words.join(""); }

  /* kb.deck.deckcards.named */
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

  function total(entries) { return sum(entries, function (e) { return e.count; }); }

  var NOT_JUDGED = "not judged on part of a deck";
  var DECK = {kind: "deck", why: ""};

  /* kb.deck.deckcards.scope_of: {kind: deck, part or "not a deck", why} */
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

  function grouped(entries, key) {  // insertion-ordered groups, as a Python dict of lists
    var keys = [], groups = {};
    entries.forEach(function (e) {
      var k = key(e);
      if (!own(groups, k)) { groups[k] = []; keys.push(k); }
      groups[k].push(e);
    });
    return keys.map(function (k) { return [k, groups[k]]; });
  }

  /* kb.deck.deckcards.agent_is_hazard */
  function agent_is_hazard(card, player) {
    return has(card, "g") && (card.type === "Hazard" || player === "hero" || player === "balrog");
  }

  /* kb.deck.deckcards.site_sides: the alignments, hero or minion, a site line may mean (in this order) */
  function site_sides(e) {
    return ["Hero", "Minion"].filter(function (a) { return e.versions.some(function (f) { return f.alignment === a; }); });
  }

  /* kb.deck.deckcards.site_alignments */
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

  /* kb.deck.deckcards.alignment_rule: the rule an entry breaks in a player's deck, or "" (avatars: a Set of names) */
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

  /* kb.deck.deckcards._character_rule: `rule` for a character of no alignment the player may have, 1.3.B4, or "" */
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

  /* kb.deck.deckcards._resource_rule: `rule` for a resource that is not the player's own, 1.3.B4, or "" */
  function resource_rule(cards, player, rule, deck) {
    var other = {hero: "Minion", minion: "Hero"}[player] || "", own_resources = own(OWN_RESOURCES, player) || [];
    if (!cards.some(function (c) { return own_resources.indexOf(c.alignment) >= 0 || (other && c.alignment === other && has(c, "i")); })) {
      return rule;
    }
    if (player !== "balrog" || !has(cards[0], "f")) return "";
    var b4 = deck.limits.balrog_characters;
    return cards.some(function (c) { return b4.faction_races.indexOf(c.race) >= 0; }) ? "" : b4.rule;
  }

  /* kb.deck.deckcards.BALROG_SITES, NEEDS_BALROG: made once */
  function balrog_names(deck) {
    if (!deck._balrog) {
      deck._balrog = {sites: new Set(deck.limits.balrog_sites.names.map(Q.fold)), needs: new Set(deck.limits.balrog_versions.names.map(Q.fold))};
    }
    return deck._balrog;
  }

  /* kb.deck.deckcards.site_allowed */
  function site_allowed(card, player, deck) {
    var balrog = balrog_names(deck);
    if (card.alignment === "Balrog" && balrog.sites.has(Q.fold(card.name))) return true;
    if (player === "hero") return card.alignment === "Hero";
    if (player === "minion") return card.alignment === "Minion";
    if (player === "fallen-wizard") return ["Hero", "Minion", "Fallen-wizard"].indexOf(card.alignment) >= 0;
    if (card.alignment === "Balrog") return true;
    return card.alignment === "Minion" && !balrog.needs.has(Q.fold(card.name)) && !has(card, "xk");
  }

  /* kb.deck.deckcards._specific */
  function specific(cards, player, avatars) {
    var to = cards[0].specific;
    if (to === "Balrog") return player === "balrog" ? "" : "1.3.4";
    return player === "fallen-wizard" && avatars.has(to) ? "" : "1.3.4";
  }

  var api = {module: deckcards_js, DECK: DECK, NOT_JUDGED: NOT_JUDGED, PLAYER_RULES: PLAYER_RULES, a_name: a_name,
    agent_is_hazard: agent_is_hazard, alignment_rule: alignment_rule, entry: entry, facts_of: facts_of,
    grouped: grouped, has: has, listed: listed, named: named, part_of: part_of, scope_of: scope_of,
    site_alignments: site_alignments, site_sides: site_sides, total: total, versions: versions,
    whose_deck: whose_deck, whose_how: whose_how, whose_json: whose_json};
  if (node) module.exports = api;
  else root.RulingsDeckCards = api;
})(typeof window !== "undefined" ? window : this);

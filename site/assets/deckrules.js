/* The CoE deck-construction rules checked: kb/deck/deckrules.py in JavaScript, function for function: every
 * finding on a deck's cards (check: each a problem, an open question, a rule not checked or a note, with its
 * rule and lines), and the verdict (verdict, verdicts: once, or for each alignment it is checked as), over
 * the limits deck-data.js carries.
 * Loads by a script tag (window.RulingsDeckRules) or in node (module.exports); its `module` is its own function, which
 * worker.js runs again in the deck check's worker. */
(function deckrules_js(root) {
  "use strict";

  var node = typeof module === "object" && module.exports && typeof require === "function";
  var L = node ? require("./decklist.js") : root.RulingsDeckList;
  var SIDEBOARDS = L.SIDEBOARDS, cmpStr = L.cmpStr, own = L.own, sum = L.sum, unique = L.unique;
  var C = node ? require("./deckcards.js") : root.RulingsDeckCards;
  var DECK = C.DECK, NOT_JUDGED = C.NOT_JUDGED, PLAYER_RULES = C.PLAYER_RULES, a_name = C.a_name,
    agent_is_hazard = C.agent_is_hazard, alignment_rule = C.alignment_rule, grouped = C.grouped, has = C.has,
    listed = C.listed, named = C.named, part_of = C.part_of, site_sides = C.site_sides, total = C.total;

  function counted(n, noun, plural) { return n + " " + (n === 1 ? noun : plural || noun + "s"); }

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

  var api = {module: deckrules_js, check: check, counted: counted, verdicts: verdicts};
  if (node) module.exports = api;
  else root.RulingsDeckRules = api;
})(typeof window !== "undefined" ? window : this);

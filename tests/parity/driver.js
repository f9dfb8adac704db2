/* The one parity harness's node driver: it runs a built site's own scripts (the browser's modules, site/assets/*.js
 * as `rulings site` ships them, each page's scripts in the page's order, over the page's own data files) and answers
 * one job, printed as JSON. tests/parity/__init__.py writes the job and reads the answer; the tests hold the answers
 * to the fixture files (tests/data/search/cases.json, tests/data/decks/cases.json) and to what kb answers.
 *
 *   node tests/parity/driver.js JOB.json
 *
 * JOB: {"task": ..., "site": the site's folder, ...}; the tasks:
 *   search   {cases: [{query, options: {limit, game, source}}], every_word: [query], allowed: [options]}: each case's
 *            reading and results (id, score, also_in, matched, same_rule; the text shown and its highlighted spans, counted
 *            in code points as Python counts), each query's matched words reading every word, each filter's
 *            documents; and the numbers the browser read (limits, terms_keep_prefix)
 *   helpers  {texts, pairs, keys, limit}: query.js's text helpers and the index's buckets on awkward text
 *   names    {typed: [name]}: resolve.js's read_card of each, and the nearest names where it reads none
 *   opened   {query}: what the search page has parsed of its index once it answered a question
 *   index    {}: the search page's index as searchspec.js reads it, every part decoded
 *   deck     {lists: [{text | file, name, options, only}]}: the deck page's answer on each list (its lines as
 *            read_deck reads them, its report, the one line refusing it; a file's bytes decoded first) */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

/* the page's own scripts but its user interface's (site.js, ui.js), run in order in one context as the page runs them */
function open_page(site, page) {
  const html = fs.readFileSync(path.join(site, page), "utf8");
  const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map(m => m[1])
    .filter(s => s !== "assets/site.js" && s !== "assets/ui.js");
  const context = {TextDecoder, TextEncoder, URL, URLSearchParams, console};
  context.window = context;
  vm.createContext(context);
  scripts.forEach(s => vm.runInContext(fs.readFileSync(path.join(site, s), "utf8"), context, {filename: s}));
  return {context, scripts};
}

/* a JavaScript string's offset (UTF-16 units) as Python counts it (code points) */
function points(text, at) {
  let n = 0;
  for (let i = 0; i < at; i++) if ((text.charCodeAt(i) & 0xfc00) !== 0xdc00) n += 1;
  return n;
}

function search(job) {
  const page = open_page(job.site, "search.html").context, searcher = page.RulingsSearch.open(), spec = searcher.spec;
  const cases = job.cases.map(c => {
    const o = c.options || {};
    const found = searcher.search(c.query, o.limit || job.limit, {game: o.game, source: o.source});
    return {understanding: found.understanding, results: found.results.map(r => {
      const shown = spec.shown(r.doc);
      return {id: r.id, score: r.score, also_in: r.also_in, matched: r.matched, shown,
              same_rule: r.same_rule.map(e => [e.id, e.source, e.text]),
              spans: searcher.highlight_spans(shown, found.understanding).map(s => [points(shown, s[0]), points(shown, s[1])])};
    })};
  });
  // the words found in each result, every word of it read (as where the build does not vouch that a word's
  // terms begin as the word does: terms_keep_prefix)
  const everyWord = page.RulingsSearch.of(Object.assign({}, spec.raw, {terms_keep_prefix: false}));
  const every_word = (job.every_word || []).map(q => everyWord.search(q, job.limit).results.map(r => r.matched));
  const allowed = (job.allowed || []).map(o => {
    const mask = searcher.allowed([o.game || "meccg"], o.source);
    return Array.from(mask.keys()).filter(d => mask[d]);
  });
  return {cases, every_word, allowed, limits: spec.raw.limits, keeps_prefix: spec.raw.terms_keep_prefix};
}

function helpers(job) {
  const page = open_page(job.site, "search.html").context, m = page.RulingsQuery, {bucket} = page.RulingsSpec;
  page.RulingsSpec.open();  // as the page opens its data: kb.search.query.SOUNDS read from it
  const {texts, pairs, keys, limit} = job;
  return {clean: texts.map(t => m.clean(t, limit)), strip: texts.map(m.strip_marks), fold: texts.map(m.fold),
    key: texts.map(m.fold_key), distance: pairs.map(([a, b]) => [1, 2, 3].map(l => m.distance(a, b, l))),
    bucket: keys.map(bucket), near: pairs.map(([a, b]) => [0, 1, 2, 3].map(l => m.near_distance(a, b, l))),
    sounded: pairs.flat().map(m.sounded), reach: [...Array(25).keys()].map(m.reach), name_reach: pairs.flat().map(m.name_reach)};
}

function names(job) {
  const page = open_page(job.site, "deck.html").context, spec = page.RulingsSpec.open(), index = spec.name_index();
  return job.typed.map(t => {
    const r = page.RulingsResolve.read_card(spec, t, index);
    return [r.names, r.read_as, r.choices, r.names.length || r.choices.length ? [] : index.rank(t)];
  });
}

function opened(job) {
  const {context, scripts} = open_page(job.site, "search.html");
  const searcher = context.RulingsSearch.open(), spec = searcher.spec;
  const found = searcher.search(job.query, 20, {});
  found.results.forEach(r => searcher.highlight_spans(spec.shown(r.doc), found.understanding) && spec.url(r.doc));
  return {scripts, index: context.RULINGS_INDEX.length, results: found.results.length, sections: spec._lines.sections.length,
    read: spec._sections.size, heads: spec._heads.size, english: "english" in spec.raw, pages: !!spec.raw.site,
    cards: "site_cards" in spec.raw || !!spec.raw.site.cards};
}

/* the search page's index as searchspec.js reads it: every table's buckets parsed (and each key's bucket
 * recomputed), postings and keys decoded, the documents by their fields' names, the JSON lines, the later parts */
function index(job) {
  const page = open_page(job.site, "search.html").context, spec = page.RulingsSpec.open(), raw = spec.raw;
  const out = {}, misplaced = [];
  Array.from(spec.bucketed).forEach(table => {
    Object.keys(raw[table]).forEach(b => Object.keys(spec.part(table, b)).forEach(key => {
      if (page.RulingsSpec.bucket(key) !== b) misplaced.push([table, b, key]);
    }));
    const whole = spec.table(table);
    out[table] = table === "postings" || table === "keys" ?
      Object.fromEntries(Object.keys(whole).map(k => [k, spec.numbers(table, k, table === "postings" ? 2 : 1)])) : whole;
  });
  out.docs = [...Array(spec.docs_count).keys()].map(d => spec.doc(d));
  out.sections = spec._lines.sections.map((_, n) => spec.section(n));
  out.heading_terms = spec._lines.heading_terms.map(line => JSON.parse(line));
  ["english", "site", "site_cards"].forEach(name => { out[name] = spec.later(name); });
  const rest = {};
  Object.keys(raw).forEach(k => { if (!(k in out) && k !== "later" && !spec.bucketed.has(k)) rest[k] = raw[k]; });
  return {data: out, rest, bucketed: Array.from(spec.bucketed), later: Object.keys(raw.later || {}), misplaced};
}

function deck(job) {
  const page = open_page(job.site, "deck.html").context, spec = page.RulingsSpec.open(), data = page.RULINGS_DECK;
  const D = page.RulingsDeck, F = page.RulingsDeckFormats, L = page.RulingsDeckList, ids = ds => ds.map(d => spec.doc(d).id);
  const entry = e => ({name: e.name, count: e.count, sections: e.sections, lines: e.lines, typed: e.typed, read_as: e.read_as,
    set_codes: e.set_codes, printings: e.printings, errata: ids(e.errata), rulings: ids(e.rulings), mentions: e.mentions});
  const report = r => r.error !== undefined ? {said: "Error: " + r.error + ". " + r.hint} : {
    title: r.title, format: r.format, verdict: r.verdict, findings: r.findings, alignment: r.alignment, readings: r.readings,
    cards: r.cards.map(entry), quiet: r.quiet.map(entry), not_found: r.not_found, ambiguous: r.ambiguous, warnings: r.warnings,
    copies: r.copies, skipped: r.skipped, misses: r.not_found.concat(r.ambiguous).map(D.miss_text),
    findings_text: r.findings.map(D.finding_text), whose_text: D.whose_text(r), reading_texts: r.readings.map(D.reading_text)};
  return job.lists.map(l => {
    const name = l.name || "deck", options = Object.assign({name}, l.options || {}), out = {};
    let text = l.text;
    if (l.file !== undefined) {  // a file's bytes, as the page reads a file chosen (or a list typed, as UTF-8)
      const bytes = new Uint8Array(fs.readFileSync(l.file));
      try { text = out.decoded = L.decode(bytes, name, data); } catch (e) { if (!e.message) throw e; out.decoded = null; }
      if (l.only === "decode") return out;
      Object.assign(out, report(D.check_deck(bytes, spec, data, options)));
      if (out.decoded === null) return out;
    }
    try { out.lines = F.read_deck(text, name, options.form || "", data).lines; } catch (e) {
      if (!e.message) throw e;
      out.lines = null; out.refused = e.message;
    }
    if (l.only === "read" || l.file !== undefined) return out;
    return Object.assign(out, report(D.deck_report(text, spec, data, options)));
  });
}

const TASKS = {search, helpers, names, opened, index, deck};
const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
if (!TASKS[job.task]) throw new Error("no task " + job.task + ": one of " + Object.keys(TASKS).join(", "));
process.stdout.write(JSON.stringify(TASKS[job.task](job)));

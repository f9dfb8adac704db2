"""The browser's search index: the knowledge base's own search data (kb.search.searchspec), made compact for
a phone, plus where every ruling and card lives on the site; written once by `rulings site`.

site/assets/searchspec.js reads it and search.js runs it step by step as kb.search.search runs search.json
(tests/test_parity.py and tests/test_conformance.py hold them to the same answers, through the parity
harness, tests/parity). What makes it quicker to load than search.json as a script:

- it is JSON text inside JavaScript strings (`window.RULINGS_INDEX='…'`), read with JSON.parse: a
  browser parses a JSON string faster than the same object literal, and a script tag loads it
  from file:// too, where fetch() cannot;
- it is ASCII alone, every other character a JSON escape (json_text): V8 then holds the script and
  every text in it one byte a character, where one curly quote made the whole script two (opening
  the index took 28 ms of node's CPU, 20 ms in ASCII);
- the documents (half its bytes) are a second string of JSON lines, each parsed only when a query
  needs that document (a hundred or so candidates), not all four thousand on every visit, each a
  row of its fields' values under one list of their names (a sixth of the bytes of named fields:
  kb.search.searchspec.Doc's, read by name in searchspec.js);
- the tables looked up by key (postings, exact keys, vocabulary, card names) come in buckets by
  their keys' first two letters, each a JSON text parsed when a query first looks in it: a
  question reads a few dozen of the four tables' hundreds of buckets (the JSON parse of the whole
  index was the biggest part of the script's time on a slow phone);
- the postings and exact keys, the bulk of its numbers, are strings decoded only for the terms a
  query uses: document numbers as gaps from the previous one in base 36, the term frequencies as
  written ("a,2,3,0.5": document 10 twice, then document 13 with half a weight);
- what the search data already decided of each document (kb.search.searchspec.Doc: its prior, its
  section's heading as index terms, the numbers it gives, the first document with its words, ...)
  is shipped as it is, so no candidate's heading is analysed nor its text folded in the browser;
  the documents' sources come as runs (a source and its first document), a filter's mask made a
  run at a time; the words of card names come as one text to look a word up in, and the page
  addresses (LATER) as a JSON text parsed when the results are shown; of the English words that
  are never "corrected" (kb/data/english.txt), only those a correction could reach in this corpus
  (kb.search.query.english_words: thousands of sixty thousand), parsed only when a word the corpus lacks
  is read (LATER);
- the sections' paths and their headings' terms (a third of the rest) are JSON lines, each parsed
  when a candidate of that section is ranked (LINES), so opening the index parses a tenth of it;
- whether every word's index terms begin with the word's own first two letters (and no others)
  ("terms_keep_prefix", terms_keep_prefix()): then, to find a query's terms in the results it
  shows, only their words that begin as one of those terms does are looked up in the vocabulary
  (looking up all of them parsed most of its buckets: a fifth of a question's time).

(Splitting the text into chunks loaded per query, as Pagefind does, was measured and dropped: a
short question weighs the text of its hundred candidates, which touched most chunks, and forty
script loads cost more than one.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import fields as dataclass_fields
from typing import Any

from kb.errors import SiteError
from kb.search.query import COMPOUND, english_words
from kb.read.lookup import search_spec
from kb.store.reading import reading
from kb.search.searchspec import SPEC, Doc
from kb.site.siteplan import SitePlan
from kb.store.reading import DIVIDER
from kb.store.snapshot import Kb, Snapshot
from kb.tables import load_words
from kb.builder.urls import anchor

ENCODING = "gaps36"
"""The name of the encoding of postings and keys, checked by searchspec.js."""
INDEX_FILE = "assets/search-index.js"
"""Documents per file of text."""


def base36(n: int) -> str:
    """base36(10) == "a"."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def gaps(numbers: list[Any], step: int = 1) -> str:
    """Every `step`-th number (a document number) as its gap from the previous one in base 36, the
    others (term frequencies, weighted by field: 1.5, 0.5) as Python writes them, which JavaScript's
    parseFloat reads back to the same double: gaps([10, 2.0, 13, 0.5], 2) == "a,2,3,0.5"."""
    out, last = [], 0
    for i, n in enumerate(numbers):
        if i % step == 0:
            out.append(base36(int(n) - last))
            last = int(n)
        else:
            out.append(str(int(n)) if float(n).is_integer() else repr(float(n)))
    return ",".join(out)


def compact(spec: dict[str, Any]) -> dict[str, Any]:
    """The search data with its postings ([doc, tf, doc, tf, ...]) and keys ([doc, ...]) as gap strings."""
    return {**spec, "encoding": ENCODING,
            "postings": {term: gaps(post, 2) for term, post in spec["postings"].items()},
            "keys": {key: gaps(docs) for key, docs in spec["keys"].items()}}


BUCKETED = ("postings", "keys", "vocab", "names")
"""The tables looked up by key, shipped in buckets (bucket()) of JSON text, each parsed when a query
first looks up a key of it."""


def bucket(key: str) -> str:
    """A table key's bucket: its first two characters; for a key with colons, its first character and
    the first two after its last colon (so "about:gandalf" and "about:saruman" part, and the
    numbers of "number:annotation:18" and "number:annotation:25a"): bucket("strike") == "st",
    bucket("about:gandalf") == "aga", bucket("number:annotation:18") == "n18". Small buckets: a
    question's few words parse a few kilobytes. searchspec.js's bucket() is the same, on code points."""
    _, colon, rest = key.rpartition(":")
    return key[:1] + rest[:2] if colon else key[:2]


def buckets(table: dict[str, Any]) -> dict[str, str]:
    """A table as {bucket: the JSON text of its entries in that bucket}, in the table's order."""
    parts: dict[str, dict[str, Any]] = {}
    for key, value in table.items():
        parts.setdefault(bucket(key), {})[key] = value
    return {b: json_text(entries) for b, entries in parts.items()}


def packed(spec: dict[str, Any]) -> dict[str, Any]:
    """The compact search data made quick to open: every word of a card name (the search data's
    name_words) as one text, each word between line breaks, which a word is looked up in without
    parsing anything; the tables of BUCKETED in buckets of JSON text; and the documents as one text
    of JSON lines (DOC_SEPARATOR between them), each parsed only when a query needs it: each a row of
    its fields' values in the order "doc_fields" names them (kb.search.searchspec.Doc's), the fields at
    their defaults at its end left out ("doc_defaults" says what they are), beside the runs of their
    sources ("source_runs": [source, first document] each time the source changes), which filters
    need for every document; the lists of LINES as JSON lines too."""
    fields, defaults = DOC_FIELDS, spec["doc_defaults"]
    lines: list[str] = []
    source_runs: list[list[int]] = []
    for d, doc in enumerate(spec["docs"]):
        if not source_runs or source_runs[-1][0] != doc["source"]:
            source_runs.append([doc["source"], d])
        row = [doc[f] if f in doc else defaults[f] for f in fields]
        while len(row) > len(fields) - len(defaults) and row[-1] == defaults[fields[len(row) - 1]]:
            row.pop()
        lines.append(json_text(row))
    small = compact(spec)
    return {**small, **{t: buckets(small[t]) for t in BUCKETED}, "buckets": list(BUCKETED),
            **{t: json_lines(spec[t]) for t in LINES},
            "doc_fields": list(fields), "docs": DOC_SEPARATOR.join(lines), "source_runs": source_runs,
            "name_words": "\n" + "".join(w + "\n" for w in spec["name_words"]),
            "terms_keep_prefix": terms_keep_prefix(spec["vocab"]),
            "english": english_words(load_words("english"), {k: v[0] for k, v in spec["vocab"].items()})}


LINES = ("sections", "heading_terms")
"""The lists read an entry at a time (a candidate's section path and its heading's terms), shipped as
one text of JSON lines each (json_lines), an entry parsed when a query first reads it: a question
reads a hundred of their thousands of entries."""


def json_lines(values: list[Any]) -> str:
    """A list as one text, each value's JSON on a line of its own (DOC_SEPARATOR between them):
    json_lines([["Turn"], None]) == '["Turn"]\nnull'."""
    return DOC_SEPARATOR.join(json_text(v) for v in values)


DOC_FIELDS = tuple(f.name for f in dataclass_fields(Doc))
"""A document's fields in the order the browser's rows give them: kb.search.searchspec.Doc's, those that may be
left out (at their defaults) last."""


def terms_keep_prefix(vocab: dict[str, list[Any]]) -> bool:
    """Whether the index terms of every word of the vocabulary ({word: [count, term, ...]}) have the
    word's first two characters as their own first two, compounds ("M/H", kb.search.query.COMPOUND) aside:
    true of stems ("hazards" -> "hazard", "cancelled" -> "cancel"), and so of a word the vocabulary
    lacks, which kb.search.query.analyze_word reads by an ending off (three letters at least are left) or
    as itself. search.js's could_mean relies on it only where this says so:
    terms_keep_prefix({"ran": [1, "run"]}) and terms_keep_prefix({"a": [1, "an"]}) are False."""
    return all(str(term)[:2] == word[:2] for word, entry in vocab.items() if not COMPOUND.search(word)
               for term in entry[1:])


LATER = ("english", "site", "site_cards")
"""Parts of the index a query may not read (the English words, read only for a word the corpus lacks;
every ruling's page; every card's page), shipped as JSON texts apart (RULINGS_PARTS "later") and
parsed when first read: the results a page shows need the addresses of twenty rulings, not of four
thousand, and the cards' only for a card named."""

DOC_SEPARATOR = "\n"
"""Between two documents' JSON lines (JSON text never holds a raw newline)."""


def browser_files(kb: Kb, plan: SitePlan, card_names: list[str]) -> Iterator[tuple[str, str]]:
    """The browser's search index as one script: the search data as a JSON text (RULINGS_INDEX); apart,
    so that nothing is escaped twice, the buckets of its big tables, the JSON lines of LINES and the
    parts of LATER (RULINGS_PARTS, an object of texts) and its documents' JSON lines (RULINGS_DOCS).
    Opening it parses none of them."""
    data = packed(browser_index(kb, plan, card_names))
    docs = data.pop("docs")
    parts = {t: data.pop(t) for t in BUCKETED}
    parts["lines"] = {name: data.pop(name) for name in LINES}
    parts["later"] = {name: json_text(data.pop(name)) for name in LATER}
    yield INDEX_FILE, ("window.RULINGS_INDEX=" + js_string(data) + ";\nwindow.RULINGS_PARTS=" + js_object(parts)
                       + ";\nwindow.RULINGS_DOCS=" + js_literal(docs) + ";\n")


def js_object(parts: dict[str, dict[str, str]]) -> str:
    """Tables of texts as a JavaScript object literal, each text a string literal (js_literal)."""
    def key(k: str) -> str:
        return json.dumps(k).replace("</", "<\\/")
    return "{" + ",".join(key(t) + ":{" + ",".join(key(b) + ":" + js_literal(text) for b, text in table.items()) + "}"
                          for t, table in parts.items()) + "}"


def browser_index(kb: Kb, plan: SitePlan, card_names: list[str]) -> dict[str, Any]:
    """The search data plus, under "site", what only the site knows of the documents: "pages" (each
    page path once), "doc_pages" (parallel to the documents: an index into pages), "anchors" (a
    document's anchor where it is not its id), "divider" (the pattern of a section divider, shown as
    its letter) and "shown" (how a document's text as a reader reads it, kb.store.reading.reading, differs
    from its stored text, as edits(): its emphasis, icon codes or "@" read; the search itself reads
    the stored text); and under "site_cards" each card's page (English name -> its path), apart: a
    question's results need the cards' pages only when it names a card."""
    snapshot = Snapshot.of(kb)
    path = snapshot.file(SPEC)
    spec = search_spec(snapshot).raw  # read once: the deck page's data reads the same
    pages: dict[str, int] = {}
    doc_pages: list[int] = []
    anchors: dict[str, str] = {}
    shown: dict[str, list[list[Any]]] = {}
    parsers = [s["parser"] for s in spec["sources"]]
    for n, doc in enumerate(spec["docs"]):
        rid = doc["id"]
        if rid not in plan.home:
            raise SiteError(f"{path}: ruling {rid} has no page; run `rulings build` again")
        doc_pages.append(pages.setdefault(plan.home[rid], len(pages)))
        if anchor(rid) != rid:
            anchors[str(n)] = anchor(rid)
        text = reading(doc["text"], parsers[doc["source"]]).text
        if text != doc["text"]:
            shown[str(n)] = edits(doc["text"], text)
    cards = {name: plan.urls.card(name) for name in sorted(card_names)}
    return {**spec, "site": {"pages": list(pages), "doc_pages": doc_pages, "anchors": anchors,
                             "divider": DIVIDER.pattern, "shown": shown}, "site_cards": cards}


PIECE = re.compile(r"\w+|\s+|.", re.S)
"""The pieces edits() compares two texts by: words, runs of spaces, and single other characters."""
LOOK = 12
"""How many pieces edits() looks ahead, in each text, for where two texts agree again."""


def edits(stored: str, shown: str) -> list[list[Any]]:
    """What turns stored text into shown text, as [where, how many to remove, what to put there],
    in order, each place counted in the stored text in UTF-16 code units (as JavaScript counts):
    edits("**a** b", "a b") == [[0, 2, ""], [3, 2, ""]]. A twentieth of the bytes of the shown
    texts. The texts are walked together piece by piece (PIECE); where they part, the nearest
    place (within LOOK pieces of each) where two pieces agree again ends the edit, else the rest
    is one edit: linear in their length, where a longest-match diff took a tenth of the site's build."""
    a, b = PIECE.findall(stored), PIECE.findall(shown)
    at = [0]
    for piece in a:
        at.append(at[-1] + len(piece.encode("utf-16-le")) // 2)
    out: list[list[Any]] = []
    i = j = 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and a[i] == b[j]:
            i, j = i + 1, j + 1
            continue
        di, dj = next(((di, total - di) for total in range(1, 2 * LOOK) for di in range(max(0, total - LOOK + 1),
                                                                                     min(total, LOOK - 1) + 1)
                       if a[i + di:i + di + 2] == b[j + total - di:j + total - di + 2] and i + di < len(a)),
                      (len(a) - i, len(b) - j))
        out.append([at[i], at[i + di] - at[i], "".join(b[j:j + dj])])
        i, j = i + di, j + dj
    return out


def js_string(value: Any) -> str:
    """A value's JSON text as a JavaScript string literal in single quotes (for JSON.parse)."""
    return js_literal(json_text(value))


def json_text(value: Any) -> str:
    """A value as compact JSON text in ASCII alone, every other character a \\u escape (which
    JSON.parse reads back): a script of one-byte characters, and texts V8 holds in one byte a
    character, where a single curly quote makes a whole text two bytes a character to scan, split
    and parse (a third of the time to open the index, in node)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def js_literal(text: str) -> str:
    """A text as a JavaScript string literal in single quotes: backslashes doubled, quotes and line
    breaks escaped; "<\\/" (which JSON.parse reads as "/") keeps the text from ever closing a
    script element, even inlined. Every text given here is JSON text or JSON lines, where "</"
    occurs only inside strings."""
    out = text.replace("\\", "\\\\").replace("'", "\\'").replace("</", "<\\\\/")
    return "'" + out.replace("\n", "\\n").replace("\r", "\\r").replace("\u2028", "\\u2028").replace("\u2029",
                                                                                                    "\\u2029") + "'"

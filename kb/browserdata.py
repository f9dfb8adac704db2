"""The browser's search index: the knowledge base's own search data (kb.searchspec), made compact for
a phone, plus where every ruling and card lives on the site; written once by `rulings site`.

site/assets/search.js runs it step by step as kb.search runs search.json (tests/test_parity.py
holds them to the same answers). What makes it quicker to load than search.json as a script:

- it is one JSON text inside a JavaScript string (`window.RULINGS_INDEX='…'`), read with
  JSON.parse: a browser parses a JSON string faster than the same object literal, and a script
  tag loads it from file:// too, where fetch() cannot;
- the postings and exact keys, the bulk of its numbers, are strings decoded only for the terms a
  query uses: document numbers as gaps from the previous one in base 36, the term frequencies as
  written ("a,2,3,0.5": document 10 twice, then document 13 with half a weight);
- section paths are a table the documents point into, each document carries the number of its
  wording (the first document with the same folded words), so results are told apart without
  folding their text in the browser, and the words of card names come as a list.

(Splitting the text into chunks loaded per query, as Pagefind does, was measured and dropped: a
short question weighs the text of its hundred candidates, which touched most chunks, and forty
script loads cost more than one.)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kb.errors import SiteError
from kb.query import fold
from kb.searchspec import SPEC, SearchSpec
from kb.siteplan import DIVIDER, SitePlan
from kb.store import CURRENT
from kb.urls import anchor

ENCODING = "gaps36"
"""The name of the encoding of postings and keys, checked by search.js."""
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


def packed(spec: dict[str, Any]) -> dict[str, Any]:
    """The compact search data, its section paths a table the documents point into, each document's
    wording numbered (the first document with the same folded words), and every word of a card
    name (as search.js's is_name_word splits them)."""
    sections: dict[tuple[str, ...], int] = {}
    first: dict[str, int] = {}
    docs, wordings = [], []
    for d, doc in enumerate(spec["docs"]):
        wordings.append(first.setdefault(fold(doc[6]).replace(" ", ""), d))
        docs.append([*doc[:5], sections.setdefault(tuple(doc[5]), len(sections)), *doc[6:]])
    name_words = sorted({w for key in spec["names"] for w in key.split(" ")})
    return {**compact(spec), "docs": docs, "sections": [list(s) for s in sections], "wordings": wordings,
            "name_words": name_words}


def browser_files(kb_dir: Path, plan: SitePlan, card_names: list[str]) -> Iterator[tuple[str, str]]:
    """The browser's search index as files (path, text)."""
    yield INDEX_FILE, "window.RULINGS_INDEX=" + js_string(packed(browser_index(kb_dir, plan, card_names))) + ";\n"


def browser_index(kb_dir: Path, plan: SitePlan, card_names: list[str]) -> dict[str, Any]:
    """The search data plus, under "site", what only the site knows: "pages" (each page path
    once), "doc_pages" (parallel to the documents: an index into pages), "anchors" (a document's
    anchor where it is not its id), "cards" (English name -> an index into pages) and "divider"
    (the pattern of a section divider, shown as its letter)."""
    path = kb_dir / CURRENT / SPEC
    spec = SearchSpec.load(path).raw
    pages: dict[str, int] = {}
    doc_pages: list[int] = []
    anchors: dict[str, str] = {}
    for n, doc in enumerate(spec["docs"]):
        rid = doc[0]
        if rid not in plan.home:
            raise SiteError(f"{path}: ruling {rid} has no page; run `rulings build` again")
        doc_pages.append(pages.setdefault(plan.home[rid], len(pages)))
        if anchor(rid) != rid:
            anchors[str(n)] = anchor(rid)
    cards = {name: pages.setdefault(plan.urls.card(name), len(pages)) for name in sorted(card_names)}
    return {**spec, "site": {"pages": list(pages), "doc_pages": doc_pages, "anchors": anchors,
                                      "cards": cards, "divider": DIVIDER.pattern}}


def js_string(value: Any) -> str:
    """A value's JSON text as a JavaScript string literal in single quotes (for JSON.parse):
    backslashes doubled, quotes escaped; "<\\/" (JSON's own escape of "/") keeps the text from ever
    closing a script element, even inlined."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("</", "<\\\\/") + "'"

"""Where each page of the static site is and where each ruling lives on it (a document's, a card's, a
term's, a phase's, an annotation's, a rule's page): the one plan the lookups' urls and the site's pages
are both made on, decided once by the build (read, rows) and stored (kb.store.store's addresses table)."""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kb.keys import page_key
from kb.phases import PHASE_NAMES
from kb.store.store import query
from kb.builder.urls import Urls, anchor

SPLIT_OVER = 250
"""A document with more rulings than this gets one page per top-level section."""
SPLIT_CHARACTERS = 40_000
"""So does one whose rulings hold more characters than this (Arda: 213 rulings, 62,000 characters,
its paragraphs long once the ones the PDF cut are joined)."""
NUMBERED = ("annotation", "rule")
"""The kinds of ruling with a page per number (its rulings in every edition, what cites it)."""


@functools.lru_cache(maxsize=4096)
def number_key(number: str) -> tuple[tuple[int, str], ...]:
    """Natural order for "9", "9a", "10" and "2.IV.iii"."""
    return tuple((int(m.group(1)), m.group(2)) if (m := re.match(r"(\d+)(.*)", p)) else (10**6, p)
                 for p in number.lower().split("."))


@dataclass(slots=True)
class Addresses:
    """Page paths (relative to the site's root) of every document part and card of one knowledge base."""

    urls: Urls = field(default_factory=Urls)
    split: dict[str, bool] = field(default_factory=dict)
    """source id -> whether its document is split into one page per top-level section."""
    cards_source: set[str] = field(default_factory=set)
    card_of: dict[str, str] = field(default_factory=dict)
    """a card's ruling id -> its English name."""
    pending: list[str] = field(default_factory=list)
    """The card names whose pages are not registered yet: all are, in name order, when a card's page
    is first asked for (most lookups never ask: `rulings annotation 18` shows no card)."""
    pending_pages: list[tuple[str, str]] = field(default_factory=list)
    """The (kind, name) of the term, phase, annotation and rule pages not registered yet: registered
    after the cards, terms by name, phases in the turn's order, numbers in natural order."""

    @classmethod
    def read(cls, conn: sqlite3.Connection, terms: Iterable[str] | None = None) -> Addresses:
        """The site's plan from the knowledge base: every document (and, for a long one, each
        top-level part), every card, then every term (terms: their names, default the stored terms
        table's), phase, annotation and rule registered in this order, so two names with the same slug
        get the same suffixes for every reader (the terminal's urls, the site's pages)."""
        # a source's rulings are counted as it was stored; their characters are read (every text: the
        # costly part of a cold lookup) only for a source with too few rulings to be split by number
        counts = {r["id"]: (r["rulings"], 0) for r in query(conn, "select id, rulings from sources")}
        counts |= {r["source"]: (counts[r["source"]][0], r["characters"]) for r in query(
            conn, "select source, sum(length(text)) as characters from rulings where source in (select id from "
                  "sources where rulings <= ?) group by source", (SPLIT_OVER,))}
        tops: dict[str, list[str]] = {}
        for sec in query(conn, "select source, json_extract(titles, '$[0]') as part from sections order by ord"):
            if sec["part"] not in tops.setdefault(sec["source"], []):
                tops[sec["source"]].append(sec["part"])
        a = cls()
        for s in query(conn, "select id, parser from sources order by rowid"):
            a.urls.document(s["id"])
            if s["parser"] == "cards":
                a.cards_source.add(s["id"])
                continue
            parts = tops.get(s["id"], [])
            rulings, characters = counts.get(s["id"], (0, 0))
            a.split[s["id"]] = (rulings > SPLIT_OVER or characters > SPLIT_CHARACTERS) and len(parts) > 1
            for part in parts if a.split[s["id"]] else []:
                a.urls.document(s["id"], part)
        a.card_of = {c["ruling_id"]: c["name"] for c in query(conn, "select ruling_id, name from cards")}
        a.pending = sorted(set(a.card_of.values()))
        if terms is None:
            terms = [t["name"] for t in query(conn, "select name from terms")]
        a.pending_pages = [("term", name) for name in sorted(terms)]  # (as SQLite orders them: by code point)
        a.pending_pages += [("phase", p) for p in PHASE_NAMES]
        for kind in NUMBERED:  # each number once as it is keyed (in document order, then in natural order,
            numbers = dict.fromkeys(page_key(kind, r["number"]) for r in query(  # "3.v" before "3.V")
                conn, "select r.number from rulings r join sources s on s.id = r.source where r.kind = ? and "
                      "r.number != '' order by s.rowid, r.ord", (kind,)))
            a.pending_pages += [(kind, n) for n in sorted(numbers, key=lambda n: (number_key(n), n.swapcase()))]
        return a

    def complete(self) -> Addresses:
        """The plan with every card's page registered (in name order, so that names with the same
        slug take the same suffixes for every reader), then every term's, phase's, annotation's and
        rule's (pending_pages)."""
        for name in self.pending:
            self.urls.card(name)
        for kind, name in self.pending_pages:
            {"term": self.urls.term, "phase": self.urls.phase, "annotation": self.urls.annotation,
             "rule": self.urls.rule}[kind](name)
        self.pending, self.pending_pages = [], []
        return self

    def rows(self, conn: sqlite3.Connection) -> Iterator[dict[str, str]]:
        """The plan as the build stores it (kb.store.store's addresses table): every document's (part's),
        card's, term's, phase's, annotation's and rule's page in the order they were registered (a
        term's and annotation's key lower case, a rule's exact, as kb.builder.urls.page_key keys them), then every
        stored ruling's page and anchor."""
        self.complete()
        for kind, key, path in self.urls.registered():
            source, _, part = key.partition("\x00")
            yield {"kind": kind, "key": source if kind == "document" else key,
                   "part": part if kind == "document" else "", "page": path, "anchor": ""}
        for r in query(conn, "select id, source, section from rulings order by rowid"):
            yield {"kind": "ruling", "key": r["id"], "part": "", "page": self.page(r["id"], r["source"], r["section"]),
                   "anchor": anchor(r["id"])}

    @classmethod
    def stored(cls, conn: sqlite3.Connection) -> Addresses:
        """The plan as the build stored it (rows), registered in the same order: nothing derived again."""
        a = cls()
        for row in query(conn, "select kind, key, part, page from addresses where kind != 'ruling' order by rowid"):
            if row["kind"] == "document":
                a.urls.take("document", f"{row['key']}\x00{row['part']}", row["page"])
                a.split[row["key"]] = a.split.get(row["key"], False) or bool(row["part"])
            else:
                a.urls.take(row["kind"], row["key"], row["page"])
        a.cards_source = {s["id"] for s in query(conn, "select id from sources where parser = 'cards'")}
        for s in a.cards_source:
            a.split.pop(s, None)
        a.card_of = {c["ruling_id"]: c["name"] for c in query(conn, "select ruling_id, name from cards")}
        return a

    def page(self, ruling_id: str, source: str, section: tuple[str, ...] | list[str]) -> str:
        """The page a ruling lives on: its card's page, or its document's (part's) page."""
        if ruling_id in self.card_of:
            return self.card(self.card_of[ruling_id])
        part = section[0] if self.split.get(source) and section else ""
        return self.urls.document(source, part)

    def ruling(self, ruling_id: str, source: str, section: tuple[str, ...] | list[str]) -> str:
        """A ruling's address: its page and its anchor ("doc/crf-22-turn-sequence-rulings.html#crf-22.454d048a6d")."""
        return f"{self.page(ruling_id, source, section)}#{anchor(ruling_id)}"

    def card(self, name: str) -> str:
        """A card's page ("card/khamul-the-easterling.html")."""
        return self.complete().urls.card(name) if self.pending else self.urls.card(name)

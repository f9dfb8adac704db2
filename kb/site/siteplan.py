"""Where everything lives on the static site, as the build stored it (kb.builder.addresses) before any page is
made: every page of each kind (the stored plan's, in its order), every document's parts, every ruling's and
section's home page."""

from __future__ import annotations

from collections import defaultdict

from kb.builder.addresses import Addresses
from kb.site.corpus import Corpus

from kb.read.ruling import Ruling
from kb.builder.urls import Urls

class SitePlan:
    """Every page of one corpus where kb.builder.addresses (the one plan the lookups' urls use) put them: the
    documents and their parts, cards, terms, phases, annotations and rules, each kind's pages read from
    the stored plan in the order the build registered them; and where each ruling and section lives."""

    def __init__(self, c: Corpus, addresses: Addresses) -> None:
        self.by_source: dict[str, list[Ruling]] = defaultdict(list)
        for r in c.rulings.values():
            self.by_source[r.source].append(r)
        self.addresses = addresses.complete()
        self.urls = addresses.urls
        self.keys: dict[str, list[str]] = defaultdict(list)
        """Each kind of page (card, term, phase, annotation, rule) -> the keys of its pages, as the build stored
        them (kb.keys.page_key: a term's name and an annotation's number lower case), in the order registered:
        cards and terms by name, phases in the turn's order, numbers in natural order."""
        self.parts: dict[str, list[str]] = {s.id: [] for s in c.sources}
        """source id -> its top-level parts, each on its own page (empty: the document is one page)."""
        for kind, key, _ in self.urls.registered():
            if kind != "document":
                self.keys[kind].append(key)
            elif (part := key.partition("\x00")[2]) and (source := key.partition("\x00")[0]) in self.parts:
                self.parts[source].append(part)
        self.section_home: dict[str, str] = {}
        for s in c.sources:
            split = bool(self.parts[s.id])
            for sec in c.sections.get(s.id, []):
                self.section_home[sec.id] = self.urls.document(s.id, sec.path[0] if split else "")
        self.home = {r.id: r.page for r in c.rulings.values()}
        """ruling id -> the page it lives on."""

    def ruling_href(self, page: str, ruling_id: str) -> str:
        """A link from page to a ruling at its home."""
        return Urls.href(page, self.home[ruling_id], ruling_id)

    def ruling_placed(self, ruling_id: str) -> str:
        """A link to a ruling at its home from a page not known yet (Urls.placed)."""
        return Urls.placed(self.home[ruling_id], ruling_id)

"""Where everything lives on the static site, as the build stored it (kb.builder.addresses) before any page is
made: every page path, every ruling's home page, and the tables of annotations and rules the pages link to."""

from __future__ import annotations

import re
from collections import defaultdict

from kb.builder.addresses import NUMBERED, Addresses
from kb.site.corpus import Corpus
from kb.keys import page_key
from kb.read.ruling import Ruling
from kb.builder.urls import Urls

DIVIDER = re.compile(r"^-=\s*(.+?)\s*=-$")
"""A section divider of the CRF's card rulings ("-= AAA =-"): a letter of the alphabet, not a heading."""


def divider_letter(title: str) -> str | None:
    """divider_letter("-= III =-") == "I"; None for a heading that is no divider."""
    m = DIVIDER.match(title.strip())
    return m.group(1)[:1].upper() if m else None


def clean_heading(title: str) -> str:
    """A heading as a reader sees it: a divider as its letter."""
    return divider_letter(title) or title


class SitePlan:
    """Every page path of one corpus where kb.builder.addresses (the one plan the lookups' urls use) put them: the
    documents, cards, terms, phases, annotations and rules; and what links into each."""

    def __init__(self, c: Corpus, addresses: Addresses) -> None:
        self.by_source: dict[str, list[Ruling]] = defaultdict(list)
        for r in c.rulings.values():
            self.by_source[r.source].append(r)
        self.addresses = addresses.complete()
        self.urls = addresses.urls
        self.parts: dict[str, list[str]] = {}
        """source id -> its top-level parts, each on its own page (empty: the document is one page)."""
        self.section_home: dict[str, str] = {}
        for s in c.sources:
            split = addresses.split.get(s.id, False)
            secs = c.sections.get(s.id, [])
            self.parts[s.id] = list(dict.fromkeys(sec.titles[0] for sec in secs)) if split else []
            for sec in secs:
                self.section_home[sec.id] = self.urls.document(s.id, sec.titles[0] if split else "")
        self.home = {r.id: r.page for r in c.rulings.values()}
        """ruling id -> the page it lives on."""
        self.annotations: dict[str, list[str]] = defaultdict(list)
        """annotation number (lower case) -> its rulings, one per CRF edition."""
        self.rules: dict[str, list[str]] = defaultdict(list)
        """rule number (exactly as written: kb.keys.page_key) -> its rulings."""
        for r in c.rulings.values():
            if r.number and r.kind == "annotation":
                self.annotations[r.number.lower()].append(r.id)
            elif r.number and r.kind == "rule":
                self.rules[page_key(r.kind, r.number)].append(r.id)
        self.numbers = {kind: [key for k, key, _ in self.urls.registered() if k == kind] for kind in NUMBERED}
        """Each kind's numbers (as kb.keys.page_key keys them) in natural order, as their pages were registered."""

    def ruling_href(self, page: str, ruling_id: str) -> str:
        """A link from page to a ruling at its home."""
        return Urls.href(page, self.home[ruling_id], ruling_id)

    def ruling_placed(self, ruling_id: str) -> str:
        """A link to a ruling at its home from a page not known yet (Urls.placed)."""
        return Urls.placed(self.home[ruling_id], ruling_id)

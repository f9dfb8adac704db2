"""What each page of the static site shows: the values its template renders, page by page, on the
site plan (kb.site.siteplan); a card's, a term's, a phase's and a number's page show kb.read.lookup's answer.
Adding a page is a method here, a line in `Pages.all` and a template."""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from kb.builder.addresses import NUMBERED, number_key
from kb.builder.changes import (EARLIER, NEW, Change, arrange, edition_name, erratum_words, folded_words, new_lead,
                               other_label, part_title, verdict_words)
from kb.site.corpus import Corpus
from kb.read.documents import SourceRow
from kb.search.excerpt import SLACK, excerpt
from kb.keys import page_key
from kb.read.lookup import NumberAnswer, Reader
from kb.read.ruling import Ruling, grouped
from kb.phases import PHASE_NAMES
from kb.search.query import fold
from kb.read.render import Span, card_html, plain, plain_spans, render_text
from kb.site.siteplan import SitePlan
from kb.store.reading import clean_heading, divider_letter
from kb.builder.urls import Urls, anchor
from kb.builder.wording import shown

EXCERPT = 220
"""Characters of a ruling shown where it is only mentioned (its whole text is on its home page)."""
HOME_PARTS = (("By phase", "by-phase"), ("By annotation", "by-annotation"), ("More ways in", "more"),
              ("Sources", "sources"))
"""The home page's parts (home.html's headings), its contents if it proves long."""
TOC_WORDS = 48
"""Characters of a ruling's words that name it in a page's contents."""


@dataclass(frozen=True, slots=True)
class TocEntry:
    """One link of a page's table of contents."""

    label: str
    href: str
    depth: int = 1


@dataclass(slots=True)
class Page:
    """One page to render: its path, template, title, table of contents and the values the template needs."""

    path: str
    template: str
    title: str
    values: dict[str, Any] = field(default_factory=dict)
    toc: list[TocEntry] = field(default_factory=list)
    """In-page links, shown as a `<nav>` at the top of the page."""
    spare_toc: list[TocEntry] = field(default_factory=list)
    """Contents shown only when the page proves long (kb.site.website.LONG_PAGE): a few blocks, a part
    with no headings of its own (its rules by number, a glossary's letters, its rulings)."""
    letters: bool = False
    """The contents are letters (an A-Z bar) rather than headings."""
    toc_title: str = "On this page"


class Pages:
    """Every page of one corpus, on its plan."""

    def __init__(self, corpus: Corpus, plan: SitePlan, reader: Reader) -> None:
        self.c = corpus
        self.reader = reader
        """The answers a card's, a term's, a phase's and a number's page show."""
        self.plan = plan
        self.urls = plan.urls
        self.source_of = {s.id: s for s in corpus.sources}
        self.source_rank = {s.id: n for n, s in enumerate(corpus.sources)}
        self.order = {rid: n for n, rid in enumerate(corpus.rulings)}
        """Document order of every ruling (sources in manifest order)."""
        self._shown: dict[tuple[str, bool, str], dict[str, Any]] = {}
        """Each ruling rendered (whole or as an excerpt) for every page: its links placed, not relative."""
        self.card_names = set(corpus.cards)
        self.terms = {page_key("term", t.name): t for t in reader.terms().values()}
        """Every term by its page's key (kb.keys.page_key: its name lower case)."""
        self._numbered: dict[tuple[str, str], NumberAnswer] = {}
        self.links = reader.ruling_links()
        """What every ruling links to and what links to it (kb.read.answers.RulingLinks)."""
        self.older_wordings: dict[str, list[Change]] = defaultdict(list)
        """A current ruling -> the changes holding an older wording of it, word by word."""
        for c in corpus.changes:
            if c.diff and c.other_id in corpus.rulings:
                self.older_wordings[c.ruling_id].append(c)

    def all(self) -> Iterator[Page]:
        """Every page, one at a time (each is rendered and written before the next is made)."""
        c, urls = self.c, self.urls
        yield from (self.home_page(), self.search_page(), self.credits_page(), self.changes_page())
        # the deck page: kb/deck/deck.py, site/assets/deck.js and the modules before it
        yield Page("deck.html", "deck.html", "Deck check")
        for s in c.sources:
            yield from self.document_pages(s)
        cards, keys = self.plan.keys["card"], self.plan.keys
        yield from (self.card_page(name) for name in cards)
        yield self.index_page("cards.html", "Cards", [
            (name, urls.card(name), self._card_line(name)) for name in sorted(cards, key=fold)])
        terms = [self.terms[key] for key in keys["term"]]
        yield from (self.term_page(t.key) for t in terms)
        yield self.index_page("terms.html", "Terms", [
            (t.name, urls.term(t.name), "") for t in sorted(terms, key=lambda t: fold(t.name))])
        yield from (self.phase_page(p) for p in keys["phase"])
        yield from (self.number_page("annotation", n) for n in keys["annotation"])
        yield self.annotations_index()
        yield from (self.number_page("rule", n) for n in keys["rule"])
        yield self.rules_index()

    # -- a ruling as every page shows it -------------------------------------------------------------

    def _spans(self, r: Ruling) -> list[Span]:
        """Where the ruling's text names a card it links to or cites an annotation or rule, as the build
        stored its links' spans (kb.builder.xref), each with the link's page."""
        spans: list[Span] = []
        for k in self.c.links.get(r.id, []):
            if not k.spans:
                continue
            if k.kind == "card" and k.target in self.card_names:
                href = Urls.placed(self.urls.card(k.target))
            elif k.kind in NUMBERED and (page := self.urls.known(k.kind, k.target)):
                href = Urls.placed(page, f"{k.kind}-{k.target}")
            else:
                continue
            spans += [(start, end, href) for start, end in k.spans]
        return spans

    def render_ruling(self, page: str, r: Ruling, full: bool = True, focus: str = "") -> dict[str, Any]:
        """A ruling as the templates show it on a page: rendered text (or an excerpt, around where it
        names the card `focus` if given), where it is, its links (placed: kb.site.website makes them
        relative to the page), and whether the page is its home. Each ruling is rendered once (whole,
        or as an excerpt for each focus) for all the pages that show it."""
        key = (r.id, full, "" if full else focus)
        shown = self._shown.get(key)
        if shown is None:
            shown = self._shown[key] = self._render(r, full, key[2])
        return {**shown, "on_home": self.plan.home[r.id] == page}

    def _render(self, r: Ruling, full: bool, focus: str = "") -> dict[str, Any]:
        source = self.source_of[r.source]
        if full:
            text = render_text(r.stored, r.parser, self._spans(r))
        else:
            words = plain(r.stored, r.parser)
            spans = plain_spans(r.reading().text, [span for k in self.c.links.get(r.id, []) if k.kind == "card"
                                                   and k.target == focus for span in k.spans]) \
                if focus and len(words) > EXCERPT * SLACK else []  # (a shorter text is shown whole)
            text = html.escape(excerpt(words, spans, EXCERPT)[0], quote=False)
        return {"id": r.id, "focus": focus, "anchor": anchor(r.id), "kind": r.kind, "number": r.number,
                "markers": r.markers, "section": [clean_heading(t) for t in r.section], "text": text, "full": full,
                "source": source,
                "lines": r.lines, "permalink": self.plan.ruling_placed(r.id),
                "links": self.link_groups(r) if full else [],
                "notes": list(r.notes), "incomplete": r.incomplete,
                "older": [self.older_wording(c) for c in self.older_wordings.get(r.id, [])] if full else []}

    def older_wording(self, c: Change) -> dict[str, Any]:
        """An older wording of a ruling, as its page shows it beside it: where it is, the words
        removed and added (kb.builder.wording.shown), and how the build paired the two."""
        older = self.c.rulings[c.other_id]
        lines = f"line {older.lines[0]}" if older.lines[0] == older.lines[1] else \
            f"lines {older.lines[0]}–{older.lines[1]}"
        return {"href": self.plan.ruling_placed(older.id), "where": f"{self.source_of[older.source].title}, {lines}",
                "pieces": shown(c.diff), "evidence": c.evidence}

    def link_groups(self, r: Ruling) -> list[tuple[str, list[tuple[str, str]]]]:
        """(label, [(text, placed href)]) for every group of a ruling's links: the read model's answer
        (kb.read.lookup's Reader.ruling_links, what `rulings show` prints), its pages placed."""
        links = self.links.get(r.id)
        if links is None:
            return []
        return [(g.label, [(self._link_label(link.label, link.target if link.target == links.successor else ""),
                            Urls.placed_url(link.url) if link.url else "") for link in g.links])
                for g in links.groups]

    def _link_label(self, label: str, successor: str) -> str:
        """A link's label; a successor's with the start of its words (an older ruling's page says what
        states its matter now)."""
        later = self.c.rulings.get(successor) if successor else None
        return f"{label}: “{plain(later.stored, later.parser, EXCERPT)}”" if later else label

    def grouped(self, page: str, rulings: Sequence[Ruling], full: bool, block: str = "",
                focus: str = "") -> list[dict[str, Any]]:
        """An answer's rulings by source, in its order (kb.read.ruling.grouped: current editions first,
        each source in document order); each group's anchor is the block's name and its source;
        excerpts around where they name the card `focus`, if given."""
        return [{"source": self.source_of[g.source], "anchor": anchor(f"{block}-{g.source}") if block else "",
                 "rulings": [self.render_ruling(page, r, full, focus) for r in g.rulings]}
                for g in grouped(rulings)]

    @staticmethod
    def blocks_toc(blocks: list[tuple[str, str, list[dict[str, Any]]]]) -> list[TocEntry]:
        """The contents of a page of blocks (label, anchor, groups): each block, then its sources."""
        toc: list[TocEntry] = []
        for label, block_anchor, groups in blocks:
            if groups:
                toc.append(TocEntry(label, "#" + block_anchor))
                toc += [TocEntry(f"{g['source'].title} ({len(g['rulings'])})", "#" + g["anchor"], 2) for g in groups]
        return toc

    def rulings_toc(self, body: list[dict[str, Any]]) -> tuple[list[TocEntry], bool]:
        """Contents for a page of rulings with no headings of its own, and whether they are letters:
        a glossary's terms by letter (A-Z); numbered rules by their first two parts ("3.1", "3.I"),
        other numbered rulings by their number (a citation's key); else each ruling by its first words."""
        rulings = [i["ruling"] for i in body if "ruling" in i]
        terms = [r for r in rulings if r["kind"] == "glossary" and self.c.rulings[r["id"]].title]
        if len(terms) > len(rulings) // 2:
            letters: dict[str, str] = {}
            for r in terms:
                first = fold(self.c.rulings[r["id"]].title or "")[:1].upper()
                letters.setdefault(first if first.isalpha() else "#", r["anchor"])
            return [TocEntry(k, "#" + a) for k, a in letters.items()], True
        toc: dict[str, TocEntry] = {}
        numbered = any(r["number"] for r in rulings)
        for r in rulings:
            parser = self.source_of[self.c.rulings[r["id"]].source].parser
            words = plain(self.c.rulings[r["id"]].stored, parser, TOC_WORDS)
            if r["number"]:
                top = ".".join(r["number"].split(".")[:2]) if r["kind"] == "rule" else r["number"]
                toc.setdefault(top, TocEntry(f"{top} {words}" if r["kind"] == "rule" else words, "#" + r["anchor"]))
            elif not numbered:
                toc.setdefault(r["id"], TocEntry(words, "#" + r["anchor"]))
        return list(toc.values()), False

    # -- the pages --------------------------------------------------------------------------------------

    def home_page(self) -> Page:
        sources = [{"source": s, "href": self.urls.document(s.id), "count": len(self.plan.by_source.get(s.id, []))}
                   for s in self.c.sources]
        phases = [(PHASE_NAMES[p], self.urls.phase(p)) for p in self.plan.keys["phase"]]
        annotations = [(n, self.urls.annotation(n)) for n in self.plan.keys["annotation"]]
        return Page("index.html", "home.html", "MECCG rulings", {"sources": sources, "phases": phases,
                                                                 "annotations": annotations},
                    spare_toc=[TocEntry(label, "#" + a) for label, a in HOME_PARTS])

    def changes_page(self) -> Page:
        """What's new: what the current CRF lists and marks "@" first, one entry per ruling with all it
        is (kb.builder.changes.arrange), each ruling whole and linked to its place; then the earlier changes,
        each part folded in a <details> (its count and what it holds in its summary), the rulings by
        origin tag under their year."""
        path = "changes.html"
        current = [s for s in self.c.sources if s.parser == "crf" and s.current]
        edition = edition_name(current[0].kind, current[0].edition) if current else ""
        parts = arrange([c for c in self.c.changes if c.ruling_id in self.c.rulings], lambda c: c)
        blocks = []
        for part, entries in parts.items():
            items = [self._change(path, entry) for entry in entries]
            said = folded_words(part, [entry[0] for entry in entries]) if part != NEW else ""
            blocks.append((part_title(part, edition), f"part-{part}", part, items, said))
        new = parts.get(NEW, [])
        lists = list(dict.fromkeys(self.c.rulings[c.ruling_id].section[0] for entry in new for c in entry
                                   if c.kind == "listed"))
        lead = new_lead(edition, current[0].date if current else "", lists, new)
        toc = [TocEntry(f"{title} ({len(items)})", "#" + block_anchor) for title, block_anchor, _, items, _ in blocks]
        return Page(path, "changes.html", f"What's new in {edition}" if edition else "What's new",
                    {"blocks": blocks, "lead": lead if new else "", "new": NEW, "earlier": EARLIER,
                     "edition": edition}, toc=toc)

    def _change(self, page: str, entry: list[Change]) -> dict[str, Any]:
        """One ruling's changes as What's new shows them: the ruling whole, its erratum, verdict and
        why, the entries of the CRF's list naming it, the ruling on the other side."""
        c = entry[0]
        r = self.c.rulings[c.ruling_id]
        other = self.c.rulings.get(c.other_id)
        label = other_label(c.kind, c.verdict, c.unsure)
        # whole, its links to cards, terms and phases left to its own page (the same ruling HTML is
        # made once for every page, kb.site.website: this one is the template's own)
        whole = c.kind == "absent" and c.verdict != "dropped"  # a successor is read whole, as the ruling it follows
        shown = None if other is None or not label else \
            {**self.render_ruling(page, other), "links": []} if whole else self.render_ruling(page, other, False)
        listed = [(" › ".join(self.c.rulings[i.ruling_id].section), self.plan.ruling_placed(i.ruling_id),
                   i.evidence if i.guess else "") for i in entry[1:] if i.ruling_id in self.c.rulings]
        return {"ruling": {**self.render_ruling(page, r), "links": []}, "change": c, "year": c.year,
                "verdict": verdict_words(c.verdict, c.unsure, c.guess), "listed": listed,
                "other": shown, "other_label": label, "erratum": erratum_words(c.erratum_evidence, c.erratum_guess),
                "cards": [(name, Urls.placed(self.urls.card(name))) for name in c.erratum_cards
                          if name in self.card_names]}

    def search_page(self) -> Page:
        games = sorted({s.game for s in self.c.sources}, key=lambda g: (g != "meccg", g))
        return Page("search.html", "search.html", "Search", {"sources": self.c.sources, "games": games})

    def credits_page(self) -> Page:
        docs = [(s, self.urls.document(s.id), anchor(credits_anchor(s.id))) for s in self.c.sources]
        return Page("credits.html", "credits.html", "Credits and sources", {"docs": docs},
                    spare_toc=[TocEntry(s.title, "#" + a) for s, _, a in docs])

    def _card_line(self, name: str) -> str:
        return "; ".join(f"{v.set_name} {v.alignment} {v.type}".strip() for v in self.c.cards[name])

    def index_page(self, path: str, title: str, entries: list[tuple[str, str, str]]) -> Page:
        """An A-Z index: entries (name, page, note) under their first letter, a letter bar on top."""
        letters: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for name, target, note in entries:
            first = fold(name)[:1].upper()
            letters[first if first.isalpha() else "#"].append((name, Urls.href(path, target), note))
        ordered = sorted(letters.items())
        return Page(path, "index_list.html", title, {"groups": [(k, f"l-{k}", v) for k, v in ordered]},
                    toc=[TocEntry(k, f"#l-{k}") for k, _ in ordered], letters=True)

    def annotations_index(self) -> Page:
        """Every annotation in numeric order (1, 2, ... 9a, ... 25a, 25b), by tens."""
        path = "annotations.html"
        tens: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for n in self.plan.keys["annotation"]:
            r = self.numbered("annotation", n).rulings[0]
            first = number_key(n)[0][0]
            band = f"{first // 10 * 10 or 1}–{first // 10 * 10 + 9}"
            tens[band].append((f"Annotation {r.number}", Urls.href(path, self.urls.annotation(n)),
                               plain(r.stored, r.parser, 90)))
        groups = [(band, "n-" + band.split("–")[0], entries) for band, entries in tens.items()]
        return Page(path, "index_list.html", "Annotations", {"groups": groups},
                    toc=[TocEntry(band, "#" + a) for band, a, _ in groups], letters=True)

    def rules_index(self) -> Page:
        """Every numbered rule, by source (in manifest order), each source's rules in numeric order."""
        path = "rules.html"
        by_source: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for n in self.plan.keys["rule"]:
            for r in self.numbered("rule", n).rulings:
                by_source[r.source].append((str(r.number), Urls.href(path, self.urls.rule(n)),
                                            plain(r.stored, r.parser, 90)))
        groups = [(self.source_of[s.id].title, anchor("src-" + s.id), by_source[s.id])
                  for s in self.c.sources if s.id in by_source]
        return Page(path, "index_list.html", "Rule numbers", {"groups": groups},
                    toc=[TocEntry(f"{title} ({len(e)})", "#" + a) for title, a, e in groups])

    def document_pages(self, s: SourceRow) -> list[Page]:
        main = self.urls.document(s.id)
        if s.parser == "cards":
            return [self._card_database_page(s, main)]
        parts = self.plan.parts[s.id]
        toc = [TocEntry(clean_heading(sec.path[-1]),
                        Urls.href(main, self.plan.section_home[sec.id], "s:" + sec.id), sec.depth)
               for sec in self.c.sections.get(s.id, []) if sec.depth <= (1 if parts else 3)]
        if not parts:
            body = self._body(main, s, None)
            spare, by_letter = ([], False) if toc else self.rulings_toc(body)
            return [Page(main, "document.html", s.title, {**self._source(main, s), "body": body}, toc=toc,
                         spare_toc=spare, letters=by_letter)]
        pages = [Page(main, "document.html", s.title, {**self._source(main, s), "body": self._body(main, s, "")},
                      toc=toc, toc_title="Its parts")]
        for n, top in enumerate(parts):
            path = self.urls.document(s.id, top)
            nav = {"prev": Urls.href(path, self.urls.document(s.id, parts[n - 1])) if n else "",
                   "next": Urls.href(path, self.urls.document(s.id, parts[n + 1])) if n + 1 < len(parts) else "",
                   "up": Urls.href(path, main)}
            body = self._body(path, s, top)
            own = next((i["again"] for i in body if "again" in i), "")  # the h1 takes its heading's anchor
            body = [i for i in body if i.get("again") != own]
            headings = [i for i in body if "heading" in i]
            letters = [TocEntry(i["heading"], "#" + i["anchor"]) for i in headings if i["letter"]]
            part_toc = letters or [TocEntry(i["heading"], "#" + i["anchor"], i["depth"] - 1)
                                   for i in headings if 1 < i["depth"] <= 3]
            spare, by_letter = ([], False) if part_toc else self.rulings_toc(body)
            pages.append(Page(path, "document.html", f"{top} — {s.title}",
                              {**self._source(path, s), "part": top, "nav": nav, "body": body, "anchor": own},
                              toc=part_toc, spare_toc=spare, letters=bool(letters) or by_letter))
        return pages

    @staticmethod
    def _source(page: str, s: SourceRow) -> dict[str, Any]:
        """What a document's page says of its source: the entry (its title, edition and date shown),
        and where its file, origin and licence are (its entry on the credits page)."""
        return {"source": s, "origin": Urls.href(page, "credits.html", credits_anchor(s.id))}

    def _card_database_page(self, s: SourceRow, main: str) -> Page:
        sets: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for versions in self.c.cards.values():
            for v in versions:
                r = self.c.rulings.get(v.ruling_id)
                if r is None or r.source != s.id:
                    continue  # another card database (another edition of it)
                sets[v.set_name or v.set_code].append(
                    (v.name, self.plan.ruling_href(main, v.ruling_id), f"{v.alignment} {v.type}"))
        groups = [(k, anchor("set-" + k), sorted(v, key=lambda e: fold(e[0]))) for k, v in sorted(sets.items())]
        return Page(main, "cards_source.html", s.title, {**self._source(main, s), "sets": groups},
                    toc=[TocEntry(f"{k} ({len(v)})", "#" + a) for k, a, v in groups])

    def _body(self, page: str, s: SourceRow, part: str | None) -> list[dict[str, Any]]:
        """Headings and rulings of a document (or one top-level part) in line order.

        part None: the whole document; "": only what lies outside every top-level section. A part's
        page has the part's heading as its h1, its headings a level up; where the source gives that
        heading again (the CoE rules' "Glossary"), a break stands in its place ("again").
        """
        items: list[tuple[int, int, int, dict[str, Any]]] = []
        for sec in self.c.sections.get(s.id, []):
            if part and sec.path[0] == part and sec.depth == 1:  # the part's own heading: the page's h1
                items.append((sec.span.start, 0, sec.order, {"again": anchor("s:" + sec.id)}))
            elif part is None or (part and sec.path[0] == part):
                letter = divider_letter(sec.path[-1])
                items.append((sec.span.start, 0, sec.order, {
                    "heading": letter or sec.path[-1], "letter": letter is not None, "depth": sec.depth,
                    "level": min(sec.depth if part else sec.depth + 1, 6), "anchor": anchor("s:" + sec.id)}))
        for r in self.plan.by_source.get(s.id, []):
            top = r.section[0] if r.section else ""
            if part is None or top == part:
                items.append((r.lines[0], 1, r.ord, {"ruling": self.render_ruling(page, r)}))
        return [item for *_, item in sorted(items, key=lambda x: x[:3])]

    def card_page(self, name: str) -> Page:
        """A card's page: every printing's face, then the answer `rulings card` gives (kb.read.lookup)."""
        page = self.urls.card(name)
        answer = self.reader.card_named(name)
        versions: list[dict[str, Any]] = []
        for v in answer.faces:
            r = self.c.rulings.get(v.ruling_id)
            versions.append({"face": v, "anchor": anchor(v.ruling_id), "set_name": v.set_name,
                             "text": card_html(r.stored) if r else "",
                             "others": {k: n for k, n in v.names.items() if k != "en" and n != name}})
        said = answer.said
        blocks = [("Errata", "errata", self.grouped(page, said.errata, True, "errata")),
                  ("CRF rulings", "rulings", self.grouped(page, said.rulings, True, "rulings")),
                  ("Mentioned in", "mentions", self.grouped(page, said.mentions, False, "mentions", focus=name))]
        also = [(other, self.urls.card(other)) for other in dict.fromkeys(f.name for f in answer.also)]
        toc = self.blocks_toc(blocks)
        faces = [TocEntry(f"{v['set_name']} ({v['face'].id})", "#" + v["anchor"]) for v in versions]
        return Page(page, "card.html", name, {"name": name, "versions": versions, "blocks": blocks, "also": also},
                    toc=toc if len(toc) > 2 else [], spare_toc=[] if len(toc) > 2 else faces + toc)

    def _lookup(self, page: str, heading: str, kind: str, blocks: list[tuple[str, str, list[dict[str, Any]]]],
                **values: str) -> Page:
        toc = self.blocks_toc(blocks)  # more than two entries, or (spare) the page proves long
        return Page(page, "lookup.html", heading, {"heading": heading, "kind": kind, "blocks": blocks, **values},
                    toc=toc if len(toc) > 2 else [], spare_toc=[] if len(toc) > 2 else toc)

    def term_page(self, key: str) -> Page:
        """A term's page: the answer `rulings term` gives (kb.read.lookup)."""
        answer = self.reader.term_named(key)
        page = answer.url  # (where the build put it: kb.builder.addresses)
        section_link = (Urls.href(page, self.plan.section_home[answer.section_id], "s:" + answer.section_id)
                        if answer.section_id in self.plan.section_home else "")
        return self._lookup(page, answer.name, "Term", [
            ("Definition", "definition", self.grouped(page, answer.definitions, True, "definition")),
            ("Rulings by Term", "by-term", self.grouped(page, answer.by_term, True, "by-term")),
            ("Under its CRF headings", "headings", self.grouped(page, answer.under_headings, True, "headings")),
            ("CoE rules titled by it", "rules", self.grouped(page, answer.rules, True, "rules")),
            ("Used in", "used-in", self.grouped(page, answer.used_in, False, "used-in"))], section_link=section_link)

    def phase_page(self, phase_id: str) -> Page:
        """A phase's page: the answer `rulings phase` gives (kb.read.lookup), those under its headings first."""
        answer = self.reader.phase_named(phase_id)
        page = answer.url
        return self._lookup(page, answer.name, "Phase", [
            ("Rulings under this phase's headings", "headings",
             self.grouped(page, list(answer.headings), True, "headings")),
            ("Rulings that speak of it elsewhere", "elsewhere", self.grouped(page, list(answer.elsewhere), False,
                                                                             "elsewhere"))])

    def number_page(self, kind: str, number: str) -> Page:
        """An annotation's or a rule's page: the answer `rulings annotation` or `rulings rule` gives
        (kb.read.lookup)."""
        answer = self.numbered(kind, number)
        page = answer.url or self.urls.known(kind, number) or ""
        label = f"Annotation {answer.number}" if kind == "annotation" else f"Rule {answer.number}"
        return self._lookup(page, label, kind.title(), [
            ("Its text" if kind == "rule" else "In every CRF edition", "text",  # (the h1 is the rule's number)
             self.grouped(page, answer.rulings, True, "text")),
            ("Its parts", "parts", self.grouped(page, answer.parts, False, "parts")),
            ("Cited by", "cited-by", self.grouped(page, answer.cited_by, False, "cited-by"))],
            anchor=anchor(f"{kind}-{number}"))


    def numbered(self, kind: str, number: str) -> NumberAnswer:
        """An annotation's or a rule's answer (kb.read.lookup), asked once for its page and its index."""
        key = (kind, number)
        if key not in self._numbered:
            self._numbered[key] = self.reader.numbered(kind, number)
        return self._numbered[key]


def credits_anchor(source_id: str) -> str:
    """Where a source's entry is on the credits page: its file, origin and licence."""
    return "src-" + source_id

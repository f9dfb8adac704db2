"""The static rulings site: reads the whole knowledge base, plans every page, renders them with
Jinja2, validates every internal link and anchor, then swaps the finished site into place.

Pages: home, one per document (long ones split by top-level section), card, term, phase,
annotation and rule, the indexes of each, search (offline: site/assets/search.js runs the
knowledge base's own search data, shipped as `search-data.js`) and credits. Every ruling sits on
exactly one page (its home) under an anchor that is its id.
"""

from __future__ import annotations

import gzip
import html
import json
import os
import posixpath
import re
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.addresses import Addresses
from kb.errors import KbError
from kb.lexicon import Lexicon
from kb.phases import PHASE_NAMES
from kb.query import fold
from kb.render import Span, SpanFinder, TextRenderer
from kb.searchdata import reference_spans
from kb.searchspec import SPEC, SearchSpec
from kb.store import CURRENT, LEXICON, connect, query
from kb.urls import Urls, anchor

SITE_DIR = Path(__file__).resolve().parent.parent / "site"
EXCERPT = 220
PHASE_ORDER = list(PHASE_NAMES)


class SiteError(KbError):
    """The site could not be generated (no templates, broken links under --strict, bad output folder)."""


@dataclass(slots=True)
class SiteReport:
    """What `rulings site` made."""

    out: Path
    pages: int = 0
    files: int = 0
    bytes: int = 0
    gzip_bytes: int = 0
    index_bytes: int = 0
    index_gzip_bytes: int = 0
    links_checked: int = 0
    broken: list[str] = field(default_factory=list)
    seconds: float = 0.0


@dataclass(slots=True)
class Corpus:
    """Everything the site shows, read once from the knowledge base."""

    sources: list[dict[str, Any]]
    rulings: dict[str, dict[str, Any]]
    sections: dict[str, list[dict[str, Any]]]
    links: dict[str, list[dict[str, str]]]
    backlinks: dict[tuple[str, str], list[str]]
    cards: dict[str, list[dict[str, Any]]]
    terms: list[dict[str, Any]]
    lexicon: Lexicon
    notes: dict[str, list[str]] = field(default_factory=dict)
    """ruling id -> the notes `rulings check` makes on its source text (a rule numbered out of sequence)."""


def read_corpus(kb_dir: Path) -> Corpus:
    """Read every table the site needs from the current knowledge base."""
    conn = connect(kb_dir)
    sources = query(conn, "select * from sources order by rowid")
    rank = {s["id"]: i for i, s in enumerate(sources)}
    rows = query(conn, "select id, source, game, section, kind, number, title, text, line_start, line_end, markers, "
                       "ord, parent from rulings")
    rows.sort(key=lambda r: (rank[r["source"]], r["ord"]))
    sections: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in query(conn, "select * from sections order by ord"):
        sections[s["source"]].append(s)
    links: dict[str, list[dict[str, str]]] = defaultdict(list)
    backlinks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for link in query(conn, "select ruling_id, kind, target, how from links order by rowid"):
        links[link["ruling_id"]].append(link)
        backlinks[(link["kind"], link["target"].lower() if link["kind"] in ("annotation", "rule") else link["target"])
                  ].append(link["ruling_id"])
    cards: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in query(conn, "select * from cards order by set_code, id"):
        cards[c["name"]].append(c)
    terms = query(conn, "select * from terms order by name")
    lexicon_file = kb_dir / CURRENT / LEXICON
    try:
        lexicon = Lexicon.from_json(json.loads(lexicon_file.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SiteError(f"{lexicon_file}: cannot read the card lexicon ({exc.__class__.__name__}: {exc}); "
                        "run `rulings build`") from exc
    return Corpus(sources, {r["id"]: r for r in rows}, dict(sections), dict(links), dict(backlinks), dict(cards),
                  terms, lexicon, notes_by_ruling(query(conn, "select source, line, message from problems "
                                                             "where severity = 'note'"), rows))


def notes_by_ruling(notes: list[dict[str, Any]], rulings: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Each note on a source line, given to the ruling whose lines hold it."""
    out: dict[str, list[str]] = defaultdict(list)
    for note in notes:
        for r in rulings:
            if r["source"] == note["source"] and r["line_start"] <= (note["line"] or 0) <= r["line_end"]:
                out[r["id"]].append(note["message"])
                break
    return dict(out)


# -- planning: every page and every ruling's home --------------------------------------------------

@dataclass(slots=True)
class Page:
    """One page to render: its path, template and the values the template needs."""

    path: str
    template: str
    title: str
    values: dict[str, Any] = field(default_factory=dict)


class Site:
    """Every page of one corpus: where each lives (planned before any is made) and what it shows."""

    def __init__(self, corpus: Corpus) -> None:
        self.c = corpus
        self.home: dict[str, str] = {}
        """ruling id -> the page it lives on."""
        self.section_home: dict[str, str] = {}
        self.source_of = {s["id"]: s for s in corpus.sources}
        self.renderer = TextRenderer()
        self.card_names = set(corpus.cards)
        self._plan()

    # Every page path is decided here, before anything is rendered, so links can point anywhere.
    def _plan(self) -> None:
        c = self.c
        self.by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in c.rulings.values():
            self.by_source[r["source"]].append(r)
        tops = {s["id"]: list(dict.fromkeys(sec["titles"][0] for sec in c.sections.get(s["id"], [])))
                for s in c.sources}
        counts = {sid: len(rulings) for sid, rulings in self.by_source.items()}
        cards = {card["ruling_id"]: name for name in c.cards for card in c.cards[name]}
        self.addresses = Addresses.plan(c.sources, counts, tops, cards)
        self.urls = self.addresses.urls
        self.parts: dict[str, list[str]] = {}
        for s in c.sources:
            split = self.addresses.split.get(s["id"], False)
            self.parts[s["id"]] = tops[s["id"]] if split else []
            for sec in c.sections.get(s["id"], []):
                self.section_home[sec["id"]] = self.urls.document(s["id"], sec["titles"][0] if split else "")
        for r in c.rulings.values():
            self.home[r["id"]] = self.addresses.page(r)
        for t in c.terms:
            self.urls.term(t["name"])
        for p in PHASE_NAMES:
            self.urls.phase(p)
        self.annotations: dict[str, list[str]] = defaultdict(list)
        self.rules: dict[str, list[str]] = defaultdict(list)
        for r in c.rulings.values():
            if r["number"] and r["kind"] == "annotation":
                self.annotations[r["number"].lower()].append(r["id"])
            elif r["number"] and r["kind"] == "rule":
                self.rules[r["number"].lower()].append(r["id"])
        for n in sorted(self.annotations, key=number_key):
            self.urls.annotation(n)
        for n in sorted(self.rules, key=number_key):
            self.urls.rule(n)
        self.term_by_name = {t["name"]: t for t in c.terms}
        self.order = {rid: n for n, rid in enumerate(c.rulings)}
        """Document order of every ruling (sources in manifest order)."""
        self.source_rank = {s["id"]: n for n, s in enumerate(c.sources)}
        self.section_titles = {sec["id"]: list(sec["titles"]) for secs in c.sections.values() for sec in secs}
        self.in_section: dict[tuple[str, tuple[str, ...]], list[str]] = defaultdict(list)
        for r in c.rulings.values():
            self.in_section[(r["source"], tuple(r["section"]))].append(r["id"])

    # -- links in and around a ruling ----------------------------------------------------------------

    def ruling_href(self, page: str, ruling_id: str) -> str:
        return Urls.href(page, self.home[ruling_id], ruling_id)

    def _finder(self, page: str, r: dict[str, Any]) -> SpanFinder:
        """Where a run of the ruling's text names a card it links to, or cites an annotation or rule."""
        linked_cards = {k["target"] for k in self.c.links.get(r["id"], []) if k["kind"] == "card"}

        def find(text: str) -> list[Span]:
            spans: list[Span] = []
            if r["game"] == "meccg" and r["kind"] != "card" and linked_cards:
                for start, end, names in self.c.lexicon.find_spans(text):
                    name = next((n for n in names if n in linked_cards and n in self.card_names), None)
                    if name:
                        spans.append((start, end, Urls.href(page, self.urls.card(name))))
            if r["game"] == "meccg":
                for start, end, kind, number in reference_spans(text):
                    if (kind, number) == (r["kind"], (r["number"] or "").lower()):
                        continue
                    target = self.urls.known(kind, number)
                    if target:
                        spans.append((start, end, Urls.href(page, target, f"{kind}-{number}")))
            return spans
        return find

    def render_ruling(self, page: str, r: dict[str, Any], full: bool = True) -> dict[str, Any]:
        """A ruling as the templates show it: rendered text (or an excerpt), where it is, its links."""
        source = self.source_of[r["source"]]
        if full:
            text = self.renderer.render(r["text"], source["parser"], self._finder(page, r))
        else:
            plain = " ".join(r["text"].split())
            text = html.escape(plain if len(plain) <= EXCERPT else plain[:EXCERPT].rsplit(" ", 1)[0] + " …")
        return {"id": r["id"], "anchor": anchor(r["id"]), "kind": r["kind"], "number": r["number"],
                "markers": r["markers"], "section": r["section"], "text": text, "full": full,
                "source": source, "lines": (r["line_start"], r["line_end"]),
                "permalink": self.ruling_href(page, r["id"]), "on_home": self.home[r["id"]] == page,
                "links": self.link_groups(page, r) if full else [], "notes": self.c.notes.get(r["id"], []) if full else []}

    def link_groups(self, page: str, r: dict[str, Any]) -> list[tuple[str, list[tuple[str, str]]]]:
        """(label, [(text, href)]) for every cross-reference of a ruling, in a fixed order."""
        groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
        seen: set[tuple[str, str]] = set()
        for k in self.c.links.get(r["id"], []):
            kind, target = k["kind"], k["target"]
            if (kind, target) in seen:
                continue
            seen.add((kind, target))
            if kind == "card" and target in self.card_names and k["how"] != "card":
                groups["cards"].append((target, Urls.href(page, self.urls.card(target))))
            elif kind == "phase" and target in PHASE_NAMES:
                groups["phases"].append((PHASE_NAMES[target], Urls.href(page, self.urls.phase(target))))
            elif kind == "term" and target in self.term_by_name:
                groups["terms"].append((target, Urls.href(page, self.urls.term(target))))
            elif kind in ("annotation", "rule") and self.urls.known(kind, target):
                label = f"Annotation {target}" if kind == "annotation" else f"Rule {target}"
                groups["cites"].append((label, Urls.href(page, self.urls.known(kind, target) or "",
                                                         f"{kind}-{target.lower()}")))
            elif kind == "section" and target in self.section_home:
                title = " › ".join(self._section_titles(target))
                groups["see also"].append((title, Urls.href(page, self.section_home[target], "s:" + target)))
            elif kind == "edition":
                if k["how"] == "absent" or target not in self.home:
                    groups["CRF 22"].append(("not in CRF 22", ""))
                else:
                    groups["CRF 22"].append((f"{k['how']}: {target}", self.ruling_href(page, target)))
        for older in self.c.backlinks.get(("edition", r["id"]), []):
            if older in self.home:
                how = next((k["how"] for k in self.c.links.get(older, []) if k["kind"] == "edition"), "")
                groups["older edition"].append((f"{how}: {older}", self.ruling_href(page, older)))
        order = ["CRF 22", "older edition", "cites", "see also", "cards", "phases", "terms"]
        return [(label, groups[label]) for label in order if groups.get(label)]

    def _section_titles(self, section_id: str) -> list[str]:
        return self.section_titles.get(section_id, [section_id])

    def rulings_of(self, page: str, ids: list[str], full: bool = True) -> list[dict[str, Any]]:
        return [self.render_ruling(page, self.c.rulings[i], full) for i in ids if i in self.c.rulings]

    def grouped(self, page: str, ids: list[str], full: bool) -> list[dict[str, Any]]:
        """Rulings grouped by source, current editions first, each group in document order."""
        wanted = sorted(dict.fromkeys(i for i in ids if i in self.c.rulings), key=self.order.__getitem__)
        groups: dict[str, list[str]] = defaultdict(list)
        for rid in wanted:
            groups[self.c.rulings[rid]["source"]].append(rid)
        ranked = sorted(groups, key=lambda s: (not self.source_of[s]["current"], self.source_rank[s]))
        return [{"source": self.source_of[s], "rulings": self.rulings_of(page, groups[s], full)} for s in ranked]

    # -- the pages --------------------------------------------------------------------------------------

    def pages(self) -> Iterator[Page]:
        """Every page, one at a time (each is rendered and written before the next is made)."""
        yield from (self.home_page(), self.search_page(), self.credits_page())
        for s in self.c.sources:
            yield from self.document_pages(s)
        yield from (self.card_page(name) for name in sorted(self.c.cards))
        yield self.index_page("cards.html", "Cards", [
            (name, self.urls.card(name), self._card_line(name)) for name in sorted(self.c.cards, key=fold)])
        yield from (self.term_page(t) for t in self.c.terms)
        yield self.index_page("terms.html", "Terms", [
            (t["name"], self.urls.term(t["name"]), "") for t in sorted(self.c.terms, key=lambda t: fold(t["name"]))])
        yield from (self.phase_page(p) for p in PHASE_NAMES)
        yield from (self.number_page("annotation", n) for n in self.annotations)
        yield self.index_page("annotations.html", "Annotations", [
            (f"Annotation {self.c.rulings[ids[0]]['number']}", self.urls.annotation(n),
             ", ".join(self.source_of[self.c.rulings[i]["source"]]["title"] for i in ids))
            for n, ids in sorted(self.annotations.items(), key=lambda x: number_key(x[0]))])
        yield from (self.number_page("rule", n) for n in self.rules)
        yield self.index_page("rules.html", "Rule numbers", [
            (f"{self.c.rulings[ids[0]]['number']}", self.urls.rule(n),
             self._excerpt(self.c.rulings[ids[0]]["text"], 90))
            for n, ids in sorted(self.rules.items(), key=lambda x: number_key(x[0]))])

    @staticmethod
    def _excerpt(text: str, n: int) -> str:
        plain = " ".join(text.split())
        return plain if len(plain) <= n else plain[:n].rsplit(" ", 1)[0] + " …"

    def _card_line(self, name: str) -> str:
        versions = self.c.cards[name]
        return "; ".join(f"{v['set_name']} {v['alignment'] or ''} {v['type'] or ''}".strip() for v in versions)

    def home_page(self) -> Page:
        sources = [{"source": s, "href": self.urls.document(s["id"]),
                    "count": len(self.by_source.get(s["id"], []))} for s in self.c.sources]
        phases = [(PHASE_NAMES[p], self.urls.phase(p)) for p in PHASE_ORDER]
        annotations = [(n, self.urls.annotation(n)) for n in sorted(self.annotations, key=number_key)]
        return Page("index.html", "home.html", "MECCG rulings", {"sources": sources, "phases": phases,
                                                                 "annotations": annotations})

    def search_page(self) -> Page:
        return Page("search.html", "search.html", "Search")

    def credits_page(self) -> Page:
        docs = [(s, self.urls.document(s["id"])) for s in self.c.sources]
        return Page("credits.html", "credits.html", "Credits and sources", {"docs": docs})

    def index_page(self, path: str, title: str, entries: list[tuple[str, str, str]]) -> Page:
        letters: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for name, target, note in entries:
            first = fold(name)[:1].upper()
            letters[first if first.isalpha() else "#"].append((name, Urls.href(path, target), note))
        return Page(path, "index_list.html", title, {"letters": sorted(letters.items())})

    def document_pages(self, s: dict[str, Any]) -> list[Page]:
        main = self.urls.document(s["id"])
        if s["parser"] == "cards":
            sets: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
            for name, versions in self.c.cards.items():
                for v in versions:
                    if self.c.rulings.get(v["ruling_id"], {}).get("source") != s["id"]:
                        continue  # another card database (another edition of it)
                    sets[v["set_name"] or v["set_code"]].append(
                        (v["name"], self.ruling_href(main, v["ruling_id"]), f"{v['alignment'] or ''} {v['type'] or ''}"))
            return [Page(main, "cards_source.html", s["title"], {
                "source": s, "sets": [(k, sorted(v, key=lambda e: fold(e[0]))) for k, v in sorted(sets.items())]})]
        parts = self.parts[s["id"]]
        toc = [{"titles": sec["titles"], "depth": sec["depth"],
                "href": Urls.href(main, self.section_home[sec["id"]], "s:" + sec["id"])}
               for sec in self.c.sections.get(s["id"], [])]
        if not parts:
            return [Page(main, "document.html", s["title"], {"source": s, "toc": toc,
                                                             "body": self._body(main, s, None)})]
        pages = [Page(main, "document.html", s["title"], {"source": s, "toc": toc, "body": self._body(main, s, "")})]
        for n, top in enumerate(parts):
            path = self.urls.document(s["id"], top)
            nav = {"prev": Urls.href(path, self.urls.document(s["id"], parts[n - 1])) if n else "",
                   "next": Urls.href(path, self.urls.document(s["id"], parts[n + 1])) if n + 1 < len(parts) else "",
                   "up": Urls.href(path, main)}
            pages.append(Page(path, "document.html", f"{top} — {s['title']}",
                              {"source": s, "part": top, "nav": nav, "body": self._body(path, s, top)}))
        return pages

    def _body(self, page: str, s: dict[str, Any], part: str | None) -> list[dict[str, Any]]:
        """Headings and rulings of a document (or one top-level part) in line order.

        part None: the whole document; "": only what lies outside every top-level section.
        """
        items: list[tuple[int, int, int, dict[str, Any]]] = []
        for sec in self.c.sections.get(s["id"], []):
            if part is None or (part and sec["titles"][0] == part):
                items.append((sec["line_start"], 0, sec["ord"], {"heading": sec["titles"][-1], "depth": sec["depth"],
                                                                 "anchor": anchor("s:" + sec["id"])}))
        for r in self.by_source.get(s["id"], []):
            top = r["section"][0] if r["section"] else ""
            if part is None or top == part:
                items.append((r["line_start"], 1, r["ord"], {"ruling": self.render_ruling(page, r)}))
        return [item for *_, item in sorted(items, key=lambda x: x[:3])]

    def card_page(self, name: str) -> Page:
        page = self.urls.card(name)
        versions = []
        for v in self.c.cards[name]:
            r = self.c.rulings.get(v["ruling_id"])
            versions.append({"card": v, "anchor": anchor(v["ruling_id"]), "ruling": r,
                             "text": self.renderer.render(r["text"], "cards", lambda t: []) if r else "",
                             "others": {k: n for k, n in v["names"].items() if k != "en" and n != name}})
        about = [rid for rid in self.c.backlinks.get(("card", name), [])
                 if any(k["kind"] == "card" and k["target"] == name and k["how"] == "about"
                        for k in self.c.links.get(rid, []))]
        mentions = [rid for rid in self.c.backlinks.get(("card", name), [])
                    if rid not in about and self.c.rulings.get(rid, {}).get("kind") != "card"]
        return Page(page, "card.html", name, {"name": name, "versions": versions,
                                              "about": self.grouped(page, about, True),
                                              "mentions": self.grouped(page, mentions, False)})

    def term_page(self, t: dict[str, Any]) -> Page:
        page = self.urls.term(t["name"])
        definitions = [t["definition"]] if t["definition"] else []
        section = []
        if t["section_id"] in self.section_titles:
            key = (t["section_id"].split("/", 1)[0], tuple(self.section_titles[t["section_id"]]))
            section = self.in_section.get(key, [])
        shown = set(definitions) | set(section)
        users = [rid for rid in self.c.backlinks.get(("term", t["name"]), []) if rid not in shown]
        section_link = (Urls.href(page, self.section_home[t["section_id"]], "s:" + t["section_id"])
                        if t["section_id"] in self.section_home else "")
        return Page(page, "lookup.html", t["name"], {
            "heading": t["name"], "kind": "Term", "blocks": [
                ("Definition", self.grouped(page, definitions, True)),
                ("Rulings by Term", self.grouped(page, section, True)),
                ("Used in", self.grouped(page, users, False))],
            "section_link": section_link})

    def phase_page(self, phase_id: str) -> Page:
        page = self.urls.phase(phase_id)
        by_section: list[str] = []
        by_text: list[str] = []
        for rid in dict.fromkeys(self.c.backlinks.get(("phase", phase_id), [])):
            how = {k["how"] for k in self.c.links.get(rid, []) if k["kind"] == "phase" and k["target"] == phase_id}
            (by_section if "section" in how else by_text).append(rid)
        return Page(page, "lookup.html", PHASE_NAMES[phase_id], {
            "heading": PHASE_NAMES[phase_id], "kind": "Phase", "blocks": [
                ("Rulings under this phase's headings", self.grouped(page, by_section, True)),
                ("Rulings that speak of it elsewhere", self.grouped(page, by_text, False))]})

    def number_page(self, kind: str, number: str) -> Page:
        table = self.annotations if kind == "annotation" else self.rules
        page = self.urls.annotation(number) if kind == "annotation" else self.urls.rule(number)
        ids = table[number]
        shown = self.c.rulings[ids[0]]["number"]
        parts = [i for n in sorted(table, key=number_key) if n.startswith(number + ".") for i in table[n]]
        cites = self.c.backlinks.get((kind, number), [])
        label = f"Annotation {shown}" if kind == "annotation" else f"Rule {shown}"
        return Page(page, "lookup.html", label, {
            "heading": label, "kind": kind.title(), "anchor": anchor(f"{kind}-{number}"), "blocks": [
                (label if kind == "rule" else "In every CRF edition", self.grouped(page, ids, True)),
                ("Its parts", self.grouped(page, parts, False)),
                ("Cited by", self.grouped(page, cites, False))]})


def number_key(number: str) -> list[tuple[int, str]]:
    """Natural order for "9", "9a", "10" and "2.IV.iii"."""
    return [(int(m.group(1)), m.group(2)) if (m := re.match(r"(\d+)(.*)", p)) else (10**6, p)
            for p in number.lower().split(".")]


# -- rendering, checking, writing ----------------------------------------------------------------------

def browser_data(kb_dir: Path, site: Site) -> dict[str, Any]:
    """What the browser's search runs on: the knowledge base's own search data (kb.searchspec),
    which site/assets/search.js executes step by step as kb.search does, plus what only the site
    knows, under "site": the page of every document and every card.

    "site" holds "pages" (each page path once), "doc_pages" (parallel to the documents: an index
    into pages), "anchors" (a document's anchor where it is not its id) and "cards" (English name ->
    an index into pages).
    """
    spec = SearchSpec.load(kb_dir / CURRENT / SPEC).raw
    pages: dict[str, int] = {}
    doc_pages: list[int] = []
    anchors: dict[str, str] = {}
    for n, doc in enumerate(spec["docs"]):
        rid = doc[0]
        if rid not in site.home:
            raise SiteError(f"{kb_dir / CURRENT / SPEC}: ruling {rid} has no page; run `rulings build` again")
        doc_pages.append(pages.setdefault(site.home[rid], len(pages)))
        if anchor(rid) != rid:
            anchors[str(n)] = anchor(rid)
    cards = {name: pages.setdefault(site.urls.card(name), len(pages)) for name in sorted(site.c.cards)}
    return {**spec, "site": {"pages": list(pages), "doc_pages": doc_pages, "anchors": anchors, "cards": cards}}


HREF = re.compile(r'\b(?:href|src)="([^"]*)"')
ID = re.compile(r'\bid="([^"]*)"')


@dataclass(slots=True)
class LinkIndex:
    """What the link check needs of every file: its anchors and its links (not its text)."""

    ids: dict[str, set[str]] = field(default_factory=dict)
    links: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, text: str) -> None:
        if path.endswith(".html"):
            self.ids[path] = set(ID.findall(text))
            self.links[path] = sorted({html.unescape(h) for h in HREF.findall(text)})
        else:
            self.ids[path] = set()

    def check(self) -> tuple[int, list[str]]:
        """Every internal href/src resolves to a file, and its #anchor to an id there."""
        broken, checked = [], 0
        for path, hrefs in self.links.items():
            for href in hrefs:
                if re.match(r"^[a-z][a-z0-9+.-]*:", href, re.I):
                    continue  # absolute: not ours to check (the site itself makes none)
                checked += 1
                target, _, frag = href.partition("#")
                target = target.split("?", 1)[0]
                resolved = posixpath.normpath(posixpath.join(posixpath.dirname(path), target)) if target else path
                if resolved not in self.ids:
                    broken.append(f"{path}: link to missing page {href}")
                elif frag and frag not in self.ids[resolved]:
                    broken.append(f"{path}: link to missing anchor {href}")
        return checked, broken


def check_links(files: dict[str, str]) -> tuple[int, list[str]]:
    """Every internal href/src of every page resolves to a file, and its #anchor to an id there."""
    index = LinkIndex()
    for path, text in files.items():
        index.add(path, text)
    return index.check()


def render_files(kb_dir: Path, templates: Path = SITE_DIR) -> Iterator[tuple[str, str]]:
    """Every file of the site as (path, text), one at a time: pages, assets, then the search data."""
    import jinja2
    from markupsafe import Markup

    if not (templates / "templates").is_dir():
        raise SiteError(f"no site templates at {templates / 'templates'} (run from a checkout of rulings)")
    site = Site(read_corpus(kb_dir))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates / "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["safe_html"] = Markup  # only for text that kb.render has already escaped
    for page in site.pages():
        root = "../" * page.path.count("/")

        def to(target: str, fragment: str = "", _page: str = page.path) -> str:
            return Urls.href(_page, target, fragment)
        yield page.path, env.get_template(page.template).render(page=page, title=page.title, root=root, to=to,
                                                                 **page.values)
    for asset in sorted((templates / "assets").iterdir()):
        if asset.is_file():
            yield f"assets/{asset.name}", asset.read_text("utf-8")
    # "<\/" inside JSON strings is "</": the data can never close a script element, even inlined
    data = json.dumps(browser_data(kb_dir, site), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    yield "assets/search-data.js", f"window.RULINGS_DATA={data};\n"


def build_site(kb_dir: Path, out: Path, strict: bool = False) -> SiteReport:
    """Render, check and write the site into out (replaced whole, only once complete).

    out must be absent, empty or a site rulings made (kb.owned); the new site is written into a
    marked folder beside it, and what a killed run left there is removed first. A failure to write
    (disk full, permission denied) is WriteFailed, one line, with the previous site in place.
    """
    from kb.errors import ForeignFolder, WriteFailed
    from kb.owned import check_replaceable, die_at, left_over, mark, read_mark, remove

    started = time.perf_counter()
    out = out.absolute()
    check_replaceable(out, "site", "choose another --out, or empty it")
    report = SiteReport(out)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    made = False
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        for entry in sorted(out.parent.iterdir()):
            if entry.name.startswith(f".{out.name}.") and left_over(entry, "site"):
                if entry.name.startswith(f".{out.name}.old-") and not out.exists():
                    entry.rename(out)  # a run killed between its two renames: the previous site comes back
                    mark(out, "site")
                else:
                    remove(entry, "site")  # a killed run's half-written site
        for mine in (tmp, old):
            if mine.exists() and not remove(mine, "site"):
                raise ForeignFolder(f"{mine} is in the way and rulings did not make it; remove it")
        tmp.mkdir()
        made = True
        mark(tmp, "site", os.getpid())
        _write_site(kb_dir, tmp, report)
        if strict and report.broken:
            raise SiteError(f"{len(report.broken)} broken internal links, first: {report.broken[0]}")
        die_at("site-written")  # the new site stays marked as being written until it is in place
        if out.exists():
            if read_mark(out, "site") is not None:
                mark(out, "site", os.getpid())  # being replaced: a kill from here on leaves it recognisable
            out.rename(old)
            die_at("site-moved")
            try:
                tmp.rename(out)
            except OSError:
                old.rename(out)
                raise
            if not remove(old, "site"):
                old.rmdir()  # the empty folder that was there
        else:
            tmp.rename(out)
        made = False
        mark(out, "site")
    except OSError as exc:
        writable = out.parent if out.parent.is_dir() else next(p for p in out.parents if p.is_dir())
        raise WriteFailed.of(exc, "the site", out, writable, "run `rulings site` again",
                             "the previous site is still in place") from exc
    finally:
        if made:
            remove(tmp, "site")
    report.seconds = time.perf_counter() - started
    return report


def _write_site(kb_dir: Path, folder: Path, report: SiteReport) -> None:
    """Write every file of the site into folder, counting them into report, and check every link."""
    links = LinkIndex()
    # pages are written as they are rendered (memory stays bounded); the caller swaps the site in
    # only once every link has been checked
    for path, text in render_files(kb_dir):
        target = (folder / path).resolve()
        if not target.is_relative_to(folder.resolve()):
            raise SiteError(f"page path {path!r} would leave the output folder")
        target.parent.mkdir(parents=True, exist_ok=True)
        data = text.encode("utf-8")
        target.write_bytes(data)
        links.add(path, text)
        report.files += 1
        report.pages += path.endswith(".html")
        report.bytes += len(data)
        report.gzip_bytes += len(gzip.compress(data, 6))
        if path == "assets/search-data.js":
            report.index_bytes, report.index_gzip_bytes = len(data), len(gzip.compress(data, 6))
    report.links_checked, report.broken = links.check()

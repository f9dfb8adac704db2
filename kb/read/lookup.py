"""The read model: every answer a reader gives (a ruling, a card, a term, a phase, an annotation or
rule, what changed, a search) as small typed values read from one build, each ruling in the one
shape of kb/data/schema/ruling.json; the terminal, the site and the deck check all show these.

Each answer is read from one build (kb.store.snapshot): a Reader opens a build once and reads everything
from it; the functions below take a knowledge-base folder or a Snapshot and open a Reader on it."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from kb.errors import KbBroken, NotFound, Refused, quoted, require
from kb.store.reading import Reading, clean_heading
from kb.read.ruling import Ruling, groups_json, rulings_json
from kb.store.snapshot import Kb, Snapshot
from kb.store.store import CARD_PARTS, query
from kb.keys import cased_numbers, numbers_meant, page_key

if TYPE_CHECKING:
    from kb.builder.addresses import Addresses
    from kb.read.answers import (CardAnswer, CardRulings, CardsAnswer, LinkTo, PhaseAnswer, RulingAnswer, RulingLinks,
                                 Term, TermAnswer)
    from kb.builder.cardface import CardFace
    from kb.builder.changes import Change, ChangesAnswer
    from kb.model import Card, Link
    from kb.read.documents import Document, Edition
    from kb.search.searchspec import SearchSpec

RULING_COLUMNS = "r.id, r.source, r.game, r.section, r.kind, r.number, r.title, r.text, r.line_start, " \
                 "r.line_end, r.markers, r.ord, r.incomplete, (select page || '#' || anchor from addresses " \
                 "where kind = 'ruling' and key = r.id and part = '') as url"
RULING_FIELDS = ("id", "source", "source_title", "edition", "current", "game", "section", "kind", "number", "title",
                 "text", "markdown", "lines", "markers", "url", "incomplete")
"""The fields of a ruling in every command's JSON (kb/data/schema/ruling.json), in this order."""
CARD_COLUMNS = "ruling_id, id, set_code, set_name, name, names, type, alignment, text, attributes, (select page from " \
               "addresses a where a.kind = 'card' and a.key = cards.name and a.part = '') as page"
"""A card's columns and its page on the site (as the build stored it: kb.builder.addresses)."""

PAGED = ("card", "phase", "term", "annotation", "rule")
"""The kinds of link whose target has a page of its own on the site."""

MAX_ID = 80
"""Longer input is no ruling id or number (and would make too long a LIKE pattern)."""


def _like_prefix(text: str) -> str:
    """A LIKE pattern for "starts with text", its % and _ taken literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


# -- the answer to a number (the others: kb.read.answers) ------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NumberAnswer:
    """An annotation or a rule by number: its rulings (one per edition), its parts, and every ruling citing it."""

    kind: str
    number: str
    """As its source writes it ("2.IV.iii", "25a")."""
    rulings: tuple[Ruling, ...]
    parts: tuple[Ruling, ...]
    cited_by: tuple[Ruling, ...]
    url: str | None
    """Its page on the site ("annotation/18.html"); None for a number only its parts have ("2.IV")."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "number": self.number, "url": self.url, "rulings": rulings_json(self.rulings),
                "parts": rulings_json(self.parts),
                "cited_by": groups_json(self.cited_by)}


# -- the reader -------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SourceInfo:
    """What a ruling shows of its source."""

    title: str
    edition: str
    current: bool
    parser: str
    rank: int
    """Its place in the manifest."""
    kind: str = ""
    """CRF, official rules, ... (the manifest's kind: "CRF 22" is its kind and edition)."""


def search_spec(kb: Kb) -> SearchSpec:
    """The search data of a build, as its searcher holds it (kb.search.search.open_searcher: the one copy a
    process reads of each build, for a search and for every lookup that reads names)."""
    from kb.search.search import open_searcher

    return open_searcher(kb).spec


class Reader:
    """Every answer of one build, read from its database as asked: each ruling read once and kept,
    the sources, the site plan and the notes read when first needed. The terminal opens one per
    command; the site one for every page."""

    def __init__(self, kb: Kb) -> None:
        self._kb = kb
        self._snapshot: Snapshot | None = None
        self._conn: sqlite3.Connection | None = None
        self._sources: dict[str, SourceInfo] | None = None
        self._addresses: Addresses | None = None
        self._notes: dict[str, tuple[str, ...]] | None = None
        self._rulings: dict[str, Ruling] = {}
        self._terms: dict[str, Term] | None = None
        self._said: dict[tuple[str, ...], CardRulings] = {}
        self._faces: dict[str, list[CardFace]] | None = None
        """Every card's printings by name, once every_face() has read them all (the site)."""
        self._spec: SearchSpec | None = None
        self._numbers: dict[str, tuple[list[tuple[str, str, str]], dict[str, list[str]]]] = {}

    @classmethod
    def of(cls, kb: KbOrReader) -> Reader:
        """kb itself when it is a Reader, else a Reader of that build."""
        return kb if isinstance(kb, Reader) else cls(kb)

    # -- what every answer is made of ---------------------------------------------------------------

    def search(self, text: str, *, limit: int = 10, game: str | None = None, source: str | None = None,
               raw: bool = False) -> Found:
        """The rulings of this build that answer a question (the module's search)."""
        return search(self.snapshot, text, limit=limit, game=game, source=source, raw=raw)

    @property
    def snapshot(self) -> Snapshot:
        """The build read, opened when first needed (a name refused as typed opens nothing)."""
        if self._snapshot is None:
            self._snapshot = Snapshot.of(self._kb)
        return self._snapshot

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = self.snapshot.connect()
        return self._conn

    @property
    def sources(self) -> dict[str, SourceInfo]:
        """Every source by id, in manifest order."""
        if self._sources is None:
            self._sources = {s["id"]: SourceInfo(s["title"], s["edition"], bool(s["current"]), s["parser"], n,
                                                 s["kind"])
                             for n, s in enumerate(query(self.conn, "select id, title, edition, current, parser, kind "
                                                                    "from sources order by rowid"))}
        return self._sources

    @property
    def addresses(self) -> Addresses:
        """Where everything lives on the site, as the build stored it (kb.builder.addresses: the site's plan is
        made on it; a lookup reads only the addresses of what it shows, with their rows)."""
        from kb.builder.addresses import Addresses

        if self._addresses is None:
            self._addresses = Addresses.stored(self.conn)
        return self._addresses

    def url(self, row: dict[str, Any], what: str) -> str:
        """The stored address of a row read with RULING_COLUMNS ("url") or CARD_COLUMNS ("page"), or of
        a search document's ruling (read by its id)."""
        if what not in row:
            found = query(self.conn, "select page || '#' || anchor as url from addresses where kind = 'ruling' "
                                     "and key = ? and part = ''", (row["id"],))
            row = {"url": found[0]["url"] if found else None}
        if row[what] is None:
            raise KbBroken("the knowledge base stores no site address of a ruling or card it holds; run "
                           "`rulings build` to rebuild it")
        return str(row[what])

    def page(self, kind: str, key: str) -> str | None:
        """The stored page of a term (by name), a phase (by id), an annotation or a rule (by number): where
        the site puts it (kb.builder.addresses); None for a number with no page of its own."""
        found = query(self.conn, "select page from addresses where kind = ? and key = ? and part = ''",
                      (kind, page_key(kind, key)))
        if not found and kind in ("term", "phase"):
            raise KbBroken("the knowledge base stores no site address of a term or phase it holds; run "
                           "`rulings build` to rebuild it")
        return str(found[0]["page"]) if found else None

    @property
    def spec(self) -> SearchSpec:
        """The build's search data (its card names read names for the lookups)."""
        if self._spec is None:
            self._spec = search_spec(self.snapshot)
        return self._spec

    def notes(self) -> dict[str, tuple[str, ...]]:
        """Each note `rulings check` makes on a source's own text, given to the first ruling (in
        document order) whose lines hold its line."""
        if self._notes is None:
            found: dict[str, list[str]] = {}
            for note in query(self.conn, "select source, line, message from problems where severity = 'note' "
                                         "order by rowid"):
                held = query(self.conn, "select id from rulings where source = ? and line_start <= ? and "
                                        "line_end >= ? order by ord limit 1",
                             (note["source"], note["line"] or 0, note["line"] or 0))
                if held:
                    found.setdefault(held[0]["id"], []).append(note["message"])
            self._notes = {rid: tuple(messages) for rid, messages in found.items()}
        return self._notes

    def shape(self, row: dict[str, Any]) -> Ruling:
        """A ruling from a row of the rulings table, or from a search document's data."""
        source = self.sources.get(row["source"])
        parser = source.parser if source else ""
        lines = row["lines"] if "lines" in row else (row["line_start"], row["line_end"])
        section = tuple(row["section"])
        return Ruling(
            id=row["id"], source=row["source"],
            source_title=row["source_title"] if "source_title" in row else source.title if source else "",
            edition=row["edition"] if "edition" in row else source.edition if source else "",
            current=bool(row["current"] if "current" in row else source and source.current),
            game=row["game"], section=section, kind=row["kind"], number=row["number"] or None,
            title=row["title"] or None, stored=row["text"], parser=parser, lines=(int(lines[0]), int(lines[1])),
            markers=tuple(row["markers"]), url=self.url(row, "url"),
            ord=int(row.get("ord") or 0), notes=self.notes().get(row["id"], ()), incomplete=row.get("incomplete") or "")

    def _order(self, r: Ruling) -> tuple[bool, int, int]:
        return not r.current, self.sources[r.source].rank, r.ord

    def rulings(self, ids: Iterable[str]) -> list[Ruling]:
        """Rulings by id (each once, unknown ids left out), current editions first, then in source
        and document order."""
        wanted = list(dict.fromkeys(ids))
        missing = [i for i in wanted if i not in self._rulings]
        for at in range(0, len(missing), 500):
            chunk = missing[at:at + 500]
            for row in query(self.conn, f"select {RULING_COLUMNS} from rulings r where r.id in "
                                        f"({','.join('?' * len(chunk))})", tuple(chunk)):
                self._rulings[row["id"]] = self.shape(row)
        return sorted((self._rulings[i] for i in wanted if i in self._rulings), key=self._order)

    def every(self) -> list[Ruling]:
        """Every ruling, sources in manifest order, each in document order."""
        rows = query(self.conn, f"select {RULING_COLUMNS} from rulings r join sources s on s.id = r.source "
                                "order by s.rowid, r.ord")
        out = []
        for row in rows:
            if row["id"] not in self._rulings:
                self._rulings[row["id"]] = self.shape(row)
            out.append(self._rulings[row["id"]])
        return out

    def faces(self, names: Iterable[str]) -> list[CardFace]:
        """Every printing of the cards of these English names, by set and id."""
        names = list(names)
        if not names:
            return []
        if self._faces is not None:
            return sorted((f for name in dict.fromkeys(names) for f in self._faces.get(name, [])),
                          key=lambda f: (f.set_code, f.id))
        rows = query(self.conn, f"select {CARD_COLUMNS} from cards where name in ({','.join('?' * len(names))}) "
                                "order by set_code, id", tuple(names))
        return self._faces_of(rows)

    def _faces_of(self, rows: list[dict[str, Any]]) -> list[CardFace]:
        """The faces of rows of the cards table, each with its card's page on the site."""
        from kb.builder.cardface import CardFace  # (only here: most lookups show no card)

        return [CardFace.of(r, self.url(r, "page")) for r in rows]

    def every_face(self) -> list[CardFace]:
        """Every printing of every card, by set and id (kept: faces() then reads no more)."""
        faces = self._faces_of(query(self.conn, f"select {CARD_COLUMNS} from cards order by set_code, id"))
        self._faces = {}
        for face in faces:
            self._faces.setdefault(face.name, []).append(face)
        return faces

    # -- the documents, the cards and the rules whole ----------------------------------------------------

    def documents(self) -> list[Document]:
        """Every document in manifest order, each with its headings in order."""
        from dataclasses import fields

        from kb.model import Section, Span
        from kb.read.documents import Document, SourceRow

        names = [f.name for f in fields(SourceRow)]
        sections: dict[str, list[Section]] = {}
        for s in query(self.conn, "select * from sections order by ord"):
            sections.setdefault(s["source"], []).append(Section(
                s["id"], s["source"], tuple(s["titles"]), Span(s["line_start"], s["line_end"]), s["ord"]))
        return [Document(SourceRow(**{**{n: s[n] if s.get(n) is not None else "" for n in names},
                                      "current": bool(s["current"]), "line_count": s["line_count"],
                                      "rulings": s["rulings"]}), tuple(sections.get(s["id"], ())))
                for s in query(self.conn, "select * from sources order by rowid")]

    def links(self) -> list[Link]:
        """Every cross-reference, as the build stored them."""
        from kb.model import Link

        return [Link(k["ruling_id"], k["kind"], k["target"], k["how"], tuple((a, b) for a, b in k["spans"]))
                for k in query(self.conn, "select ruling_id, kind, target, how, spans from links order by rowid")]

    def every_change(self) -> list[Change]:
        """What changed in the current CRF (kb.builder.changes), in the order shown."""
        from kb.builder.changes import from_row

        return [from_row(row) for row in query(self.conn, "select * from changes order by ord")]

    def card_records(self) -> list[Card]:
        """Every printing as the build stored it (kb.model.Card: what the card database gives), by set and id."""
        from kb.model import Card

        return [Card(r["id"], r["set_code"], r["set_name"], r["names"], r["type"], r["alignment"], r["text"] or "",
                     r["text_html"] or "", r["attributes"], r["ruling_id"])
                for r in query(self.conn, "select id, set_code, set_name, names, type, alignment, text, text_html, "
                                          "attributes, ruling_id from cards order by set_code, id")]

    def coe_rules(self, numbers: Iterable[str]) -> dict[str, Ruling]:
        """The stored rule of each of these numbers in the current CoE rules (the first so numbered, in
        document order); a number not stored is left out."""
        numbers = tuple(numbers)
        first: dict[str, str] = {}
        for r in query(self.conn, f"select r.number, r.id from rulings r join sources s on s.id = r.source where "
                                  f"s.parser = 'coe_rules' and s.current = 1 and r.kind = 'rule' and r.number in "
                                  f"({','.join('?' * len(numbers))}) order by s.rowid, r.ord", numbers):
            first.setdefault(r["number"], r["id"])
        found = {r.id: r for r in self.rulings(first.values())}
        return {number: found[rid] for number, rid in first.items()}

    def current_crf(self) -> Edition | None:
        """The current CRF's edition (the first current one, in manifest order), None without one."""
        from kb.read.documents import Edition

        crf = query(self.conn, "select id, title, edition, date from sources where parser = 'crf' and current = 1 "
                               "order by rowid limit 1")
        return Edition(crf[0]["id"], crf[0]["title"], crf[0]["edition"], crf[0]["date"]) if crf else None

    def built_at(self) -> str:
        """When the build was made ("" if it does not say)."""
        built = query(self.conn, "select value from meta where key = 'built_at'")
        return str(built[0]["value"]) if built else ""

    def _linked(self, kind: str, target: str) -> list[dict[str, Any]]:
        return query(self.conn, "select ruling_id, how from links where kind = ? and target = ? order by rowid",
                     (kind, target))

    # -- a card ---------------------------------------------------------------------------------------

    def card(self, typed: str) -> CardAnswer | CardsAnswer:
        """A card by any language's name (accents, hyphens, plurals, typos and a question's words
        forgiven): every printing's face, its errata, its CRF rulings, and every ruling that mentions
        it; with an exact name, the other cards it begins. A CRF keyword heading's name ("mind ring")
        is every card it covers. A name a few cards share ("khamul") is each card's answer
        (CardsAnswer); one that could be more cards raises Ambiguous listing them; a miss raises
        NotFound with the nearest names."""
        from kb.search import resolve
        from kb.search.query import fold

        keyword = self._keyword(typed)
        if keyword:
            return keyword
        versions: dict[str, list[dict[str, Any]]] = {}
        for c in query(self.conn, "select id, name, set_name, type, alignment from cards order by set_code, id"):
            versions.setdefault(c["name"], []).append(c)
        match = resolve.card(typed, self.spec, versions)
        if match.each:
            from kb.read.answers import CardsAnswer

            return CardsAnswer(typed, match.read_as, tuple(self.card_named(n) for n in sorted(match.names, key=fold)))
        return self._card(typed, match.read_as, sorted(match.names), match.also)

    def _keyword(self, typed: str) -> CardAnswer | None:
        """The cards of the CRF keyword heading a name stands for ("mind ring": Binding-ring, Thrall-ring,
        Troth-ring, as the build read the heading: card_keywords), or None."""
        from kb.search.query import fold

        rows = query(self.conn, "select k.heading, h.card from card_keywords k join card_headings h on h.heading = "
                                "k.heading where k.key = ? order by h.rowid", (fold(typed),))
        if not rows:
            return None
        return self._card(typed, f"{quoted(typed)} read as the cards of the CRF heading {rows[0]['heading']}",
                          sorted(dict.fromkeys(r["card"] for r in rows)), [])

    def card_named(self, name: str) -> CardAnswer:
        """The card of this English name (its page on the site), as card() answers it exactly."""
        from kb.search.query import fold
        from kb.search.resolve import begun_by

        return self._card(name, "", [name], begun_by(fold(name), self.spec, [name]))

    def _card(self, typed: str, read_as: str, names: list[str], also: list[str]) -> CardAnswer:
        from kb.read.answers import CardAnswer
        faces = self.faces(also)
        return CardAnswer(typed, read_as, tuple(names), tuple(self.faces(names)),
                          tuple(f for name in also for f in faces if f.name == name), self.card_rulings(names))

    def card_rulings(self, names: Iterable[str]) -> CardRulings:
        """What is said about the cards of these English names (CardRulings), from the links to
        them: its own rulings (how "about"), errata apart, and the other rulings that mention it,
        its own card text aside (how "card": the face shows it). Kept per names."""
        from kb.read.answers import CardRulings
        key = tuple(names)
        if key not in self._said:
            rows = query(self.conn, f"select ruling_id, part from card_answers where card in "
                                    f"({','.join('?' * len(key))}) order by ord", key) if key else []
            parts: dict[str, list[str]] = {part: [] for part in CARD_PARTS}
            for row in rows:
                parts[row["part"]].append(row["ruling_id"])
            said = set(parts["card"] + parts["erratum"] + parts["ruling"])  # of several cards: a mention of one
            self._said[key] = CardRulings(                                  # about another is said once
                tuple(self.rulings(parts["erratum"])), tuple(self.rulings(parts["ruling"])),
                tuple(self.rulings(i for i in parts["mention"] if i not in said)))
        return self._said[key]

    # -- a term ---------------------------------------------------------------------------------------

    def terms(self) -> dict[str, Term]:
        """Every game term by key, by name: the terms `rulings term` accepts, each with its page on the site."""
        from kb.read.answers import Term
        if self._terms is None:
            self._terms = {t["key"]: Term(t["key"], t["name"], t["definition"] or "", t["section_id"] or "",
                                          tuple(t["headings"] or ()), tuple(t["rules"] or ()),
                                          tuple(t["aliases"] or ()))
                           for t in query(self.conn, "select key, name, definition, section_id, headings, rules, "
                                                     "aliases from terms order by name")}
        return self._terms

    def term(self, typed: str) -> TermAnswer:
        """A term by name, another name it is asked by (a heading joined to it, "Untapping"; a step's
        parenthesis), plural, abbreviation ("GI") or near spelling; NotFound with the nearest terms
        (and, for a heading of the current CRF that is no term, where its rulings are)."""
        from kb.search import resolve
        from kb.tables import load_table

        terms = self.terms()
        owner = {k: key for key, t in terms.items() for k in (key, *t.aliases)}
        try:
            key, read_as = resolve.term(typed, {k: terms[o].name for k, o in owner.items()},
                                        load_table("abbreviations"))
        except NotFound as exc:
            raise NotFound(str(exc), hint=self._heading_hint(typed) + (exc.hint or "")) from exc
        if key != owner[key] and not read_as:
            read_as = f"{quoted(typed)} read as {terms[owner[key]].name}"
        return self._term(typed, read_as, owner[key])

    def term_named(self, key: str) -> TermAnswer:
        """The term of this key (its page on the site), as term() answers it."""
        return self._term(self.terms()[key].name, "", key)

    def _term(self, typed: str, read_as: str, key: str) -> TermAnswer:
        from kb.read.answers import TermAnswer
        t = self.terms()[key]
        definitions = self.rulings([t.definition] if t.definition else [])
        section, headings = self._under([t.section_id] if t.section_id else []), self._under(t.headings)
        rules = self.rulings(t.rules)
        shown = {r.id for r in definitions + section + headings + rules}
        users = self.rulings(r["ruling_id"] for r in self._linked("term", t.name) if r["ruling_id"] not in shown)
        return TermAnswer(typed, read_as, t.name, t.section_id, tuple(definitions), tuple(section), tuple(users),
                          str(self.page("term", t.name)), tuple(headings), tuple(rules))

    def _under(self, section_ids: Iterable[str]) -> list[Ruling]:
        """The rulings under these sections' headings, in reading order."""
        ids = tuple(section_ids)
        return self.rulings(r["id"] for r in query(
            self.conn, "select r.id from rulings r join sections s on s.source = r.source and r.section = s.titles "
                       f"where s.id in ({','.join('?' * len(ids))})", ids)) if ids else []

    def _heading_hint(self, typed: str) -> str:
        """Where a heading of the current CRF that is no term leads: "'Gandalf' is a card of the CRF's
        card rulings: `rulings card "Gandalf"`. ", "'On-Guard Cards' is a heading of the CRF (Turn
        Sequence Rulings › Site Phase), not a term. ", or "" for none."""
        from kb.builder.headings import title_key

        key = title_key(typed)
        for s in query(self.conn, "select titles, (select card from card_headings h where h.section_id = s.id) as "
                                  "card from sections s where source in (select id from sources where parser = "
                                  "'crf' and current = 1) and depth >= 2 order by ord"):
            if title_key(s["titles"][-1]) == key:
                if s["card"]:
                    return (f"{quoted(s['titles'][-1])} is a card of the CRF's card rulings: `rulings card "
                            f"\"{s['card']}\"`. ")
                return (f"{quoted(s['titles'][-1])} is a heading of the CRF ({' › '.join(s['titles'][:-1])}), "
                        "not a term. ")
        return ""

    # -- a phase, a number, a ruling ---------------------------------------------------------------------

    def phase(self, typed: str) -> PhaseAnswer:
        """Every ruling of a turn phase ("M/H", "mh", "site", "eot", "org" ...)."""
        from kb.search import resolve
        from kb.phases import PHASE_NAMES, phase_aliases

        return self.phase_named(resolve.phase(typed, PHASE_NAMES, phase_aliases()), typed)

    def phase_named(self, phase_id: str, typed: str = "") -> PhaseAnswer:
        """The phase of this id (its page on the site), as phase() answers it."""
        from kb.read.answers import PhaseAnswer
        from kb.phases import PHASE_NAMES

        links = self._linked("phase", phase_id)
        return PhaseAnswer(typed or phase_id, phase_id, PHASE_NAMES[phase_id],
                           tuple(self.rulings(r["ruling_id"] for r in links)),
                           frozenset(r["ruling_id"] for r in links if r["how"] == "section"),
                           str(self.page("phase", phase_id)))

    def numbered(self, kind: str, number: str) -> NumberAnswer:
        """An annotation or a rule by number ("25a", "2.IV.iii"), its parts, and every ruling citing
        it. "2.IV" lists 2.IV.i onward; "25" is not "25a". NotFound with the nearest numbers."""
        example = "rulings annotation 18" if kind == "annotation" else "rulings rule 2.IV.iii"
        number = require(number, f"{kind} number", example)
        wanted = page_key(kind, re.sub(r"^(?:annotation|anno)?(?:rule)?", "", number.strip(), flags=re.I).strip())
        if kind not in self._numbers:  # (each kind's numbers once: the site asks for every one)
            numbers = [(page_key(kind, r["number"]), r["number"], r["id"]) for r in query(
                self.conn, "select id, number from rulings where kind = ? and number != '' order by rowid", (kind,))]
            heads = [key.rsplit(".", n)[0] for key, _, _ in numbers
                     for n in range(key.count(".") + 1 if kind == "rule" else 1)]
            self._numbers[kind] = numbers, cased_numbers(heads)  # every number and what its parts begin ("3.I")
        numbers, cased = self._numbers[kind]
        meant = numbers_meant(wanted, cased.get(wanted.lower(), ()))  # as written, else in any case
        rows = [rid for key, _, rid in numbers if key in meant]
        under = tuple(m + "." for m in meant)  # (str.startswith tries them all)
        parts = [rid for key, _, rid in numbers if key.startswith(under)] if kind == "rule" else []
        if not rows and not parts:
            from kb.search.resolve import number_hint  # (only here: a number found reads no name)

            raise NotFound(f"no {kind} {quoted(number)}",
                           hint=number_hint(kind, wanted.lower(), list(dict.fromkeys(n for _, n, _ in numbers))))
        found = self.rulings(rows)
        key = page_key(kind, found[0].number or wanted) if found else meant[0]
        return NumberAnswer(kind, found[0].number or number if found else number, tuple(found),
                            tuple(self.rulings(parts)),
                            tuple(self.rulings(r["ruling_id"] for r in self._linked(kind, key))),
                            self.page(kind, key) if rows else None)

    def ruling(self, ruling_id: str) -> RulingAnswer:
        """One ruling whole; NotFound, with the ids it may have meant, if unknown."""
        from kb.builder.changes import from_row
        from kb.read.answers import RulingAnswer

        ruling_id = require(ruling_id, "ruling id", "rulings show crf-22.454d048a6d")
        found = self.rulings([ruling_id])
        if not found:
            # the ids it begins, else (an id without its source, "454d048a6d") those it ends
            patterns = [_like_prefix(ruling_id)] + (["%." + _like_prefix(ruling_id)] if "." not in ruling_id else [])
            near: list[dict[str, Any]] = []
            for pattern in patterns if len(ruling_id) <= MAX_ID else []:
                near = near or query(self.conn,
                                     "select id from rulings where id like ? escape '\\' order by id limit 5",
                                     (pattern,))
            hint = f"Did you mean {', '.join(r['id'] for r in near)}? " if near else ""
            raise NotFound(f"no ruling with id {quoted(ruling_id)}",
                           hint=hint + "Ids are shown by `rulings search` and every lookup (e.g. crf-22.454d048a6d).")
        ruling = found[0]
        parent = query(self.conn, "select parent from rulings where id = ?", (ruling_id,))[0]["parent"]
        parents = self.rulings([parent]) if parent else []
        parts = self.rulings(row["id"]
                             for row in query(self.conn, "select id from rulings where parent = ? order by ord",
                                                          (ruling_id,))) or self._steps_cited(ruling)
        rows = query(self.conn, "select * from changes where ruling_id = ? order by ord limit 1", (ruling_id,))
        change = from_row(rows[0]) if rows else None
        faces = [] if ruling.kind != "card" else self._faces_of(
            query(self.conn, f"select {CARD_COLUMNS} from cards where ruling_id = ?", (ruling_id,)))
        others = self.rulings([change.other_id]) if change and change.other_id else []
        return RulingAnswer(ruling, parents[0] if parents else None, self.ruling_links([ruling_id])[ruling_id],
                            faces[0] if faces else None, change, others[0] if others else None, tuple(parts))

    def _steps_cited(self, ruling: Ruling) -> list[Ruling]:
        """The steps a rule that ends with a colon opens by citing them ("proceeds through the following
        Steps 1-8 (2.IV.i-viii) ...:"): the rules of its document it cites, in their order."""
        if not ruling.reading().text.rstrip().endswith(":"):
            return []
        rows = query(self.conn, "select r.id from links l join rulings r on r.number = l.target and r.source = ? "
                     "where l.ruling_id = ? and l.kind = 'rule' and r.kind = 'rule' order by r.ord",
                     (ruling.source, ruling.id))
        return self.rulings(row["id"] for row in rows)

    def ruling_links(self, ids: Iterable[str] | None = None) -> dict[str, RulingLinks]:
        """What each of these rulings (every ruling: None) links to and what links to it, typed and grouped
        (kb.read.answers.RulingLinks: `rulings show` and the site's rulings render these): its stored links in
        the order stored, an older ruling gone from the current CRF linked to its successor with its verdict,
        then the older rulings of its wording or that it replaced, reversed or holds moved; each with its
        label and its page on the site."""
        from kb.builder.changes import edition_name, verdict_words
        from kb.read.answers import RulingLinks

        wanted = None if ids is None else tuple(dict.fromkeys(ids))
        links: dict[str, list[tuple[str, str, str]]] = {i: [] for i in wanted or ()}
        for row in self._rows_of("select ruling_id, kind, target, how from links", "ruling_id", wanted,
                                 " order by rowid"):
            links.setdefault(row["ruling_id"], []).append((row["kind"], row["target"], row["how"]))
        gone = {row["ruling_id"]: (row["other_id"] if row["verdict"] != "dropped" else "",
                                   verdict_words(row["verdict"], bool(row["unsure"]), bool(row["guess"])))
                for row in self._rows_of("select ruling_id, other_id, verdict, unsure, guess from changes where "
                                         "kind = 'absent'", "ruling_id", wanted)}
        older: dict[str, list[tuple[str, str]]] = {}
        for row in self._rows_of("select target, ruling_id, how from links where kind = 'edition' and target != ''",
                                 "target", wanted, " order by rowid"):
            older.setdefault(row["target"], []).append((row["ruling_id"], row["how"]))
        for row in self._rows_of("select other_id, ruling_id, verdict, unsure, guess from changes where kind = "
                                 "'absent' and verdict != 'dropped'", "other_id", wanted, " order by ord"):
            verdict = verdict_words(row["verdict"], bool(row["unsure"]), bool(row["guess"]), successor=True)
            older.setdefault(row["other_id"], []).append((row["ruling_id"], verdict))
        crf = next(((i, s) for i, s in self.sources.items() if s.parser == "crf" and s.current), None)
        current = edition_name(crf[1].kind, crf[1].edition) if crf else "the current CRF"
        every = {rid: [(kind, target, how) if kind != "edition" or rid not in gone else ("edition", *gone[rid])
                       for kind, target, how in rows] for rid, rows in links.items()}
        for rid, items in older.items():
            every.setdefault(rid, []).extend(("older_editions", target, how) for target, how in items)
        place = self._places([link for rows in every.values() for link in rows], wanted is None)
        return {rid: RulingLinks(tuple(self._link_to(kind, target, how, place, current, rid in gone)
                                       for kind, target, how in rows), current, crf[0] if crf else "",
                                 gone[rid][0] if rid in gone else "")
                for rid, rows in every.items()}

    def _rows_of(self, sql: str, column: str, wanted: tuple[str, ...] | None, tail: str = "") -> list[dict[str, Any]]:
        """The rows of sql whose column is one of wanted (every row: None)."""
        if wanted is None:
            return query(self.conn, sql + tail)
        joiner = " and " if " where " in sql else " where "
        return query(self.conn, f"{sql}{joiner}{column} in ({','.join('?' * len(wanted))}){tail}", wanted)

    def _places(self, links: list[tuple[str, str, str]], every: bool) -> dict[tuple[str, str], str]:
        """The site's address of what links name, read for these links only (or every one: every):
        (kind, key) -> page (and anchor), a ruling's as ("ruling", id), a section's as ("section", id) and
        its headings as a reader reads them as ("section-title", id)."""
        from kb.builder.urls import anchor
        from kb.read.answers import RULINGS

        keys = tuple({(kind, page_key(kind, target)) for kind, target, _ in links if kind in PAGED})
        rulings = tuple({target for kind, target, _ in links if kind in RULINGS and target})
        sections = tuple({target for kind, target, _ in links if kind == "section"})
        sql = "select kind, key, page from addresses where part = ''"
        rows = query(self.conn, f"{sql} and kind in ({','.join('?' * len(PAGED))})", PAGED) if every else query(
            self.conn, f"{sql} and (kind, key) in (values {','.join(['(?, ?)'] * len(keys))})",
            tuple(v for key in keys for v in key)) if keys else []
        place = {(row["kind"], row["key"]): str(row["page"]) for row in rows}
        place |= {("ruling", row["key"]): f"{row['page']}#{row['anchor']}" for row in self._rows_of(
            "select key, page, anchor from addresses where kind = 'ruling'", "key", None if every else rulings)}
        if not sections:
            return place
        documents = {(row["key"], row["part"]): str(row["page"])
                     for row in query(self.conn, "select key, part, page from addresses where kind = 'document'")}
        for row in self._rows_of("select id, source, titles from sections", "id", None if every else sections):
            page = documents.get((row["source"], row["titles"][0] if row["titles"] else ""),
                                 documents.get((row["source"], ""), ""))
            place[("section", row["id"])] = f"{page}#{anchor('s:' + row['id'])}" if page else ""
            place[("section-title", row["id"])] = " › ".join(clean_heading(t) for t in row["titles"])
        return place

    def _link_to(self, kind: str, target: str, how: str, place: dict[tuple[str, str], str], current: str,
                 gone: bool) -> LinkTo:
        """One link as readers read it (kb.read.answers.LinkTo): its label and its page."""
        from kb.builder.changes import edition_words
        from kb.builder.urls import anchor
        from kb.phases import PHASE_NAMES
        from kb.read.answers import LinkTo

        if kind in PAGED:
            page = place.get((kind, page_key(kind, target)), "")
            number = kind in ("annotation", "rule")
            label = {"phase": PHASE_NAMES.get(target, target), "annotation": f"Annotation {target}",
                     "rule": f"Rule {target}"}.get(kind, target)
            return LinkTo(kind, target, how, label, f"{page}#{anchor(f'{kind}-{target}')}" if page and number else page)
        if kind == "section":
            title = place.get(("section-title", target), target)
            return LinkTo(kind, target, how, title, place.get(("section", target), ""))
        url = place.get(("ruling", target), "")
        if kind == "same-rule":  # a ruling of another document stating the same rule: that document's title
            source = self.sources.get(target.partition(".")[0])
            return LinkTo(kind, target, how, source.title if source else target, url)
        if kind == "older_editions":
            return LinkTo(kind, target, how, edition_words(how), url)
        if gone:  # an older ruling gone from the current CRF: its verdict, and its successor (if any)
            return LinkTo(kind, target, how, how if url else f"not in {current}: {how}", url)
        if how == "absent" or not url:
            return LinkTo(kind, target, how, f"not in {current}", "")
        return LinkTo(kind, target, how, edition_words(how), url)


KbOrReader = Union[Kb, Reader]
"""A knowledge base as a reader is given it: its folder, an open Snapshot, or a Reader already open."""


# -- what each read command asks ---------------------------------------------------------------------------

def show_ruling(kb: KbOrReader, ruling_id: str) -> RulingAnswer:
    """One ruling, with what it links to, the ruling it belongs to and, for a card, the card's face."""
    return Reader.of(kb).ruling(ruling_id)


def card(kb: KbOrReader, name: str) -> CardAnswer | CardsAnswer:
    """A card by any language's name (Reader.card)."""
    return Reader.of(kb).card(name)


def phase(kb: KbOrReader, name: str) -> PhaseAnswer:
    """Every ruling of a turn phase (Reader.phase)."""
    return Reader.of(kb).phase(name)


def term(kb: KbOrReader, name: str) -> TermAnswer:
    """A term: its definition(s), its "Rulings by Term" section, and every ruling that uses it (Reader.term)."""
    return Reader.of(kb).term(name)


def numbered(kb: KbOrReader, kind: str, number: str) -> NumberAnswer:
    """An annotation or a rule by number, its parts, and every ruling citing it (Reader.numbered)."""
    return Reader.of(kb).numbered(kind, number)


def stats(kb: Kb) -> list[dict[str, Any]]:
    """Per source: title, game, edition, date, lines, and rulings by kind."""
    return _stats(Snapshot.of(kb).connect())


def _stats(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    sources = query(conn,
                    "select id, title, game, kind, edition, date, current, line_count from sources order by rowid")
    counts = query(conn, "select source, kind, count(*) as n from rulings group by source, kind order by n desc")
    for s in sources:
        s["current"] = bool(s["current"])
        s["rulings_by_kind"] = {c["kind"]: c["n"] for c in counts if c["source"] == s["id"]}
        s["rulings"] = sum(s["rulings_by_kind"].values())
    return sources


def about(kb: Kb) -> dict[str, Any]:
    """Where the knowledge base is (the folder and the build it points to), when it was built, and
    stats() per source."""
    snapshot = Snapshot.of(kb)
    conn = snapshot.connect()
    meta = {r["key"]: r["value"] for r in query(conn, "select key, value from meta")}
    return {"kb": str(snapshot.kb_dir.absolute()), "build": str(snapshot.folder),
            "built_at": meta.get("built_at", ""), "sources": _stats(conn)}


def export(kb: KbOrReader) -> Iterator[dict[str, Any]]:
    """Every ruling in the ruling shape (a card's with its face as "card"), in source and document order."""
    reader = Reader.of(kb)
    faces = {f.ruling_id: f for f in reader.every_face()}
    for ruling in reader.every():
        out = ruling.to_json()
        if ruling.id in faces:
            out["card"] = faces[ruling.id].to_json()
        yield out


# -- what changed ---------------------------------------------------------------------------------------

def changes(kb: KbOrReader, since: str | None = None, source: str | None = None,
            phase: str | None = None) -> ChangesAnswer:
    """What changed in the current CRF (kb.builder.changes: listed, marked, reworded, tagged, absent), each
    change a ruling in the ruling shape with its `change`: since a year ("2015": what the sources
    date from then on), of a source (a change a ruling of it takes part in), of a phase; with the
    current CRF's name and date. A `since` that is not a year, an unknown source or phase, is Refused."""
    from kb.search import resolve
    from kb.builder.changes import ChangesAnswer, edition_name, since_year

    year = since_year(since) if since is not None else None
    reader = Reader.of(kb)
    conn = reader.conn
    if source is not None:
        source = resolve.source(source, {s["id"]: s["title"] for s in query(conn, "select id, title from sources "
                                                                                  "order by rowid")})
    found = reader.every_change()
    if year is not None:
        found = [c for c in found if c.year is not None and c.year >= year]
    if phase is not None:
        from kb.phases import PHASE_NAMES, phase_aliases

        try:
            target = resolve.phase(phase, PHASE_NAMES, phase_aliases())
        except NotFound as exc:  # an option's value: a usage error, as an unknown --source is
            raise Refused(str(exc), hint=exc.hint) from exc
        of_phase = {r["ruling_id"] for r in query(conn, "select ruling_id from links where kind = 'phase' and "
                                                        "target = ?", (target,))}
        found = [c for c in found if of_phase.intersection(c.parties)]
    shaped = {r.id: r.to_json() for r in reader.rulings({i for c in found for i in (c.ruling_id, c.other_id) if i})}
    out = []
    for c in found:
        other = shaped.get(c.other_id)
        if source is None or source in {shaped[i]["source"] for i in c.parties}:
            out.append({**shaped[c.ruling_id], "change": c.to_json(other)})
    crf = query(conn, "select kind, edition, date from sources where parser = 'crf' and current order by rowid limit 1")
    return ChangesAnswer(out, edition_name(crf[0]["kind"], crf[0]["edition"]) if crf else "", crf[0]["date"] if crf
                         else "",
                         narrowed=any(v is not None for v in (since, source, phase)))


# -- search ---------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Found:
    """A search's answer: how the query was read, the results, and what it takes to show them."""

    kb: Snapshot
    """The build searched, which the results are shown from."""
    understanding: Any
    results: list[Any]
    spec: Any
    _reader: Reader | None = None

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = Reader(self.kb)
        return self._reader

    def ruling(self, result: Any) -> Ruling:
        """A result's ruling (from its search document's data)."""
        return self.reader.shape(result.data)

    def source_title(self, source: str) -> str:
        """A source's title, by its id (its id where the build has no such source)."""
        found = self.reader.sources.get(source)
        return found.title if found else source

    def reading(self, result: Any) -> Reading:
        """A result's text as a reader reads it (kb.store.reading.reading)."""
        return self.text_reading(result.data["text"], result.data["source"])

    def text_reading(self, text: str, source_id: str) -> Reading:
        """A text of a source as a reader reads it (kb.store.reading.reading): a result's, or an equivalent's."""
        from kb.store.reading import reading
        source = self.reader.sources.get(source_id)
        return reading(text, source.parser if source else "")

    def same_rule(self, result: Any) -> list[dict[str, str]]:
        """A result's equivalents (kb.search.search.Result.same_rule), each text as a reader reads it."""
        return [{**e, "text": self.text_reading(e["text"], e["source"]).text} for e in result.same_rule]

    def to_json(self, explain: bool = False) -> Any:
        """The results in the ruling shape plus score, also_in, same_rule and matched (and why, with explain);
        with explain, {"understanding", "results"}."""
        from dataclasses import asdict

        out = []
        for r in self.results:
            item = self.ruling(r).to_json()
            item.update({"score": round(r.score, 4), "also_in": list(r.also_in), "same_rule": self.same_rule(r),
                         "matched": list(r.matched)})
            if explain:
                item["why"] = dict(r.why)
            out.append(item)
        return {"understanding": asdict(self.understanding), "results": out} if explain else out


def search(kb: Kb, text: str, *, limit: int = 10, game: str | None = None, source: str | None = None,
           raw: bool = False) -> Found:
    """The rulings that answer a question (kb.search.search); an empty question or an unknown source is Refused."""
    from kb.search.search import open_searcher

    text = require(text, "question", 'rulings search "can a strike be cancelled after the roll"')
    snapshot = Snapshot.of(kb)
    searcher = open_searcher(snapshot)
    if source is not None:
        from kb.search import resolve  # (only here: a question reads its names with kb.search.query)
        known = {s["id"]: s["title"] for s in searcher.spec.raw["sources"]}
        source = resolve.source(source, known)
    understanding = searcher.understand(text)
    results = searcher.search(text, limit=limit, game=game, source=source, raw=raw)
    return Found(snapshot, understanding, results, searcher.spec)

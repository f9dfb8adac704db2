"""The knowledge base as the site reads it: every table it shows, read once into small typed rows."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from kb.cardface import CardFace
from kb.changes import Change, from_row
from kb.errors import SiteError
from kb.lexicon import Lexicon
from kb.model import Source
from kb.snapshot import Kb, Snapshot
from kb.store import query


@dataclass(frozen=True, slots=True)
class SourceRow(Source):
    """One document of the manifest as stored: its entry, and what the build counted in it."""

    line_count: int = 0
    rulings: int = 0


@dataclass(frozen=True, slots=True)
class SectionRow:
    """One heading of a document and where it stands."""

    id: str
    source: str
    titles: tuple[str, ...]
    """The heading's path from the top of the document, itself last."""
    depth: int
    line_start: int
    line_end: int
    ord: int


@dataclass(frozen=True, slots=True)
class RulingRow:
    """One ruling, as stored."""

    id: str
    source: str
    game: str
    section: tuple[str, ...]
    """The headings it sits under, outermost first."""
    kind: str
    number: str | None
    title: str | None
    text: str
    line_start: int
    line_end: int
    markers: tuple[str, ...]
    ord: int

    def address(self) -> dict[str, Any]:
        """What kb.addresses needs to find its page."""
        return {"id": self.id, "source": self.source, "section": list(self.section)}


@dataclass(frozen=True, slots=True)
class LinkRow:
    """One cross-reference of a ruling (kb.store SCHEMA: links)."""

    ruling_id: str
    kind: str
    target: str
    how: str


@dataclass(frozen=True, slots=True)
class CardRow:
    """One card of a card database: the face a judge reads, and where it comes from."""

    ruling_id: str
    name: str
    set_code: str
    set_name: str
    face: CardFace


@dataclass(frozen=True, slots=True)
class TermRow:
    """A game term: its defining ruling and its "Rulings by Term" section."""

    name: str
    definition: str
    section_id: str


@dataclass(slots=True)
class Corpus:
    """Everything the site shows, read once from the knowledge base."""

    sources: list[SourceRow]
    rulings: dict[str, RulingRow]
    """Every ruling, sources in manifest order, each in document order."""
    sections: dict[str, list[SectionRow]]
    """source id -> its headings in order."""
    links: dict[str, list[LinkRow]]
    """ruling id -> its cross-references."""
    backlinks: dict[tuple[str, str], list[str]]
    """(kind, target) -> the rulings that link to it (annotation and rule numbers lower-cased)."""
    cards: dict[str, list[CardRow]]
    """English name -> every printing of it."""
    terms: list[TermRow]
    lexicon: Lexicon
    notes: dict[str, list[str]] = field(default_factory=dict)
    """ruling id -> the notes `rulings check` makes on its source text (a rule numbered out of sequence)."""
    changes: list[Change] = field(default_factory=list)
    """What changed in the current CRF (kb.changes), in the order shown."""


def read_corpus(kb: Kb) -> Corpus:
    """Read every table the site needs, and the card lexicon, from one build."""
    snapshot = Snapshot.of(kb)
    conn = snapshot.connect()
    names = [f.name for f in fields(SourceRow)]
    sources = [SourceRow(**{**{n: s[n] if s.get(n) is not None else "" for n in names},
                            "current": bool(s["current"]), "line_count": s["line_count"], "rulings": s["rulings"]})
               for s in query(conn, "select * from sources order by rowid")]
    rank = {s.id: i for i, s in enumerate(sources)}
    rows = [RulingRow(r["id"], r["source"], r["game"], tuple(r["section"]), r["kind"], r["number"], r["title"],
                      r["text"], r["line_start"], r["line_end"], tuple(r["markers"]), r["ord"])
            for r in query(conn, "select id, source, game, section, kind, number, title, text, line_start, line_end, "
                                 "markers, ord from rulings")]
    rows.sort(key=lambda r: (rank[r.source], r.ord))
    sections: dict[str, list[SectionRow]] = defaultdict(list)
    for s in query(conn, "select * from sections order by ord"):
        sections[s["source"]].append(SectionRow(s["id"], s["source"], tuple(s["titles"]), s["depth"],
                                                s["line_start"], s["line_end"], s["ord"]))
    links: dict[str, list[LinkRow]] = defaultdict(list)
    backlinks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for k in query(conn, "select ruling_id, kind, target, how from links order by rowid"):
        link = LinkRow(k["ruling_id"], k["kind"], k["target"], k["how"])
        links[link.ruling_id].append(link)
        target = link.target.lower() if link.kind in ("annotation", "rule") else link.target
        backlinks[(link.kind, target)].append(link.ruling_id)
    cards: dict[str, list[CardRow]] = defaultdict(list)
    for c in query(conn, "select * from cards order by set_code, id"):
        cards[c["name"]].append(CardRow(c["ruling_id"], c["name"], c["set_code"], c["set_name"], CardFace.of(c)))
    terms = [TermRow(t["name"], t["definition"] or "", t["section_id"] or "")
             for t in query(conn, "select name, definition, section_id from terms order by name")]
    notes = query(conn, "select source, line, message from problems where severity = 'note'")
    changes = [from_row(c) for c in query(conn, "select * from changes order by ord")]
    conn.close()
    lexicon_file = snapshot.lexicon
    try:
        lexicon = Lexicon.from_json(json.loads(lexicon_file.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SiteError(f"{lexicon_file}: cannot read the card lexicon ({exc.__class__.__name__}: {exc}); "
                          "run `rulings build`") from exc
    return Corpus(sources, {r.id: r for r in rows}, dict(sections), dict(links), dict(backlinks), dict(cards),
                  terms, lexicon, notes_by_ruling(notes, ((r.id, r.source, r.line_start, r.line_end) for r in rows)),
                  changes)


def notes_by_ruling(notes: list[dict[str, Any]], rulings: Iterable[tuple[str, str, int, int]]) -> dict[str, list[str]]:
    """Each note on a source line ({source, line, message}), given to the ruling whose lines hold it
    (rulings: (id, source, first line, last line)); the site and `rulings rule`/`show` show them."""
    out: dict[str, list[str]] = defaultdict(list)
    spans = list(rulings)
    for note in notes:
        for rid, source, start, end in spans:
            if source == note["source"] and start <= (note["line"] or 0) <= end:
                out[rid].append(note["message"])
                break
    return dict(out)

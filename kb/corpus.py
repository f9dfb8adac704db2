"""The knowledge base as the site walks it: every document's headings and rulings, the cross-references
and every card, read once from one build (its rulings and cards as kb.lookup's Reader reads them)."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field, fields

from kb.cardface import CardFace
from kb.changes import Change, from_row
from kb.errors import SiteError
from kb.lexicon import Lexicon
from kb.lookup import Reader, Ruling
from kb.model import Source
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
class LinkRow:
    """One cross-reference of a ruling (kb.store SCHEMA: links)."""

    ruling_id: str
    kind: str
    target: str
    how: str


@dataclass(slots=True)
class Corpus:
    """Everything the site walks, read once from the knowledge base."""

    sources: list[SourceRow]
    rulings: dict[str, Ruling]
    """Every ruling, sources in manifest order, each in document order."""
    sections: dict[str, list[SectionRow]]
    """source id -> its headings in order."""
    links: dict[str, list[LinkRow]]
    """ruling id -> its cross-references."""
    backlinks: dict[tuple[str, str], list[str]]
    """(kind, target) -> the rulings that link to it."""
    cards: dict[str, list[CardFace]]
    """English name -> every printing of it."""
    lexicon: Lexicon
    changes: list[Change] = field(default_factory=list)
    """What changed in the current CRF (kb.changes), in the order shown."""


def read_corpus(reader: Reader) -> Corpus:
    """Read every table the site walks, and the card lexicon, from the reader's build."""
    conn = reader.conn
    names = [f.name for f in fields(SourceRow)]
    sources = [SourceRow(**{**{n: s[n] if s.get(n) is not None else "" for n in names},
                            "current": bool(s["current"]), "line_count": s["line_count"], "rulings": s["rulings"]})
               for s in query(conn, "select * from sources order by rowid")]
    sections: dict[str, list[SectionRow]] = defaultdict(list)
    for s in query(conn, "select * from sections order by ord"):
        sections[s["source"]].append(SectionRow(s["id"], s["source"], tuple(s["titles"]), s["depth"],
                                                s["line_start"], s["line_end"], s["ord"]))
    links: dict[str, list[LinkRow]] = defaultdict(list)
    backlinks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for k in query(conn, "select ruling_id, kind, target, how from links order by rowid"):
        link = LinkRow(k["ruling_id"], k["kind"], k["target"], k["how"])
        links[link.ruling_id].append(link)
        backlinks[(link.kind, link.target)].append(link.ruling_id)
    cards: dict[str, list[CardFace]] = defaultdict(list)
    for face in reader.every_face():
        cards[face.name].append(face)
    changes = [from_row(c) for c in query(conn, "select * from changes order by ord")]
    lexicon_file = reader.snapshot.lexicon
    try:
        lexicon = Lexicon.from_json(json.loads(lexicon_file.read_text("utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SiteError(f"{lexicon_file}: cannot read the card lexicon ({exc.__class__.__name__}: {exc}); "
                          "run `rulings build`") from exc
    return Corpus(sources, {r.id: r for r in reader.every()}, dict(sections), dict(links), dict(backlinks),
                  dict(cards), lexicon, changes)

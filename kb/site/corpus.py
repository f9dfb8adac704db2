"""The knowledge base as the site walks it: every document's headings and rulings, the cross-references
(with where each ruling's text says them) and every card, read once from one build (each as
kb.read.lookup's Reader answers it)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from kb.builder.cardface import CardFace
from kb.builder.changes import Change
from kb.model import Link, Section
from kb.read.documents import SourceRow
from kb.read.lookup import Reader
from kb.read.ruling import Ruling


@dataclass(slots=True)
class Corpus:
    """Everything the site walks, read once from the knowledge base."""

    sources: list[SourceRow]
    rulings: dict[str, Ruling]
    """Every ruling, sources in manifest order, each in document order."""
    sections: dict[str, list[Section]]
    """source id -> its headings in order."""
    links: dict[str, list[Link]]
    """ruling id -> its cross-references."""
    backlinks: dict[tuple[str, str], list[str]]
    """(kind, target) -> the rulings that link to it."""
    cards: dict[str, list[CardFace]]
    """English name -> every printing of it."""
    changes: list[Change] = field(default_factory=list)
    """What changed in the current CRF (kb.builder.changes), in the order shown."""


def read_corpus(reader: Reader) -> Corpus:
    """Every document, link, card and change the site walks (the reader's answers), from the reader's build."""
    documents = reader.documents()
    links: dict[str, list[Link]] = defaultdict(list)
    backlinks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for link in reader.links():
        links[link.ruling_id].append(link)
        backlinks[(link.kind, link.target)].append(link.ruling_id)
    cards: dict[str, list[CardFace]] = defaultdict(list)
    for face in reader.every_face():
        cards[face.name].append(face)
    return Corpus([d.source for d in documents], {r.id: r for r in reader.every()},
                  {d.source.id: list(d.sections) for d in documents if d.sections}, dict(links), dict(backlinks),
                  dict(cards), reader.every_change())

"""The read model's answers read whole, for the site and the deck check (kb.read.lookup's Reader gives them):
a document with its headings, a source's edition."""

from __future__ import annotations

from dataclasses import dataclass

from kb.model import Section, Source


@dataclass(frozen=True, slots=True)
class SourceRow(Source):
    """One document of the manifest as stored: its entry, and what the build counted in it."""

    line_count: int = 0
    rulings: int = 0


@dataclass(frozen=True, slots=True)
class Document:
    """A document as the site writes it whole: its source (manifest entry and counts) and its headings in
    order (its rulings are Reader.every()'s)."""

    source: SourceRow
    sections: tuple[Section, ...]


@dataclass(frozen=True, slots=True)
class Edition:
    """A source's edition as a report names it (the CRF a deck was checked with)."""

    id: str
    title: str
    edition: str
    date: str

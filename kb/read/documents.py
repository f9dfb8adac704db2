"""The read model's answers read whole, for the site and the deck check (kb.read.lookup's Reader gives them):
a document with its headings, a cross-reference, a card's stored record, a source's edition."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kb.model import Source


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
class Document:
    """A document as the site writes it whole: its source (manifest entry and counts) and its headings in
    order (its rulings are Reader.every()'s)."""

    source: SourceRow
    sections: tuple[SectionRow, ...]


@dataclass(frozen=True, slots=True)
class LinkRow:
    """One cross-reference of a ruling (kb.store.store SCHEMA: links)."""

    ruling_id: str
    kind: str
    target: str
    how: str


@dataclass(frozen=True, slots=True)
class CardRecord:
    """One printing as the card database stores it, what the deck rules read of it (kb.deck.deckrules)."""

    id: str
    set_code: str
    name: str
    type: str
    alignment: str
    text: str | None
    attributes: Any
    """The card database's attributes, decoded."""


@dataclass(frozen=True, slots=True)
class Edition:
    """A source's edition as a report names it (the CRF a deck was checked with)."""

    id: str
    title: str
    edition: str
    date: str

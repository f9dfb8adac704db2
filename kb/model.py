"""The model every parser produces and every consumer reads: sources, sections, rulings, cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Span:
    """Lines of a source file, 1-based and inclusive."""

    start: int
    """First line."""
    end: int
    """Last line (equal to start for a one-line thing)."""

    def lines(self) -> range:
        """The line numbers covered, e.g. Span(3, 5).lines() is 3, 4, 5."""
        return range(self.start, self.end + 1)


@dataclass(frozen=True, slots=True)
class Source:
    """One document as the manifest describes it."""

    id: str
    """Stable short id used in ruling ids, e.g. "crf-22"."""
    title: str
    """Human title."""
    game: str
    """"meccg" or "lotr-tcg"."""
    kind: str
    """CRF, official rules, rulebook, timing guide, variant, wiki page, card database."""
    edition: str
    """Edition or revision as the document gives it."""
    date: str
    """Publication date, ISO where known."""
    origin: str
    """Where the file comes from."""
    path: str
    """File path relative to the sources folder."""
    parser: str
    """Name of the parser that reads it."""
    current: bool = True
    """False for an older edition kept for reference."""
    licence: str = ""
    """The terms the document is used under, with any credit its publisher asks for."""
    origin_url: str = ""
    """Where the document can be found (its publisher's page), when it has one."""


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of a document, placed in the document's section tree."""

    id: str
    """Stable id: source id + slug of the path."""
    source: str
    """Source id."""
    path: tuple[str, ...]
    """Titles from the top section down to this one."""
    span: Span
    """The heading's own line(s)."""
    order: int
    """Position in document order."""

    @property
    def depth(self) -> int:
        """How deep it stands: 1 for a top-level heading."""
        return len(self.path)


@dataclass(frozen=True, slots=True)
class Ruling:
    """One stored unit of a source: a ruling, rule, annotation, example, card, ..."""

    id: str
    """Stable id (source id + hash of section path and text)."""
    source: str
    """Source id."""
    section: tuple[str, ...]
    """Section path (titles)."""
    kind: str
    """ruling, annotation, erratum, rule, glossary, example, clarification, designer-note, card, ..."""
    number: str | None
    """Its number where it has one: "25a", "2.IV.iii", "g.hav.3", "1A", a card id."""
    text: str
    """The text as the source has it (markup-level repairs only, each listed as a repair)."""
    raw: str
    """The exact source lines of the span."""
    span: Span
    """Source line span."""
    markers: tuple[str, ...] = ()
    """Markers: "new" (@), "tag:CoE 2002", "date:effective 11/17/97", "rules-erratum", ..."""
    order: int = 0
    """Position in document order."""
    title: str | None = None
    """A name the ruling defines: a glossary term, a card name."""
    parent: str | None = None
    """Id of the ruling this one belongs to (an example's rule)."""
    incomplete: str = ""
    """Why the source's text of it is not whole ("it begins mid-sentence": a PDF extraction cut it and
    the rest was not found), or "" where it reads whole. Decided by its parser, once, at build time."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the card database, as its parser reads it and the build stores it; the deck rules read
    it back so (kb.read.lookup's Reader.card_records), the lookups as a face (kb.builder.cardface.CardFace)."""

    id: str
    """Card id, e.g. "TW-1"."""
    set_code: str
    """Set code, e.g. "TW"."""
    set_name: str
    """English set name."""
    names: dict[str, str]
    """Name in every language given (empty ones dropped)."""
    type: str
    """Character, Resource, Hazard, Site, Region."""
    alignment: str
    """Hero, Minion, Neutral, Fallen-wizard, Balrog, Dual, Stage."""
    text: str
    """Current English text, plain."""
    text_html: str
    """Current English text as the database has it (HTML)."""
    attributes: dict[str, Any]
    """Everything else the database gives (subtype, MPs, prowess/body, ...)."""
    ruling_id: str
    """The id of the card's ruling of kind "card"."""

    @property
    def name(self) -> str:
        """The English name (the one a deck list, a ruling and the site go by)."""
        return self.names.get("en", "")


@dataclass(frozen=True, slots=True)
class Link:
    """A ruling's link to something (kb.builder.xref finds them; kb.store.store's links table keeps them):
    kind card|phase|term|annotation|rule|section|edition."""

    ruling_id: str
    kind: str
    target: str
    how: str = ""
    spans: tuple[tuple[int, int], ...] = ()
    """Where the ruling's text (as kb.store.reading reads it) names the card or cites the number: the site
    links these words, and only these."""


@dataclass(frozen=True, slots=True)
class Skip:
    """Lines not stored, with the reason."""

    span: Span
    reason: str


@dataclass(frozen=True, slots=True)
class Repair:
    """A change made to source text before storing it (mojibake, lost ligatures, ...)."""

    line: int
    kind: str
    before: str
    after: str


@dataclass(frozen=True, slots=True)
class Problem:
    """A warning or note found while parsing: kept, reported by `rulings check`."""

    source: str
    line: int | None
    message: str
    severity: str = "warning"
    """"warning": something to fix (`rulings check --strict` fails on it); "note": a remark about the
    source's own text, which is kept as it is (a rule numbered out of sequence)."""


@dataclass(slots=True)
class ParsedDocument:
    """What a parser returns for one source."""

    source: Source
    line_count: int
    sections: list[Section] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

"""The read model's answers to a card, a term, a phase and a ruling shown whole: small frozen values
with their JSON, which kb.read.lookup.Reader makes and kb.terminal and the site render. They are imported
by the Reader's methods that give them: a lookup by number (`rulings annotation 18`, the coldest and
commonest at a table) defines only its own answer (kb.read.lookup.NumberAnswer), each definition costing
a cold command most of a millisecond."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.read.ruling import Ruling, groups_json, rulings_json

if TYPE_CHECKING:
    from kb.builder.cardface import CardFace
    from kb.builder.changes import Change


@dataclass(frozen=True, slots=True)
class CardRulings:
    """What the knowledge base says about a card: its errata and its own rulings (its CRF rulings),
    then the other rulings that mention it, each in reading order (current editions first, then
    source and document order). `rulings card`, `rulings deck`, the site's card page and the deck
    page's data all give these."""

    errata: tuple[Ruling, ...]
    rulings: tuple[Ruling, ...]
    mentions: tuple[Ruling, ...]

    def __bool__(self) -> bool:
        return bool(self.errata or self.rulings or self.mentions)


@dataclass(frozen=True, slots=True)
class CardAnswer:
    """A card: every printing's face, the other cards its name begins, and what is said about it."""

    query: str
    read_as: str
    """"" for an exact name; else how the name typed was read ("'morgul knive' read as Morgul-knife")."""
    names: tuple[str, ...]
    """The English names it stands for (one card, or the versions a name stands for)."""
    faces: tuple[CardFace, ...]
    """Every printing of those names, by set."""
    also: tuple[CardFace, ...]
    """Every printing of the other cards an exact name begins ("Adûnaphel": Adûnaphel the Ringwraith, ...)."""
    said: CardRulings

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "read_as": self.read_as, "names": list(self.names),
                "also": [{"name": f.name, "id": f.id, "set_name": f.set_name, "type": f.type,
                          "alignment": f.alignment} for f in self.also],
                "cards": [f.to_json() for f in self.faces],
                "errata": rulings_json(self.said.errata), "rulings": rulings_json(self.said.rulings),
                "mentioned_in": groups_json(self.said.mentions)}


@dataclass(frozen=True, slots=True)
class CardsAnswer:
    """A name a few cards share ("khamul": Khamûl the Easterling, Khamûl the Ringwraith, Khamûl
    Unleashed): each card's own answer, as its full name gives it (kb.search.resolve.SHARED)."""

    query: str
    read_as: str
    """How the name typed was read ("'khamul' read as the 3 cards it names: ...")."""
    answers: tuple[CardAnswer, ...]

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "read_as": self.read_as, "names": [a.names[0] for a in self.answers],
                "answers": [a.to_json() for a in self.answers]}


@dataclass(frozen=True, slots=True)
class Term:
    """A game term as stored: the CoE glossary's, the CRF's "Rulings by Term", another CRF heading or
    a CoE rule's title that names it (kb.builder.terms), or several of them."""

    key: str
    """Its name reduced for matching (kb.builder.headings.title_key)."""
    name: str
    definition: str
    """Its glossary entry's ruling id ("" when it has none)."""
    section_id: str
    """Its "Rulings by Term" heading ("" when it has none)."""
    headings: tuple[str, ...] = ()
    """The other CRF headings that name it ("Turn Sequence Rulings › Site Phase › On-Guard Cards")."""
    rules: tuple[str, ...] = ()
    """The ruling ids of the CoE rules whose title names it, each with its parts."""
    aliases: tuple[str, ...] = ()
    """The other keys it is asked by ("untapping" for untap, "character draft" for The Character Draft)."""


@dataclass(frozen=True, slots=True)
class TermAnswer:
    """A game term (the CoE glossary, the CRF's "Rulings by Term", a CRF heading or CoE rule's title
    that names it): its definition, its Rulings by Term section, the rulings under its other CRF
    headings, the CoE rules titled by it, and every other ruling that uses it."""

    query: str
    read_as: str
    name: str
    section_id: str
    """Its "Rulings by Term" heading ("" when it has none)."""
    definitions: tuple[Ruling, ...]
    by_term: tuple[Ruling, ...]
    used_in: tuple[Ruling, ...]
    url: str
    """Its page on the site ("term/hazard-limit.html"), as the build stored it (kb.builder.addresses)."""
    under_headings: tuple[Ruling, ...] = ()
    """The rulings under its other CRF headings ("On-Guard Cards" in the Site Phase's)."""
    rules: tuple[Ruling, ...] = ()
    """The CoE rules whose title names it ("Placing an On-Guard Card"), each with its parts."""

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "read_as": self.read_as, "term": self.name, "url": self.url,
                "definitions": rulings_json(self.definitions), "rulings_by_term": rulings_json(self.by_term),
                "under_headings": rulings_json(self.under_headings), "rules": rulings_json(self.rules),
                "used_in": groups_json(self.used_in)}


@dataclass(frozen=True, slots=True)
class PhaseAnswer:
    """Every ruling of a turn phase: those under its headings, and those that speak of it elsewhere."""

    query: str
    phase: str
    name: str
    rulings: tuple[Ruling, ...]
    under_headings: frozenset[str]
    """The ids of those under a heading of the phase (the others name it in their text)."""
    url: str
    """Its page on the site ("phase/site.html")."""

    @property
    def headings(self) -> tuple[Ruling, ...]:
        """Those under a heading of the phase, in reading order: shown first."""
        return tuple(r for r in self.rulings if r.id in self.under_headings)

    @property
    def elsewhere(self) -> tuple[Ruling, ...]:
        """Those that speak of it elsewhere, in reading order."""
        return tuple(r for r in self.rulings if r.id not in self.under_headings)

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "phase": self.phase, "name": self.name, "url": self.url,
                "sources": groups_json(self.rulings), "under_headings": [r.id for r in self.headings]}


@dataclass(frozen=True, slots=True)
class RulingAnswer:
    """One ruling whole: what it links to (and what links to it), the ruling it belongs to, a card's face."""

    ruling: Ruling
    parent: Ruling | None
    links: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    """(kind, ((target, how), ...)) by kind, then "older_editions": the older rulings linked to it
    (its older wording, or the older ruling it replaced, reversed or holds moved)."""
    card: CardFace | None
    change: Change | None = None
    """What changed in it (kb.builder.changes), if anything: for an older ruling gone from the current CRF, its
    verdict and successor."""
    other: Ruling | None = None
    """The ruling on the other side of its change: an older ruling's successor, say."""
    parts: tuple[Ruling, ...] = ()
    """The rulings that are part of it, in document order: the steps of the procedure it opens
    ("Follow this procedure ...:"), a rule's examples."""

    def to_json(self) -> dict[str, Any]:
        out = self.ruling.to_json()
        out["parent"] = self.parent.to_json() if self.parent else None
        out["parts"] = [p.to_json() for p in self.parts]
        out["links"] = {kind: [{"target": t, "how": h} for t, h in items] for kind, items in self.links}
        if self.card is not None:
            out["card"] = self.card.to_json()
        if self.change is not None:
            out["change"] = self.change.to_json(self.other.to_json() if self.other else None)
        return out

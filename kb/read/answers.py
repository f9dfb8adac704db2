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
class LinkTo:
    """One thing a ruling links to (or an older ruling that links to it), as readers read it."""

    kind: str
    """As stored (kb.builder.xref): card, phase, term, annotation, rule, section, edition (its counterpart or
    successor in the current edition), same-rule (a ruling of another document stating the same rule:
    kb.builder.equivalents); older_editions: an older ruling of its wording, or one it replaced,
    reversed or holds moved."""
    target: str
    """What it names: a card's or term's name, a phase's id, a number, a section's id, a ruling's id ("" for none)."""
    how: str
    """How the build found it (mention, about, card; section, text; cites; the "See also"'s words; same,
    reworded (0.95), absent, or a verdict's words)."""
    label: str
    """What a reader reads: "Gandalf", "Site phase", "Annotation 18", "Rulings by Term › Ally", "same
    wording", "not in CRF 22", a successor's verdict and words."""
    url: str
    """Its page (and anchor) on the site, "" where it has none."""


LINK_GROUPS = (("current", ("edition",)), ("older editions", ("older_editions",)), ("same rule", ("same-rule",)),
               ("cites", ("annotation", "rule")), ("see also", ("section",)), ("cards", ("card",)),
               ("phases", ("phase",)), ("terms", ("term",)))
"""The groups a ruling's links are shown in, in this order, and the kinds of link each holds."""


RULINGS = ("edition", "older_editions", "same-rule")
"""The kinds of link whose target is a ruling (shown by its id in the terminal)."""


@dataclass(frozen=True, slots=True)
class LinkGroup:
    """Links of one group (LINK_GROUPS), each target once, in the order the build found them."""

    name: str
    """current, older editions, same rule, cites, see also, cards, phases or terms."""
    label: str
    """As readers read it: the group's name, or for current "in CRF 22" (the current CRF's edition, from the
    sources) or "in the current rules" where a counterpart lives in another current document."""
    links: tuple[LinkTo, ...]


@dataclass(frozen=True, slots=True)
class RulingLinks:
    """What a ruling links to and what links to it: every link as stored (links_json), and the groups readers
    are shown (groups): the terminal's `rulings show` and the site's ruling both render these."""

    every: tuple[LinkTo, ...]
    """Every link in the order the build stored them, then the older rulings linked to it."""
    current: str
    """The current CRF's edition as readers name it ("CRF 22", kb.builder.changes.edition_name)."""
    current_source: str = ""
    """The current CRF's source id: a counterpart in another source lives in the current rules."""
    successor: str = ""
    """For an older ruling gone from the current CRF, the ruling that states its matter now (its link's
    target, labelled with the verdict), "" for none."""

    @property
    def groups(self) -> tuple[LinkGroup, ...]:
        """The links shown, by group (LINK_GROUPS), each target once: a card's, phase's, term's, number's or
        section's only where it has a page; no link of a card's own text to the card."""
        found: dict[str, list[LinkTo]] = {}
        seen: set[tuple[str, str]] = set()
        for link in self.every:
            shown = link.url or link.kind in RULINGS
            if (link.kind, link.target) in seen or not shown or (link.kind == "card" and link.how == "card"):
                continue
            seen.add((link.kind, link.target))
            found.setdefault(link.kind, []).append(link)
        groups = []
        for name, kinds in LINK_GROUPS:
            links = tuple(link for kind in kinds for link in found.get(kind, ()))
            if links:
                groups.append(LinkGroup(name, self._label(name, links), links))
        return tuple(groups)

    def _label(self, name: str, links: tuple[LinkTo, ...]) -> str:
        if name != "current":
            return name
        elsewhere = any(link.target and link.target.partition(".")[0] != self.current_source for link in links)
        return "in the current rules" if elsewhere else f"in {self.current}"

    def to_json(self) -> dict[str, list[dict[str, str]]]:
        """{kind: [{target, how}, ...]}: every link as stored, by kind and target, then the older editions."""
        out: dict[str, list[dict[str, str]]] = {}
        for link in sorted(self.every, key=lambda k: (k.kind == "older_editions", k.kind, k.target)):
            out.setdefault(link.kind, []).append({"target": link.target, "how": link.how})
        return out


@dataclass(frozen=True, slots=True)
class RulingAnswer:
    """One ruling whole: what it links to (and what links to it), the ruling it belongs to, a card's face."""

    ruling: Ruling
    parent: Ruling | None
    links: RulingLinks
    """What it links to, and the older rulings linked to it (its older wording, or the older ruling it
    replaced, reversed or holds moved)."""
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
        out["links"] = self.links.to_json()
        if self.card is not None:
            out["card"] = self.card.to_json()
        if self.change is not None:
            out["change"] = self.change.to_json(self.other.to_json() if self.other else None)
        return out

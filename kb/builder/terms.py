"""Where the rules treat a term under its own name: the CRF headings and CoE rule titles that name one
("On-Guard Cards", "Placing an On-Guard Card"), found as the build parses, and joined to the terms."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from kb.builder.headings import title_key
from kb.model import ParsedDocument
from kb.search.query import fold

TREATED = {"turn sequence ruling": 3, "tournament ruling": 2}
"""The CRF parts whose headings name what their rulings treat (by kb.builder.headings.title_key), and the depth
from which they do: the Turn Sequence part's own headings are its phases (`rulings phase`)."""
GENERAL = "general"
"""A heading's title that names nothing ("General")."""
RULE_TITLE = re.compile(r"^([A-Z][^*\n]{2,100}?) - \S")
"""A CoE rule that opens with its title: "Placing an On-Guard Card - As an action during ..."."""
SMALL_WORDS = frozenset("a an the of or and to with for at by in on".split())
"""The words a title writes in lower case ("Winning with The One Ring"): any other is a sentence's."""
STEP = re.compile(r"^.+?, Step \d+\s*(?:\((.+)\))?$")
"""A step's title, "Combat, Step 4 (Strike Sequences)": the step is also known by its parenthesis."""
DOING = re.compile(r"^[A-Z][a-z]+ing (?:an?|the) (.+)$")
"""A title that names doing something to a thing, "Playing an Ally": it treats that thing, when the
thing is a term ("Ally"; "Calling the Game" treats no term "Game")."""


@dataclass(frozen=True, slots=True)
class TermPlace:
    """A CRF heading or a CoE rule's title that names what its rulings treat."""

    name: str
    """As its source writes it (a title in capitals, "STARTER MOVEMENT", as a title: "Starter Movement")."""
    kind: str
    """"heading" (a CRF section's heading) or "rule" (a CoE rule's title)."""
    targets: tuple[str, ...]
    """The heading's section id; the rule's ruling id and those of its parts (2.IV.vii.4.1, ...)."""
    also: tuple[str, ...] = ()
    """Other names it is known by: a step's parenthesis ("Reveal the New Site")."""
    joins: tuple[str, ...] = ()
    """Names by which it joins a term there is, and is no name of its own ("Ally" of "Playing an Ally")."""


@dataclass(slots=True)
class TermDraft:
    """A term as the build gathers it (kb.store.store's terms table, a row each)."""

    name: str
    definition: str = ""
    """Its glossary entry's ruling id ("" when it has none)."""
    section_id: str = ""
    """Its "Rulings by Term" heading ("" when it has none)."""
    headings: list[str] = field(default_factory=list)
    """The other CRF headings that name it (TermPlace), in document order."""
    rules: list[str] = field(default_factory=list)
    """The CoE rules whose title names it, each with its parts (TermPlace)."""
    aliases: list[str] = field(default_factory=list)
    """The other keys it is asked by (a heading joined to it, a place's other names)."""

    def row(self, key: str) -> dict[str, Any]:
        return {"key": key, **asdict(self)}


def treated(path: Sequence[str]) -> bool:
    """Whether a CRF section path ends in a heading that names what its rulings treat (TREATED), not
    a "General"."""
    depth = TREATED.get(title_key(path[0])) if path else None
    return bool(depth) and len(path) >= (depth or 0) and title_key(path[-1]) != GENERAL


def crf_places(d: ParsedDocument) -> Iterator[TermPlace]:
    """The headings of a CRF's Turn Sequence and Tournament parts that hold rulings (treated)."""
    held = {r.section for r in d.rulings}
    for s in d.sections:
        if s.path in held and treated(s.path):
            yield TermPlace(s.path[-1], "heading", (s.id,))


def rule_places(d: ParsedDocument) -> Iterator[TermPlace]:
    """The CoE rules that open with a title (RULE_TITLE, its words capitalised but SMALL_WORDS), each
    with its parts."""
    rules = [r for r in d.rulings if r.kind == "rule" and r.number]
    for r in rules:
        m = RULE_TITLE.match(r.text)
        if not m or any(w[:1].islower() and w not in SMALL_WORDS for w in re.findall(r"[\w’'-]+", m.group(1))):
            continue  # "The length of the game - ...": a sentence, no title
        name = m.group(1).title() if m.group(1).isupper() else m.group(1)
        parts = tuple(p.id for p in rules if (p.number or "").startswith(f"{r.number}."))
        step, doing = STEP.match(name), DOING.match(name)
        yield TermPlace(name, "rule", (r.id, *parts), (step.group(1),) if step and step.group(1) else (),
                        (doing.group(1),) if doing and not step else ())


def keys(name: str) -> list[str]:
    """The keys a name is asked by: its title_key, and without a "The" it opens with."""
    key = title_key(name)
    return [key, key[4:]] if key.startswith("the ") else [key]


def join_places(terms: dict[str, TermDraft], places: list[TermPlace], cards: Collection[str]) -> None:
    """Each place (the headings first, in document order) to the term one of its names is (a glossary
    term, a "Rulings by Term" heading, a place before it), else a term of its own named as the place;
    its other names are the term's aliases. A heading that is a card's name (cards: folded) is the
    card's, no term ("Freeze the Flesh" in the Tournament Rulings: kb.builder.xref.detect_cards)."""
    owner = {k: key for key, t in terms.items() for k in [key, *t.aliases]}
    for place in sorted(places, key=lambda p: p.kind != "heading"):
        if place.kind == "heading" and fold(place.name) in cards:
            continue
        names = [k for n in (place.name, *place.also) for k in keys(n)]
        found = next((owner[k] for k in names + [k for n in place.joins for k in keys(n)] if k in owner), None)
        if found is None:
            found = owner[names[0]] = names[0]
            terms[found] = TermDraft(place.name)
        term = terms[found]
        (term.headings if place.kind == "heading" else term.rules).extend(place.targets)
        for k in names:
            if k not in owner:
                owner[k] = found
                term.aliases.append(k)

"""What the build gives search: the card lexicon (gathered a document at a time) and one passage per ruling (cards, refs)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from kb.model import ParsedDocument, Ruling, Source
from kb.lexicon import Lexicon, build_lexicon
from kb.query import fold
from kb.ranking import document_fields
from kb.searchspec import UNIT, Unit

CARD_PART = "card errata and rulings"
ANNOTATION_REF = re.compile(r"\bannotations?\s+(\d{1,2}[ab]?)((?:\s*(?:,|and|&|-|–|to|or)\s*\d{1,2}[ab]?)*)", re.I)
RULE_REF = re.compile(r"\b(?:rule\s+)?((?:\d{1,2}|g)\.[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)\b")


def card_section(r: Ruling) -> str | None:
    """The card a CRF card-rulings section is about, by its heading ("Alatar")."""
    if len(r.section) >= 2 and r.section[0].lower() == CARD_PART and not r.section[-1].startswith("-="):
        return r.section[-1]
    return None


def resolve_title(title: str, lexicon: Lexicon) -> list[str]:
    """Card names a CRF heading stands for: exact, "The X", or a near spelling ("Hoarmûath of Dir")."""
    key = fold(title)
    for candidate in (key, f"the {key}", re.sub(r"^the ", "", key), re.sub(r" all$", "", key)):
        if candidate in lexicon.names:
            return list(lexicon.names[candidate])
    match = difflib.get_close_matches(key, lexicon.names.keys(), n=1, cutoff=0.85)
    return list(lexicon.names[match[0]]) if match else []


class LexiconDraft:
    """The lexicon gathered document by document as they are parsed (add), completed once every
    document has been seen (finish): card names in every language first, then the CRF card headings
    resolved against them, the corpus words and the game words."""

    def __init__(self) -> None:
        self.lexicon = build_lexicon([], [], [])
        self._titles: dict[str, None] = {}
        self._races: set[str] = set()

    def add(self, doc: ParsedDocument) -> None:
        for card in doc.cards:
            for name in card.names.values():
                self.lexicon.add_name(name, card.names["en"])
            self._races.update(str(card.attributes.get("attributes", {}).get("race", "")).split(","))
        for r in doc.rulings if doc.source.game == "meccg" else ():
            self.lexicon.add_words(r.text)
            if title := card_section(r):
                self._titles.setdefault(title)
        for s in doc.sections:
            self.lexicon.add_words(" ".join(s.path))

    def finish(self) -> Lexicon:
        lexicon = self.lexicon
        for title in self._titles:  # a title seen twice would find itself in the lexicon the second time
            if fold(title) not in lexicon.names:
                for name in resolve_title(title, lexicon) or [title]:
                    lexicon.add_name(title, name)
        lexicon.game_words = game_words(self._races)
        return lexicon


PLAYER_KINDS = ("wizard", "ringwraith", "fallen-wizard", "balrog", "sauron")


def game_words(races: Iterable[str]) -> set[str]:
    """Races (singular and plural) and kinds of player: card names that rulings use as game words."""
    words = set(PLAYER_KINDS)
    for race in races:
        race = fold(race)
        if race:
            words.update({race, race + "s", race + "es", re.sub(r"f$", "ves", race)})
    return {fold(w) for w in words}


def references(text: str) -> set[str]:
    """The annotation and rule numbers a text cites: {"annotation:18", "rule:2.iv.iii"}."""
    return {f"{kind}:{number}" for _, _, kind, number in reference_spans(text)}


def reference_spans(text: str) -> list[tuple[int, int, str, str]]:
    """Where a text cites annotations and rules: (start, end, "annotation"|"rule", number lower-cased).

    "Annotations 5 and 6" gives a span per number; "Annotation 1-4" one span standing for 1 to 4.
    """
    spans: list[tuple[int, int, str, str]] = []
    for m in ANNOTATION_REF.finditer(text):
        numbers = [(m.start(1), m.end(1), m.group(1))]
        numbers += [(m.start(2) + n.start(), m.start(2) + n.end(), n.group(0))
                    for n in re.finditer(r"\d{1,2}[ab]?", m.group(2) or "")]
        if re.search(r"-|–|to", m.group(2) or "") and len(numbers) == 2 and all(n[2].isdigit() for n in numbers):
            numbers = [(m.start(1), m.end(), str(n)) for n in range(int(numbers[0][2]), int(numbers[1][2]) + 1)]
        spans += [(start, end, "annotation", number.lower()) for start, end, number in numbers]
    spans += [(m.start(1), m.end(1), "rule", m.group(1).lower()) for m in RULE_REF.finditer(text)]
    return sorted(spans)


def document_units(s: Source, rulings: list[Ruling], lexicon: Lexicon, parent_text: Callable[[str], str | None],
                   unit: Mapping[str, float] = UNIT) -> Iterator[Unit]:
    """Every ruling of a document as a passage a judge reads: its text, with its section path, its
    lead-in (the text of the ruling it belongs to, by parent_text) and its title at their weights
    (kb.searchspec.UNIT), its exact keys (the card it is on, the cards it names, its number, the
    annotations and rules it cites), what ranking knows of it whatever the query
    (kb.ranking.document_fields) and, for a glossary entry, the term it defines (its title)."""
    for r in rulings:
        about: set[str] = set()
        title = r.title
        if r.kind == "card":
            about.add(fold(r.title or ""))
        elif (heading := card_section(r)) is not None:
            title = heading
            about.add(fold(heading))
            about.update(fold(n) for n in lexicon.names.get(fold(heading), []))
        about.discard("")
        mentions = {fold(n) for n in lexicon.find_in_text(r.text)} if s.game == "meccg" else set()
        keys = [f"about:{a}" for a in sorted(about)] + [f"mention:{m}" for m in sorted(mentions - about)]
        keys += [f"cites:{ref}" for ref in sorted(references(r.text))]
        if r.number:
            number = r.number.lower()
            keys += [f"number:{number}", f"number:{r.kind}:{number}"]
            if s.parser == "timing":
                keys.append(f"number:timing:{number}")
        path = list(r.section[:-1]) if about and r.kind != "card" else list(r.section)
        fields = [(r.text, 1.0)]
        if r.kind != "card" and path:
            fields.append((" ".join(path), unit["section"]))
        if r.parent and (lead := parent_text(r.parent)) is not None:
            fields.append((lead, unit["parent"]))
        if r.kind in ("glossary", "citation-key") and title:
            fields.append((title, unit["title"]))
        yield Unit(
            data={"id": r.id, "source": s.id, "kind": r.kind, "number": r.number, "title": title,
                  "about": sorted(about), "section": list(r.section), "text": r.text,
                  "markers": list(r.markers), "lines": [r.span.start, r.span.end]},
            fields=fields, keys=keys, known=document_fields(r.kind, r.text, s.kind, s.current),
            defines=title if r.kind == "glossary" and title else "")


def index_record(u: Unit, game: str) -> dict[str, Any]:
    """A unit's record for kb.index.build_index (the whoosh index behind `search --raw`)."""
    d = u.data
    return {"id": d["id"], "source": d["source"], "game": game, "kind": d["kind"],
            "title": d["title"] or "", "section": d["section"], "text": d["text"], "data": d}

"""What the build gives search: the card lexicon (gathered a document at a time) and one passage per ruling (cards,
refs)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kb.builder.headings import singulars
from kb.keys import page_key
from kb.model import ParsedDocument, Ruling, Source
from kb.builder.lexicon import Lexicon
from kb.search.query import fold
from kb.search.ranking import document_fields
from kb.search.searchspec import UNIT, Unit

CARD_PART = "card errata and rulings"
ANNOTATION_REF = re.compile(r"\bannotations?\s+(\d{1,2}[ab]?)((?:\s*(?:,|and|&|-|–|to|or)\s*\d{1,2}[ab]?)*)", re.I)
RULE_REF = re.compile(r"\b(?:rule\s+)?((?:\d{1,2}|g)\.[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)*)\b")


def card_heading(path: Sequence[str]) -> str | None:
    """The card heading a CRF section path ends in ("Alatar" under "Card Errata and Rulings", not its
    letter "-= AAA =-"), or None."""
    if len(path) >= 2 and path[0].lower() == CARD_PART and not path[-1].startswith("-="):
        return path[-1]
    return None


def card_section(r: Ruling) -> str | None:
    """The card a CRF card-rulings section is about, by its heading ("Alatar")."""
    return card_heading(r.section)


@dataclass(frozen=True, slots=True)
class CardBook:
    """What a CRF card heading is read against, from the card database."""

    names: Mapping[str, list[str]]
    """Card names (folded, every language) -> English names (kb.builder.lexicon.Lexicon.names)."""
    keywords: Mapping[str, tuple[str, ...]]
    """A keyword (folded) -> the English names of the cards that have it ("mind ring" -> Binding-ring, ...)."""
    alignments: Mapping[str, frozenset[str]]
    """An English name -> the alignments of its cards, lower case ("hero", "minion", ...)."""


VERSION = re.compile(r"\s*\(([\w-]+) version\)$", re.I)
"""A qualifier naming one alignment's card: "The Under-leas (hero version)"."""
GROUP = re.compile(r"\s*(?:\(all\)|\bcards)$", re.I)
"""A heading standing for several cards: "Dwarven Rings (all)", "Fair Sailing/Fair Travels cards"."""


def read_heading(heading: str, book: CardBook) -> tuple[str, ...]:
    """The card names a CRF card heading stands for, as a judge reads it, or () for none.

    A name of the card database (exactly, with or without "The", a keyword its cards have, the
    start of exactly one card's name, "Mûmak" for "Mûmak (Oliphant)", or a near spelling
    ("Hoarmûath of Dir")); "(hero version)" as that card, its hero card's name where the
    versions' names differ; "X (all)" and "X cards" as every card of keyword X or whose name
    begins with X; "A/B" as A and B ("Dwarven Ring of Bávor’s/Drúin’s Tribe"), when both are cards.
    """
    if fold(heading) in book.names:  # a card's own name, whatever it ends with
        return tuple(book.names[fold(heading)])
    if version := VERSION.search(heading):
        names = read_heading(heading[:version.start()], book)
        alike = tuple(n for n in names if version.group(1).lower() in book.alignments.get(n, ()))
        return alike or names
    group = GROUP.search(heading)
    for parts in alternatives(group_title(heading)):
        readings = [_read_name(part, book, group is not None) for part in parts]
        if all(readings):
            return tuple(dict.fromkeys(n for names in readings for n in names))
    return ()


def group_title(heading: str) -> str:
    """A heading without the "(all)" or "cards" that makes it a group: "Dwarven Rings (all)" -> "Dwarven Rings"."""
    group = GROUP.search(heading)
    return heading[:group.start()] if group else heading


def group_names(heading: str, book: CardBook) -> list[str]:
    """The names (folded) a judge asks a keyword heading's cards by: the heading without "(all)" or
    "cards", and the keyword it reads as, singular and plural: group_names("Dwarven Rings (all)") ==
    ["dwarven rings", "dwarven ring"]; [] for a heading that is no keyword (a card's own name, "A/B")."""
    key = fold(group_title(heading))
    keyword = next((stem for stem in dict.fromkeys((key, *singulars(key))) if stem in book.keywords), None)
    if keyword is None or key in book.names or "/" in heading:
        return []
    return list(dict.fromkeys((key, keyword, keyword + "s")))


def alternatives(text: str) -> list[list[str]]:
    """The ways a heading can be read as names, in order: with a slash between two words, the heading
    with each ("Dwarven Ring of Bávor’s/Drúin’s Tribe": "... Bávor’s Tribe", "... Drúin’s Tribe"),
    then each side of it ("Fair Sailing/Fair Travels": "Fair Sailing", "Fair Travels"); then whole."""
    m = re.fullmatch(r"(.*?)(\S+)/(\S+)(.*)", text)
    if not m:
        return [[text]]
    return [[f"{m.group(1)}{m.group(2)}{m.group(4)}", f"{m.group(1)}{m.group(3)}{m.group(4)}"],
            [side.strip() for side in text.split("/")], [text]]


def _read_name(text: str, book: CardBook, group: bool) -> list[str]:
    key = fold(text)
    if not key:
        return []
    for candidate in (key, f"the {key}", re.sub(r"^the ", "", key)):
        if candidate in book.names:
            return list(book.names[candidate])
    stems = (key, *singulars(key))
    for stem in stems:
        if stem in book.keywords:
            return list(book.keywords[stem])
    starts = tuple(f"{stem} " for stem in (stems if group else (key,)))
    starting = list(dict.fromkeys(n for k, names in book.names.items() if k.startswith(starts) for n in names))
    if starting and (group or len(starting) == 1):
        return starting
    match = difflib.get_close_matches(key, book.names.keys(), n=1, cutoff=0.85)
    return list(book.names[match[0]]) if match and not group else []


class LexiconDraft:
    """The lexicon gathered document by document as they are parsed (add), completed once every
    document has been seen (finish): card names in every language first, then what each CRF card
    heading stands for (read_heading, against the card names as the card database gives them; a
    heading that stands for one card is a name of it too), the corpus words and the game words."""

    def __init__(self) -> None:
        self.lexicon = Lexicon()
        self._titles: dict[str, None] = {}
        self._races: set[str] = set()
        self._keywords: dict[str, dict[str, None]] = {}
        self._alignments: dict[str, set[str]] = {}

    def add(self, doc: ParsedDocument) -> None:
        for card in doc.cards:
            english = card.names["en"]
            for name in card.names.values():
                self.lexicon.add_name(name, english)
            attributes = card.attributes.get("attributes", {})
            self._races.update(str(attributes.get("race", "")).split(","))
            for keyword in attributes.get("keywords") or ():
                self._keywords.setdefault(fold(str(keyword)), {})[english] = None
            self._alignments.setdefault(english, set()).add(card.alignment.lower())
        if doc.source.game != "meccg":
            return
        for r in doc.rulings:
            self.lexicon.add_words(r.text)
            if title := card_section(r):
                self._titles.setdefault(title)
        for s in doc.sections:
            self.lexicon.add_words(" ".join(s.path))
            if title := card_heading(s.path):
                self._titles.setdefault(title)

    def finish(self) -> Lexicon:
        lexicon = self.lexicon
        book = CardBook(lexicon.names, {k: tuple(v) for k, v in self._keywords.items()},
                        {k: frozenset(v) for k, v in self._alignments.items()})
        lexicon.headings = {title: list(read_heading(title, book)) for title in self._titles}
        for title, names in lexicon.headings.items():  # after every heading is read: each against the cards alone
            if len(names) == 1 and fold(title) not in lexicon.names:
                lexicon.add_name(title, names[0])
            for key in group_names(title, book) if len(names) > 1 else ():
                lexicon.keywords.setdefault(key, title)
        lexicon.game_words = game_words(self._races)
        return lexicon


PLAYER_KINDS = ("wizard", "ringwraith", "fallen-wizard", "balrog", "sauron")
GLOSSARY_RACES = ("half-orc",)
"""Races the CoE glossary's "race" names that no card's race attribute gives (the database writes its
Half-orcs' race otherwise): "your Half-orcs" is the race, not the faction Half-orcs."""


def game_words(races: Iterable[str]) -> set[str]:
    """Races (singular and plural) and kinds of player: card names that rulings use as game words."""
    words = set(PLAYER_KINDS)
    for race in (*races, *GLOSSARY_RACES):
        race = fold(race)
        if race:
            words.update({race, race + "s", race + "es", re.sub(r"f$", "ves", race)})
    return {fold(w) for w in words}


def references(text: str, ranges: bool = False) -> set[str]:
    """The annotation and rule numbers a text cites: {"annotation:18", "rule:2.IV.iii"}; with ranges,
    every rule of a range it cites ("2.IV.i-viii": 2.IV.i to 2.IV.viii, the rule's links and parts), else
    the range's first (search's keys: a text citing a range of steps is no answer to each step)."""
    return {f"{kind}:{number}" for _, _, kind, number in reference_spans(text, ranges)}


def reference_spans(text: str, ranges: bool = False) -> list[tuple[int, int, str, str]]:
    """Where a text cites annotations and rules: (start, end, "annotation"|"rule", number), an
    annotation's number lower-cased, a rule's as written (kb.keys.page_key: "3.V" and "3.v" differ).

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
    for m in RULE_REF.finditer(text):
        spans += rule_range(text, m) if ranges else [(m.start(1), m.end(1), "rule", m.group(1))]
    return sorted(spans)


RANGE_END = re.compile(r"\s?[-–]\s?([A-Za-z]+|\d+)\b")
"""The end of a range of rules after a rule's number: "2.IV.i-viii", "2.II.1-3"."""


def rule_range(text: str, m: re.Match[str]) -> list[tuple[int, int, str, str]]:
    """A cited rule, or a range of them ("Steps 1-8 (2.IV.i-viii)": 2.IV.i to 2.IV.viii, one span standing for
    them all): its last part and the range's end both numbers, or both roman numerals of one case."""
    from kb.builder.numbering import roman, to_roman

    number = m.group(1)
    head, _, last = number.rpartition(".")
    end = RANGE_END.match(text, m.end(1))
    if head and end:
        upto = end.group(1)
        if last.isdigit() and upto.isdigit() and int(last) < int(upto) <= 99:
            values = [str(n) for n in range(int(last), int(upto) + 1)]
            return [(m.start(1), end.end(), "rule", f"{head}.{v}") for v in values]
        first, final = roman(last), roman(upto)
        if first and final and first < final <= 30 and (last.islower() == upto.islower()):
            values = [to_roman(n) if last.islower() else to_roman(n).upper() for n in range(first, final + 1)]
            return [(m.start(1), end.end(), "rule", f"{head}.{v}") for v in values]
    return [(m.start(1), m.end(1), "rule", number)]


def document_units(s: Source, rulings: list[Ruling], lexicon: Lexicon, parent_text: Callable[[str], str | None],
                   unit: Mapping[str, float] = UNIT) -> Iterator[Unit]:
    """Every ruling of a document as a passage a judge reads: its text, with its section path, its
    lead-in (the text of the ruling it belongs to, by parent_text) and its title at their weights
    (kb.search.searchspec.UNIT), its exact keys (the card it is on, the cards it names, its number, the
    annotations and rules it cites), what ranking knows of it whatever the query
    (kb.search.ranking.document_fields) and the term it defines: a glossary entry's title, the heading a
    section's own rule states (overview_of)."""
    for r in rulings:
        about: set[str] = set()
        title = r.title
        path = list(r.section)
        if r.kind == "card":
            about.add(fold(r.title or ""))
        elif (heading := card_section(r)) is not None:
            title = heading
            about.update(fold(n) for n in lexicon.headings.get(heading, ()))
            if fold(heading) in lexicon.names:  # a name a query can use: the key stands for the heading's words
                about.add(fold(heading))
                path = path[:-1]
        about.discard("")
        mentions = {fold(n) for n in lexicon.find_in_text(r.text)} if s.game == "meccg" else set()
        keys = [f"about:{a}" for a in sorted(about)] + [f"mention:{m}" for m in sorted(mentions - about)]
        keys += [f"cites:{ref}" for ref in sorted(references(r.text))]
        if r.number:
            number = page_key(r.kind, r.number)
            keys += [f"number:{number}", f"number:{r.kind}:{number}"]
            if s.parser == "timing":
                keys.append(f"number:timing:{number}")
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
                  "markers": list(r.markers), "lines": [r.span.start, r.span.end], "incomplete": r.incomplete},
            fields=fields, keys=keys, known=document_fields(r.kind, r.text, s.kind, s.current),
            defines=title if r.kind == "glossary" and title else overview_of(r))


def overview_of(r: Ruling) -> str:
    """The heading a ruling states the rule of: its section's, where the heading carries the ruling's
    number (CoE rule 2.V under "2.V. Site Phase", the phase's overview: its companies' site phases one
    after another; rule 3 under "3. Combat"); "" for any other. A search asking about the heading
    ("what happens in the site phase") finds it as it finds a glossary entry for its term."""
    heading = r.section[-1] if r.section else ""
    return heading if r.number and r.kind == "rule" and heading.startswith(f"{r.number}. ") else ""


def index_record(u: Unit, game: str) -> dict[str, Any]:
    """A unit's record for kb.store.index.index_writer (the whoosh index behind `search --raw`)."""
    d = u.data
    return {"id": d["id"], "source": d["source"], "game": game, "kind": d["kind"],
            "title": d["title"] or "", "section": d["section"], "text": d["text"], "data": d}

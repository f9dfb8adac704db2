"""Cross-references, computed at build time: cards, phases, terms, annotation and rule numbers,
"See also" sections and older-edition counterparts, each found by one small detector.

What they link to (terms, numbers, sections) is gathered as each document is parsed (Targets);
the detectors then run in order over every ruling, a document at a time (link_document); each
returns Link rows. Anything that should resolve and does not becomes a Problem with its file and line.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kb.errors import KbBroken
from kb.keys import cased_numbers, numbers_meant, page_key
from kb.model import Link, ParsedDocument, Problem, Ruling, Section
from kb.builder.phrases import PhraseBook
from kb.builder.headings import title_key
from kb.builder.lexicon import Lexicon
from kb.search.query import fold
from kb.store.reading import reading
from kb.builder.searchdata import card_heading, group_title, reference_spans
from kb.tables import load_table
from kb.builder.terms import TermDraft, TermPlace, crf_places, join_places, rule_places, treated

PHASES: dict[str, tuple[str, ...]] = {
    "beginning-of-game": ("beginning of the game", "character draft", "starting company", "starting hand",
                          "getting ready to play"),
    "untap": ("untap phase",),
    "organization": ("organization phase", "organizing companies", "choosing a new site", "playing characters",
                     "storing items", "storing and transferring items", "followers"),
    "long-event": ("long event phase", "long-event phase"),
    "movement-hazard": ("movement/hazard phase", "movement hazard phase", "m/h phase", "hazard limit",
                        "site path", "returning to site of origin", "playing hazards"),
    "site": ("site phase", "automatic-attack", "automatic-attacks", "on-guard", "influence attempt",
             "company vs. company combat", "company versus company combat"),
    "end-of-turn": ("end-of-turn phase", "end of turn phase", "end of the turn", "end-of-turn"),
    "combat": ("combat", "strike sequence", "strikes", "strike", "attack", "body check"),
    "strike-sequence": ("strike sequence", "resolve a strike", "strike dice-roll", "strike roll",
                        "assign strikes", "assigning strikes", "strikes are assigned"),
    "body-check": ("body check", "body checks"),
    "end-of-game": ("end-of-game", "end of the game", "free council", "audience with sauron", "calling the game",
                    "ending the game", "victory conditions"),
}
"""Each phase and the words (in a section title or a ruling's text) that place a ruling in it."""
NARROWER = {"combat": ("strike-sequence", "body-check")}
"""Steps within a phase: a ruling under a Combat heading that names the strike sequence is in it too."""

PARTS = ("turn sequence rulings", "rulings by term", "tournament rulings", "card errata and rulings",
         "card rulings", "turn sequence")


@dataclass(frozen=True, slots=True)
class Context:
    """What the detectors read, gathered before they run (Targets.context), and where they put problems."""

    lexicon: Lexicon
    """The card names (detect_cards)."""
    annotations: frozenset[str]
    """The annotation numbers there are, lower case ("18", "25a"): a citation of another is a problem."""
    rules: dict[str, list[str]]
    """The CoE rule numbers there are, as written, by their lower case (kb.keys.cased_numbers): a
    number none of them is, whatever its case, is no rule."""
    sections: SectionFinder
    """Every section, for the "See also"s."""
    terms: TermFinder
    """The glossary terms."""
    problems: list[Problem]
    """Where the detectors put what does not resolve."""


Detector = Callable[[ParsedDocument, Ruling, Context], list[Link]]


# -- helpers -------------------------------------------------------------------------------------

PHASE_WORDS: PhraseBook[str] = PhraseBook({w: w for words in PHASES.values() for w in words})


def phase_words(text: str) -> set[str]:
    """The words of PHASES a (lower-case) text holds whole: no letter, digit, _ or hyphen either side."""
    found = set()
    for start, end, word in PHASE_WORDS.occurrences(text):
        if word not in found and not (start and _joins(text[start - 1])) and not (end < len(text)
                                                                                  and _joins(text[end])):
            found.add(word)
    return found


def _joins(c: str) -> bool:
    return c.isalnum() or c in "_-"


# -- detectors -----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def words_read(text: str, parser: str) -> tuple[tuple[int, str], ...]:
    """A stored text as readers read it (kb.store.reading), run by run: (where the run begins in the
    words read, the run), where the detectors find what a link's spans say."""
    runs, at = [], 0
    for run, _, _ in reading(text, parser).runs:
        runs.append((at, run))
        at += len(run)
    return tuple(runs)


def detect_cards(doc: ParsedDocument, r: Ruling, ctx: Context) -> list[Link]:
    """Card names in the text (both versions of a shared name; in a "See also", only a section it names
    that is a card's, not "Burglary" in "Burglary Attempts"), and the card a CRF card section is
    about, or another CRF heading of what its rulings treat that is a card's name exactly (the
    Tournament Rulings' "Freeze the Flesh"). Each place the text names cards is a span of the
    first of them linked."""
    if doc.source.game != "meccg":
        return []
    lexicon = ctx.lexicon
    found = [(at + start, at + end, names) for at, run in words_read(r.text, doc.source.parser)
             for start, end, names in lexicon.find_spans(run)]
    names = sorted({name for _, _, some in found for name in some})
    if r.kind == "see-also":  # it names sections: a card only where a section it names is the card's
        named = {fold(part) for path in split_see_also(r.text) for part in path}
        names = [n for n in names if fold(n) in named]
    targets = [(name, "mention") for name in names]
    if doc.source.parser == "crf":
        targets += [(name, "about") for name in heading_cards(r.section, lexicon) or ()]
    if r.kind == "card" and r.title:
        targets.append((r.title, "card"))
    spans: dict[str, list[tuple[int, int]]] = {}
    linked = {name for name, _ in targets}
    for start, end, some in found:
        if (name := next((n for n in some if n in linked), None)) is not None:
            spans.setdefault(name, []).append((start, end))
    return [Link(r.id, "card", name, how, tuple(spans.pop(name, ()))) for name, how in targets]


def detect_phases(doc: ParsedDocument, r: Ruling, ctx: Context) -> list[Link]:
    """The phases a ruling belongs to: by its section titles first, else by what its text says."""
    if doc.source.game != "meccg" or r.kind == "card":
        return []
    in_section = phase_words(" / ".join(r.section).lower())
    found = [p for p, words in PHASES.items() if in_section.intersection(words)]
    in_text = phase_words(r.text.lower())
    if found:
        steps = [n for p in found for n in NARROWER.get(p, ()) if n not in found and in_text.intersection(PHASES[n])]
        return [Link(r.id, "phase", p, "section") for p in found] + [Link(r.id, "phase", n, "text") for n in steps]
    return [Link(r.id, "phase", p, "text") for p, words in PHASES.items() if in_text.intersection(words)]


def detect_terms(doc: ParsedDocument, r: Ruling, ctx: Context) -> list[Link]:
    """Glossary terms the text uses as the game's terms (whole words, singular or plural, hyphen or
    space): not a word of a card's name the text gives ("Lucky Search"), nor one that edits a
    quotation (an erratum's "Replace «...» with «...»"), nor one of a phrase that is everyday English
    or a phase's name (TermFinder)."""
    if doc.source.game != "meccg" or r.kind == "card":
        return []
    named = folded_spans(r.text, [(start, end) for start, end, _ in ctx.lexicon.find_spans(r.text)])
    edits = folded_spans(r.text, [m.span(1) for m in QUOTING.finditer(r.text)])
    return [Link(r.id, "term", name, "text") for name in sorted(ctx.terms.find(fold(r.text), edits, named))]


QUOTING = re.compile(r"([^\W\d_][\w'’-]*)[ \t]*[«“][^«»“”]*[»”][ \t]*(?:with|by|to)[ \t]*[«“]")
"""An erratum's edit of a card's words: the word before a quotation followed by "with", "by" or "to" and
another ("Replace «Healing card» with «Healing effect.»") edits the text, no card in play; a word before
one quotation may be the game's ("A creature «played at» a site")."""


def folded_spans(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where runs of a text's whole words (start, end in the text) are in its folded text (kb.search.query.fold),
    as TermFinder.find reads them: (the place of the space before the run, of the run's last character)
    in the folded text with a space before and after it."""
    found = []
    for start, end in spans:
        words = fold(text[start:end])
        if words:
            before = fold(text[:start])
            first = len(before) + (1 if before else 0)
            found.append((first, first + len(words)))
    return found


def detect_numbers(doc: ParsedDocument, r: Ruling, ctx: Context) -> list[Link]:
    """Annotation and rule numbers cited in the text ("as per annotation 18", "Annotations 5 and 6"),
    each with where the text cites it (a range, "2.IV.i-viii", is one span of each rule it cites)."""
    cited: dict[str, list[tuple[int, int]]] = {}
    for at, run in words_read(r.text, doc.source.parser):
        for start, end, kind, number in reference_spans(run, ranges=True):
            cited.setdefault(f"{kind}:{number}", []).append((at + start, at + end))
    links = []
    for ref in sorted(cited):
        kind, number = ref.split(":", 1)
        if kind == "annotation" and number not in ctx.annotations:
            ctx.problems.append(Problem(doc.source.id, r.span.start, f"annotation {number} does not exist"))
            continue
        # a rule as the text writes it, else one differing only in case; none: "4.0" and the like, no CoE rule
        for target in numbers_meant(number, ctx.rules.get(number.lower(), ())) if kind == "rule" else [number]:
            if (r.kind, page_key(r.kind, r.number or "")) != (kind, target):
                links.append(Link(r.id, kind, target, "cites", tuple(cited[ref])))
    return links


SEE_ALSO = re.compile(r"^\W*See(?: also)?\s+(.*)$", re.I | re.S)
"""The body is taken whole, then its closing full stop and spaces cut off (see_also_body): a lazy
(.*?)\\.?\\s*$ backtracks over every run of spaces."""


def split_see_also(text: str) -> list[list[str]]:
    """The section paths a "See also" names: "Rulings by Term, Ally and Body Check; and Turn
    Sequence, Site Phase, X" -> [["Rulings by Term", "Ally"], ["Rulings by Term", "Body Check"],
    ["Turn Sequence", "Site Phase", "X"]]."""
    m = SEE_ALSO.match(text.split("\n")[0])
    if not m:
        return []
    body = m.group(1).rstrip()
    body = body[:-1] if body.endswith(".") else body
    if (inside := re.match(r"^(.*) in (.*)$", body)) and title_key(inside.group(2)) in {title_key(p) for p in PARTS}:
        body = f"{inside.group(2)}, {inside.group(1)}"
    groups: list[str] = []
    for chunk in re.split(r";\s*(?:and\s+)?", body):
        pieces = re.split(r"(?<!\s)\s+and\s+(?=(?:" + "|".join(re.escape(p) for p in PARTS) + r")\b)", chunk,
                          flags=re.I)
        groups += [p.strip() for p in pieces if p.strip()]
    paths: list[list[str]] = []
    for group in groups:
        items = [i.strip() for i in group.split(",")]
        *prefix, last = items
        for leaf in re.split(r"(?<!\s)\s+and\s+", last):  # (?<!\s): from the first space of a run only
            paths.append(prefix + [leaf])
    return paths


def detect_see_also(doc: ParsedDocument, r: Ruling, ctx: Context) -> list[Link]:
    """A "See also" resolved to the sections (or card sections) it names; unresolved ones reported."""
    if r.kind != "see-also":
        return []
    links = []
    for path in split_see_also(r.text):
        target = ctx.sections.find(doc.source.id, path)
        if target:
            links.append(Link(r.id, "section", target.id, ", ".join(path)))
        else:
            ctx.problems.append(Problem(doc.source.id, r.span.start, f"see-also target not found: {', '.join(path)}"))
    return links


class SectionFinder:
    """Every section with its heading keys (kb.builder.headings.title_key), computed once for all the
    "See also"s, and indexed by source and last heading for the exact match; documents are added
    one at a time (add)."""

    def __init__(self, docs: Iterable[ParsedDocument] = ()) -> None:
        self.current_crf: list[str] = []
        self.by_source: dict[str, list[tuple[Section, list[str], set[str]]]] = {}
        self.by_last: dict[tuple[str, str], list[tuple[Section, list[str]]]] = {}
        for d in docs:
            self.add(d)

    def add(self, d: ParsedDocument) -> None:
        if d.source.parser == "crf" and d.source.current:
            self.current_crf.append(d.source.id)
        entries = self.by_source.setdefault(d.source.id, [])
        for s in d.sections:
            keys = [title_key(t) for t in s.path]
            if keys:  # a section without a heading is no target
                entries.append((s, keys, set(keys[-1].split())))
                self.by_last.setdefault((d.source.id, keys[-1]), []).append((s, keys))

    def find(self, source: str, path: list[str]) -> Section | None:
        """The section a "See also" path names, looked for in its own source, then the current CRF,
        then every source: the last heading exactly, else holding all its words."""
        wanted = [title_key(p) for p in path]
        order = dict.fromkeys((source, *self.current_crf, *self.by_source))
        for name in order:
            for s, keys in self.by_last.get((name, wanted[-1]), ()):
                if _subsequence(wanted[:-1], keys[:-1]):
                    return s
        words = set(wanted[-1].split())
        for name in order:
            for s, keys, last_words in self.by_source.get(name, ()):
                if words <= last_words and _subsequence(wanted[:-1], keys[:-1]):
                    return s
        return None


def _subsequence(wanted: list[str], keys: list[str]) -> bool:
    it = iter(keys)
    return all(any(w == k or w in k for k in it) for w in wanted)


DETECTORS: list[tuple[str, Detector]] = [
    ("cards", detect_cards),
    ("phases", detect_phases),
    ("terms", detect_terms),
    ("numbers", detect_numbers),
    ("see-also", detect_see_also),
]
"""The detectors, in order; add one by appending (name, function)."""


# -- the whole pass ------------------------------------------------------------------------------

@dataclass(slots=True)
class Targets:
    """What rulings link to, gathered document by document as they are parsed (add): glossary
    entries and "Rulings by Term" headings (the terms), annotation and rule numbers, every section."""

    glossary: list[tuple[str, str, str]] = field(default_factory=list)
    """(title, ruling id, text) of every glossary entry."""
    term_sections: list[tuple[str, str]] = field(default_factory=list)
    """(term, section id) of every "Rulings by Term" heading of a current CRF."""
    places: list[TermPlace] = field(default_factory=list)
    """The other headings of a current CRF and the titles of the current CoE rules that name what
    they treat (kb.builder.terms)."""
    card_sections: dict[str, str] = field(default_factory=dict)
    """Each card heading of a current CRF -> its section id (a keyword's heading names a term too)."""
    annotations: set[str] = field(default_factory=set)
    rules: list[str] = field(default_factory=list)
    sections: SectionFinder = field(default_factory=SectionFinder)

    def add(self, d: ParsedDocument) -> None:
        for r in d.rulings:
            if r.kind == "glossary" and r.title:
                self.glossary.append((r.title, r.id, r.text))
            if r.kind == "annotation":
                self.annotations.add((r.number or "").lower())
            if d.source.parser == "coe_rules" and r.number:
                self.rules.append(r.number)
        if d.source.parser == "crf" and d.source.current:
            self.term_sections += [(s.path[1], s.id) for s in d.sections
                                   if len(s.path) == 2 and s.path[0].lower() == "rulings by term"]
            self.places += crf_places(d)
            self.card_sections.update((h, s.id) for s in d.sections if (h := card_heading(s.path)) is not None)
        if d.source.parser == "coe_rules" and d.source.current:
            self.places += rule_places(d)
        self.sections.add(d)

    def glossary_names(self) -> Iterator[tuple[str, str, str]]:
        """(name, ruling id, text) of every term a glossary entry defines ("control, controller": two)."""
        for title, ruling_id, text in self.glossary:
            for name in re.split(r",\s*", re.sub(r"\s*\((?:s|es)\)", "", title)):
                yield re.sub(r"\s*\(.*?\)", "", name).strip(), ruling_id, text

    def terms(self, lexicon: Lexicon | None = None) -> list[dict[str, Any]]:
        """Terms: CoE glossary entries and CRF "Rulings by Term" headings, with where each is defined; a
        heading kb/data/term_aliases.toml joins to glossary terms is their section (and a name the first
        is asked by), not a term of its own; then the other CRF headings, the CRF's keyword headings
        (the lexicon's keywords: "Mind Ring") and the CoE rule titles that name a term, joined to it or
        terms of their own (kb.builder.terms.join_places; a heading that is a card's name is no term)."""
        lexicon = lexicon or Lexicon()
        terms: dict[str, TermDraft] = {}
        for name, ruling_id, _ in self.glossary_names():
            terms.setdefault(title_key(name), TermDraft(name, ruling_id))
        aliases = term_aliases()
        for name, section_id in self.term_sections:
            owners = aliases.get(title_key(name), [])
            if owners and all(k in terms and not terms[k].section_id for k in owners):
                for k in owners:
                    terms[k].section_id = section_id
                terms[owners[0]].aliases.append(title_key(name))
                continue
            terms.setdefault(title_key(name), TermDraft(name)).section_id = section_id
        keywords: dict[str, list[str]] = {}
        for key, heading in lexicon.keywords.items():
            keywords.setdefault(heading, []).append(key)
        places = [TermPlace(group_title(h), "heading", (self.card_sections[h],), tuple(keys))
                  for h, keys in keywords.items() if h in self.card_sections]
        join_places(terms, self.places + places, lexicon.names)
        return [t.row(k) for k, t in sorted(terms.items())]

    def actions(self) -> set[str]:
        """The keys of the glossary terms its definition calls an action or effect ("tap - An action
        that..."), whose verb is also found as -ed and -ing (term_forms)."""
        return {title_key(name) for name, _, text in self.glossary_names()
                if ACTION.match(text.split(" - ", 1)[-1])}

    def context(self, lexicon: Lexicon, terms: list[dict[str, Any]], problems: list[Problem]) -> Context:
        """What the detectors read: the lexicon, the numbers, the sections, the terms and how the
        rulings use their words (term_senses); where they put problems."""
        names, aliases = {t["key"]: t["name"] for t in terms}, term_aliases()
        joined = {heading: names[aliases[title_key(heading)][0]] for heading, _ in self.term_sections
                  if title_key(heading) not in names and title_key(heading) in aliases}
        finder = TermFinder(terms, self.actions(), joined, term_senses(names))
        return Context(lexicon, frozenset(self.annotations), cased_numbers(self.rules), self.sections, finder, problems)


ACTION = re.compile(r"(?:If [^,]*, )?(?:an? (?:action|effect)\b|to [a-z])", re.I)
"""A glossary definition that makes its term a verb: "An action that...", "An effect that...", "If a
card, an action that...", "To implement..."."""


def term_aliases() -> dict[str, list[str]]:
    """kb/data/term_aliases.toml: the key of a CRF "Rulings by Term" heading -> the keys of the glossary
    terms it is about."""
    aliases = {title_key(heading): [title_key(k) for k in keys.split(",") if k.strip()]
               for heading, keys in load_table("term_aliases").items()}
    empty = sorted(h for h, keys in aliases.items() if not keys)
    if empty:
        raise KbBroken(f"kb/data/term_aliases.toml: expected \"heading\" = \"glossary term, ...\", "
                       f"found no term for {empty[:3]}")
    return aliases


def term_senses(names: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """The phrases whose words are not (only) a glossary term's: each phase's name (PHASES' "... phase":
    "site phase" names the phase, not the term "site"), then kb/data/term_senses.toml's (folded) ->
    the names of the terms it uses ("character specific" -> specific, character), none for everyday
    English ("take place"). names: every term's name by its key (a term the sources built lack is
    none: tests/test_xref.py holds the table to the real ones)."""
    senses: dict[str, tuple[str, ...]] = {fold(w): () for words in PHASES.values() for w in words
                                          if w.endswith(" phase")}
    for phrase, used in load_table("term_senses").items():
        senses[fold(phrase)] = tuple(names[k] for k in (title_key(t) for t in used.split(",") if t.strip())
                                     if k in names)
    return senses


def term_forms(name: str, action: bool = False) -> list[str]:
    """The folded phrases that use a term: its last word bare of a final "s", or with s, es, ies
    ("hazard limits" -> "hazard limit", "hazard limits", "hazard limites"; "ally" -> "allies"); an
    action's first word also as -s, -ed and -ing (verb_forms: "remove from play" -> "removed from play")."""
    words = fold(name).split()
    if not words:
        return []
    stem = words[-1].rstrip("s")
    last = [stem, stem + "s", stem + "es", (stem[:-1] if stem.endswith("y") else stem) + "ies"]
    forms = [" ".join(words[:-1] + [w]) for w in last]
    if action:
        forms += [" ".join([w] + words[1:]) for w in verb_forms(words[0])]
    return forms


IRREGULAR = {"bear": "bore borne", "become": "became", "begin": "began begun", "break": "broke broken",
             "bring": "brought", "choose": "chose chosen", "come": "came", "draw": "drew drawn",
             "fight": "fought", "find": "found", "give": "gave given", "hold": "held", "keep": "kept",
             "lead": "led", "leave": "left", "lose": "lost", "make": "made", "pay": "paid", "ride": "rode ridden",
             "run": "ran", "send": "sent", "shoot": "shot", "steal": "stole stolen",
             "strike": "struck stricken", "take": "took taken", "tell": "told", "throw": "threw thrown",
             "win": "won", "write": "wrote written"}
"""English verbs whose past forms no rule makes (verb_forms: "draw" -> "drew", "drawn")."""


def verb_forms(verb: str) -> list[str]:
    """A verb with -s, -ed and -ing: a final e dropped (store -> stored, storing); a final consonant
    after one vowel doubled (tap -> tapped), and, for a word of more than one syllable, also not
    (cancel -> cancelled, canceled; untap -> untapped); an irregular verb's past forms instead of
    -ed (IRREGULAR: draw -> drew, drawn; make -> made)."""
    if verb.endswith("e"):
        stems = [verb[:-1]]
    elif re.search(r"(?:^|[^aeiou])[aeiou][^aeiouwxy]$", verb):
        stems = [verb + verb[-1]] + ([verb] if len(re.findall(r"[aeiouy]+", verb)) > 1 else [])
    else:
        stems = [verb]
    past = IRREGULAR[verb].split() if verb in IRREGULAR else [s + "ed" for s in stems]
    return [verb + "s"] + past + [s + "ing" for s in stems]


class TermFinder:
    """The glossary terms a folded text uses, all looked for in one pass (kb.builder.phrases)."""

    def __init__(self, terms: list[dict[str, Any]], actions: Iterable[str] = (),
                 aliases: Mapping[str, str] | None = None,
                 senses: Mapping[str, tuple[str, ...]] | None = None) -> None:
        """terms (their names), the keys of those that are actions, other phrases for a term (a heading
        joined to it, "Dice Roll" -> "make a roll"), and the phrases whose words are other terms' or
        none's (term_senses: "character specific" -> specific, character; "take place" -> none),
        which win over the terms' own where both read the same words."""
        verbs = set(actions)
        phrases = [(t["name"], (t["name"],)) for t in terms] + [(p, (name,)) for p, name in (aliases or {}).items()]
        ranked = sorted((senses or {}).items(), key=lambda p: -len(p[0])) + sorted(phrases, key=lambda p: -len(p[0]))
        forms: dict[str, int] = {}
        for rank, (phrase, _) in enumerate(ranked):  # the first phrase of those reading the same words wins
            for form in term_forms(phrase, title_key(phrase) in verbs):
                forms.setdefault(f" {form} ", rank)
        self.book = PhraseBook(forms)
        self.names = [names for _, names in ranked] + [()]  # the last (rank -1 too): a run of words taken (find)

    def find(self, folded: str, taken: Iterable[tuple[int, int]] = (),
             named: Iterable[tuple[int, int]] = ()) -> set[str]:
        """The names of the terms a folded text (kb.search.query.fold) uses, whole words, singular or plural,
        an action's verb also as -ed or -ing: where several begin at one word, the longest; none in a
        run of words taken (folded_spans: an erratum's edit) unless a longer term reads it, nor in a
        card's name (named: "Lucky Search") unless a term reads as much of it ("Hobbits")."""
        best: dict[int, tuple[int, int]] = {}  # start -> (end, rank) of the longest phrase there
        candidates = [(start, end - 2, rank) for start, end, rank in self.book.occurrences(f" {folded} ")]
        runs = [(start, end, -1) for start, end in taken] + [(start, end, len(self.names) - 1) for start, end in named]
        for start, end, rank in runs + candidates:
            if start not in best or (-end, rank) < (-best[start][0], best[start][1]):
                best[start] = (end, rank)
        found: set[str] = set()
        after = 0
        for start in sorted(best):
            if start >= after:  # matches do not overlap: the text resumes after each one
                after, rank = best[start]
                found.update(self.names[rank])
        return found


def link_document(d: ParsedDocument, ctx: Context) -> list[Link]:
    """Every detector over every ruling of one document, in order."""
    return [link for r in d.rulings for _, detect in DETECTORS for link in detect(d, r, ctx)]


def heading_cards(path: Sequence[str], lexicon: Lexicon) -> list[str] | None:
    """The cards a CRF section's heading stands for, the cards its rulings are about: a card heading
    as the lexicon read it (kb.builder.searchdata.read_heading: "Arkenstone" -> "The Arkenstone"; [] for one
    that names no card), another heading of what its rulings treat that is exactly a card's name (the
    Tournament Rulings' "Freeze the Flesh": kb.builder.terms.treated); None for any other heading."""
    heading = card_heading(path)
    if heading is not None:
        return lexicon.headings.get(heading, [])
    if treated(path) and (names := lexicon.names.get(fold(path[-1]))):
        return list(names)
    return None


def card_headings(d: ParsedDocument, lexicon: Lexicon, problems: list[Problem]) -> list[dict[str, str]]:
    """Every CRF heading of a document that stands for cards (heading_cards), and the card name(s);
    a card heading that stands for no card is a problem."""
    rows: list[dict[str, str]] = []
    if d.source.parser != "crf":
        return rows
    for s in d.sections:
        if (names := heading_cards(s.path, lexicon)) is None:
            continue
        if not names:
            problems.append(Problem(d.source.id, s.span.start, f"card heading {s.path[-1]!r} matches no card"))
        for name in names or [""]:
            rows.append({"section_id": s.id, "heading": s.path[-1], "card": name})
    return rows


REWORDED = 0.75
"""How alike (difflib's ratio of their wording_keys) two wordings must be to count as one ruling
reworded: an older-edition ruling and its counterpart, or a ruling and the place it moved to."""


def wording_key(text: str) -> str:
    """A wording as editions are compared: folded, spaces dropped (case, accents, punctuation and
    spacing are no change of wording)."""
    return fold(text).replace(" ", "")


def nearest(key: str, candidates: Iterable[tuple[str, str]]) -> tuple[str | None, float]:
    """The candidate (key, id) most like a wording key, and how alike (0 to 1): the first of equals."""
    best: str | None = None
    ratio = 0.0
    for text, target in candidates:
        q = difflib.SequenceMatcher(None, key, text, autojunk=False)
        if q.real_quick_ratio() > ratio and q.quick_ratio() > ratio:
            value = q.ratio()
            if value > ratio:
                best, ratio = target, value
    return best, ratio


def likeness(how: str) -> float | None:
    """How alike an edition link says its two wordings are: likeness("reworded (0.95)") == 0.95."""
    m = re.fullmatch(r"\w+ \((\d\.\d+)\)", how)
    return float(m.group(1)) if m else None


def edition_links(current: Iterable[Ruling], older: Iterable[Ruling]) -> Iterator[Link]:
    """Each ruling of an older CRF edition linked to its current counterpart (among the rulings of
    the current editions): same, reworded (with how alike: "reworded (0.95)"), or absent. A text the
    current edition prints more than once (a ruling repeated under Optional Rules) is the copy under
    the older ruling's own heading, else its first; each distinct text is kept once, by id."""
    exact: dict[str, dict[str, str]] = {}  # folded text -> heading -> the id of its first ruling there
    by_heading: dict[str, dict[str, str]] = {}  # heading -> folded text -> the id of its first ruling
    for c in current:  # a text repeated under one heading is compared once: the first would win the tie
        key, heading = wording_key(c.text), title_key(c.section[-1]) if c.section else ""
        exact.setdefault(key, {}).setdefault(heading, c.id)
        by_heading.setdefault(heading, {}).setdefault(key, c.id)
    for r in older:
        key, heading = wording_key(r.text), title_key(r.section[-1]) if r.section else ""
        if key in exact:
            copies = exact[key]
            yield Link(r.id, "edition", copies.get(heading) or next(iter(copies.values())), "same")
            continue
        best, ratio = nearest(key, by_heading.get(heading, {}).items())
        if best and ratio >= REWORDED:
            yield Link(r.id, "edition", best, f"reworded ({ratio:.2f})")
        else:
            yield Link(r.id, "edition", "", "absent")

"""Where an older ruling no longer in the current CRF went, read at build time (kb.builder.editions): the
current ruling worded alike (moved), else the ruling new since the older edition that shares its key
words (replaced), whether one of them negates a phrase they share (reversed), and the pairings a person
checked by hand (kb/data/successors.toml), which decide where the words alone cannot.

The words alone never make a successor certain. Measured on the ICE-era CRF with each older ruling's
own counterpart taken away, other rulings under its heading shared phrases as rare as the real
successors' do ("if a company returns to its site of origin", "more than half of your positive
marshalling points"): a successor read from the words is "possibly" one (unsure), and only a pairing
checked by hand is stated plainly.
"""

from __future__ import annotations

import difflib
import functools
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kb.errors import KbBroken
from kb.builder.headings import title_key
from kb.store.index import analyze
from kb.model import Ruling
from kb.search.query import fold
from kb.tables import data_file
from kb.builder.xref import nearest, wording_key

NEGATIONS = frozenset({"not", "no", "never", "cannot", "cant", "dont", "doesnt", "isnt", "arent", "wont", "none",
                       "nothing", "neither", "nor", "without"})
"""Words that make what follows them its opposite ("does not count", "without a movement/hazard phase"),
as kb.search.query.fold writes them (no apostrophes: "can't" -> "cant")."""
BEFORE = 3
"""How many words before a shared phrase are read for a negation ("then it does not | count against")."""
RARE = 30
"""A word found in one current ruling in RARE (or fewer) is a rare one."""
KEY_WORDS = 2
"""How rare, together, the key words of a phrase two rulings share must be for the newer to be read as
stating the older's matter: as rare as KEY_WORDS rare words (Successors.floor). A word's rarity is the
ln of how many current rulings there are for each that has it (its inverse document frequency)."""
ELSEWHERE = 2
"""Under another heading, where a shared phrase says less, it must be ELSEWHERE times as rare."""
LIKELY = 25
"""How many current wordings, those sharing the most words with an older ruling, are compared with it
letter by letter or read for a shared phrase (difflib over every ruling of the current rules took seconds)."""
VERDICTS = ("replaced", "reversed", "moved", "dropped")
"""What a person may find of an older ruling (kb.builder.changes): its matter stated anew, its opposite stated,
the same words elsewhere, nothing."""
CANDIDATES = ("note", "card", "see-also")
"""The kinds of current ruling that are no successor: a note, a card's own text, a cross-reference."""


@functools.lru_cache(maxsize=1 << 16)
def _term(word: str) -> str | None:
    """A folded word's index term (kb.store.index.analyze: "counts" -> "count"), None for a stop word."""
    terms = analyze(word)
    return terms[0] if terms else None


@dataclass(frozen=True, slots=True)
class Wording:
    """A ruling's words as successors are read: folded (kb.search.query.fold), each with its index term."""

    words: tuple[str, ...]
    terms: tuple[str | None, ...]
    """Each word's index term, None for a stop word ("the", "not", "may")."""

    @classmethod
    def of(cls, text: str) -> Wording:
        words = tuple(fold(text).split())
        return cls(words, tuple(_term(w) for w in words))

    def keys(self) -> list[str]:
        """What two wordings are matched by, word for word: the term, else the word itself."""
        return [t or w for w, t in zip(self.words, self.terms)]


@dataclass(frozen=True, slots=True)
class Phrase:
    """A run of words two wordings share (their terms alike: "count" and "counts")."""

    text: str
    """As the older wording has it, folded ("count against the 10 character limit")."""
    terms: tuple[str, ...]
    """Its key words: the terms of it that are not its heading's."""
    negation: str
    """Where only one wording negates it, which, in words ("“not” before “count against the 10
    character limit” in the older wording only"), else ""."""


def shared_phrases(older: Wording, newer: Wording, heading: frozenset[str] = frozenset()) -> list[Phrase]:
    """The runs of words two wordings share that hold two key words or more (terms not among the
    heading's, which every ruling under it shares), in the older wording's order."""
    found = []
    matcher = difflib.SequenceMatcher(None, older.keys(), newer.keys(), autojunk=False)
    for i, j, n in matcher.get_matching_blocks():
        terms = tuple(t for t in older.terms[i:i + n] if t and t not in heading)
        if len(terms) >= 2:
            text = " ".join(older.words[i:i + n])
            found.append(Phrase(text, terms, _negation(older, i, newer, j, text)))
    return found


def _negation(older: Wording, i: int, newer: Wording, j: int, text: str) -> str:
    before = [NEGATIONS.intersection(w.words[max(0, at - BEFORE):at]) for w, at in ((older, i), (newer, j))]
    if bool(before[0]) == bool(before[1]):
        return ""
    side = "older" if before[0] else "current"
    return f"“{sorted(before[0] or before[1])[0]}” before “{text}” in the {side} wording only"


def alike(older: str, newer: str) -> float:
    """How alike two wordings are, letter by letter (kb.builder.xref.nearest's ratio of their wording keys)."""
    return nearest(wording_key(older), [(wording_key(newer), "")])[1]


def reversal(older: str, newer: str) -> str:
    """Whether one of two wordings negates a phrase both have, in words ("“not” before “count against
    the 10 character limit” in the older wording only"), else "": the two may say opposite things."""
    return next((p.negation for p in shared_phrases(Wording.of(older), Wording.of(newer)) if p.negation), "")


@dataclass(frozen=True, slots=True)
class Reading:
    """The build's reading of an older ruling's successor: the current ruling new since that shares
    its rarest key phrase."""

    successor: str
    phrases: tuple[Phrase, ...]
    """The key phrases they share, the rarest first."""
    weight: float
    """How rare the rarest one's key words are, together (KEY_WORDS)."""
    elsewhere: bool
    """Whether the successor stands under another heading than the older ruling's."""

    @property
    def verdict(self) -> str:
        """"reversed" where one of them negates a phrase they share, else "replaced"."""
        return "reversed" if any(p.negation for p in self.phrases) else "replaced"

    def evidence(self) -> str:
        """What the reading rests on, in a clause."""
        where = "under another heading" if self.elsewhere else "under the same heading"
        said = ", ".join(f"“{p.text}”" for p in self.phrases[:3])
        negated = next((f"; but {p.negation}" for p in self.phrases if p.negation), "")
        return f"a ruling new since the older edition, {where}, shares its key words {said}{negated}"


class Successors:
    """The current rules an older ruling may live on in (kb.builder.editions.MOVED_TO's documents): each
    distinct wording once, with its heading and words, and which of them are new since the older
    edition (the counterpart of no older ruling, nor worded as one)."""

    def __init__(self, current: Iterable[Ruling], taken: Iterable[str], older_texts: Iterable[str]) -> None:
        """current: the rulings of the current rules; taken: the current rulings an older one is the
        same as or reworded into (kb.builder.xref.edition_links); older_texts: every older ruling's text."""
        self.first: dict[str, str] = {}  # each distinct wording key -> its first ruling
        self.wordings: dict[str, Wording] = {}
        self.heading_of: dict[str, str] = {}
        self.having: dict[str, list[str]] = {}  # a word -> the wording keys that have it
        self.new: set[str] = set()  # the rulings new since the older edition
        old = {wording_key(t) for t in older_texts}
        busy = set(taken)
        frequency: Counter[str] = Counter()
        for r in current:
            key = wording_key(r.text)
            if r.kind in CANDIDATES or key in self.first:
                continue
            self.first[key] = r.id
            self.wordings[r.id] = Wording.of(r.text)
            self.heading_of[r.id] = _heading(r)
            frequency.update({t for t in self.wordings[r.id].terms if t})
            for word in set(self.wordings[r.id].words):
                self.having.setdefault(word, []).append(key)
            if r.id not in busy and key not in old:
                self.new.add(r.id)
        self.rarity = {t: math.log(len(self.first) / n) for t, n in frequency.items()}
        self.floor = KEY_WORDS * math.log(min(RARE, max(len(self.first), 2)))
        """How rare a shared phrase must be (KEY_WORDS): two words in one ruling in 30, or among
        fewer rulings (an excerpt), each in one alone."""

    def likely(self, text: str) -> list[tuple[str, str]]:
        """The LIKELY current wordings sharing the most words with a text, as (wording key, ruling id)."""
        shared = Counter(k for word in set(fold(text).split()) for k in self.having.get(word, ()))
        return [(k, self.first[k]) for k, _ in shared.most_common(LIKELY)]

    def moved(self, text: str) -> tuple[str | None, float]:
        """The current wording most like an older one, letter by letter, of the likely ones, and how alike."""
        return nearest(wording_key(text), self.likely(text))

    def read(self, r: Ruling) -> Reading | None:
        """The ruling new since that shares an older ruling's rarest key phrase: under its heading
        (floor), else of the likely ones under another (ELSEWHERE times as rare); None if none shares
        enough."""
        if r.kind == "see-also":  # a cross-reference states no matter of its own
            return None
        older = Wording.of(r.text)
        heading = frozenset(t for title in r.section for t in Wording.of(title).terms if t)
        under = [i for i in self.new if self.heading_of[i] == _heading(r)]
        found = self._rarest(older, heading, sorted(under), self.floor, False)
        others = [i for _, i in self.likely(r.text) if i in self.new and i not in under]
        return found or self._rarest(older, heading, others, ELSEWHERE * self.floor, True)

    def _rarest(self, older: Wording, heading: frozenset[str], ids: list[str], floor: float,
                elsewhere: bool) -> Reading | None:
        best: Reading | None = None
        for i in ids:
            phrases = sorted(shared_phrases(older, self.wordings[i], heading), key=self._weight, reverse=True)
            weight = self._weight(phrases[0]) if phrases else 0.0
            if weight >= floor and (best is None or weight > best.weight):
                best = Reading(i, tuple(phrases), weight, elsewhere)
        return best

    def _weight(self, p: Phrase) -> float:
        return sum(self.rarity.get(t, 0.0) for t in p.terms)


def _heading(r: Ruling) -> str:
    return title_key(r.section[-1]) if r.section else ""


# -- the pairings checked by hand ---------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Pairing:
    """An older ruling and what a person found of it in the current rules (kb/data/successors.toml)."""

    older: str
    """The older ruling's id."""
    successor: str
    """The current ruling that replaces it, reverses it or holds it moved; "" for one dropped."""
    verdict: str
    """replaced, reversed, moved or dropped (VERDICTS)."""
    why: str
    """What the person found, in a sentence."""
    checked: str
    """Who checked it, and when."""
    older_text: str
    successor_text: str
    """The two texts as they were checked (the ids hash them; a reviewer reads them here)."""


PAIRING_FIELDS = ("older", "successor", "verdict", "why", "checked", "older_text", "successor_text")


def load_pairings(path: Path | None = None) -> dict[str, Pairing]:
    """The pairings checked by hand (kb/data/successors.toml, or the file at path), by older ruling
    id; KbBroken naming the file and the entry when it is damaged."""
    import tomllib

    where = str(path) if path else "kb/data/successors.toml"
    try:
        data = tomllib.loads((path or data_file("successors.toml")).read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise KbBroken(f"{where}: cannot be read ({exc}); restore the file or fix the line it names") from exc
    found: dict[str, Pairing] = {}
    entries = data.get("pairing", [])
    for n, entry in enumerate(entries if isinstance(entries, list) else [entries], 1):
        entry = entry if isinstance(entry, dict) else {}
        values = {k: entry.get(k) for k in PAIRING_FIELDS}
        bad = [k for k, v in values.items() if not isinstance(v, str)] + sorted(set(entry) - set(PAIRING_FIELDS))
        if bad or entry["verdict"] not in VERDICTS or (entry["verdict"] == "dropped") == bool(entry["successor"]):
            raise KbBroken(f"{where}: pairing {n} ({entry.get('older', '?')}): expected the text fields "
                           f"{', '.join(PAIRING_FIELDS)}, a verdict of {', '.join(VERDICTS)}, and a successor "
                           f"unless dropped; found {bad or [entry.get('verdict'), entry.get('successor')]}")
        found[entry["older"]] = Pairing(**values)  # type: ignore[arg-type]
    return found


def checked_pairing(pairings: Mapping[str, Pairing], r: Ruling, current: Mapping[str, str]) -> Pairing | None:
    """The pairing checked by hand of an older ruling, if both its wordings are as they were checked
    (its successor among the current rulings, current: id -> text): a new edition's wording makes it
    one to check again."""
    pairing = pairings.get(r.id)
    if pairing is None or r.text != pairing.older_text or \
            (pairing.successor and current.get(pairing.successor) != pairing.successor_text):
        return None
    return pairing

"""Names a judge types (cards, terms, phases, sources, numbers) resolved to what the knowledge base holds, or refused
with ranked suggestions."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kb.errors import Ambiguous, NotFound, Refused, require
from kb.errors import quoted as quoted  # kb.deck.deck quotes names with it
from kb.search.query import MAX_NAME as MAX_NAME, NameIndex as NameIndex  # kb.deck.deck reads names with them
from kb.search.query import FIRST_WORD_NAMES, SUGGESTIONS, asked_about, distance, fold, read_name

if TYPE_CHECKING:  # the search data is handed in: an annotation's lookup never loads its module
    from kb.search.searchspec import SearchSpec

MAX_CHOICES = 8
"""An ambiguous name lists at most this many cards; more is a miss with suggestions."""
SHARED = FIRST_WORD_NAMES
"""A name shared by at most this many cards ("khamul") is each of them, as a question's capitalised
word names the cards it begins (kb.search.query.FIRST_WORD_NAMES); by more, it is ambiguous."""


def listed(names: list[str], conjunction: str = "or") -> str:
    """listed(["a", "b", "c"]) == "a, b or c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {conjunction} {names[-1]}"


def card_index(vocab: SearchSpec) -> NameIndex:
    """The NameIndex of a build's card names, made once per search data (SearchSpec.name_index)."""
    return vocab.name_index()


# -- cards -----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CardMatch:
    """The English card names a typed name stands for, and how it was read when not exactly."""

    names: list[str]
    read_as: str = ""
    """"" for an exact name (any language); else what was understood ("'morgul knive' read as Morgul-knife")."""
    also: list[str] = field(default_factory=list)
    """The other cards an exact name begins ("Adûnaphel": Adûnaphel the Ringwraith, Adûnaphel Unleashed)."""
    each: bool = False
    """Whether names are the few cards a name is shared by ("khamul": Khamûl the Easterling, Khamûl the
    Ringwraith, Khamûl Unleashed), each a card of its own, rather than one card's versions."""


def begun_by(key: str, vocab: SearchSpec, but: Iterable[str] = ()) -> list[str]:
    """The English names of the cards whose name (in any language, folded) begins with the whole
    words of key, those in but aside: begun_by("adunaphel", ...) == ["Adûnaphel the Ringwraith",
    "Adûnaphel Unleashed"]."""
    keys = _sorted_names(vocab)
    names: list[str] = []
    at = bisect.bisect_left(keys, key + " ")
    while at < len(keys) and keys[at].startswith(key + " "):
        names += [n for n in vocab.card_names(keys[at]) or [] if n not in names and n not in but]
        at += 1
    return sorted(names, key=fold)


_sorted: dict[int, tuple[Any, list[str]]] = {}


def _sorted_names(vocab: SearchSpec) -> list[str]:
    """The search data's folded card names in order, sorted once per process for that data (as
    card_index keeps its NameIndex): the site asks begun_by for every card."""
    names = vocab.raw["names"]
    held = _sorted.get(id(names))
    if held is None or held[0] is not names:
        held = _sorted[id(names)] = (names, sorted(names))
    return held[1]


def card_candidates(names: Iterable[str], versions: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, str]]:
    """Each name's printings, for a choice: name, set, type and alignment."""
    out = []
    for name in names:
        for c in versions.get(name, []):
            out.append({"name": name, "id": str(c["id"]), "set_name": str(c["set_name"]), "type": str(c["type"]),
                        "alignment": str(c["alignment"])})
    return out


def describe(candidates: list[dict[str, str]]) -> str:
    """ "Khamûl Unleashed (The Lidless Eye, Minion Resource), ..." """
    return ", ".join(f"{c['name']} ({c['set_name']}, {c['alignment']} {c['type']})" for c in candidates)


@dataclass(frozen=True, slots=True)
class CardReading:
    """What a typed card name was read as, without raising: the card(s) meant, or the choices it
    leaves, or nothing (then the suggestions)."""

    names: list[str]
    """The English names meant (one card, or the versions a name stands for); empty when ambiguous or unknown."""
    read_as: str = ""
    """"" for an exact name (any language); else what was understood ("'morgul knive' read as Morgul-knife")."""
    choices: list[str] = field(default_factory=list)
    """The cards an ambiguous name could be (at most MAX_CHOICES)."""


def read_card(typed: str, vocab: SearchSpec, index: NameIndex | None = None) -> CardReading:
    """The card(s) a typed name means, in any language, forgiving accents, hyphens, plurals and typos.

    An exact name (folded) wins; then a near spelling ("morgul knive"); then the one card whose
    name holds every word typed ("khamul easterling"). A name that begins several cards ("khamul")
    gives their choices; nothing near gives an empty reading (NameIndex.rank suggests names).
    site/assets/resolve.js's read_card executes the same steps.
    """
    names, near = read_name(typed, vocab, index or card_index(vocab))
    if not near:
        return CardReading(names)
    if len(names) == 1:
        return CardReading(names, f"{quoted(typed)} read as {names[0]}")
    return CardReading([], choices=names if len(names) <= MAX_CHOICES else [])


def card(typed: str, vocab: SearchSpec, versions: Mapping[str, list[dict[str, Any]]]) -> CardMatch:
    """The card(s) a typed name means (read_card), read past a question's words ("what does Gandalf
    do"); a name shared by a few cards ("khamul": its every word a word of each) is each of them; a
    name that could be more, or a typo as near several, raises Ambiguous listing them with set and
    type; nothing near raises NotFound with suggestions.
    """
    typed = require(typed, "card name", 'rulings card "Gandalf"')
    asked = typed if vocab.card_names(fold(typed)) else asked_about(typed)
    key = fold(asked)
    if not key or len(key) > MAX_NAME:
        raise NotFound(f"no card named {quoted(typed)}",
                       hint=f"Search the rulings instead: `rulings search {quoted(typed)}`.")
    index = card_index(vocab)
    reading = read_card(asked, vocab, index)
    if reading.names:
        also = begun_by(key, vocab, reading.names) if not reading.read_as else []
        read_as = f"{quoted(typed)} read as {listed(reading.names, 'and')}" if reading.read_as or asked != typed else ""
        return CardMatch(reading.names, read_as, also)
    if 1 < len(reading.choices) <= SHARED and shared(key, reading.choices):
        names = sorted(reading.choices, key=fold)
        return CardMatch(names, f"{quoted(typed)} read as the {len(names)} cards it names: {listed(names, 'and')}",
                         each=True)
    if reading.choices:
        candidates = card_candidates(reading.choices, versions)
        first = reading.choices[0]
        raise Ambiguous(f"{quoted(typed)} could be {len(reading.choices)} cards: {describe(candidates)}", candidates,
                        hint=f'Name one, e.g. `rulings card "{first}"`.')
    suggested = index.rank(typed)
    hint = f"Did you mean {listed(suggested)}? " if suggested else ""
    raise NotFound(f"no card named {quoted(typed)}",
                   hint=hint + f"Or search every ruling: `rulings search {quoted(typed)}`.")


def shared(key: str, names: Iterable[str]) -> bool:
    """Whether every word of a folded name is a word of each of these names (a name they share)."""
    words = set(key.split())
    return all(words <= set(fold(name).split()) for name in names)


# -- terms, phases, sources, numbers ----------------------------------------------------------------

def term(typed: str, terms: Mapping[str, str], abbreviations: Mapping[str, str]) -> tuple[str, str]:
    """A term's key among terms (key -> name) and how it was read ("" when exactly): an
    abbreviation ("GI"), its name or plural, a near spelling, or the one term it begins; read past
    a question's words ("what is a haven?": haven)."""
    from kb.builder.headings import title_key

    typed = require(typed, "term", 'rulings term "hazard limit"')
    key, read_as = _term(typed if title_key(typed) in terms else asked_about(typed), typed, terms, abbreviations)
    return key, read_as or (f"{quoted(typed)} read as {terms[key]}" if title_key(typed) != key else "")


def _term(asked: str, typed: str, terms: Mapping[str, str], abbreviations: Mapping[str, str]) -> tuple[str, str]:
    """term() of what is asked, its messages saying what was typed."""
    from kb.builder.headings import title_key

    expanded = abbreviations.get(asked.lower(), asked)
    key = title_key(expanded)
    if key in terms:
        return key, "" if expanded == typed else f"{quoted(typed)} read as {terms[key]}"
    if expanded != asked:  # an abbreviation whose expansion adds words for the search ("MP": "marshalling points MPs")
        words = key.split()
        for k in (" ".join(words[:n]) for n in range(len(words) - 1, 0, -1)):
            if k in terms:
                return k, f"{quoted(typed)} read as {terms[k]}"
    if not key or len(key) > MAX_NAME:
        raise NotFound(f"no term {quoted(typed)} in the glossary, the CRF's headings or the CoE rules' titles",
                       hint=f"Search the rulings instead: `rulings search {quoted(typed)}`.")
    limit = max(1, len(key) // 5)
    near = sorted((distance(key, k, limit), k) for k in terms if abs(len(k) - len(key)) <= limit)
    near = _one_each([(d, k) for d, k in near if d <= limit], terms)
    if near and (len(near) == 1 or near[0][0] < near[1][0]):
        return near[0][1], f"{quoted(typed)} read as {terms[near[0][1]]}"
    compact = key.replace(" ", "")
    starts = [k for _, k in _one_each([(0, k) for k in sorted(terms) if k.startswith(key)
                                       or k.replace(" ", "").startswith(compact)], terms)]
    if len(starts) == 1:
        return starts[0], f"{quoted(typed)} read as {terms[starts[0]]}"
    if 1 < len(starts) <= 8:
        names = [terms[k] for k in starts]
        raise Ambiguous(f"{quoted(typed)} could be {len(names)} terms: {listed(names)}",
                        [{"name": n} for n in names], hint=f'Name one, e.g. `rulings term "{names[0]}"`.')
    suggested = NameIndex({k: [v] for k, v in terms.items()}).rank(expanded)
    hint = f"Did you mean {listed(suggested)}? " if suggested else ""
    raise NotFound(f"no term {quoted(typed)} in the glossary, the CRF's headings or the CoE rules' titles",
                   hint=hint + f"Or search every ruling: `rulings search {quoted(typed)}`.")


def _one_each(found: list[tuple[int, str]], terms: Mapping[str, str]) -> list[tuple[int, str]]:
    """The first key found of each term (terms: key -> name; a term asked by several keys is one)."""
    out: dict[str, tuple[int, str]] = {}
    for d, k in found:
        out.setdefault(terms[k], (d, k))
    return list(out.values())


PHASE_WORDS = re.compile(r"^ the | phase ")
"""What a phase is named with but by: a "the" before it, the word "phase" ("the site phase": site)."""


def phase(typed: str, names: Mapping[str, str], aliases: Mapping[str, str]) -> str:
    """A phase id from its name, an alias ("M/H", "eot") or a near spelling ("movment"), read past a
    question's words and the phase's own ("what happens in the site phase?": site)."""
    typed = require(typed, "phase", "rulings phase M/H")
    key = " ".join(PHASE_WORDS.sub(" ", f" {asked_about(typed).lower()} ").split())
    found = aliases.get(key) or (key if key in names else "")
    if not found and len(key) <= MAX_NAME:
        keys = {**{a: [p] for a, p in aliases.items()}, **{p: [p] for p in names},
                **{fold(n): [p] for p, n in names.items()}}
        limit = max(1, len(key) // 5)
        near = sorted((distance(fold(key), k, limit), k) for k in keys)
        if near and near[0][0] <= limit:
            found = keys[near[0][1]][0]
    if found:
        return found
    ranked = NameIndex({**{fold(n): [p] for p, n in names.items()}, **{fold(a): [p] for a, p in aliases.items()}}
                       ).rank(typed, n=len(names))
    ordered = ranked + [p for p in names if p not in ranked]
    raise NotFound(f"no phase {quoted(typed)}",
                   hint=f"Try one of: {', '.join(ordered)} (or M/H, org, eot, combat).")


def source(typed: str, known: Mapping[str, str]) -> str:
    """A source id (known: id -> title) as typed, or folded ("CRF 22" is crf-22); Refused listing
    the known ids, nearest first."""
    typed = require(typed, "source", "--source crf-22")
    if typed in known:
        return typed
    by_key = {fold(k): k for k in known} | {fold(t): k for k, t in known.items()}
    if fold(typed) in by_key:
        return by_key[fold(typed)]
    compact = {fold(k).replace(" ", ""): k for k in known}
    if fold(typed).replace(" ", "") in compact:
        return compact[fold(typed).replace(" ", "")]
    ranked = NameIndex({fold(k): [k] for k in known} | {fold(t): [k] for k, t in known.items()}).rank(typed, n=3)
    ordered = ranked + [k for k in known if k not in ranked]
    mean = f"Did you mean {ranked[0]}? " if ranked else ""
    raise Refused(f"no source {quoted(typed)}",
                  hint=f"{mean}Known sources: {', '.join(ordered)} (see `rulings stats`).")


def number_hint(kind: str, typed: str, numbers: list[str]) -> str:
    """Did-you-mean for an annotation or rule number, nearest first, and the range there is."""
    key = typed.strip().lower()
    ranked = sorted(numbers, key=lambda n: (distance(key, n.lower(), 3), not n.lower().startswith(key[:2]), n))
    near = [n for n in ranked if distance(key, n.lower(), 3) <= 2 or n.lower().startswith(key[:3] or "-")][:SUGGESTIONS]
    mean = f"Did you mean {listed(near)}? " if near else ""
    if kind == "annotation":
        plain = sorted({int(n.rstrip("ab")) for n in numbers if n.rstrip("ab").isdigit()})
        return mean + (f"The CRF's annotations run {plain[0]} to {plain[-1]}." if plain else "")
    return mean + "Rule numbers look like 2.IV.iii or g.hav.3; `rulings rule 2` lists chapter 2."

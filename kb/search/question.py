"""A question understood: a judge's words in, weighted index terms and recognised references out, in
the four steps understand() takes (references, cards, words, weights) over what kb.search.query reads.

site/assets/question.js executes the same steps, so the terminal and the phone read a question alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from kb.keys import numbers_meant
from kb.search.query import (PATTERNS, QUERY_WORD, QUESTION_WORDS, WEIGHTS, Understanding, Vocabulary, analyze_text,
                             clean, fold, name_spans, strip_marks)


@dataclass(frozen=True, slots=True)
class Focus:
    """Which sentences of a query ask its question: in a post of several sentences where some end
    with "?", those; the others tell the story around it (their words and cards weigh less)."""

    ends: list[int]
    """Where each sentence ends (its closing punctuation included)."""
    asking: list[bool]
    """Whether each sentence asks the question."""

    @classmethod
    def of(cls, text: str) -> Focus:
        ends, asking = [], []
        for m in PATTERNS["sentence_end"].finditer(text):
            ends.append(m.end())
            asking.append("?" in m.group(0))
        if not ends or text[ends[-1]:].strip():
            ends.append(len(text))
            asking.append(False)
        if len(ends) < 2 or not any(asking):
            return cls([len(text)], [True])
        return cls(ends, asking)

    def asks(self, at: int) -> bool:
        """Whether the sentence holding offset `at` asks the question."""
        for end, asking in zip(self.ends, self.asking):
            if at < end:
                return asking
        return self.asking[-1]

    def weight(self, at: int) -> float:
        """What a word at offset `at` weighs, as the question's or the story's."""
        return 1.0 if self.asks(at) else WEIGHTS["story"]


def understand(query: str, vocab: Vocabulary) -> Understanding:
    """Read a query: references, cards, abbreviations, synonyms, typos, question words -> weighted
    index terms, in four steps (search.js's understand takes the same)."""
    q = clean(query)
    u = Understanding(q)
    rest = read_references(u, strip_marks(q), vocab)
    rest = read_cards(u, rest, vocab)
    u.terms = weigh_references(u, read_words(u, rest, vocab))
    u.question = "?" in q or len(u.dropped) >= 2 or len(q.split()) >= 6
    return u


def read_references(u: Understanding, a: str, vocab: Vocabulary) -> str:
    """What a query points at by its form: another game, Arda, "how many", the numbers it gives, the
    annotations and rules it cites (taken out of the text returned), the term a "what is X" asks."""
    if PATTERNS["other_game"].search(a):
        u.games.append("lotr-tcg")
    u.arda = bool(PATTERNS["arda"].search(a))
    u.how_many = bool(PATTERNS["how_many"].search(a))
    u.numbers = sorted({m.group(0).lower() for m in PATTERNS["number"].finditer(a)})
    rest = a
    for m in PATTERNS["annotation"].finditer(a):
        u.annotations.append(m.group(1).lower())
        rest = rest.replace(m.group(0), " ")
    for m in PATTERNS["timing"].finditer(rest):
        u.rules += rule_numbers(m.group(1), vocab)
    for m in PATTERNS["rule"].finditer(rest):
        u.rules += rule_numbers(m.group(1), vocab)
        rest = rest.replace(m.group(0), " ")
    meaning = PATTERNS["define"].match(rest) or PATTERNS["asked"].match(rest)
    if meaning:
        subject = next((g for g in meaning.groups() if g), "")
        u.define = [t for t in analyze_text(subject, vocab) if not t[0].isdigit()]
    return rest


def rule_numbers(typed: str, vocab: Vocabulary) -> list[str]:
    """The rule numbers a typed one stands for (kb.keys.numbers_meant): itself where the sources
    write it so, else those differing from it only in case ("rule 2.iv.iii" is 2.IV.iii, "rule 3.V"
    is 3.V and not 3.v); the search data's rule_numbers table lists the numbers the sources write with
    capitals by their lower case."""
    lower = typed.lower()
    return numbers_meant(typed, (vocab.expansion("rule_numbers", lower) or lower).split(" "))


def read_cards(u: Understanding, rest: str, vocab: Vocabulary) -> str:
    """The cards a query names (name_spans), those named only in its story, whether it asks for a
    card's text or is nothing but names; the text returned without its filler phrases."""
    focus = Focus.of(rest)
    spans, near = name_spans(rest, vocab) if rest.strip() else ([], False)
    for sp in spans:
        u.cards += [c for c in sp.names if c not in u.cards]
        if sp.near:
            u.near_cards.append((fold(rest[sp.start:sp.end]), sp.names[0]))
    asked = {c for sp in spans if focus.asks(sp.start) for c in sp.names}
    u.story_cards = [c for c in u.cards if c not in asked]
    u.card_text = bool(PATTERNS["card_text"].search(rest))
    bare = fold(PATTERNS["card_text"].sub(" ", rest))
    named = {w for c in u.cards for w in fold(c).split()}
    u.card_query = bool(u.cards) and (near or bool(vocab.card_names(bare)) or all(
        w in named or vocab.count_of(w) == 0 for w in bare.split()))
    u.dropped += [m.group(0) for m in PATTERNS["filler"].finditer(rest)]
    return PATTERNS["filler"].sub(" ", rest)


def read_words(u: Understanding, rest: str, vocab: Vocabulary) -> dict[str, float]:
    """The index terms of a query's words, each at its best weight: synonyms' rules words, the
    abbreviations spelt out, the words typed (corrected where misspelt), the story's at half."""
    weights: dict[str, float] = {}

    def add(terms: list[str], weight: float) -> None:
        for t in terms:
            weights[t] = max(weights.get(t, 0.0), weight)

    focus = Focus.of(rest)
    synonyms, said_spans = read_synonyms(u, rest, focus, vocab)
    expanded: list[tuple[str, float]] = []
    typed: list[tuple[list[str], float]] = []
    for m in QUERY_WORD.finditer(rest):
        word = m.group(0).strip(".'-")
        if not word:
            continue
        weight = WEIGHTS["said"] if any(a <= m.start() < b for a, b in said_spans) else WEIGHTS["typed"]
        weight *= focus.weight(m.start())
        expansion = vocab.expansion("abbreviations", word.lower())
        if expansion:
            u.abbreviations.append((word, expansion))
            expanded.append((expansion, focus.weight(m.start())))
            terms = analyze_text(word, vocab)
            u.content.append(word)
            typed.append((terms, weight))
            continue
        key = fold(word)
        if not key or key in QUESTION_WORDS:
            u.dropped.append(word)
            continue
        before = len(u.corrections)
        terms = analyze_text(word, vocab, u)
        u.content.append(" ".join(c for _, c in u.corrections[before:]) or word)
        if not focus.asks(m.start()):
            u.story.append(u.content[-1])
        typed.append((terms, weight))
    for expansion, weight in list(expanded):
        for m in vocab.phrases("synonyms").finditer(expansion):
            synonyms.append((vocab.expansion("synonyms", m.group(0).lower()) or "", weight))
    for text, weight in synonyms:
        add(analyze_text(text, vocab), WEIGHTS["synonym"] * weight)
    for text, weight in expanded:
        add(analyze_text(text, vocab), WEIGHTS["abbreviation"] * weight)
    for terms, weight in typed:
        u.typed += terms
        add(terms, weight)
    return weights


def read_synonyms(u: Understanding, rest: str, focus: Focus,
                  vocab: Vocabulary) -> tuple[list[tuple[str, float]], list[tuple[int, int]]]:
    """The players' phrases a query says (kb/data/synonyms.toml): the rules' words each stands for,
    at its sentence's weight, and where each was said."""
    synonyms: list[tuple[str, float]] = []
    said_spans: list[tuple[int, int]] = []
    for m in vocab.phrases("synonyms").finditer(rest):
        said = m.group(0)
        rules_words = vocab.expansion("synonyms", said.lower()) or ""
        u.synonyms.append((said, rules_words))
        synonyms.append((rules_words, focus.weight(m.start())))
        said_spans.append((m.start(), m.end()))
    return synonyms, said_spans


def weigh_references(u: Understanding, weights: dict[str, float]) -> list[tuple[str, float]]:
    """The weighted terms: the words', then each card's (about and mention; a story's card at its
    weight), each annotation's and rule's (its number and the rulings citing it)."""
    weighted = list(weights.items())
    for name in u.cards:
        key = fold(name)
        told = WEIGHTS["story"] if name in u.story_cards else 1.0
        weighted.append((f"about:{key}", (WEIGHTS["about"] if u.card_query else WEIGHTS["about_named"]) * told))
        weighted.append((f"mention:{key}", WEIGHTS["mentions"] * told))
    for n in u.annotations:
        weighted += [(f"number:annotation:{n}", WEIGHTS["number"]),
                     (f"cites:annotation:{n}", WEIGHTS["cites_annotation"])]
    for n in u.rules:
        weighted += [(f"number:{n}", WEIGHTS["number"]), (f"cites:rule:{n}", WEIGHTS["cites_rule"])]
    return weighted

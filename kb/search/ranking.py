"""Ranking: what each search hit is (its features) and the weights that turn features into a score.

A hit's score is its BM25 score times exp(sum of weight x feature). The weights live in
kb/data/ranking.toml; tools/tune_ranking.py fits them on question files and reports how well they
hold on questions left out of the fitting. What no query changes of a document (its prior, the terms
it defines, ...) is decided by the build (document_fields, kb.search.searchspec.Doc); site/assets/ranking.js
scores as this module does.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.errors import KbBroken
from kb.inputs import parse_toml
from kb.search.query import PATTERNS, Understanding, fold
from kb.search.searchspec import SearchSpec
from kb.tables import data_file

COVERAGE_FLOOR = 0.1

FEATURES = (
    "coverage",          # log share of the question's weight (IDF) the ruling's text and heading hold
    "heading_is_query",  # the heading says what the query says ("Hazard Limit" for "hazard limit")
    "definition",        # ... and where a definition puts them (start, quotes, after "i.e.", a step's name)
    "number_answer",     # a "how many" question and a ruling that gives a number
    "source:official rules", "source:rulebook", "source:timing guide", "source:variant",
    "source:variant asked", "older edition",
    "kind:glossary", "kind:note", "kind:guidance", "kind:citation-key", "kind:change-log",
    "kind:reference", "kind:see-also",
    "card:asked text", "card:other",
    "card:unnamed ruling",  # a ruling on one card, for a query that doesn't name it
    "card:named ruling",    # a ruling on a card a question names ("does Stealth stop ...")
    "card:story ruling",    # a ruling on a card named only in the story told around the question
    "defines",              # a glossary entry of the term the query is ("haven") or asks the meaning of
    "definition asked",     # ... for a "what is X" / "what does X mean" question
)
"""Every feature a weight can be given. The CRF, rulings of kind "ruling" or "rule", and the
current edition are the baselines the source, kind and edition features are measured against."""
KNOWN = frozenset(FEATURES)


def parse_weights(text: str, where: str = "kb/data/ranking.toml") -> dict[str, float]:
    """Feature weights from TOML text (a [weights] table); a feature not listed weighs nothing."""
    import tomllib  # (here: a search scores with the weights its search data ships)

    try:
        table = parse_toml(text).get("weights")
    except tomllib.TOMLDecodeError as exc:
        raise KbBroken(f"{where}: not valid TOML ({exc})") from exc
    if not isinstance(table, dict):
        raise KbBroken(f"{where}: expected a [weights] table of feature = number")
    unknown = sorted(set(table) - KNOWN)
    if unknown:
        raise KbBroken(f"{where}: unknown features {unknown}; expected some of {list(FEATURES)}")
    bad = sorted(k for k, v in table.items() if isinstance(v, bool) or not isinstance(v, (int, float)))
    if bad:
        raise KbBroken(f"{where}: weights must be numbers, not {bad}")
    return {f: float(table.get(f, 0.0)) for f in FEATURES}


def read_weights_text() -> str:
    return data_file("ranking.toml").read_text("utf-8")


@functools.lru_cache(maxsize=1)
def weights() -> dict[str, float]:
    """The shipped weights (kb/data/ranking.toml), read on first use so that a damaged file is a
    one-line error from the command that needed it, not a traceback at import."""
    return parse_weights(read_weights_text())


def document_fields(kind: str, text: str, source_kind: str, current: bool) -> dict[str, Any]:
    """What the ranking knows of a document whatever the query, decided once by the build and shipped
    as its named fields (kb.search.searchspec.Doc): "prior", its constant features in the order features()
    scores them (its source's kind, an older edition, its kind; a card's text has no kind feature:
    whether it was asked for is the query's), only those FEATURES names; "numbers", the numbers its
    text gives (number_answer); "step", the name of the rulebook step it opens with, folded (definition)."""
    prior = source_prior(source_kind, current) + ([] if kind == "card" else [f"kind:{kind}"])
    label = PATTERNS["step"].match(text)
    return {"prior": [name for name in prior if name in KNOWN],
            "numbers": sorted({m.group(0).lower() for m in PATTERNS["number"].finditer(text)}),
            "step": fold(label.group(1)) if label else ""}


def source_prior(source_kind: str, current: bool) -> list[str]:
    """The prior features a document has from where it is written: its source's kind, an older edition
    (CRF 22 and the card database, current, have none: the baselines)."""
    return ([f"source:{source_kind}"] if source_kind else []) + ([] if current else ["older edition"])


def authority(source_kind: str, current: bool, w: dict[str, float]) -> float:
    """How much a source's word counts, as the ranking weighs it (the weights of its source_prior, 0 for
    CRF 22): the authority order of docs/search.md, CRF 22, the card errata and the CoE rules first, then
    the older CRF, the rulebook, the timing guide, Arda. Rulings stating one rule are listed by it."""
    return plain_sum(w.get(name, 0.0) for name in source_prior(source_kind, current))


VARIANT = "source:variant"
"""The prior feature of a variant's rulings, which a query that asks for the variant (names it, or
searches only its source) turns into "source:variant asked"."""


@dataclass(slots=True)
class QueryContext:
    """What every candidate of one query is compared with, computed once per query."""

    total: float
    """The IDF-weighted total of the query's plain terms: what coverage is measured in (0: no words)."""
    query_stems: frozenset[str]
    phrase: re.Pattern[str] | None
    cards: frozenset[str]
    card_text: bool
    card_query: bool
    reference: bool
    how_many: bool
    numbers: frozenset[str]
    """The numbers the query itself gives, which are no answer to it."""
    variant_asked: bool
    source: str | None
    spec: SearchSpec
    story_cards: frozenset[str]
    define: frozenset[str]

    @classmethod
    def of(cls, u: Understanding, source: str | None, spec: SearchSpec, total: float) -> QueryContext:
        return cls(total, frozenset(u.typed), short_phrase(u), frozenset(fold(c) for c in u.cards), u.card_text,
                   u.card_query, bool(u.annotations or u.rules), u.how_many, frozenset(u.numbers), u.arda, source, spec,
                   frozenset(fold(c) for c in u.story_cards), frozenset(u.define))


def features(d: int, covered: float, q: QueryContext) -> dict[str, float]:
    """The features of candidate document d for one query (names from FEATURES; absent means 0);
    `covered` is the IDF-weighted share of the query's terms its passage holds. What no query
    changes is the document's own (kb.search.searchspec.Doc): its prior, the terms it defines, its
    heading's terms, the numbers and the step it gives."""
    doc = q.spec.doc(d)
    f: dict[str, float] = {}
    for name in q.spec.prior(d):
        if name == VARIANT and (q.variant_asked or q.source == q.spec.raw["sources"][doc.source]["id"]):
            name = "source:variant asked"
        f[name] = 1.0
    if doc.kind == "card":
        named = not q.cards.isdisjoint(doc.about)  # a card's text is about its card alone
        if named and q.card_text:
            f["card:asked text"] = 1.0
        elif not (named and q.card_query):
            f["card:other"] = 1.0
    else:
        if doc.about and q.cards.isdisjoint(doc.about):
            f["card:unnamed ruling"] = 1.0
        elif doc.about and not q.card_query:
            told = q.story_cards.issuperset(q.cards.intersection(doc.about))
            f["card:story ruling" if told else "card:named ruling"] = 1.0
        if doc.defines:
            defined = frozenset(doc.defines)
            if q.define and defined == q.define:
                f["definition asked"] = 1.0
            elif defined == q.query_stems and not q.card_query:
                f["defines"] = 1.0
    heading = q.spec.heading_terms(doc.section)
    if heading is not None and (heading == q.query_stems or (q.define and heading == q.define)):
        f["heading_is_query"] = 1.0
    if q.total and not (q.reference or q.card_query):
        f["coverage"] = math.log(COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * covered)
    if q.how_many and any(n not in q.numbers for n in doc.numbers):
        f["number_answer"] = 1.0
    if q.phrase is not None:
        folded = fold(doc.text)
        m = q.phrase.search(folded)
        if m and (defines(folded[:m.start()].split(), m.group(0), doc.text)
                  or (doc.step and q.phrase.search(doc.step))):
            f["definition"] = 1.0
    return f


def defines(prefix: list[str], phrase: str, text: str) -> bool:
    """Whether a ruling puts the phrase where a definition does: at its start, in quotes, or after
    "i.e." ("(i.e., the hazard limit) is equal to ...")."""
    after_ie = prefix[-2:] == ["i", "e"] or (prefix[-3:-1] == ["i", "e"] and prefix[-1] in ("the", "a", "an"))
    if len(prefix) <= 2 or after_ie:
        return True
    return re.search(r"[\"\u201c\u00ab]\s*" + re.escape(phrase.split()[0]), text.lower()) is not None


def plain_sum(values: Iterable[float]) -> float:
    """A sum added left to right, as JavaScript adds: Python's sum() of floats compensates from 3.12
    on, so a query's totals and scores would differ from the browser's in their last bits (and equal
    scores, ordered by document, could part). Kept where the runtimes add per query; a sum made once
    by the build (the mean passage length) is shipped instead."""
    total = 0.0
    for v in values:
        total += v
    return total


def score(bm25: float, f: dict[str, float], weights: dict[str, float]) -> float:
    """A candidate's score: its BM25 score times exp(sum of weight x feature); a feature without a
    weight adds nothing."""
    return bm25 * math.exp(plain_sum(weights.get(name, 0.0) * value for name, value in f.items()))


def short_phrase(u: Understanding) -> re.Pattern[str] | None:
    """For a short query naming a term ("hazard limit", "keyed to"), the term as a folded phrase."""
    words = fold(" ".join(u.content)).split()
    if not 1 < len(words) <= 4 or u.cards or u.annotations or u.rules:
        return None
    body = r"\s+".join(re.escape(w.rstrip("s")) + r"\w{0,3}" for w in words)
    return re.compile(rf"\b{body}\b", re.A)


def contributions(bm25: float, f: dict[str, float], weights: dict[str, float]) -> dict[str, float]:
    """What each feature adds to a candidate's log-score, BM25's own log-score first, for --explain."""
    out = {"bm25": round(math.log(max(bm25, 1e-6)), 3)}
    out.update((name, round(weights.get(name, 0.0) * v, 3)) for name, v in f.items())
    return {name: v for name, v in out.items() if v}


def export_weights() -> dict[str, Any]:
    """The weights with a value, as the search data ships them."""
    return {name: w for name, w in weights().items() if w}

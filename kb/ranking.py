"""Ranking: what each search hit is (its features) and the weights that turn features into a score.

A hit's score is its BM25 score times exp(sum of weight x feature). The weights live in
kb/data/ranking.toml; tools/tune_ranking.py fits them on question files and reports how well they
hold on questions left out of the fitting.
"""

from __future__ import annotations

import functools
import math
import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING

from kb.errors import KbBroken
from kb.index import Hit, Index, analyze
from kb.names import fold

if TYPE_CHECKING:
    from kb.search import Understanding

COVERAGE_FLOOR = 0.1
HOW_MANY = re.compile(r"\bhow (?:many|much|few)\b|\bnumber of\b|\bmaximum\b|\bminimum\b", re.I)
NUMBER = re.compile(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|twice)\b", re.I)
"""A number a ruling gives ("one" is left out: rulings say "one of the ..." all the time)."""

FEATURES = (
    "bm25",              # log BM25 score (its weight is added to 1: below 0, the other features count more)
    "coverage",          # log share of the question's weight (IDF) the ruling's text and heading hold
    "heading",           # share of the question's weight in the ruling's own heading
    "heading_is_query",  # the heading says what the query says ("Hazard Limit" for "hazard limit")
    "phrase",            # a short query's words appear together
    "definition",        # ... and where a definition puts them (start, quotes, after "i.e.")
    "proximity",         # share of the question's neighbouring word pairs found close together
    "window",            # log share of the question's weight inside the ruling's best passage of SPAN words
    "number_answer",     # a "how many" question and a ruling that gives a number
    "source:official rules", "source:rulebook", "source:timing guide", "source:variant",
    "source:variant asked", "older edition",
    "question:official rules",  # a question (not a bare term or name) answered from the CoE rules
    "kind:glossary", "kind:note", "kind:guidance", "kind:citation-key", "kind:change-log",
    "kind:reference", "kind:see-also", "kind:erratum", "kind:annotation", "kind:example",
    "card:asked text", "card:other",
    "card:unnamed ruling",  # a ruling on one card, for a query that doesn't name it
    "card:named ruling",    # a ruling on a card a question names ("does Stealth stop ...")
)
"""Every feature a weight can be given. The CRF, rulings of kind "ruling" or "rule", and the
current edition are the baselines the source, kind and edition features are measured against."""
KNOWN = frozenset(FEATURES)


def parse_weights(text: str, where: str = "kb/data/ranking.toml") -> dict[str, float]:
    """Feature weights from TOML text (a [weights] table); a feature not listed weighs nothing."""
    try:
        table = tomllib.loads(text).get("weights")
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
    return resources.files("kb").joinpath("data/ranking.toml").read_text("utf-8")


@functools.lru_cache(maxsize=1)
def weights() -> dict[str, float]:
    """The shipped weights (kb/data/ranking.toml), read on first use so that a damaged file is a
    one-line error from the command that needed it, not a traceback at import."""
    return parse_weights(read_weights_text())


@dataclass(slots=True)
class QueryContext:
    """What every hit of one query is compared with, computed once per query."""

    term_weights: dict[str, float]
    total: float
    query_stems: frozenset[str]
    pairs: list[tuple[str, str, float]]
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
    question: bool
    needed: frozenset[str]
    """The features worth computing: those with a weight (all of them when fitting)."""

    @classmethod
    def of(cls, u: Understanding, source: str | None, index: Index, needed: frozenset[str] | None = None) -> QueryContext:
        term_weights: dict[str, float] = {}
        for fld, term, boost in u.terms:
            if fld == "text":
                term_weights[term] = max(term_weights.get(term, 0.0), boost * index.idf("text", term))
        typed = analyze(" ".join(u.content))
        known = [t for t in typed if t in term_weights]
        pairs = [(a, b, min(term_weights[a], term_weights[b])) for a, b in zip(known, known[1:]) if a != b]
        return cls(term_weights, sum(term_weights.values()), frozenset(typed), pairs,
                   short_phrase(u), frozenset(fold(c) for c in u.cards), u.card_text, u.card_query,
                   bool(u.annotations or u.rules), bool(HOW_MANY.search(u.query)),
                   frozenset(m.group(0).lower() for m in NUMBER.finditer(u.query)), u.arda, source,
                   is_question(u), frozenset(f for f, w in weights().items() if w) if needed is None else needed)


def is_question(u: Understanding) -> bool:
    """A question or a situation, as against a bare name, term, phase or number."""
    return "?" in u.query or len(u.dropped) >= 2 or len(u.query.split()) >= 6


def features(h: Hit, q: QueryContext) -> dict[str, float]:
    """The features of one hit for one query (names from FEATURES; absent means 0). Those that read
    the ruling's text word by word are computed only when they weigh something (q.needed)."""
    d = h.data
    f: dict[str, float] = {"bm25": math.log(max(h.score, 1e-6))}
    kind = d.get("source_kind", "")
    if kind == "variant":
        f["source:variant asked" if q.variant_asked or q.source == d["source"] else "source:variant"] = 1.0
    elif kind:
        f[f"source:{kind}"] = 1.0
        if q.question:
            f[f"question:{kind}"] = 1.0
    if not d["current"]:
        f["older edition"] = 1.0
    if d["kind"] == "card":
        named = fold(d.get("title") or "") in q.cards
        if named and q.card_text:
            f["card:asked text"] = 1.0
        elif not (named and q.card_query):
            f["card:other"] = 1.0
    else:
        f[f"kind:{d['kind']}"] = 1.0
        if d.get("about") and not q.cards.intersection(d["about"]):
            f["card:unnamed ruling"] = 1.0
        elif d.get("about") and not q.card_query:
            f["card:named ruling"] = 1.0
    heading = d["section"][-1] if d["section"] else ""
    if heading and heading_terms(heading) == q.query_stems:
        f["heading_is_query"] = 1.0
    if q.total and not (q.reference or q.card_query):
        terms = set(d.get("terms", ()))
        covered = sum(w for t, w in q.term_weights.items() if t in terms) / q.total
        f["coverage"] = math.log(COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * covered)
        if heading:
            f["heading"] = sum(w for t, w in q.term_weights.items() if t in heading_terms(heading)) / q.total
        if "window" in q.needed:
            f["window"] = math.log(COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * best_window(d["text"], q))
    if q.pairs and "proximity" in q.needed:
        f["proximity"] = proximity(d["text"], q.pairs)
    if q.how_many and any(m.group(0).lower() not in q.numbers for m in NUMBER.finditer(d["text"])):
        f["number_answer"] = 1.0
    if q.phrase is not None:
        folded = fold(d["text"])
        m = q.phrase.search(folded)
        if m:
            f["phrase"] = 1.0
            prefix = folded[:m.start()].split()
            if defines(prefix, m.group(0), d["text"]):
                f["definition"] = 1.0
    return {name: value for name, value in f.items() if name in KNOWN}


def defines(prefix: list[str], phrase: str, text: str) -> bool:
    """Whether a ruling puts the phrase where a definition does: at its start, in quotes, or after
    "i.e." ("(i.e., the hazard limit) is equal to ...")."""
    after_ie = prefix[-2:] == ["i", "e"] or (prefix[-3:-1] == ["i", "e"] and prefix[-1] in ("the", "a", "an"))
    return len(prefix) <= 2 or after_ie or re.search(r"[\"“«]\s*" + re.escape(phrase.split()[0]), text.lower()) is not None


@functools.lru_cache(maxsize=4096)
def heading_terms(heading: str) -> frozenset[str]:
    """The analysed words of a section heading, without its number ("2.III. Long-event Phase" is
    the long-event phase); remembered, as headings repeat across hits and queries."""
    return frozenset(t for t in analyze(heading) if not t[0].isdigit())


WINDOW = 3
"""Neighbouring query words count as close in a ruling when at most this many words apart."""


def proximity(text: str, pairs: list[tuple[str, str, float]]) -> float:
    """The weighted share of the query's neighbouring word pairs that stand close in the text."""
    where: dict[str, list[int]] = {}
    for i, t in enumerate(analyze(text)):
        where.setdefault(t, []).append(i)
    found = total = 0.0
    for a, b, w in pairs:
        total += w
        if a in where and b in where and any(abs(i - j) <= WINDOW for i in where[a] for j in where[b]):
            found += w
    return found / total if total else 0.0


SPAN = 20


def best_window(text: str, q: QueryContext) -> float:
    """The largest share of the query's weight found within SPAN consecutive words of the text."""
    terms = analyze(text)
    weights = q.term_weights
    best = 0.0
    for i, t in enumerate(terms):
        if t in weights:
            inside = {u for u in terms[i:i + SPAN] if u in weights}
            best = max(best, sum(weights[u] for u in inside))
    return best / q.total


def score(bm25: float, f: dict[str, float], weights: dict[str, float]) -> float:
    """A hit's score: its BM25 score times exp(sum of weight x feature); a feature without a weight
    adds nothing."""
    return bm25 * math.exp(sum(weights.get(name, 0.0) * value for name, value in f.items()))


def short_phrase(u: Understanding) -> re.Pattern[str] | None:
    """For a short query naming a term ("hazard limit", "keyed to"), the term as a folded phrase."""
    words = fold(" ".join(w for w in u.content[:len(u.content) - len(u.synonyms)])).split()
    if not 1 < len(words) <= 4 or u.cards or u.annotations or u.rules:
        return None
    body = r"\s+".join(re.escape(w.rstrip("s")) + r"\w{0,3}" for w in words)
    return re.compile(rf"\b{body}\b")


def contributions(f: dict[str, float], weights: dict[str, float]) -> dict[str, float]:
    """What each feature adds to a hit's log-score (BM25's own log-score included), for --explain."""
    out = {name: round(weights.get(name, 0.0) * v, 3) for name, v in f.items()}
    out["bm25"] = round(f.get("bm25", 0.0) * (1 + weights.get("bm25", 0.0)), 3)
    return {name: v for name, v in out.items() if v}

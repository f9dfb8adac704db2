"""Q&A search: a judge's question in, ranked rulings out, every step of understanding visible.

search() and explain_search() share one Searcher, which opens the index and lexicon once
(`rulings ask` keeps it open between questions).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import KbMissing
from kb.index import Hit, Index, analyze
from kb.names import Lexicon, fold, load_table
from kb.ranking import QueryContext, contributions, features, score, weights
from kb.store import CURRENT, INDEX_DIR, LEXICON

MAX_QUERY = 2000
QUESTION_WORDS = frozenset("""
a an the i me my mine we our you your he his she her they their them it its is are was were be been being
am do does did doing done can could would should shall will may might must what whats which who whom
whose when where why how many much if then than there here this that these those just still also
happen happens happened legal allowed okay ok possible please tell anyone someone some any really
get gets got so too very about into onto or and but not no yes
""".split())
FILLER = re.compile(r"\b(?:(?:ends?|ended|ending) up|at all|in the first place|(?:kinds?|sorts?) of|a lot of)\b", re.I)
"""Phrases of the way a question is put, not of what it asks ("which effect ends up winning")."""
ANNOTATION_REF = re.compile(r"\b(?:annotations?|annot|anno|ann)\.?\s*#?\s*(\d{1,2}[a-b]?)\b", re.I)
RULE_REF = re.compile(r"(?<![\w.])((?:\d{1,2}|g)(?:\.[A-Za-z0-9]+)+)(?![\w.])")
TIMING_REF = re.compile(r"\b(?:timing\s+)?rule\s+(\d[A-Da-d]?)(?![.\w])", re.I)
GAME_WORDS = {"lotr-tcg": re.compile(r"\b(?:lotr|lord of the rings tcg|decipher)\b", re.I)}
CARD_TEXT_WORDS = re.compile(r"^\s*what does\b|\bdo\s*\??\s*$|\bcard text\b|^\s*(?:the\s+)?text of\b|\bcard\s*$", re.I)
"""The words around a card's name when its text is asked for ("what does X do", "X card text", "X card")."""
ARDA = re.compile(r"\barda\b", re.I)
ABOUT_WEIGHT = 3.0
REWORDED_SIMILARITY = 0.75
CANDIDATES = 60
"""BM25's best this many are ranked, whatever the limit, so the top 3 are the top 3 of the top 10."""

FIELD_WEIGHT = {"text": 1.0}
"""Fields a question's words are looked for in (title and section matches measured no better)."""
EXPANSION_WEIGHT = 0.7
"""Weight of the rules' words a synonym adds, against the words typed."""
ABBREVIATION_WEIGHT = 1.0
"""Weight of an abbreviation's expansion: it is what the judge typed, spelt out."""
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def phrase_pattern(keys: list[str]) -> re.Pattern[str]:
    """One regex matching any of the phrases as whole words, longest first."""
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.compile(rf"(?<![\w'’])(?:{alternatives})(?![\w'’])", re.I)


@dataclass(slots=True)
class Understanding:
    """How a query was read: every step, for --explain."""

    query: str
    annotations: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    near_cards: list[tuple[str, str]] = field(default_factory=list)
    abbreviations: list[tuple[str, str]] = field(default_factory=list)
    synonyms: list[tuple[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    terms: list[tuple[str, str, float]] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    arda: bool = False
    card_text: bool = False
    card_query: bool = False


@dataclass(slots=True)
class Result:
    """One answer: the ruling's display data, its score, and any other edition with the same words."""

    id: str
    score: float
    data: dict[str, Any]
    also_in: list[str] = field(default_factory=list)
    why: dict[str, float] = field(default_factory=dict)
    """What each ranking feature added to the log-score (kb.ranking), for --explain."""

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out = {**self.data, "score": round(self.score, 4), "also_in": self.also_in}
        if explain:
            out["why"] = self.why
        return out


def clean(text: str) -> str:
    """User text made safe to analyse: control characters out, length capped, Unicode normalised."""
    text = CONTROL.sub(" ", unicodedata.normalize("NFC", text))[:MAX_QUERY]
    return " ".join(text.split())


class Searcher:
    """The index, lexicon and abbreviations of one knowledge base, opened once."""

    def __init__(self, kb_dir: Path) -> None:
        folder = (kb_dir / CURRENT).resolve()
        if not (folder / INDEX_DIR).is_dir():
            raise KbMissing(f"no search index at {kb_dir} (run `rulings build` first, or pass --kb DIR)")
        self.index = Index(folder / INDEX_DIR)
        self.lexicon = Lexicon.from_json(json.loads((folder / LEXICON).read_text("utf-8")))
        self.abbreviations = load_table("abbreviations")
        self.synonyms = load_table("synonyms")
        self._synonym_pattern = phrase_pattern(list(self.synonyms))

    def _unknown(self, word: str) -> bool:
        """True when a word reaches no index term (a likely misspelling), or is a rare spelling."""
        terms = analyze(word)
        return not terms or any(self.index.frequency("text", t) < 0.0005 for t in terms)

    def understand(self, query: str) -> Understanding:
        """Read a query: references, cards, abbreviations, typos, question words -> weighted terms."""
        q = clean(query)
        u = Understanding(q)
        for game, pattern in GAME_WORDS.items():
            if pattern.search(q):
                u.games.append(game)
        u.arda = bool(ARDA.search(q))
        rest = q
        for m in ANNOTATION_REF.finditer(q):
            u.annotations.append(m.group(1).lower())
            rest = rest.replace(m.group(0), " ")
        for m in TIMING_REF.finditer(rest):
            u.rules.append(m.group(1).lower())
        for m in RULE_REF.finditer(rest):
            u.rules.append(m.group(1).lower())
            rest = rest.replace(m.group(0), " ")
        u.cards, u.near_cards = self.lexicon.find_in_query(rest)
        u.card_text = bool(CARD_TEXT_WORDS.search(rest))
        bare = fold(CARD_TEXT_WORDS.sub(" ", rest))
        u.card_query = bool(u.cards) and (bare in self.lexicon.names or bool(u.near_cards))
        for m in FILLER.finditer(rest):
            u.dropped.append(m.group(0))
        rest = FILLER.sub(" ", rest)
        extra: list[str] = []
        for m in self._synonym_pattern.finditer(rest.replace("’", "'")):
            said = m.group(0)
            u.synonyms.append((said, self.synonyms[said.lower()]))
            extra.append(self.synonyms[said.lower()])
        words = re.findall(r"[^\s,;:!?()\[\]{}\"“”«»]+", rest)
        content: list[str] = []
        expanded: list[str] = []
        for raw in words:
            word = raw.strip(".'’-")
            if not word:
                continue
            key = word.lower()
            if key in self.abbreviations:
                u.abbreviations.append((word, self.abbreviations[key]))
                expanded.append(self.abbreviations[key])
                content.append(word)
                continue
            folded = fold(word)
            if folded in QUESTION_WORDS or not folded:
                u.dropped.append(word)
                continue
            parts = folded.split()
            fixed = [" ".join(self.lexicon.correct(p)) if self._unknown(p) else "" for p in parts]
            for p, f in zip(parts, fixed):
                if f:
                    u.corrections.append((p, f))
            content.append(word if not any(fixed) else " ".join(f or p for p, f in zip(parts, fixed)))
        for expansion in expanded:
            for m in self._synonym_pattern.finditer(expansion):
                extra.append(self.synonyms[m.group(0).lower()])
        u.content = content + expanded + extra
        weights: dict[tuple[str, str], float] = {}
        for words, factor in ((extra, EXPANSION_WEIGHT), (expanded, ABBREVIATION_WEIGHT), (content, 1.0)):
            for term in analyze(" ".join(words)):
                for fld, weight in FIELD_WEIGHT.items():
                    if weight:
                        weights[(fld, term)] = weight * factor
        for name in u.cards:
            key = fold(name)
            weights[("about", key)] = ABOUT_WEIGHT if u.card_query else 1.0
            weights[("mentions", key)] = 1.5
        for n in u.annotations:
            weights[("number", f"annotation:{n}")] = 12.0
            weights[("mentions", f"annotation:{n}")] = 4.0
        for n in u.rules:
            weights[("number", n)] = 12.0
            weights[("mentions", f"rule:{n}")] = 3.0
        u.terms = [(f, t, b) for (f, t), b in weights.items()]
        return u

    def search(self, query: str, *, limit: int = 10, game: str | None = None, source: str | None = None,
               raw: bool = False) -> list[Result]:
        """The best `limit` rulings for a query, one per wording, current editions first."""
        limit = max(1, min(limit, 200))
        u, hits = self.candidates(query, max(CANDIDATES, limit * 4 + 20), game=game, source=source, raw=raw)
        return rank(hits, u, limit, source, self.index)

    def candidates(self, query: str, n: int, *, game: str | None = None, source: str | None = None,
                   raw: bool = False) -> tuple[Understanding, list[Hit]]:
        """How a query is understood and the n hits BM25 finds for it, before ranking."""
        u = self.understand(query)
        games = [game] if game else (u.games or ["meccg"])
        sources = [source] if source else []
        if raw:
            return u, self.index.search_raw(u.query, limit=n, games=games, sources=sources)
        return u, self.index.rank(u.terms, limit=n, games=games, sources=sources)

    def explain(self, query: str, **options: Any) -> dict[str, Any]:
        """The understanding of a query and the results it gives, for --explain."""
        u = self.understand(query)
        results = self.search(query, **options)
        return {"understanding": asdict(u), "results": [r.to_json(explain=True) for r in results]}


def rank(hits: list[Hit], u: Understanding, limit: int, source: str | None, index: Index) -> list[Result]:
    """Score each hit by its features (kb.ranking); keep one result per wording, noting the other
    editions."""
    context = QueryContext.of(u, source, index)
    w = weights()
    scored = []
    for h in hits:
        f = features(h, context)
        scored.append(Result(h.id, score(h.score, f, w), h.data, why=contributions(f, w)))
    return arrange(scored, u, limit)


def arrange(scored: list[Result], u: Understanding, limit: int) -> list[Result]:
    """Best first; for a card name, its own rulings and mentions in turn; one result per wording."""
    scored.sort(key=lambda r: -r.score)
    if u.card_query:
        scored = interleave_card_results(scored, u.cards, u.card_text)
    out: list[Result] = []
    seen: dict[str, Result] = {}
    for r in scored:
        key = fold(r.data["text"]).replace(" ", "")
        twin = seen.get(key) or (reworded_twin(r, out) if not r.data["current"] else None)
        if twin is not None:
            twin.also_in.append(r.id)
            continue
        seen[key] = r
        out.append(r)
    return out[:limit]


def reworded_twin(older: Result, kept: list[Result]) -> Result | None:
    """A current-edition result that says nearly the same as an older edition's ruling."""
    terms = set(older.data.get("terms", ()))
    for r in kept:
        if r.data["current"] and r.data["kind"] == older.data["kind"]:
            other = set(r.data.get("terms", ()))
            if terms and len(terms & other) / len(terms | other) >= REWORDED_SIMILARITY:
                return r
    return None


def interleave_card_results(results: list[Result], cards: list[str], text_first: bool) -> list[Result]:
    """For a card name: its own rulings and the rulings that mention it, in turn, with the card's
    text after the first two (first when the query asks for the card text)."""
    names = {fold(c) for c in cards}
    texts = [r for r in results if r.data["kind"] == "card" and names & set(r.data.get("about", ()))]
    own = [r for r in results if r not in texts and names & set(r.data.get("about", ()))]
    rest = [r for r in results if r not in texts and r not in own]
    others = sorted(rest, key=lambda r: (r.data["kind"] == "card", bool(r.data.get("title"))))
    mixed: list[Result] = []
    for pair in zip(own, others):
        mixed.extend(pair)
    mixed += own[len(others):] + others[len(own):]
    at = 0 if text_first else 2
    return mixed[:at] + texts + mixed[at:]


WORD = re.compile(r"\w+(?:[./\-]\w+)*")


def highlight_spans(text: str, u: Understanding) -> list[tuple[int, int]]:
    """Where the query's words (or their stems, or recognised names) occur in a result's text."""
    wanted = {t for f, t, _ in u.terms if f == "text"}
    spans = [(m.start(), m.end()) for m in WORD.finditer(text) if wanted & set(analyze(m.group(0)))]
    folded_text = text.lower()
    for name in u.cards:
        start = folded_text.find(name.lower())
        if start >= 0:
            spans.append((start, start + len(name)))
    return sorted(set(spans))


_searchers: dict[Path, Searcher] = {}


def open_searcher(kb_dir: Path) -> Searcher:
    """A Searcher for kb_dir, reused within one process."""
    key = (kb_dir / CURRENT).resolve()
    if key not in _searchers:
        _searchers[key] = Searcher(kb_dir)
    return _searchers[key]


def search(kb_dir: Path, query: str, **options: Any) -> list[Result]:
    """search(kb_dir, "can a strike be cancelled after the roll?") -> ranked results."""
    return open_searcher(kb_dir).search(query, **options)


def explain_search(kb_dir: Path, query: str, **options: Any) -> dict[str, Any]:
    """The same search with how the query was understood."""
    return open_searcher(kb_dir).explain(query, **options)

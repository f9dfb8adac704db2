"""Q&A search: a judge's question in, ranked rulings out, every step of understanding visible.

The engine runs over the search data the build wrote (kb.search.searchspec): the query is read by
kb.search.query, BM25 over the passage units' postings finds the candidates, kb.search.ranking scores them by
their features, and arrange() orders them for reading. The site executes the same steps over the
same data, module for module (site/assets/query.js, question.js, searchspec.js, ranking.js and search.js, this
module's), so a question gets the same answers in the terminal and the browser
(tests/data/search/cases.json holds both to the same readings, results and scores).
"""

from __future__ import annotations

import heapq
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import QueryError
from kb.search.query import Understanding, analyze_text, analyze_word, clean, fold
from kb.search.question import understand
from kb.search.ranking import QueryContext, contributions, features, plain_sum, score
from kb.search.searchspec import SPEC, SearchSpec, column
from kb.store.snapshot import Kb, Snapshot
from kb.store.store import INDEX_DIR, no_knowledge_base

__all__ = ["Result", "Searcher", "Understanding", "open_searcher"]


@dataclass(slots=True)
class Result:
    """One answer: the ruling's display data, its score, and any other edition with the same words."""

    id: str
    score: float
    data: dict[str, Any]
    doc: int = -1
    also_in: list[str] = field(default_factory=list)
    why: dict[str, float] = field(default_factory=dict)
    """What each ranking feature added to the log-score (kb.search.ranking), for --explain."""
    matched: list[str] = field(default_factory=list)
    """The query's terms the passage holds."""
    same_rule: list[dict[str, Any]] = field(default_factory=list)
    """The rulings of other documents that state the same rule (kb.builder.equivalents), each {"id", "source",
    "text"}, the most authoritative first: shown under this result, never as results of their own."""

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out = {**self.data, "score": round(self.score, 4), "also_in": self.also_in, "same_rule": self.same_rule}
        if explain:
            out["why"] = self.why
            out["matched"] = self.matched
        return out


@dataclass(slots=True)
class Candidates:
    """A query's BM25 candidates, before ranking: document, BM25 score, share of the query covered."""

    understanding: Understanding
    docs: list[tuple[int, float, float]]
    idf: dict[str, float]
    total: float
    """The IDF-weighted total of the query's plain terms, which coverage is a share of."""


class Searcher:
    """The search data of one knowledge base, opened once (`rulings ask` keeps it between questions)."""

    def __init__(self, spec: SearchSpec, folder: Path | None = None) -> None:
        self.folder = folder
        self.spec = spec
        raw = spec.raw
        self.k1, self.b = float(raw["bm25"]["k1"]), float(raw["bm25"]["b"])
        self.candidate_count = int(raw["candidates"])
        self.postings: dict[str, list[float]] = raw["postings"]
        self.keys: dict[str, list[int]] = raw["keys"]
        self.lengths: list[float] = raw["lengths"]
        self.editions = {int(k): v for k, v in raw["editions"].items()}
        self.same_rule: dict[int, list[int]] = {int(k): v for k, v in raw["same_rule"].items()}
        self._filters: dict[tuple[str, ...], set[int]] = {}
        self._index: Any = None

    @classmethod
    def open(cls, kb: Kb) -> Searcher:
        """The searcher of a build (the current one of a knowledge-base folder); KbMissing saying what
        to run if there is none. The searcher reads its build's index later (--raw): its caller holds
        the build (kb.store.snapshot) while it searches."""
        snapshot = Snapshot.of(kb)
        if not snapshot.file(SPEC).is_file():
            raise no_knowledge_base(snapshot.kb_dir)
        return cls(SearchSpec.load(snapshot.file(SPEC)), snapshot.folder)

    def understand(self, query: str) -> Understanding:
        return understand(query, self.spec)

    def _allowed(self, games: tuple[str, ...], source: str | None) -> set[int]:
        key = (*games, "|", source or "")
        if key not in self._filters:
            sources = self.spec.raw["sources"]
            ok = {n for n, s in enumerate(sources) if s["game"] in games and (source is None or s["id"] == source)}
            self._filters[key] = {d for d, s in enumerate(column(self.spec.raw["docs"], "source")) if s in ok}
        return self._filters[key]

    def idf(self, df: int) -> float:
        n = self.spec.docs_count
        return math.log(n / (df + 1)) + 1

    def bm25(self, terms: list[tuple[str, float]], allowed: set[int]
             ) -> tuple[dict[int, float], dict[int, float], dict[str, float]]:
        """BM25 of weighted terms over the allowed documents: scores, the IDF-weighted query share
        each document's passage holds (plain terms only), and each term's IDF."""
        scores: dict[int, float] = {}
        covered: dict[int, float] = {}
        idf: dict[str, float] = {}
        k1, b, avg, lengths = self.k1, self.b, self.spec.avg_length, self.lengths
        for term, weight in terms:
            if ":" in term:
                docs = self.keys.get(term, [])
                idf[term] = self.idf(len(docs))
                for d in docs:
                    if d in allowed:
                        scores[d] = scores.get(d, 0.0) + weight * idf[term]
                continue
            post = self.postings.get(term, [])
            idf[term] = self.idf(len(post) // 2) if post else 0.0
            w = weight * idf[term]
            for d, tf in zip(map(int, post[::2]), post[1::2]):  # (document, term frequency) pairs
                if d in allowed:
                    part = tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[d] / avg))
                    scores[d] = scores.get(d, 0.0) + w * part
                    covered[d] = covered.get(d, 0.0) + w
        return scores, covered, idf

    def candidates(self, query: str, n: int, *, game: str | None = None, source: str | None = None) -> Candidates:
        """How a query is understood and the n documents BM25 scores best for it."""
        u = self.understand(query)
        allowed = self._allowed(tuple([game] if game else (u.games or ["meccg"])), source)
        scores, covered, idf = self.bm25(u.terms, allowed)
        total = plain_sum(w * idf[t] for t, w in u.terms if ":" not in t)
        top = heapq.nsmallest(n, scores.items(), key=lambda kv: (-kv[1], kv[0]))
        named = self.name_coverage(u, [d for d, _ in top], idf)
        return Candidates(u, [(d, s, (covered.get(d, 0.0) + named.get(d, 0.0)) / total if total else 0.0)
                              for d, s in top], idf, total)

    def name_coverage(self, u: Understanding, docs: list[int], idf: dict[str, float]) -> dict[int, float]:
        """What the words of a card's name add to the coverage of the rulings on that card, where the
        query names it: a ruling under a card's heading answers for the card without saying its name."""
        weights = dict((t, w) for t, w in u.terms if ":" not in t)
        out: dict[int, float] = {}
        for card in u.cards:
            key = fold(card)
            terms = [t for t in dict.fromkeys(analyze_text(card, self.spec)) if weights.get(t, 0.0) * idf.get(t, 0.0)
                     > 0]
            if not terms:
                continue
            holders = {t: set(map(int, self.postings.get(t, [])[::2])) for t in terms}
            for d in docs:
                if key in self.spec.doc(d).about:
                    out[d] = out.get(d, 0.0) + plain_sum(weights[t] * idf[t] for t in terms if d not in holders[t])
        return out

    def search(self, query: str, *, limit: int = 10, game: str | None = None, source: str | None = None,
               raw: bool = False) -> list[Result]:
        """The best `limit` rulings for a query, one per wording, current editions first."""
        limit = max(1, min(limit, 200))
        if raw:  # capped as any query is: whoosh's parser slows with length (100 KB took 75 s)
            return self.search_raw(clean(query), limit=limit, game=game, source=source)
        found = self.candidates(query, max(self.candidate_count, limit * 4 + 20), game=game, source=source)
        results = self.rank(found, limit, source, self.spec.raw["weights"])  # the build's, as the browser's
        for r in results:
            r.matched = matched_terms(r, found.understanding, self.spec)
        return results

    def rank(self, found: Candidates, limit: int, source: str | None, w: dict[str, float]) -> list[Result]:
        """Score each candidate by its features (kb.search.ranking); keep one result per wording."""
        context = QueryContext.of(found.understanding, source, self.spec, found.total)
        scored = []
        for d, bm25, covered in found.docs:
            f = features(d, covered, context)
            data = self.spec.data(d)
            scored.append(Result(data["id"], score(bm25, f, w), data, d, why=contributions(bm25, f, w)))
        return self.arrange(scored, found.understanding, limit)

    def arrange(self, scored: list[Result], u: Understanding, limit: int) -> list[Result]:
        """Best first; for a card name, its own rulings and mentions in turn; one result per wording,
        an older edition's ruling folded into its current counterpart; one result per rule: a ruling
        that states the rule of a result ranked above it is shown under that result (same_rule), not
        again."""
        scored.sort(key=lambda r: (-r.score, r.doc))
        if u.card_query:
            scored = interleave_card_results(scored, u.cards, u.card_text)
        present = {r.doc: r for r in scored}
        out: list[Result] = []
        seen: dict[int, Result] = {}
        shown: set[int] = set()
        """The documents shown so far, as results or under them."""
        for r in scored:
            if r.doc in shown:
                continue
            key = self.wording(r.doc)
            twin = seen.get(key) or present.get(self.editions.get(r.doc, -1))
            if twin is not None and twin is not r:
                twin.also_in.append(r.id)
                continue
            seen[key] = r
            same = self.same_rule.get(r.doc, [])
            shown.update(same)
            r.same_rule = [self.equivalent(d) for d in same]
            out.append(r)
            if len(out) == limit:
                break
        return out

    def equivalent(self, d: int) -> dict[str, Any]:
        """A ruling shown under a result that states the same rule: its id, source and text."""
        doc = self.spec.doc(d)
        return {"id": doc.id, "source": self.spec.raw["sources"][doc.source]["id"], "text": doc.text}

    def wording(self, d: int) -> int:
        """The first document with document d's words (folded, as the build found them): two rulings
        of one wording say the same."""
        same = self.spec.doc(d).same_words
        return d if same is None else same

    def search_raw(self, query: str, *, limit: int, game: str | None, source: str | None) -> list[Result]:
        """Whoosh query syntax typed by the user (--raw); QueryError on bad syntax."""
        from kb.store.index import Index

        if self.folder is None:
            raise QueryError("--raw needs a knowledge base's index; run `rulings build`")
        if self._index is None:
            self._index = Index(self.folder / INDEX_DIR)
        ids = {doc_id: n for n, doc_id in enumerate(column(self.spec.raw["docs"], "id"))}
        hits = self._index.search_raw(query, limit=limit, games=[game or "meccg"], sources=[source] if source else [])
        return [Result(h.id, h.score, self.spec.data(ids[h.id]), ids[h.id]) for h in hits if h.id in ids]


def matched_terms(r: Result, u: Understanding, spec: SearchSpec) -> list[str]:
    """The query's terms a result's passage holds (its text, or its section path as "section:")."""
    wanted = list(dict.fromkeys(t for t, _ in u.terms if ":" not in t))
    text = set(analyze_text(r.data["text"], spec))
    path = set(analyze_text(" ".join(r.data["section"]), spec))
    return [t for t in wanted if t in text] + [f"section:{t}" for t in wanted if t in path and t not in text]


def interleave_card_results(results: list[Result], cards: list[str], text_first: bool) -> list[Result]:
    """For a card name: its own rulings and the rulings that mention it, in turn, with the card's
    text after the first two rulings (first when the query asks for the card text): another card's
    text that names it never comes before its own."""
    names = {fold(c) for c in cards}
    texts = [r for r in results if r.data["kind"] == "card" and names & set(r.data["about"])]
    own = [r for r in results if r.data["kind"] != "card" and names & set(r.data["about"])]
    rest = [r for r in results if not names & set(r.data["about"])]
    others = sorted(rest, key=lambda r: (r.data["kind"] == "card", bool(r.data["title"])))
    mixed: list[Result] = []
    for pair in zip(own, others):
        mixed.extend(pair)
    mixed += own[len(others):] + others[len(own):]
    at = 0 if text_first else next((i for i, r in enumerate(mixed[:2]) if r.data["kind"] == "card"), len(mixed[:2]))
    return mixed[:at] + texts + mixed[at:]


WORD = re.compile(r"\w+(?:[./\-]\w+)*")


def highlight_spans(text: str, u: Understanding, spec: SearchSpec) -> list[tuple[int, int]]:
    """Where the query's words (or their stems, or recognised names) occur in a result's text: each span once, in
    order (by start, then end); search.js's highlight_spans gives the same."""
    wanted = {t for t, _ in u.terms if ":" not in t}
    spans = [(m.start(), m.end()) for m in WORD.finditer(text) if wanted & set(analyze_word(m.group(0), spec))]
    lowered = text.lower()
    for name in u.cards:
        start = lowered.find(name.lower())
        if start >= 0:
            spans.append((start, start + len(name)))
    return sorted(set(spans))


_searchers: dict[Path, Searcher] = {}
"""Each build's searcher, and so its search data (a build never changes once in place): the one copy of it a
process reads, which a search and every lookup that reads names (kb.read.lookup.search_spec) share."""


def open_searcher(kb: Kb) -> Searcher:
    """A Searcher for a build (the current one of a knowledge-base folder), reused within one process."""
    snapshot = Snapshot.of(kb)
    if snapshot.folder not in _searchers:
        _searchers[snapshot.folder] = Searcher.open(snapshot)
    return _searchers[snapshot.folder]


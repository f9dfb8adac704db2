"""Q&A search: a judge's question in, ranked rulings out, every step of understanding visible.

search() and explain_search() share one Searcher, which opens the index and lexicon once
(`rulings ask` keeps it open between questions).
"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kb.errors import KbMissing
from kb.index import Hit, Index, analyze
from kb.names import Lexicon, fold
from kb.store import CURRENT, INDEX_DIR, LEXICON

MAX_QUERY = 2000
QUESTION_WORDS = frozenset("""
a an the i me my mine we our you your he his she her they their them it its is are was were be been
am do does did doing done can could would should shall will may might must what whats which who whom
whose when where why how many much if then than there here this that these those just still also
happen happens happened legal allowed okay ok possible please tell anyone someone some any really
get gets got so too very about into onto or and but not no yes
""".split())
ANNOTATION_REF = re.compile(r"\b(?:annotations?|annot|anno|ann)\.?\s*#?\s*(\d{1,2}[a-b]?)\b", re.I)
RULE_REF = re.compile(r"(?<![\w.])((?:\d{1,2}|g)(?:\.[A-Za-z0-9]+)+)(?![\w.])")
TIMING_REF = re.compile(r"\b(?:timing\s+)?rule\s+(\d[A-Da-d]?)\b", re.I)
GAME_WORDS = {"lotr-tcg": re.compile(r"\b(?:lotr|lord of the rings tcg|decipher)\b", re.I)}
ARDA = re.compile(r"\barda\b", re.I)
SOURCE_WEIGHT = {"crf-older": 0.8, "arda": 0.3}
KIND_WEIGHT = {"note": 0.6, "guidance": 0.8, "citation-key": 0.4, "change-log": 0.5, "reference": 0.6,
               "see-also": 0.5, "card": 0.8}
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def load_abbreviations() -> dict[str, str]:
    """Judges' abbreviations from kb/data/abbreviations.toml, keys lower-cased."""
    text = resources.files("kb").joinpath("data/abbreviations.toml").read_text("utf-8")
    return {k.lower(): v for k, v in tomllib.loads(text).items()}


@dataclass(slots=True)
class Understanding:
    """How a query was read: every step, for --explain."""

    query: str
    annotations: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    near_cards: list[tuple[str, str]] = field(default_factory=list)
    abbreviations: list[tuple[str, str]] = field(default_factory=list)
    corrections: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    content: list[str] = field(default_factory=list)
    terms: list[tuple[str, str, float]] = field(default_factory=list)
    games: list[str] = field(default_factory=list)
    arda: bool = False


@dataclass(slots=True)
class Result:
    """One answer: the ruling's display data, its score, and any other edition with the same words."""

    id: str
    score: float
    data: dict[str, Any]
    also_in: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {**self.data, "score": round(self.score, 4), "also_in": self.also_in}


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
        self.abbreviations = load_abbreviations()

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
        words = re.findall(r"[^\s,;:!?()\[\]{}\"“”«»]+", rest)
        extra: list[str] = []
        content: list[str] = []
        for raw in words:
            word = raw.strip(".'’-")
            if not word:
                continue
            key = word.lower()
            if key in self.abbreviations:
                u.abbreviations.append((word, self.abbreviations[key]))
                extra.append(self.abbreviations[key])
                continue
            folded = fold(word)
            if folded in QUESTION_WORDS or not folded:
                u.dropped.append(word)
                continue
            parts = folded.split()
            fixed = [self.lexicon.correct(p) for p in parts]
            for p, f in zip(parts, fixed):
                if f:
                    u.corrections.append((p, f))
            content.append(word if not any(fixed) else " ".join(f or p for p, f in zip(parts, fixed)))
        u.content = content + extra
        weights: dict[tuple[str, str], float] = {}
        for term in analyze(" ".join(u.content)):
            for fld in ("title", "section", "text"):
                weights[(fld, term)] = 1.0
        for name in u.cards:
            key = fold(name)
            weights[("about", key)] = 3.0
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
        u = self.understand(query)
        games = [game] if game else (u.games or ["meccg"])
        sources = [source] if source else []
        if raw:
            hits = self.index.search_raw(u.query, limit=limit * 4 + 20, games=games, sources=sources)
        else:
            hits = self.index.search(u.terms, limit=limit * 4 + 20, games=games, sources=sources)
        return rank(hits, u, limit, source)

    def explain(self, query: str, **options: Any) -> dict[str, Any]:
        """The understanding of a query and the results it gives, for --explain."""
        u = self.understand(query)
        results = self.search(query, **options)
        return {"understanding": asdict(u), "results": [r.to_json() for r in results]}


def rank(hits: list[Hit], u: Understanding, limit: int, source: str | None) -> list[Result]:
    """Reweigh by edition, game and kind; keep one result per wording, noting the other editions."""
    scored = []
    for h in hits:
        src = h.data["source"]
        weight = SOURCE_WEIGHT.get(src, 1.0)
        if src == "arda" and (u.arda or source == "arda"):
            weight = 2.0
        weight *= KIND_WEIGHT.get(h.data["kind"], 1.0) if not u.cards or h.data["kind"] != "card" else 1.0
        scored.append(Result(h.id, h.score * weight, h.data))
    scored.sort(key=lambda r: -r.score)
    out: list[Result] = []
    seen: dict[str, Result] = {}
    for r in scored:
        key = fold(r.data["text"])
        if key in seen:
            seen[key].also_in.append(r.id)
            continue
        seen[key] = r
        out.append(r)
    return out[:limit]


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

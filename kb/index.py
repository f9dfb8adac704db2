"""The full-text index: whoosh (pinned Whoosh 2.7.4), its analyzer and schema, behind plain functions.

This is the only module that imports whoosh. Callers describe a query as weighted terms and
filters; they get back hits with the stored display data.
"""

from __future__ import annotations

import heapq
import json
import sys
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import KbBroken, QueryError
from kb.query import PREFIXES

TOKEN_PATTERN = r"\w+(?:[./\-]\w+)*"
"""Words, keeping "on-guard", "m/h", "2.iv.iii", "25a" and "1c298" whole."""

FIELDS = ("title", "about", "section", "text", "number")


def _import_whoosh() -> None:
    """Import whoosh without paying for urllib.request, which whoosh.compat imports for one unused
    function (urlretrieve): a stand-in module is in place during the import only."""
    if "whoosh.index" in sys.modules or "urllib.request" in sys.modules:
        import whoosh.index  # noqa: F401
        return
    stub = types.ModuleType("urllib.request")

    def urlretrieve(*args: Any, **kwargs: Any) -> Any:
        import importlib

        del sys.modules["urllib.request"]
        return importlib.import_module("urllib.request").urlretrieve(*args, **kwargs)

    stub.urlretrieve = urlretrieve  # type: ignore[attr-defined]
    sys.modules["urllib.request"] = stub
    try:
        import whoosh.index  # noqa: F401
    finally:
        if sys.modules.get("urllib.request") is stub:
            del sys.modules["urllib.request"]


_import_whoosh()

from whoosh import fields, index, qparser, query, scoring  # noqa: E402
from whoosh.analysis import (  # noqa: E402
    CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter)
from whoosh.support.charset import accent_map  # noqa: E402




class CompoundFilter(Filter):  # type: ignore[misc]
    """Keep "on-guard" and "movement/hazard" whole and also yield their parts (not prefixes)."""

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            yield t
            if ("-" in text or "/" in text) and not text[0].isdigit():
                for part in text.replace("/", "-").split("-"):
                    if part and part != text and part.lower() not in PREFIXES:
                        t.text = part
                        yield t


class AcronymPluralFilter(Filter):  # type: ignore[misc]
    """"MPs" and "DIs" are the plurals of "MP" and "DI" (Snowball leaves a vowel-less "mps" alone)."""

    def __call__(self, tokens: Iterable[Any]) -> Iterator[Any]:
        for t in tokens:
            text = t.text
            if len(text) >= 3 and text[-1] == "s" and text[:-1].isupper() and text[:-1].isalpha():
                t.text = text[:-1]
            yield t


def make_analyzer() -> Any:
    """Tokenize, split compounds, singular acronyms, lower-case, fold accents, drop stop words,
    Snowball-stem."""
    return (RegexTokenizer(TOKEN_PATTERN) | CompoundFilter() | AcronymPluralFilter() | LowercaseFilter()
            | CharsetFilter(accent_map) | StopFilter(minsize=2) | StemFilter(lang="en"))


ANALYZER = make_analyzer()


def analyze(text: str) -> list[str]:
    """The index terms of a text: analyze("Tapped on-guard Adûnaphel MPs") ==
    ["tap", "on-guard", "guard", "adunaphel", "mp"] ("on" is a stop word)."""
    return [t.text for t in ANALYZER(text)]


def schema() -> Any:
    return fields.Schema(
        id=fields.ID(stored=True, unique=True),
        source=fields.ID(stored=True),
        game=fields.ID(stored=True),
        kind=fields.ID(stored=True),
        number=fields.KEYWORD(lowercase=True, commas=True, scorable=True),
        title=fields.TEXT(analyzer=ANALYZER),
        about=fields.KEYWORD(lowercase=True, commas=True, scorable=True),
        mentions=fields.KEYWORD(lowercase=True, commas=True, scorable=True),
        section=fields.TEXT(analyzer=ANALYZER),
        text=fields.TEXT(analyzer=ANALYZER),
        data=fields.STORED(),
    )


def build_index(index_dir: Path, records: Iterable[dict[str, Any]]) -> int:
    """Write a new index of `records` (id, source, game, kind, number, title, about, mentions,
    section, text, data) into index_dir; returns how many."""
    index_dir.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(index_dir), schema())
    writer = ix.writer(limitmb=256)
    n = 0
    for r in records:
        writer.add_document(
            id=r["id"], source=r["source"], game=r["game"], kind=r["kind"], number=r.get("number") or "",
            title=r.get("title") or "", about=",".join(r.get("about") or ()),
            mentions=",".join(r.get("mentions") or ()), section=" / ".join(r.get("section") or ()),
            text=r["text"], data=json.dumps(r["data"], ensure_ascii=False))
        n += 1
    writer.commit()
    return n


@dataclass(frozen=True, slots=True)
class Hit:
    """One result: id, score and the stored display data."""

    id: str
    score: float
    data: dict[str, Any]


class Index:
    """An open index; open once, search many times."""

    def __init__(self, index_dir: Path, *, b: float = 0.6, k1: float = 1.2) -> None:
        try:
            self._ix = index.open_dir(str(index_dir))
            self._searcher = self._ix.searcher(weighting=scoring.BM25F(B=b, K1=k1))
            self._filters: dict[tuple[tuple[str, ...], tuple[str, ...]], set[int]] = {}
            self._b, self._k1 = b, k1
            self._postings: dict[tuple[str, str], tuple[float, dict[int, float], float]] = {}
            self._lengths: dict[tuple[str, int], float] = {}
            self._stored: dict[int, tuple[str, dict[str, Any]]] = {}
            self._avg: dict[str, float] = {}
        except Exception as exc:  # whoosh raises many kinds for a missing or damaged index
            raise KbBroken(f"the search index at {index_dir} cannot be opened ({exc.__class__.__name__}); "
                           "run `rulings build` to rebuild it") from exc

    def close(self) -> None:
        self._searcher.close()

    def _term(self, field: str, term: str) -> tuple[float, dict[int, float], float]:
        """A term's IDF, postings (document number -> BM25 term-frequency part) and their largest
        part, read once and kept."""
        key = (field, term)
        if key not in self._postings:
            items: dict[int, float] = {}
            idf = 0.0
            if self._searcher.doc_frequency(field, term):
                if field not in self._avg:
                    total = self._searcher.reader().field_length(field) or 1
                    self._avg[field] = total / max(1, self._searcher.doc_count_all())
                b, k1, avg = self._b, self._k1, self._avg[field]
                idf = float(self._searcher.idf(field, term))
                m = self._searcher.postings(field, term)
                while m.is_active():
                    docnum, tf = m.id(), m.weight()
                    norm = k1 * (1 - b + b * self._length(field, docnum) / avg)
                    items[docnum] = tf * (k1 + 1) / (tf + norm)
                    m.next()
            self._postings[key] = (idf, items, max(items.values(), default=0.0))
        return self._postings[key]

    def _length(self, field: str, docnum: int) -> float:
        key = (field, docnum)
        if key not in self._lengths:
            self._lengths[key] = float(self._searcher.reader().doc_field_length(docnum, field, 1) or 1)
        return self._lengths[key]

    def _hit(self, docnum: int, score: float) -> Hit:
        if docnum not in self._stored:
            fields_ = self._searcher.stored_fields(docnum)
            self._stored[docnum] = (fields_["id"], json.loads(fields_["data"]))
        rid, data = self._stored[docnum]
        return Hit(rid, score, data)

    def rank(self, terms: list[tuple[str, str, float]], *, limit: int, games: Iterable[str] = (),
             sources: Iterable[str] = ()) -> list[Hit]:
        """The `limit` best documents for weighted terms (field, term, boost) by BM25, summed.

        Postings are read from the whoosh index once per term and kept, so an open Index answers
        repeated questions (as `rulings ask` does) without walking whoosh's matcher tree.
        """
        allowed = self._allowed(tuple(games), tuple(sources))
        plan = []
        for field, term, boost in terms:
            idf, items, largest = self._term(field, term)
            if items and boost * idf > 0:
                plan.append((boost * idf * largest, boost * idf, items))
        plan.sort(key=lambda p: -p[0])  # the terms that can add most first
        ahead = sum(bound for bound, _, _ in plan)
        scores: dict[int, float] = {}
        get = scores.get
        for bound, weight, items in plan:
            ahead -= bound
            # MaxScore: once a document not yet scored could not reach the limit-th score even with
            # this term and every later one, a long posting list only updates the documents scored
            closed = len(items) > len(scores) >= limit and \
                heapq.nlargest(limit, scores.values())[-1] > bound + ahead
            if closed:
                for docnum in [d for d in scores if d in items]:
                    scores[docnum] += weight * items[docnum]
                continue
            for docnum, part in items.items():
                if allowed is None or docnum in allowed:
                    scores[docnum] = get(docnum, 0.0) + weight * part
        top = heapq.nlargest(limit, scores.items(), key=lambda kv: kv[1])
        return [self._hit(docnum, score) for docnum, score in top]

    def _allowed(self, games: tuple[str, ...], sources: tuple[str, ...]) -> set[int] | None:
        """The document numbers of these games and sources, computed once per combination."""
        if not games and not sources:
            return None
        key = (games, sources)
        if key not in self._filters:
            restrict = [query.Or([query.Term("game", g) for g in games])] if games else []
            if sources:
                restrict.append(query.Or([query.Term("source", s) for s in sources]))
            self._filters[key] = set(query.And(restrict).docs(self._searcher))
        return self._filters[key]

    def search_raw(self, text: str, *, limit: int, games: Iterable[str] = (), sources: Iterable[str] = ()) -> list[Hit]:
        """Hits for whoosh query syntax typed by the user (--raw); QueryError on bad syntax."""
        parser = qparser.MultifieldParser(["title", "section", "text"], self._ix.schema)
        parser.remove_plugin_class(qparser.WildcardPlugin)
        q = parser.parse(text)
        if any(isinstance(node, query.qcore._NullQuery) for node in [q]) or "Error" in type(q).__name__:
            raise QueryError(f"cannot parse {text!r} as a query; try again without --raw")
        results = self._searcher.search(q, limit=limit, filter=self._allowed(tuple(games), tuple(sources)))
        return [Hit(r["id"], float(r.score), json.loads(r["data"])) for r in results]

    def frequency(self, field: str, term: str) -> float:
        """The share of documents that hold the term (0.0 to 1.0)."""
        count: int = max(1, int(self._searcher.doc_count()))
        return float(self._searcher.doc_frequency(field, term)) / count

    def idf(self, field: str, term: str) -> float:
        """Inverse document frequency of a term in a field (0 when absent)."""
        return float(self._searcher.idf(field, term)) if self._searcher.doc_frequency(field, term) else 0.0

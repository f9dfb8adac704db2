"""The search data: everything a search needs, built once by `rulings build` and executed as it is
by the terminal (kb.search.search) and the browser (site/assets/searchspec.js, search.js) alike.

It holds the passage units (each ruling with its section path, a card's rulings with the card),
their analysed postings, the corpus vocabulary with each word's index terms (so neither side
stems at query time), card names and their words, the abbreviation and synonym tables, the query
patterns (kb.search.query.RULES) and the ranking weights and parameters; and everything about a document
that no query changes, decided here once as its named fields (Doc: its prior features, the index
terms of the term it defines and of its section's heading, the numbers it gives, the step it names,
the first document with its words), so that both runtimes only score. Written as JSON
(`search.json`) field by field as a build makes it (spec_items, write_spec): the docs as their units
come, the postings gathered meanwhile in compact arrays (Postings) and written after them.
"""

from __future__ import annotations

import json
import marshal
import re
from itertools import accumulate
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields as dataclass_fields
from pathlib import Path
from typing import Any, BinaryIO, overload

from kb.errors import KbBroken
from kb.keys import ASCII_LOWER
from kb.memory import collector_paused
from kb.search.query import (LIMITS, NOT_NAMES, NameIndex, PREFIXES, QUESTION_WORDS, RULES, SOUNDS, SUFFIXES, TOKEN,
                             WEIGHTS, analyze_text, fold, fold_key)
from kb.tables import load_table, words_text

SPEC_VERSION = 5
SPEC = "search.json"
SPEC_CACHE = "search.marshal"
"""The same data in Python's own marshal format, which the terminal reads in half the time (the
documents and postings item by item as a search asks for them: LAZY)."""
BM25 = {"k1": 1.2, "b": 0.6}
UNIT = {"section": 0.5, "parent": 0.3, "title": 1.0}
"""Weights of what travels with a ruling's own words: its section path (headings count toward every
ruling under them), the ruling it belongs to (a list's lead-in, an example's rule), its title (the
term a glossary entry defines)."""
CANDIDATES = 120
"""BM25's best this many are ranked by their features, whatever the limit."""


@dataclass(slots=True)
class Unit:
    """One ruling as search reads it: its display data, the words it is found by, and what ranking
    knows of it whatever the query."""

    data: dict[str, Any]
    fields: list[tuple[str, float]]
    """(text, weight): the ruling's text at 1, its section path, lead-in and title at their weights."""
    keys: list[str]
    """Its exact keys: "about:<card>", "mention:<card>", "number:...", "cites:..."."""
    known: dict[str, Any] = field(default_factory=dict)
    """What kb.search.ranking.document_fields decides from the ruling alone: its prior features (a list), the
    numbers it gives, the step it names (Doc's fields)."""
    defines: str = ""
    """The term it defines (a glossary entry's title, or the heading a section's own rule states:
    kb.builder.searchdata.overview_of), which the search data ships as index terms."""


@dataclass(frozen=True, slots=True)
class Doc:
    """One document of the search data, read by its fields' names: a ruling as search shows and ranks
    it. The search data leaves out a field that holds its default here (most rulings have no number,
    title, card or prior), and ships these defaults ("doc_defaults") for the browser to read alike."""

    id: str
    source: int
    """Its source: an index into the search data's sources."""
    kind: str
    section: int
    """Its section path: an index into the search data's sections (and their heading_terms)."""
    text: str
    lines: list[int]
    """Its first and last line in its source."""
    number: str = ""
    title: str = ""
    markers: list[str] = field(default_factory=list)
    about: list[str] = field(default_factory=list)
    """The cards (folded names) it is on: a card's text, a ruling under a card's heading."""
    prior: int = 0
    """Its constant ranking features (its source's, its edition's, its kind's): an index into the
    search data's priors, each a list of kb.search.ranking.FEATURES' names in the order they are scored
    (the first, 0, is none)."""
    defines: list[str] = field(default_factory=list)
    """The index terms of the term it defines: a glossary entry's (its title without number or aside), or
    the heading a section's own rule states (CoE 2.V: "Site Phase")."""
    numbers: list[str] = field(default_factory=list)
    """The numbers its text gives (kb.search.query.RULES "number", lower case, each once): a "how many" answer."""
    step: str = ""
    """The name of the rulebook step it opens with ("set the base hazard limit"), folded."""
    same_words: int | None = None
    """The first document with the same words (folded), where an earlier one has them: the two are one result."""
    incomplete: str = ""
    """Why the source's text of it is not whole (kb.model.Ruling.incomplete): every result says so."""


DOC_DEFAULTS: dict[str, Any] = {f.name: f.default if f.default_factory is MISSING else f.default_factory()
                                for f in dataclass_fields(Doc) if f.default is not MISSING
                                or f.default_factory is not MISSING}
"""The fields a document of the search data may leave out, and what each then is."""

ASIDE = re.compile(r"\([^()]*\)")
"""A heading's aside, left out of what it names: "marshalling points (MPs)" names marshalling points."""


def heading_terms(heading: str, vocab: SearchSpec) -> list[str]:
    """The index terms of a section heading or a term's title, without its number or aside ("2.III.
    Long-event Phase" is the long-event phase), read from the vocabulary as a query's words are
    (kb.search.query.analyze_word); each once, sorted."""
    terms = analyze_text(ASIDE.sub(" ", heading), vocab)
    return sorted({t for t in terms if not t[0].isdigit()})


class Items:
    """A list (or, table=True, a table's (key, value) pairs) made as it is written: write_spec takes
    one for any value of the search data, so a large list is never held whole."""

    def __init__(self, items: Iterable[Any], table: bool = False) -> None:
        self.items = iter(items)
        self.table = table

    def whole(self) -> Any:
        return dict(self.items) if self.table else list(self.items)


class Postings:
    """The analysed words of the units, gathered a unit at a time: each term's postings (unit
    number, weight) and each key's units in compact arrays, each unit's length, the vocabulary."""

    def __init__(self, analyze: Any) -> None:
        self.analyze = analyze
        self.vocab: dict[str, list[Any]] = {}
        """Each folded word seen: [how many times, its index terms...], as the search data ships it."""
        self.postings: dict[str, tuple[array[int], array[float]]] = {}
        self.keys: dict[str, array[int]] = {}
        self.lengths: array[float] = array("d")

    def add(self, unit: Unit) -> None:
        """Count the words of the next unit (its number is how many came before it)."""
        n = len(self.lengths)
        tf: dict[str, float] = {}
        length = 0.0
        for text, weight in unit.fields:
            for token in TOKEN.findall(text):
                key = fold_key(token)
                entry = self.vocab.get(key)
                if entry is None:
                    entry = self.vocab[key] = [0, *self.analyze(token)]
                entry[0] += 1
                for term in entry[1:]:
                    tf[term] = tf.get(term, 0.0) + weight
                    length += weight
        for term, value in tf.items():
            if term not in self.postings:
                self.postings[term] = (array("i"), array("d"))
            units, weights = self.postings[term]
            units.append(n)
            weights.append(round(value, 3))
        for key in unit.keys:
            self.keys.setdefault(key, array("i")).append(n)
        self.lengths.append(round(length, 3))

    def posting_items(self) -> Iterator[tuple[str, list[float]]]:
        """(term, [unit, weight, unit, weight, ...]) in the order the terms first came."""
        for term, (units, weights) in self.postings.items():
            flat: list[float] = [0.0] * (2 * len(units))
            flat[0::2] = units.tolist()
            flat[1::2] = weights.tolist()
            yield term, flat


class Docs:
    """The documents as the search data writes them, a unit at a time (row), with what they point
    into: the section paths, each heading's index terms read once every word is in the vocabulary."""

    def __init__(self, postings: Postings, sources: list[dict[str, Any]]) -> None:
        self.postings = postings
        self.vocab = SearchSpec({"vocab": postings.vocab})
        """The vocabulary gathered so far, read as the runtimes read theirs (heading_terms)."""
        self.source_index = {s["id"]: n for n, s in enumerate(sources)}
        self.sections: dict[tuple[str, ...], int] = {}
        self.priors: dict[tuple[str, ...], int] = {(): 0}
        self.words: dict[str, int] = {}
        self.sources: list[int] = []
        """Each document's source (an index into the sources), in order."""

    def row(self, unit: Unit) -> dict[str, Any]:
        """The document of the unit just counted (so every word of the term it defines, one of its
        fields, is in the vocabulary), without the fields that hold their defaults (DOC_DEFAULTS)."""
        d, n = unit.data, len(self.postings.lengths) - 1
        self.sources.append(self.source_index[d["source"]])
        first = self.words.setdefault(fold(d["text"]).replace(" ", ""), n)
        known = unit.known
        doc = {"id": d["id"], "source": self.source_index[d["source"]], "kind": d["kind"], "number": d["number"] or "",
               "title": d["title"] or "", "section": self.sections.setdefault(tuple(d["section"]), len(self.sections)),
               "text": d["text"], "lines": d["lines"], "markers": d["markers"], "about": d["about"],
               "prior": self.priors.setdefault(tuple(known.get("prior", ())), len(self.priors)),
               "defines": heading_terms(unit.defines, self.vocab) if unit.defines else [],
               "numbers": known.get("numbers", []), "step": known.get("step", ""),
               "same_words": first if first != n else None, "incomplete": d.get("incomplete", "")}
        return {k: v for k, v in doc.items() if k not in DOC_DEFAULTS or v != DOC_DEFAULTS[k]}

    def heading_terms(self) -> Iterator[list[str] | None]:
        """Each section's heading as index terms (heading_terms), None for a section without one."""
        for path in self.sections:
            yield heading_terms(path[-1], self.vocab) if path and path[-1] else None


def spec_items(units: Iterable[Unit], analyze: Any, sources: list[dict[str, Any]],
               editions: Callable[[], Iterable[tuple[int, int]]], names: dict[str, list[str]], common: set[str],
               weights: dict[str, float], limits: dict[str, float] | None = None,
               game_words: Iterable[str] = (), bm25: dict[str, float] = BM25,
               rule_numbers: dict[str, str] | None = None,
               equivalents: Callable[[], Iterable[tuple[int, int]]] = lambda: (),
               authorities: Sequence[float] = ()) -> Iterator[tuple[str, Any]]:
    """The search data for these units, field by field in the order it is written: `analyze` is the
    build's analyzer (text -> index terms); the units are taken as the docs list is written, their
    sections, postings and the rest written after it; editions gives (older unit, current unit)
    pairs once the units are seen; bm25 the parameters BM25 scores with (k1, b); rule_numbers the
    numbers the sources write with capitals, by their lower case (kb.search.query.rule_numbers); equivalents
    (unit, unit) pairs of rulings stating the same rule (kb.builder.equivalents), each way, listed by their
    sources' authorities (kb.search.ranking.authority, one a source)."""
    postings = Postings(analyze)
    docs = Docs(postings, sources)

    def rows() -> Iterator[dict[str, Any]]:
        for unit in units:
            postings.add(unit)
            yield docs.row(unit)

    yield from {
        "version": SPEC_VERSION,
        "bm25": bm25, "candidates": CANDIDATES, "weights": weights,
        "limits": {**LIMITS, **(limits or {})},
        "query": {"rules": RULES, "sounds": SOUNDS,
                  "question_words": sorted(QUESTION_WORDS), "not_names": list(NOT_NAMES), "prefixes": sorted(PREFIXES),
                  "suffixes": list(SUFFIXES), "weights": WEIGHTS,
                  "abbreviations": load_table("abbreviations"), "synonyms": load_table("synonyms"),
                  "rule_numbers": rule_numbers or {}},
        "sources": sources,
        "doc_defaults": DOC_DEFAULTS,
    }.items()
    yield "docs", Items(rows())
    count = len(postings.lengths)
    yield "sections", [list(path) for path in docs.sections]
    yield "heading_terms", list(docs.heading_terms())
    yield "priors", [list(prior) for prior in docs.priors]
    yield "lengths", Items(postings.lengths)
    yield "avg_length", sum(postings.lengths) / count if count else 1.0
    yield "postings", Items(postings.posting_items(), table=True)
    yield "keys", Items(((key, units.tolist()) for key, units in postings.keys.items()), table=True)
    yield "vocab", dict(sorted(postings.vocab.items()))
    yield "names", names
    name_words = {w for key in names for w in key.split(" ") if w}
    yield "name_words", sorted(name_words)
    yield "common", sorted(common & (names.keys() | name_words))  # read once the docs are written: the phrases too
    yield "game_words", sorted(game_words)
    yield "editions", Items(((str(old), new) for old, new in editions() if 0 <= old < count and 0 <= new < count),
                            table=True)
    yield "same_rule", same_rule_table(equivalents(), docs.sources, authorities or [0.0] * len(sources))


def same_rule_table(pairs: Iterable[tuple[int, int]], source_of: Sequence[int],
                    authorities: Sequence[float]) -> dict[str, list[int]]:
    """Each document that states a rule another document states too -> those documents, the most
    authoritative first (authorities: each source's kb.search.ranking.authority; the official statement first),
    then in the build's order: decided once here, so that both runtimes only read it
    (kb.search.search.Searcher.arrange)."""
    count = len(source_of)
    table: dict[int, list[int]] = {}
    for a, b in pairs:
        if 0 <= a < count and 0 <= b < count and b not in table.setdefault(a, []):
            table[a].append(b)
    return {str(d): sorted(others, key=lambda o: (-authorities[source_of[o]], source_of[o], o))
            for d, others in sorted(table.items())}


def gather(fields: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The search data whole, from its fields in order (spec_items): what write_spec would write, held
    in memory (SearchSpec.of reads it)."""
    return {key: value.whole() if isinstance(value, Items) else value for key, value in fields}


CHUNK = 5000
"""Items of a list or table written at a time: the files are written piece by piece, never held whole."""


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


PIECE_SIZE = 20 * CHUNK
"""At most this many values (a table's lists counted by their length) in a piece of a list or table made as
it is written: the postings of a large corpus are a few thousand terms holding millions of numbers."""


def _pieces(value: Any) -> tuple[str, Iterator[list[Any]]] | None:
    """A value made as it is written (Items), or a large list or table, cut into pieces of at most
    CHUNK items (a table as lists of its items): ("list" or "table", the pieces, at least one);
    None for a value written whole."""
    if isinstance(value, Items):
        return ("table" if value.table else "list"), _chunks(value.items, value.table)
    if isinstance(value, dict) and len(value) > CHUNK:
        return "table", _chunks(iter(value.items()), True)
    if isinstance(value, list) and len(value) > CHUNK:
        return "list", _chunks(iter(value), False)
    return None


def _chunks(items: Iterator[Any], table: bool) -> Iterator[list[Any]]:
    """Pieces of at most CHUNK items or PIECE_SIZE values; at least one, though empty."""
    piece: list[Any] = []
    size, made = 0, False
    for item in items:
        piece.append(item)
        value = item[1] if table else item
        size += len(value) if isinstance(value, list) else 1
        if len(piece) >= CHUNK or size >= PIECE_SIZE:
            yield piece
            piece, size, made = [], 0, True
    if piece or not made:
        yield piece


def write_spec(folder: Path, spec: dict[str, Any] | Iterable[tuple[str, Any]]) -> None:
    """The search data (a dict, or its fields in order, spec_items) into a knowledge base folder: as
    JSON (the browser's) and as marshal, both written a piece at a time as the fields come (the JSON
    is the same text json.dumps gives for the whole)."""
    fields = spec.items() if isinstance(spec, dict) else spec
    with open(folder / SPEC, "w", encoding="utf-8") as out, open(folder / SPEC_CACHE, "wb") as cache:
        out.write("{")
        for n, (key, value) in enumerate(fields):
            out.write(("," if n else "") + _json(key) + ":")
            cut = _pieces(value)
            if cut is None and key in LAZY and isinstance(value, (dict, list)):
                cut = ("table", iter([list(value.items())])) if isinstance(value, dict) else ("list", iter([value]))
            if cut is None:
                out.write(_json(value))
                _write_record(cache, (key, "whole", value))
                continue
            kind, pieces = cut
            table = kind == "table"
            out.write("{" if table else "[")
            for i, piece in enumerate(pieces):
                items = (f"{_json(k)}:{_json(v)}" for k, v in piece) if table else (_json(v) for v in piece)
                out.write(("," if i else "") + ",".join(items))
                if key in LAZY:
                    _write_lazy(cache, key, table, piece)
                else:
                    _write_record(cache, (key, kind, piece))
            out.write("}" if table else "]")
        out.write("}")
        _write_record(cache, None)  # the end: a copy cut short is damaged


def _write_record(cache: BinaryIO, value: Any) -> None:
    """One marshal record, after its length (marshal.load from a file reads object by object, slowly)."""
    data = marshal.dumps(value)
    cache.write(len(data).to_bytes(8, "little") + data)


def _write_lazy(cache: BinaryIO, key: str, table: bool, piece: list[Any]) -> None:
    """A piece of a field read item by item (LAZY): a record saying its items (a table's keys, or a
    list's count), each item's size and the columns of a list's items read at once, then the items,
    each marshalled alone."""
    values = [v for _, v in piece] if table else piece
    blobs = [marshal.dumps(v) for v in values]
    names: list[str] | int = [k for k, _ in piece] if table else len(piece)
    columns = {} if table else {c: [item[c] for item in piece] for c in LAZY[key]}
    _write_record(cache, (key, "table*" if table else "list*", (names, [len(b) for b in blobs], columns)))
    cache.write(b"".join(blobs))


LAZY: dict[str, tuple[str, ...]] = {"docs": ("source", "id"), "postings": (), "keys": ()}
"""The fields the marshal copy holds item by item, each item read when first asked for: a search
reads some hundred of the 3,898 documents and the postings of its dozen words, not all of them (a
third of a cold search's loading). A list's columns named here are read at once (every document's
source chooses what a search may find; its id finds it)."""


class _Items:
    """Items of the marshal copy, each read when first asked for (LazyList, LazyTable)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._data = memoryview(b"")
        self._starts: list[int] = []
        self._ends: list[int] = []
        self._items: list[Any] = []

    def _append(self, data: memoryview, at: int, sizes: list[int]) -> None:
        """A piece's items, marshalled one after another from `at` in data (the whole copy)."""
        self._data = data
        bounds = list(accumulate(sizes, initial=at))
        self._starts += bounds[:-1]
        self._ends += bounds[1:]
        self._items += [_UNREAD] * len(sizes)

    def _item(self, i: int) -> Any:
        item = self._items[i]
        if item is _UNREAD:
            try:
                item = self._items[i] = marshal.loads(self._data[self._starts[i]:self._ends[i]])
            except (ValueError, EOFError, TypeError) as exc:  # read as a search reaches it: damaged since the build
                raise KbBroken(f"the search data at {self._path} is damaged ({exc.__class__.__name__}); "
                               "run `rulings build` to rebuild it") from exc
        return item


class LazyList(_Items, Sequence[Any]):
    """A list field of the marshal copy (LAZY)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._columns: dict[str, list[Any]] = {}

    def add(self, data: memoryview, at: int, count: int, sizes: list[int], columns: dict[str, list[Any]]) -> None:
        if count != len(sizes) or any(len(v) != count for v in columns.values()):
            raise ValueError("a piece's count, sizes and columns disagree")
        self._append(data, at, sizes)
        for name, values in columns.items():
            self._columns.setdefault(name, []).extend(values)

    def column(self, name: str) -> list[Any]:
        """Every item's value of a column LAZY names, without reading the items."""
        return self._columns[name]

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...
    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self._item(j) for j in range(*i.indices(len(self)))]
        return self._item(i)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, (list, LazyList)) and len(self) == len(other) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


class LazyTable(_Items, Mapping[str, Any]):
    """A table field of the marshal copy (LAZY)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self._at: dict[str, int] = {}

    def add(self, data: memoryview, at: int, names: list[str], sizes: list[int], columns: dict[str, list[Any]]) -> None:
        if len(names) != len(sizes) or columns:
            raise ValueError("a piece's keys and sizes disagree")
        self._at.update(zip(names, range(len(self._at), len(self._at) + len(names))))
        self._append(data, at, sizes)

    def __getitem__(self, key: str) -> Any:
        return self._item(self._at[key])

    def __contains__(self, key: object) -> bool:
        return key in self._at

    def __iter__(self) -> Iterator[str]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)


_UNREAD = object()


def column(items: Sequence[Any], name: str) -> list[Any]:
    """Every item's value of a column, read at once where the items are a LazyList."""
    return items.column(name) if isinstance(items, LazyList) else [item[name] for item in items]


def _read_cache(path: Path) -> dict[str, Any]:
    """The search data from its marshal copy (write_spec's pieces put together again), read with the
    cyclic garbage collector paused: the load makes some ten thousand lists and tuples and no cycle."""
    with collector_paused():
        return _read_records(path)


def _read_records(path: Path) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    data = memoryview(path.read_bytes())
    at = 0
    while True:
        size = int.from_bytes(data[at:at + 8], "little")
        if at + 8 + size > len(data):
            raise EOFError(f"{path} is cut short")
        record = marshal.loads(data[at + 8:at + 8 + size])
        at += 8 + size
        if record is None:
            return raw
        key, kind, piece = record
        if kind in ("list*", "table*"):
            names, sizes, columns = piece
            end = at + sum(sizes)
            if end > len(data):
                raise EOFError(f"{path} is cut short")
            lazy = raw.setdefault(key, LazyTable(path) if kind == "table*" else LazyList(path))
            lazy.add(data, at, names, sizes, columns)
            at = end
        elif kind == "whole":
            raw[key] = piece
        elif kind == "table":
            raw.setdefault(key, {}).update(piece)
        else:
            raw.setdefault(key, []).extend(piece)


def phrase_pattern(keys: list[str]) -> re.Pattern[str]:
    """One pattern matching any of the phrases as whole words, longest first."""
    alternatives = "|".join(re.escape(k) for k in sorted(keys, key=lambda k: (-len(k), k)))
    return re.compile(rf"(?<![\w'])(?:{alternatives})(?![\w'])", re.I | re.A)


class Phrases:
    """The phrases of a table found in a text as phrase_pattern(keys) finds them, by a pattern of only
    the phrases the text holds (in ASCII lower case, as the pattern matches them): the others could
    match nowhere in it, and compiling the pattern of all of them took a cold search 3 ms."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._keys = [(k.translate(ASCII_LOWER), k) for k in keys]
        self._patterns: dict[tuple[str, ...], re.Pattern[str]] = {}

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        lowered = text.translate(ASCII_LOWER)
        held = tuple(k for low, k in self._keys if low and low in lowered)
        if not held:
            return iter(())
        if held not in self._patterns:
            self._patterns[held] = phrase_pattern(list(held))
        return self._patterns[held].finditer(text)


@dataclass(slots=True)
class SearchSpec:
    """The search data, loaded: what kb.search.query and kb.search.search read."""

    raw: dict[str, Any]
    docs_count: int = 0
    avg_length: float = 1.0
    _pools: dict[str, list[str]] = field(default_factory=dict)
    _names_by_first: dict[str, list[str]] = field(default_factory=dict)
    _name_words: set[str] = field(default_factory=set)
    _common: set[str] = field(default_factory=set)
    _phrases: dict[str, Phrases] = field(default_factory=dict)
    _docs: dict[int, Doc] = field(default_factory=dict)
    _data: dict[int, dict[str, Any]] = field(default_factory=dict)
    _heads: dict[int, frozenset[str] | None] = field(default_factory=dict)
    _tables: dict[str, dict[str, str]] = field(default_factory=dict)
    _name_index: NameIndex | None = None

    @classmethod
    def load(cls, path: Path) -> SearchSpec:
        """The search data at path (its marshal copy when it reads); KbBroken saying what to run
        when it is missing or damaged."""
        try:
            return cls.of(_read_cache(path.with_name(SPEC_CACHE)), str(path))
        except (OSError, ValueError, EOFError, TypeError, AttributeError, KbBroken):
            pass  # no copy, another Python's, or damaged: the JSON says the same
        try:
            raw = json.loads(path.read_text("utf-8"))
        except FileNotFoundError as exc:
            raise KbBroken(f"no search data at {path}; run `rulings build` to rebuild the knowledge base") from exc
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise KbBroken(f"the search data at {path} is damaged ({exc.__class__.__name__}); "
                           "run `rulings build` to rebuild it") from exc
        return cls.of(raw, str(path))

    @classmethod
    def of(cls, raw: Any, where: str = "search data") -> SearchSpec:
        needed = ("version", "docs", "sections", "heading_terms", "priors", "lengths", "avg_length", "postings", "keys",
                  "vocab",
                  "names", "name_words", "common", "game_words", "sources", "query", "weights", "limits", "same_rule")
        if not isinstance(raw, dict) or any(k not in raw for k in needed) or raw["version"] != SPEC_VERSION:
            raise KbBroken(f"the search data at {where} is incomplete or of another version; "
                           "run `rulings build` to rebuild it")
        spec = cls(raw)
        spec.docs_count = len(raw["docs"])
        spec.avg_length = float(raw["avg_length"])
        spec._tables = {name: {k.lower(): v for k, v in raw["query"][name].items()}
                        for name in ("abbreviations", "synonyms", "rule_numbers")}
        return spec

    # -- kb.search.query.Vocabulary --------------------------------------------------------------------

    def terms_of(self, key: str) -> list[str] | None:
        entry = self.raw["vocab"].get(key)
        return None if entry is None else list(entry[1:])

    def count_of(self, key: str) -> int:
        entry = self.raw["vocab"].get(key)
        return int(entry[0]) if entry else 0

    def df(self, term: str) -> int:
        return len(self.raw["postings"].get(term, ())) // 2

    def spelling_pool(self, first: str) -> list[str]:
        if not self._pools:
            for key in self.raw["vocab"]:
                if key.isalpha() and key.isascii():
                    self._pools.setdefault(key[0], []).append(key)
        return self._pools.get(first, [])

    def card_names(self, key: str) -> list[str] | None:
        names: list[str] | None = self.raw["names"].get(key)
        return names

    def name_keys(self, first: str) -> list[str]:
        if not self._names_by_first:
            for key in self.raw["names"]:
                self._names_by_first.setdefault(key[:1], []).append(key)
        return self._names_by_first.get(first[:1], [])

    def is_name_word(self, word: str) -> bool:
        """A word of a card's name (the search data's name_words)."""
        if not self._name_words:
            self._name_words = set(self.raw["name_words"])
        return word in self._name_words

    def is_common_word(self, word: str) -> bool:
        """A card's name, or a word of one, that the corpus also writes in lower case, as an ordinary
        word or phrase ("twilight", "left behind", "healing")."""
        if not self._common:
            self._common = set(self.raw["common"])
        return word in self._common

    def is_game_word(self, word: str) -> bool:
        """A word that names a card but in the rules means a race or a kind of player ("Balrog", "Hobbits")."""
        return word in self.raw["game_words"]

    def is_english(self, word: str) -> bool:
        """An English word (kb/data/english.txt, read when a word is first looked up in it)."""
        return bool(word) and "\n" not in word and f"\n{word}\n" in words_text("english")

    def name_index(self) -> NameIndex:
        """The card names, searched for near spellings (made once: kb.read.lookup keeps a build's search data)."""
        if self._name_index is None:
            self._name_index = NameIndex(self.raw["names"])
        return self._name_index

    def expansion(self, table: str, key: str) -> str | None:
        return self._tables[table].get(key)

    def phrases(self, table: str) -> Phrases:
        if table not in self._phrases:
            self._phrases[table] = Phrases(self._tables[table])
        return self._phrases[table]

    # -- documents -------------------------------------------------------------------------------

    def doc(self, d: int) -> Doc:
        """Document d, its fields by name (those the search data leaves out at their defaults)."""
        if d not in self._docs:
            self._docs[d] = Doc(**self.raw["docs"][d])
        return self._docs[d]

    def prior(self, d: int) -> list[str]:
        """Document d's constant ranking features (its prior: kb.search.ranking.document_fields)."""
        names: list[str] = self.raw["priors"][self.doc(d).prior]
        return names

    def heading_terms(self, section: int) -> frozenset[str] | None:
        """The index terms of a section's heading, as the build read them (kb.search.searchspec.heading_terms);
        None for a section without a heading."""
        if section not in self._heads:
            terms = self.raw["heading_terms"][section]
            self._heads[section] = None if terms is None else frozenset(terms)
        return self._heads[section]

    def data(self, d: int) -> dict[str, Any]:
        """The display data of document d, as every command shows a ruling."""
        if d not in self._data:
            doc = self.doc(d)
            s = self.raw["sources"][doc.source]
            self._data[d] = {"id": doc.id, "source": s["id"], "source_title": s["title"], "source_kind": s["kind"],
                             "edition": s["edition"], "current": s["current"], "game": s["game"], "kind": doc.kind,
                             "number": doc.number, "title": doc.title, "about": doc.about,
                             "section": self.raw["sections"][doc.section], "text": doc.text, "markers": doc.markers,
                             "lines": doc.lines, "path": s["path"], "incomplete": doc.incomplete}
        return self._data[d]


def name_table(names: dict[str, list[str]]) -> dict[str, list[str]]:
    """Card names keyed as queries fold them, and a name that opens with "the" also without it
    ("witch king" for The Witch-king) where no other name is so keyed."""
    out: dict[str, list[str]] = {}
    for key, canonicals in names.items():
        k = fold(key)
        for c in canonicals:
            if k and c not in out.setdefault(k, []):
                out[k].append(c)
    for k in [k for k in out if k.startswith("the ") and k[4:] not in out]:
        out[k[4:]] = list(out[k])
    return out

"""The whoosh index (pinned Whoosh 2.7.4): the build's analyzer, and the index behind `search --raw`.

This is the only module that imports whoosh, and only `rulings build` and `search --raw` import
it: the analyzer gives each corpus word its index terms once, at build time (kb.search.searchspec keeps
them), and ranked search runs over the search data without whoosh.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whoosh import fields, index, qparser, query, scoring
from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.support.charset import accent_map

from kb.errors import KbBroken, QueryError, quote
from kb.search.query import PREFIXES, TOKEN

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
    return (RegexTokenizer(TOKEN.pattern) | CompoundFilter() | AcronymPluralFilter() | LowercaseFilter()
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


@contextmanager
def index_writer(index_dir: Path) -> Iterator[Callable[[dict[str, Any]], None]]:
    """A new index in index_dir, written a record at a time: the block gets a function that adds one
    record (id, source, game, kind, number, title, about, mentions, section, text, data); the index
    is committed when the block ends, and cancelled if it fails."""
    index_dir.mkdir(parents=True, exist_ok=True)
    ix = index.create_in(str(index_dir), schema())
    writer = ix.writer(limitmb=64)  # its sorting pool (MB): capped, so a large corpus builds in little memory

    def add(r: dict[str, Any]) -> None:
        writer.add_document(
            id=r["id"], source=r["source"], game=r["game"], kind=r["kind"], number=r.get("number") or "",
            title=r.get("title") or "", about=",".join(r.get("about") or ()),
            mentions=",".join(r.get("mentions") or ()), section=" / ".join(r.get("section") or ()),
            text=r["text"], data=json.dumps(r["data"], ensure_ascii=False))

    try:
        yield add
    except BaseException:
        writer.cancel()
        raise
    writer.commit()


@dataclass(frozen=True, slots=True)
class Hit:
    """One result: id, score and the stored display data."""

    id: str
    score: float
    data: dict[str, Any]


class Index:
    """An open index for raw query syntax (--raw); open once, search many times."""

    def __init__(self, index_dir: Path) -> None:
        try:
            self._ix = index.open_dir(str(index_dir))
            self._searcher = self._ix.searcher(weighting=scoring.BM25F(B=0.6, K1=1.2))
        except Exception as exc:  # whoosh raises many kinds for a missing or damaged index
            raise KbBroken(f"the search index at {index_dir} cannot be opened ({exc.__class__.__name__}); "
                           "run `rulings build` to rebuild it") from exc

    def close(self) -> None:
        self._searcher.close()

    def _allowed(self, games: tuple[str, ...], sources: tuple[str, ...]) -> Any:
        restrict = [query.Or([query.Term("game", g) for g in games])] if games else []
        if sources:
            restrict.append(query.Or([query.Term("source", s) for s in sources]))
        return query.And(restrict) if restrict else None

    def search_raw(self, text: str, *, limit: int, games: Iterable[str] = (), sources: Iterable[str] = ()) -> list[Hit]:
        """Hits for whoosh query syntax typed by the user (--raw); QueryError on bad syntax."""
        check_raw(text, [name for name, field in self._ix.schema.items() if field.format is None])
        parser = qparser.MultifieldParser(["title", "section", "text"], self._ix.schema)
        parser.remove_plugin_class(qparser.WildcardPlugin)
        q = parser.parse(text)
        if any(isinstance(node, query.qcore._NullQuery) for node in [q]) or "Error" in type(q).__name__:
            raise QueryError(f"--raw query {quote(text)} leaves nothing to search for (only stop words or "
                             "operators); try again without --raw")
        try:
            results = self._searcher.search(q, limit=limit, filter=self._allowed(tuple(games), tuple(sources)))
            return [Hit(r["id"], float(r.score), json.loads(r["data"])) for r in results]
        except Exception as exc:  # whoosh raises many kinds for a query it cannot run
            raise QueryError(f"--raw query {quote(text)} cannot be run ({exc.__class__.__name__}); "
                             "try again without --raw") from exc


BINARY = ("AND", "OR", "ANDNOT", "ANDMAYBE")
OPENS = {"(": ")", "[": "]}", "{": "]}"}


def check_raw(text: str, unsearchable: Iterable[str] = ()) -> None:
    """QueryError naming the position (from 1) of the first syntax error of a --raw query, which
    whoosh's parser would otherwise drop or read as words: an unclosed quote, bracket or range, a
    closing one without its opening, an operator with nothing on one side, a field that holds no
    words. check_raw('text:"strike') says: position 6, a quote is opened and not closed."""
    def fail(at: int, problem: str) -> QueryError:
        return QueryError(f"--raw query {quote(text)}, position {at + 1}: {problem}; fix it, or try again "
                          "without --raw")

    stored = set(unsearchable)
    opened: list[tuple[str, int]] = []
    words: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise fail(i, "a quote is opened and not closed")
            words.append(('"', i))
            i = end + 1
            continue
        if c in OPENS:
            opened.append((c, i))
        elif c in ")]}":
            if not opened or c not in OPENS[opened[-1][0]]:
                raise fail(i, f"{c!r} closes nothing")
            opened.pop()
        elif not c.isspace():
            end = i
            while end < len(text) and not text[end].isspace() and text[end] not in '"()[]{}':
                end += 1
            word = text[i:end]
            field = word.split(":", 1)[0] if ":" in word else ""
            if field in stored:
                raise fail(i, f"field {field!r} holds no words to search")
            words.append((word, i))
            i = end
            continue
        i += 1
    if opened:
        c, at = opened[-1]
        raise fail(at, f"{c!r} is opened and not closed")
    for n, (word, at) in enumerate(words):
        before = words[n - 1][0] if n else None
        after = words[n + 1][0] if n + 1 < len(words) else None
        if word in BINARY and (before is None or after is None or before in BINARY or before == "NOT"):
            raise fail(at, f"{word} needs something on each side")
        if word == "NOT" and (after is None or after in BINARY):
            raise fail(at, "NOT needs something after it")

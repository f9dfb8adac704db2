"""One search, two runtimes, one file of cases: every question of tests/data/search/cases.json, asked of
the conformance corpus beside it (a few hand-made rulings of each kind of source, built by the real
pipeline), is read, searched and scored by kb.search.search and by the site's search.js (in node, through the one
parity harness, tests/parity, over the corpus's site as `rulings site` builds it) as the file says: its
reading (every field of the understanding that is not empty), the rulings found in order, their scores, the
other editions folded into each, the words each matched, and each result's text as a reader is shown it
(kb.read.render.reading; the site's index carries it as edits of the stored text) with the spans marked in it
(kb.search.search.highlight_spans).

The file is the specification both runtimes are held to. After a change meant to change answers,
`RULINGS_UPDATE_CASES=1 .venv/bin/python -m pytest tests/test_conformance.py` writes what kb.search.search
answers now into it; read the difference before committing it.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from kb.search.ranking import FEATURES, QueryContext, features
from kb.store.reading import reading as shown_text
from kb.search.search import Searcher, highlight_spans

from . import parity
from .conftest import DATA, made_once

CORPUS = DATA / "search"
CASES = CORPUS / "cases.json"
LIMIT = 5
"""Results of a case unless its options give a limit."""


def read_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES.read_text("utf-8"))
    return cases


def reading(u: Any) -> dict[str, Any]:
    """An understanding's fields that are not empty, as JSON has them (pairs as lists)."""
    return reading_of(json.loads(json.dumps(asdict(u))))


def answer(searcher: Searcher, case: dict[str, Any]) -> dict[str, Any]:
    """A case as kb.search.search answers it: its reading and its results, each with its text as the terminal shows it
    (kb.read.render.reading) and the spans marked in it."""
    o = case.get("options", {})
    u = searcher.understand(case["query"])
    results = searcher.search(case["query"], limit=o.get("limit", LIMIT), game=o.get("game"), source=o.get("source"))
    parsers = {s["id"]: s["parser"] for s in searcher.spec.raw["sources"]}
    out = []
    for r in results:
        shown = shown_text(r.data["text"], parsers[r.data["source"]]).text
        out.append({"id": r.id, "score": r.score, "also_in": r.also_in, "matched": r.matched, "shown": shown,
                    "spans": [list(s) for s in highlight_spans(shown, u, searcher.spec)]})
    return {"reading": reading(u), "results": out}


def write_cases(cases: list[dict[str, Any]]) -> None:
    """The cases as the file keeps them: one case a block, its reading on one line, a result a line."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    blocks = []
    for c in cases:
        head = [f'"query": {line(c["query"])}'] + ([f'"options": {line(c["options"])}'] if c.get("options") else [])
        results = ",\n".join(f"  {line(r)}" for r in c["results"])
        blocks.append("{" + ", ".join(head) + f', "why": {line(c["why"])},\n "reading": {line(c["reading"])},\n'
                      + f' "results": [{chr(10) + results if results else ""}]}}')
    CASES.write_text("[\n" + ",\n".join(blocks) + "\n]\n", "utf-8")


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The conformance corpus's knowledge base and its site, built once by the real pipeline and generator."""
    from kb.builder.pipeline import build
    from kb.site.website import build_site

    def make(folder: Path) -> None:
        build(CORPUS, folder / "kb")
        build_site(folder / "kb", folder / "site")

    return made_once(tmp_path_factory, "conformance", make)


@pytest.fixture(scope="session")
def searcher(corpus: Path) -> Searcher:
    searcher = Searcher.open(corpus / "kb")
    if parity.UPDATE:
        write_cases([{**c, **answer(searcher, c)} for c in read_cases()])
    return searcher


@pytest.fixture(scope="session")
def from_browser(corpus: Path, searcher: Searcher) -> list[dict[str, Any]]:
    """Every case as the site's search page answers it (the parity harness, over the corpus's site)."""
    found = parity.run("search", corpus / "site", cases=read_cases(), limit=LIMIT)["cases"]
    return [{"reading": reading_of(c["understanding"]), "results": c["results"]} for c in found]


def reading_of(understanding: dict[str, Any]) -> dict[str, Any]:
    """An understanding's fields that are not empty, as JSON has them."""
    return {k: v for k, v in understanding.items() if v not in (False, "", [])}


def same(got: dict[str, Any], case: dict[str, Any]) -> None:
    """got answers the case: the same reading, results, folded editions and matched words, the same text shown
    and the same spans marked in it; scores to 1e-12."""
    assert got["reading"] == case["reading"]
    assert [r["id"] for r in got["results"]] == [r["id"] for r in case["results"]]
    assert [r["score"] for r in got["results"]] == pytest.approx([r["score"] for r in case["results"]], rel=1e-12)
    assert [(r["also_in"], r["matched"]) for r in got["results"]] == \
           [(r["also_in"], r["matched"]) for r in case["results"]]
    assert [(r["shown"], r["spans"]) for r in got["results"]] == [(r["shown"], r["spans"]) for r in case["results"]]


ALL = read_cases()
IDS = [c["query"][:40] or "(nothing)" for c in ALL]


@pytest.mark.parametrize("n", range(len(ALL)), ids=IDS)
def test_the_terminal_answers_each_case_as_the_file_says(searcher: Searcher, n: int) -> None:
    same(answer(searcher, ALL[n]), read_cases()[n])


@pytest.mark.parametrize("n", range(len(ALL)), ids=IDS)
def test_the_browser_answers_each_case_as_the_file_says(from_browser: list[dict[str, Any]], n: int) -> None:
    same(from_browser[n], read_cases()[n])


def test_the_cases_reach_every_feature_every_source_and_every_reading(searcher: Searcher) -> None:
    """The file exercises the whole specification: every ranking feature on some candidate, a result
    from every source, and every kind of reading (a card, a near name, a story, a definition asked, a
    correction, an abbreviation, a synonym, a number, a rule, another game, Arda)."""
    seen: set[str] = set()
    for case in ALL:
        o = case.get("options", {})
        found = searcher.candidates(case["query"], searcher.candidate_count, game=o.get("game"), source=o.get("source"))
        context = QueryContext.of(found.understanding, o.get("source"), searcher.spec, found.total)
        seen.update(name for d, _, covered in found.docs for name in features(d, covered, context))
    assert set(FEATURES) - seen == set()
    sources = {r["id"].split(".")[0] for case in ALL for r in case["results"]}
    assert sources == {s["id"] for s in searcher.spec.raw["sources"]}
    readings = set().union(*(case["reading"] for case in ALL))
    assert readings >= {"cards", "near_cards", "story_cards", "story", "define", "corrections", "abbreviations",
                        "synonyms", "annotations", "rules", "games", "arda", "card_text", "card_query", "how_many",
                        "numbers", "dropped", "question"}
    assert any(r["also_in"] for case in ALL for r in case["results"])  # an older edition folded in

"""One search, two runtimes, one file of cases: every question of tests/data/search/cases.json, asked of
the conformance corpus beside it (a few hand-made rulings of each kind of source, built by the real
pipeline), is read, searched and scored by kb.search.search and by the site's search.js (in node, over the
index as the site ships it, kb.site.browserdata.packed) as the file says: its reading (every field of the
understanding that is not empty), the rulings found in order, their scores, the other editions folded
into each and the words each matched.

The file is the specification both runtimes are held to. After a change meant to change answers,
`RULINGS_UPDATE_CASES=1 .venv/bin/python -m pytest tests/test_conformance.py` writes what kb.search.search
answers now into it; read the difference before committing it.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from kb.site.browserdata import packed
from kb.search.ranking import FEATURES, QueryContext, features
from kb.search.search import Searcher
from kb.search.searchspec import SPEC
from kb.store.store import CURRENT

from .conftest import DATA, ROOT, made_once
from .test_parity import _node

CORPUS = DATA / "search"
CASES = CORPUS / "cases.json"
SEARCH_JS = ROOT / "site" / "assets" / "search.js"
LIMIT = 5
"""Results of a case unless its options give a limit."""
UPDATE = os.environ.get("RULINGS_UPDATE_CASES") == "1"

DRIVER = """
const fs = require("fs");
const [searchJs, specPath, casesPath] = process.argv.slice(2);
const searcher = require(searchJs).of(JSON.parse(fs.readFileSync(specPath, "utf8")));
const shown = u => Object.fromEntries(Object.entries(u).filter(([, v]) =>
  v !== false && v !== "" && !(Array.isArray(v) && v.length === 0)));
const out = JSON.parse(fs.readFileSync(casesPath, "utf8")).map(c => {
  const o = c.options || {};
  const found = searcher.search(c.query, o.limit || %d, {game: o.game, source: o.source});
  return {reading: shown(found.understanding), results: found.results.map(r =>
    ({id: r.id, score: r.score, also_in: r.also_in, matched: r.matched}))};
});
process.stdout.write(JSON.stringify(out));
""" % LIMIT


def read_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES.read_text("utf-8"))
    return cases


def reading(u: Any) -> dict[str, Any]:
    """An understanding's fields that are not empty, as JSON has them (pairs as lists)."""
    return {k: v for k, v in json.loads(json.dumps(asdict(u))).items() if v not in (False, "", [])}


def answer(searcher: Searcher, case: dict[str, Any]) -> dict[str, Any]:
    """A case as kb.search.search answers it: its reading and its results."""
    o = case.get("options", {})
    results = searcher.search(case["query"], limit=o.get("limit", LIMIT), game=o.get("game"), source=o.get("source"))
    return {"reading": reading(searcher.understand(case["query"])),
            "results": [{"id": r.id, "score": r.score, "also_in": r.also_in, "matched": r.matched} for r in results]}


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
    """The conformance corpus's knowledge base, built once by the real pipeline."""
    from kb.builder.pipeline import build

    return made_once(tmp_path_factory, "conformance", lambda folder: build(CORPUS, folder / "kb")) / "kb"


@pytest.fixture(scope="session")
def searcher(corpus: Path) -> Searcher:
    searcher = Searcher.open(corpus)
    if UPDATE:
        write_cases([{**c, **answer(searcher, c)} for c in read_cases()])
    return searcher


@pytest.fixture(scope="session")
def from_browser(corpus: Path, searcher: Searcher, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Every case as search.js answers it, in one node run over the corpus's index as the site ships it."""
    node = _node()
    tmp = tmp_path_factory.mktemp("conformance-js")
    (tmp / "driver.js").write_text(DRIVER, "utf-8")
    spec = json.loads((corpus / CURRENT / SPEC).read_text("utf-8"))
    (tmp / "index.json").write_text(json.dumps(packed(spec), ensure_ascii=False), "utf-8")
    run = subprocess.run([node, str(tmp / "driver.js"), str(SEARCH_JS), str(tmp / "index.json"), str(CASES)],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        raise RuntimeError(f"search.js failed in node: {run.stderr}")
    found: list[dict[str, Any]] = json.loads(run.stdout)
    return found


def same(got: dict[str, Any], case: dict[str, Any]) -> None:
    """got answers the case: the same reading, results, folded editions and matched words; scores to 1e-12."""
    assert got["reading"] == case["reading"]
    assert [r["id"] for r in got["results"]] == [r["id"] for r in case["results"]]
    assert [r["score"] for r in got["results"]] == pytest.approx([r["score"] for r in case["results"]], rel=1e-12)
    assert [(r["also_in"], r["matched"]) for r in got["results"]] == \
           [(r["also_in"], r["matched"]) for r in case["results"]]


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

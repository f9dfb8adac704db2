"""The same rule, shown together (kb.builder.equivalents, issue 44.1): the pairs a person checked, stored by the
build, shipped in the search data, carried by a result in the terminal, in JSON and in the browser, the
most authoritative first, and counted by `rulings eval`."""

from __future__ import annotations

import json
import sqlite3
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli
from kb.builder.equivalents import KIND, equivalence_links, load_equivalences
from kb.search.evaluation import score
from kb.model import Problem
from kb.search.ranking import authority, weights
from kb.search.search import Searcher
from kb.search.searchspec import same_rule_table
from kb.store.store import CURRENT, DB_NAME
from kb.tables import data_file

from .conftest import DATA
from . import parity

CHECKED = DATA / "same_rule_checked.toml"
SHIPPED = data_file("same_rule.toml")
HAZARD_LIMIT = ("crf-22.f6b3237569", "coe-rules.1e3ed77b8c")
"""CRF 22's ruling and the CoE rule that the hazard limit is checked at declaration and at resolution."""
QUESTION = "when is the hazard limit checked?"
APART = {"crf-22", "crf-older"}
"""Editions of one document, linked already: never paired."""


def read(path: Path) -> dict[str, Any]:
    with open(path, "rb") as f:
        return tomllib.load(f)


def test_the_checked_sample_is_at_least_95_percent_the_same_rule() -> None:
    """Every shipped pair was read by a person and judged the same rule; the sample of at least 100
    pairs holds the verdicts, and the shipped pairs are at least 95% the same rule by it."""
    checked = read(CHECKED)["pair"]
    verdicts = {frozenset((p["first"], p["second"])): p["verdict"] for p in checked}
    assert len(checked) >= 100 and set(verdicts.values()) == {"same", "different"}
    assert all(p["note"] and p["first_text"] and p["second_text"] for p in checked)
    shipped = [frozenset((p.first, p.second)) for p in load_equivalences()]
    judged = [verdicts.get(pair) for pair in shipped]
    assert len(shipped) >= 100 and None not in judged, "a shipped pair nobody checked"
    assert judged.count("same") / len(judged) >= 0.95


def test_no_pair_joins_what_must_stay_apart() -> None:
    """Never two rulings of one document, CRF 22 with its own older edition, Arda or the LOTR wiki."""
    for p in load_equivalences():
        sources = {p.first.partition(".")[0], p.second.partition(".")[0]}
        assert len(sources) == 2 and sources != APART and not sources & {"arda", "lotr-wiki"}, p


def test_every_shipped_id_is_a_ruling_of_the_build(real_kb: Path) -> None:
    """Every id of kb/data/same_rule.toml is a stored ruling, each pair linked both ways, and the build
    reports no stale pair."""
    conn = sqlite3.connect(real_kb / CURRENT / DB_NAME)
    try:
        ids = {i for (i,) in conn.execute("select id from rulings")}
        links = set(conn.execute("select ruling_id, target from links where kind = ?", (KIND,)))
        stale = conn.execute("select count(*) from problems where source = 'kb/data/same_rule.toml'").fetchone()[0]
    finally:
        conn.close()
    pairs = load_equivalences()
    assert {i for p in pairs for i in (p.first, p.second)} <= ids
    assert links == {(p.first, p.second) for p in pairs} | {(p.second, p.first) for p in pairs}
    assert stale == 0


def test_a_stale_pair_is_a_warning_naming_its_line() -> None:
    """On a hand-made file: a pair the build has is linked each way; a pair naming a ruling its source no
    longer has is a warning naming the file's line, not a link; a pair of sources the build lacks is
    left alone."""
    pairs = load_equivalences(DATA / "same_rule_excerpt.toml")
    have = {"crf-x.aaaaaaaaaa", "coe-x.bbbbbbbbbb", "crf-x.cccccccccc"}
    problems: list[Problem] = []
    links = equivalence_links(pairs, have.__contains__, {"crf-x", "coe-x"}, problems)
    assert [(k.ruling_id, k.target) for k in links] == [("crf-x.aaaaaaaaaa", "coe-x.bbbbbbbbbb"),
                                                        ("coe-x.bbbbbbbbbb", "crf-x.aaaaaaaaaa")]
    assert [(p.source, p.line) for p in problems] == [(str(DATA / "same_rule_excerpt.toml"), 11)]
    assert "coe-x.dddddddddd" in problems[0].message


def test_a_damaged_file_is_refused_naming_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "same_rule.toml"
    bad.write_text('[[pair]]\nfirst = "a.1"\nsecond = "b.2"\nfound = "x"\nreason = "y"\nchecked = false\n', "utf-8")
    with pytest.raises(Exception, match=r"same_rule.toml:1: expected"):
        load_equivalences(bad)


def test_equivalents_are_listed_most_authoritative_first() -> None:
    """On hand-made documents: the ICE-era CRF, the CoE rules, CRF 22, the rulebook: the official
    statement first (kb.search.ranking.authority, the ranking's own source weights)."""
    sources = [{"kind": "CRF", "current": False}, {"kind": "official rules", "current": True},
               {"kind": "CRF", "current": True}, {"kind": "rulebook", "current": True}]
    authorities = [authority(s["kind"], s["current"], weights()) for s in sources]  # type: ignore[arg-type]
    table = same_rule_table([(3, 0), (3, 1), (3, 2), (0, 3)], [0, 1, 2, 3], authorities)
    assert table == {"3": [2, 1, 0], "0": [3]}


def test_the_hazard_limit_rule_is_shown_together_in_json(real_kb: Path) -> None:
    """CRF 22's ruling and the CoE rule on when the hazard limit is checked: one result, the other under
    it, not a result of its own."""
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "search", QUESTION, "--json", "--limit", "10"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    ids = [r["id"] for r in found]
    head = next(r for r in found if r["id"] in HAZARD_LIMIT)
    other = next(i for i in HAZARD_LIMIT if i != head["id"])
    assert other not in ids
    shown = {e["id"]: e for e in head["same_rule"]}
    assert shown[other]["source"] == other.partition(".")[0] and "hazard limit" in shown[other]["text"]


def test_the_terminal_shows_a_line_each(real_kb: Path) -> None:
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "search", QUESTION, "--limit", "3"])
    assert result.exit_code == 0
    assert "same rule, Council of Elrond Official Game Rules: Not exceeding the hazard limit" in result.output
    assert "coe-rules.1e3ed77b8c" in result.output


def test_the_browser_shows_the_same_together(real_kb: Path, real_site: Path) -> None:
    """search.js over the index the site ships (the one parity harness): the same result with the same rule
    under it."""
    (case,) = parity.run("search", real_site, limit=10, cases=[{"query": QUESTION}])["cases"]
    js = [[r["id"], r["same_rule"]] for r in case["results"]]
    python = [[r.id, [[e["id"], e["source"], e["text"]] for e in r.same_rule]]
              for r in Searcher.open(real_kb).search(QUESTION, limit=10)]
    assert js == python
    assert any(i == HAZARD_LIMIT[0] and [e[0] for e in same] == [HAZARD_LIMIT[1]] for i, same in js) or \
        any(i == HAZARD_LIMIT[1] and HAZARD_LIMIT[0] in [e[0] for e in same] for i, same in js)


def test_eval_counts_a_gold_among_the_equivalents_at_the_result_rank() -> None:
    """A hand-made case whose gold only an equivalent shown under the second result holds: rank 2, and
    one hit that came that way."""
    cases = [{"id": "x1", "kind": "question", "query": "q", "gold": ["checked at declaration and resolution"]},
             {"id": "x2", "kind": "question", "query": "r", "gold": ["a strike"]}]
    answers = {"q": ["another rule", ["the rule in other words", "It is checked at declaration and resolution."]],
               "r": ["A strike may not be canceled."]}
    report = score(cases, answers)
    assert [r["rank"] for r in report["misses"]] == []
    assert report["overall"]["mrr@10"] == 0.75 and report["overall"]["via_same_rule"] == 1


def test_an_equivalent_is_read_as_a_reader_reads_it(real_kb: Path) -> None:
    """An equivalent's text in JSON is the reader's text, as the result's own: the CoE rules' Markdown
    read ("[FALLEN-WIZARD]", never "**[FALLEN-WIZARD]**")."""
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "search", "FW MP value of non-stage cards", "--json"])
    shown = [e["text"] for r in json.loads(result.output) for e in r["same_rule"]]
    assert any(t.startswith("[FALLEN-WIZARD]") for t in shown) and not any("**" in t for t in shown)

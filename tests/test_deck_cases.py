"""One deck check, two runtimes, one file of cases: every list of tests/data/decks/cases.json (the deck files of
tests/data/decks in each of their formats and the lists a NetMECCG or GCCG file writes, every rule case of
tests/test_deckrules.py, and the published lists of tests/data/decks/audit) is checked by `rulings deck` (kb.deck:
a file's bytes read as the terminal reads them) and by the site's deck page (the parity harness, tests/parity,
over the real site) as the file says: its verdict, its findings, the alignments it was checked as (readings)
and whose deck it is (alignment).

The file is the specification both runtimes are held to. After a change meant to change answers,
`RULINGS_UPDATE_CASES=1 .venv/bin/python -m pytest tests/test_deck_cases.py` writes what kb.deck answers now
into it (and the lists the tests name now); read the difference before committing it.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from kb.deck.deck import check_deck, deck_report, file_title

from . import parity
from .conftest import DATA
from .test_deck import GCCG_HEADINGS, NETMECCG, NETMECCG_MARKS
from .test_deckrules import CASES, NOT_A_DECK, VERDICTS

DECKS = DATA / "decks"
CASES_FILE = DECKS / "cases.json"
AUDIT = DECKS / "audit"
FIELDS = ("verdict", "findings", "readings", "alignment")
"""What each case holds both runtimes to."""


def lists() -> list[dict[str, Any]]:
    """Every list the file holds, as the tests name them now: {name, file (under tests/data) or text, options}."""
    files = [{"name": p.name, "file": f"decks/{p.name}", "options": {}} for p in sorted(DECKS.iterdir())
             if p.is_file() and p != CASES_FILE]
    formats = [{"name": name, "text": text, "options": {}} for name, text in
               (("a NetMECCG list", NETMECCG), ("a NetMECCG list's marks", NETMECCG_MARKS),
                ("GCCG's headings", GCCG_HEADINGS))]
    rules = [{"name": what, "text": text, "options": options} for what, text, options, *_ in CASES + VERDICTS]
    rules += [{"name": "no CoE deck" + (f", as {o['alignment']}" if o else ""), "text": NOT_A_DECK, "options": o}
              for o in ({}, {"alignment": "hero"})]
    manifest = tomllib.loads((AUDIT / "audit.toml").read_text("utf-8"))["list"]
    audit = [{"name": entry["file"], "file": f"decks/audit/{entry['file']}", "options": {"game": entry["games"][0]}}
             for entry in manifest]
    return files + formats + rules + audit


def answer(kb: Path, case: dict[str, Any]) -> dict[str, Any]:
    """A case as `rulings deck` answers it: a file read as the terminal reads it, a text as given."""
    if "file" in case:
        report = check_deck(kb, str(DATA / case["file"]), **case["options"])
    else:
        report = deck_report(kb, case["text"], **case["options"])
    out: dict[str, Any] = json.loads(json.dumps({name: getattr(report, name) for name in FIELDS}))
    return out


def read_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(CASES_FILE.read_text("utf-8"))
    return cases


def write_cases(cases: list[dict[str, Any]]) -> None:
    """The cases as the file keeps them: one case a block, the list first, then each field on its line (a finding
    a line)."""
    def line(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    blocks = []
    for c in cases:
        given = "file" if "file" in c else "text"
        findings = ",\n".join(f"  {line(f)}" for f in c["findings"])
        blocks.append("{"
                      + f'"name": {line(c["name"])}, "{given}": {line(c[given])}, "options": {line(c["options"])},\n'
                      + f' "verdict": {line(c["verdict"])},\n "findings": [{chr(10) + findings if findings else ""}],\n'
                      + f' "readings": {line(c["readings"])},\n "alignment": {line(c["alignment"])}}}')
    CASES_FILE.write_text("[\n" + ",\n".join(blocks) + "\n]\n", "utf-8")


@pytest.fixture(scope="session")
def cases(real_kb: Path) -> list[dict[str, Any]]:
    if parity.UPDATE:
        write_cases([{**c, **answer(real_kb, c)} for c in lists()])
    return read_cases()


@pytest.fixture(scope="session")
def from_browser(real_site: Path, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every case as the site's deck page answers it: a file's bytes as the page reads a file chosen (its name
    the file's, its title the name's stem), a text as typed."""
    jobs = [{"file": str(DATA / c["file"]), "name": Path(c["file"]).name,
             "options": {"title": file_title(c["file"]), **c["options"]}} if "file" in c else
            {"text": c["text"], "options": c["options"]} for c in cases]
    answers: list[dict[str, Any]] = parity.run("deck", real_site, lists=jobs)
    return answers


ALL = read_cases()
IDS = [c["name"][:50] for c in ALL]


def test_the_file_holds_every_list_the_tests_name() -> None:
    """Every deck file, every rule case, every audited list (a list added to the tests and not to the file, or
    left in the file after the tests dropped it, fails here: RULINGS_UPDATE_CASES=1 writes them)."""
    given = [{k: c[k] for k in ("name", "file", "text", "options") if k in c} for c in ALL]
    assert given == lists()
    assert {c["verdict"]["legal"] for c in ALL} == {True, False, None}  # legal, not legal, and not judged or unsure
    assert len({c["alignment"]["player"] for c in ALL}) == 5  # every alignment, and none
    assert any(c["readings"] for c in ALL)  # a list checked as two alignments


@pytest.mark.parametrize("n", range(len(ALL)), ids=IDS)
def test_the_terminal_answers_each_list_as_the_file_says(real_kb: Path, cases: list[dict[str, Any]], n: int) -> None:
    assert answer(real_kb, cases[n]) == {name: cases[n][name] for name in FIELDS}


@pytest.mark.parametrize("n", range(len(ALL)), ids=IDS)
def test_the_deck_page_answers_each_list_as_the_file_says(from_browser: list[dict[str, Any]],
                                                          cases: list[dict[str, Any]],
                                                         n: int) -> None:
    assert {name: from_browser[n].get(name) for name in FIELDS} == {name: cases[n][name] for name in FIELDS}

"""The players'-words tables (kb/data/synonyms.toml, abbreviations.toml) against the real documents:
every bridge lands on words the rules write."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.read.lookup import search_spec
from kb.search.query import TOKEN, analyze_text, fold_key
from kb.search.searchspec import SearchSpec
from kb.tables import load_table

RULES_KINDS = frozenset({"CRF", "official rules", "rulebook", "timing guide"})
"""The kinds of source whose words a bridge must land on: the CRFs, the CoE rules, the rulebook and the
timing guide (whose rule 1 says which effect "beats" another); not a variant, the cards' texts nor
another game's wiki."""
TABLES = ("synonyms", "abbreviations")


def forms(target: str) -> list[str]:
    """The forms a table's entry leads to: its value's comma-separated parts ("eliminated, leaves
    play"); a comma is no word, so a search reads the value alike either way."""
    return [part.strip() for part in target.split(",") if part.strip()]


def index_terms(text: str, spec: SearchSpec) -> list[str]:
    """A stored ruling's text as the index holds it: each word's index terms, as the build's analyzer
    gave them (the vocabulary), in the text's order; a stop word gives none."""
    return [t for token in TOKEN.findall(text) for t in spec.terms_of(fold_key(token)) or []]


def holding(terms: list[str], texts: list[list[str]]) -> int:
    """How many texts hold these terms in a row."""
    n = len(terms)
    return sum(1 for text in texts if set(terms) <= set(text)
               and any(text[i:i + n] == terms for i in range(len(text) - n + 1)))


@pytest.fixture(scope="module")
def rules_texts(real_kb: Path) -> tuple[SearchSpec, list[list[str]]]:
    spec = search_spec(real_kb)
    kinds = [s["kind"] for s in spec.raw["sources"]]
    texts = [index_terms(spec.doc(d).text, spec) for d in range(spec.docs_count)
             if kinds[spec.doc(d).source] in RULES_KINDS]
    return spec, texts


def test_every_bridge_lands_on_the_rules_words(rules_texts: tuple[SearchSpec, list[list[str]]]) -> None:
    """Each form an entry leads to, analysed as a query's words are, gives index terms that some
    ruling of the CRFs, the CoE rules, the rulebook or the timing guide writes in a row: a bridge to a
    form the rules never use ("starting player", "SP") or to stop words alone ("may") finds nothing it
    was made for."""
    spec, texts = rules_texts
    failing = [f"{table}: {key!r} -> {form!r} {terms}"
               for table in TABLES for key, target in load_table(table).items() for form in forms(target)
               if not (terms := analyze_text(form, spec)) or not holding(terms, texts)]
    assert not failing, f"{len(failing)} bridges land on no ruling of the rules:\n" + "\n".join(failing)


def test_a_bridge_is_checked_form_by_form() -> None:
    """A value's forms are its comma-separated parts, and the commas change no index term a search reads."""
    assert forms("eliminated, leaves play") == ["eliminated", "leaves play"]
    assert holding(["leav", "play"], [["card", "leav", "play"], ["play", "leav"]]) == 1
    assert TOKEN.findall("eliminated, leaves play") == TOKEN.findall("eliminated leaves play")

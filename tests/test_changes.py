"""What changed: the word diff, and the changes the build finds on the excerpts of tests/data/changes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kb.changes import from_row, since_year, to_row
from kb.editions import Editions, find_changes, tag_year
from kb.errors import Refused
from kb.manifest import read_manifest
from kb.parsers import parse_document
from kb.searchdata import make_lexicon
from kb.wording import Piece, newer_text, shown, word_diff, words
from kb.xref import cross_reference

from .conftest import DATA


# -- the word diff ---------------------------------------------------------------------------------

def test_a_word_diff_says_what_was_removed_and_what_was_added() -> None:
    diff = word_diff("the on-guard cards are returned to their owner's hand. [effective 11/17/97]",
                     "the on-guard cards at that site return to their owner’s hand.")
    assert [(p.op, p.text) for p in diff] == [
        ("same", "the on-guard cards "), ("removed", "are returned "), ("added", "at that site return "),
        ("same", "to their owner’s hand."), ("removed", " [effective 11/17/97]")]  # a curly quote is no change
    assert shown(diff) == [("same", "the on-guard cards", " "), ("removed", "are returned", " "),
                           ("added", "at that site return", " "), ("same", "to their owner’s hand.", " "),
                           ("removed", "[effective 11/17/97]", "")]
    # a word added before a full stop, a word changed inside a phrase: the marks cover words only
    assert shown(word_diff("a Wizard or Ringwraith.", "a Wizard or Ringwraith character.")) == [
        ("same", "a Wizard or Ringwraith", " "), ("added", "character", ""), ("same", ".", "")]
    assert shown(word_diff("on p.61 of", "on page 61 of")) == [
        ("same", "on", " "), ("removed", "p.", " "), ("added", "page", " "), ("same", "61 of", "")]
    assert word_diff("same words", "same words") == (Piece("same", "same words"),)


@pytest.mark.parametrize("older, newer", [
    ("", "new text"), ("old text", ""), ("a  b\nc", "a b c d"), ("«quoted» (x)", "“quoted” (y)!"),
    ("x" * 50 + " -- __ under_score", "x" * 49 + " - _ under score"), ("Ünïcödé wörds", "Unicode words")])
def test_a_word_diff_gives_back_the_newer_wording_and_every_character(older: str, newer: str) -> None:
    assert "".join(words(older)) == older and "".join(words(newer)) == newer
    diff = word_diff(older, newer)
    assert newer_text(diff) == newer
    assert all(p.op in ("same", "removed", "added") and p.text for p in diff)
    assert all(a.op != b.op for a, b in zip(diff, diff[1:]))  # runs of one kind are joined


# -- the changes of the excerpts -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def excerpt_changes() -> tuple[dict[str, Any], list[Any]]:
    """The changes of tests/data/changes, found from the documents held in memory: by kind, ruling id."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        sources = Path(folder)
        shutil.copytree(DATA / "changes", sources, dirs_exist_ok=True)
        shutil.copy(DATA / "cards_excerpt.json", sources / "cards.json")
        docs = [parse_document(s, sources / s.path) for s in read_manifest(sources)]
    xref = cross_reference(docs, make_lexicon(docs))
    changes, problems = find_changes(Editions.held(docs, xref.links))
    texts = {r.id: r.text for d in docs for r in d.rulings}
    return {"changes": changes, "texts": texts}, problems


def _of(found: dict[str, Any], kind: str) -> list[Any]:
    return [c for c in found["changes"] if c.kind == kind]


def test_the_crfs_own_list_is_linked_to_the_rulings_it_names(excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, problems = excerpt_changes
    listed = _of(found, "listed")
    assert [found["texts"][c.ruling_id] for c in listed] == [
        "@ A company may not move twice in one turn.", "@ Change “Tap to cancel” to “Tap to cancel a strike”"]
    assert [found["texts"][c.other_id] for c in listed] == [
        "@ A company may not move twice in one turn. [CoE 2026]",
        "@ Change “Tap to cancel” to “Tap to cancel a strike” [CoE 2026]"]
    assert all(not c.guess and "the same words under the same heading" in c.evidence for c in listed)
    assert problems == []


def test_marked_rulings_and_card_errata(excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    marked = _of(found, "marked")
    assert [c.other_id for c in _of(found, "listed")] == [c.ruling_id for c in marked]  # the list names them
    assert all(c.year == 2026 and c.tag == "CoE 2026" and "listed under “Changes from CRF 1”" in c.evidence
               for c in marked)
    move, tap = marked
    assert not move.erratum_evidence  # a turn-sequence ruling, no card's
    # the "@" change quotes words of Adûnaphel's own text ("Tap to cancel."): the build reads it as an erratum, and says so
    assert tap.erratum_cards == ("Adûnaphel",) and tap.erratum_guess and "“Tap to cancel”" in tap.erratum_evidence
    stated = next(c for c in found["changes"] if c.erratum_evidence and not c.erratum_guess)
    assert (stated.kind, stated.year, stated.tag, stated.erratum_cards) == ("tagged", 2018, "CoE IE 2018", ("Adûnaphel",))
    assert stated.erratum_evidence == "the CRF calls it a Card Erratum"


def test_a_reworded_ruling_shows_its_older_wording_word_by_word(excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    [c] = _of(found, "reworded")
    assert found["texts"][c.other_id].startswith("Your staring hand")
    assert found["texts"][c.ruling_id].startswith("Your starting hand")
    assert [(p.op, p.text.strip()) for p in c.diff if p.op != "same"] == [
        ("removed", "staring"), ("added", "starting"), ("removed", "[effective 11/17/97]")]
    assert c.guess and c.likeness is not None and 0.75 <= c.likeness < 1 and c.year == 1997  # the older edition's year
    assert f"wordings alike ({c.likeness:.2f})" in c.evidence and "the pairing is the build's" in c.evidence


def test_tagged_rulings_newest_first_by_the_year_they_entered_the_crf(
        excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    tagged = _of(found, "tagged")
    assert [(c.year, c.tag) for c in tagged] == [
        (2023, "Ruled by CoE 2011, added by CoE 2023"), (2018, "CoE IE 2018"), (2002, "CoE 2002")]
    notes = [t for t in found["texts"].values() if "CoE (year)" in t]
    assert notes and not [c for c in found["changes"] if found["texts"][c.ruling_id] in notes]  # the legend is no change
    assert tag_year("ICE") is None and tag_year("Van 1999") == 1999


def test_an_older_ruling_absent_from_the_current_crf_is_moved_or_dropped(
        excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    dropped, moved = _of(found, "absent")
    assert found["texts"][dropped.ruling_id].startswith("You should either draw numbers")
    assert dropped.verdict == "dropped" and dropped.guess and dropped.likeness is not None and dropped.likeness < 0.75
    assert found["texts"][dropped.other_id] == "You roll dice for the whole game."  # the nearest, as evidence
    assert f"the nearest wording found is {dropped.likeness:.2f} alike" in dropped.evidence
    assert found["texts"][moved.ruling_id].startswith("Replacing one site with another at the end of the turn")
    assert (moved.verdict, moved.other_id.split(".")[0], moved.guess) == ("moved", "coe", True)
    assert "the build reads it as moved: a ruling of coe is worded" in moved.evidence
    # "Discard down to eight cards" is worded the same in both editions: no change
    assert not [c for c in found["changes"] if "Discard down" in found["texts"][c.ruling_id]]


def test_a_listed_change_naming_no_ruling_is_a_problem(tmp_path: Path) -> None:
    import shutil

    shutil.copytree(DATA / "changes", tmp_path, dirs_exist_ok=True)
    shutil.copy(DATA / "cards_excerpt.json", tmp_path / "cards.json")
    current = tmp_path / "crf-current.md"
    current.write_text(current.read_text("utf-8").replace("@ A company may not move twice in one turn.\n",
                                                          "@ Something no ruling says at all.\n", 1), "utf-8")
    docs = [parse_document(s, tmp_path / s.path) for s in read_manifest(tmp_path)]
    changes, problems = find_changes(Editions.held(docs, cross_reference(docs, make_lexicon(docs)).links))
    listed = [c for c in changes if c.kind == "listed"]
    assert listed[0].other_id == "" and listed[1].other_id
    assert [(p.source, p.line, p.severity) for p in problems] == [("crf-2", 17, "warning")]
    assert "names no ruling of the document" in problems[0].message


def test_a_change_is_stored_and_read_back_whole(excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    for n, c in enumerate(found["changes"]):
        row = to_row(c, n)
        decoded = {**row, "erratum_cards": json.loads(row["erratum_cards"]), "diff": json.loads(row["diff"])}
        assert from_row(decoded) == c


@pytest.mark.parametrize("text", ["abc", "15", "2015x", "20 15", "", "٢٠١٥", "\x1b[2J2015"])
def test_since_must_be_a_year(text: str) -> None:
    with pytest.raises(Refused, match="is not a year"):
        since_year(text)
    assert since_year(" 2015 ") == 2015

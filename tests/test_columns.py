"""Arda's two-column extraction read in its reading order (issue 40, part 3): kb/builder/parsers/columns.py
applies a repair file (cuts, debris, threads, passages vouched whole, gaps), kb/builder/parsers/arda.py joins
what goes on and marks what stays cut incomplete; on a hand-made excerpt and on the real text."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from kb.errors import ParseError
from kb.model import Source
from kb.builder.parsers.arda import (FOLLOWS_CUT, ORDER_FILE, Vocabulary, clean_heading, parse_arda, repair_doubles,
                                     split_heading)
from kb.builder.parsers.columns import NONE, ReadingOrder, load_order, read_order
from kb.builder.parsers.document import cut_reason

from .conftest import DATA, SOURCES
from .test_parsers import assert_all_lines_accounted

EXCERPT = DATA / "arda_columns_excerpt.txt"
ORDER = read_order(DATA / "arda_columns_order.toml", "tests/data/arda_columns_order.toml")
VOCAB = Vocabulary(["the player turn getting ready play victory conditions untap organization phase"])


def arda(path: str = "meccg/arda-columns-excerpt.txt") -> Source:
    return Source(id="arda", title="Arda excerpt", game="meccg", kind="variant", edition="1", date="",
                  origin="tests/data", path=path, parser="arda")


def read(order: ReadingOrder, file: Path = EXCERPT) -> dict[str, tuple[str, str]]:
    """{text: (its innermost heading, why it is incomplete or "")} of the excerpt parsed in `order`."""
    doc = parse_arda(arda(), file, VOCAB, order)
    assert_all_lines_accounted(doc)
    return {r.text: (r.section[-1], r.incomplete) for r in doc.rulings}


# Checked by hand against tests/data/arda_columns_excerpt.txt: each passage whole, under its heading, or
# marked incomplete where its rest is not in the text.
RESTORED = {
    "The game ends when: • If you are a Wizard player and move The One Ring to Mount Doom, you win.":
        ("1. The Victory Conditions", ""),
    "• Each player places a Location Token for each of his companies at their current locations.":
        ("3. Getting Ready To Play", ""),
    "• After receiving Play/MP hands and characters, minor items are drafted.": ("3. Getting Ready To Play", ""),
    "• Then, turn 4 roving characters face up from the Roving Character Deck. Until each player has taken a first "
    "resource turn, no roving character may be played.": ("3. Getting Ready To Play", ""),
    "The order of a player turn is as follows: • Untap Phase • Organization Phase • Long Event Phase • End of Turn "
    "Phase.": ("4. The Player Turn", ""),
    "Each of your characters may untap.": ("Untap Phase", ""),
    "The following actions may be taken: • Reorganize your characters at the same Haven into any number of "
    "companies.": ("Organization Phase", ""),
    "• If the company is moving, declare what site it is moving to and which regions it will be moving":
        ("Organization Phase", "it breaks off mid-sentence"),
    "A plus or a minus sign indicates a modification to any": ("Organization Phase", "it breaks off mid-sentence"),
    "If the modified result is greater than the value required on the towards your marshalling point total).":
        ("Organization Phase", f"{FOLLOWS_CUT}; words are missing after “required on the”"),
    "Certain characters receive modifications to corruption checks.": ("Organization Phase", ""),
    "There are six types of sites: • Havens [ Star ] • Dark-holds [ Black Tower ]": ("Organization Phase", ""),
    "Hazard play may not be passed clockwise.": ("Organization Phase", ""),
}


def test_the_repair_file_restores_the_reading_order_and_marks_what_stays_cut() -> None:
    assert read(ORDER) == RESTORED


def test_each_repair_of_the_reading_order_is_recorded_with_why() -> None:
    doc = parse_arda(arda(), EXCERPT, VOCAB, ORDER)
    repairs = {(r.line, r.kind): (r.before, r.after) for r in doc.repairs}
    assert repairs[3, "reading order"] == ("3 6 as extracted",
                                           "read 3 6 ('a Location Token for each' / 'of his companies')")
    assert repairs[5, "reading order"][0] == "5 8 10 11 as extracted"
    before, after = repairs[12, "cut"]
    assert "untap. ORGANIZATION PHASE" in before and "untap. | ORGANIZATION PHASE" in after
    assert repairs[14, "debris"] == ("companies. into a", "companies. (words of the other column)")
    assert repairs[1, "split word"] == ("Wi Wizard zard", "Wizard")


def test_without_its_repairs_every_passage_the_columns_cut_is_marked_incomplete() -> None:
    """The text read as it is written: what a cut leaves reads as cut (a lower-case start, no stop), and a
    passage in capitals right after a cut one may be its rest ("Ring to Mount Doom"): all marked."""
    found = read(NONE)
    assert found["The game ends when: • If you are a Wizard player and move The One"][1] == "it breaks off mid-sentence"
    assert found["Ring to Mount Doom, you win."][1] == FOLLOWS_CUT
    assert found["of his companies at their current locations."][1] == "it begins mid-sentence"
    assert found["There are six types of sites: • Havens [ Star ] • Dark-holds [ Black Tower ]"][1]  # not vouched now
    for text, (_, why) in found.items():
        if cut_reason(text):
            assert why, text
    assert sum(1 for _, why in found.values() if why) == 14


def test_a_note_and_a_list_item_after_a_cut_passage_are_not_taken_for_its_rest(tmp_path: Path) -> None:
    file = tmp_path / "arda.txt"
    file.write_text("•1• RULES The company may move to\n• Each player draws a card.\n"
                    "Clarification: A card is drawn.\nThe game goes on.\n", "utf-8")
    found = read(NONE, file)
    assert found["• Each player draws a card."][1] == ""
    assert found["Clarification: A card is drawn."][1] == ""
    assert found["The game goes on."][1] == ""


def test_a_thread_of_one_passage_reads_on_after_a_whole_sentence(tmp_path: Path) -> None:
    """A list whose items go on in the other column after a whole item: a thread reads the pieces in
    order, but only `one = true` makes them one passage (a judge's audit found the Creature Cards'
    conditions cut after the second of four)."""
    file = tmp_path / "arda.txt"
    text = ("•10• PLAYING CARDS An attack can occur only if: • The company is at a site.\n"
            "The other column's words.\n• A region symbol matches.\n")
    file.write_text(text, "utf-8")
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    for one, expected in ((False,
                           ["An attack can occur only if: • The company is at a site.", "• A region symbol matches."]),
                          (True,
                           ["An attack can occur only if: • The company is at a site. • A region symbol matches."])):
        order = ReadingOrder("meccg/arda-columns-excerpt.txt", sha, threads=((("1", "3"), "x", one),))
        assert [t for t in read(order, file) if "column" not in t] == expected, one


@pytest.mark.parametrize("entry, expected", [
    ({"cuts": ((12, "NO SUCH WORDS", "x"),)},
     "12: expected the words to cut before ('NO SUCH WORDS') once on the line"),
    ({"drops": ((14, "no such words", "words", "x"),)}, "14: expected the words 'no such words' once on the line"),
    ({"threads": ((("3", "99"), "x", False),)}, "3: expected a thread of known pieces, each moved once"),
    ({"threads": ((("3", "6"), "x", False), (("5", "6"), "x", False))},
     "5: expected a thread of known pieces, each moved once"),
    ({"threads": ((("12", "14"), "x", False),), "cuts": ((12, "ORGANIZATION", "x"),)},
     "12: expected a thread of known pieces"),
])
def test_a_repair_file_that_does_not_fit_its_text_stops_the_build_naming_the_line(
        entry: dict[str, tuple[object, ...]], expected: str) -> None:
    order = ReadingOrder(ORDER.path, ORDER.sha256, **entry)  # type: ignore[arg-type]
    with pytest.raises(ParseError) as failed:
        parse_arda(arda(), EXCERPT, VOCAB, order)
    assert expected in str(failed.value)


def test_a_mark_that_finds_no_passage_stops_the_build() -> None:
    from kb.builder.parsers.columns import Mark

    order = ReadingOrder(ORDER.path, ORDER.sha256, whole=(Mark(19, "No passage begins so", "x"),))
    with pytest.raises(ParseError, match="19: expected one passage for 'No passage begins so'"):
        parse_arda(arda(), EXCERPT, VOCAB, order)


def test_the_bundled_repairs_apply_to_their_own_text_alone(tmp_path: Path) -> None:
    """Made for the bundled text (its SHA-256): a changed text at the same path is read as written, its
    cut passages marked, and the build warns that the repairs must be made again; another document is
    read as written, without a word."""
    bundled = load_order(ORDER_FILE)
    real = SOURCES / bundled.path
    assert bundled.fits(real.read_bytes())
    assert bundled.sha256 == hashlib.sha256(real.read_bytes()).hexdigest()
    changed = tmp_path / "arda-revised-2013.txt"
    changed.write_bytes(real.read_bytes() + b"One more line.\n")
    doc = parse_arda(arda(bundled.path), changed)
    assert [p.severity for p in doc.problems] == ["warning"] and "make the repairs again" in doc.problems[0].message
    assert not [r for r in doc.repairs if r.kind == "reading order"]
    assert sum(1 for r in doc.rulings if r.incomplete) > 50
    other = tmp_path / "other.txt"
    shutil.copy(EXCERPT, other)
    assert parse_arda(arda("meccg/other.txt"), other, VOCAB).problems == []


@pytest.mark.parametrize("damaged, repaired", [
    ("If you are a Wi Wizard zard player", "If you are a Wizard player"),
    ("make a corruption co rruption check", "make a corruption check"),
    ("his modified mo died prowess:", "his modified prowess:"),  # the parts without the lost "fi"
    ("if he is handed out to you, y ou, ask", "if he is handed out to you, ask"),
    ("already in i n play", "already in play"),
    ("•Turn •T urn 4 minor items", "•Turn 4 minor items"),
    ("to draw a card in to play", "to draw a card in to play"),  # no word is "in" and "to" both
    ("that that is", "that that is"),
])
def test_a_word_written_whole_and_in_two_parts_is_read_once(damaged: str, repaired: str) -> None:
    text, changes = repair_doubles(damaged, VOCAB)
    assert text == repaired
    assert [kind for kind, _, _ in changes] == (["split word"] if damaged != repaired else [])


def test_a_heading_does_not_take_the_article_of_the_sentence_after_it() -> None:
    assert split_heading("COMPANY VS COMPANY COMBAT A Wizard Company may attack") == \
        ("COMPANY VS COMPANY COMBAT", "A Wizard Company may attack")
    assert split_heading("INFLUENCING (CONTROLLING) A CHARACTER You have a pool")[0] == \
        "INFLUENCING (CONTROLLING) A CHARACTER"
    assert clean_heading("INFLUENCING AN OPPONENT’S ALLY", VOCAB) == "Influencing An Opponent’s Ally"


@pytest.mark.parametrize("text, reason", [
    ("of his companies at their current locations.", "it begins mid-sentence"),
    ("(20 mind and 5 characters maximum).", "it begins mid-sentence"),
    ("• Each player places a Location Token for each", "it breaks off mid-sentence"),
    ("goes first, second, etc.:", "it begins and breaks off mid-sentence"),
    ("A toss is made to select the starting player.", ""),
    ("Nb. Hazards may not be traded!", ""),
])
def test_a_passage_reads_as_cut_by_its_first_letter_and_its_end(text: str, reason: str) -> None:
    assert cut_reason(text) == reason

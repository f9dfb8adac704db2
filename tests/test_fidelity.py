"""Text as its source means it (issue 30): the source's markup read, not printed; Arda's extraction
damage repaired and recorded; cut paragraphs joined; markers, icons and the sources' own slips
shown where the reader is; a name that begins other names says so; one answer for a card."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli
from kb.builder.cardface import CODE
from kb.builder.check import check
from kb.builder.parsers.arda import Vocabulary, parse_arda
from kb.builder.parsers.crf import crf_kind
from kb.read.render import plain, render_text
from kb.store.store import CURRENT, DB_NAME

from .conftest import SOURCES, source_for
from .test_parsers import assert_all_lines_accounted

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run(kb: Path, *args: str, **kw: Any):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["--kb", str(kb), *args], **kw)


def flat(text: str) -> str:
    return " ".join(text.split())


# -- 1. Markdown emphasis read, not printed ------------------------------------------------------------

@pytest.mark.parametrize("stored, words", [
    ("**[FALLEN-WIZARD]** For a Fallen-wizard player", "[FALLEN-WIZARD] For a Fallen-wizard player"),
    ("*Card Erratum:*Remove «immediately» from the text.", "Card Erratum: Remove «immediately» from the text."),
    ("*Card Erratum: *Change text to:***«Playable on a company facing a Nazgûl attack***. The prowess.*Corruption.* "
     "One",
     "Card Erratum: Change text to: «Playable on a company facing a Nazgûl attack. The prowess. Corruption. One"),
    ("hazards like *Many Sorrows Befall* or *Blind to the West,*which target",
     "hazards like Many Sorrows Befall or Blind to the West, which target"),
    ("modified by +1.\n\nCorruption*. The next", "modified by +1.\n\nCorruption. The next"),
    # an asterisk that stands for itself is kept
    ("an attack with no * by the MPs", "an attack with no * by the MPs"),
    ("a creature with a “*” next to its marshalling points", "a creature with a “*” next to its marshalling points"),
    ("Items (minor, major, greater*)*Scroll of Isildur only.",
     "Items (minor, major, greater*)*Scroll of Isildur only."),
    ("All hazard events that require an agent*", "All hazard events that require an agent*"),
    # the CRF's mark of a new ruling is the marker "new", not text
    ("@ Change “on a given turn” to “during this organization phase”",
     "Change “on a given turn” to “during this organization phase”"),
    ("@", "@"),
])
def test_markdown_is_read_into_its_words(stored: str, words: str) -> None:
    from kb.store.reading import reading

    assert reading(stored, "crf").text == words
    assert plain(stored, "crf") == " ".join(words.split())


def test_emphasis_is_kept_as_runs_and_rendered_once_for_the_site() -> None:
    from kb.store.reading import reading

    r = reading("a **bold** and *italic* word, *Card Erratum:*Remove", "crf")
    assert r.runs == (("a ", False, False), ("bold", True, False), (" and ", False, False), ("italic", False, True),
                      (" word, ", False, False), ("Card Erratum:", False, True), (" Remove", False, False))
    assert [(r.text[a:b], strong, em) for a, b, strong, em in r.emphasis()] == [
        ("bold", True, False), ("italic", False, True), ("Card Erratum:", False, True)]
    html = render_text("*Card Erratum:*Remove **it**", "crf")
    assert html == "<em>Card Erratum:</em> Remove <strong>it</strong>"
    assert reading("a **b** c", "arda").text == "a **b** c"  # a plain-text source has no Markdown
    assert reading("Border-holds [{B}] or {w}{b}",
                   "cards").text == "Border-holds [Border-hold] or Wilderness, Border-land"


def test_the_terminal_and_json_read_the_markup(real_kb: Path) -> None:
    from kb.store.reading import markdown_reading

    shown = run(real_kb, "show", "crf-22.b16954d650", "--no-pager").output  # Morgul-knife's erratum
    assert "*" not in shown and "Card Erratum: Change text to: «Playable on a company facing a Nazgûl attack." in flat(
        shown)
    data = json.loads(run(real_kb, "show", "crf-22.b16954d650", "--json").output)
    assert "*" not in data["text"] and data["markdown"].startswith("*Card Erratum: *Change text to:***")
    assert markdown_reading(data["markdown"]).text == data["text"]
    coloured = run(real_kb, "show", "crf-22.b16954d650", "--no-pager", color=True,
                   env={"NO_COLOR": None, "TERM": "xterm"}).output
    assert "\x1b[3m" in coloured and "*" not in ANSI.sub("", coloured)  # italics where colour shows
    found = run(real_kb, "search", "FW MP value of non-stage cards", "--no-pager").output
    assert "[FALLEN-WIZARD] For a Fallen-wizard player" in flat(found) and "**" not in found
    results = json.loads(run(real_kb, "search", "FW MP value of non-stage cards", "--json").output)
    assert not [r["id"] for r in results if "**" in r["text"]]
    assert any(r["markdown"] and "**[FALLEN-WIZARD]**" in r["markdown"] for r in results)


def test_every_ruling_reads_without_markup_and_keeps_every_word(real_export: list[str]) -> None:
    """Every ruling of the export: its words are the stored text's (the markup alone gone), no
    Markdown marker of two or more asterisks is left, and no icon code."""
    rows = [json.loads(line) for line in real_export]
    for r in rows:
        assert "**" not in r["text"] and not CODE.search(r["text"]), r["id"]
        if r["markdown"] is not None:
            assert re.sub(r"[\W_]", "", r["markdown"].replace("@", "")) == re.sub(r"[\W_]", "", r["text"]), r["id"]
    assert sum(1 for r in rows if r["markdown"] is not None and r["markdown"] != r["text"]) > 150


def test_the_site_search_shows_the_same_reading(real_kb: Path) -> None:
    """The browser is sent edits (kb.site.browserdata.edits) that turn every stored text into its reading."""
    from kb.site.browserdata import edits
    from kb.store.reading import reading

    def applied(text: str, changes: list[list[Any]]) -> str:  # as search.js does, on UTF-16 code units
        units, out, at = text.encode("utf-16-le"), b"", 0
        for where, cut, put in changes:
            out += units[2 * at:2 * where] + put.encode("utf-16-le")
            at = where + cut
        return (out + units[2 * at:]).decode("utf-16-le")

    conn = sqlite3.connect(real_kb / CURRENT / DB_NAME)
    rows = conn.execute("select r.text, s.parser from rulings r join sources s on s.id = r.source").fetchall()
    changed = 0
    for text, parser in rows:
        shown = reading(text, parser).text
        assert applied(text, edits(text, shown)) == shown
        changed += shown != text
    assert changed > 300
    for stored in ("a 😀 **b** 😀 *c*", "😀@ x", "**[HERO]** 😀😀 *y*"):
        assert applied(stored, edits(stored, reading(stored, "crf").text)) == reading(stored, "crf").text


# -- 2. Arda's doubled words and split possessives ---------------------------------------------------------

VOCAB = Vocabulary(["corrupted leaving power the character card if that had now wait player when company "
                    "hazard limit Wizard advice and under"])


@pytest.mark.parametrize("damaged, repaired", [
    ("becoming corrupted corrupted and leaving leaving the cause", "becoming corrupted and leaving the cause"),
    ("corrupted by power, power, Radagast", "corrupted by power, Radagast"),
    ("by the the lure", "by the lure"),
    ("under the character’s character ’s card", "under the character’s card"),
    ("the character ’s card", "the character’s card"),
    ("the character’s ’s card", "the character’s card"),
    ("his company’ company’s hazard limit", "his company’s hazard limit"),
    ("the defending player player.. When", "the defending player. When"),
    ("Furthermore, ifif Fallen", "Furthermore, if Fallen"),
    # what English writes twice is kept
    ("he said that that was fine", "he said that that was fine"),
    ("she had had enough", "she had had enough"),
    ("now, now wait", "now, now wait"),
])
def test_doubled_words_and_split_possessives_are_repaired_only_where_the_extraction_made_them(
        damaged: str, repaired: str) -> None:
    from kb.builder.parsers.arda import repair_doubles

    text, changes = repair_doubles(damaged, VOCAB)
    assert text == repaired
    assert bool(changes) == (damaged != repaired)
    assert {kind for kind, _, _ in changes} <= {"doubled word", "split possessive"}


def test_arda_repairs_are_recorded_and_shown_by_check(real_kb: Path) -> None:
    saruman = json.loads(run(real_kb, "card", "Saruman", "--json").output)
    arda = " ".join(r["text"] for g in saruman["mentioned_in"] if g["source"] == "arda" for r in g["rulings"])
    assert "corrupted by power, Radagast was corrupted by the lure of nature" in arda
    assert "under the character’s card until" in arda
    assert not re.search(r"\b(\w+) \1\b| ’s\b", arda.replace("that that", ""))
    report = check(real_kb)
    repairs = {(r.kind, r.before, r.after) for r in report.repairs if r.source == "arda"}
    assert ("doubled word", "corrupted corrupted", "corrupted") in repairs
    assert ("split possessive", "character ’s", "character’s") in repairs
    printed = run(real_kb, "check").output
    assert "arda doubled word: 'corrupted corrupted' -> 'corrupted'" in printed


# -- 3. Paragraphs the PDF cut, joined; what is left unended, with its reason -------------------------------

ARDA_CUT = """\
•9• INFLUENCE The hazard limit can be modified by the play
of certain cards. Tapping a Nazgûl permanent-event does count against the hazard limit.
• The result is also modified by subtracting the “unused direct influence” of the item’s
controlling character. In all of the above cases the player keeps the card.
A company has a number of characters that move and act together as
One company can split into two or more companies only at a Haven.
"""


def test_a_paragraph_the_pdf_cut_is_joined_and_its_lines_are_kept(tmp_path: Path) -> None:
    from kb.builder.parsers.document import ends_sentence

    path = tmp_path / "arda.txt"
    path.write_text(ARDA_CUT, "utf-8")
    doc = parse_arda(source_for("arda", path), path, Vocabulary(["influence modified hazard limit"]))
    assert_all_lines_accounted(doc)
    texts = {r.text: r.span for r in doc.rulings}
    assert texts["The hazard limit can be modified by the play of certain cards. Tapping a Nazgûl permanent-event "
                 "does count against the hazard limit."].start == 1
    item = next(r for r in doc.rulings if "of the item’s" in r.text)
    assert item.text.endswith(
        "of the item’s controlling character. In all of the above cases the player keeps the card.")
    assert (item.span.start, item.span.end) == (3, 4) and item.raw.count("\n") == 1
    # a line that opens in capitals begins a passage of its own: the one before stays as it is cut
    assert "A company has a number of characters that move and act together as" in texts
    assert not ends_sentence("A company has a number of characters that move and act together as")


def test_check_counts_the_unended_rulings_by_source_each_with_a_reason(real_kb: Path) -> None:
    report = check(real_kb)
    unended = report.unended
    assert sum(unended.by_source.values()) == len(unended.rulings) > 0
    assert all(r.reason for r in unended.rulings)
    conn = sqlite3.connect(real_kb / CURRENT / DB_NAME)
    arda = conn.execute("select count(*) from rulings where source = 'arda'").fetchone()[0]
    assert unended.by_source["arda"] * 3 < arda
    # none is left that the next line goes on with (it opens in lower case and was not skipped)
    source = conn.execute("select path from sources where id = 'arda'").fetchone()[0]
    text = (SOURCES / source).read_text("utf-8").split("\n")
    skipped = {n for a, b in conn.execute("select line_start, line_end from skipped where source = 'arda'")
               for n in range(a, b + 1)}
    cut = [r.id for r in unended.rulings if r.source == "arda"
           and r.line < len(text) and text[r.line][:1].islower() and r.line + 1 not in skipped]
    assert cut == []
    printed = run(real_kb, "check").output
    assert "rulings ending without a sentence's stop:" in printed
    assert "rulings marked incomplete in the source's text (every reader shows them so):" in printed


def test_the_cut_ruling_of_the_issue_now_reads_whole(real_kb: Path) -> None:
    found = json.loads(run(real_kb, "search", "subtracting unused direct influence of the item's controlling character",
                           "--source", "arda", "--json").output)
    assert any("of the item’s controlling character." in r["text"] for r in found)


# -- 4. The CRF's @ is a marker; a line that changes a card's words is an erratum --------------------------

def test_a_changed_text_line_is_an_erratum() -> None:
    assert crf_kind("@ Change “on a given turn” to “during this organization phase”") == ("erratum", None)
    assert crf_kind("@ Replace “each of your site phases” with “during any of your site phases”") == ("erratum", None)
    assert crf_kind("Change this:") == ("ruling", None)
    assert crf_kind("You may change “x” to y later") == ("ruling", None)


def test_the_new_mark_shows_as_the_marker(real_kb: Path) -> None:
    org = run(real_kb, "phase", "org", "--no-pager").output
    assert re.search(r"\[erratum · new or changed\] Card Errata and Rulings > An Unexpected Party crf-22\.\w+ · line "
                     r"73 Change “on a given turn” to “during this organization phase” \[", flat(org))
    assert "@" not in org


# -- 5. Icon codes as words wherever text is shown ----------------------------------------------------------

def test_card_text_shown_as_a_ruling_has_its_icons_as_words(real_kb: Path) -> None:
    travelers = run(real_kb, "show", "cards.AS-9", "--no-pager").output
    assert "Border-holds [Border-hold]" in travelers and "{" not in travelers
    data = json.loads(run(real_kb, "card", "The Sulfur-deeps", "--json").output)
    mentions = [r for g in data["mentioned_in"] for r in g["rulings"]]
    for r in data["errata"] + data["rulings"] + mentions:
        assert not CODE.search(r["text"]), r["id"]
    dragons = json.loads(run(real_kb, "search", "Ruins & Lairs Wildernesses Doors of Night dragon", "--json").output)
    assert not [r["id"] for r in dragons if CODE.search(r["text"])]


# -- 6. The sources' own slips where the reader is ---------------------------------------------------------

def test_a_rule_numbered_under_the_wrong_parent_says_so_where_it_is_listed(real_kb: Path) -> None:
    printed = run(real_kb, "rule", "2.IV.3", "--no-pager").output
    assert "note on the source: rule 2.IV.3.5.1 is numbered under the wrong parent" in flat(printed)
    data = json.loads(run(real_kb, "rule", "2.IV.3", "--json").output)
    (part,) = data["parts"]
    assert part["number"] == "2.IV.3.5.1" and "numbered under the wrong parent" in part["notes"][0]
    assert "notes" not in data["rulings"][0]
    shown = json.loads(run(real_kb, "show", part["id"], "--json").output)
    assert shown["notes"] == part["notes"]


# -- 7. A name that begins other names ----------------------------------------------------------------------

def test_an_exact_name_comes_first_and_the_cards_it_begins_after_it(real_kb: Path) -> None:
    data = json.loads(run(real_kb, "card", "adunaphel", "--json").output)
    assert data["names"] == ["Adûnaphel"] and [c["name"] for c in data["cards"]] == ["Adûnaphel"]
    assert [c["name"] for c in data["also"]] == ["Adûnaphel the Ringwraith", "Adûnaphel Unleashed"]
    printed = flat(run(real_kb, "card", "adunaphel", "--no-pager").output)
    assert printed.startswith("Adûnaphel The Wizards") and "also: Adûnaphel the Ringwraith (The Lidless Eye" in printed
    assert json.loads(run(real_kb, "card", "Adûnaphel the Ringwraith", "--json").output)["also"] == []
    assert json.loads(run(real_kb, "card", "morgul knive", "--json").output)["also"] == []  # read as, not exact


# -- 12. One answer for a card: the card's own text is its face, not a mention ------------------------------

def test_a_card_is_not_listed_as_mentioning_itself(real_kb: Path) -> None:
    data = json.loads(run(real_kb, "card", "Gandalf", "--json").output)
    own = {c["ruling_id"] for c in data["cards"]}
    mentions = {r["id"] for g in data["mentioned_in"] for r in g["rulings"]}
    assert own and not own & mentions
    assert any(i.startswith("cards.") for i in mentions)  # other cards that name him are listed


# -- issue 40.4: HTML entities read in every source, and none left ------------------------------------------

GLOSSARY_WITH_ENTITIES = """\
**1.1** The length of the game is determined by agreement.

## Glossary

lair - A site with a Dragon automatic-attack. Each unique Dragon has an associated lair:

- &Euml;arcaraxë: Isle of the Ulond

- Smaug: The Lonely Mountain &amp; &#8220;more&#x201D;, &foo; kept
"""


def test_html_entities_are_read_wherever_a_source_writes_them_and_recorded(tmp_path: Path) -> None:
    from kb.builder.normalize import decode_entities, entities

    from .conftest import parse_file

    assert decode_entities("&Euml;arcaraxë &lt;foo&gt;") == ("Ëarcaraxë <foo>", [("&Euml;", "Ë"), ("&lt;", "<"),
                                                                                   ("&gt;", ">")])
    assert entities("R&D; &foo; AT&T &#8217;") == ["&#8217;"]  # a name HTML does not know is text
    path = tmp_path / "coe.md"
    path.write_text(GLOSSARY_WITH_ENTITIES, "utf-8")
    doc = parse_file("coe_rules", path)  # (a list item joined to the entry before it, as the real lair)
    lair = next(r for r in doc.rulings if r.title == "lair")
    assert "Ëarcaraxë: Isle of the Ulond" in lair.text and "Mountain & “more”, &foo; kept" in lair.text
    assert "&Euml;" in lair.raw  # the source's lines, exactly
    assert {(r.line, r.kind, r.before, r.after) for r in doc.repairs} >= {(7, "HTML entity", "&Euml;", "Ë"),
                                                                          (9, "HTML entity", "&#x201D;", "”")}


def test_no_stored_text_holds_an_entity_and_the_lair_names_its_dragon(real_kb: Path) -> None:
    report = check(real_kb)
    assert not [p for p in report.problems if "HTML entity" in p.message]
    assert {("coe-rules", "&Euml;", "Ë"), ("crf-22", "&lt;", "<")} <= {
        (r.source, r.before, r.after) for r in report.repairs if r.kind == "HTML entity"}
    conn = sqlite3.connect(real_kb / CURRENT / DB_NAME)
    texts = [t for (t,) in conn.execute("select text from rulings union all select titles from sections "
                                        "union all select name || names || text from cards")]
    assert not [t for t in texts if re.search(r"&(?:#\d+|#x[0-9a-f]+|[a-z]+\d*);", t, re.I)
                and "&foo;" not in t]
    dragons = json.loads(run(real_kb, "card", "Eärcaraxë", "--json").output)["mentioned_in"]
    lair = [r for g in dragons for r in g["rulings"] if r["kind"] == "glossary" and r["title"] == "lair"]
    assert lair and "Ëarcaraxë: Isle of the Ulond" in lair[0]["text"]


def test_check_fails_strict_on_an_entity_left_in_a_stored_text(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    import shutil

    kb = tmp_path / "kb"
    shutil.copytree(tiny[1], kb, symlinks=True)
    assert "left in the stored text" not in run(kb, "check").output
    conn = sqlite3.connect(kb / CURRENT / DB_NAME)
    rid = conn.execute("select id from rulings where source = 'crf-x' and kind = 'ruling' order by ord").fetchone()[0]
    conn.execute("update rulings set text = text || ' &Euml;arcaraxë' where id = ?", (rid,))
    conn.commit()
    conn.close()
    result = run(kb, "check", "--strict")
    assert result.exit_code == 1 and f"HTML entity &Euml; left in the stored text of ruling {rid}" in result.output

"""What changed: the word diff, the changes the build finds (on the excerpts of tests/data/changes and
on the real CRF 22 and its ICE-era edition), `rulings changes`, and the site's "What's new"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli
from kb.builder.changes import from_row, since_year, to_row
from kb.builder.check import check
from kb.builder.editions import tag_year
from kb.errors import Refused
from kb.builder.pipeline import build
from kb.store.store import connect, query
from kb.builder.wording import Piece, shown, word_diff, words


def run(kb: Path, *args: str):
    return CliRunner().invoke(cli, ["--kb", str(kb), "changes", *args])


def flat(text: str) -> str:
    return " ".join(text.split())


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
    assert "".join(p.text for p in diff if p.op != "removed") == newer
    assert all(p.op in ("same", "removed", "added") and p.text for p in diff)
    assert all(a.op != b.op for a, b in zip(diff, diff[1:]))  # runs of one kind are joined


# -- the changes of the excerpts -----------------------------------------------------------------------

def stored_changes(kb: Path) -> tuple[dict[str, Any], list[Any]]:
    """The changes a build found, read from its database ({"changes": in the order shown, "texts": ruling
    id -> text}), and the warnings of its problems."""
    conn = connect(kb)
    changes = [from_row(row) for row in query(conn, "select * from changes order by ord")]
    texts = {row["id"]: row["text"] for row in query(conn, "select id, text from rulings")}
    conn.close()
    return {"changes": changes, "texts": texts}, [p for p in check(kb).problems if p.severity == "warning"]


@pytest.fixture(scope="module")
def excerpt_changes(changes_corpus: tuple[Path, Path, Path]) -> tuple[dict[str, Any], list[Any]]:
    """The changes the build found in tests/data/changes (changes_corpus), and its warnings."""
    return stored_changes(changes_corpus[1])


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
    # the "@" change quotes words of Adûnaphel's own text ("Tap to cancel."): the build reads it as an erratum, and says
    # so
    assert tap.erratum_cards == ("Adûnaphel",) and tap.erratum_guess and "“Tap to cancel”" in tap.erratum_evidence
    stated = next(c for c in found["changes"] if c.erratum_evidence and not c.erratum_guess)
    assert (stated.kind, stated.year, stated.tag, stated.erratum_cards) == ("tagged", 2018, "CoE IE 2018",
                                                                            ("Adûnaphel",))
    assert stated.erratum_evidence == "the CRF calls it a Card Erratum"


def test_a_reworded_ruling_shows_its_older_wording_word_by_word(
    excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    c, _ = _of(found, "reworded")
    assert found["texts"][c.other_id].startswith("Your staring hand")
    assert found["texts"][c.ruling_id].startswith("Your starting hand")
    assert [(p.op, p.text.strip()) for p in c.diff if p.op != "same"] == [
        ("removed", "staring"), ("added", "starting"), ("removed", "[effective 11/17/97]")]
    assert c.guess and c.likeness is not None and 0.75 <= c.likeness < 1 and c.year == 1997  # the older edition's year
    # the pairing is this tool's, and says so in words; how alike is data (likeness), not shown
    assert "paired by this tool, no person checked it: the same heading, much the same words" in c.evidence
    assert f"{c.likeness:.2f}" not in c.evidence
    assert (c.verdict, c.unsure) == ("", False)


def test_a_reworded_ruling_that_negates_its_older_wording_is_possibly_reversed(
        excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    _, c = _of(found, "reworded")
    assert found["texts"][c.other_id] == "Hazards may be played on a company that returns to its site of origin."
    assert found["texts"][c.ruling_id] == "Hazards may not be played on a company that returns to its site of origin."
    assert c.likeness is not None and c.likeness >= 0.75  # worded alike: the same heading, one word more
    assert (c.verdict, c.unsure, c.guess) == ("reversed", True, True)
    assert c.evidence.endswith("; but “not” before “be played on a company that returns to its site of origin” in "
                               "the current wording only: it may now say the opposite")


def test_tagged_rulings_newest_first_by_the_year_they_entered_the_crf(
        excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    found, _ = excerpt_changes
    tagged = _of(found, "tagged")
    assert [(c.year, c.tag) for c in tagged] == [
        (2023, "Ruled by CoE 2011, added by CoE 2023"), (2018, "CoE IE 2018"), (2002, "CoE 2002")]
    notes = [t for t in found["texts"].values() if "CoE (year)" in t]
    # the legend is no change
    assert notes and not [c for c in found["changes"] if found["texts"][c.ruling_id] in notes]
    assert tag_year("ICE") is None and tag_year("Van 1999") == 1999


def test_an_older_ruling_gone_from_the_current_crf_is_replaced_reversed_moved_or_dropped(
        excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    # this tool's reading of the words alone: "possibly" for every successor, with the words that decided it
    found, _ = excerpt_changes
    dice, limit, untap, moved = _of(found, "absent")
    assert found["texts"][dice.ruling_id].startswith("You should either draw numbers")
    assert found["texts"][dice.other_id] == "You roll dice for the whole game."  # the successor
    assert (dice.verdict, dice.unsure, dice.guess, dice.likeness) == ("replaced", True, True, 0.57)
    assert "under the same heading, shares its key words “roll dice for the whole game”" in dice.evidence
    assert found["texts"][limit.other_id].endswith("it always counts against the 10 character limit.")
    assert (limit.verdict, limit.unsure) == ("reversed", True)
    assert "but “not” before “count against the 10 character limit” in the older wording only" in limit.evidence
    # nothing states the untap ruling's matter: dropped, the nearest wording its evidence alone
    assert found["texts"][untap.ruling_id].startswith("Corruption checks triggered at the end of the untap phase")
    assert (untap.verdict, untap.unsure, untap.guess) == ("dropped", False, True) and untap.likeness is not None
    assert ("none of the current rules is worded like it: dropped, as this tool reads the words (no person checked "
            "it); the nearest wording found is given as evidence only") in untap.evidence
    assert untap.parties == (untap.ruling_id,)  # the nearest wording takes no part in it
    assert found["texts"][moved.ruling_id].startswith("Replacing one site with another at the end of the turn")
    assert (moved.verdict, moved.other_id.split(".")[0], moved.guess, moved.unsure) == ("moved", "coe", True, True)
    assert "this tool's reading of the words, unsure: moved: a ruling of coe is worded much like it" in moved.evidence
    # "Discard down to eight cards" is worded the same in both editions: no change
    assert not [c for c in found["changes"] if "Discard down" in found["texts"][c.ruling_id]]


def listing_otherwise(changes_corpus: tuple[Path, Path, Path], folder: Path, entry: str) -> Path:
    """The changes excerpts built with the first entry of the CRF's own list of changes worded as
    entry: the knowledge base's folder."""
    import shutil

    sources = folder / "rulings"
    shutil.copytree(changes_corpus[0], sources)
    current = sources / "crf-current.md"
    current.write_text(current.read_text("utf-8").replace("@ A company may not move twice in one turn.\n",
                                                          f"@ {entry}\n", 1), "utf-8")
    build(sources, folder / "kb")
    return folder / "kb"


def test_a_listed_change_naming_no_ruling_is_a_problem(changes_corpus: tuple[Path, Path, Path], tmp_path: Path) -> None:
    found, problems = stored_changes(listing_otherwise(changes_corpus, tmp_path, "Something no ruling says at all."))
    listed = [c for c in found["changes"] if c.kind == "listed"]
    assert listed[0].other_id == "" and listed[1].other_id
    assert [(p.source, p.line, p.severity) for p in problems] == [("crf-2", 17, "warning")]
    assert "names no ruling of the document" in problems[0].message


def test_a_change_is_stored_and_read_back_whole(excerpt_changes: tuple[dict[str, Any], list[Any]]) -> None:
    from kb.builder.changes import from_json

    found, _ = excerpt_changes
    for n, c in enumerate(found["changes"]):
        row = to_row(c, n)
        decoded = {**row, "erratum_cards": json.loads(row["erratum_cards"]), "diff": json.loads(row["diff"])}
        assert from_row(decoded) == c
        # and from the JSON `rulings changes --json` gives (what the terminal arranges), its other side by id
        assert from_json(c.ruling_id,
                         json.loads(json.dumps(c.to_json({"id": c.other_id} if c.other_id else None)))) == c


@pytest.mark.parametrize("text", ["abc", "15", "2015x", "20 15", "", "٢٠١٥", "\x1b[2J2015"])
def test_since_must_be_a_year(text: str) -> None:
    with pytest.raises(Refused, match="is not a year"):
        since_year(text)
    assert since_year(" 2015 ") == 2015


# -- `rulings changes` on the excerpts -----------------------------------------------------------------

def new_and_earlier(kb: Path, title: str) -> tuple[str, str]:
    """`rulings changes` of a knowledge base, its two parts' text (spaces made one): what is new (under
    its title, first) and the earlier changes folded (under their title, last; nothing else between)."""
    result = run(kb, "--no-pager")
    assert result.exit_code == 0, result.output
    titles = [line for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert titles == [title, "Earlier changes, folded (`rulings changes --all` prints them whole)"]
    new, earlier = flat(result.output).split("Earlier changes, folded", 1)
    return new, earlier


def test_the_command_opens_with_whats_new_each_ruling_once_and_folds_the_rest(
        changes_corpus: tuple[Path, Path, Path]) -> None:
    new, earlier = new_and_earlier(changes_corpus[1], "New in CRF 2 (2)")
    assert new.startswith("New in CRF 2 (2) CRF 2 (published 2026-01-21): what it marks “@” (new or changed since the "
                          "last CRF) and lists under “Changes from CRF 1”; 2 rulings, 1 of them a card erratum (as "
                          "this tool reads it), each shown once with all it is.")
    # each new ruling once, with all it is: its "@", its entry in the CRF's own list, its erratum
    assert new.count("crf-2.e49add5141") == 1 and new.count("crf-2.f7a08bbf11") == 1
    assert ("card erratum of Adûnaphel: it changes “Tap to cancel”, words of the card's own text (this tool's "
            "reading: the CRF does not call it one)") in new
    assert ("in the CRF's list: Changes from CRF 1 > Card Errata and Rulings > Adûnaphel crf-2.7e49b4df03 · line 23"
            in new)
    # the earlier changes a line each: how many, the years, the verdicts and how sure
    assert earlier.split(") ", 1)[1] == (
        "Card errata of earlier CRFs (1): by origin tag: 2018 (1); not marked “@”: by the CRF's own word, unchanged "
        "since the last CRF Other rulings added since ICE's last CRF (2): by origin tag: 2023 (1), 2002 (1) Rulings "
        "worded otherwise than in an older CRF (2): each beside its older wording, the words that differ marked; "
        "paired by this tool (the same heading, much the same words); 1 possibly says the opposite now (unsure) Older "
        "CRF rulings not in the current CRF in their words (4): 1 possibly replaced, unsure; 1 possibly reversed, "
        "unsure; 1 dropped, as this tool reads the words (no person checked it); 1 possibly moved, unsure")


def test_all_prints_every_change_whole_with_its_evidence(changes_corpus: tuple[Path, Path, Path]) -> None:
    kb = changes_corpus[1]
    result = run(kb, "--no-pager", "--all")
    assert result.exit_code == 0, result.output
    out = result.output
    titles = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert titles == ["New in CRF 2 (2)", "Card errata of earlier CRFs (1)",
                      "Other rulings added since ICE's last CRF (2)",
                      "Rulings worded otherwise than in an older CRF (2)",
                      "Older CRF rulings not in the current CRF in their words (4)"]
    assert flat(out).count("crf-2.e49add5141") == 1  # the "@" erratum once, under what is new
    assert "Your [-staring-] {+starting+} hand is eight cards" in flat(out)
    assert "card erratum of Adûnaphel: the CRF calls it a Card Erratum" in flat(out)
    assert "verdict: possibly moved, unsure why:" in flat(out)
    assert "Possibly moved (unsure) to: [rule 2.VI.1]" in flat(out)
    assert ("verdict: possibly replaced, unsure why: not in the current CRF in these words; this tool's reading of "
            "the words, unsure: a ruling new since the older edition") in flat(out)
    assert ("Possibly replaced (unsure) by: [ruling] Turn Sequence Rulings > Beginning of the Game "
            "crf-2.e41064073f · line 31 You roll dice for the whole game.") in flat(out)
    assert "Possibly reversed (unsure) by: [ruling]" in flat(out) and "verdict: possibly reversed, unsure" in flat(out)
    assert "verdict: dropped, as this tool reads the words (no person checked it)" in flat(out)
    assert "The nearest wording found: [ruling]" in flat(out)
    assert "\n 2018\n" in out and "\n 2023\n" in out and "\n 2002\n" in out
    # an option that chooses changes shows each of them whole
    older = flat(run(kb, "--no-pager", "--source", "crf-1").output)
    assert "Earlier changes" not in older and "Your [-staring-] {+starting+} hand" in older


def test_since_source_and_phase_narrow_the_changes(changes_corpus: tuple[Path, Path, Path],
                                                   validators: dict[str, Any]) -> None:
    kb = changes_corpus[1]
    every = json.loads(run(kb, "--json").output)
    for r in every:
        errors = [e.message for e in validators["ruling"].iter_errors(r)]
        assert not errors, (r["id"], errors)
    assert [r["change"]["kind"] for r in every].count("tagged") == 3  # one of them the card erratum
    recent = json.loads(run(kb, "--since", "2018", "--json").output)
    assert {r["change"]["year"] for r in recent} == {2026, 2023, 2018}
    assert {r["change"]["kind"] for r in recent} == {"listed", "marked", "tagged"}  # 1997's comparison is older
    older = json.loads(run(kb, "--source", "crf-1", "--json").output)
    assert {r["change"]["kind"] for r in older} == {"reworded", "absent"}
    assert json.loads(run(kb, "--source", "coe", "--json").output)[0]["change"]["verdict"] == "moved"
    end = json.loads(run(kb, "--phase", "eot", "--json").output)
    assert end and all(r["section"][-1] == "End-of-Turn Phase" for r in end)
    assert "No change matches." in run(kb, "--since", "2030").output


@pytest.mark.parametrize("args, message", [
    (["--since", "abc"], "Error: --since 'abc' is not a year. Give a year of four digits, e.g. "
                         "`rulings changes --since 2015`.\n"),
    (["--since", "15"], "Error: --since '15' is not a year. Give a year of four digits, e.g. "
                        "`rulings changes --since 2015`.\n"),
    (["--source", "nope"], "Error: no source 'nope'. Known sources: crf-2, crf-1, coe, cards (see `rulings stats`).\n"),
    (["--phase", "nope"], None),
])
def test_bad_input_is_one_line_and_exit_2(changes_corpus: tuple[Path, Path, Path], args: list[str],
                                         message: str | None) -> None:
    kb = changes_corpus[1]
    result = run(kb, *args)
    assert result.exit_code == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.output
    assert message is None or result.stderr == message
    as_json = run(kb, *args, "--json")
    assert as_json.exit_code == 2 and as_json.stdout == ""
    error = json.loads(as_json.stderr)
    assert error["error"] == result.stderr.removeprefix("Error: ").split(". ")[0] and error["hint"]


# -- the site ----------------------------------------------------------------------------------------

def test_whats_new_is_reached_from_home_and_links_each_change(changes_corpus: tuple[Path, Path, Path]) -> None:
    site = changes_corpus[2]
    assert '<a href="changes.html">What\'s new</a>' in (site / "index.html").read_text("utf-8")
    page = (site / "changes.html").read_text("utf-8")
    assert re.findall(r'<h2 id="([a-z-]+)"', page) == ["part-new", "earlier"]
    # the earlier changes folded, each part a <details> closed (it opens without a script)
    assert re.findall(r'<details class="part" id="(part-[a-z]+)">', page) == [
        "part-errata", "part-tagged", "part-reworded", "part-absent"]
    assert re.findall(r'<h3 class="year" id="([a-z]+-\d+)"', page) == ["errata-2018", "tagged-2023", "tagged-2002"]
    new = page.split('id="part-new"', 1)[1].split('id="earlier"', 1)[0]
    assert new.count('class="change"') == 2  # each "@" ruling once, its entry in the CRF's list beside it
    assert re.findall(r"In the CRF's list: <a href=\"[^\"]*#([^\"]+)\"", new) == ["crf-2.68eb287194",
                                                                                  "crf-2.7e49b4df03"]
    # each change links to its ruling's page (and the other side's): the permalinks of every ruling shown
    permalinks = re.findall(r'class="permalink" href="([^"]+)"', page)
    assert any(p.endswith("#crf-2.e49add5141") for p in permalinks)
    assert any(p.endswith("#coe.b9ff7cd74a") for p in permalinks)  # where the older ruling moved
    assert "Possibly moved (unsure) to:" in page and "The nearest wording found:" in page
    assert "Possibly replaced (unsure) by:" in page and "Verdict: possibly reversed, unsure" in page
    assert "Verdict: dropped, as this tool reads the words (no person checked it)" in page
    assert "(this tool&#39;s reading: the CRF does not call it one)" in page


def test_a_reworded_rulings_page_shows_its_older_wording_beside_it(changes_corpus: tuple[Path, Path, Path]) -> None:
    site = changes_corpus[2]
    pages = {p.relative_to(site).as_posix(): p.read_text("utf-8") for p in (site / "doc").glob("*.html")}
    home = next(path for path, text in pages.items() if 'id="crf-2.3c164db5e6"' in text)
    article = pages[home].split('id="crf-2.3c164db5e6"', 1)[1].split("</article>", 1)[0]
    assert 'class="older-wording"' in article and 'href="crf-1.html#crf-1.1771305cb7"' in article
    assert ('Your <del><span class="vh">[removed: </span>staring<span class="vh">]</span></del> '
            '<ins><span class="vh">[added: </span>starting<span class="vh">]</span></ins> hand') in article


def test_whats_new_and_a_reworded_ruling_read_on_a_phone_and_in_print(tab,  # type: ignore[no-untyped-def]
                                                                      changes_corpus: tuple[Path, Path, Path]) -> None:
    site = changes_corpus[2]
    page, errors = tab((site / "index.html").as_uri(), width=390, height=844)
    page.get_by_role("link", name="What's new").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("changes.html") and page.locator("h1").inner_text() == "What's new in CRF 2"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    older = page.locator("section.change .older-wording").first
    assert not older.is_visible()  # folded: the earlier changes' part is closed
    page.locator("#part-reworded > summary").click()
    older.scroll_into_view_if_needed()
    assert older.is_visible() and older.locator(".diff del").first.text_content() == "[removed: staring]"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the marks are the text's own decoration, so they print without colour; the block is not hidden in print
    page.emulate_media(media="print")
    style = older.evaluate("""e => [getComputedStyle(e).display,
        getComputedStyle(e.querySelector('.diff del')).textDecorationLine,
        getComputedStyle(e.querySelector('.diff ins')).textDecorationLine]""")
    assert style == ["block", "line-through", "underline"]
    page.emulate_media(media="screen")
    assert errors == []


# -- the real CRF 22 and its ICE-era edition ------------------------------------------------------------

def test_what_changed_in_the_real_crf_22(real_kb: Path, validators: dict[str, Any]) -> None:
    found = json.loads(run(real_kb, "--json").output)
    for r in found:
        errors = [e.message for e in validators["ruling"].iter_errors(r)]
        assert not errors, (r["id"], errors)
    kinds: dict[str, list[dict[str, Any]]] = {}
    for r in found:
        kinds.setdefault(r["change"]["kind"], []).append(r)
    # its own list ("Changes from CRF 21") names the three rulings marked "@", and those are all of them
    at = ["crf-22.4b7da52c33", "crf-22.140b483d08", "crf-22.d351fc7888"]
    assert [r["change"]["other"]["id"] for r in kinds["listed"]] == at == [r["id"] for r in kinds["marked"]]
    assert all(r["section"][0] == "Changes from CRF 21" and not r["change"]["guess"] for r in kinds["listed"])
    errata = {tuple(r["change"]["erratum"]["cards"]): r["change"]["erratum"] for r in kinds["marked"]
              if r["change"]["erratum"]}
    assert list(errata) == [("An Unexpected Party",), ("An Untimely Brood",)] and all(e["guess"]
                                                                                      for e in errata.values())
    # the turn sequence reworded since the ICE-era edition: "Your staring hand" -> "Your starting hand"
    hand = next(r for r in kinds["reworded"] if r["id"] == "crf-22.3c164db5e6")
    assert hand["change"]["other"]["id"] == "crf-older.efe4b4ca37" and hand["change"]["guess"]
    assert [(p["op"], p["text"].strip()) for p in hand["change"]["diff"] if p["op"] != "same"] == [
        ("removed", "staring"), ("added", "starting")]
    assert {r["change"]["other"]["source"] for r in kinds["reworded"]} == {"crf-older"}
    # ICE-era rulings with no counterpart, each as a person checked it (tests/test_successors.py holds every one)
    absent = {r["id"]: r["change"] for r in kinds["absent"]}
    moved = absent["crf-older.e3e374880a"]
    assert (moved["verdict"], moved["other"]["id"], moved["guess"]) == ("moved", "coe-rules.b9ff7cd74a", False)
    dice = absent["crf-older.566508ff6b"]
    assert dice["verdict"] == "replaced" and dice["other"]["text"] == "You roll dice for the whole game"
    assert {c["verdict"] for c in absent.values()} == {"moved", "replaced", "reversed"}
    assert not [r for r in found if r["change"]["unsure"]]  # nothing the words alone decided
    # every ruling tagged after ICE's last CRF, newest first, the legend of the tags not among them
    years = [r["change"]["year"] for r in kinds["tagged"]]
    assert years == sorted(years, key=lambda y: (y is None, -(y or 0))) and 2002 in years and 2025 in years
    assert not [r for r in found if r["section"][0] == "Introduction"]
    stated = [r for r in kinds["tagged"] if r["change"]["erratum"]]
    assert {"The One Ring"} <= {c for r in stated for c in r["change"]["erratum"]["cards"]}
    assert all(r["change"]["erratum"]["evidence"] == "the CRF calls it a Card Erratum" for r in stated)


def test_the_real_changes_of_each_kind_are_as_a_person_read_them(real_kb: Path) -> None:
    import tomllib

    checked = tomllib.loads((Path(__file__).parent / "data" / "changes" / "real_checked.toml").read_text("utf-8"))
    found = {r["id"]: r["change"] for r in json.loads(run(real_kb, "--json").output)}

    def other(ruling_id: str) -> str:
        return str(found[ruling_id]["other"]["id"]) if found[ruling_id]["other"] else ""

    reworded = {(other(i), i) for i, c in found.items() if c["kind"] == "reworded"}
    assert reworded == {(older, current) for older, current, _ in checked["reworded"]}  # every one, none more
    assert all((found[i]["verdict"], found[i]["unsure"]) == (None, False) for _, i in reworded)  # none reversed
    conn = connect(real_kb)
    for older, current, _ in checked["same"]:
        link = conn.execute("select target, how from links where ruling_id = ? and kind = 'edition'",
                            (older,)).fetchone()
        assert tuple(link) == (current, "same")
        assert current not in found
    for entry, names, _ in checked["listed"]:
        assert (found[entry]["kind"], other(entry), found[entry]["guess"]) == ("listed", names, False)
        assert found[names]["kind"] == "marked"
    for ruling_id, year, tag in checked["tagged"]:
        assert (found[ruling_id]["kind"], found[ruling_id]["year"] or "",
                found[ruling_id]["tag"]) == ("tagged", year, tag)


def test_the_real_changes_narrowed(real_kb: Path) -> None:
    since = json.loads(run(real_kb, "--since", "2025", "--json").output)
    assert since and all(r["change"]["year"] >= 2025 for r in since)
    assert {r["change"]["kind"] for r in since} == {"listed", "marked", "tagged"}
    older = json.loads(run(real_kb, "--source", "crf-older", "--json").output)
    assert {r["change"]["kind"] for r in older} == {"reworded", "absent"}
    end = json.loads(run(real_kb, "--phase", "end-of-game", "--json").output)
    assert "crf-22.4b7da52c33" in [r["id"] for r in end]
    text = flat(run(real_kb, "--source", "crf-older", "--no-pager").output)
    assert "Your [-staring-] {+starting+} hand is eight cards" in text


def test_the_real_site_says_whats_new(real_site: Path) -> None:
    assert '<a href="changes.html">What\'s new</a>' in (real_site / "index.html").read_text("utf-8")
    page = (real_site / "changes.html").read_text("utf-8")
    assert "<h1>What&#39;s new in CRF 22</h1>" in page
    for ruling_id in ("crf-22.140b483d08", "crf-22.3c164db5e6", "crf-older.e3e374880a", "coe-rules.b9ff7cd74a"):
        assert f'#{ruling_id}"' in page, ruling_id  # linked to its place
    # what CRF 22 marks "@" first, each ruling once: the erratum of An Unexpected Party not again among the errata
    new = page.split('id="part-new"', 1)[1].split('id="earlier"', 1)[0]
    assert new.count('class="change"') == 3
    for ruling_id in AT:
        assert page.count(f'class="permalink" href="doc/crf-22-card-errata-and-rulings.html#{ruling_id}"') + \
            page.count(f'class="permalink" href="doc/crf-22-turn-sequence-rulings.html#{ruling_id}"') == 1, ruling_id
    errata = page.split('<details class="part" id="part-errata">', 1)[1].split("</details>", 1)[0]
    assert "CoE 2026" not in errata and ">new<" not in errata  # no erratum of this edition among the earlier ones
    turn = (real_site / "doc" / "crf-22-turn-sequence-rulings.html").read_text("utf-8")
    article = turn.split('id="crf-22.3c164db5e6"', 1)[1].split("</article>", 1)[0]
    assert ('href="crf-older.html#crf-older.efe4b4ca37"' in article and ">staring<" in article
            and ">starting<" in article)


AT = ("crf-22.4b7da52c33", "crf-22.140b483d08", "crf-22.d351fc7888")
"""The rulings CRF 22 marks "@", which its "Changes from CRF 21" lists again (lines 67, 73 and 77)."""


def test_the_real_whats_new_is_what_crf_22_calls_new_each_ruling_once(real_kb: Path) -> None:
    every = json.loads(run(real_kb, "--json").output)
    new, earlier = new_and_earlier(real_kb, "New in CRF 22 (3)")
    assert new.startswith("New in CRF 22 (3) CRF 22 (published 2026-01-21): what it marks “@” (new or changed since "
                          "the last CRF) and lists under “Changes from CRF 21”; 3 rulings, 2 of them card errata (as "
                          "this tool reads them), each shown once with all it is.")
    # and their entries in the list
    for ruling_id in (*AT, "crf-22.937b8fdd74", "crf-22.973430d1cf", "crf-22.4e5923b0b6"):
        assert new.count(ruling_id) == 1, ruling_id
    assert "card erratum of An Unexpected Party" in new and "card erratum of An Untimely Brood" in new
    # the earlier card errata: those tagged, none marked "@" and none of 2026, counted by year
    errata = [r for r in every if r["change"]["kind"] == "tagged" and r["change"]["erratum"]]
    assert errata and not [r for r in errata if "new" in r["markers"] or r["change"]["year"] == 2026]
    years: dict[str, int] = {}
    for r in errata:
        years[str(r["change"]["year"] or "no year")] = years.get(str(r["change"]["year"] or "no year"), 0) + 1
    told = ", ".join(f"{y} ({n})" for y, n in years.items())
    assert f"Card errata of earlier CRFs ({len(errata)}): by origin tag: {told}; not marked “@”" in earlier
    assert "Older CRF rulings not in the current CRF in their words (5): 3 replaced, checked by hand; 1 reversed, " \
           "checked by hand; 1 moved, checked by hand" in earlier
    # --all: every change whole, each ruling shown once (its header line), every part after what is new
    whole = CliRunner().invoke(cli, ["--kb", str(real_kb), "changes", "--no-pager", "--all"],
                               env={"COLUMNS": ""}).output
    shown = re.findall(r"^  \[[^]]+\] .*  (\S+) · lines? ", whole, re.M)
    assert len(shown) == len(set(shown)) == len(every) - len(AT)  # a listed change is its "@" ruling's entry
    assert [line for line in whole.splitlines() if line and not line.startswith(" ")] == [
        "New in CRF 22 (3)", f"Card errata of earlier CRFs ({len(errata)})", "Other rulings added since ICE's last CRF "
        f"({sum(1 for r in every if r['change']['kind'] == 'tagged') - len(errata)})",
        "Rulings worded otherwise than in an older CRF (13)",
        "Older CRF rulings not in the current CRF in their words (5)"]


JARGON = re.compile(r"build's|the build reads|likeness|wordings alike|alike \(0\.|\b[01]\.\d\d alike|\([01]\.\d\d\)")
"""What a judge is not to read: the build's inner words, a similarity score ("wordings alike (0.99)")."""


def terminal_texts(kb: Path) -> dict[str, str]:
    """What the terminal prints of every change: `rulings changes`, with --all, and `rulings show` of
    every ruling that takes part in one (its "in CRF 22: ..." line)."""
    from kb.read.lookup import Reader
    from kb.terminal import ANSI, Page, render_ruling_answer

    texts = {"changes": run(kb, "--no-pager").output, "changes --all": run(kb, "--no-pager", "--all").output}
    reader = Reader(kb)
    for r in json.loads(run(kb, "--json").output):
        for ruling_id in (r["id"], (r["change"]["other"] or {}).get("id")):
            if ruling_id and f"show {ruling_id}" not in texts:
                page = Page(None)
                render_ruling_answer(page, reader.ruling(ruling_id))
                texts[f"show {ruling_id}"] = ANSI.sub("", page.text())
    return texts


def test_no_score_or_build_jargon_where_people_read(real_kb: Path, real_site: Path,
                                                   changes_corpus: tuple[Path, Path, Path], tmp_path: Path) -> None:
    # a CRF list entry worded a little otherwise than the ruling it names: which it names is this tool's reading
    guessed = listing_otherwise(changes_corpus, tmp_path, "A company may never move twice in one turn.")
    texts = {f"{name}: {k}": v for name, kb in (("real", real_kb), ("excerpts", changes_corpus[1]),
                                                 ("a list guessed", guessed))
             for k, v in terminal_texts(kb).items()}
    texts.update(
        {str(p): p.read_text("utf-8") for site in (real_site, changes_corpus[2]) for p in site.rglob("*.html")})
    assert len(texts) > 2000 and {k: JARGON.findall(v) for k, v in texts.items() if JARGON.search(v)} == {}
    # what they say instead, in words: whose reading it is, and that no person checked it
    assert "which ruling it names is this tool's reading (no person checked it)" in flat(
        texts["a list guessed: changes"])
    assert "in CRF 22: crf-22.3c164db5e6 (reworded)" in texts["real: show crf-older.efe4b4ca37"]


def test_a_rulings_links_are_one_answer_the_terminal_and_the_site_render(
        changes_corpus: tuple[Path, Path, Path]) -> None:
    """What a ruling links to is one typed answer (kb.read.lookup's Reader.ruling_links, given by
    Reader.ruling): `rulings show` prints its groups, in its order and under its labels, and the ruling's
    place on the site shows the same ones; the current edition is named from the sources (this corpus's
    current CRF is edition 2: "in CRF 2", where main printed "in CRF 22" and the site "CRF 22"), and an
    older ruling whose matter moved to the CoE rules is "in the current rules" on both (the site said CRF 22)."""
    import html as markup

    from kb.builder.urls import anchor
    from kb.read.lookup import Reader
    from kb.store.snapshot import Snapshot

    kb, site = changes_corpus[1], changes_corpus[2]
    with Snapshot.open(kb) as snapshot:
        reader = Reader(snapshot)
        answers = [reader.ruling(rid) for rid, links in reader.ruling_links().items() if links.groups]
    labels = [g.label for a in answers for g in a.links.groups]
    assert "in CRF 2" in labels and "in the current rules" in labels and "older editions" in labels
    assert not any("CRF 22" in label for label in labels)
    for answer in answers:
        shown = [g.label for g in answer.links.groups]
        out = CliRunner().invoke(cli, ["--kb", str(kb), "show", "--no-pager", answer.ruling.id]).output
        assert [line.split(": ")[0] for line in out.splitlines() if line.split(": ")[0] in shown] == shown, out
        page = (site / answer.ruling.page).read_text("utf-8")
        article = page[page.index(f'id="{anchor(answer.ruling.id)}"'):]
        article = article[:article.index("</article>")]
        assert [markup.unescape(dt) for dt in re.findall(r"<dt>(.*?)</dt>", article)] == shown

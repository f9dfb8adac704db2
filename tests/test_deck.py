"""The deck check: decklists read line by line (every format players paste), each card's errata,
rulings and mentions as `rulings card` gives them, bad input refused in one line, the printable
page written safely, and the site's deck page reading lists and names exactly as the terminal does."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from cli import cli
from kb import lookup
from kb.deck import EXIT_NOT_FOUND, MAX_NEAR, PAGE_MARK, deck_data, deck_report
from kb.decklist import read_lines
from kb.errors import Refused
from kb.store import CURRENT
from kb.website import unstamp

from .conftest import DATA, ROOT

DECKS = DATA / "decks"
HERO = DECKS / "hero.txt"
MINION = DECKS / "minion.txt"
DECK_JS = ROOT / "site" / "assets" / "deck.js"
SEARCH_JS = ROOT / "site" / "assets" / "search.js"


def run(kb: Path, *args: str, **kw: Any):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, ["--kb", str(kb), "deck", *args], **kw)


def entry(report: dict[str, Any], name: str) -> dict[str, Any]:
    """The report's entry for a card, wherever it stands (with rulings, or nothing to say)."""
    found = [e for e in report["cards"] + report["quiet"] if e["name"] == name]
    assert len(found) == 1, (name, [e["name"] for e in report["cards"] + report["quiet"]])
    return found[0]


# -- reading a list: every format, as data -------------------------------------------------------------

LINES = [  # (line, kind, name, count, set code)
    ("2 Gandalf", "card", "Gandalf", 2, ""),
    ("2x Gandalf", "card", "Gandalf", 2, ""),
    ("2 x Gandalf", "card", "Gandalf", 2, ""),
    ("Gandalf x2", "card", "Gandalf", 2, ""),
    ("Gandalf x 3", "card", "Gandalf", 3, ""),
    ("Gandalf (2)", "card", "Gandalf", 2, ""),
    ("Gandalf 2", "card", "Gandalf", 2, ""),
    ("Gandalf [TW]", "card", "Gandalf", 1, "TW"),
    ("2 Gandalf [tw]", "card", "Gandalf", 2, "TW"),
    ("- 1 Glorfindel II", "card", "Glorfindel II", 1, ""),
    ("* Aragorn II", "card", "Aragorn II", 1, ""),
    ("Lure of Nature // they never see it coming", "card", "Lure of Nature", 1, ""),
    ("\tBill   the Pony\u00a0", "card", "Bill the Pony", 1, ""),
    ("Roäc the Raven", "card", "Roäc the Raven", 1, ""),
    ("# a comment", "comment", "", 1, ""),
    ("// another", "comment", "", 1, ""),
    ("", "blank", "", 1, ""),
    ("   ", "blank", "", 1, ""),
    ("Characters:", "header", "", 1, ""),
    ("Hazards", "header", "", 1, ""),
    ("Resources (25)", "header", "", 1, ""),
    ("## Sites", "header", "", 1, ""),
    ("Main deck: 40", "header", "", 1, ""),
    ("Hazards - 20", "header", "", 1, ""),
    ("x" * 201, "long", "", 1, ""),
]


@pytest.mark.parametrize("text,kind,name,count,set_code", LINES, ids=[repr(c[0][:30]) for c in LINES])
def test_every_line_format(text: str, kind: str, name: str, count: int, set_code: str) -> None:
    (line,) = read_lines(text)
    assert (line.kind, line.name, line.count, line.set_code) == (kind, name, count, set_code)


def test_headers_give_sections_and_the_sideboard() -> None:
    lines = read_lines("Gandalf\nCharacters:\nGandalf\nhazard\nTwilight\nSide-board:\nStealth\nSites\n"
                       "SB: Morgul-knife\nMy favourites:\nGimli\n")
    got = [(line.section, line.sideboard) for line in lines if line.kind == "card"]
    assert got == [("", False), ("Characters", False), ("Hazards", False), ("Sideboard", True), ("Sites", True),
                   ("My favourites", False)]


def test_every_line_break_counts_once() -> None:
    assert [line.number for line in read_lines("a\r\nb\rc\nd\u2028e\n")] == [1, 2, 3, 4, 5]


# -- the real decklists -----------------------------------------------------------------------------------

@pytest.fixture(scope="session")  # once per run, whatever order the tests run in
def hero(real_kb: Path) -> dict[str, Any]:
    return deck_report(real_kb, HERO.read_text("utf-8"), "hero.txt")


@pytest.fixture(scope="session")  # once per run, whatever order the tests run in
def minion(real_kb: Path) -> dict[str, Any]:
    return deck_report(real_kb, MINION.read_text("utf-8"), "minion.txt", mentions=True)


def test_hero_deck_reads_typos_plurals_languages_and_counts(hero: dict[str, Any]) -> None:
    assert entry(hero, "Faramir")["read_as"] == ["'Faramr' read as Faramir"]
    assert entry(hero, "Lucky Search")["typed"] == ["Luck Search"]
    assert entry(hero, "Sacrifice of Form")["typed"] == ["Sacrafice of Form"]
    assert entry(hero, "Wizard’s Laughter")["typed"] == ["Wizards Laughter"]  # no apostrophe
    assert entry(hero, "Lórien")["typed"] == ["Lorien"]  # no accent
    assert entry(hero, "Orc-patrol")["count"] == 3  # "3 Orc-patrols": a plural
    herbs = entry(hero, "Healing Herbs")  # "2 Healing Herbs" and German "Heilkräuter"
    assert herbs["count"] == 3 and herbs["typed"] == ["Healing Herbs", "Heilkräuter"]
    assert entry(hero, "Gandalf")["set_codes"] == ["TW"]
    assert entry(hero, "Cave-drake")["count"] == 2  # "Cave-drake x 2"
    assert entry(hero, "Morgul-knife")["sections"] == [{"section": "Sideboard", "sideboard": True, "count": 1}]
    copies = sum(line.count for line in read_lines(HERO.read_text("utf-8")) if line.kind == "card")
    assert hero["copies"] == copies == sum(e["count"] for e in hero["cards"] + hero["quiet"]) + sum(
        m["count"] for m in hero["not_found"])
    (miss,) = hero["not_found"]
    assert miss["name"] == "Gandalf the Wizard" and "Gandalf" in miss["suggestions"]


def test_minion_deck_reads_other_languages_and_sections(minion: dict[str, Any]) -> None:
    twilight = entry(minion, "Twilight")  # "Crepúsculo" under Resources, "Twilight" under Hazards
    assert twilight["typed"] == ["Crepúsculo", "Twilight"] and [s["section"] for s in twilight["sections"]] == [
        "Resources", "Hazards"]
    assert entry(minion, "Khamûl the Easterling")["typed"] == ["Khamul the Easterling"]
    assert entry(minion, "Palantír of Orthanc")["errata"]
    call = entry(minion, "Sudden Call")  # also "Sudden Cal" in the side-board
    assert call["count"] == 2 and [s["sideboard"] for s in call["sections"]] == [False, True]
    assert [m["name"] for m in minion["not_found"]] == ["Nothing Such Card"]


@pytest.mark.parametrize("deck", ["hero", "minion"])
def test_each_card_says_what_rulings_card_says(real_kb: Path, deck: str, request: pytest.FixtureRequest) -> None:
    from kb.store import connect

    report = request.getfixturevalue(deck)
    assert report["cards"] and report["quiet"]
    conn = connect(real_kb)
    shaper = lookup.Shaper(conn)
    for e in report["cards"] + report["quiet"]:
        about = lookup.card_rulings(conn, shaper, e["names"])
        assert (e["errata"], e["rulings"], e["mentions"]) == (about.errata, about.rulings, len(about.mentions))
        assert (e in report["quiet"]) == (not about.errata and not about.rulings and not about.mentions)
    # and card_rulings is what `rulings card` shows (a few cards: each lookup reads the search data)
    for e in [e for e in report["cards"] if e["errata"]][:3] + report["quiet"][:1]:
        card = lookup.card(real_kb, e["names"][0])
        mentions = sum(len(g["rulings"]) for g in card["mentioned_in"])
        assert (e["errata"], e["rulings"], e["mentions"]) == (card["errata"], card["rulings"], mentions), e["name"]
        if "mentioned_in" in e:
            assert e["mentioned_in"] == card["mentioned_in"]
    order = [e["lines"][0] for e in report["cards"]]
    assert order == sorted(order)  # in the order of the list


def test_a_set_code_the_card_was_not_printed_in_is_noted(real_kb: Path) -> None:
    report = deck_report(real_kb, "Gandalf [TW]\nGandalf [le]\n2 Crepúsculo (XX)\n")
    assert report["warnings"] == ["line 2: Gandalf has no printing in LE (printed in TW, WH)",
                                  "line 3: Twilight has no printing in XX (printed in LE, TW)"]
    assert entry(report, "Gandalf")["set_codes"] == ["TW", "LE"]


def test_cli_report_and_exit_codes(real_kb: Path, tmp_path: Path) -> None:
    result = run(real_kb, str(HERO), "--no-pager")
    assert result.exit_code == EXIT_NOT_FOUND
    out = result.stdout
    assert out.index("Lucky Search ×1") < out.index("Nothing to say") < out.index("Not found (1)")
    assert "('Faramr' read as Faramir)" in out and "Errata (1)" in out
    assert "line 35: 'Gandalf the Wizard': did you mean Gandalf" in out
    assert result.stderr.strip() == ("Error: 1 name matches no card (line 35); fix the names listed (see the "
                                     "suggestions) and check again")
    good = tmp_path / "good.txt"
    good.write_text("Characters:\n2 Gandalf\nHazards:\nTwilight x2\n", "utf-8")
    assert run(real_kb, str(good)).exit_code == 0
    piped = run(real_kb, "-", input=good.read_bytes())
    assert piped.exit_code == 0 and "Deck check of standard input" in piped.stdout


def test_json_is_the_ruling_and_card_shape(real_kb: Path, validators: dict[str, Any]) -> None:
    ruling, card = validators["ruling"], validators["card"]
    result = run(real_kb, str(MINION), "--json", "--mentions")
    assert result.exit_code == EXIT_NOT_FOUND
    data = json.loads(result.stdout)
    assert data["crf"]["id"] == "crf-22" and data["date"] and data["written"] is None
    for e in data["cards"] + data["quiet"]:
        for c in e["cards"]:
            card.validate(c)
        for r in e["errata"] + e["rulings"] + [r for g in e["mentioned_in"] for r in g["rulings"]]:
            ruling.validate(r)
            assert list(r) == list(lookup.RULING_FIELDS)


# -- bad input: one line each -----------------------------------------------------------------------------

BAD = [  # (bytes, what the one line says)
    (b"", "an empty decklist"),
    (b"\n\n   \n", "an empty decklist"),
    (b"Characters:\n# nothing yet\n\nHazards\n", "no card in it (4 lines"),
    (b"qwzx vbnm\nplugh xyzzy\n12345\n", "no line names a card (3 card lines; line 1 reads 'qwzx vbnm')"),
    (b"2 Gandalf\x00\x01\x02\x03binary", "binary data, not a decklist (a NUL byte at byte 9)"),
    (bytes(range(1, 32)) * 20, "binary data, not a decklist (520 control characters in 620)"),
]


@pytest.mark.parametrize("data,says", BAD, ids=["empty", "blank", "headers only", "garbage", "NUL", "controls"])
def test_bad_input_is_one_line(real_kb: Path, tmp_path: Path, data: bytes, says: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    for args, given in (([str(path)], None), (["-"], data)):
        result = run(real_kb, *args, input=given)
        assert result.exit_code == 2, result.output
        assert result.stdout == "" and result.stderr.count("\n") == 1 and says in result.stderr, result.stderr
        assert 'Write one card a line, e.g. "2 Gandalf"' in result.stderr


def test_a_folder_or_a_huge_file_is_refused(real_kb: Path, tmp_path: Path) -> None:
    folder = run(real_kb, str(tmp_path))
    assert folder.exit_code == 2 and "is a folder, not a decklist file" in folder.stderr
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"2 Gandalf\n" * 500_000)
    result = run(real_kb, str(huge))
    assert result.exit_code == 2 and "4.8 MB, over the 4.0 MB a decklist may be" in result.stderr


def test_other_encodings_are_read(real_kb: Path, tmp_path: Path) -> None:
    text = "Heilkräuter x2\nRoäc the Raven\n"
    for encoding in ("utf-16", "cp1252", "utf-8-sig"):
        path = tmp_path / f"{encoding}.txt"
        path.write_bytes(text.encode(encoding))
        result = run(real_kb, str(path), "--json")
        assert result.exit_code == 0, (encoding, result.output)
        assert [e["name"] for e in json.loads(result.stdout)["cards"]] == ["Healing Herbs", "Roäc the Raven"]


def test_a_10000_line_list_completes(real_kb: Path) -> None:
    deck = HERO.read_text("utf-8").splitlines()
    garbage = [f"Qwzx{n} Vbnm{n} plugh" for n in range(300)]
    lines = (deck * 300)[:9_700] + garbage
    report = deck_report(real_kb, "\n".join(lines), "big.txt")
    assert report["lines"] == 10_000
    assert len(report["not_found"]) == 300 + 1  # the garbage and "Gandalf the Wizard"
    assert report["warnings"][0].startswith(f"{report['copies']} copies on 10000 lines: more than a deck")
    skipped = [m for m in report["not_found"] if not m["looked_near"]]  # beyond the first MAX_NEAR
    assert len(skipped) > 300 - MAX_NEAR and all(m["name"].startswith("Qwzx") and not m["suggestions"] for m in skipped)
    assert report["warnings"][1] == f"{len(skipped)} names were not read for near spellings (only the first 50 are)"
    assert entry(report, "Lucky Search")["count"] == len([line for line in lines if line == "Luck Search"])


def test_bad_input_raises_refused_in_the_library(real_kb: Path) -> None:
    with pytest.raises(Refused, match="no line names a card"):
        deck_report(real_kb, "zzzz qqqq\n")


# -- the printable page ---------------------------------------------------------------------------------

def test_html_page_is_printable_and_written_safely(real_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "deck.html"
    result = run(real_kb, str(MINION), "--html", str(out))
    assert result.exit_code == EXIT_NOT_FOUND
    assert result.stdout == f"Wrote {out}: 31 cards, 1 name not found.\n"
    page = out.read_text("utf-8")
    assert page.startswith(PAGE_MARK) and "break-before: page" in page and "@media print" in page
    data = json.loads(run(real_kb, str(MINION), "--json").stdout)
    assert f"Checked {data['date']} against Collected Rulings File (CRF) 22 (edition 22" in page
    assert "<h3>Palantír of Orthanc ×1</h3>" in page and "Nothing Such Card" in page
    assert run(real_kb, str(HERO), "--html", str(out)).exit_code == EXIT_NOT_FOUND  # its own page: replaced
    assert "Deck check: " + str(HERO) in out.read_text("utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.html"]  # no temporary file left
    mine = tmp_path / "notes.html"
    mine.write_text("my notes", "utf-8")
    refused = run(real_kb, str(HERO), "--html", str(mine))
    assert refused.exit_code == 1 and "did not make it; it is left as it is" in refused.stderr
    assert mine.read_text("utf-8") == "my notes"
    link = tmp_path / "link.html"
    link.symlink_to(out)
    assert "is a link" in run(real_kb, str(HERO), "--html", str(link)).stderr
    missing = run(real_kb, str(HERO), "--html", str(tmp_path / "nowhere" / "x.html"))
    assert missing.exit_code == 2 and "no folder" in missing.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.html", "link.html", "notes.html"]


# -- the browser reads lists and names as the terminal does ------------------------------------------------

DRIVER = """
const fs = require("fs");
const [searchJs, deckJs, specPath, deckPath, listsPath] = process.argv.slice(2);
const {Searcher} = require(searchJs);
const D = require(deckJs);
const searcher = new Searcher(JSON.parse(fs.readFileSync(specPath, "utf8")));
const deck = JSON.parse(fs.readFileSync(deckPath, "utf8"));
const ids = ds => ds.map(d => searcher.docs[d][0]);
const out = JSON.parse(fs.readFileSync(listsPath, "utf8")).map(text => {
  const r = D.deck_report(text, searcher, deck), lines = D.read_lines(text, deck);
  if (r.error) return {lines, error: r.error};
  const entry = e => ({name: e.name, count: e.count, sections: e.sections, lines: e.lines, typed: e.typed,
    read_as: e.read_as, set_codes: e.set_codes, errata: ids(e.errata), rulings: ids(e.rulings), mentions: e.mentions});
  return {lines, cards: r.cards.map(entry), quiet: r.quiet.map(entry), not_found: r.not_found,
    warnings: r.warnings, copies: r.copies, misses: r.not_found.map(D.miss_text)};
});
process.stdout.write(JSON.stringify(out));
"""


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed (.ci/run installs it): the deck page cannot be checked")
        pytest.skip("needs node to run site/assets/deck.js")
    return node


def test_browser_reads_lists_and_names_as_the_terminal(real_kb: Path, tmp_path: Path) -> None:
    from kb.deck import miss_line

    node = _node()
    lists = [HERO.read_text("utf-8"), MINION.read_text("utf-8"),
             "\n".join(text for text, *_ in LINES) + "\nSideboard\nSB: Stealth\nkhamul\nGandalf the Wizard",
             "\ufeff2 Gandalf\u2028Lure\u00a0of  Nature x2\r\n3x Orc-patrols [TW]\n\u00c9owyn\nGollum’s Fate\nZap\u200bper\nCrepusculo [AS]\n",
             "\n".join(f"Qwzx{n} Vbnm" for n in range(MAX_NEAR + 5)) + "\nGandalf\n" * 600,
             "", "Characters:\n# nothing\n", "qwzx vbnm\n"]
    (tmp_path / "driver.js").write_text(DRIVER, "utf-8")
    (tmp_path / "deck.json").write_text(json.dumps(deck_data(real_kb)), "utf-8")
    (tmp_path / "lists.json").write_text(json.dumps(lists), "utf-8")
    done = subprocess.run([node, str(tmp_path / "driver.js"), str(SEARCH_JS), str(DECK_JS),
                           str(real_kb / CURRENT / "search.json"), str(tmp_path / "deck.json"),
                           str(tmp_path / "lists.json")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    fields = ("name", "count", "sections", "lines", "typed", "read_as", "set_codes", "mentions")
    for text, js in zip(lists, json.loads(done.stdout), strict=True):
        assert [line.to_json() for line in read_lines(text)] == js["lines"]
        try:
            report = deck_report(real_kb, text)
        except Refused:
            assert "error" in js
            continue
        for part in ("cards", "quiet"):
            py = [{**{f: e[f] for f in fields}, "errata": [r["id"] for r in e["errata"]],
                   "rulings": [r["id"] for r in e["rulings"]]} for e in report[part]]
            assert py == js[part]
        assert report["not_found"] == js["not_found"]
        assert [miss_line(m) for m in report["not_found"]] == js["misses"]
        assert (report["warnings"], report["copies"]) == (js["warnings"], js["copies"])


# -- the site's deck page ---------------------------------------------------------------------------------

def test_site_has_the_deck_page_and_its_data(real_kb: Path, real_site: Path) -> None:
    page = (real_site / "deck.html").read_text("utf-8")
    for script in ("search-index.js", "deck-data.js", "search.js", "deck.js"):
        assert f'src="assets/{script}"' in page
    build, data = unstamp((real_site / "assets" / "deck-data.js").read_text("utf-8"))
    assert build == (real_kb / CURRENT).resolve().name  # the knowledge base's build, as every data file says
    assert build == unstamp((real_site / "assets" / "search-index.js").read_text("utf-8"))[0]
    assert page.count(f'data-build="{build}"') == 2  # the page checks both (search.js fresh())
    assert data.startswith("window.RULINGS_DECK=")
    shipped = json.loads(data.removeprefix("window.RULINGS_DECK=").rstrip().rstrip(";"))
    assert shipped == json.loads(json.dumps(deck_data(real_kb)))
    assert 'href="deck.html"' in (real_site / "index.html").read_text("utf-8")


def test_deck_page_in_a_browser_from_a_link(tab, real_site: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors = tab((real_site / "deck.html").as_uri() + "#" + quote(HERO.read_text("utf-8"), safe=""))
    page.wait_for_selector(".deck-card")
    assert page.input_value("#decklist") == HERO.read_text("utf-8")
    status = page.inner_text("#deck-status")
    assert status.startswith("30 cards (") and "1 name matches no card" in status
    lucky = page.locator(".deck-card", has_text="Lucky Search")
    assert "Errata (1)" in lucky.inner_text() and lucky.locator("a").first.get_attribute("href") == "card/lucky-search.html"
    assert "Gandalf the Wizard" in page.inner_text(".deck-missing")
    page.fill("#decklist", "Characters:\n2 Gandalf\nHazards:\nCrepúsculo x2\n")
    page.click("#deck-form button")
    page.wait_for_function("document.querySelectorAll('.deck-card').length == 2")
    assert "every name is a card" in page.inner_text("#deck-status")
    assert "Crep%C3%BAsculo" in page.url  # the list travels in the address
    page.reload()
    page.wait_for_selector(".deck-card")
    assert page.locator(".deck-card h3").all_inner_texts() == ["Gandalf ×2", "Twilight ×2"]
    assert errors == []

"""The real documents in rulings/: nothing lost, nothing invented, the landmarks the issue names."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from kb.builder.check import check
from kb.read.lookup import export
from kb.builder.parsers.blocks import read_lines

from .conftest import SOURCES


@pytest.fixture(scope="session")  # once per run, whatever order the tests run in
def rows(real_kb: Path) -> list[dict]:
    return list(export(real_kb))


def by_source(rows: list[dict], source: str) -> list[dict]:
    return [r for r in rows if r["source"] == source]


def test_every_line_is_accounted_for(real_kb: Path) -> None:
    report = check(real_kb)
    assert len(report.sources) == 8
    for s in report.sources:
        assert s.unaccounted == 0, s
        assert s.stored + s.skipped == s.lines, s
    assert report.warnings == 0


def test_stored_raw_text_is_the_source_text(rows: list[dict], real_kb: Path) -> None:
    conn = sqlite3.connect(next(real_kb.glob("current/rulings.db")))
    paths = dict(conn.execute("select id, path from sources"))
    files = {sid: read_lines(SOURCES / path) for sid, path in paths.items()}
    for sid, start, end, raw in conn.execute("select source, line_start, line_end, raw from rulings"):
        assert raw == "\n".join(files[sid][start - 1:end])


def norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@pytest.mark.parametrize("source, path", [("crf-22", "meccg/crf-22.md"),
                                          ("crf-older", "meccg/crf-turn-sequence-older.md")])
def test_every_crf_bullet_is_in_one_ruling_with_its_words(rows: list[dict], source: str, path: str) -> None:
    lines = read_lines(SOURCES / path)
    rulings = by_source(rows, source)
    residue = {"disclaimer", "contact", "about us", ""}
    bullets = [(n, line[2:]) for n, line in enumerate(lines, 1)
               if line.startswith("- ") or line.strip() == "-"]
    missing = []
    for n, text in bullets:
        holders = [r for r in rulings if r["lines"][0] <= n <= r["lines"][1]]
        if text.strip().lower() in residue and not holders:
            continue
        if len(holders) != 1 or norm(text.replace("&lt;", "<").replace("&gt;", ">")) not in norm(holders[0]["text"]):
            missing.append((n, text[:60]))
    assert missing == []
    if source == "crf-older":
        assert len(rulings) == 132  # 136 bullets, the Free Council's four steps one ruling


def test_crf22_annotations(rows: list[dict]) -> None:
    annotations = {r["number"]: r for r in by_source(rows, "crf-22") if r["kind"] == "annotation"}
    expected = {str(n) for n in range(1, 28)} | {"9a", "25a", "25b"}
    assert set(annotations) == expected
    assert annotations["18"]["section"][-1] == "The Strike Sequence"
    assert annotations["13"]["text"].startswith("Annotation 13: An attack may not be canceled")


def test_every_numbered_coe_rule_is_a_ruling(rows: list[dict]) -> None:
    lines = read_lines(SOURCES / "meccg/coe-rules.md")
    numbers = [m.group(1) for line in lines if (m := re.match(r"^\*\*((?:\d+|g)(?:\.[A-Za-z0-9]+)*)\*\*", line))]
    rules = {r["number"]: r for r in by_source(rows, "coe-rules") if r["kind"] == "rule"}
    assert len(numbers) == 494 and sorted(rules) == sorted(numbers)
    assert rules["2.IV.iii"]["text"].startswith("Movement/Hazard Phase, Step 3")
    assert rules["g.hav.3"]["section"] == ["Glossary"]
    assert "alignment:HERO" in rules["1.3.W1"]["markers"]


def test_a_coe_rule_holds_the_list_it_opens(rows: list[dict]) -> None:
    """`rulings rule 4.1` gives the site types it ends on, 2.II.7.i the three ways to use Starter
    Movement, 2.V.6 the five criteria, 8.3 the values the roll is compared with: the unnumbered
    paragraphs after a rule that opens a list are the rule's, not guidance of their own."""
    rules = {r["number"]: r for r in by_source(rows, "coe-rules") if r["kind"] == "rule"}
    assert rules["2.II.7.i"]["lines"] == [574, 580]
    assert rules["2.II.7.i"]["text"].endswith("with each site card listing a site path to the other site.")
    assert rules["2.V.6"]["text"].endswith("e) Directly taps a character in the company.")
    assert rules["3.IV.3"]["text"].endswith("Prowess bonuses from trophies are applied to a maximum of 9.")
    assert "Shadow-hold: Orcs, Nazgûl, Undead, Trolls" in rules["4.1"]["text"]
    assert rules["4.1"]["lines"] == [1141, 1163]
    assert "Items - The mind value of the character controlling the target item" in rules["8.3"]["text"]
    assert rules["2.IV.ii"]["text"].endswith("considered synonymous with revealing the new site.")
    assert rules["1.9"]["text"].endswith("are removed from the game.")
    guidance = [r["text"] for r in by_source(rows, "coe-rules") if r["kind"] == "guidance"]
    assert any(t.startswith("Before the game begins, you choose") for t in guidance)
    assert not any(t.startswith(("•", "a) ", "Free-hold:", "Prowess bonuses")) for t in guidance)


@pytest.mark.parametrize("source, lines", [("crf-22", [457, 465]), ("crf-older", [193, 197])])
def test_the_free_council_count_holds_its_steps(rows: list[dict], source: str, lines: list[int]) -> None:
    """The CRF's "To calculate marshalling points at the Free Council, follow these steps:" is one
    ruling with its four steps, not a ruling that ends on a colon."""
    count = next(r for r in by_source(rows, source) if r["text"].startswith("To calculate marshalling points"))
    assert count["lines"] == lines
    assert "Total up the marshalling points for each category." in count["text"]
    assert "including points from unique resources your opponent has duplicated in his hand." in count["text"]
    assert not any(r["text"].startswith("Total up the marshalling points") for r in by_source(rows, source)
                   if r["id"] != count["id"])


def test_all_cards(rows: list[dict]) -> None:
    cards = [r for r in rows if r["kind"] == "card"]
    assert len(cards) == 1683 and len({c["id"] for c in cards}) == 1683
    adunaphel = [c for c in cards if c["title"] == "Adûnaphel the Ringwraith"]
    assert adunaphel and adunaphel[0]["card"]["type"] == "Character"
    assert all(c["card"]["names"]["en"] == c["title"] for c in cards)


def test_arda_is_repaired_and_keeps_no_lost_ligature(rows: list[dict], real_kb: Path) -> None:
    arda = " ".join(r["text"] for r in by_source(rows, "arda"))
    assert "inuence" not in arda and " rst " not in arda and "Clarication" not in arda
    assert "an MP Hand of 5 cards from the Marshalling Point Deck" in arda
    repairs = check(real_kb).repairs
    assert sum(1 for r in repairs if r.source == "arda" and r.before == "inuence") >= 90
    kinds = {r["kind"] for r in by_source(rows, "arda")}
    assert {"designer-note", "clarification", "tip"} <= kinds


def test_lotr_is_its_own_game(rows: list[dict]) -> None:
    lotr = by_source(rows, "lotr-wiki")
    assert lotr and all(r["game"] == "lotr-tcg" for r in lotr)
    assert all(r["game"] == "meccg" for r in rows if r["source"] != "lotr-wiki")


def test_export_lines_are_json_with_the_fields(rows: list[dict]) -> None:
    for key in ("id", "source", "game", "section", "kind", "number", "text", "lines", "markers"):
        assert key in rows[0]
    assert json.loads(json.dumps(rows[0])) == rows[0]


def test_the_card_database_s_shifted_german_names_are_repaired(real_kb: Path) -> None:
    from kb.read.lookup import card

    assert [c.id for c in card(real_kb, "Dôgrib").faces] == ["LE-7"]  # was LE-7 and LE-8
    assert [c.id for c in card(real_kb, "Dorelas").faces] == ["LE-8"]  # was LE-8 and LE-9
    assert [c.id for c in card(real_kb, "Dunländischer Spion").faces] == ["LE-9"]
    shifted = [r for r in check(real_kb).repairs if r.kind == "name shifted to the next card in the database"]
    assert [(r.source, r.before, r.after) for r in shifted] == [
        ("cards", "LE-7 de: Dunländischer Spion", "LE-7 de: Dôgrib"), ("cards", "LE-8 de: Dôgrib", "LE-8 de: Dorelas"),
        ("cards", "LE-9 de: Dorelas", "LE-9 de: Dunländischer Spion")]

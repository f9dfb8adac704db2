"""The deck audit (issue 40): real published decklists, each held to the verdict and counts a judge reached by hand
from the stored CoE rules and the cards' text (tests/data/decks/audit/audit.toml, which says where each list comes
from and how the judge read it): no false "Legal", no false "Not legal", no confident verdict where a judge cannot
tell, whose deck it is, and the counts a judge makes, over the cards as `rulings deck` read them. A confident verdict
is "Legal", or "Not legal" on a list checked as a whole deck; part of a deck (no hazards, no resources) is checked as
a part, and the problems a judge finds in it are held to the judge's all the same."""

from __future__ import annotations

import functools
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kb.deck import DeckReport, check_deck, finding_text
from kb.decklist import decode
from kb.errors import Refused

from .conftest import DATA

AUDIT = DATA / "decks" / "audit"
MANIFEST = AUDIT / "audit.toml"
LISTS: list[dict[str, Any]] = tomllib.loads(MANIFEST.read_text("utf-8"))["list"]
VERDICTS = ("legal", "not legal", "cannot be told")
COUNTS = ("resources", "hazards", "either", "characters", "avatars", "creatures", "sideboard", "fw_sideboard",
          "pool_characters", "pool_minor_items", "location", "copies")
"""What the manifest counts (its header says how a judge counts each)."""
COPY_RULES = ("1.3.1", "1.3.F1")
HALF_CREATURE_NAME = re.compile(r" (?:Ahunt|at Home)$", re.IGNORECASE)


def by_list(lists: list[dict[str, Any]]) -> list[Any]:
    return [pytest.param(entry, id=Path(entry["file"]).stem) for entry in lists]


def by_game(lists: list[dict[str, Any]]) -> list[Any]:
    return [pytest.param(entry, game, id=f"{Path(entry['file']).stem}-{game}") for entry in lists for game in entry["games"]]


def report_on(kb: Path, entry: dict[str, Any], game: str = "") -> DeckReport:
    """The report `rulings deck FILE --game GAME` gives on the list (made once a run); a list the tool refuses
    fails the test, since a judge reads every one of them."""
    try:
        return checked(str(kb), entry["file"], game or entry["games"][0])
    except Refused as exc:
        pytest.fail(f"{entry['file']}: the tool refuses a list a judge reads: {exc}")


@functools.cache
def checked(kb: str, file: str, game: str) -> DeckReport:
    return check_deck(Path(kb), str(AUDIT / file), game=game)


def findings(report: DeckReport) -> str:
    return "\n".join(finding_text(f) for f in report.findings) or "no finding"


def test_the_manifest_records_every_list_and_why() -> None:
    files = sorted(p.name for p in AUDIT.iterdir() if p != MANIFEST)
    assert sorted(entry["file"] for entry in LISTS) == files
    for entry in LISTS:
        where = entry["file"]
        assert entry["verdict"] in VERDICTS, where
        assert entry.get("url") and entry.get("published") and len(entry["reasoning"]) > 200, where
        assert entry.get("repo") and entry.get("path") and re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), where
        assert entry["alignment"] in ("", "hero", "minion", "fallen-wizard", "balrog"), where
        assert entry["games"] and set(entry["games"]) <= {"starter", "short", "long", "campaign"}, where
        assert set(entry["counts"]) <= set(COUNTS), where
        assert bool(entry.get("broken")) == (entry["verdict"] == "not legal"), where
        assert bool(entry.get("unsure")) == (entry["verdict"] == "cannot be told"), where
        assert all(re.fullmatch(r"1\.\d+(?:\.[A-Z]?\d+)?", b["rule"]) for b in entry.get("broken", [])), where


@pytest.mark.parametrize(("entry", "game"), by_game(LISTS))
def test_the_verdict_is_the_judge_s(real_kb: Path, entry: dict[str, Any], game: str) -> None:
    report = report_on(real_kb, entry, game)
    verdict, problems = report.verdict, [f for f in report.findings if f["status"] == "problem"]
    said = f"{entry['file']} ({game} game): the tool says {verdict['summary']!r}:\n{findings(report)}"
    if entry["verdict"] == "legal":
        assert verdict["legal"] is True, "false 'Not legal' or an unneeded doubt: a judge finds it legal. " + said
    elif entry["verdict"] == "cannot be told":
        doubt = f"a confident verdict where a judge cannot tell ({entry['unsure']}). "
        assert not confident(report), doubt + said
    else:
        assert confident(report) and verdict["legal"] is False, "a judge finds this whole deck not legal. " + said
        broken = {b["rule"]: b["cards"] for b in entry["broken"]}
        assert {f["rule"] for f in problems} == set(broken), \
            f"a judge finds {sorted(broken)} broken, and nothing else. " + said
        for rule, cards in broken.items():
            cited = {c for f in problems if f["rule"] == rule for c in f["cards"]}
            assert set(cards) <= cited, f"rule {rule} is broken by {cards}. " + said
    copies = {c for f in problems if f["rule"] in COPY_RULES for c in f["cards"]}
    assert copies == set(entry["copy_problems"]), "the cards over their copy limit a judge finds. " + said


def confident(report: DeckReport) -> bool:
    """Whether a verdict is confident: "Legal", or "Not legal" on a list checked as a whole deck (problems every
    alignment it is checked as shares, or each its own)."""
    verdict = report.verdict
    broken = verdict["problems"] > 0 or bool(report.readings) and all(r["verdict"]["problems"] for r in report.readings)
    return verdict["legal"] is True or (verdict["scope"]["kind"] == "deck" and broken)


def test_the_deck_page_gives_every_list_the_terminal_s_verdict(real_kb: Path, tmp_path: Path) -> None:
    """The site's deck page (site/assets/deck.js) reads and checks each real list as `rulings deck` does: the same
    verdict, findings, readings and whose deck it is, the file decoded as `rulings deck` decodes it."""
    from .test_deck import _node, deck_js

    node = _node()
    lists = [(decode((AUDIT / entry["file"]).read_bytes(), entry["file"]), {"game": entry["games"][0]}) for entry in LISTS]
    for entry, js in zip(LISTS, deck_js(node, real_kb, tmp_path, lists), strict=True):
        report = report_on(real_kb, entry)
        assert (report.verdict, report.findings, report.readings, report.alignment) == \
            (js["verdict"], js["findings"], js["readings"], js["alignment"]), entry["file"]


@pytest.mark.parametrize("entry", by_list([e for e in LISTS if e["alignment"]]))
def test_whose_deck_it_is(real_kb: Path, entry: dict[str, Any]) -> None:
    report = report_on(real_kb, entry)
    assert report.alignment["player"] == entry["alignment"], \
        f"{entry['file']}: the tool reads it for {report.alignment['player'] or 'nobody'} ({report.alignment['how']})"


@pytest.mark.parametrize("entry", by_list(LISTS))
def test_the_counts_are_the_judge_s(real_kb: Path, entry: dict[str, Any]) -> None:
    report = report_on(real_kb, entry)
    counted = judge_counts(report)
    assert {key: counted[key] for key in entry["counts"]} == entry["counts"], \
        f"{entry['file']}: the counts over the cards as the tool read them " \
        f"(not read: {[m['name'] for m in report.not_found + report.ambiguous][:8]})"


def judge_counts(report: DeckReport) -> Counter[str]:
    """The manifest's counts, made as a judge makes them, over the cards as the report read them: each card's copies in
    each part of the deck, by the type of the printing the report chose for it."""
    player = report.alignment["player"]
    counted: Counter[str] = Counter(copies=report.copies)
    halves = 0
    for entry in report.cards + report.quiet:
        if not entry["cards"]:
            continue
        face = entry["cards"][0]
        for section in entry["sections"]:
            part = "sites" if face["type"] in ("Site", "Region") else section["part"] or "play"
            kind = {"sites": "location", "sideboard": "sideboard", "fw-sideboard": "fw_sideboard"}.get(part)
            if part == "pool":
                kind = pool_kind(face)
            elif part == "play":
                kind = play_kind(face, player)
                if kind == "hazards" and half_creature(face):
                    halves += section["count"]
                elif kind == "hazards" and face["subtype"] == "Creature":
                    counted["creatures"] += section["count"]
            if kind:
                counted[kind] += section["count"]
    counted["creatures"] += halves // 2
    return counted


def pool_kind(face: dict[str, Any]) -> str:
    if face["type"] == "Character" and "avatar" not in face["flags"]:
        return "pool_characters"
    if face["subtype"] == "Minor Item" or "playable as a starting minor item" in face["flags"]:
        return "pool_minor_items"
    return ""


def play_kind(face: dict[str, Any], player: str) -> str:
    """Resources, hazards (agents for a Wizard or Balrog: 1.3.W2, 1.3.B2), either (1.3.3), characters or avatars."""
    flags = face["flags"]
    if face["type"] == "Character":
        if "avatar" in flags:
            return "avatars"
        return "hazards" if "agent" in flags and player in ("hero", "balrog") else "characters"
    if "playable as a resource" in flags or "playable as a hazard" in flags:
        return "either"
    return {"Resource": "resources", "Hazard": "hazards"}.get(face["type"], "")


def half_creature(face: dict[str, Any]) -> bool:
    """Rule 1.5.1's halves: an agent that counts as a hazard, an Ahunt or At Home Dragon manifestation, a creature also
    playable as an event, a Spawn permanent-event."""
    subtype = face["subtype"] or ""
    return "agent" in face["flags"] or ("Creature" in subtype and subtype != "Creature") or \
        bool(HALF_CREATURE_NAME.search(face["name"])) or ("spawn" in face["flags"] and subtype == "Permanent-event")

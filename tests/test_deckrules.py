"""The CoE deck-construction rules on real lists: for each rule a list that breaks it and one that keeps it,
each finding citing its rule, whose text the report quotes from the stored CoE rules; the numbers the
check holds a deck to are those the stored rules give."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kb.deck.deck import DeckReport, deck_report, whose_text
from kb.deck.deckcards import LIMITS, RULES, Entry
from kb.read.lookup import Reader
from kb.store.store import connect, query

from .conftest import DATA

DECKS = DATA / "decks"
FELLOWSHIP = (DECKS / "fellowship.txt").read_text("utf-8")
"""A legal Wizard deck, every part marked: each case changes it a little."""
REPORT = (DECKS / "report.txt").read_text("utf-8")
"""A legal Ringwraith deck (30 resources, 30 hazards) in a tournament report's prose."""


def variant(drop: tuple[str, ...] = (), add: tuple[str, ...] = (), swap: dict[str, str] | None = None) -> str:
    """The Fellowship with some lines dropped, swapped or added at its end (an added line after its
    "Sites:" is a site, "SB: X" a sideboard card)."""
    lines = [line for line in FELLOWSHIP.splitlines() if line not in drop]
    lines = [(swap or {}).get(line, line) for line in lines]
    return "\n".join(lines + list(add)) + "\n"


SMALL_MINION = "Ringwraith:\n2 Ûvatha the Ringwraith\nCharacters:\nShagrat\nGorbag\n"
SMALL_FW = "Avatar:\n2 Saruman [F]\nPool:\nBeregond\nShagrat\nBad Company\nThrall of the Voice\n"
SMALL_BALROG = "Avatar:\nThe Balrog\nCharacters:\nAzog\nBolg\nSites:\nMoria\nThe Under-gates\n"

CASES: list[tuple[str, str, dict[str, str], str, bool]] = [
    # (what, list, options, rule, whether the rule finds a problem)
    ("the Fellowship is legal", FELLOWSHIP, {}, "", False),
    ("a unique card twice", variant(add=("SB: Glamdring",)), {}, "1.3.1", True),
    ("a unique card once", variant(drop=("1 Glamdring",), add=("SB: Glamdring",)), {}, "1.3.1", False),
    ("five Orc-patrols", variant(add=("SB: 2 Orc-patrol",)), {}, "1.3.1", True),
    ("three Orc-patrols across parts", variant(swap={"Orc-patrol x3": "Orc-patrol x2"}, add=("SB: Orc-patrol",)),
     {"game": "long"}, "1.3.1", False),
    ("two avatars of one name are no unique problem", FELLOWSHIP, {}, "1.3.1", False),
    ("manifestations of one unique resource", SMALL_FW + "Resources:\nGollum\nStinker\n", {}, "1.3.1", True),
    ("agents' mind over 36", SMALL_MINION + "Golodhros\nBaduila\nElerína\nThe Grimburgoth\nFiriel\n", {}, "1.3.2",
     True),
    ("agents' mind within 36", SMALL_MINION + "Golodhros\nBaduila\nElerína\nThe Grimburgoth\n", {}, "1.3.2", False),
    ("too few resources", variant(drop=("3 Concealment", "3 Dodge")), {}, "1.5", True),
    ("more hazards than resources", variant(add=("Hazards:", "Slayer x2")), {}, "1.5", True),
    ("Twilight may count as a resource", variant(drop=("3 Dodge", "2 Twilight"), add=("Resources:", "Twilight x3")),
     {}, "1.5", False),
    ("eleven characters", variant(add=("Characters:", "Glóin", "Thorin II", "Balin", "Kíli", "Fíli", "Óin")),
     {}, "1.5", True),
    ("three different avatars", variant(add=("Characters:", "Saruman [H]", "Radagast [H]")), {}, "1.5", True),
    ("two different avatars", variant(add=("Characters:", "Saruman [H]")), {}, "1.5", False),
    ("eleven creatures", variant(drop=("Giant Spiders x2", "Wargs x2"), add=(
        "Hazards:", "Muster Disperses x1", "Dragon-sickness x1", "Alone and Unadvised", "Searching Eye")), {}, "1.5.1",
     True),
    ("eleven creatures and two halves", variant(drop=("Giant Spiders x2", "Wargs x2"), add=(
        "Hazards:", "Khamûl the Easterling", "Ûvatha the Horseman", "Alone and Unadvised", "Searching Eye")),
     {}, "1.5.1", False),
    ("33 in a short game's sideboard", variant(add=tuple(f"SB: {n}" for n in
                                                         ("Smoke Rings", "New Friendship", "New Friendship"))
                                           + ("Sideboard:", "3 Hobgoblins", "3 Orc-warband", "3 Wolves",
                                              "3 Huorn", "3 Ghosts", "3 Brigands", "2 Assassin")), {}, "1.6.1", True),
    ("33 in a long game's sideboard",
     variant(add=("SB: Smoke Rings", "SB: 2 New Friendship", "Sideboard:", "3 Hobgoblins",
                                                   "3 Orc-warband", "3 Wolves", "3 Huorn", "3 Ghosts", "3 Brigands",
                                                   "2 Assassin")), {"game": "long"}, "1.6.1", False),
    ("eleven kept for Fallen-wizard opponents", variant(add=("Vs FW:", "3 Hobgoblins", "3 Orc-warband", "3 Wolves",
                                                              "2 Huorn")), {}, "1.6.1", True),
    ("two avatars with copies in the sideboard", variant(add=("Sideboard:", "2 Saruman [H]")), {}, "1.6.2", True),
    ("one avatar with copies", variant(add=("Sideboard:", "Saruman [H]")), {}, "1.6.2", False),
    ("eleven characters in the pool", variant(add=("Pool:", "Glóin", "Thorin II", "Balin", "Kíli", "Fíli", "Óin",
                                                   "Sam Gamgee")), {}, "1.7", True),
    ("three minor items in the pool", variant(add=("Pool:", "Cram")), {}, "1.7", True),
    ("a unique minor item in the pool", variant(drop=("1 Elven Cloak",), add=("Pool:", "Sting")), {}, "1.7", True),
    ("a region in the location deck", variant(add=("Rhudaur",)), {}, "1.4", True),
    ("a site twice", variant(add=("Moria",)), {}, "1.4", True),
    ("a haven thrice", variant(add=("Rivendell", "Rivendell")), {}, "1.4", False),
    ("a minion resource in a Wizard's deck", variant(add=("SB: Orc Quarrels",)), {}, "1.3.W3", True),
    ("a minion item in a Wizard's deck", variant(add=("SB: Black Mace",)), {}, "1.3.W3", False),
    ("a minion character in a Wizard's deck", variant(add=("Pool:", "Shagrat")), {}, "1.3.W2", True),
    ("an agent in a Wizard's deck", variant(add=("SB: Wormtongue",)), {}, "1.3.W2", False),
    ("a minion site in a Wizard's deck", variant(add=("Goblin-gate [M]",)), {}, "1.4.W1", True),
    ("a Fallen-wizard in a Wizard's deck", variant(add=("Sideboard:", "Saruman [F]")), {}, "1.3.W1", True),
    ("a hero character in a Ringwraith's deck", SMALL_MINION + "Legolas\n", {}, "1.3.R2", True),
    ("a hero item in a Ringwraith's deck", SMALL_MINION + "Resources:\nGlamdring\n", {}, "1.3.R3", False),
    ("a hero resource in a Ringwraith's deck", SMALL_MINION + "Resources:\nConcealment\n", {}, "1.3.R3", True),
    ("a card a Fallen-wizard may not include", SMALL_FW + "Resources:\nCracks of Doom\n", {}, "1.5.F6", True),
    ("three of a hero resource for a Fallen-wizard", SMALL_FW + "Resources:\n3 Concealment\n", {}, "1.3.F1", True),
    ("two of a hero resource for a Fallen-wizard", SMALL_FW + "Resources:\n2 Concealment\n", {}, "1.3.F1", False),
    ("Stage resources worth 4 in the pool", SMALL_FW + "Pool:\nHidden Haven\n", {}, "1.7.F1", True),
    ("Stage resources worth 3 in the pool", SMALL_FW, {}, "1.7.F1", False),
    ("Fallen-wizard sites twice", SMALL_FW + "Sites:\n2 The White Towers\n", {}, "1.4.F1", False),
    ("a Fallen-wizard's untagged Rivendell beside its minion one", SMALL_FW + "Sites:\nRivendell\nRivendell [M]\n", {},
     "1.4.F1", False),
    ("a Fallen-wizard's two hero Rivendells", SMALL_FW + "Sites:\nRivendell [H]\nRivendell [H]\n", {}, "1.4.F1", True),
    ("three Rivendells for a Fallen-wizard", SMALL_FW + "Sites:\nRivendell [H]\nRivendell [M]\nRivendell\n", {},
     "1.4.F1",
     True),
    ("Radagast untagged is a Wizard, whatever its Stage card", "Avatar:\nRadagast\n3 Dodge\n3 Concealment\nSB:\n"
     "Ring of Fire\n", {}, "1.3.F1", False),
    ("an Elf for a Balrog", SMALL_BALROG + "Characters:\nLegolas\n", {}, "1.3.B2", True),
    ("an Orc of mind 9 for a Balrog", SMALL_BALROG + "Characters:\nShagrat\n", {}, "1.3.B4", False),
    ("an agent is a Balrog's hazard, no character", SMALL_BALROG + "Hazards:\nWormtongue\n", {}, "1.3.B4", False),
    ("a Man for a Balrog", SMALL_BALROG + "Characters:\nOstisen\n", {}, "1.3.B4", True),
    ("a card a Balrog may not include", SMALL_BALROG + "Resources:\nBlack Rider\n", {}, "1.3.B5", True),
    ("a Ringwraith Unleashed card for a Balrog", SMALL_BALROG + "Resources:\nKhamûl Unleashed\n", {}, "1.3.B5", True),
    ("the minion Dol Guldur for a Balrog", SMALL_BALROG + "Dol Guldur [M]\n", {}, "1.4.B1", True),
    ("a Balrog-specific card in a Ringwraith's deck", SMALL_MINION + "Resources:\nEvil Things Lingering\n", {}, "1.3.4",
     True),
    ("a Balrog-specific card in a Balrog's deck", SMALL_BALROG + "Resources:\nEvil Things Lingering\n", {}, "1.3.4",
     False),
]


VERDICTS: list[tuple[str, str, dict[str, str], str, str, list[str]]] = [
    # (what, list, options, rule, status, the messages of its findings of that rule and status)
    ("29 resources, 27 hazards and 2 Twilight: too few resources, balanced",
     variant(drop=("1 Lucky Search", "Foolish Words x3", "2 Twilight"), add=("Hazards:", "2 Twilight")), {}, "1.5",
     "problem",
     ["the play deck has 29 resources, with its 2 cards that may be either (1.3.3) as hazards, to match its resources: "
      "it needs at least 30"]),
    ("23 resources, 27 hazards and 6 Twilight: 5 of the 6 as resources to balance",  # 23 + 5 = 28 = 27 + 6 - 5
     variant(drop=("3 Concealment", "3 Dodge", "1 Lucky Search", "Foolish Words x3", "2 Twilight"),
             add=("Hazards:", "3 Twilight", "Resources:", "3 Twilight")), {}, "1.5", "problem",
     ["the play deck has 28 resources, with 5 of its 6 cards that may be either (1.3.3) as resources, to match its "
      "hazards: it needs at least 30"]),
    ("30 resources and 28 hazards: unbalanced, in range",
     variant(drop=("Foolish Words x3",), add=("Hazards:", "1 Slayer")),
     {}, "1.5", "problem",
     ["the play deck has 30 resources and 28 hazards: it must have as many hazards as resources"]),
    ("6 resources and a hazard: both, said once",
     "Avatar:\nRadagast\n3 Dodge\n3 Concealment\nHazards:\nDoors of Night\n",
     {}, "1.5", "problem",
     ["the play deck has 6 resources and 1 hazard: it must have at least 30 resources and as many "
                            "hazards as resources"]),
    # part of a deck (no hazards, no resources): the minimums its other parts may reach are not judged
    ("6 resources and no hazard: part of a deck, its minimums not judged",
     "Avatar:\nRadagast\n3 Dodge\n3 Concealment\n",
     {}, "1.5", "not checked",
     ["the play deck has 6 resources and 0 hazards: it must have at least 30 resources and as many hazards as "
      "resources (not judged on part of a deck)"]),
    # a hazard portion (tests/data/decks/audit's Hazard deck E): no two lines that count its cards otherwise
    ("28 hazards and 2 cards that may be either, no resource: one statement", "Hazards:\n3 Orc-patrol\n3 Wargs\n"
     "3 Cave-drake\n3 Giant Spiders\n3 Wolves\n3 Hobgoblins\n3 Orc-guard\n3 Brigands\n3 Slayer\n1 Foolish Words\n"
     "2 Twilight\n", {}, "1.5", "not checked",
     ["the play deck has 0 resources, 28 hazards and 2 cards that may be either (1.3.3): it must have at least 30 "
      "resources and as many hazards as resources, which counting those 2 either way does not give (not judged on part "
      "of a deck)"]),
    ("part of a deck: no problem where a minimum is not reached", "Avatar:\nRadagast\n3 Dodge\n3 Concealment\n", {},
     "1.5",
     "problem", []),
    ("part of a deck: a maximum passed is a problem all the same", "Characters:\n" + "\n".join(
        ["Glóin", "Thorin II", "Balin", "Kíli", "Fíli", "Óin", "Bifur", "Bofur", "Bombur", "Dori", "Nori"]) + "\n", {},
     "1.5", "problem",
     ["11 non-avatar characters in the play deck (at most 10) (the list marks no pool: mark the pool's "
                        "characters)"]),
    ("two hero Rivendells for a Fallen-wizard", SMALL_FW + "Sites:\nRivendell [H]\nRivendell\nRivendell [H]\n", {},
     "1.4.F1",
     "problem", ["3 copies of the site Rivendell (2 hero, 1 minion): one copy of each hero site and one of each minion "
                 "site, havens too"]),
    ("two untagged Rivendells for a Fallen-wizard", SMALL_FW + "Sites:\n2 Rivendell\n", {}, "1.4.F1", "not checked",
     ["2 copies of the site Rivendell: which are its hero and which its minion site (one of each) the list does not "
      "say: mark them [H] and [M]"]),
    ("nothing tells whose deck it is", "Twilight\nDoors of Night\n", {}, "1.2", "not checked",
     ["whose deck it is: no avatar, tag or card says whose deck it is; the rules of one player (the alignment of its "
      "avatars, characters, resources and sites; agents as hazards) are not checked: give its alignment"]),
    # 1.3.1's manifestations, each grouping held to the rules' words (kb.deck.deckrules._manifestations)
    ("two resource manifestations of one unique resource: one card (1.3.1; CRF 22)", SMALL_FW
     + "Resources:\nGollum\nStinker\n",
     {}, "1.3.1", "problem",
     ["2 copies of Gollum / Stinker, manifestations of one unique resource: one unique card (at most 1 "
                              "in the deck)"]),
    ("a resource and a hazard creature manifestation: open", (DECKS / "smaug.txt").read_text("utf-8"), {}, "1.3.1",
     "open",
     ["the rules leave open whether Smaug Roused (a resource) and Smaug (a hazard), manifestations of one another, "
      "count as one unique card: 1.3.1 makes one card of the manifestations of a unique resource, and CRF 22 speaks "
      "only of two resource manifestations"]),
    ("the Smaug deck has no problem", (DECKS / "smaug.txt").read_text("utf-8"), {}, "1.3.1", "problem", []),
    ("a Dragon's Ahunt is its manifestation, though its text does not say so (g.man.3): open with Roused",
     SMALL_MINION + "Resources:\nSmaug Roused\nHazards:\nSmaug Ahunt\n", {}, "1.3.1", "open",
     ["the rules leave open whether Smaug Roused (a resource) and Smaug Ahunt (a hazard), manifestations of one "
      "another, count as one unique card: 1.3.1 makes one card of the manifestations of a unique resource, and CRF 22 "
      "speaks only of two resource manifestations"]),
    ("a hero resource ally and its hazard agent: open",
     variant(add=("SB: Mistress Lobelia", "SB: Lobelia Sackville-Baggins")),
     {}, "1.3.1", "open",
     ["the rules leave open whether Mistress Lobelia (a resource) and Lobelia Sackville-Baggins (a "
                           "hazard), manifestations of one another, count as one unique card: 1.3.1 makes one card of "
                           "the manifestations of a unique resource, and CRF 22 speaks only of two resource "
                           "manifestations"]),
    ("hazard manifestations only: each its own unique card",
     variant(add=("SB: Smaug", "SB: Smaug Ahunt", "SB: Smaug at Home")),
     {}, "1.3.1", "problem", []),
    ("hazard manifestations only: nothing open", variant(add=("SB: Smaug", "SB: Smaug Ahunt", "SB: Smaug at Home")),
     {}, "1.3.1", "open", []),
    ("character manifestations: Strider brings Aragorn II into play, both in one deck",
     variant(add=("Characters:", "Strider")),
     {}, "1.3.1", "problem", []),
    # a Fallen-wizard's declared avatar (1.8.F1), a site in the pool (1.7), the cards named
    ("a Fallen-wizard deck without a Fallen-wizard avatar", "Pool:\nBeregond\nThrall of the Voice\nBad Company\n"
     "Hazards:\nDoors of Night\n", {"alignment": "fallen-wizard"}, "1.8.F1", "problem",
     ["a Fallen-wizard player's deck holds at least one copy of the Fallen-wizard avatar they declare: the list has "
      "none"]),
    ("part of a Fallen-wizard deck without its avatar", "Pool:\nBeregond\nThrall of the Voice\nBad Company\n",
     {"alignment": "fallen-wizard"}, "1.8.F1", "not checked",
     ["a Fallen-wizard player's deck holds at least one copy of the Fallen-wizard avatar they declare: the list has "
      "none (not judged on part of a deck)"]),
    ("a Fallen-wizard deck with its avatar", SMALL_FW, {}, "1.8.F1", "problem", []),
    ("a site in the pool is checked in the location deck, and the report says so", variant(add=("Pool:", "Weathertop")),
     {}, "1.7", "note",
     ["Weathertop, listed in the pool, is checked as part of the location deck: a pool holds characters "
                         "and minor items"]),
    ("a card the pool may not hold is named", SMALL_MINION + "Pool:\nThe Witch-king\n", {}, "1.7", "problem",
     ["the pool holds only non-avatar characters and up to two minor items, not The Witch-king"]),
    # a resource the card database calls an avatar (Sauron, The Lidless Eye): 1.5's resources or its avatars?
    ("a resource avatar where it decides 1.5: counted a resource, as the glossary says, and noted",
     REPORT.replace("Skies of Fire", "The Lidless Eye"), {}, "1.5", "note",
     ["The Lidless Eye is counted as a resource (the CoE glossary makes an avatar a character); were it counted as an "
      "avatar, the play deck would have 27 resources, 30 hazards and 2 cards that may be either (1.3.3): it must have "
      "at least 30 resources and as many hazards as resources, which counting those 2 either way does not give"]),
    ("two copies of a resource avatar where they decide 1.5: said of both",
     REPORT.replace("Skies of Fire", "Sauron").replace("Orc Quarrels (x3)", "Orc Quarrels (x2)\nSauron"), {}, "1.5",
     "note",
     ["the 2 copies of Sauron are counted as resources (the CoE glossary makes an avatar a character); were they "
      "counted as avatars, the play deck would have 26 resources, 30 hazards and 2 cards that may be either (1.3.3): "
      "it must have at least 30 resources and as many hazards as resources, which counting those 2 either way does not "
      "give; the play deck would have 4 avatars (Ûvatha the Ringwraith and Sauron): at most 3"]),
    ("a resource avatar where it decides 1.5: no problem", REPORT.replace("Skies of Fire", "The Lidless Eye"), {},
     "1.5",
     "problem", []),
    ("a resource avatar in the sideboard: nothing noted",
     REPORT.replace("Twilight (x2)", "Twilight (x2)\nThe Lidless Eye"),
     {}, "1.5", "note", []),
    ("a resource avatar where the play deck breaks 1.5 either way: not legal, nothing open",
     REPORT.replace("Skies of Fire", "The Lidless Eye").replace("Orc Quarrels (x3)\n", ""), {}, "1.5", "problem",
     ["the play deck has 25 resources, 30 hazards and 2 cards that may be either (1.3.3): it must have at least 30 "
      "resources and as many hazards as resources, which counting those 2 either way does not give"]),
    # what decides a finding on the location deck, and where a card stands (a judge's audit of tests/data/decks/audit)
    ("a minion Dark-hold for a Balrog: the site type that decides", SMALL_BALROG + "Urlurtsu Nurn [M]\n", {}, "1.4.B1",
     "problem",
     ["a Balrog player's location deck: Urlurtsu Nurn (a minion Dark-hold, which requires a Balrog version)"]),
    ("a minion Under-deeps site for a Balrog", SMALL_BALROG + "The Pûkel-deeps [M]\n", {}, "1.4.B1", "problem",
     ["a Balrog player's location deck: The Pûkel-deeps (a minion Under-deeps site, which requires a Balrog version)"]),
    ("the minion Dol Guldur for a Balrog: 1.4.B1 names it", SMALL_BALROG + "Dol Guldur [M]\n", {}, "1.4.B1", "problem",
     ["a Balrog player's location deck: Dol Guldur (a minion site 1.4.B1 names, which requires a Balrog version)"]),
    ("a hero item in a Balrog's sideboard: where it stands, and why the sideboard counts",
     SMALL_BALROG + "Sideboard:\nAiglos\n", {}, "1.3.B3", "problem",
     ["a Balrog player's resources: Aiglos (Hero Resource, in the sideboard); rule 1.6 holds a sideboard to the deck's "
      "player-specific restrictions"]),
    # a whole deck with no location deck says so; part of a deck, or a list with site lines not read, does not
    ("a whole deck with no location deck",
     variant(drop=tuple(FELLOWSHIP.split("Sites:\n")[1].splitlines()) + ("Sites:",)),
     {}, "1.4", "not checked",
     ["the list has no location deck: rule 1.4 and its parts (the sites each player may include) "
                                "not checked"]),
    ("a whole deck with its location deck", FELLOWSHIP, {}, "1.4", "not checked", []),
    ("part of a deck with no location deck", "Avatar:\nRadagast\n3 Dodge\n3 Concealment\n", {}, "1.4", "not checked",
     []),
    # a list no CoE deck can be: not judged
    ("more cards than a CoE deck can hold: not judged", "Concealment x90\nDoors of Night x90\n", {}, "", "not checked",
     ["every deck-construction rule (1.2 to 1.8): not judged, 180 cards besides its sites: more than a CoE deck can "
      "hold (at most 178: a pool of 15, a play deck of 113 and a sideboard of 50)"]),
    ("as many cards as a CoE deck can hold: judged", "Concealment x89\nDoors of Night x89\n", {}, "1.3.1", "problem",
     ["89 copies of Concealment (at most 3 in the deck)", "89 copies of Doors of Night (at most 3 in the deck)"]),
]
"""Findings whose words matter: each list's findings of one rule and status, exactly."""


def messages(findings: list[dict[str, Any]], rule: str, status: str) -> list[str]:
    return [f["message"] for f in findings if f["rule"] == rule and f["status"] == status]


@pytest.mark.parametrize("what,text,options,rule,status,says", VERDICTS, ids=[v[0] for v in VERDICTS])
def test_a_finding_names_what_fails(real_kb: Path, what: str, text: str, options: dict[str, str], rule: str,
                                    status: str,
                                    says: list[str]) -> None:
    report = deck_report(real_kb, text, **options)  # type: ignore[arg-type]
    assert not report.not_found and not report.ambiguous, (report.not_found, report.ambiguous)
    assert messages(report.findings, rule, status) == says


def test_an_untagged_site_takes_the_alignment_left(real_kb: Path) -> None:
    """1.4.F1: one hero and one minion copy of each site; an untagged Rivendell beside a minion one is the hero one."""
    report = deck_report(real_kb, SMALL_FW + "Sites:\nRivendell\nRivendell [M]\n")
    rivendell = next(e for e in report.cards + report.quiet if e["name"] == "Rivendell")
    assert sorted(c["alignment"] for c in rivendell["cards"]) == ["Hero", "Minion"]
    assert not [f for f in report.findings if f["rule"].startswith("1.4")]


def findings(report: DeckReport, rule: str, status: str = "problem") -> list[dict[str, Any]]:
    return [f for f in report.findings if f["rule"] == rule and f["status"] == status]


@pytest.mark.parametrize("what,text,options,rule,broken", CASES, ids=[c[0] for c in CASES])
def test_each_rule_breaks_and_holds(real_kb: Path, what: str, text: str, options: dict[str, str], rule: str,
                                    broken: bool) -> None:
    report = deck_report(real_kb, text, **options)  # type: ignore[arg-type]
    assert not report.not_found and not report.ambiguous, (report.not_found, report.ambiguous)
    if not rule:
        assert report.verdict == {"legal": True, "problems": 0, "open": 0, "not_checked": 0, "summary":
                                  "Legal: it keeps every deck-construction rule of the CoE rules",
                                  "scope": {"kind": "deck", "why": ""}}
        assert report.findings == [] and report.alignment["player"] == "hero"
        return
    found = findings(report, rule)
    assert bool(found) == broken, report.findings
    if broken:  # part of a deck says what it is first, and is neither legal nor not (legal None)
        whole = report.verdict["scope"]["kind"] == "deck"
        assert report.verdict["legal"] is (False if whole else None) and report.verdict["problems"]
        assert report.verdict["summary"].startswith("Not legal" if whole else "This list has no ")
        assert found[0]["lines"] and rule in report.rules  # its lines, and its text quoted
        assert report.rules[rule]["number"] == rule and report.rules[rule]["source"] == "coe-rules"


def test_a_finding_names_its_lines_and_cards(real_kb: Path) -> None:
    report = deck_report(real_kb, variant(add=("SB: Glamdring",)))
    (finding,) = report.findings
    lines = FELLOWSHIP.splitlines()
    assert finding == {"rule": "1.3.1", "status": "problem", "lines": [lines.index("1 Glamdring") + 1, len(lines) + 1],
                       "cards": ["Glamdring"],
                       "message": "2 copies of Glamdring, a unique card (at most 1 in the deck)"}
    assert report.verdict["summary"] == "Not legal: 1 problem"


def test_what_the_list_cannot_tell_is_not_checked(real_kb: Path) -> None:
    report = deck_report(real_kb, "Twilight\nDoors of Night\nNo Such Card Anywhere\n")
    assert (report.alignment["player"], report.alignment["sure"], report.readings) == ("", "unknown", [])
    unchecked = [f for f in report.findings if f["status"] == "not checked"]
    assert [f["rule"] for f in unchecked] == ["", "1.2", "1.5", "1.5.1"]  # no resources: part of a deck
    assert unchecked[0]["lines"] == [3] and "every count leaves them out" in unchecked[0]["message"]
    assert "give its alignment" in unchecked[1]["message"]
    assert not report.verdict["legal"]
    forced = deck_report(real_kb, "Characters:\nAragorn II\nShagrat\n", alignment="minion")
    assert {k: forced.alignment[k] for k in ("player", "name", "how", "sure")} == {
        "player": "minion", "name": "Ringwraith (minion)", "how": "--alignment", "sure": "decided"}
    assert [f["rule"] for f in forced.findings if f["rule"].startswith("1.3.R")] == ["1.3.R2"]


def test_no_alignment_fitting_every_card_is_not_legal_as_any(real_kb: Path) -> None:
    """Aragorn II is no Ringwraith's or Balrog's character, Shagrat no Wizard's, and no Stage resource makes it a
    Fallen-wizard's: whatever its alignment, a rule is broken, and the report checks it as each of those three."""
    report = deck_report(real_kb, "Characters:\nAragorn II\nShagrat\nResources:\nTwilight\nTidings of Death\n")
    assert (report.alignment["player"], report.alignment["sure"]) == ("", "split")
    assert [r["player"] for r in report.readings] == report.alignment["readings"] == ["hero", "minion", "balrog"]
    assert report.verdict["legal"] is False and report.verdict["summary"] == (
        "Not legal: as a Wizard (hero) deck, 3 problems, 1 check not made; as a Ringwraith (minion) deck, 3 problems, "
        "1 check not made; as a Balrog deck, 3 problems, 1 check not made")
    assert [[f["rule"] for f in r["findings"]] for r in report.readings] == [["1.3.W2"], ["1.3.R2"], ["1.3.B2"]]
    assert [f["rule"] for f in report.findings] == ["1.5", "1.5.1", "1.4"]  # those all share, given once


def test_whose_deck_it_is(real_kb: Path) -> None:
    def player(text: str) -> tuple[str, str]:
        a = deck_report(real_kb, text).alignment
        return a["player"], a["how"]

    assert player(FELLOWSHIP) == ("hero", "its avatar Gandalf (line 13): a Wizard (hero)")  # tagged [H]
    # an untagged Wizard's name is a Wizard's or a Fallen-wizard's: a list with no Stage resource is no Fallen-wizard's
    assert player("Gandalf\nConcealment\n") == (
        "hero", "its avatar Gandalf (line 1): a Wizard (hero) or a Fallen-wizard; no Stage resource, which a "
                "Fallen-wizard's pool must hold (1.7.F1)")
    # ... and a list with Stage resources, which no Wizard may include, is no Wizard's
    assert player("Gandalf\nBad Company\nThrall of the Voice\n") == (
        "fallen-wizard",
        "its avatar Gandalf (line 1): a Wizard (hero) or a Fallen-wizard; a Wizard (hero) deck may not "
                         "include Bad Company (line 2) and Thrall of the Voice (line 3) (rule 1.3.W3)")
    assert player("Fallen Radagast\n3 Dodge\nRing of Fire\n") == ("fallen-wizard", "its avatar Radagast (line 1): a "
                                                                                "Fallen-wizard")
    assert player("Saruman [F]\nConcealment\n") == ("fallen-wizard", "its avatar Saruman (line 1): a Fallen-wizard")
    # no avatar: the cards rule out the alignments whose rules they break
    assert player("Bad Company\nThrall of the Voice\nDodge\n")[0] == "fallen-wizard"
    assert player(SMALL_MINION)[0] == "minion" and player(SMALL_BALROG)[0] == "balrog"
    assert player("Twilight\nDoors of Night\n") == ("", "no avatar, tag or card says whose deck it is")
    # a deck played as Sauron says so (a resource the card database calls an avatar)
    at = REPORT.splitlines().index("Skies of Fire") + 1
    assert player(REPORT.replace("Skies of Fire", "The Lidless Eye")) == (
        "minion", f"its avatar Ûvatha the Ringwraith (line 12) and played as Sauron (The Lidless Eye, line {at}): a "
                  "Ringwraith (minion)")
    assert player("The Lidless Eye\nOrc-patrol\n") == ("minion",
                                                       "played as Sauron (The Lidless Eye, line 1): a Ringwraith "
                                                                  "(minion)")


NOT_A_DECK = "Gandalf\nSaruman\nRadagast\nConcealment x90\nDoors of Night x90\n"
"""Three Wizards and more cards than a CoE deck can hold (an Arda deck's like, tests/data/decks/audit)."""


def test_a_list_not_judged_claims_no_alignment(real_kb: Path) -> None:
    """A list that is no CoE deck is checked as no player's, so whose deck it is is not judged, whatever its avatars or
    --alignment say (they stay in the evidence)."""
    for options in ({}, {"alignment": "hero"}):
        report = deck_report(real_kb, NOT_A_DECK, **options)  # type: ignore[arg-type]
        a = report.alignment
        assert report.verdict["scope"]["kind"] == "not a deck" and report.readings == []
        assert (a["player"], a["name"], a["sure"], a["readings"]) == ("", "", "not judged", [])
        assert a["how"] == "the list is no CoE deck, so no player's rules apply"
        assert [e["cards"] for e in a["evidence"]] == [["Gandalf", "Saruman", "Radagast"]]
        assert whose_text(
            report) == "Whose deck it is is not judged: the list is no CoE deck, so no player's rules apply."


LEGAL = "Legal: it keeps every deck-construction rule of the CoE rules"


@pytest.mark.parametrize("name,stage", [("saruman-fallen.o8d", ["Thrall of the Voice", "Man of Skill"]),
                                        ("alatar-fallen.o8d", ["Thrall of the Voice", "Bow of Alatar"])])
def test_an_untagged_fallen_wizard_is_told_by_its_cards(real_kb: Path, name: str, stage: list[str]) -> None:
    """OCTGN prints avatars without a tag: a Fallen-wizard's Saruman or Alatar reads as a Wizard or a Fallen-wizard,
    and its Stage resources and minion characters, which no Wizard may include, decide (the lists' own comments
    check each rule by hand)."""
    text = (DECKS / name).read_text("utf-8-sig")
    report = deck_report(real_kb, text)
    assert (report.verdict["summary"], report.findings, report.readings) == (LEGAL, [], [])
    a = report.alignment
    assert (a["player"], a["sure"], a["readings"]) == ("fallen-wizard", "decided", ["fallen-wizard"])
    avatar, cards = a["evidence"]
    assert (avatar["kind"], avatar["players"], cards["kind"], cards["players"]) == (
        "avatar", ["hero", "fallen-wizard"], "cards", ["fallen-wizard"])
    lines = text.splitlines()
    at = [next(n for n, line in enumerate(lines, 1) if f">{card}<" in line) for card in [*stage, "Shagrat", "Radbug"]]
    # the first few cards and how many (a judge reads it at a glance), every one in the JSON
    assert cards["says"] == (f"a Wizard (hero) deck may not include 7 of its cards (rules 1.3.W2, 1.3.W3), such as "
                             f"{stage[0]} (line {at[0]}), {stage[1]} (line {at[1]}) and Shagrat (line {at[2]})")
    assert len(cards["cards"]) == 7 and cards["cards"][:4] == [*stage, "Shagrat", "Radbug"]
    assert sorted(cards["lines"]) == cards["lines"] and len(cards["lines"]) >= 7
    assert deck_report(real_kb, text, alignment="fallen-wizard").verdict["summary"] == LEGAL
    hero = deck_report(real_kb, text, alignment="hero")
    assert [f["rule"] for f in hero.findings] == ["1.3.W2", "1.3.W3", "1.5", "1.7"]


def test_a_list_two_alignments_fit_is_checked_as_each(real_kb: Path) -> None:
    """No avatar, and every card fits a Ringwraith's deck and a Balrog's: legal as the one, not as the other (its
    agent is a Balrog's hazard, 1.3.B2), and the verdict says both rather than guess (the list's comment checks it)."""
    report = deck_report(real_kb, (DECKS / "nine.txt").read_text("utf-8"))
    assert report.verdict == {"legal": None, "problems": 0, "open": 0, "not_checked": 0,
                              "summary": "Legal as a Ringwraith (minion) deck; as a Balrog deck, 1 problem",
                              "scope": {"kind": "deck", "why": ""}}
    a = report.alignment
    assert (a["player"], a["sure"], a["readings"]) == ("", "weak", ["minion", "balrog"])
    assert a["how"].endswith("every card fits a Ringwraith (minion) deck and a Balrog deck: checked as each")
    assert report.findings == []
    minion, balrog = report.readings
    assert (minion["player"], minion["verdict"]["summary"], minion["findings"]) == ("minion", LEGAL, [])
    assert [(f["rule"], f["message"]) for f in balrog["findings"]] == [
        ("1.5", "the play deck has 30 resources and 31 hazards: it must have as many hazards as resources")]
    assert "1.5" in report.rules  # a reading's rules are quoted too


def test_the_moria_of_a_balrog_deck_is_the_balrog_site(real_kb: Path) -> None:
    report = deck_report(real_kb, SMALL_BALROG)
    moria = next(e for e in report.cards + report.quiet if e["name"] == "Moria")
    assert moria["printings"] == ["BA-93"] and [c["alignment"] for c in moria["cards"]] == ["Balrog"]
    tagged = deck_report(real_kb, FELLOWSHIP.replace("\nMoria\n", "\nMoria [M]\n"))
    assert [f["rule"] for f in tagged.findings] == ["1.4.W1"]  # the tag asks for the minion site


def test_every_limit_is_the_stored_rules(real_kb: Path) -> None:
    conn = connect(real_kb)
    ids = Reader(real_kb).coe_rules(RULES)
    assert set(RULES) - {"1.2"} <= set(ids), set(RULES) - set(ids)  # every rule a finding cites is stored
    texts = {r["number"]: r["text"] for r in query(conn, "select number, text from rulings where source = 'coe-rules'")}
    words = {1: "one", 2: "two", 3: "three", 5: "five", 9: "9", 10: "10", 12: "12", 30: "30", 35: "35", 36: "36",
             40: "40", 50: "50"}
    for name, limit in LIMITS.items():
        text = texts[limit["rule"]]
        for key, value in limit.items():
            if key in ("rule", "other") or isinstance(value, list) and key != "names":
                continue
            if isinstance(value, int):
                assert re.search(rf"\b{words.get(value, value)}\b", text, re.I), (name, key, value, text)
            elif key == "names":
                for site in value:
                    assert site.lower().replace("-", " ") in text.lower().replace("-", " "), (name, site)


def test_lines_are_never_compared_with_each_other(real_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is linear in a list's lines: whose deck it is, the play deck and the pool sort the lines into
    parts once, never asking whether a line is among others (2,000 lines of "1 Gandalf" made 3,998,000 such
    comparisons, Entry.__eq__, before)."""
    calls = 0
    original = Entry.__eq__

    def counted(self: Entry, other: object) -> bool:
        nonlocal calls
        calls += 1
        return original(self, other)

    monkeypatch.setattr(Entry, "__eq__", counted)
    report = deck_report(real_kb, "1 Gandalf\n" * 2000)
    assert report.copies == 2000 and calls <= 2000

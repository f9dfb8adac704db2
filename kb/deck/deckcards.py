"""A deck's cards as the CoE deck-construction rules see them: each card's facts, each line's card, what the list
is and whose deck it is.

card_facts() reads once what the rules need to know of every card (the card database as kb.read.lookup's
Reader gives it, card_records, with the stored rules, coe_rules): from the card database (unique,
type, alignment, avatar, agent, mind, race, a creature or half of one, a haven, a minor or hoard item,
stage points, the player it is specific to), the cards whose text makes them manifestations of one
another, and the cards rules 1.5.F6 and 1.3.B5 ban, read from those rules' stored text. Then, for a
deck's card lines each read to its card name(s): versions() picks the printing each line means (the
card id the file gives, its set code, its alignment tag, its group, the player's alignment),
scope_of() tells a deck from part of one or no CoE deck, and whose_deck() finds the player's alignment
(`--alignment`, the file, the avatars, the cards that fit each alignment: alignment_rule). The numbers are
LIMITS, each with its rule (a test holds each number to the stored rule's text); kb.deck.deckrules checks
them. The browser's deck page executes the same steps (site/assets/deckcards.js, each function named
after the one it executes) over the same facts and limits, shipped in assets/deck-data.js.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.search.query import distance, fold

if TYPE_CHECKING:
    from kb.model import Card


LIMITS: dict[str, Any] = {
    "copies": {"rule": "1.3.1", "unique": 1, "other": 3},
    "agent_mind": {"rule": "1.3.2", "max": 36},
    "fallen_wizard_copies": {"rule": "1.3.F1", "stage": 3, "character": 2, "hero": 2, "minion": 2},
    "fallen_wizard_flexible": {"rule": "1.3.F2", "as_resources": 2},
    "play_deck": {"rule": "1.5", "resources_min": 30, "resources_max": 50, "characters": 10, "avatars": 3,
                  "different_avatars": 3},
    "creatures": {"rule": "1.5.1", "min": 12},
    "sideboard": {"rule": "1.6.1", "starter": 30, "short": 30, "long": 35, "campaign": 40, "fallen_wizard": 10},
    "sideboard_avatars": {"rule": "1.6.2", "repeated": 1},
    "pool": {"rule": "1.7", "characters": 10, "minor_items": 2},
    "fallen_wizard_pool": {"rule": "1.7.F1", "stage_cards": 3, "stage_points": 3},
    "location_deck": {"rule": "1.4", "site": 1},
    "balrog_sites": {"rule": "1.4.1", "names": ["Ancient Deep-hold", "The Wind-deeps", "The Drowning-deeps",
                                                 "The Rusted-deeps", "Remains of Thangorodrim"]},
    "balrog_versions": {"rule": "1.4.B1", "names": ["Moria", "Carn Dûm", "Dol Guldur", "Minas Morgul"]},
    "balrog_characters": {"rule": "1.3.B4", "mind_below": 9, "races": ["Orc", "Troll"],
                          "faction_races": ["Orc", "Troll", "Wolf", "Animal", "Dragon"]},
}
"""Each number the deck check holds a deck to, under the rule that sets it (kb/data's stored CoE rules)."""

GAMES = ("short", "long", "campaign", "starter")
"""The game lengths of rule 1.1 (short is the default), each with its sideboard size (LIMITS)."""
PLAYERS = ("hero", "minion", "fallen-wizard", "balrog")
"""The player a deck is for, by the card database's alignment of its avatars."""
PLAYER_NAMES = {"hero": "Wizard (hero)", "minion": "Ringwraith (minion)", "fallen-wizard": "Fallen-wizard",
                "balrog": "Balrog"}
PLAYER_OF = {"Hero": "hero", "Minion": "minion", "Fallen-wizard": "fallen-wizard", "Stage": "fallen-wizard",
             "Balrog": "balrog"}
"""The player a card's alignment speaks for."""
PREFERRED: dict[str, list[list[str]]] = {
    "hero": [["Hero"], ["Neutral", "Dual"]],
    "minion": [["Minion"], ["Neutral", "Dual"]],
    "fallen-wizard": [["Fallen-wizard", "Stage"], ["Neutral", "Dual"], ["Hero", "Minion"]],
    "balrog": [["Balrog"], ["Minion"], ["Neutral", "Dual"]],
}
"""The versions of a card a player's deck means when its line does not say (Moria in a Balrog deck is
the Balrog site): the first of these alignment tiers that any version is in."""
RULES = ("1.2", "1.3.1", "1.3.2", "1.3.3", "1.3.4", "1.3.W1", "1.3.W2", "1.3.W3", "1.3.R1", "1.3.R2", "1.3.R3",
         "1.3.F1", "1.3.F2", "1.3.F3", "1.3.F4", "1.5.F6", "1.3.B1", "1.3.B2", "1.3.B3", "1.3.B4", "1.3.B5", "1.4",
         "1.4.1", "1.4.W1", "1.4.R1", "1.4.F1", "1.4.B1", "1.5", "1.5.1", "1.6.1", "1.6.2", "1.7", "1.7.F1", "1.8.F1")
"""Every rule a finding may cite: the report quotes each from the stored CoE rules."""
BANS = {"fallen-wizard": "1.5.F6", "balrog": "1.3.B5"}
"""The rules that list cards a player may not include, read from their stored text (banned_cards)."""
BAN_FAMILIES = {"ringwraith unleashed cards": " Unleashed"}
"""An entry of a ban list that names a family of cards (folded), and how their English names end:
1.3.B5's "Ringwraith Unleashed cards" are the nine "... Unleashed" short-events."""
FLAGS = {"u": "unique", "a": "avatar", "g": "agent", "c": "creature", "e": "creature also playable as an event",
         "d": "Dragon manifestation (Ahunt, at Home)", "w": "Spawn permanent-event", "h": "haven", "y": "region",
         "i": "item", "n": "minor item", "o": "hoard item", "f": "faction", "r": "hazard playable as a resource",
         "z": "resource playable as a hazard", "p": "permanent-event", "x": "Under-deeps site", "k": "Dark-hold",
         "v": "resource avatar (Sauron, The Lidless Eye)", "F": "banned for a Fallen-wizard player",
         "B": "banned for a Balrog player"}
"""What each letter of a card's flags (CardFacts.flags) says of it."""
MANIFESTATION = re.compile(r"Manifestation of ([^.<]+?)\.")
DRAGON_MANIFESTATION = re.compile(r" (?:Ahunt|at Home)$", re.I)


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the deck rules need to know of one card (one printing of the card database)."""

    id: str
    name: str
    """The English name."""
    set_code: str
    type: str
    """Character, Resource, Hazard, Site or Region."""
    alignment: str
    """Hero, Minion, Fallen-wizard, Stage, Balrog, Dual or Neutral."""
    flags: str
    """Letters of FLAGS: "ua" a unique avatar, "c" a creature, "h" a haven, ..."""
    mind: int
    race: str
    stage: int
    """Stage points."""
    specific: str
    """The player or avatar it is specific to ("Balrog", "Gandalf"), or ""."""
    same: str
    """The name its manifestations share (the first of them by name), else its own name."""

    def has(self, letters: str) -> bool:
        return any(letter in self.flags for letter in letters)

    def row(self) -> list[Any]:
        return [self.id, self.name, self.set_code, self.type, self.alignment, self.flags, self.mind, self.race,
                self.stage, self.specific, self.same]


FACT_FIELDS = ("id", "name", "set_code", "type", "alignment", "flags", "mind", "race", "stage", "specific", "same")
"""The order of a card's facts in the browser's data (CardFacts.row)."""


def _value(attributes: dict[str, Any], key: str) -> str:
    value = attributes.get(key)
    if isinstance(value, dict):
        value = value.get("en")
    return "" if value is None or isinstance(value, bool) else str(value).strip()


def _number(text: str) -> int:
    m = re.match(r"-?\d+", text)
    return int(m.group(0)) if m else 0


def _flags(row: Card, a: dict[str, Any]) -> str:
    subtype = _value(a, "subtype")
    kind = row.type
    keywords: list[Any] = a["keywords"] if isinstance(a.get("keywords"), list) else []
    tests = {
        "u": bool(a.get("unique")), "a": a.get("avatar") is True, "g": a.get("agent") is True,
        "c": kind == "Hazard" and subtype == "Creature",
        "e": kind == "Hazard" and "Creature" in subtype and subtype != "Creature",
        "d": kind == "Hazard" and bool(DRAGON_MANIFESTATION.search(row.name)),
        "w": kind == "Hazard" and a.get("spawn") is True and subtype == "Permanent-event",
        "h": kind == "Site" and _value(a, "siteType") == "{H}", "y": kind == "Region",
        "i": "Item" in subtype, "n": subtype == "Minor Item" or a.get("playableAsStartingMinorItem") is True,
        "o": "Hoard Item" in keywords, "f": subtype == "Faction",
        "r": kind == "Hazard" and a.get("playableAsResource") is True,
        "z": kind == "Resource" and a.get("playableAsHazard") is True,
        "p": "Permanent-event" in subtype, "x": a.get("underDeeps") is True,
        "k": kind == "Site" and _value(a, "siteType") == "{D}",
        "v": kind == "Resource" and a.get("resourceAvatar") is True,
    }
    return "".join(letter for letter, yes in tests.items() if yes)


def manifestations(texts: dict[str, str], names: Iterable[str]) -> dict[str, str]:
    """Each English name -> the entity its manifestations share, named by the first name of the set (by
    name). Two cards are manifestations of one entity when the text of one says "Manifestation of X." (X
    a card's name, or several joined by "and", "or", commas; "hero X" is X), which the CoE glossary
    makes mutual ("if a card indicates that it is the manifestation of another card, the latter is also
    considered a manifestation of the former"), and a Dragon's "X Ahunt" and "X at Home" are
    manifestations of the Dragon X (g.man.3: "a Dragon manifestation (e.g. Ahunt, At Home, Roused, or
    the creature manifestation of the Dragon)"), whose texts do not say so. What the deck rules make of
    an entity's cards is _manifestations'."""
    names = list(names)
    by_key = {fold(n): n for n in names}
    parent = {n: n for n in names}

    def root(n: str) -> str:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    def join(name: str, other: str | None) -> None:
        if other and other != name:
            a, b = sorted((root(name), root(other)))
            parent[b] = a

    for name, text in texts.items():
        for m in MANIFESTATION.finditer(text):
            whole = fold(m.group(1))
            parts = [whole] if whole in by_key else [p for p in re.split(r",? (?:and|or) |, ", whole) if p]
            for part in parts:
                join(name, by_key.get(re.sub(r"^(?:hero|minion) ", "", part)))
    for name in names:
        join(name, by_key.get(fold(DRAGON_MANIFESTATION.sub("", name))) if DRAGON_MANIFESTATION.search(name) else None)
    return {n: root(n) for n in parent}


def banned_cards(rules: dict[str, str], names: dict[str, list[str]]) -> tuple[dict[str, set[str]],
                                                                              dict[str, list[str]]]:
    """For each player a rule bans cards for (BANS), the ids of the cards its stored text lists, one a
    paragraph after the first ("The Balrog (Ally)": the Balrog that is an ally; a family of cards by
    BAN_FAMILIES), and the entries that name no card. rules: each rule's stored text by number; names:
    each folded English name -> its cards' "id<TAB>subtype"."""
    banned: dict[str, set[str]] = {}
    unknown: dict[str, list[str]] = {}
    for player, number in BANS.items():
        banned[player], unknown[player] = set(), []
        for entry in (rules[number].split("\n\n")[1:] if number in rules else []):
            entry = entry.strip()
            m = re.match(r"^(.*?) \((\w+)\)$", entry)
            name, kind = (m.group(1), m.group(2)) if m else (entry, "")
            ids = [i for i in names.get(fold(name), []) if not kind or kind in i.split("\t")[1]]
            if not ids:  # the card database spells some names otherwise ("News Must Get Trough")
                near = [key for key in names if abs(len(key) - len(fold(name))) <= 2 and
                        distance(key, fold(name), 2) <= 2]
                ids = names[near[0]] if len(near) == 1 else []
            if fold(entry) in BAN_FAMILIES:
                ending = fold(BAN_FAMILIES[fold(entry)])
                ids = [i for key, cards in names.items() if key.endswith(" " + ending) for i in cards]
            if ids:
                banned[player].update(i.split("\t")[0] for i in ids)
            elif entry:
                unknown[player].append(entry)
    return banned, unknown


def card_facts(rows: list[Card], rules: dict[str, str]) -> tuple[list[CardFacts], dict[str, list[str]]]:
    """Every card's facts (rows: every printing, by set and id), and for each player whose banned cards a
    rule lists (rules: the stored text of each rule by number), the entries that name no card."""
    attrs: dict[str, dict[str, Any]] = {}
    for r in rows:
        extra = r.attributes if isinstance(r.attributes, dict) else json.loads(r.attributes or "{}")
        attrs[r.id] = extra.get("attributes", {}) if isinstance(extra, dict) else {}
    by_name: dict[str, list[str]] = {}
    for r in rows:
        by_name.setdefault(fold(r.name), []).append(f"{r.id}\t{_value(attrs[r.id], 'subtype')}")
    banned, unknown = banned_cards(rules, by_name)
    same = manifestations({r.name: r.text or "" for r in rows}, sorted({r.name for r in rows}))
    facts = []
    for r in rows:
        a = attrs[r.id]
        flags = _flags(r, a) + "".join(letter for letter, player in (("F", "fallen-wizard"), ("B", "balrog"))
                                       if r.id in banned[player])
        facts.append(CardFacts(r.id, r.name, r.set_code, r.type, r.alignment, flags,
                               _number(_value(a, "mind")), _value(a, "race"), _number(_value(a, "stagePoints")),
                               _value(a, "specific"), same[r.name]))
    return facts, unknown


# -- a deck's lines read to their cards -------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Entry:
    """A card line read: where it is, how many, and the printings it may mean."""

    line: int
    count: int
    part: str
    """pool, play, sideboard, fw-sideboard or sites (a line whose list does not say: by its card's type)."""
    group: str
    versions: list[CardFacts]
    """The printings it may mean, best first; empty when its name was not read."""
    typed: str


def versions(cards: list[CardFacts], set_code: str, tag: str, group: str, player: str) -> list[CardFacts]:
    """The printings a line means among its name's cards: each of its set code, its alignment tag, its
    group and the player's alignment (PREFERRED) narrows them, unless no printing would be left."""
    narrowed = cards
    if set_code:
        narrowed = [f for f in narrowed if f.set_code == set_code] or narrowed
    if tag:
        narrowed = [f for f in narrowed if f.alignment == tag or (tag, f.alignment) == ("Fallen-wizard", "Stage")] \
            or narrowed
    if group in GROUPS:
        narrowed = [f for f in narrowed if in_group(f, group)] or narrowed
    for tier in PREFERRED.get(player, []):
        kept = [f for f in narrowed if f.alignment in tier]
        if kept:
            return kept
    return narrowed


def site_alignments(entries: list[Entry], player: str) -> list[Entry]:
    """The entries, each site line of a Fallen-wizard's location deck that does not say hero or minion
    (Rivendell, both) taking the one its name's other lines have not taken (1.4.F1: "one copy of each hero
    site and one copy of each minion site"), when its one copy can take only one."""
    if player != "fallen-wizard":
        return entries
    by_name: dict[str, list[Entry]] = {}
    for e in entries:
        if e.versions and part_of(e.part, e.versions[0]) == "sites" and e.versions[0].type == "Site":
            by_name.setdefault(e.versions[0].name, []).append(e)
    chosen: dict[int, Entry] = {}
    for group in by_name.values():
        either = [e for e in group if site_sides(e) == {"Hero", "Minion"}]
        taken = {side for e in group for side in site_sides(e) if len(site_sides(e)) == 1}
        free = {"Hero", "Minion"} - taken
        if len(either) == 1 and either[0].count == 1 and len(free) == 1:
            e = either[0]
            chosen[id(e)] = Entry(e.line, e.count, e.part, e.group, [f for f in e.versions if f.alignment in free],
                                  e.typed)
    return [chosen.get(id(e), e) for e in entries]


def site_sides(e: Entry) -> set[str]:
    """The alignments, hero or minion, a site line may mean."""
    return {f.alignment for f in e.versions} & {"Hero", "Minion"}


def in_group(card: CardFacts, group: str) -> bool:
    """Whether a group holds a card (a hazard playable as a resource among the resources, an agent among the
    hazards)."""
    if group == "characters":
        return card.type == "Character"
    if group == "resources":
        return card.type == "Resource" or card.has("r")
    if group == "hazards":
        return card.type == "Hazard" or card.has("zg")
    return card.type in ("Site", "Region")


GROUPS = ("characters", "resources", "hazards", "sites")


def part_of(part: str, facts: CardFacts) -> str:
    """The part a card is in: a site or region in the location deck wherever it is listed, else the part
    its list gives, else the play deck."""
    if facts.type in ("Site", "Region"):
        return "sites"
    return part if part in ("pool", "play", "sideboard", "fw-sideboard") else "play"


@dataclass(frozen=True, slots=True)
class Evidence:
    """One thing a list says of whose deck it is (whose_deck)."""

    kind: str
    """option (`--alignment`), file (the file's own field), avatar (its avatars' printings, and the resources the
    card database calls avatars: played as Sauron), cards (cards an alignment's rules forbid, which rule it out) or
    stage (no Stage resource, which rules out a Fallen-wizard)."""
    players: tuple[str, ...]
    """The alignments it leaves, in PLAYERS order."""
    says: str
    """What it says, for people: its first few cards with their lines, and how many more."""
    lines: tuple[int, ...]
    cards: tuple[str, ...] = ()
    """Every card it names, each once (says names the first few)."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "players": list(self.players), "says": self.says, "lines": list(self.lines),
                "cards": list(self.cards)}


SURE = ("decided", "weak", "split", "unknown", "not judged")
"""How sure whose_deck is: decided (one alignment), weak (several fit every card: the deck is checked as
each), split (none fits every card: checked as those whose rules the fewest copies break), unknown
(nothing tells the alignments apart: the player's own rules are not checked), not judged (the list is no CoE
deck, scope_of: no player's rules apply, whatever its avatars)."""


@dataclass(frozen=True, slots=True)
class Whose:
    """Whose deck a list is (whose_deck): the alignments it is checked as, how sure, and the evidence."""

    players: tuple[str, ...]
    """One when decided; several when the evidence is weak or split; none when nothing says."""
    sure: str
    """One of SURE."""
    evidence: tuple[Evidence, ...]

    @property
    def how(self) -> str:
        """The evidence in one sentence: "its avatar Saruman (line 3), a Wizard or a Fallen-wizard; ..."."""
        if self.sure == "unknown":
            return "no avatar, tag or card says whose deck it is"
        if self.sure == "not judged":
            return "the list is no CoE deck, so no player's rules apply"
        said = [e.says for e in self.evidence]
        if self.sure == "weak":
            said.append(f"every card fits {' and '.join(a_name(PLAYER_NAMES[p]) + ' deck' for p in self.players)}: "
                        "checked as each")
        elif self.sure == "split":
            said.append("no alignment fits every card: checked as " + ("each of those" if len(self.players) > 1 else
                                                                       "the one")
                        + " whose rules the fewest copies break")
        return "; ".join(said)

    def to_json(self) -> dict[str, Any]:
        """The report's "alignment": {player, name, how, sure, readings, evidence} (player "" unless decided)."""
        player = self.players[0] if len(self.players) == 1 else ""
        return {"player": player, "name": PLAYER_NAMES.get(player, ""), "how": self.how, "sure": self.sure,
                "readings": list(self.players), "evidence": [e.to_json() for e in self.evidence]}


def whose_deck(entries: list[Entry], forced: str = "", declared: str = "", scope: Scope | None = None) -> Whose:
    """Whose deck a list is, from all it says (entries: its lines, each with every printing its name, set,
    tag and group allow): none for a list that is no CoE deck (scope: not judged, its avatars the evidence);
    `--alignment` or the file's own field decide; else its avatars (and the resources the card database calls
    avatars, Sauron's) leave the alignments their printings are of (an untagged Saruman: a Wizard or a
    Fallen-wizard; any, without an avatar); a list with no Stage resource is no Fallen-wizard's (1.7.F1: its
    pool holds Stage resources) unless nothing else is left; then each alignment left whose rules some card
    breaks (alignment_rule: a Stage resource in a Wizard's deck, a minion site in a hero's) is ruled out by
    those cards. One alignment left: decided. Several: weak, checked as each (unknown, none, when no
    avatar nor card told any apart). None: split, checked as those the fewest copies break."""
    avatars = [e for e in entries if e.versions and all(f.has("a") and f.type == "Character" for f in e.versions)]
    sauron = [e for e in entries if e.versions and all(f.has("v") for f in e.versions)]
    candidates, evidence = _avatar_evidence(avatars, sauron)
    if scope is not None and scope.kind == "not a deck":
        return Whose((), "not judged", tuple(evidence))
    if forced or declared:
        player = forced or declared
        return Whose((player,), "decided", (Evidence("option" if forced else "file", (player,),
                                                     "--alignment" if forced else "the file says so", ()),))
    if len(candidates) > 1 and "fallen-wizard" in candidates and \
            not any(f.alignment == "Stage" for e in entries for f in e.versions):
        candidates = [p for p in candidates if p != "fallen-wizard"]
        evidence.append(Evidence("stage", tuple(candidates), "no Stage resource, which a Fallen-wizard's pool must "
                                                             "hold (1.7.F1)", ()))
    if len(candidates) == 1:
        return Whose(tuple(candidates), "decided", tuple(evidence))
    chosen = {id(e) for e in avatars}
    others = [e for e in entries if e.versions and id(e) not in chosen]
    names = frozenset(f.name for e in avatars for f in e.versions)
    misfits = {p: [(e, rule) for e in others if (rule := alignment_rule(e, p, names))] for p in candidates}
    for p in candidates:
        if misfits[p]:
            evidence.append(_misfit_evidence(p, misfits[p], [q for q in candidates if q != p]))
    fits = [p for p in candidates if not misfits[p]]
    if len(fits) == 1:
        return Whose(tuple(fits), "decided", tuple(evidence))
    if fits:
        told = avatars or sauron or any(e.kind == "cards" for e in evidence)
        return Whose(tuple(fits) if told else (), "weak" if told else "unknown", tuple(evidence))
    least = min(total(e for e, _ in misfits[p]) for p in candidates)
    return Whose(tuple(p for p in candidates if total(e for e, _ in misfits[p]) == least), "split", tuple(evidence))


def _avatar_evidence(avatars: list[Entry], sauron: list[Entry]) -> tuple[list[str], list[Evidence]]:
    """The alignments a list's avatars and its resources the card database calls avatars (Sauron's) leave
    (those all their lines' printings share; of any line, when they share none), and the evidence, or every
    alignment and none when it has neither."""
    if not avatars and not sauron:
        return list(PLAYERS), []
    each = [{PLAYER_OF.get(f.alignment, "") for f in e.versions} - {""} for e in avatars + sauron]
    shared = set.intersection(*each) or set.union(*each)
    candidates = [p for p in PLAYERS if p in shared]
    what = " or ".join(a_name(PLAYER_NAMES[p]) for p in candidates)
    said = [f"its avatar{'s' if len(avatars) > 1 else ''} {named(avatars, lines=True)}"] if avatars else []
    if sauron:
        said.append(f"played as Sauron ({named(sauron, lines=True, comma=True)})")
    return candidates, [Evidence("avatar", tuple(candidates), f"{' and '.join(said)}: {what}",
                                 tuple(e.line for e in avatars + sauron), _names(avatars + sauron))]


def _misfit_evidence(player: str, misfits: list[tuple[Entry, str]], left: list[str]) -> Evidence:
    """The evidence that rules a player out: the cards its rules forbid, the first few of them with their
    lines and how many in all (every one in the JSON), and those rules."""
    rules = sorted(dict.fromkeys(rule for _, rule in misfits), key=RULES.index)
    entries = [e for e, _ in misfits]
    cards = _names(entries)
    which = f"rule{'s' if len(rules) > 1 else ''} {', '.join(rules)}"
    said = f"{named(entries, lines=True)} ({which})" if len(cards) <= EVIDENCE_CARDS else \
        f"{len(cards)} of its cards ({which}), such as {named(entries, EVIDENCE_CARDS, lines=True, more=False)}"
    return Evidence("cards", tuple(left), f"{a_name(PLAYER_NAMES[player])} deck may not include {said}",
                    tuple(e.line for e in entries), cards)


EVIDENCE_CARDS = 3
"""The cards an alignment's evidence names (the JSON lists them all): "a Wizard (hero) deck may not include 123 of
its cards (rules 1.3.W2, 1.3.W3), such as Ill-favoured Fellow (lines 11, 12, 57), Náin (line 14) and Uglúk (line
15)"."""


def _names(entries: list[Entry]) -> tuple[str, ...]:
    """The cards of some lines, each once, in order."""
    return tuple(dict.fromkeys(e.versions[0].name if e.versions else e.typed for e in entries))


def a_name(name: str) -> str:
    """ "a Wizard (hero)", "a Fallen-wizard"."""
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def named(entries: list[Entry], limit: int = 5, lines: bool = False, comma: bool = False, more: bool = True) -> str:
    """The cards of some lines, each once, for people: "The Witch-king, Glamdring and 3 more"; with lines,
    "The Witch-king (line 4), Glamdring (lines 9, 12)", or with comma too "Sauron, line 21; The Lidless Eye, line
    41"; without more, the first `limit` only."""
    at: dict[str, list[int]] = {}
    for e in entries:
        at.setdefault(e.versions[0].name if e.versions else e.typed, []).append(e.line)
    shown = []
    for name, ns in list(at.items())[:limit]:
        where = f"line{'s' if len(ns) > 1 else ''} {', '.join(map(str, ns[:3]))}{', ...' if len(ns) > 3 else ''}"
        shown.append(name if not lines else f"{name}, {where}" if comma else f"{name} ({where})")
    if len(at) > len(shown) and more:
        return ("; " if comma else ", ").join(shown) + f" and {len(at) - len(shown)} more"
    return "; ".join(shown) if comma else listed(shown)


def total(entries: Iterable[Entry]) -> int:
    return sum(e.count for e in entries)


# -- what a list is: a deck, a part of one, or no CoE deck ----------------------------------------------------

SCOPES = ("deck", "part", "not a deck")
"""What a list is checked as (scope_of): a whole CoE deck; part of one (it has no hazards, or no resources), whose
minimums (30 resources, as many hazards, 12 creatures, ...) its other parts may reach, so they are not judged; or
no CoE deck at all (more cards than one can hold), not judged."""
NOT_JUDGED = "not judged on part of a deck"


@dataclass(frozen=True, slots=True)
class Scope:
    """What a list is checked as (scope_of), and why."""

    kind: str
    """One of SCOPES."""
    why: str
    """What makes it so, for people: "this list has no hazards"; "" for a deck."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "why": self.why}


DECK = Scope("deck", "")


def most_cards() -> dict[str, int]:
    """The most cards besides its sites a CoE deck can hold, part by part (LIMITS): its pool (1.7, and 1.7.F1's
    Stage resources), its play deck (1.5) and its sideboard (1.6.1): {"pool": 15, "play deck": 113, "sideboard": 50}."""
    pool, play, side = LIMITS["pool"], LIMITS["play_deck"], LIMITS["sideboard"]
    return {"pool": pool["characters"] + pool["minor_items"] + LIMITS["fallen_wizard_pool"]["stage_cards"],
            "play deck": 2 * play["resources_max"] + play["characters"] + play["avatars"],
            "sideboard": max(side[game] for game in GAMES) + side["fallen_wizard"]}


def scope_of(entries: list[Entry]) -> Scope:
    """What a list is (its lines read, each card by its first printing): no CoE deck when it holds more cards
    besides its sites than any CoE deck can (most_cards: an Arda deck of 859); part of a deck when it has no
    hazard or no resource card at all (a player's half of a solo scenario, a hazard portion); else a deck."""
    read = [e for e in entries if e.versions]
    cards, most = total(e for e in read if e.versions[0].type not in ("Site", "Region")), most_cards()
    if cards > sum(most.values()):
        parts = listed([f"a {part} of {n}" for part, n in most.items()])
        return Scope("not a deck", f"{cards} cards besides its sites: more than a CoE deck can hold (at most "
                                   f"{sum(most.values())}: {parts})")
    lacks = [f"no {kind.lower()}s" for kind in ("Hazard", "Resource")
             if not any(e.versions[0].type == kind for e in read)]
    return Scope("part", f"this list has {' and '.join(lacks)}") if lacks else DECK


def listed(words: list[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words)


def agent_is_hazard(card: CardFacts, player: str) -> bool:
    """An agent character is a hazard for a Wizard or Balrog player (1.3.W2, 1.3.B2), a character otherwise;
    a hazard agent is a hazard."""
    return card.has("g") and (card.type == "Hazard" or player in ("hero", "balrog"))


# -- the cards each player's alignment allows ---------------------------------------------------------------

PLAYER_RULES = {"hero": ("1.3.W1", "1.3.W2", "1.3.W3", "1.4.W1"), "minion": ("1.3.R1", "1.3.R2", "1.3.R3", "1.4.R1"),
                "fallen-wizard": ("1.3.F3", "1.3.F4", "", "1.4.F1"), "balrog": ("1.3.B1", "1.3.B2", "1.3.B3", "1.4.B1")}
"""The rules a player's avatars, characters, resources and sites keep to (a Fallen-wizard's resources: none)."""
OWN = {"hero": "Hero", "minion": "Minion", "fallen-wizard": "Fallen-wizard", "balrog": "Balrog"}
"""The alignment of a player's avatars."""
OWN_RESOURCES = {"hero": ("Hero", "Dual"), "minion": ("Minion", "Dual"), "balrog": ("Minion", "Dual")}
"""The alignments of a player's own resources."""


BALROG_SITES = frozenset(fold(n) for n in LIMITS["balrog_sites"]["names"])
NEEDS_BALROG = frozenset(fold(n) for n in LIMITS["balrog_versions"]["names"])
"""The sites of 1.4.1 any player's location deck may hold, and those 1.4.B1 asks a Balrog's version of (folded)."""


def alignment_rule(e: Entry, player: str, avatars: frozenset[str]) -> str:
    """The rule an entry breaks in a player's deck, or "": its avatar's, character's, resource's or
    (in the location deck) site's alignment, else a ban (BANS), else 1.3.4 (_specific, avatars: the
    names of the deck's avatars)."""
    cards = e.versions
    avatar_rule, character_rule, resource_rule, site_rule = PLAYER_RULES[player]
    rule = ""
    if cards[0].type == "Character" and cards[0].has("a"):
        rule = "" if any(c.alignment == OWN[player] for c in cards) else avatar_rule
    elif cards[0].type == "Character" and not agent_is_hazard(cards[0], player):  # 1.3.W2, 1.3.B2: a hazard
        rule = _character_rule(cards, player, character_rule)
    elif cards[0].type == "Resource" and resource_rule:
        rule = _resource_rule(cards, player, resource_rule)
    elif cards[0].type == "Site" and part_of(e.part, cards[0]) == "sites":
        rule = "" if any(site_allowed(c, player) for c in cards) else site_rule
    if not rule and player in BANS and all(c.has("F" if player == "fallen-wizard" else "B") for c in cards):
        rule = BANS[player]
    if not rule and any(c.specific for c in cards):
        rule = _specific(cards, player, avatars)
    return rule


def _character_rule(cards: list[CardFacts], player: str, rule: str) -> str:
    """`rule` when no version of a character is of the player's alignment (a Wizard's: hero or agent;
    a Fallen-wizard's: hero or minion), 1.3.B4 for a Balrog's that is no Orc or Troll of mind under 9
    (unless Balrog-specific), else ""."""
    if player == "hero":
        ok = any(c.alignment == "Hero" or c.has("g") for c in cards)
    elif player == "fallen-wizard":
        ok = any(c.alignment in ("Hero", "Minion") for c in cards)
    else:
        ok = any(c.alignment == "Minion" for c in cards)
    if not ok:
        return rule
    if player != "balrog":
        return ""
    b4 = LIMITS["balrog_characters"]
    fits = any(any(r in c.race for r in b4["races"]) and (c.mind < b4["mind_below"] or c.specific == "Balrog")
               for c in cards)
    return "" if fits else str(b4["rule"])


def _resource_rule(cards: list[CardFacts], player: str, rule: str) -> str:
    """`rule` when no version of a resource is the player's own (or an item of the other alignment),
    1.3.B4 for a Balrog's faction of no race it allows, else ""."""
    other = {"hero": "Minion", "minion": "Hero"}.get(player, "")
    if not any(c.alignment in OWN_RESOURCES.get(player, ()) or (other and c.alignment == other and c.has("i"))
               for c in cards):
        return rule
    if player != "balrog" or not cards[0].has("f"):
        return ""
    b4 = LIMITS["balrog_characters"]
    return "" if any(c.race in b4["faction_races"] for c in cards) else str(b4["rule"])


def site_allowed(card: CardFacts, player: str) -> bool:
    if card.alignment == "Balrog" and fold(card.name) in BALROG_SITES:
        return True
    if player == "hero":
        return card.alignment == "Hero"
    if player == "minion":
        return card.alignment == "Minion"
    if player == "fallen-wizard":
        return card.alignment in ("Hero", "Minion", "Fallen-wizard")
    if card.alignment == "Balrog":
        return True
    return card.alignment == "Minion" and fold(card.name) not in NEEDS_BALROG and not card.has("xk")


def _specific(cards: list[CardFacts], player: str, avatars: frozenset[str]) -> str:
    """1.3.4 when a card is specific to a player the deck is not for, or to an avatar it does not hold."""
    specific = cards[0].specific
    if specific == "Balrog":
        return "" if player == "balrog" else "1.3.4"
    return "" if player == "fallen-wizard" and specific in avatars else "1.3.4"

"""The Council of Elrond's deck-construction rules (CoE rules, section 1) checked on a decklist, each finding citing its
rule.

For a deck's lines read to their cards (kb.deck.deckcards: each line's card, what the list is, whose deck it is),
check() gives every finding: a problem (the rule, what is wrong, the lines), or a rule not checked (and
why); every other rule of LIMITS holds. verdict() and verdicts() sum the findings up, once or for each
alignment the deck is checked as. The browser's deck page executes the same steps
(site/assets/deckrules.js, each function named after the one it executes) over the same facts and limits,
shipped in assets/deck-data.js.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.deck.deckcards import (BANS, DECK, LIMITS, NOT_JUDGED, PLAYER_NAMES, PLAYER_RULES, RULES, CardFacts, Entry,
                               Scope, a_name, agent_is_hazard, alignment_rule, listed, named, part_of, site_sides,
                               total)
from kb.deck.decklist import SIDEBOARDS


# -- the rules ------------------------------------------------------------------------------------------------

STATUSES = ("problem", "open", "not checked", "note")
"""What a finding says, in the order the report gives them: a rule the deck breaks; a question the rules
leave open (neither a problem nor passed); a rule that could not be checked, and why; a note on how the
list was checked, which is no problem."""


@dataclass(slots=True)
class Findings:
    """What check() finds, rule by rule."""

    out: list[dict[str, Any]]
    part: bool = False
    """Whether the list is checked as part of a deck (scope_of): a minimum it does not reach is not judged."""

    def add(self, status: str, rule: str, message: str, entries: Iterable[Entry]) -> None:
        chosen = list(entries)
        self.out.append({"rule": rule, "status": status, "message": message,
                         "lines": sorted({e.line for e in chosen}),
                         "cards": [] if status == "not checked" else
                         list(dict.fromkeys(e.versions[0].name for e in chosen if e.versions))})

    def problem(self, rule: str, message: str, entries: Iterable[Entry]) -> None:
        self.add("problem", rule, message, entries)

    def short(self, rule: str, message: str, entries: Iterable[Entry]) -> None:
        """A minimum the deck does not reach (30 resources, as many hazards, 12 creatures, its Fallen-wizard
        avatar): a problem; on part of a deck, whose other parts may reach it, a check not made."""
        if self.part:
            self.add("not checked", rule, f"{message} ({NOT_JUDGED})", entries)
        else:
            self.problem(rule, message, entries)

    def open(self, rule: str, message: str, entries: Iterable[Entry]) -> None:
        self.add("open", rule, message, entries)

    def unchecked(self, rule: str, message: str, entries: Iterable[Entry] = ()) -> None:
        self.add("not checked", rule, message, entries)

    def note(self, rule: str, message: str, entries: Iterable[Entry]) -> None:
        self.add("note", rule, message, entries)


def counted(n: int, noun: str, plural: str = "") -> str:
    """counted(1, "card") == "1 card", counted(2, "copy", "copies") == "2 copies"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def check(entries: list[Entry], player: str, game: str = "short", unread: Iterable[Entry] = (),
          unknown_bans: dict[str, list[str]] | None = None, why: str = "", scope: Scope = DECK) -> list[dict[str, Any]]:
    """Every finding on a deck checked as one player's: its problems, each with its rule, what is wrong
    and its lines, the questions the rules leave open, the rules not checked with the reason, and notes
    (in STATUSES order, then rule order). Part of a deck (scope) is held to every rule but the minimums its
    other parts may reach; a list that is no CoE deck to none."""
    if scope.kind == "not a deck":
        return [{"rule": "", "status": "not checked", "message": f"every deck-construction rule (1.2 to 1.8): not "
                 f"judged, {scope.why}", "lines": [], "cards": []}]
    f = Findings([], scope.kind == "part")
    read = [e for e in entries if e.versions]
    missing = list(unread)
    if missing:
        f.unchecked("", f"{counted(len(missing), 'line')} {'names' if len(missing) == 1 else 'name'} no card or "
                        "could be several cards: every count leaves them out", missing)
    if not player:
        f.unchecked("1.2", f"whose deck it is: {why}; the rules of one player (the alignment of its avatars, "
                           "characters, resources and sites; agents as hazards) are not checked: give its alignment")
    _copies(f, read, player)
    _agents(f, read)
    _play_deck(f, read, player)
    _sideboard(f, read, game)
    _pool(f, read, player)
    _pool_sites(f, read)
    _locations(f, read, player)
    if player:
        _alignment(f, read, player, (unknown_bans or {}).get(player, []))
    if player == "fallen-wizard":
        _declared_avatar(f, read)
    order = {rule: n for n, rule in enumerate(RULES)}
    f.out.sort(key=lambda x: (STATUSES.index(x["status"]), order.get(x["rule"], -1)))
    return f.out


def _in(entries: list[Entry], *parts: str) -> list[Entry]:
    return [e for e in entries if part_of(e.part, e.versions[0]) in parts]


def _copies(f: Findings, entries: list[Entry], player: str) -> None:
    """1.3.1 and 1.3.F1 on the copies of each card (by its English name) across the deck, then
    _manifestations on the cards that are manifestations of one entity."""
    limit, fw = LIMITS["copies"], LIMITS["fallen_wizard_copies"]
    groups: dict[str, list[Entry]] = {}
    for e in _in(entries, "pool", "play", "sideboard", "fw-sideboard"):
        groups.setdefault(e.versions[0].name, []).append(e)
    for name, group in groups.items():
        n, card = total(group), group[0].versions[0]
        if card.has("u") and not card.has("a") and n > limit["unique"]:
            f.problem(limit["rule"], f"{n} copies of {name}, a unique card (at most {limit['unique']} in the deck)",
                      group)
        elif not card.has("u") and n > limit["other"]:
            f.problem(limit["rule"], f"{n} copies of {name} (at most {limit['other']} in the deck)", group)
        elif player == "fallen-wizard" and not card.has("u"):
            kind = "stage" if card.alignment == "Stage" else "character" if card.type == "Character" else \
                "hero" if card.type == "Resource" and card.alignment == "Hero" else \
                "minion" if card.type == "Resource" and card.alignment == "Minion" else ""
            if kind and n > fw[kind]:
                what = {"stage": "Stage resource", "character": "character", "hero": "hero resource",
                        "minion": "minion resource"}[kind]
                f.problem(fw["rule"], f"{n} copies of {name}, a non-unique {what} (a Fallen-wizard player may "
                                      f"include at most {fw[kind]})", group)
    _manifestations(f, groups)


def _manifestations(f: Findings, groups: dict[str, list[Entry]]) -> None:
    """1.3.1 on the unique non-avatar cards of the deck that are manifestations of one entity
    (manifestations), each held to the rules' words:
    - two or more resources (Gollum and Stinker): one card, a problem past one copy. 1.3.1: "Manifestations
      of the same unique resource are treated as the same unique card"; CRF 22 (Manifestations): "A
      Fallen-wizard may not have two resource manifestations of the same unique resource in his deck (nor
      may any other player)".
    - a resource and a hazard or character (Smaug Roused and Smaug, Smaug Ahunt or Smaug at Home; Mistress
      Lobelia and Lobelia Sackville-Baggins): open, and the finding says so. The glossary makes the hazard
      a manifestation of the unique resource (its text names the resource, or the resource's names it),
      so 1.3.1's words may take in both; CRF 22 speaks only of two *resource* manifestations.
    - hazards or characters only (Smaug, Smaug Ahunt and Smaug at Home; Aragorn II and Strider): each
      its own unique card. 1.3.1 joins only manifestations of a unique resource, and Strider's own text
      ("You may bring Aragorn II into play with Strider's company") has both in one deck."""
    rule = LIMITS["copies"]["rule"]
    entities: dict[str, list[str]] = {}
    for name, group in groups.items():
        card = group[0].versions[0]
        if card.has("u") and not card.has("a"):
            entities.setdefault(card.same, []).append(name)
    for names in entities.values():
        resources = [n for n in names if groups[n][0].versions[0].type == "Resource"]
        others = [n for n in names if n not in resources]
        if len(resources) > 1:
            group = [e for n in resources for e in groups[n]]
            f.problem(rule, f"{total(group)} copies of {' / '.join(resources)}, manifestations of one unique resource: "
                            "one unique card (at most 1 in the deck)", group)
        if resources and others:
            kinds = [f"{listed(same)} ({'a ' if len(same) == 1 else ''}{kind.lower()}{'s' if len(same) > 1 else ''})"
                     for kind in ("Resource", "Hazard", "Character")
                     if (same := [n for n in names if groups[n][0].versions[0].type == kind])]
            f.open(rule, f"the rules leave open whether {listed(kinds)}, manifestations of one another, count as one "
                         "unique card: 1.3.1 makes one card of the manifestations of a unique resource, and CRF 22 "
                         "speaks only of two resource manifestations", [e for n in names for e in groups[n]])


def _agents(f: Findings, entries: list[Entry]) -> None:
    limit = LIMITS["agent_mind"]
    agents = [e for e in _in(entries, "pool", "play", "sideboard", "fw-sideboard") if e.versions[0].has("g")]
    mind = sum(e.count * e.versions[0].mind for e in agents)
    if mind > limit["max"]:
        f.problem(limit["rule"], f"the agents' mind totals {mind} (at most {limit['max']} in the deck)", agents)


PLAY_GROUPS = ("resources", "hazards", "flexible", "characters", "avatars", "resource avatars")
"""How 1.5 counts a play deck's cards (_play_groups)."""


def _play_groups(entries: list[Entry], player: str) -> dict[str, list[Entry]]:
    """The play deck's lines in PLAY_GROUPS: avatar characters, agents as hazards for a Wizard or Balrog, other
    characters, cards that may be either (1.3.3), the resources the card database calls avatars (Sauron, The
    Lidless Eye), other resources, hazards."""
    groups: dict[str, list[Entry]] = {name: [] for name in PLAY_GROUPS}
    for e in _in(entries, "play"):
        card = e.versions[0]
        if card.type == "Character" and card.has("a"):
            groups["avatars"].append(e)
        elif agent_is_hazard(card, player):
            groups["hazards"].append(e)
        elif card.type == "Character":
            groups["characters"].append(e)
        elif card.has("rz"):
            groups["flexible"].append(e)
        elif card.type == "Resource":
            groups["resource avatars" if card.has("v") else "resources"].append(e)
        elif card.type == "Hazard":
            groups["hazards"].append(e)
    return groups


def _play_deck(f: Findings, entries: list[Entry], player: str) -> None:
    limit = LIMITS["play_deck"]
    groups = _play_groups(entries, player)
    characters = groups["characters"]
    _resource_avatars(f, groups, player)
    if total(characters) > limit["characters"]:
        note = "" if any(e.part == "pool" for e in entries) else " (the list marks no pool: mark the pool's characters)"
        f.problem(limit["rule"], f"{counted(total(characters), 'non-avatar character')} in the play deck "
                                 f"(at most {limit['characters']}){note}", characters)
    _creatures(f, groups["hazards"], player)


def _resource_avatars(f: Findings, groups: dict[str, list[Entry]], player: str) -> None:
    """1.5's resources, hazards and avatars, a resource the card database calls an avatar (Sauron, The Lidless
    Eye: "You are Sauron, not a Ringwraith") counted among the resources, as its type says: the CoE glossary
    makes an avatar "a type of character", and it is a permanent-event. Where counting it among 1.5's "up
    to three avatars" instead would change whether the play deck keeps 1.5, a note says how it was
    counted, why, and what the other count would give."""
    resources, hazards, flexible = groups["resources"], groups["hazards"], groups["flexible"]
    avatars, others = groups["avatars"], groups["resource avatars"]
    as_resources = Findings([], f.part)
    _balance(as_resources, resources + others, hazards, flexible, player)
    _avatars(as_resources, avatars)
    if others:
        as_avatars = Findings([], f.part)
        _balance(as_avatars, resources, hazards, flexible, player, would=True)
        _avatars(as_avatars, avatars + others, would=True)
        said = [[x["message"] for x in way.out if x["status"] == "problem"] for way in (as_resources, as_avatars)]
        if bool(said[0]) != bool(said[1]):
            one, names = total(others) == 1, {e.versions[0].name for e in others}
            which = f"the {total(others)} copies of {named(others)}" if len(names) == 1 and not one else named(others)
            f.note(LIMITS["play_deck"]["rule"], f"{which} {'is' if one else 'are'} counted as "
                   f"{'a resource' if one else 'resources'} (the CoE glossary makes an avatar a character); were "
                   f"{'it' if one else 'they'} counted as {'an avatar' if one else 'avatars'}, "
                   f"{'; '.join(said[1]) or 'the play deck would keep 1.5'}", others)
    f.out += as_resources.out


def _avatars(f: Findings, avatars: list[Entry], would: bool = False) -> None:
    """1.5: up to three avatars in the play deck, any combination but three different ones (would: said of a
    count the deck was not checked by, _resource_avatars)."""
    limit = LIMITS["play_deck"]
    has = "would have" if would else "has"
    if total(avatars) > limit["avatars"]:
        f.problem(limit["rule"], f"the play deck {has} {counted(total(avatars), 'avatar')} ({named(avatars)}): at most "
                                 f"{limit['avatars']}", avatars)
    names = sorted({e.versions[0].name for e in avatars})
    if len(names) >= limit["different_avatars"]:
        f.problem(limit["rule"], f"the play deck {has} {len(names)} different avatars ({', '.join(names)}): any "
                                 "combination but three different avatars", avatars)


def _balance(f: Findings, resources: list[Entry], hazards: list[Entry], flexible: list[Entry], player: str,
             would: bool = False) -> None:
    """1.5: 30 to 50 resources and as many hazards, each card that may be either (1.3.3) counted as a
    resource or a hazard as suits the deck (a Fallen-wizard's, up to two of each as resources, 1.3.F2): one
    finding, saying what the play deck has and what it must have (would: said of a count the deck was not
    checked by, _resource_avatars)."""
    limit, flexible_limit = LIMITS["play_deck"], LIMITS["fallen_wizard_flexible"]
    by_name: dict[str, int] = {}
    for e in flexible:
        by_name[e.versions[0].name] = by_name.get(e.versions[0].name, 0) + e.count
    flex_max = sum(min(n, flexible_limit["as_resources"]) if player == "fallen-wizard" else n for n in by_name.values())
    r, h, x = total(resources), total(hazards), total(flexible)
    fault, k, balanced = _resource_count(r, h, x, flex_max)
    if not fault and balanced:
        return
    has = "would have" if would else "has"
    if balanced:
        said = f"the play deck {has} {counted(r + k, 'resource')}{_counting(k, x)}: "
        if fault == "few":
            f.short(limit["rule"], said + f"it needs at least {limit['resources_min']}", resources + flexible)
        else:
            f.problem(limit["rule"], said + f"it may have at most {limit['resources_max']}", resources + flexible)
        return
    cards = f"{counted(r, 'resource')}, {counted(h, 'hazard')} and {counted(x, 'card')} that may be either (1.3.3)" \
        if x else f"{counted(r, 'resource')} and {counted(h, 'hazard')}"
    needs = {"few": f"at least {limit['resources_min']} resources and ",
             "many": f"at most {limit['resources_max']} resources and ", "": ""}[fault]
    either = f", which counting {'that card' if x == 1 else f'those {x}'} either way does not give" if x else ""
    said = f"the play deck {has} {cards}: it must have {needs}as many hazards as resources{either}"
    (f.problem if fault == "many" else f.short)(limit["rule"], said, resources + hazards + flexible)


def _resource_count(r: int, h: int, x: int, flex_max: int) -> tuple[str, int, bool]:
    """How 1.5 finds a play deck of r resources, h hazards and x cards that may be either (1.3.3), at most
    flex_max of them counted as resources: what its count of resources breaks ("few", "many" or ""), how many
    of the x are counted as resources to say so, and whether some count makes as many hazards as resources."""
    limit = LIMITS["play_deck"]
    lo, hi = limit["resources_min"], limit["resources_max"]
    balanced = [k for k in range(flex_max + 1) if r + k == h + x - k]  # as many hazards as resources
    if any(lo <= r + k <= hi for k in (balanced or range(flex_max + 1))):  # 30 to 50 resources
        return "", 0, bool(balanced)
    k = balanced[0] if balanced else flex_max if r + flex_max < lo else 0
    return "few" if r + k < lo else "many", k, bool(balanced)


def _counting(k: int, x: int) -> str:
    """How a play deck's count of resources takes its x cards that may be either (1.3.3), k of them as
    resources, to match its hazards: ", with 5 of its 6 cards that may be either (1.3.3) as resources, to
    match its hazards"."""
    if not x:
        return ""
    cards = f"{counted(x, 'card')} that may be either (1.3.3)"
    if not k:
        return f", with its {cards} as hazards, to match its resources"
    some = f"its {cards}" if k == x else f"{k} of its {cards}"
    return f", with {some} as {'a resource' if k == 1 else 'resources'}, to match its hazards"


def _creatures(f: Findings, hazards: list[Entry], player: str) -> None:
    limit = LIMITS["creatures"]
    full = total(e for e in hazards if e.versions[0].has("c") and not e.versions[0].has("g"))
    halves = [e for e in hazards if e.versions[0].has("edw") or agent_is_hazard(e.versions[0], player)]
    creatures = full + total(halves) // 2
    if creatures < limit["min"]:
        half = f" ({counted(total(halves), 'card')} counting as half a creature)" if halves else ""
        f.short(limit["rule"], f"the hazards hold {counted(creatures, 'creature')}{half}: at least {limit['min']}",
                [e for e in hazards if e.versions[0].has("c")] + halves)


def _sideboard(f: Findings, entries: list[Entry], game: str) -> None:
    limit, avatars_limit = LIMITS["sideboard"], LIMITS["sideboard_avatars"]
    sideboard, extra = _in(entries, "sideboard"), _in(entries, "fw-sideboard")
    if total(sideboard) > limit[game]:
        also = "" if extra else f" (up to {limit['fallen_wizard']} more may be kept apart for Fallen-wizard opponents)"
        f.problem(limit["rule"], f"the sideboard has {counted(total(sideboard), 'card')}: at most {limit[game]} in a "
                                 f"{game} game{also}", sideboard)
    if total(extra) > limit["fallen_wizard"]:
        f.problem(limit["rule"], f"{counted(total(extra), 'card')} kept for Fallen-wizard opponents: at most "
                                 f"{limit['fallen_wizard']}", extra)
    copies: dict[str, list[Entry]] = {}
    for e in _in(entries, "play", "sideboard", "fw-sideboard"):
        if e.versions[0].has("a") and e.versions[0].type == "Character":
            copies.setdefault(e.versions[0].name, []).append(e)
    repeated = {name: group for name, group in copies.items() if total(group) > 1}
    if len(repeated) > avatars_limit["repeated"]:
        f.problem(avatars_limit["rule"], f"{len(repeated)} avatars with several copies in the play deck and "
                                         f"sideboard ({', '.join(sorted(repeated))}): at most "
                                         f"{avatars_limit['repeated']}", [e for g in repeated.values() for e in g])


STAGE_TOO = " (and a Fallen-wizard's Stage resources)"


def _pool(f: Findings, entries: list[Entry], player: str) -> None:
    limit, fw = LIMITS["pool"], LIMITS["fallen_wizard_pool"]
    pool = _in(entries, "pool")
    characters = [e for e in pool if e.versions[0].type == "Character" and not e.versions[0].has("a")]
    items = [e for e in pool if e.versions[0].has("n")]
    stage = [e for e in pool if player == "fallen-wizard" and e.versions[0].alignment == "Stage"
             and e.versions[0].has("p")]
    if total(characters) > limit["characters"]:
        f.problem(limit["rule"], f"{counted(total(characters), 'character')} in the pool (at most "
                                 f"{limit['characters']})", characters)
    bad_items = [e for e in items if e.versions[0].has("uo")]
    if bad_items:
        f.problem(limit["rule"], f"the pool's minor items must be non-unique and not hoard items: {named(bad_items)}",
                  bad_items)
    if total(items) > limit["minor_items"]:
        f.problem(limit["rule"], f"{counted(total(items), 'minor item')} in the pool ({named(items)}): at most "
                                 f"{limit['minor_items']}", items)
    known = {id(e) for e in characters + items + stage}
    others = [e for e in pool if id(e) not in known]
    if others:
        f.problem(limit["rule"], f"the pool holds only non-avatar characters and up to two minor items"
                                 f"{STAGE_TOO if player == 'fallen-wizard' else ''}, "
                                 f"not {named(others)}", others)
    if player == "fallen-wizard":
        if not pool:
            f.unchecked(fw["rule"], "a Fallen-wizard's pool must hold Stage resources worth exactly "
                                    f"{fw['stage_points']} stage points: the list marks no pool")
            return
        points = sum(e.count * e.versions[0].stage for e in stage)
        said = f"the pool's Stage resources ({counted(total(stage), 'card')}, {counted(points, 'stage point')}) must " \
               f"be at most {fw['stage_cards']} worth exactly {fw['stage_points']} stage points, one of them non-unique"
        if total(stage) > fw["stage_cards"] or points > fw["stage_points"]:
            f.problem(fw["rule"], said, stage)
        elif points < fw["stage_points"] or not any(not e.versions[0].has("u") for e in stage):
            f.short(fw["rule"], said, stage or pool)


def _pool_sites(f: Findings, entries: list[Entry]) -> None:
    """A note for the sites and regions a list puts in its pool: they are checked as part of the location
    deck (part_of), for 1.7 gives a pool only characters and minor items (and 1.7.F1 a Fallen-wizard's
    Stage resources)."""
    sites = [e for e in entries if e.part == "pool" and e.versions[0].type in ("Site", "Region")]
    if sites:
        f.note("1.7", f"{named(sites)}, listed in the pool, {'is' if len(sites) == 1 else 'are'} checked as part of "
                      "the location deck: a pool holds characters and minor items", sites)


def _declared_avatar(f: Findings, entries: list[Entry]) -> None:
    """1.8.F1: a Fallen-wizard player declares their avatar, "at least one copy of which must be in that
    player's deck"."""
    if not any(e.versions[0].has("a") and e.versions[0].alignment == "Fallen-wizard" for e in entries):
        f.short("1.8.F1", "a Fallen-wizard player's deck holds at least one copy of the Fallen-wizard avatar they "
                          "declare: the list has none", [])


def _locations(f: Findings, entries: list[Entry], player: str) -> None:
    limit = LIMITS["location_deck"]
    sites = _in(entries, "sites")
    regions = [e for e in sites if e.versions[0].has("y")]
    if regions:
        f.problem(limit["rule"], f"a location deck holds no region cards: {named(regions)}", regions)
    copies: dict[str, list[Entry]] = {}
    for e in sites:
        card = e.versions[0]
        if card.type == "Site":
            sides = site_sides(e) if player == "fallen-wizard" else set()
            copies.setdefault(f"{card.name}\t{'' if sides else card.alignment}", []).append(e)
    for key, group in copies.items():
        card = group[0].versions[0]
        if player == "fallen-wizard":
            _fallen_wizard_site(f, card, group)
        elif total(group) > limit["site"] and not card.has("h"):
            f.problem(limit["rule"], f"{total(group)} copies of the site {card.name}: one of each non-haven site",
                      group)


def _fallen_wizard_site(f: Findings, card: CardFacts, group: list[Entry]) -> None:
    """1.4.F1 on a Fallen-wizard's copies of one site: any number of its Fallen-wizard site, one of its hero
    and one of its minion site (havens too); not checked when untagged lines leave it unknown which is which."""
    sides, name = [site_sides(e) for e in group], card.name
    if not any(sides):
        if card.alignment != "Fallen-wizard" and total(group) > 1:  # a Balrog site (1.4.1)
            f.problem("1.4.F1", f"{total(group)} copies of the site {name}: one of each site but Fallen-wizard "
                                "sites", group)
        return
    hero = sum(e.count for e, s in zip(group, sides, strict=True) if s == {"Hero"})
    minion = sum(e.count for e, s in zip(group, sides, strict=True) if s == {"Minion"})
    if hero > 1 or minion > 1 or total(group) > 2:
        f.problem("1.4.F1", f"{total(group)} copies of the site {name} ({hero} hero, {minion} minion): one copy "
                            "of each hero site and one of each minion site, havens too", group)
    elif total(group) > 1 and hero + minion < total(group):
        f.unchecked("1.4.F1", f"{total(group)} copies of the site {name}: which are its hero and which its minion "
                              "site (one of each) the list does not say: mark them [H] and [M]", group)


def _alignment(f: Findings, entries: list[Entry], player: str, unknown_bans: list[str]) -> None:
    """A problem for each alignment rule the deck's cards break (alignment_rule), listing them; the ban
    rule not checked for the banned names that name no card."""
    avatars = frozenset(c.name for e in entries for c in e.versions[:1] if c.has("a") and c.type == "Character")
    bad: dict[str, list[Entry]] = {}
    for e in entries:
        if rule := alignment_rule(e, player, avatars):
            bad.setdefault(rule, []).append(e)
    texts = _alignment_texts(player)
    for rule, group in bad.items():
        listed = ", ".join(_misfit(e, rule) for e in group[:8])
        held = "; rule 1.6 holds a sideboard to the deck's player-specific restrictions" \
            if any(e.part in SIDEBOARDS for e in group) else ""
        f.problem(rule, f"{texts.get(rule, rule)}: {listed}{' ...' if len(group) > 8 else ''}{held}", group)
    if unknown_bans:
        f.unchecked(BANS[player], "names no card of the card database: " + ", ".join(unknown_bans))


def _misfit(e: Entry, rule: str) -> str:
    """A card an alignment rule forbids, for people: what it is, and where when in a sideboard ("Aiglos (Hero
    Resource, in the sideboard)"); a minion site 1.4.B1 keeps from a Balrog's location deck, by what makes it so
    ("Urlurtsu Nurn (a minion Dark-hold, which requires a Balrog version)")."""
    card = e.versions[0]
    what = f"{card.alignment} {card.type}"
    if rule == LIMITS["balrog_versions"]["rule"] and card.alignment == "Minion":
        kinds = [kind for letter, kind in (("x", "Under-deeps site"), ("k", "Dark-hold")) if card.has(letter)]
        what = f"a minion {' and '.join(kinds) or f'site {rule} names'}, which requires a Balrog version"
    return f"{card.name} ({what}{', in the sideboard' if e.part in SIDEBOARDS else ''})"


def _alignment_texts(player: str) -> dict[str, str]:
    """What each alignment rule asks of a player's deck, as a problem names it."""
    who = PLAYER_NAMES[player]
    avatar_rule, character_rule, resource_rule, site_rule = PLAYER_RULES[player]
    return {avatar_rule: f"a {who} player's avatars", character_rule: f"a {who} player's characters",
            resource_rule: f"a {who} player's resources", site_rule: f"a {who} player's location deck",
            "1.3.B4": "a Balrog player's characters (Orc or Troll, mind under 9 unless Balrog-specific) and factions "
                      "(Orc, Troll, Wolf, Animal or Dragon)",
            BANS.get(player, "-"): f"cards a {who} player may not include", "1.3.4": "cards specific to an avatar "
                                                                                      "or player the deck is not for"}


def verdict(findings: list[dict[str, Any]], scope: Scope = DECK) -> dict[str, Any]:
    """The verdict on a list checked as one player's: legal (no problem, no open question, every rule
    checked), or how many problems, questions the rules leave open and rules not checked, in one sentence;
    on part of a deck or a list that is no CoE deck (scope), neither legal nor not (legal None), the
    sentence saying what the list is first."""
    problems, questions, unchecked = (sum(1 for f in findings if f["status"] == status) for status in STATUSES[:3])
    rest = ([f"the rules leave {counted(questions, 'question')} open"] if questions else []) + \
        ([f"{counted(unchecked, 'check')} could not be made"] if unchecked else [])
    legal: bool | None = not problems and not rest
    if scope.kind != "deck":
        legal, summary = None, _scope_head(scope)
        if scope.kind == "part":
            summary += ": " + "; ".join([counted(problems, "problem") if problems else "no problem found", *rest])
    elif not problems and not rest:
        summary = "Legal: it keeps every deck-construction rule of the CoE rules"
    elif problems:
        summary = "; ".join([f"Not legal: {counted(problems, 'problem')}", *rest])
    else:
        summary = "No problem found, but " + " and ".join(rest)
    return {"legal": legal, "problems": problems, "open": questions, "not_checked": unchecked, "summary": summary,
            "scope": scope.to_json()}


def _scope_head(scope: Scope) -> str:
    """What a verdict on part of a deck or on no CoE deck says first: "This list has no hazards: it reads as
    part of a deck; checked as a part", "859 cards besides its sites: ...: not a CoE deck, not judged"."""
    why = scope.why[0].upper() + scope.why[1:]
    return f"{why}: it reads as part of a deck; checked as a part" if scope.kind == "part" else \
        f"{why}: not a CoE deck, not judged"


def verdicts(players: tuple[str, ...], results: list[list[dict[str, Any]]],
             scope: Scope = DECK) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The verdict on a deck checked as each of the players whose_deck left (results: check()'s findings
    as each), the findings all share, and each reading, {player, name, verdict, findings}, with its own
    verdict and the findings it does not share (none when there is one player). The verdict's counts are
    those of the shared findings; it is legal (true) when legal as every player, not (false) when legal
    as none, and null when legal as some only: "Legal as a Fallen-wizard deck; as a Wizard (hero) deck,
    4 problems". On part of a deck (scope), legal as none: "...; checked as a part, as a Wizard (hero) deck,
    1 problem; as ..."."""
    if len(results) == 1:
        return verdict(results[0], scope), results[0], []
    shared = [f for f in results[0] if all(f in r for r in results[1:])]
    readings: list[dict[str, Any]] = sorted(({"player": p, "name": PLAYER_NAMES[p], "verdict": verdict(r, scope),
                        "findings": [f for f in r if f not in shared]} for p, r in zip(players, results, strict=True)),
                      key=lambda r: not r["verdict"]["legal"])
    legal = [a_name(r["name"]) + " deck" for r in readings if r["verdict"]["legal"]]
    others = [f"as {a_name(r['name'])} deck, {_said(r['verdict'])}" for r in readings if not r["verdict"]["legal"]]
    if scope.kind != "deck":
        return {**verdict(shared, scope), "summary": f"{_scope_head(scope)}, {'; '.join(others)}"}, shared, readings
    if not others:
        summary = "Legal as " + " or as ".join(legal)
    elif legal:
        summary = "; ".join(["Legal as " + " or as ".join(legal), *others])
    elif all(r["verdict"]["problems"] for r in readings):
        summary = "Not legal: " + "; ".join(others)
    else:
        summary = "; ".join(others)
        summary = summary[0].upper() + summary[1:]
    return {**verdict(shared, scope), "legal": None if legal and others else not others,
            "summary": summary}, shared, readings


def _said(v: dict[str, Any]) -> str:
    """A reading's verdict in a few words: "4 problems", "no problem, but 1 check could not be made"."""
    rest = ([f"{counted(v['open'], 'question')} the rules leave open"] if v["open"] else []) + \
        ([f"{counted(v['not_checked'], 'check')} not made"] if v["not_checked"] else [])
    if not v["problems"] and not rest:
        return "no problem found"
    return ", ".join([counted(v["problems"], "problem")]
                     + rest) if v["problems"] else "no problem, but " + " and ".join(rest)

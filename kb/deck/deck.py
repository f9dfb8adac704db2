"""The deck check: every erratum, CRF ruling and mention a judge needs for the cards of a decklist, as one report.

`rulings deck FILE` reads the list (kb.deck.deckformats, kb.deck.decklist), reads each name as `rulings card` does
(kb.search.resolve.read_card: any language, accents, plurals, typos), and gathers each card's errata,
rulings and mentions (kb.read.lookup's Reader.card_rulings, what `rulings card` gives) into one report in the ruling
shape; deck_page() makes it one printable HTML page, write_page() writes that page safely. deck_data() is what the
site's deck page (site/assets/deck.js, over decklist.js, deckformats.js, deckcards.js and deckrules.js) needs to
make the same report in the browser; tests/data/decks/cases.json holds both to the same answers.
"""

from __future__ import annotations

import functools
import os
import stat
import sys
import time
from dataclasses import asdict, dataclass, fields, replace
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.deck.deckformats import read_deck
from kb.deck.decklist import (EXAMPLE, MAX_BYTES, MAX_JOINED, MAX_TITLE, PATTERNS, DeckLine, browser_rules, decode,
                              item_lines, list_items, list_spans, short_name, title_at, too_large)
from kb.deck.deckcards import (BANS, EVIDENCE_CARDS, FACT_FIELDS, FLAGS, GAMES, LIMITS, PLAYER_NAMES, PLAYER_OF,
                               PLAYERS, PREFERRED, RULES, CardFacts, Entry, Scope, Whose, card_facts, most_cards,
                               part_of, scope_of, site_alignments, versions, whose_deck)
from kb.deck.deckrules import STATUSES, check, counted, verdicts
from kb.errors import ForeignFile, ParseError, Refused, WriteFailed
from kb.inputs import kind_of, read_bytes
from kb.read.lookup import KbOrReader, Reader
from kb.search.query import MAX_NAME, NameIndex, fold
from kb.search.resolve import CardReading, card_index, quoted, read_card
from kb.read.ruling import grouped
from kb.search.searchspec import SearchSpec, column
from kb.store.snapshot import Kb

BRACKETED = PATTERNS["bracketed"]
MAX_NEAR = 50
"""At most this many different names not spelt exactly are read for near spellings and given
suggestions (each costs a pass over every card name); the rest are listed as not found. This keeps
a huge list of garbage linear."""
NOT_NEAR = "not read for near spellings"
OTHER_SET = "of a set the card database does not hold: read by its exact name only"
"""The reading of a name beyond the first MAX_NEAR not spelt exactly."""
EXIT_NOT_FOUND = 3
"""`rulings deck`'s exit code when the report is made but some names match no card."""
PAGE_MARK = "<!-- made by `rulings deck --html`; it replaces only files carrying this line -->"
"""The first line of every page deck_page() makes: write_page() overwrites only files that have it."""


# -- reading the input -------------------------------------------------------------------------------

FILE_HINT = "Name a decklist file, or - to read standard input."
STDIN_HINT = "Pipe a decklist into it (rulings deck - < deck.txt), or name the file."


def read_input(file: str) -> tuple[str, str]:
    """(name, text) of a decklist file, or of standard input for "-"; Refused (one line) for a
    folder, a pipe that is not standard input, a file too large, binary data or an empty list."""
    if file == "-":
        name = "standard input"
        if sys.stdin is None:
            raise Refused("standard input is closed: there is no decklist to read", hint=STDIN_HINT)
        try:
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
        except OSError as exc:  # opened for writing only, say
            raise Refused(f"standard input cannot be read ({exc.strerror or exc.__class__.__name__})",
                          hint=STDIN_HINT) from exc
    else:
        name = file
        try:
            info = os.stat(file)
        except OSError as exc:
            raise Refused(f"{file}: {exc.strerror or 'cannot be read'}", hint=FILE_HINT) from exc
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{file} is {kind_of(info.st_mode)}, not a decklist file", hint=FILE_HINT)
        if info.st_size > MAX_BYTES:
            raise too_large(file, info.st_size)
        try:
            data = read_bytes(Path(file), MAX_BYTES)
        except ParseError as exc:  # unreadable (permission denied): refused input, as a missing file is
            raise Refused(f"{file}: {exc.found}", hint=FILE_HINT) from exc
    return name, decode(data, name)


# -- the report --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DeckReport:
    """A decklist's report (deck_report()), verdict first; its parts are in the JSON shape of
    docs/deck-check.md (rulings in the ruling shape), and to_json() gives them in this order."""

    deck: str
    """The list's name: its file's, or "standard input"."""
    title: str
    """The deck's own name (its title line or tag), else its file's (file_title)."""
    format: str
    """How the list was read: text, meccg, octgn or json."""
    date: str
    """When it was checked (YYYY-MM-DD)."""
    crf: dict[str, Any] | None
    """The current CRF it was checked with (id, title, edition, date), None without one."""
    built_at: str
    """When the knowledge base was built."""
    verdict: dict[str, Any]
    """{legal, problems, open, not_checked, summary} (kb.deck.deckrules.verdicts)."""
    findings: list[dict[str, Any]]
    """Each problem with its rule and lines, each question the rules leave open, each check that could not
    be made and why, each note (those every reading shares, when it was checked as several players')."""
    readings: list[dict[str, Any]]
    """When whose deck it is is not decided, the check as each alignment the evidence leaves: {player,
    name, verdict, findings} (its own findings); else none."""
    alignment: dict[str, Any]
    """Whose deck it is: {player, name, how, sure, readings, evidence} (kb.deck.deckrules.Whose)."""
    game: str
    """The game length: short, long, campaign or starter."""
    rules: dict[str, dict[str, Any]]
    """Each rule a finding cites, by number, in the ruling shape."""
    lines: int
    card_lines: int
    skipped: dict[str, int]
    """Lines read as no card, by kind: note, comment, long, header."""
    copies: int
    warnings: list[str]
    not_found: list[dict[str, Any]]
    """Each name that matches no card: {name, lines, count, choices, suggestions, looked_near}."""
    ambiguous: list[dict[str, Any]]
    """Each name that could be several cards, in the same shape, its choices listed."""
    cards: list[dict[str, Any]]
    """Each card with something to say, once: its count, sections, lines, faces, errata, rulings, mentions."""
    quiet: list[dict[str, Any]]
    """The cards with nothing to say, in the same shape."""
    written: str | None = None
    """Where the printable page was written (check_deck's html_out), or None."""

    def to_json(self) -> dict[str, Any]:
        """The report as `rulings deck --json` prints it."""
        return {name: getattr(self, name) for name in REPORT_FIELDS}

    @property
    def mentioned(self) -> list[dict[str, Any]]:
        """The cards other rulings mention."""
        return [entry for entry in self.cards if entry["mentions"]]

    @property
    def mentions_listed(self) -> bool:
        """Whether the rulings that mention each card are listed under it (deck_report's mentions)."""
        return any("mentioned_in" in entry for entry in self.cards)


REPORT_FIELDS = tuple(f.name for f in fields(DeckReport))


def check_deck(kb: Kb, file: str, *, mentions: bool = False, html_out: Path | None = None, form: str = "",
               game: str = "short", alignment: str = "") -> DeckReport:
    """The report on the decklist in file ("-": standard input), see deck_report(); with html_out,
    also written there as one printable page (write_page), its path under "written"."""
    name, text = read_input(file)
    report = deck_report(kb, text, name, mentions=mentions, form=form, game=game, alignment=alignment,
                         title="" if file == "-" else file_title(file))
    if html_out is not None:
        report = replace(report, written=str(write_page(html_out, deck_page(report))))
    return report


def file_title(path: str) -> str:
    """A deck's name from its file's, for a file that gives none: file_title("decks/P - Join the Hunt.deck.o8d")
    == "P - Join the Hunt" (never a path of this machine)."""
    return Path(path).stem.removesuffix(".deck")


def read_names(lines: list[DeckLine], spec: SearchSpec, index: NameIndex, sets: set[str]) -> dict[str, CardReading]:
    """Each different name of the card lines (folded) read as a card name: exactly, or (for the first
    MAX_NEAR names not spelt exactly) by kb.search.resolve.read_card's near spellings; a name given with a
    set the card database does not hold (a fan-made set's "(DF)") exactly only. The browser's deck
    page reads them the same way (site/assets/deck.js read_names)."""
    readings: dict[str, CardReading] = {}
    near = 0
    for line in lines:
        key = fold(line.name)
        if key in readings:
            continue
        exact = spec.card_names(key) if key and len(key) <= MAX_NAME else None
        if exact:
            readings[key] = CardReading(list(exact))
        elif line.set_code and line.set_code not in sets:
            readings[key] = CardReading([], OTHER_SET)
        elif near < MAX_NEAR:
            near += 1
            readings[key] = read_card(line.name, spec, index)
        else:
            readings[key] = CardReading([], NOT_NEAR)
    return readings


_facts: dict[tuple[str, str], tuple[list[CardFacts], dict[str, list[str]], dict[str, str]]] = {}


def rules_data(reader: Reader) -> tuple[list[CardFacts], dict[str, list[str]], dict[str, str]]:
    """Every card's facts, the ban entries that name no card, and each cited rule's ruling id (RULES, in
    the current CoE rules), read from the reader's answers once per process and build
    (kb.search.search.open_searcher keeps the search data the same way)."""
    key = (str(reader.snapshot.folder.resolve()), reader.built_at())
    if key not in _facts or not all(key):
        rules = reader.coe_rules(RULES)
        facts, unknown = card_facts(reader.card_records(), {n: r.stored for n, r in rules.items()})
        _facts[key] = (facts, unknown, {n: r.id for n, r in rules.items()})
    return _facts[key]


def expand_lists(lines: list[DeckLine], spec: SearchSpec, by_id: dict[str, CardFacts]) -> list[DeckLine]:
    """The lines, each line listing cards read (read_list); a note in brackets after a card line's name
    that is no card's is left out ("Grey Havens (Elves of Lindon)")."""
    out: list[DeckLine] = []
    for line in lines:
        if line.kind in ("list", "labelled"):
            out += read_list(line, spec)
        else:
            out.append(unbracketed(line, spec) if line.kind == "card" and line.card_id not in by_id else line)
    return out


def unbracketed(line: DeckLine, spec: SearchSpec) -> DeckLine:
    """A card line, a note in brackets after its name left out when the name is no card's ("Isle of the
    Ulond (Valiant Sword)": a site and what it is for)."""
    bracketed = BRACKETED.match(line.name)
    if bracketed and not spec.card_names(fold(line.name)):
        return replace(line, name=bracketed.group(1))
    return line


folded = functools.lru_cache(maxsize=1 << 16)(fold)
"""kb.search.query.fold, each name and the words between a list's items folded once (a list repeats them)."""


def read_list(line: DeckLine, spec: SearchSpec) -> list[DeckLine]:
    """A line listing cards, read as its writer means it: the card its whole names ("Here, There, or
    Yonder"); else each item a card line with its own count, set code and tag ("3x Concealment, 2 Dodge"),
    items joined back where together they name a card ("Burning Rick, Cot, and Tree"), when more of them
    are cards' names than not, two at least ("Rivendell, Bree, The Old Forest" reads Rivendell and Bree
    and reports The Old Forest as a name read as no card); else prose (after a label naming no section,
    or a sentence), one name (a line short enough for a card's, reported as no card), or a long line,
    which the verdict names as not read."""
    whole = item_lines(line, line.name)
    if whole[0].kind == "card" and spec.card_names(fold(whole[0].name)):
        return whole
    items = [c for group in joined_items(line, spec) for c in group if c.kind == "card"]
    known = sum(1 for c in items if spec.card_names(folded(unbracketed(c, spec).name)))
    if len(items) > 1 and known >= max(2, len(items) - known + 1):
        return [unbracketed(c, spec) for c in items]
    if line.kind == "labelled" or PATTERNS["sentence"].match(line.name):
        return [replace(line, kind="note", name="")]
    if short_name(line.name):
        return whole
    return [replace(line, kind="long", name="")]


def joined_items(line: DeckLine, spec: SearchSpec) -> list[list[DeckLine]]:
    """The items of a list line each read as a line (kb.deck.decklist.item_lines), up to MAX_JOINED items next
    to each other read as one where together, with the words between them, they name a card ("Burning
    Rick", "Cot", "and Tree"; "Chill Them" with "Fear"): each item is read once, a joined one again only
    when its words are a card's name."""
    text = line.name
    spans = list_spans(text)
    singles = [item_lines(line, text[a:b]) for a, b in spans]
    keys = [folded(group[0].name) if group[0].kind == "card" else "" for group in singles]
    between = [folded(text[a[1]:b[0]]) for a, b in zip(spans, spans[1:], strict=False)]
    out, i = [], 0
    while i < len(spans):
        for j in range(min(len(spans), i + MAX_JOINED), i + 1, -1):
            words = [w for k in range(i, j) for w in (between[k - 1] if k > i else "", keys[k]) if w]
            if all(keys[i:j]) and spec.card_names(" ".join(words)):
                out.append(item_lines(line, text[spans[i][0]:spans[j - 1][1]]))
                i = j
                break
        else:
            out.append(singles[i])
            i += 1
    return out


def read_title(lines: list[DeckLine], spec: SearchSpec, index: NameIndex) -> tuple[list[DeckLine], str]:
    """The lines, the first made the list's title where it may be one (kb.deck.decklist.title_at) and names no
    card: neither its whole (exactly, as a near spelling, nor as the start of several) nor any item of it
    ("Gandalf Rangers - hero deck for the Spring 2026 tournament"); and that title, or ""."""
    at = title_at(lines)
    if at is None or lines[at].kind not in ("card", "list", "labelled"):
        return lines, ""
    line = lines[at]
    reading = read_card(line.name, spec, index)
    if reading.names or reading.choices or any(spec.card_names(fold(item)) for item in list_items(line.name)):
        return lines, ""
    title = " ".join(PATTERNS["markup"].sub(" ", line.text).split()) or line.text  # "<h3>Deck A</h3>": Deck A
    return lines[:at] + [replace(line, kind="title", name="")] + lines[at + 1:], title[:MAX_TITLE]


def place_starting(lines: list[DeckLine], name_of: Callable[[DeckLine], tuple[list[str], str]],
                   unique: Callable[[tuple[str, ...]], bool]) -> tuple[list[DeckLine], list[DeckLine],
                                                                       list[dict[str, Any]]]:
    """(The card lines counted, the lines left out, the counts that cannot be told). A starting company's
    or character draft's line (part "starting") names cards of the pool, as the pool's own lines may: each
    card of the pool is counted as the one place that gives the most copies of it (the pool's own lines
    together, or one starting section: "Company 1:" and "Company 2:" together, a draft, a "Minor items:"
    written under it), the first on a tie, the pool's own lines before a starting section; its lines
    elsewhere in the pool are left out. A unique card (unique: by its English names) another part gives
    is that card: its starting lines are left out. Where a starting section gives more copies than the
    pool's own lines, it is counted so, and the verdict says the count cannot be told (a check not made)."""
    if not any(line.part == "starting" for line in lines):
        return lines, [], []
    keys = [tuple(sorted(names)) if (names := name_of(line)[0]) else ("", fold(line.name)) for line in lines]
    sources = [line.section if line.part == "starting" else "" if line.part == "pool" else None for line in lines]
    elsewhere = {k for k, source in zip(keys, sources, strict=True) if source is None and k[0] and unique(k)}
    totals: dict[tuple[str, ...], dict[str, int]] = {}
    for line, k, source in zip(lines, keys, sources, strict=True):
        if source is not None:
            by = totals.setdefault(k, {})
            by[source] = by.get(source, 0) + line.count
    best = {k: most_copies(by) for k, by in totals.items()}
    counted, repeated, unsure = [], [], []
    for line, k, source in zip(lines, keys, sources, strict=True):
        if source is None:
            counted.append(line)
        elif source != best[k] or (source and k in elsewhere):
            repeated.append(line)
        else:
            counted.append(replace(line, part="pool") if source else line)
    for k, won in best.items():
        if won and totals[k].get("", 0) and k not in elsewhere:
            cards = [line for line, other in zip(lines, keys, strict=True) if other == k]
            unsure.append({"rule": "", "status": "not checked", "message": (
                f"how many copies of {' / '.join(k) if k[0] else cards[0].name} the pool holds: its own lines give "
                f"{totals[k]['']}, its starting companies or draft {totals[k][won]}; counted {totals[k][won]}"),
                "lines": sorted({line.number for line in cards}), "cards": []})
    return counted, repeated, unsure


def repeated_text(repeated: list[DeckLine]) -> str:
    """What the report notes of the lines left out (place_starting): "lines 8, 9: Radbug, Cram named again
    (the pool, its starting companies, its draft): each counted once"."""
    names = list(dict.fromkeys(line.name for line in repeated))
    return (f"{lines_text(list(dict.fromkeys(line.number for line in repeated)))}: {', '.join(names[:8])}"
            f"{' ...' if len(names) > 8 else ''} named again (the pool, its starting companies, its draft): each "
            "counted once")


def most_copies(by: dict[str, int]) -> str:
    """The place (place_starting) giving the most copies of a card: the list's own lines ("") on a tie,
    else the first: most_copies({"Draft": 1, "": 1}) == ""; most_copies({"Minor items": 2, "Starting company": 2})
    == "Minor items"."""
    order = list(by)
    return max(order, key=lambda source: (by[source], source == "", -order.index(source)))


PART_CHECKS = {"": ("the deck", ""), "pool": ("the pool", "pool"), "starting": ("the pool", "pool"),
               "play": ("the play deck", "play_deck"), "sideboard": ("the sideboard", "sideboard"),
               "fw-sideboard": ("the sideboard", "sideboard"), "sites": ("the location deck", "location_deck")}
"""Each part of the deck a line can be in, as the verdict names it, and the LIMITS entry whose rule
checks it (the whole deck: none)."""


def part_checks() -> dict[str, list[str]]:
    """Each part of the deck as the verdict names it and the rule that checks it (PART_CHECKS), the browser's data."""
    return {part: [what, LIMITS[limit]["rule"] if limit else ""] for part, (what, limit) in PART_CHECKS.items()}


def unread_findings(lines: list[DeckLine]) -> list[dict[str, Any]]:
    """For each part of the deck (PART_CHECKS) holding lines not read (too long for a card's name, not
    a list of cards' names, not prose), a check not made, naming them: "the location deck was not
    checked whole: a line ... was not read; line 62"."""
    unread: dict[str, list[int]] = {}
    for line in lines:
        if line.kind == "long" and line.part in PART_CHECKS:
            unread.setdefault(line.part, []).append(line.number)
    out = []
    checks = part_checks()
    for part, numbers in unread.items():
        what, rule = checks[part]
        many = len(numbers) > 1
        out.append({"rule": rule, "status": "not checked",
                    "message": f"{what} was not checked whole: {counted(len(numbers), 'line')} too long for a "
                               f"card's name, and no list of cards' names, {'were' if many else 'was'} not read",
                    "lines": numbers, "cards": []})
    return out


def missing_parts(lines: list[DeckLine], entries: list[Entry], scope: Scope) -> list[dict[str, Any]]:
    """A check not made when a whole deck (scope) has no location deck at all: no line in its sites part, no
    card read as a site or region ("the list has no location deck: rule 1.4 and its parts not checked"), so
    its verdict never reads as if the whole deck was checked. Part of a deck, or no CoE deck, says what it is."""
    if scope.kind != "deck" or any(line.part == "sites" and line.kind in ("card", "long") for line in lines) or \
            any(e.versions and part_of(e.part, e.versions[0]) == "sites" for e in entries):
        return []
    rule = part_checks()["sites"][1]
    return [{"rule": rule, "status": "not checked", "message": f"the list has no location deck: rule {rule} and its "
             "parts (the sites each player may include) not checked", "lines": [], "cards": []}]


def name_of(line: DeckLine, readings: dict[str, CardReading], by_id: dict[str, CardFacts]) -> tuple[list[str], str]:
    """The English name(s) a card line means and how it was read: the card its id names (a deck
    builder's "tw-116") where the id is a card's, else its name as read (readings)."""
    if line.card_id in by_id:
        return [by_id[line.card_id].name], ""
    reading = readings[fold(line.name)]
    return list(reading.names), reading.read_as


def deck_report(kb: Kb, text: str, name: str = "deck", *, mentions: bool = False, form: str = "",
                game: str = "short", alignment: str = "", title: str = "") -> DeckReport:
    """A decklist's report, verdict first: the verdict on the CoE deck-construction rules and every
    finding (a problem with its rule and lines, or a check that could not be made and why), whose deck
    it is (alignment) and the game length; the names that match no card (with suggestions) or could be
    several; each card once (its count, sections and lines, its face, errata and CRF rulings, how many
    other rulings mention it, and with mentions those rulings), cards with nothing to say apart
    ("quiet"); the rules cited, in the ruling shape; the date and CRF edition it was made with.
    Refused for a list with no card line, or none naming a card."""
    if PATTERNS["blank_text"].match(text):
        raise Refused(f"{name}: an empty decklist", hint=EXAMPLE)
    deck = read_deck(text, name, form)
    no_card = Refused(f"{name}: no card in it ({deck.line_count} lines of blanks, comments, headers, notes or "
                      "overlong lines)", hint=EXAMPLE)
    if not deck.cards():
        raise no_card
    reader = Reader(kb)  # the rulings and the names read from one build
    facts, unknown_bans, rules = rules_data(reader)
    cards = Cards(reader.spec, facts)
    titled, found_title = read_title(deck.lines, reader.spec, cards.index)
    lines = expand_lists(titled, reader.spec, cards.by_id)
    card_lines = [line for line in lines if line.kind == "card"]
    if not card_lines:
        raise no_card
    read = cards.read(card_lines)
    if not read.found:
        first = next(iter(read.missed.values()))
        raise Refused(f"{name}: no line names a card ({len(card_lines)} card lines; line {first['lines'][0]} reads "
                      f"{quoted(first['name'])})", hint=EXAMPLE)
    entries = read.entries("")
    scope = scope_of(entries)
    whose = whose_deck(entries, alignment, deck.alignment, scope)
    extra = read.unsure + unread_findings(lines) + missing_parts(lines, entries, scope)
    judged, findings, readings = read.judge(whose, scope, game, unknown_bans, extra)
    read.suggest()
    said, quiet = said_and_quiet(reader, read.found, mentions)
    copies = sum(line.count for line in read.lines)
    warnings = read.warnings + cards.warnings(lines, read)
    cited = [r for r in RULES
             if any(f["rule"] == r for f in [*findings, *(f for r in readings for f in r["findings"])])]
    rule_rows = {r.number: r.to_json() for r in reader.rulings([rules[n] for n in cited if n in rules])}
    kinds = {kind: sum(1 for line in lines if line.kind == kind) for kind in ("note", "comment", "long", "header")}
    return DeckReport(deck=name, title=deck.title or found_title or title, format=deck.format,
                      date=time.strftime("%Y-%m-%d"), **_editions(reader), verdict=judged, findings=findings,
                      readings=readings, alignment=whose.to_json(), game=game,
                      rules={n: rule_rows[n] for n in cited if n in rule_rows}, lines=deck.line_count,
                      card_lines=len(read.lines), skipped=kinds, copies=copies, warnings=warnings,
                      not_found=[m for m in read.missed.values() if not m["choices"]],
                      ambiguous=[m for m in read.missed.values() if m["choices"]], cards=said, quiet=quiet)


class Cards:
    """The card database as a decklist is read against it: every card's facts by id and by name, the
    build's card names (its search data) and their index for near spellings."""

    def __init__(self, spec: SearchSpec, facts: list[CardFacts]) -> None:
        self.spec = spec
        self.facts = facts
        self.index = card_index(spec)
        self.by_id = {f.id: f for f in facts}
        self.by_name: dict[str, list[CardFacts]] = {}
        for f in facts:
            self.by_name.setdefault(f.name, []).append(f)
        self.readings: dict[str, CardReading] = {}

    def read(self, lines: list[DeckLine]) -> ReadLines:
        """The card lines read (read_names), a starting company's or draft's in the pool once
        (place_starting): each card once, with its count, sections, lines, the names typed and how they
        were read; each name not read; each line with the printings it may mean."""
        self.readings = read_names([c for c in lines if c.card_id not in self.by_id], self.spec, self.index,
                                   {f.set_code for f in self.facts})
        out = ReadLines(self)
        out.lines, out.repeated, out.unsure = place_starting(lines, self.name_of, self.unique)
        for line in out.lines:
            out.add(line)
        if out.repeated:
            out.warnings.append(repeated_text(out.repeated))
        return out

    def unique(self, names: tuple[str, ...]) -> bool:
        """Whether the card(s) of these English names are unique, every printing."""
        return all(f.has("u") for name in names for f in self.by_name.get(name, []))

    def name_of(self, line: DeckLine) -> tuple[list[str], str]:
        """The English name(s) a card line means and how it was read (kb.deck.deck.name_of)."""
        return name_of(line, self.readings, self.by_id)

    def warnings(self, lines: list[DeckLine], read: ReadLines) -> list[str]:
        """What the report notes of lines read: names not read for near spellings, a card given a set it
        has no printing in."""
        out = []
        skipped = sum(1 for key in read.missed if self.readings[key].read_as == NOT_NEAR)
        if skipped:
            out.append(f"{skipped} names were not read for near spellings (only the first {MAX_NEAR} are)")
        for line in lines:
            meant = tuple(sorted(self.name_of(line)[0])) if line.kind == "card" else ()
            if line.set_code and meant:
                printed = sorted({f.set_code for n in meant for f in self.by_name.get(n, [])})
                if line.set_code not in printed:
                    out.append(f"line {line.number}: {read.found[meant]['name']} has no printing in {line.set_code} "
                               f"(printed in {', '.join(printed)})")
        return out


class ReadLines:
    """A decklist's card lines as read (Cards.read)."""

    def __init__(self, cards: Cards) -> None:
        self.cards = cards
        self.found: dict[tuple[str, ...], dict[str, Any]] = {}
        """Each card once, by its English names: the report's entry."""
        self.missed: dict[str, dict[str, Any]] = {}
        """Each name not read (folded): {name, lines, count, choices, suggestions, looked_near}."""
        self.read: list[tuple[DeckLine, list[CardFacts]]] = []
        """Each line read, with the printings its names may mean."""
        self.unread: list[Entry] = []
        self.warnings: list[str] = []
        self.lines: list[DeckLine] = []
        """The card lines counted (a starting line in the pool, unless another line gives its card)."""
        self.repeated: list[DeckLine] = []
        """The lines naming a card another place gives more often, or first (place_starting): not counted again."""
        self.unsure: list[dict[str, Any]] = []
        """The checks not made for cards whose count the list gives two ways (place_starting)."""

    def add(self, line: DeckLine) -> None:
        """Read one card line into the card it names, or into the names not read."""
        spec, by_id = self.cards.spec, self.cards.by_id
        names, read_as = self.cards.name_of(line)
        if not names:
            key = fold(line.name)
            reading = self.cards.readings[key]
            miss = self.missed.setdefault(key, {"name": line.name, "lines": [], "count": 0, "choices": reading.choices,
                                                "suggestions": [],
                                                "looked_near": reading.read_as not in (NOT_NEAR, OTHER_SET)})
            miss["lines"].append(line.number)
            miss["count"] += line.count
            self.unread.append(Entry(line.number, line.count, line.part, line.group, [], line.name))
            return
        if line.card_id in by_id and line.name and fold(line.name) not in {fold(n) for n in names} and \
                spec.card_names(fold(line.name)) and names[0] not in (spec.card_names(fold(line.name)) or []):
            self.warnings.append(f"line {line.number}: {quoted(line.name)} has the card id {line.card_id}, which "
                                 f"is {names[0]}: read as {names[0]}")
        entry = self.found.setdefault(tuple(sorted(names)), {
            "name": " / ".join(sorted(names)), "names": sorted(names), "count": 0, "sections": [],
            "lines": [], "typed": [], "read_as": [], "set_codes": [], "printings": []})
        entry["count"] += line.count
        entry["lines"].append(line.number)
        for field, value in (("typed", line.name), ("read_as", read_as), ("set_codes", line.set_code)):
            if value and value not in entry[field]:
                entry[field].append(value)
        _add_section(entry["sections"], line)
        self.read.append((line, [by_id[line.card_id]] if line.card_id in by_id else
                          [f for n in names for f in self.cards.by_name.get(n, [])]))

    def suggest(self) -> None:
        """The names nearest each name not read that was read for near spellings and could be no card."""
        for miss in self.missed.values():
            if miss["looked_near"] and not miss["choices"]:
                miss["suggestions"] = self.cards.index.rank(miss["name"])

    def entries(self, player: str) -> list[Entry]:
        """Each line read as the deck rules check it: the printings it means for this player ("" unknown)."""
        return site_alignments([Entry(line.number, line.count, line.part, line.group,
                                      versions(start, line.set_code, line.tag, line.group, player), line.name)
                                for line, start in self.read], player)

    def judge(self, whose: Whose, scope: Scope, game: str, unknown_bans: dict[str, list[str]],
              extra: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        """The lines checked as each alignment whose_deck left (kb.deck.deckrules.verdicts: the verdict, the findings
        all share, each reading), each card's printings those of every reading; extra (what the reading of
        the list itself leaves unchecked) joins each reading's findings. Part of a deck is checked as a part, a list
        that is no CoE deck not at all, once (scope: kb.deck.deckrules.scope_of)."""
        players = whose.players if scope.kind != "not a deck" else ()
        results = []
        for player in players or ("",):
            entries = self.entries(player)
            self.add_printings(entries)
            results.append(check(entries, player, game, self.unread, unknown_bans, whose.how, scope) + extra)
        return verdicts(players, results, scope)

    def add_printings(self, entries: list[Entry]) -> None:
        """Each card's printings, as the lines' entries chose them."""
        for (line, _), chosen in zip(self.read, entries, strict=True):
            printings = self.found[tuple(sorted(self.cards.name_of(line)[0]))]["printings"]
            for f in chosen.versions:
                if f.id not in printings:
                    printings.append(f.id)


def said_and_quiet(reader: Reader, found: dict[tuple[str, ...], dict[str, Any]],
                   mentions: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The cards read, each with its faces, errata, CRF rulings and the count of the rulings that
    mention it (with mentions, those rulings by source): those with something said, those without."""
    said: list[dict[str, Any]] = []
    quiet: list[dict[str, Any]] = []
    for entry in found.values():
        about = reader.card_rulings(entry["names"])
        entry["cards"] = [f.to_json() for f in reader.faces(entry["names"]) if f.id in entry["printings"]]
        entry.update({"errata": [r.to_json() for r in about.errata], "rulings": [r.to_json() for r in about.rulings],
                      "mentions": len(about.mentions)})
        if mentions:
            entry["mentioned_in"] = [g.to_json() for g in grouped(about.mentions)]
        (said if about.errata or about.rulings or about.mentions else quiet).append(entry)
    return said, quiet


def _add_section(sections: list[dict[str, Any]], line: DeckLine) -> None:
    for s in sections:
        if s["section"] == line.section and s["part"] == line.part and s["sideboard"] == line.sideboard:
            s["count"] += line.count
            return
    sections.append({"section": line.section, "part": line.part, "sideboard": line.sideboard, "count": line.count})


def _editions(reader: Reader) -> dict[str, Any]:
    """The current CRF (id, title, edition, date) and when the knowledge base was built."""
    crf = reader.current_crf()
    return {"crf": asdict(crf) if crf else None, "built_at": reader.built_at()}


def sections_text(entry: dict[str, Any]) -> str:
    """ "Characters 1, Sideboard 1" (a section named nothing is "no section")."""
    return ", ".join(f"{s['section'] or 'no section'}"
                     f"{' (sideboard)' if s['sideboard'] and 'side' not in s['section'].lower() else ''} {s['count']}"
                     for s in entry["sections"])


def lines_text(lines: list[int], limit: int = 10) -> str:
    """ "line 4", "lines 4, 9", "lines 1, 2, ... (12 lines)"."""
    shown = ", ".join(map(str, lines[:limit])) + (f" ... ({len(lines)} lines)" if len(lines) > limit else "")
    return f"line{'s' if len(lines) > 1 else ''} {shown}" if lines else ""


def finding_text(finding: dict[str, Any]) -> str:
    """A finding for people: "1.3.1 problem: 3 copies of Glamdring, a unique card (at most 1 in the deck);
    lines 4, 9", "not checked (1.2): ..."."""
    where = f"; {lines_text(finding['lines'])}" if finding["lines"] else ""
    rule = f" (rule {finding['rule']})" if finding["rule"] else ""
    head = "open question" if finding["status"] == "open" else finding["status"]
    return f"{head}{rule}: {finding['message']}{where}"


def whose_text(report: DeckReport) -> str:
    """Whose deck it is, for people: "A Fallen-wizard deck (its avatar ...), a short game.", "Whose deck it
    is is not sure: ...; a short game." (checked as each alignment the evidence leaves), "... not known: ..."."""
    a = report.alignment
    if a["player"]:
        return f"A {a['name']} deck ({a['how']}), a {report.game} game."
    if a["readings"]:
        return f"Whose deck it is is not sure: {a['how']}; a {report.game} game."
    return f"Whose deck it is is not {'judged' if a['sure'] == 'not judged' else 'known'}: {a['how']}."


def reading_text(reading: dict[str, Any]) -> str:
    """One of the alignments a deck was checked as: "As a Wizard (hero) deck: Not legal: 4 problems"."""
    name = reading["name"]
    return f"As {'an' if name[0] in 'AEIOU' else 'a'} {name} deck: {reading['verdict']['summary']}"


def verdict_lines(report: DeckReport) -> list[str]:
    """The verdict as the terminal says it, without the rules quoted: the summary, whose deck it is, each finding,
    then each alignment it was checked as with its own findings (tools/audit.py shows a judge these)."""
    out = [report.verdict["summary"], whose_text(report), *map(finding_text, report.findings)]
    for reading in report.readings:
        out += [reading_text(reading), *("  " + finding_text(f) for f in reading["findings"])]
    return out


def kinds_text(entry: dict[str, Any]) -> str:
    """What a card entry's printings are: "Hero Character", "Minion Resource, Hero Resource"."""
    return ", ".join(dict.fromkeys(f"{c['alignment'] or ''} {c['type'] or ''}".strip() for c in entry["cards"]))


def exit_code(report: DeckReport) -> int:
    """0 when every name was found, whatever the verdict (legal, not legal, or legal as one alignment and
    not another: the verdict says so, the exit code never says a deck is illegal); EXIT_NOT_FOUND when
    some names match no card or could be several."""
    return EXIT_NOT_FOUND if report.not_found or report.ambiguous else 0


# -- the printable page --------------------------------------------------------------------------------

def deck_page(report: DeckReport) -> str:
    """The report as one printable HTML page (site/templates/deck_report.html), readable on a phone (a
    viewport) and titled with the deck's own name: the verdict and each finding (its rule quoted from
    the stored CoE rules) first, then the names not read, each card kept on one page, a page break
    before each part. Its first line is PAGE_MARK."""
    from kb.read.templates import render

    return render("deck_report.html", report=report, mark=PAGE_MARK, counted=counted, finding_text=finding_text,
                  miss_line=miss_line, sections_text=sections_text, kinds_text=kinds_text, whose_text=whose_text,
                  reading_text=reading_text) + "\n"


def miss_line(miss: dict[str, Any]) -> str:
    """A name not found, for people: "line 14: 'Gandalff the gray': did you mean Gandalf, ...?"."""
    lines = ", ".join(map(str, miss["lines"][:10])) + (" ..." if len(miss["lines"]) > 10 else "")
    text = f"line{'s' if len(miss['lines']) > 1 else ''} {lines}: {quoted(miss['name'])}"
    if miss["choices"]:
        return text + " could be " + ", ".join(miss["choices"])
    if miss["suggestions"]:
        return text + ": did you mean " + ", ".join(miss["suggestions"]) + "?"
    return text + ": no card near it"


def write_page(path: Path, text: str) -> Path:
    """Write text to path, and nowhere else but a temporary file beside it that is renamed over it
    (so path is never half-written). A file already at path is replaced only if deck_page() made it
    (its first line is PAGE_MARK); a folder, a link or someone else's file is ForeignFile; a missing
    folder is WriteFailed, as any page that cannot be written (nothing is created but the file)."""
    path = path.absolute()
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise ForeignFile(f"{path} is {'a link' if path.is_symlink() else 'not a regular file'}; "
                          "rulings deck --html writes only a regular file", hint="Name a new file.")
    if path.exists():
        with path.open("rb") as f:
            first = f.read(len(PAGE_MARK.encode()) + 2)
        if not first.startswith(PAGE_MARK.encode()):
            raise ForeignFile(f"{path} exists and `rulings deck --html` did not make it; it is left as it is",
                              hint="Name a new file, or remove that one first.")
    if not path.parent.is_dir():
        raise WriteFailed(f"no folder {path.parent} to write {path.name} into",
                          hint="Create it, or name a file in an existing folder.")
    tmp = path.parent / f".{path.name}.tmp-{os.getpid()}"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
    except OSError as exc:
        raise WriteFailed.of(exc, "the deck page", path, path.parent, "run `rulings deck --html` again",
                             "nothing else was written") from exc
    return path


# -- the site's deck page -------------------------------------------------------------------------------

def deck_data(kb: KbOrReader) -> dict[str, Any]:
    """What site/assets/deck.js needs beside the search data: how to read a list (kb.deck.decklist), the
    limits, for every card with anything to say, and every name read as several cards ("Hobgoblins"),
    [errata, rulings, mentions] (kb.read.lookup's Reader.card_rulings, what `rulings deck` gives), each a
    list of indexes into the search data's documents, under its English names joined by " / ";
    every card's facts and the deck rules' limits (kb.deck.deckcards), and each rule a finding may cite as
    its document's index."""
    reader = Reader.of(kb)  # the indexes point into this build's search data: the site ships the same
    position = {doc_id: n for n, doc_id in enumerate(column(reader.spec.raw["docs"], "id"))}
    several = sorted({tuple(sorted(set(names))) for names in reader.spec.raw["names"].values() if len(set(names)) > 1})
    cards: dict[str, list[list[int]]] = {}
    for names in [(name,) for name in sorted({c.name for c in reader.card_records()})] + several:
        about = reader.card_rulings(names)
        lists = [[position[r.id] for r in rulings if r.id in position]
                 for rulings in (about.errata, about.rulings, about.mentions)]
        if any(lists):
            cards[" / ".join(names)] = lists
    facts, unknown_bans, rules = rules_data(reader)
    return {**browser_rules(), "max_near": MAX_NEAR, "max_name": MAX_NAME, "most_cards": most_cards(),
            "exit_not_found": EXIT_NOT_FOUND, "cards": cards,
            "fact_fields": list(FACT_FIELDS), "facts": [f.row() for f in facts], "flags": FLAGS, "limits": LIMITS,
            "games": list(GAMES), "players": list(PLAYERS), "player_names": PLAYER_NAMES, "player_of": PLAYER_OF,
            "preferred": PREFERRED, "bans": BANS, "evidence_cards": EVIDENCE_CARDS, "statuses": list(STATUSES),
            "unknown_bans": unknown_bans,
            "rule_order": list(RULES), "rules_docs": {n: position[i] for n, i in rules.items() if i in position},
            "part_checks": part_checks(), **_editions(reader)}

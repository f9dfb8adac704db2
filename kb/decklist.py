"""Decklists as players paste them, read line by line by patterns that the terminal and the browser share.

The line patterns (LINE_RULES), the section names (SECTIONS) and the limits are plain data: `rulings
deck` reads a list with read_lines() here, and the site's deck page (site/assets/deck.js) executes
the same steps over the same data, shipped to it in assets/deck-data.js (kb.deck.deck_data), so a
list reads alike in both; tests/test_deck.py runs both over the same lists. Each pattern is written
to mean the same in Python (re.IGNORECASE | re.ASCII) and JavaScript (flag "i"), and spells a space
" ": a line is cleaned first (kb.query.clean: control characters out, every run of spaces one " ").

A line is, in this order: blank; a section header ("Characters:", "Hazards", "## Sideboard (15)":
a known section name, or any short text ending in a colon); a comment (`#`, `//`); or a card line:
"2 Gandalf", "2x Gandalf", "Gandalf x2", "Gandalf (2)", "Gandalf 2", "Gandalf [TW]", "- Gandalf",
"SB: Gandalf", "Gandalf // a note". A line longer than MAX_LINE once its spaces are collapsed names
no card ("long"), and the report says so.
"""

from __future__ import annotations

import re
import sys
from dataclasses import asdict, dataclass
from typing import Any

from kb.query import clean, fold

MAX_LINE = 200
"""A longer line is no card line (the longest card name is about 40 letters); patterns never see it."""

LINE_RULES: dict[str, str] = {
    "break": r"\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]",
    "header": r"^[-#=*_/ ]*([A-Za-z][A-Za-z' &/-]{0,39}?) ?(?:[(\[]\d{1,3}[)\]]|- ?\d{1,3})? ?(:)? ?(?:\d{1,3})?[ =*_-]*$",
    "comment": r"^(?:#|//)",
    "bullet": r"^[-*+\u2022] +",
    "sideboard_prefix": r"^(?:SB|sideboard) ?: ?",
    "trailing_comment": r" (?:#|//).*$",
    "set_code": r" ?[\[(] ?([A-Za-z]{2,4}) ?[\])]$",
    "count_after": r"^(.*?[^ ]) ?(?:[x\u00d7*] ?(\d{1,3})|\((\d{1,3})\)| (\d{1,3}))$",
    "count_before": r"^(\d{1,3}) ?[x\u00d7*]? (.+)$",
    "sideboard": r"(?:^| )(?:side ?board|sb)(?: |$)",
}
"""The patterns of a decklist line, by name, applied in the order of read_line. "break" splits the
text into lines; "header" takes a section name (group 1) and whether a colon follows it (group 2);
"sideboard" is run over a folded section name."""

SECTIONS: dict[str, str] = {
    "character": "Characters", "characters": "Characters", "chars": "Characters", "company": "Characters",
    "starting company": "Characters", "pool": "Pool", "starting pool": "Pool",
    "avatar": "Characters", "avatars": "Characters", "wizard": "Characters", "wizards": "Characters",
    "ringwraith": "Characters", "ringwraiths": "Characters",
    "resource": "Resources", "resources": "Resources", "events": "Resources", "items": "Resources",
    "allies": "Resources", "factions": "Resources", "long events": "Resources", "short events": "Resources",
    "permanent events": "Resources",
    "hazard": "Hazards", "hazards": "Hazards", "creatures": "Hazards", "creature": "Hazards",
    "site": "Sites", "sites": "Sites", "locations": "Sites", "location deck": "Sites", "site deck": "Sites",
    "sideboard": "Sideboard", "side board": "Sideboard", "sb": "Sideboard",
    "main deck": "Main deck", "play deck": "Main deck", "deck": "Main deck",
}
"""Section names a header may give without a colon (folded), and the section each stands for. A
header ending in a colon may name any section; it keeps its own words."""


@dataclass(frozen=True, slots=True)
class DeckLine:
    """One line of a decklist, as read."""

    number: int
    """Its line number, from 1."""
    kind: str
    """blank, comment, header, card or long."""
    text: str
    """The line cleaned (spaces collapsed, control characters out); "" for a long line."""
    name: str = ""
    """A card line's card name as typed."""
    count: int = 1
    """How many copies a card line gives (1 when it gives none)."""
    set_code: str = ""
    """A card line's set code in brackets ("TW"), upper-cased."""
    section: str = ""
    """The section it is in (a header's own section), "" before any header."""
    sideboard: bool = False
    """Whether it is in a sideboard (a sideboard section, or an "SB:" line)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def compile_rule(name: str) -> re.Pattern[str]:
    return re.compile(LINE_RULES[name], re.I | re.A)


PATTERNS = {name: compile_rule(name) for name in LINE_RULES}


def split_lines(text: str) -> list[str]:
    """The lines of a text (every line break Python's str.splitlines knows; a final break ends the
    last line, it does not start another)."""
    lines = PATTERNS["break"].split(text)
    return lines[:-1] if len(lines) > 1 and lines[-1] == "" else lines


def section_of(name: str) -> tuple[str, bool]:
    """The section a header names and whether it is a sideboard: ("Sideboard", True) for "side-board"."""
    key = fold(name)
    section = SECTIONS.get(key, " ".join(name.split()))
    return section, bool(PATTERNS["sideboard"].search(fold(section)))


def read_line(number: int, raw: str, section: str, sideboard: bool) -> DeckLine:
    """One line read: blank, a header, a comment, a long line or a card line with its count and set."""
    text = clean(raw, sys.maxsize)  # spaces collapsed first: "Gandalf", 300 spaces, "x3" is a short line
    if len(text) > MAX_LINE:
        return DeckLine(number, "long", "", section=section, sideboard=sideboard)
    if not text:
        return DeckLine(number, "blank", text, section=section, sideboard=sideboard)
    header = PATTERNS["header"].match(text)
    if header and (header.group(2) or fold(header.group(1)) in SECTIONS):
        named, side = section_of(header.group(1))
        return DeckLine(number, "header", text, section=named, sideboard=side)
    if PATTERNS["comment"].match(text):
        return DeckLine(number, "comment", text, section=section, sideboard=sideboard)
    rest = PATTERNS["bullet"].sub("", text)
    prefix = PATTERNS["sideboard_prefix"].match(rest)
    if prefix:
        rest, sideboard = rest[prefix.end():], True
    rest = PATTERNS["trailing_comment"].sub("", rest)
    set_code = ""
    m = PATTERNS["set_code"].search(rest)
    if m:
        set_code, rest = m.group(1).upper(), rest[:m.start()]
    count = 1
    m = PATTERNS["count_after"].match(rest)
    if m:
        count, rest = int(m.group(2) or m.group(3) or m.group(4)), m.group(1)
    else:
        m = PATTERNS["count_before"].match(rest)
        if m:
            count, rest = int(m.group(1)), m.group(2)
    return DeckLine(number, "card", text, rest.strip(" ,;."), count, set_code, section, sideboard)


def read_lines(text: str) -> list[DeckLine]:
    """Every line of a decklist read (a byte-order mark before the first left out), each in the section
    the headers above it give."""
    out = []
    section, sideboard = "", False
    for number, raw in enumerate(split_lines(text.removeprefix("\ufeff")), 1):
        line = read_line(number, raw, section, sideboard)
        if line.kind == "header":
            section, sideboard = line.section, line.sideboard
        out.append(line)
    return out


def long_lines(lines: list[DeckLine]) -> str:
    """The warning for lines too long to be card lines ("" when there are none): "lines 3, 9: longer
    than 200 characters, read as no card"."""
    numbers = [line.number for line in lines if line.kind == "long"]
    if not numbers:
        return ""
    shown = ", ".join(map(str, numbers[:8])) + (" ..." if len(numbers) > 8 else "")
    return f"line{'s' if len(numbers) > 1 else ''} {shown}: longer than {MAX_LINE} characters, read as no card"


def browser_rules() -> dict[str, Any]:
    """What the browser's deck page reads lists by: the patterns, the section names and the limits."""
    return {"rules": LINE_RULES, "sections": SECTIONS, "max_line": MAX_LINE}

"""Parser for the Council of Elrond rules: numbered rules, their lists, guidance, glossary, change log."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kb.errors import ParseError
from kb.markers import find_markers
from kb.model import ParsedDocument, Ruling, Source
from kb.builder.numbering import Numbered, check_numbering
from kb.builder.parsers.blocks import Block, read_lines, walk
from kb.builder.parsers.document import DocumentBuilder

RULE_NUMBER = re.compile(r"^\*\*((?:\d+|g)(?:\.[A-Za-z0-9]+)*)\*\*\s*")
CAPS_HEADING = re.compile(r"^[A-Z][A-Z ]{3,}$")
CHANGE_LOG = re.compile(r"^\((\d{4}-\d{2}-\d{2})\)\s")
CITATION_KEY = re.compile(r"^([A-Z]{2,5}(?: #)?) - (.+)$")
GLOSSARY_ENTRY = re.compile(r"^([^\s*][^*]{0,60}?) - (.+)$", re.S)
SOURCE_LINE = re.compile(r"^\*(?:Source|Last update):", re.I)
READER = re.compile(r"\b(?:you|your|yours)\b", re.I)
"""The beginners' text the page interleaves with its rules speaks to the reader ("Before the game
begins, you choose..."); the numbered rules and their lists speak of "the player"."""
HEADING_NUMBER = re.compile(r"^(\d+(?:\.[IVX]+)?)\.\s")
"""The number a section heading carries: "2.IV. Movement/Hazard Phase" -> "2.IV"."""


def numbered_sections(lines: list[str]) -> tuple[dict[str, tuple[str, ...]], list[str]]:
    """Every numbered heading's section path ("2.IV" -> ("2. The Player Turn", "2.IV. ...")), and
    every rule number in document order."""
    stack: list[tuple[int, str]] = []
    paths: dict[str, tuple[str, ...]] = {}
    numbers: list[str] = []
    for block in walk(lines):
        if block.kind == "heading" and block.level > 1:
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.text))
            if m := HEADING_NUMBER.match(block.text):
                paths.setdefault(m.group(1), tuple(t for _, t in stack))
        elif block.kind == "paragraph" and (m := RULE_NUMBER.match(block.text)):
            numbers.append(m.group(1))
    return paths, numbers


def home(number: str, paths: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    """The section a rule number belongs to: the heading with the longest number it starts with
    ("2.IV.iii.1" -> 2.IV; "3.i" -> 3, since lower-case "i" is a step, not section "3.I"), when every
    numbered heading above it agrees."""
    parts = number.split(".")
    for n in range(len(parts), 0, -1):
        path = paths.get(".".join(parts[:n]))
        if path is not None and all(belongs(number, title) for title in path):
            return path
    return None


def belongs(number: str, title: str) -> bool:
    """Whether a heading's number, if it has one, is a leading part of a rule number. The page puts
    "3.I. Body Checks" under "2. The Player Turn", which is no home for rule 3.I.1."""
    m = HEADING_NUMBER.match(title)
    return m is None or (number + ".").startswith(m.group(1) + ".")


def rule_section(i: int, numbers: list[str], paths: dict[str, tuple[str, ...]],
                 here: tuple[str, ...]) -> tuple[str, ...]:
    """Where the i-th numbered rule belongs. The page puts some rules before their section's heading
    (2.IV.i-viii come before "2.IV. Movement/Hazard Phase"), so a rule goes to the section its number
    names, unless it is a lone stray among rules that belong here (2.IV.3.5.1 between 2.II.3.5 and
    2.II.3.5.2: a typo in the page), or its section is already open here."""
    target = home(numbers[i], paths)
    if target is None or here[:len(target)] == target:
        return here
    neighbours = {home(numbers[j], paths) for j in (i - 1, i + 1) if 0 <= j < len(numbers)}
    if neighbours == {here}:
        return here
    return target


@dataclass(slots=True)
class CoeState:
    """What the rules of the CoE rules page share while they walk it (markdown-it-py's StateBlock)."""

    b: DocumentBuilder
    paths: dict[str, tuple[str, ...]]
    """Every numbered heading's section path (numbered_sections)."""
    numbers: list[str]
    """Every rule number, in document order (numbered_sections)."""
    last: Ruling | None = None
    """The ruling a list item extends."""
    listing: bool = False
    """Whether the last numbered rule opened a list ("... one of the following must be true:"): the
    unnumbered paragraphs after it, up to the next number or heading, are its own (its "•" items,
    its "a)" criteria, its table of site types, its closing sentence), not guidance of their own."""
    order: list[Numbered] = field(default_factory=list)
    """The numbered rules met so far, for check_numbering."""
    rule_home: tuple[str, ...] | None = None
    """The section of the last numbered rule since the last heading: the guidance after it is there too
    (the page prints each phase's heading after that phase's rules: the guidance between 2.V.i.1 and
    2.V.ii stands under "2.IV. Movement/Hazard Phase" in the page, and belongs to 2.V)."""


CoeRule = Callable[[CoeState, Block], bool]
"""A rule of the CoE rules page: takes a block (True) or leaves it to the next rule (False)."""


def heading(s: CoeState, block: Block) -> bool:
    """A heading: the title skipped, any other opens a section at its level. The beginners' text right
    before a numbered section's heading introduces it ("Your organization phase is when ..." before
    "2.II. Organization Phase"): it is that section's."""
    if block.kind != "heading":
        return False
    introduces = s.last if s.last is not None and s.last.kind == "guidance" else None
    s.last, s.listing = None, False
    if block.level == 1:
        s.b.skip(block.span, "document title (recorded in the manifest)")
    else:
        s.b.open_section(block.text, block.level, block.span)
        if introduces is not None and HEADING_NUMBER.match(block.text):
            s.b.update(introduces, section=tuple(s.b.path))
    s.rule_home = None
    return True


def horizontal_rule(s: CoeState, block: Block) -> bool:
    """A horizontal rule: skipped, closing every section."""
    if block.kind != "hr":
        return False
    s.last, s.listing = None, False
    s.b.close_sections(0)
    s.rule_home = None
    s.b.skip(block.span, "horizontal rule")
    return True


def source_line(s: CoeState, block: Block) -> bool:
    """The source address and update date: skipped."""
    if block.kind != "paragraph" or not SOURCE_LINE.match(block.text):
        return False
    s.b.skip(block.span, "source address and update date (recorded in the manifest)")
    return True


def change_log_link(s: CoeState, block: Block) -> bool:
    """The link to the full change log: skipped."""
    if block.kind != "paragraph" or not block.text.startswith("» View full"):
        return False
    s.b.skip(block.span, "web link residue (link to the full change log)")
    return True


def caps_heading(s: CoeState, block: Block) -> bool:
    """A paragraph in capitals, or "Glossary": a section heading at level 2."""
    text = block.text
    if block.kind != "paragraph" or not (CAPS_HEADING.match(text) or text == "Glossary"):
        return False
    s.last, s.listing = None, False
    s.b.open_section(text.title() if text.isupper() else text, 2, block.span)
    s.rule_home = None
    return True


def list_item(s: CoeState, block: Block) -> bool:
    """A bullet or numbered item after a ruling: joined to it."""
    if block.kind not in ("bullet", "item") or s.last is None:
        return False
    s.last = s.b.extend(s.last, block.text, block.span)
    return True


def rule_list(s: CoeState, block: Block) -> bool:
    """An unnumbered paragraph while a numbered rule's list is open (CoeState.listing): joined to it,
    unless it speaks to the reader (READER): the beginners' text, which closes the list. A list the
    beginners' text opens ("There are three types, whether resource or hazard:") is its own whoever
    its items speak to."""
    if block.kind != "paragraph" or not s.listing or s.last is None or RULE_NUMBER.match(block.text):
        return False
    if s.last.kind != "guidance" and READER.search(block.text):
        s.listing = False
        return False
    s.last = s.b.extend(s.last, block.text, block.span)
    return True


def entry(s: CoeState, block: Block) -> bool:
    """Any other block: a numbered rule (in the section its number names, rule_section), a change-log
    entry, a citation key, a glossary entry, else guidance (in the section of the numbered rule before
    it, where one came after the last heading; in the section the rule after it opens, where that is a
    section's own rule: the beginners' text that introduces a phase stands before its rule 2.IV)."""
    b, text = s.b, block.text
    section = b.path[-1].lower() if b.path else ""
    s.listing = False
    if m := RULE_NUMBER.match(text):
        body = text[m.end():]
        s.rule_home = rule_section(len(s.order), s.numbers, s.paths, b.path)
        if m.group(1) in s.paths and s.last is not None and s.last.kind == "guidance":
            # the beginners' text opening a section: "In whatever order ..." before 2.IV
            b.update(s.last, section=s.rule_home)
        s.last = b.add("rule", body, block.span, number=m.group(1), markers=find_markers(body), section=s.rule_home)
        s.order.append(Numbered(m.group(1), block.span.start))
        s.listing = body.rstrip().endswith(":")
    elif m := CHANGE_LOG.match(text):
        s.last = b.add("change-log", text, block.span, markers=(f"date:{m.group(1)}",))
    elif section == "citations" and (m := CITATION_KEY.match(text)):
        s.last = b.add("citation-key", text, block.span, number=m.group(1), title=m.group(1))
    elif section == "glossary" and (m := GLOSSARY_ENTRY.match(text)):
        s.last = b.add("glossary", text, block.span, title=m.group(1).strip())
    else:
        s.last = b.add("guidance", text, block.span, section=s.rule_home)
        s.listing = any(line.rstrip().endswith(":") for line in text.split("\n"))  # its first item may be joined
    return True


RULES: tuple[CoeRule, ...] = (heading, horizontal_rule, source_line, change_log_link, caps_heading, list_item,
                              rule_list, entry)
"""The rules of the CoE rules page, in order: the first that takes a block handles it (entry takes any)."""


def parse_coe_rules(source: Source, path: Path) -> ParsedDocument:
    """Parse the CoE rules: every **N.N** paragraph is a rule carrying its number."""
    lines = read_lines(path)
    s = CoeState(DocumentBuilder(source, lines, path), *numbered_sections(lines))
    for block in walk(lines):
        any(rule(s, block) for rule in RULES)
    if not s.order:
        raise ParseError(str(path), None, "numbered rules such as **1.1**", "none")
    for note in check_numbering(s.order):
        s.b.note(note.line, note.message)
    return s.b.finish()

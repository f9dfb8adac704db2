"""Parser for the Council of Elrond rules: numbered rules, their lists, guidance, glossary, change log."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.markers import find_markers
from kb.model import ParsedDocument, Ruling, Source
from kb.numbering import Numbered, check_numbering
from kb.parsers.blocks import read_lines, walk
from kb.parsers.document import DocumentBuilder

RULE_NUMBER = re.compile(r"^\*\*((?:\d+|g)(?:\.[A-Za-z0-9]+)*)\*\*\s*")
CAPS_HEADING = re.compile(r"^[A-Z][A-Z ]{3,}$")
CHANGE_LOG = re.compile(r"^\((\d{4}-\d{2}-\d{2})\)\s")
CITATION_KEY = re.compile(r"^([A-Z]{2,5}(?: #)?) - (.+)$")
GLOSSARY_ENTRY = re.compile(r"^([^\s*][^*]{0,60}?) - (.+)$", re.S)
SOURCE_LINE = re.compile(r"^\*(?:Source|Last update):", re.I)
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


def parse_coe_rules(source: Source, path: Path) -> ParsedDocument:
    """Parse the CoE rules: every **N.N** paragraph is a rule carrying its number."""
    lines = read_lines(path)
    paths, numbers = numbered_sections(lines)
    b = DocumentBuilder(source, lines)
    last: Ruling | None = None
    numbered = 0
    order: list[Numbered] = []
    for block in walk(lines):
        text = block.text
        if block.kind == "heading":
            last = None
            if block.level == 1:
                b.skip(block.span, "document title (recorded in the manifest)")
            else:
                b.open_section(text, block.level, block.span)
            continue
        if block.kind == "hr":
            last = None
            b.close_sections(0)
            b.skip(block.span, "horizontal rule")
            continue
        if block.kind == "paragraph" and SOURCE_LINE.match(text):
            b.skip(block.span, "source address and update date (recorded in the manifest)")
            continue
        if block.kind == "paragraph" and text.startswith("» View full"):
            b.skip(block.span, "web link residue (link to the full change log)")
            continue
        if block.kind == "paragraph" and (CAPS_HEADING.match(text) or text == "Glossary"):
            last = None
            b.open_section(text.title() if text.isupper() else text, 2, block.span)
            continue
        if block.kind in ("bullet", "item") and last is not None:
            last = b.extend(last, text, block.span)
            continue
        section = b.path[-1].lower() if b.path else ""
        if m := RULE_NUMBER.match(text):
            body = text[m.end():]
            last = b.add("rule", body, block.span, number=m.group(1), markers=find_markers(body),
                         section=rule_section(numbered, numbers, paths, b.path))
            order.append(Numbered(m.group(1), block.span.start))
            numbered += 1
        elif m := CHANGE_LOG.match(text):
            last = b.add("change-log", text, block.span, markers=(f"date:{m.group(1)}",))
        elif section == "citations" and (m := CITATION_KEY.match(text)):
            last = b.add("citation-key", text, block.span, number=m.group(1), title=m.group(1))
        elif section == "glossary" and (m := GLOSSARY_ENTRY.match(text)):
            last = b.add("glossary", text, block.span, title=m.group(1).strip())
        else:
            last = b.add("guidance", text, block.span)
    if numbered == 0:
        raise ParseError(str(path), None, "numbered rules such as **1.1**", "none")
    for note in check_numbering(order):
        b.note(note.line, note.message)
    return b.finish()

"""Parser for the Collected Rulings File (CRF 22 and the older Turn Sequence page): headings and bullets."""

from __future__ import annotations

import html
import re
from pathlib import Path

from kb.errors import ParseError
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.parsers.blocks import Block, read_lines, walk
from kb.parsers.document import DocumentBuilder

PARTS = ("introduction", "contents", "turn sequence rulings", "rulings by term",
         "tournament rulings", "card errata and rulings")
CHANGES = re.compile(r"^changes from (?:crf|previous)", re.I)
PROSE_PARTS = ("introduction",)
ANNOTATION = re.compile(r"^\W*Annotation\s+(\d+[a-z]?)\b\s*(?:\([^)]*\))?\s*:", re.I)
ERRATUM = re.compile(r"^\W*(?:rules|card)\s+erratum", re.I)
"""(@ and spaces are \\W already: "^\\W*(?:@\\s*)?\\W*" said the same, backtracking quadratically.)"""
CHANGES_TEXT = re.compile(r"^\W*(?:change|replace)\s+[“\"«][^”\"»]*[”\"»]\s+(?:to|with)\b", re.I)
"""A line that changes a card's or a rule's words ("@ Change “on a given turn” to “during this
organization phase”") is an erratum too, without saying so."""
SEE_ALSO = re.compile(r"^\W*see\b", re.I)
RESIDUE_LINE = re.compile(r"^\d{4}\s+(?:&bull;|•)\s+Developed by", re.I)
RESIDUE_ITEMS = {"disclaimer", "contact", "about us", ""}


def crf_kind(text: str) -> tuple[str, str | None]:
    """The kind and number of a CRF bullet: ("annotation", "25a"), ("erratum", None), ..."""
    if m := ANNOTATION.match(text):
        return "annotation", m.group(1)
    if ERRATUM.match(text) or CHANGES_TEXT.match(text):
        return "erratum", None
    if SEE_ALSO.match(text):
        return "see-also", None
    return "ruling", None


LIST_ITEM_START = re.compile(r"^(?:[A-Z][a-z]+ly\s+[a-z]+s|[A-Z][a-z]+s)\b")


THAT_LIST = re.compile(r"\bthat:\s*$")


def completes_that_list(previous: str, text: str) -> bool:
    """A bullet that finishes a list opened by "... that:" ("Taps a company's site." after
    "A card cannot be revealed that:"), which the scrape flattened into separate bullets.
    `previous` is the first paragraph of the ruling before."""
    return bool(THAT_LIST.search(previous) and LIST_ITEM_START.match(text))


def front_matter_title(block: Block, path: Path) -> tuple[str, int]:
    """The title: of Jekyll front matter and its line number, or a ParseError."""
    for offset, line in enumerate(block.text.split("\n")):
        if line.startswith("title:") and line[6:].strip():
            return line[6:].strip(), block.span.start + 1 + offset
    raise ParseError(str(path), block.span.start, "a 'title:' line in the front matter")


def parse_crf(source: Source, path: Path) -> ParsedDocument:
    """Parse a CRF page: parts, phase/term/card headings, bullets with their continuations."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines)
    last: Ruling | None = None  # the ruling a continuation paragraph or nested bullet extends
    lead = ""  # its first paragraph
    unclosed = 0  # how many more « than » its text has (kept as it grows: counting anew is quadratic)
    in_residue = False
    part = ""
    headings = 0
    for block in walk(lines):
        if block.kind == "front_matter":
            title, line = front_matter_title(block, path)
            b.skip(block.span, "Jekyll front matter (its title is the top section)")
            b.open_section(title, 1, Span(line, line))
            part = title.lower()
            last = None
            continue
        if block.kind == "heading":
            headings += 1
            in_residue, last = False, None
            title = html.unescape(block.text)
            if block.level == 1:
                b.skip(block.span, "document title (recorded in the manifest)")
                continue
            if block.level == 2 and (title.lower() in PARTS or CHANGES.match(title)):
                part = title.lower()
                b.open_section(title, 1, block.span)
            elif block.marker == "**":
                b.open_section(title, b.child_level(), block.span)
            else:
                b.open_section(title, block.level, block.span)
            continue
        if block.kind == "hr":
            b.skip(block.span, "horizontal rule")
            continue
        if block.kind == "paragraph" and RESIDUE_LINE.match(block.text):
            in_residue, last = True, None
            b.skip(block.span, "web page residue (site footer)")
            continue
        if in_residue and block.kind == "bullet" and block.text.strip().lower() in RESIDUE_ITEMS:
            b.skip(block.span, "web page residue (site footer links)")
            continue
        in_residue = False
        if not b.path:
            if block.text.startswith("Source:"):
                b.skip(block.span, "source address (recorded in the manifest)")
                continue
            raise ParseError(str(path), block.span.start, "a heading before the first text", text=block.text)
        if part == "contents":
            b.skip(block.span, "table of contents (the headings themselves are stored)")
            continue
        text = html.unescape(block.text)
        prose = part in PROSE_PARTS
        if block.kind == "bullet" and not text.strip():
            b.skip(block.span, "empty list item")
            continue
        attaches = last is not None and not prose and (
            (block.kind == "bullet" and block.level > 0)
            or block.kind == "paragraph"
            or unclosed > 0
            or (block.kind == "bullet" and completes_that_list(lead, text))
        )
        if attaches and last is not None:
            last = b.extend(last, text, block.span)
            unclosed += text.count("«") - text.count("»")
            continue
        if prose:
            b.add("note", text, block.span)
            continue
        kind, number = crf_kind(text)
        last = b.add(kind, text, block.span, number=number)
        lead, unclosed = text, text.count("«") - text.count("»")
    if headings == 0:
        raise ParseError(str(path), None, "CRF headings (## Part, ### Section)", "no heading at all")
    return b.finish()

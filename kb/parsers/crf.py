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
ERRATUM = re.compile(r"^\W*(?:@\s*)?\W*(?:rules|card)\s+erratum", re.I)
SEE_ALSO = re.compile(r"^\W*see\b", re.I)
RESIDUE_LINE = re.compile(r"^\d{4}\s+(?:&bull;|•)\s+Developed by", re.I)
RESIDUE_ITEMS = {"disclaimer", "contact", "about us", ""}
FRONT_TITLE = re.compile(r"^title:\s*(.+?)\s*$", re.M)


def crf_kind(text: str) -> tuple[str, str | None]:
    """The kind and number of a CRF bullet: ("annotation", "25a"), ("erratum", None), ..."""
    if m := ANNOTATION.match(text):
        return "annotation", m.group(1)
    if ERRATUM.match(text):
        return "erratum", None
    if SEE_ALSO.match(text):
        return "see-also", None
    return "ruling", None


LIST_ITEM_START = re.compile(r"^(?:[A-Z][a-z]+ly\s+[a-z]+s|[A-Z][a-z]+s)\b")


def completes_that_list(previous: str, text: str) -> bool:
    """A bullet that finishes a list opened by "... that:" ("Taps a company's site." after
    "A card cannot be revealed that:"), which the scrape flattened into separate bullets."""
    return bool(re.search(r"\bthat:\s*$", previous.split("\n\n")[0]) and LIST_ITEM_START.match(text))


def front_matter_title(block: Block, path: Path) -> tuple[str, int]:
    """The title: of Jekyll front matter and its line number, or a ParseError."""
    m = FRONT_TITLE.search(block.text)
    if not m:
        raise ParseError(str(path), block.span.start, "a 'title:' line in the front matter")
    return m.group(1), block.span.start + 1 + block.text[: m.start()].count("\n")


def parse_crf(source: Source, path: Path) -> ParsedDocument:
    """Parse a CRF page: parts, phase/term/card headings, bullets with their continuations."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines)
    last: Ruling | None = None  # the ruling a continuation paragraph or nested bullet extends
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
            or last.text.count("«") > last.text.count("»")
            or (block.kind == "bullet" and completes_that_list(last.text, text))
        )
        if attaches and last is not None:
            last = b.extend(last, text, block.span)
            continue
        if prose:
            b.add("note", text, block.span)
            continue
        kind, number = crf_kind(text)
        last = b.add(kind, text, block.span, number=number)
    if headings == 0:
        raise ParseError(str(path), None, "CRF headings (## Part, ### Section)", "no heading at all")
    return b.finish()

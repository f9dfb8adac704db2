"""Parser for the original rulebook's turn chapter: a scraped Jekyll page with mojibake and <br>."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.normalize import repair_line_breaks, repair_mojibake
from kb.parsers.blocks import read_lines, walk
from kb.parsers.crf import front_matter_title
from kb.parsers.document import DocumentBuilder

SCRAPE_ARTIFACT = re.compile(r"^\w*\s*\(\d+ sloc\)\s+[\d.]+ [KMG]?B\s*$")


def parse_rulebook(source: Source, path: Path) -> ParsedDocument:
    """Parse the chapter: phase headings, paragraphs, bullets and numbered steps."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines)
    start = 1
    if SCRAPE_ARTIFACT.match(lines[0]):
        b.skip(Span(1, 1), "scrape artifact (file-size line of the page it was copied from)")
        start = 2
    last: Ruling | None = None
    seen_title = False
    for block in walk(lines, start=start):
        text, fixes = repair_mojibake(block.text)
        for before, after in fixes:
            b.repair(block.span.start, "mojibake", before, after)
        text, breaks = repair_line_breaks(text)
        if breaks:
            b.repair(block.span.start, "line break", "<br>", f"newline x{breaks}")
        if block.kind == "front_matter":
            title, line = front_matter_title(block, path)
            title, fixes = repair_mojibake(title)
            b.skip(block.span, "Jekyll front matter (its title is the top section)")
            b.open_section(title, 1, Span(line, line))
            seen_title = True
            continue
        if not seen_title:
            raise ParseError(str(path), block.span.start, "Jekyll front matter with a title", text=block.text)
        if block.kind == "heading":
            last = None
            b.open_section(text, 2, block.span)
        elif block.kind == "hr":
            b.skip(block.span, "horizontal rule")
        elif block.kind == "bullet" and block.level > 0 and last is not None:
            last = b.extend(last, text, block.span)
        elif block.kind == "item":
            last = b.add("step", text, block.span, number=block.marker)
        else:
            last = b.add("rule", text, block.span)
    return b.finish()

"""Parser for the original rulebook's turn chapter: a scraped Jekyll page with mojibake and <br>."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.builder.normalize import repair_line_breaks, repair_mojibake
from kb.builder.parsers.blocks import Block, read_lines, walk
from kb.builder.parsers.crf import front_matter_title
from kb.builder.parsers.document import DocumentBuilder

SCRAPE_ARTIFACT = re.compile(r"^\w*\s*\(\d+ sloc\)\s+[\d.]+ [KMG]?B\s*$")


def parse_rulebook(source: Source, path: Path) -> ParsedDocument:
    """Parse the chapter: phase headings, paragraphs, bullets and numbered steps. A text that ends
    with a colon opens a list: its bullets are its own (one ruling: "Each of your characters may do one
    of the following: Untap or Heal"), its numbered items are steps, each a ruling of its own that is
    part of it (the movement/hazard procedure's six). A plain line after a bullet, not indented under
    it, is no part of the bullet ("Heal (if at a Haven site)." / "Untap all of your other ...")."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines, path)
    start = 1
    if SCRAPE_ARTIFACT.match(lines[0]):
        b.skip(Span(1, 1), "scrape artifact (file-size line of the page it was copied from)")
        start = 2
    walker = Walker(b)
    seen_title = False
    for block in (part for whole in walk(lines, start=start) for part in split_lazy(whole, lines)):
        text = repaired(b, block)
        if block.kind == "front_matter":
            title, line = front_matter_title(block, path)
            title, fixes = repair_mojibake(title)
            b.skip(block.span, "Jekyll front matter (its title is the top section)")
            b.open_section(title, 1, Span(line, line))
            seen_title = True
            continue
        if not seen_title:
            raise ParseError(str(path), block.span.start, "Jekyll front matter with a title", text=block.text)
        walker.read(block, text)
    return b.finish()


def repaired(b: DocumentBuilder, block: Block) -> str:
    """A block's text with its mojibake and <br> repaired, each repair recorded."""
    text, fixes = repair_mojibake(block.text)
    for before, after in fixes:
        b.repair(block.span.start, "mojibake", before, after)
    text, breaks = repair_line_breaks(text)
    if breaks:
        b.repair(block.span.start, "line break", "<br>", f"newline x{breaks}")
    return text


def split_lazy(block: Block, lines: list[str]) -> list[Block]:
    """A bullet or step and the plain lines after it that are not indented under it: the bullet, and
    those lines as a paragraph of their own (the walker, as Markdown does, joins them to the bullet)."""
    if block.kind not in ("bullet", "item") or block.span.start == block.span.end:
        return [block]
    first = block.span.start
    for number in range(first + 1, block.span.end + 1):
        line = lines[number - 1]
        if line.strip() and not line[:1].isspace():
            kept = block.text.split("\n")[: number - first]
            rest = block.text.split("\n")[number - first:]
            return [Block(block.kind, "\n".join(kept), Span(first, number - 1), block.level, block.marker),
                    Block("paragraph", "\n".join(rest), Span(number, block.span.end))]
    return [block]


class Walker:
    """The rulings of the chapter's blocks, in order: which ruling a bullet goes on, which a step is
    part of."""

    def __init__(self, b: DocumentBuilder) -> None:
        self.b = b
        self.last: Ruling | None = None
        """The ruling a nested bullet goes on: the one before it."""
        self.listing = False
        """Whether the bullets after `last` are its list (a paragraph ending with a colon opened it)."""
        self.opener: Ruling | None = None
        """The ruling whose procedure the steps after it are part of (it, or its last bullet, ends with a colon)."""

    def read(self, block: Block, text: str) -> None:
        b, opens = self.b, text.rstrip().endswith(":")
        if block.kind == "heading":
            self.last, self.listing, self.opener = None, False, None
            b.open_section(text, 2, block.span)
        elif block.kind == "hr":
            b.skip(block.span, "horizontal rule")
        elif block.kind == "bullet" and self.last is not None and (block.level > 0 or self.listing):
            self.last = b.extend(self.last, text, block.span)
            self.opener = self.last if opens else self.opener
        elif block.kind == "item":
            parent = self.opener.id if self.opener is not None else None
            self.last = b.add("step", text, block.span, number=block.marker, parent=parent)
            self.listing = False
        else:
            self.last = b.add("rule", text, block.span)
            self.listing = opens and block.kind == "paragraph"
            self.opener = self.last if opens else None

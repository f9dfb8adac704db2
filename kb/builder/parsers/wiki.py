"""Parser for the LOTR-TCG wiki page: quoted rules closed by their section citation, editorial notes."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.markers import find_markers
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.builder.parsers.blocks import read_lines, walk
from kb.builder.parsers.document import DocumentBuilder

CITATION = re.compile(r"^(.{1,40}?) section$", re.I)
NAME_RUN = re.compile(r"[\w’' -]+")
"""A run of the characters a card name is made of."""
CARD_CODE = re.compile(r"\((\d{1,2}[CURSPM]\d{1,3})\)")
"""A card code in brackets, "(1R12)", right after a name and one space."""
HEADER = (("From ", "wiki page header"), ("Revision as of", "wiki revision line (edition recorded in the manifest)"))
NAV_START = "Card Layout"


def card_refs(text: str) -> list[tuple[str, str]]:
    """The cards a quote names with their codes: card_refs("play Gandalf (1R12) now") ==
    [("Gandalf", "1R12")]. A name runs from the first capital of the run of name characters before
    the code. (The pattern ([A-Z][\\w’' -]*?)\\s\\((code)\\) said the same, but tried every
    capital of a long paragraph against the rest of it: quadratic.)"""
    found = []
    for run in NAME_RUN.finditer(text):
        end = run.end()
        if run.group(0).endswith(" ") and (code := CARD_CODE.match(text, end)):
            end -= 1
        elif end < len(text) and text[end].isspace() and (code := CARD_CODE.match(text, end + 1)):
            pass
        else:
            continue
        first = next((i for i in range(run.start(), end) if "A" <= text[i] <= "Z"), None)
        if first is not None:
            found.append((text[first:end], code.group(1)))
    return found


def parse_wiki(source: Source, path: Path) -> ParsedDocument:
    """Parse the page: each quote carries the citation ("- ally section") that follows it."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines, path)
    pending: list[Ruling] = []
    citations = 0
    blocks = list(walk(lines, join_lines=False))
    if not blocks:
        raise ParseError(str(path), None, "a wiki page", "nothing")
    b.skip(blocks[0].span, "page title (recorded in the manifest)")
    for i, block in enumerate(blocks[1:], start=1):
        text = block.text
        header = next((reason for prefix, reason in HEADER if text.startswith(prefix)), None)
        if header and i < 4:
            b.skip(block.span, header)
            continue
        if text == NAV_START:
            b.skip(Span(block.span.start, len(lines)), "wiki navigation box (links to other pages)")
            break
        if block.kind == "bullet" and (m := CITATION.match(text)):
            citations += 1
            for ruling in pending:
                b.update(ruling, markers=ruling.markers + (f"cites:{m.group(1).strip().lower()} section",))
            pending = []
            b.skip(block.span, "section citation (stored as a marker on the quotes above it)")
            continue
        if block.kind == "paragraph" and not b.path and len(text) < 40 and not text.endswith((".", "]")):
            b.open_section(text, 1, block.span)
            continue
        markers = find_markers(text) + tuple(f"card:{code} {name.strip()}" for name, code in card_refs(text))
        kind = "editorial-note" if text.startswith("[") and text.endswith("]") else "rule"
        ruling = b.add(kind, text, block.span, markers=markers)
        if kind == "rule":
            pending.append(ruling)
    if citations == 0:
        raise ParseError(str(path), None, 'section citations such as "- ally section"', "none")
    return b.finish()

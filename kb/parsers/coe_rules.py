"""Parser for the Council of Elrond rules: numbered rules, their lists, guidance, glossary, change log."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.model import ParsedDocument, Ruling, Source
from kb.parsers.blocks import read_lines, walk
from kb.parsers.document import DocumentBuilder, find_markers

RULE_NUMBER = re.compile(r"^\*\*((?:\d+|g)(?:\.[A-Za-z0-9]+)*)\*\*\s*")
CAPS_HEADING = re.compile(r"^[A-Z][A-Z ]{3,}$")
CHANGE_LOG = re.compile(r"^\((\d{4}-\d{2}-\d{2})\)\s")
CITATION_KEY = re.compile(r"^([A-Z]{2,5}(?: #)?) - (.+)$")
GLOSSARY_ENTRY = re.compile(r"^([^\s*][^*]{0,60}?) - (.+)$", re.S)
SOURCE_LINE = re.compile(r"^\*(?:Source|Last update):", re.I)


def parse_coe_rules(source: Source, path: Path) -> ParsedDocument:
    """Parse the CoE rules: every **N.N** paragraph is a rule carrying its number."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines)
    last: Ruling | None = None
    numbered = 0
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
            numbered += 1
            body = text[m.end():]
            last = b.add("rule", body, block.span, number=m.group(1), markers=find_markers(body))
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
    return b.finish()

"""Parser for the simplified timing guide: rules 1, 1A-1D, 2, 2A-2B, and the examples under each."""

from __future__ import annotations

import re
from pathlib import Path

from kb.errors import ParseError
from kb.markers import find_markers
from kb.model import ParsedDocument, Ruling, Source
from kb.builder.parsers.blocks import read_lines, walk
from kb.builder.parsers.document import DocumentBuilder

CAPS_HEADING = re.compile(r"^[A-Z][A-Z -]{3,}:$")
RULE_NUMBER = re.compile(r"^\d{1,2}[A-Z]?$")
CANONICAL = re.compile(r"^Canonical Example", re.I)


def parse_timing(source: Source, path: Path) -> ParsedDocument:
    """Parse the guide: each numbered rule, each example attached to the rule above it."""
    lines = read_lines(path)
    b = DocumentBuilder(source, lines, path)
    rule: Ruling | None = None  # the last top-level numbered rule
    sub_index = 0
    rules = 0
    for block in walk(lines, join_lines=False):
        text = block.text
        if block.kind == "paragraph" and CAPS_HEADING.match(text):
            level = 2 if text.rstrip(":") in ("EXCEPTIONS",) else 1
            b.open_section(text.rstrip(":").title(), level, block.span)
            if level == 1:
                rule = None
            continue
        section = b.path[0].lower() if b.path else ""
        if block.kind == "item" and RULE_NUMBER.match(block.marker):
            rules += 1
            if block.level == 0:
                b.close_sections(2)
                rule = b.add("rule", text, block.span, number=block.marker)
                sub_index = 0
            elif rule is not None and rule.number and rule.number.isdigit():
                sub_index += 1
                number = f"{rule.number}{chr(ord('A') + sub_index - 1)}"
                b.add("rule", text, block.span, number=number, parent=rule.id)
            else:
                b.add("rule", text, block.span, number=block.marker)
        elif block.kind == "bullet" and section == "gameplay examples" and rule is not None:
            markers = find_markers(text) + (("canonical",) if CANONICAL.match(text) else ())
            b.add("example", text, block.span, number=rule.number, parent=rule.id, markers=markers)
        elif block.kind == "bullet":
            b.add("reference", text, block.span)
        else:
            b.add("note", text, block.span)
    if rules == 0:
        raise ParseError(str(path), None, "numbered timing rules (1., 1A., ...)", "none")
    return b.finish()

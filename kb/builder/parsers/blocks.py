"""The one block walker every text parser builds on: source lines in, Block(kind, text, span) out."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kb.errors import ParseError
from kb.inputs import line_and_column, long_number, read_bytes
from kb.model import Span

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
"""A heading line; its closing "#"s and the spaces around them are stripped by heading_text()."""
BOLD_LINE = re.compile(r"^\*\*([^*]+?)\*\*\s*$")
HR = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,})\s*$")
BULLET = re.compile(r"^(\s*)([-*•])(?:\s+(.*)|\s*$)")
ORDERED = re.compile(r"^(\s*)(\d{1,2}[A-Z]?)[.)]\s+(.*)$")
FRONT_KEY = re.compile(r"^[A-Za-z_][\w-]*:")


@dataclass(frozen=True, slots=True)
class Block:
    """One block of a document: a heading, a list item, a paragraph, a rule line or front matter."""

    kind: str
    """heading, bullet, item (numbered), paragraph, hr, front_matter."""
    text: str
    """Content without its markup marker (no "## ", "- ", "1. ")."""
    span: Span
    """Source lines."""
    level: int = 0
    """Heading level (1-6; 0 for a bold-only line); indentation of a list item."""
    marker: str = ""
    """The list marker ("-", "•", "1", "1A") or "**" for a bold-only heading."""


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 text file (BOM and CR dropped); ParseError for anything else.

    The file must be a regular file within the size cap (kb.inputs). Lines are split on "\\n"
    only, so line numbers match an editor's.
    """
    data = read_bytes(path)
    if not data.strip():
        raise ParseError(str(path), None, "a non-empty document", "an empty file")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise ParseError(str(path), 1, "UTF-8 text", "a UTF-16 file (convert it to UTF-8)")
    nul = data.find(b"\x00")
    if nul >= 0:
        line, column = position(data, nul)
        raise ParseError(str(path), line, "text", f"binary data (a NUL byte at column {column})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        line, column = position(data, start)
        raise ParseError(str(path), line, "UTF-8 text", f"byte 0x{data[start]:02X} at column {column}, "
                         "which UTF-8 does not allow there (is it Latin-1? convert it to UTF-8)") from exc
    long = long_number(text)
    if long is not None:  # no parser reads it as a number: Python would not
        line, column = line_and_column(text, long[0])
        raise ParseError(str(path), line, "text", f"{long[1]} at column {column}")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def position(data: bytes, offset: int) -> tuple[int, int]:
    """The line and column (both from 1, the column counted in bytes) of a byte offset."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def _front_matter_end(lines: list[str], first: int) -> int | None:
    """Index of the closing "---" of Jekyll front matter opening at lines[first], if any."""
    if lines[first].strip() != "---":
        return None
    for i in range(first + 1, min(len(lines), first + 40)):
        if lines[i].strip() == "---":
            return i if i > first + 1 else None
        if not FRONT_KEY.match(lines[i]):
            return None
    return None


def walk(lines: list[str], *, start: int = 1, join_lines: bool = True) -> Iterator[Block]:
    """Yield the blocks of `lines` from line number `start` (1-based).

    With join_lines, a plain line right after a paragraph or list item continues it (Markdown's
    lazy continuation); without, every non-blank line is its own block (text extracted from PDFs).
    Blank lines belong to no block.
    """
    i = start - 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and i < start + 3:
        end = _front_matter_end(lines, i)
        if end is not None:
            yield Block("front_matter", "\n".join(lines[i + 1 : end]), Span(i + 1, end + 1))
            i = end + 1
    current: Block | None = None
    more: list[str] = []  # continuation lines of current, joined once it is complete (not line by line)
    last = 0
    for n in range(i, len(lines)):
        line = lines[n]
        number = n + 1
        if not line.strip():
            if current:
                yield _joined(current, more, last)
                current = None
            continue
        block = _classify(line, number)
        if block is None:  # plain text
            if join_lines and current is not None and current.kind in ("paragraph", "bullet", "item"):
                more.append(line.strip())
                last = number
                continue
            block = Block("paragraph", line.strip(), Span(number, number))
        if current:
            yield _joined(current, more, last)
        current, more, last = block, [], number
        if block.kind in ("heading", "hr"):
            yield current
            current = None
    if current:
        yield _joined(current, more, last)


def _joined(block: Block, more: list[str], last: int) -> Block:
    """A block with its continuation lines (ending on line `last`)."""
    if not more:
        return block
    return Block(block.kind, "\n".join([block.text, *more]), Span(block.span.start, last), block.level, block.marker)


def heading_text(text: str) -> str:
    """A heading's text without its closing "#"s: heading_text("Title ## ") == "Title".

    Done with str methods, not a lazy pattern such as (.*?)\\s*#*\\s*$, which backtracks over
    every run of spaces (cubic in the line's length)."""
    return text.rstrip().rstrip("#").rstrip()


def _classify(line: str, number: int) -> Block | None:
    """The block a line opens, or None for plain text."""
    span = Span(number, number)
    if m := HEADING.match(line):
        return Block("heading", heading_text(m.group(2)), span, level=len(m.group(1)), marker="#")
    if m := BOLD_LINE.match(line):
        return Block("heading", m.group(1).strip(), span, level=0, marker="**")
    if HR.match(line):
        return Block("hr", line.strip(), span)
    if m := BULLET.match(line):
        return Block("bullet", (m.group(3) or "").strip(), span, level=len(m.group(1)), marker=m.group(2))
    if m := ORDERED.match(line):
        return Block("item", m.group(3).strip(), span, level=len(m.group(1)), marker=m.group(2))
    return None

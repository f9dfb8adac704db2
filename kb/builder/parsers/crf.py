"""Parser for the Collected Rulings File (CRF 22 and the older Turn Sequence page): headings and bullets."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kb.errors import ParseError
from kb.markers import has_words
from kb.model import ParsedDocument, Ruling, Source, Span
from kb.builder.parsers.blocks import Block, read_lines, walk
from kb.builder.parsers.document import DocumentBuilder

PARTS = ("introduction", "contents", "turn sequence rulings", "rulings by term",
         "tournament rulings", "card errata and rulings")
CHANGES = re.compile(r"^changes from (?:crf|previous)", re.I)
PROSE_PARTS = ("introduction",)
ANNOTATION = re.compile(r"^\W*Annotation\s+(\d+[a-z]?)\b\s*(?:\([^)]*\))?\s*:", re.I)
ERRATUM = re.compile(r"^\W*(?:\([^()]*\)\s*)?(?:rules|card)\s+erratum", re.I)
"""A ruling that opens as an erratum, after the versions it is of if it names them ("(Hero version)
Card Erratum: ..."). (@ and spaces are \\W already: "^\\W*(?:@\\s*)?\\W*" said the same, backtracking
quadratically.)"""
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


STEPS_LIST = re.compile(r"\bfollow these steps:\s*$")
"""A ruling that opens a list of steps ("To calculate marshalling points at the Free Council, follow
these steps:"): every bullet after it up to a "See also" is one of its steps."""


FOLLOWING_CARDS = re.compile(r"\bthe following cards\b", re.I)
"""A ruling that announces cards it does not list itself ("You may not play the following cards if your
opponent is a Ringwraith or Sauron."; not "any of the following cards: The Balrog (Ally), ..."): every
bullet after it, up to a "See also" or the next such ruling, is one of its cards or what it says of them."""


def completes_that_list(previous: str, text: str) -> bool:
    """A bullet that finishes a list opened by "... that:" ("Taps a company's site." after
    "A card cannot be revealed that:"), by "follow these steps:" or by "the following cards" (up to a
    "See also", or the next ruling announcing cards), which the scrape flattened into separate bullets.
    `previous` is the first paragraph of the ruling before."""
    if STEPS_LIST.search(previous):
        return not SEE_ALSO.match(text)
    if (announced := FOLLOWING_CARDS.search(previous)) and ":" not in previous[announced.end():]:
        return not SEE_ALSO.match(text) and not FOLLOWING_CARDS.search(text)
    return bool(THAT_LIST.search(previous) and LIST_ITEM_START.match(text))


def front_matter_title(block: Block, path: Path) -> tuple[str, int]:
    """The title: of Jekyll front matter and its line number, or a ParseError."""
    for offset, line in enumerate(block.text.split("\n")):
        if line.startswith("title:") and line[6:].strip():
            return line[6:].strip(), block.span.start + 1 + offset
    raise ParseError(str(path), block.span.start, "a 'title:' line in the front matter")


@dataclass(slots=True)
class CrfState:
    """What the rules of a CRF page share while they walk it (markdown-it-py's StateBlock)."""

    b: DocumentBuilder
    path: Path
    last: Ruling | None = None
    """The ruling a continuation paragraph or nested bullet extends."""
    lead: str = ""
    """Its first paragraph."""
    unclosed: int = 0
    """How many more « than » its text has (kept as it grows: counting anew is quadratic)."""
    in_residue: bool = False
    """Whether the blocks before were the site's footer."""
    part: str = ""
    """The part open, lower case ("turn sequence rulings")."""
    headings: int = 0


CrfRule = Callable[[CrfState, Block], bool]
"""A rule of a CRF page: takes a block (True) or leaves it to the next rule (False)."""


def front_matter(s: CrfState, block: Block) -> bool:
    """Jekyll front matter: skipped, its title opens the top section (and part)."""
    if block.kind != "front_matter":
        return False
    title, line = front_matter_title(block, s.path)
    s.b.skip(block.span, "Jekyll front matter (its title is the top section)")
    s.b.open_section(title, 1, Span(line, line))
    s.part, s.last = title.lower(), None
    return True


def heading(s: CrfState, block: Block) -> bool:
    """A heading: the title skipped, a part's opens a part, a bold line half a level below the one open."""
    if block.kind != "heading":
        return False
    s.headings += 1
    s.in_residue, s.last = False, None
    title = block.text
    if block.level == 1:
        s.b.skip(block.span, "document title (recorded in the manifest)")
    elif block.level == 2 and (title.lower() in PARTS or CHANGES.match(title)):
        s.part = title.lower()
        s.b.open_section(title, 1, block.span)
    elif block.marker == "**":
        s.b.open_section(title, s.b.child_level(), block.span)
    else:
        s.b.open_section(title, block.level, block.span)
    return True


def horizontal_rule(s: CrfState, block: Block) -> bool:
    """A horizontal rule: skipped."""
    if block.kind != "hr":
        return False
    s.b.skip(block.span, "horizontal rule")
    return True


def footer(s: CrfState, block: Block) -> bool:
    """The web page's footer: its line and the links after it skipped; any other block ends it."""
    if block.kind == "paragraph" and RESIDUE_LINE.match(block.text):
        s.in_residue, s.last = True, None
        s.b.skip(block.span, "web page residue (site footer)")
        return True
    if s.in_residue and block.kind == "bullet" and block.text.strip().lower() in RESIDUE_ITEMS:
        s.b.skip(block.span, "web page residue (site footer links)")
        return True
    s.in_residue = False
    return False


def preamble(s: CrfState, block: Block) -> bool:
    """Text before the first heading: the source address skipped, anything else a ParseError."""
    if s.b.path:
        return False
    if block.text.startswith("Source:"):
        s.b.skip(block.span, "source address (recorded in the manifest)")
        return True
    raise ParseError(str(s.path), block.span.start, "a heading before the first text", text=block.text)


def contents(s: CrfState, block: Block) -> bool:
    """The table of contents: skipped (the headings themselves are stored)."""
    if s.part != "contents":
        return False
    s.b.skip(block.span, "table of contents (the headings themselves are stored)")
    return True


def ruling(s: CrfState, block: Block) -> bool:
    """Any other block: an empty item skipped, a line of marks alone skipped (the "@" of the
    introduction's legend, which the line after it explains: a legend is no ruling), a continuation
    joined to the ruling before, a note in a prose part, else a ruling of its kind (crf_kind)."""
    text = block.text
    if block.kind == "bullet" and not text.strip():
        s.b.skip(block.span, "empty list item")
        return True
    if not has_words(text):
        s.b.skip(block.span,
                 "a mark alone, without words (the legend of the CRF's “@”, explained by the line after it)")
        return True
    prose = s.part in PROSE_PARTS
    if s.last is not None and not prose and continues(s, block, text):
        s.last = s.b.extend(s.last, text, block.span)
        s.unclosed += text.count("«") - text.count("»")
        return True
    if prose:
        s.b.add("note", text, block.span)
        return True
    kind, number = crf_kind(text)
    s.last = s.b.add(kind, text, block.span, number=number)
    s.lead, s.unclosed = text, text.count("«") - text.count("»")
    return True


def continues(s: CrfState, block: Block, text: str) -> bool:
    """Whether a block goes on with the ruling before: a nested bullet, a paragraph, anything while a
    « is open, or a bullet that completes a "... that:" list."""
    return ((block.kind == "bullet" and block.level > 0)
            or block.kind == "paragraph"
            or s.unclosed > 0
            or (block.kind == "bullet" and completes_that_list(s.lead, text)))


RULES: tuple[CrfRule, ...] = (front_matter, heading, horizontal_rule, footer, preamble, contents, ruling)
"""The rules of a CRF page, in order: the first that takes a block handles it (ruling takes any)."""


def parse_crf(source: Source, path: Path) -> ParsedDocument:
    """Parse a CRF page: parts, phase/term/card headings, bullets with their continuations."""
    lines = read_lines(path)
    s = CrfState(DocumentBuilder(source, lines, path), path)
    for block in walk(lines):
        any(rule(s, block) for rule in RULES)
    if s.headings == 0:
        raise ParseError(str(path), None, "CRF headings (## Part, ### Section)", "no heading at all")
    return s.b.finish()

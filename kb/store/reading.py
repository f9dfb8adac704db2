"""A stored ruling's text as readers read it: the source's markup read once (Markdown emphasis, the
CRF's "@" of a new ruling, a card's icon codes) into plain words with their emphasis. The build finds
its links' places in these words (kb.builder.xref); the terminal styles them, JSON gives them as
`text` and the site renders them (kb.read.render).

Nothing from a source is ever read as markup but emphasis: raw HTML, entities, links and images in the
Markdown are disabled (they read as the text they are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from kb.markers import NEW_MARK

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

MARKDOWN_PARSERS = frozenset({"crf", "coe_rules", "rulebook"})
"""Sources whose text is Markdown (emphasis, code); the others are plain text."""


Style = tuple[bool, bool]
"""(strong, em): how a run of text is emphasised."""


@dataclass(frozen=True, slots=True)
class Reading:
    """A ruling's text as a reader reads it: its words, and the runs of them the source emphasises."""

    runs: tuple[tuple[str, bool, bool], ...]
    """(text, strong, em), in order; joined, they are the text."""

    @property
    def text(self) -> str:
        """The words alone: reading("**[HERO]** When", "crf").text == "[HERO] When"."""
        return "".join(t for t, _, _ in self.runs)

    def emphasis(self) -> list[tuple[int, int, bool, bool]]:
        """(start, end, strong, em) of each emphasised run, by its place in the text."""
        out, at = [], 0
        for t, strong, em in self.runs:
            if strong or em:
                out.append((at, at + len(t), strong, em))
            at += len(t)
        return out


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    """markdown-it, CommonMark with raw HTML, entities, links and images off: imported when a text
    first has markup to read (a command that shows none starts without it)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).disable(["link", "image", "autolink", "html_inline", "entity"])


STRAY = re.compile(r"\*+")
"""A run of asterisks that Markdown paired with none (kb.store.reading._unpaired reads what it meant)."""
OPENS = frozenset(" \t\n([{“‘«\"'")
"""What may stand before an asterisk that opens emphasis Markdown did not pair."""
GLUE = re.compile(r"[.:;,!?]$")
"""Punctuation that ends one emphasised run where the next begins without a space (":*«Playable")."""
GLUED_START = re.compile(r"^[^\W_]|^[«“(]")


def reading(text: str, parser: str) -> Reading:
    """A stored ruling's text as a reader reads it (the terminal, JSON's `text`, the site): a card's
    icon codes as words (kb.builder.cardface.readable), the CRF's "@" left to the marker "new", Markdown
    emphasis (a source of MARKDOWN_PARSERS) read into emphasised runs, its markers gone:
    reading("@ *Card Erratum:* Remove it", "crf").text == "Card Erratum: Remove it"."""
    if parser == "cards":
        # (only here: a lookup that shows no card never reads the card database's codes)
        from kb.builder.cardface import readable

        return Reading(((readable(text), False, False),))
    if parser in MARKDOWN_PARSERS:
        return markdown_reading(text)
    return Reading(((unmarked(text), False, False),))


def markdown_reading(text: str) -> Reading:
    """reading() of a source written in Markdown: a ruling's `markdown` in JSON read as its `text`."""
    return read_markdown(unmarked(text))


def unmarked(text: str) -> str:
    """The text without the CRF's "@" of a new ruling (the marker "new" says it): unmarked("@ Change x")
    == "Change x"; an "@" alone is kept."""
    mark = NEW_MARK.match(text)
    return text[mark.end():].lstrip() if mark and text[mark.end():].strip() else text


@lru_cache(maxsize=16384)  # the site shows one ruling on several pages, the terminal some twice
def read_markdown(text: str) -> Reading:
    """Markdown emphasis read into runs (markdown-it's reading: `**bold**`, `*italic*`), then what
    it left unpaired: a run of two or three asterisks was emphasis that lost its partner (dropped);
    single ones are paired as the source meant where CommonMark would not ("*Card Erratum:*Remove");
    an asterisk that stands for itself ("no * by the MPs", "“*”", "greater*)") is kept."""
    if "*" not in text and "_" not in text and "`" not in text and "\\" not in text:
        return Reading(((text, False, False),))
    runs: list[tuple[str, bool, bool]] = []
    strong = em = 0
    line_start = True
    for block in _markdown().parseInline(text):
        for token in block.children or []:
            kind = token.type
            if kind in ("strong_open", "strong_close"):
                strong += 1 if kind == "strong_open" else -1
            elif kind in ("em_open", "em_close"):
                em += 1 if kind == "em_open" else -1
            elif kind in ("text", "code_inline"):
                runs += _unpaired(token.content, strong > 0, em > 0, line_start)
            elif kind in ("softbreak", "hardbreak"):
                runs.append(("\n", strong > 0, em > 0))
            line_start = kind in ("softbreak", "hardbreak")
    return Reading(_joined(runs))


FIRST_WORD = re.compile(r"[^\W\d_]+")


def _unpaired(text: str, strong: bool, em: bool, line_start: bool = False) -> list[tuple[str, bool, bool]]:
    """A text run's asterisks that Markdown left as text, read: two or more dropped; one that can
    open (after a space, a bracket or a quote, before a word) paired with the next that can close
    (after a non-space), the words between in italics; one after the first word of a line and
    before its punctuation closes what the line's lost opener began ("Corruption*. The next");
    the others kept."""
    if "*" not in text:
        return [(text, strong, em)]
    out: list[tuple[str, bool, bool]] = []
    at, opened = 0, -1
    pieces: list[tuple[int, int, str]] = []  # (start, end, what): "drop", "open", "close", "keep"
    for m in STRAY.finditer(text):
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if len(m.group()) > 1:
            pieces.append((m.start(), m.end(), "drop"))
        elif opened >= 0 and not before.isspace():
            pieces[opened] = (*pieces[opened][:2], "open")
            pieces.append((m.start(), m.end(), "close"))
            opened = -1
        elif line_start and not pieces and after in ".,:;" and FIRST_WORD.fullmatch(text[:m.start()]):
            pieces += [(0, 0, "open"), (m.start(), m.end(), "close")]
        else:
            pieces.append((m.start(), m.end(), "keep"))
            if before in OPENS and (after.isalnum() or after in "«“("):
                opened = len(pieces) - 1
    italic = False
    for start, end, what in pieces:
        if start > at:
            out.append((text[at:start], strong, em or italic))
        if what == "keep":
            out.append(("*", strong, em or italic))
        elif what in ("open", "close"):
            italic = what == "open"
        at = end
    out.append((text[at:], strong, em))
    return [r for r in out if r[0]]


def _joined(runs: list[tuple[str, bool, bool]]) -> tuple[tuple[str, bool, bool], ...]:
    """Runs of the same emphasis joined; a space put between two runs the markup glued together
    ("Change text to:" then "«Playable", "Erratum:" then "Remove")."""
    out: list[tuple[str, bool, bool]] = []
    for text, strong, em in runs:
        if not text:
            continue
        if out and GLUE.search(out[-1][0]) and GLUED_START.match(text):
            text = " " + text
        if out and out[-1][1:] == (strong, em):
            out[-1] = (out[-1][0] + text, strong, em)
        else:
            out.append((text, strong, em))
    return tuple(out)


DIVIDER = re.compile(r"^-=\s*(.+?)\s*=-$")
"""A section divider of the CRF's card rulings ("-= AAA =-"): a letter of the alphabet, not a heading."""


def divider_letter(title: str) -> str | None:
    """divider_letter("-= III =-") == "I"; None for a heading that is no divider."""
    m = DIVIDER.match(title.strip())
    return m.group(1)[:1].upper() if m else None


def clean_heading(title: str) -> str:
    """A heading as a reader sees it: a divider as its letter."""
    return divider_letter(title) or title

"""The builder every parser fills: section tree, rulings with stable ids, skipped lines, repairs."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

from kb.errors import ParseError
from kb.markers import find_markers, has_words
from kb.builder.normalize import decode_entities
from kb.model import Card, ParsedDocument, Problem, Repair, Ruling, Section, Skip, Source, Span

CLOSERS = "»”\"’')]*_"
"""What may follow a sentence's stop: closing quotes and brackets, Markdown's emphasis closed."""


def ends_sentence(text: str) -> bool:
    """Whether a text ends as a sentence does: its stop, then any closing quotes or brackets and
    the source's tags ("[CoE 2024]"). ends_sentence("It is (as said).” [CoE 2024]") is True;
    ends_sentence("of the item’s") is False."""
    return untagged(text).rstrip(CLOSERS)[-1:] in (".", "!", "?")


def cut_reason(text: str) -> str:
    """Why a passage of a text a PDF extraction may have cut reads as cut, or "" if it reads whole:
    it opens in lower case (its start is elsewhere, or lost), it ends without a sentence's end
    (ends_sentence: its rest is elsewhere, or lost). cut_reason("of his companies at their current
    locations.") == "it begins mid-sentence"."""
    letter = next((c for c in text if c.isalpha()), "")
    begins, ends = letter.islower(), not ends_sentence(text)
    if begins and ends:
        return "it begins and breaks off mid-sentence"
    return "it begins mid-sentence" if begins else "it breaks off mid-sentence" if ends else ""


def untagged(text: str) -> str:
    """The text without the source's tags at its end: untagged("x» [CoE 2023]") == "x»"."""
    text = text.rstrip()
    while text.endswith("]") and (start := text.rfind("[")) > 0:
        text = text[:start].rstrip()
    return text


def slug(text: str) -> str:
    """A lower-case ASCII slug: slug("Khamûl the Easterling") == "khamul-the-easterling"."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "x"


def content_hash(*parts: str) -> str:
    """Ten hex digits of a SHA-1 over whitespace-normalised parts."""
    joined = "\x1f".join(" ".join(p.split()) for p in parts)
    return hashlib.sha1(joined.encode("utf-8")).hexdigest()[:10]


class DocumentBuilder:
    """Collects what a parser finds, in document order, and gives every item a stable id."""

    def __init__(self, source: Source, lines: list[str], file: Path | None = None) -> None:
        self.source = source
        self.lines = lines
        self.file = str(file) if file is not None else source.path
        """The file read, as messages name it (the manifest's path when none is given)."""
        self.doc = ParsedDocument(source=source, line_count=len(lines))
        self._stack: list[tuple[float, str]] = []
        self._ids: Counter[str] = Counter()
        self._order = 0
        self._at: dict[str, int] = {}
        """Where each ruling (by its temporary id) is in doc.rulings."""
        self._more: dict[str, list[str]] = {}
        """The continuations of each extended ruling, joined to its text in finish()."""

    # -- sections ---------------------------------------------------------------------------
    @property
    def path(self) -> tuple[str, ...]:
        """The current section path."""
        return tuple(title for _, title in self._stack)

    def open_section(self, title: str, level: float, span: Span) -> None:
        """Start a section at `level`, closing any at that level or deeper."""
        title = self.decoded(title, span.start)
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        path = self.path
        base = f"{self.source.id}/{slug(' '.join(path))}"
        self._ids[base] += 1
        sid = base if self._ids[base] == 1 else f"{base}-{self._ids[base]}"
        self._order += 1
        self.doc.sections.append(Section(sid, self.source.id, path, span, self._order))

    def close_sections(self, level: float) -> None:
        """Close every open section at `level` or deeper."""
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()

    # -- rulings -----------------------------------------------------------------------------
    def raw(self, span: Span) -> str:
        """The exact source lines of a span."""
        return "\n".join(self.lines[span.start - 1 : span.end])

    def add(self, kind: str, text: str, span: Span, *, number: str | None = None,
            markers: tuple[str, ...] | None = None, title: str | None = None,
            parent: str | None = None, section: tuple[str, ...] | None = None,
            raw: str | None = None, key: str | None = None) -> Ruling:
        """Store one ruling; its id hashes source, section path and text (or is source.key when the
        source gives its own stable key, like a card id), so it survives edits elsewhere."""
        path = self.path if section is None else tuple(self.decoded(t, span.start) for t in section)
        text = self.decoded(text, span.start)
        title = self.decoded(title, span.start) if title is not None else None
        self._order += 1
        ruling = Ruling(
            id=f"key-{key}" if key else f"tmp-{self._order}", source=self.source.id, section=path, kind=kind,
            number=number, text=text,
            raw=self.raw(span) if raw is None else raw, span=span,
            markers=find_markers(text) if markers is None else markers,
            order=self._order, title=title, parent=parent,
        )
        self._at[ruling.id] = len(self.doc.rulings)
        self.doc.rulings.append(ruling)
        return ruling

    def extend(self, ruling: Ruling, text: str, span: Span) -> Ruling:
        """Grow a stored ruling by a continuation (a paragraph or nested list after a bullet).

        The ruling returned has the whole span; its text (paragraphs joined by a blank line), raw
        lines and markers (found in the whole text) are completed once, by finish() or update():
        doing it on every continuation made a ruling of many lines quadratic to read.
        """
        new = replace(ruling, span=Span(ruling.span.start, span.end))
        self.doc.rulings[self._at[ruling.id]] = new
        self._more.setdefault(ruling.id, []).append(self.decoded(text, span.start))
        return new

    def update(self, ruling: Ruling, **changes: object) -> Ruling:
        """Swap a stored ruling for a changed copy (markers learnt from a later line, ...)."""
        current = self._complete(self.doc.rulings[self._at[ruling.id]])
        new = replace(current, **changes)  # type: ignore[arg-type]
        self.doc.rulings[self._at[ruling.id]] = new
        return new

    def _complete(self, ruling: Ruling) -> Ruling:
        """A ruling with its continuations joined to its text, its raw lines and markers brought up
        to date (itself, if it has none)."""
        more = self._more.pop(ruling.id, None)
        if not more:
            return ruling
        text = "\n\n".join([ruling.text, *more])
        return replace(ruling, text=text, raw=self.raw(ruling.span), markers=find_markers(text))

    def child_level(self) -> float:
        """The level for a heading one half-level below the deepest real heading open."""
        if not self._stack:
            return 1.5
        level = self._stack[-1][0]
        return level if level % 1 else level + 0.5

    def card(self, card: Card, line: int) -> None:
        """Store a card of the card database (at this line), its names read as its ruling's are."""
        self.doc.cards.append(replace(card, set_name=self.decoded(card.set_name, line),
                                      names={k: self.decoded(v, line) for k, v in card.names.items()}))

    def decoded(self, text: str, line: int) -> str:
        """A source's text with its HTML entities read (kb.builder.normalize.decode_entities), each a repair:
        every text the builder stores passes here, whatever the parser."""
        text, changes = decode_entities(text)
        for before, after in changes:
            self.repair(line, "HTML entity", before, after)
        return text

    # -- what is not stored --------------------------------------------------------------------
    def skip(self, span: Span, reason: str) -> None:
        """Report lines as deliberately not stored."""
        self.doc.skipped.append(Skip(span, reason))

    def repair(self, line: int, kind: str, before: str, after: str) -> None:
        """Record a repair made to source text."""
        self.doc.repairs.append(Repair(line, kind, before, after))

    def problem(self, line: int | None, message: str) -> None:
        """Record a warning."""
        self.doc.problems.append(Problem(self.source.id, line, message))

    def note(self, line: int, message: str) -> None:
        """Record a note about the source's own text (kept as it is; not a warning)."""
        self.doc.problems.append(Problem(self.source.id, line, message, "note"))

    def finish(self) -> ParsedDocument:
        """Give every ruling its stable id, skip blank lines nothing covers, return the document.

        An id is the source id and ten hex digits of a hash of the section path and the text, so it
        stays the same across rebuilds and edits elsewhere in the file; a second identical ruling in
        the same section gets "-2".
        """
        self.doc.rulings = [self._complete(r) for r in self.doc.rulings]
        for r in self.doc.rulings:
            if not has_words(r.text):  # a parser stores words: a line of marks alone is skipped with its reason
                raise ParseError(self.file, r.span.start, "words in every ruling stored (a line without "
                                 "any is skipped, with its reason, by the parser)", "a ruling of none", text=r.text)
        final: dict[str, str] = {}
        for r in self.doc.rulings:
            if r.id.startswith("key-"):
                final[r.id] = f"{self.source.id}.{r.id[4:]}"
                continue
            base = f"{self.source.id}.{content_hash(' / '.join(r.section), r.text)}"
            self._ids[base] += 1
            final[r.id] = base if self._ids[base] == 1 else f"{base}-{self._ids[base]}"
        self.doc.rulings = [
            replace(r, id=final[r.id], parent=final.get(r.parent, r.parent) if r.parent else None)
            for r in self.doc.rulings
        ]
        covered: set[int] = set()
        for r in self.doc.rulings:
            covered.update(r.span.lines())
        for s in self.doc.sections:
            covered.update(s.span.lines())
        for k in self.doc.skipped:
            covered.update(k.span.lines())
        start = None
        for n in range(1, len(self.lines) + 2):
            blank = n <= len(self.lines) and n not in covered and not self.lines[n - 1].strip()
            if blank and start is None:
                start = n
            elif not blank and start is not None:
                self.skip(Span(start, n - 1), "blank")
                start = None
        return self.doc

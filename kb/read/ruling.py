"""A ruling as every reader shows it (the one shape of kb/data/schema/ruling.json), and rulings grouped by source."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.store.reading import MARKDOWN_PARSERS, Reading, reading


@dataclass(frozen=True, slots=True)
class Ruling:
    """One ruling as every reader shows it: as stored, with its source's title and edition, the
    notes `rulings check` makes on its lines, and its place on the site."""

    id: str
    source: str
    source_title: str
    edition: str
    current: bool
    """Whether its source is a current edition."""
    game: str
    section: tuple[str, ...]
    """The headings it sits under, outermost first."""
    kind: str
    number: str | None
    title: str | None
    stored: str
    """Its text as stored: the source's own markup (reading() reads it)."""
    parser: str
    """Its source's parser, which says how the text is written (kb.store.reading.reading)."""
    lines: tuple[int, int]
    markers: tuple[str, ...]
    url: str
    """Its place on the site: its page and anchor ("doc/crf-22-turn-sequence-rulings.html#crf-22.454d048a6d")."""
    ord: int = 0
    """Its place in its document."""
    notes: tuple[str, ...] = ()
    """What `rulings check` notes on the source's own text at its lines (a rule numbered under the wrong parent)."""
    incomplete: str = ""
    """Why the source's text of it is not whole (kb.model.Ruling.incomplete), "" where it reads whole."""

    @property
    def page(self) -> str:
        """The page it lives on ("doc/crf-22-turn-sequence-rulings.html")."""
        return self.url.partition("#")[0]

    def reading(self) -> Reading:
        """Its text as a reader reads it (kb.store.reading.reading)."""
        return reading(self.stored, self.parser)

    def to_json(self) -> dict[str, Any]:
        """The one ruling shape: its text as a reader reads it, and, from a source written in
        Markdown, its text so written ("markdown"); "incomplete": why the source's text of it is not
        whole, or null; "notes" when it has some."""
        out = {"id": self.id, "source": self.source, "source_title": self.source_title, "edition": self.edition,
               "current": self.current, "game": self.game, "section": list(self.section), "kind": self.kind,
               "number": self.number, "title": self.title, "text": self.reading().text,
               "markdown": self.stored if self.parser in MARKDOWN_PARSERS else None,
               "lines": list(self.lines), "markers": list(self.markers), "url": self.url,
               "incomplete": self.incomplete or None}
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class Group:
    """Rulings of one source, in the order given."""

    source: str
    source_title: str
    edition: str
    rulings: tuple[Ruling, ...]

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "source_title": self.source_title, "edition": self.edition,
                "rulings": [r.to_json() for r in self.rulings]}


def grouped(rulings: Iterable[Ruling]) -> list[Group]:
    """Rulings grouped by source, in the order given (each source where its first ruling is)."""
    groups: dict[str, list[Ruling]] = {}
    for r in rulings:
        groups.setdefault(r.source, []).append(r)
    return [Group(s, rs[0].source_title, rs[0].edition, tuple(rs)) for s, rs in groups.items()]


def rulings_json(rulings: Iterable[Ruling]) -> list[dict[str, Any]]:
    """Rulings in the ruling shape, in the order given."""
    return [r.to_json() for r in rulings]


def groups_json(rulings: Iterable[Ruling]) -> list[dict[str, Any]]:
    """Rulings grouped by source (grouped), in the JSON shape."""
    return [g.to_json() for g in grouped(rulings)]

"""The reading order of a text extracted from a two-column PDF, restored as its repair file says.

A PDF's text extraction reads a page's two columns line by line across, so a paragraph is cut and
goes on lines later (or earlier: the top of the next column), a line can hold the end of one passage
and the start of another, and words of one column land inside the other. The repair file (TOML,
in kb/data, made for one text: its path and SHA-256) says, each with why, checked by a person
against the text:

- `[[cut]]`: a line holding two passages is cut in pieces, before the words given ("84a", "84b");
- `[[drop]]`: words of the other column, or a broken repeat, landed in a line ("debris"), taken out
  of the words around them (which must stand once on the line);
- `[[thread]]`: pieces read one after another ("100", "77", "79"): the first stays where it is,
  the others are taken from their places and read after it, each going on with the one before
  where that one's sentence is cut; with `one = true`, one passage whatever its sentences (a list
  whose items go on in the other column after a whole sentence);
- `[[whole]]`: a passage that looks cut (no sentence's stop) but is whole as it is (a legend);
- `[[gap]]`: a passage with words missing inside it, where the text gives no rest.

Nothing is added to the text: the pieces are the source's own words, each read once; every change is
recorded as a repair. A file made for another text is not applied (kb.builder.parsers.arda says so).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import KbBroken, ParseError
from kb.tables import data_file

PIECE = re.compile(r"(?P<line>[1-9][0-9]*)(?P<part>[a-z]?)")
"""A piece's name: its line, and a letter when the line is cut ("84", "84a")."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A line, or a part of a cut one, in reading order."""

    line: int
    name: str
    """"84", or "84a", "84b" for the parts of a cut line."""
    text: str
    """The source's words (debris dropped)."""
    joined: bool = False
    """A thread reads it on from the piece before it, whatever its first letter."""
    bound: bool = False
    """A thread (`one = true`) reads it on from the piece before it, whatever that one's end."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A passage the repair file vouches for (`whole`) or finds words missing in (`gap`)."""

    line: int
    words: str
    """`whole`: the words the passage begins with; `gap`: the words after which words are missing."""
    why: str


@dataclass(frozen=True, slots=True)
class ReadingOrder:
    """A repair file: what to cut, drop and read in which order in one text."""

    path: str
    """The source's path in its folder (rulings/), as the manifest gives it."""
    sha256: str
    """The SHA-256 of the text the repairs were made for."""
    cuts: tuple[tuple[int, str, str], ...] = ()
    """(line, the words a piece begins with, why)."""
    drops: tuple[tuple[int, str, str, str], ...] = ()
    """(line, the words they are taken out of, the words taken out, why)."""
    threads: tuple[tuple[tuple[str, ...], str, bool], ...] = ()
    """(the pieces read one after another, why, whether they are one passage whatever their sentences)."""
    whole: tuple[Mark, ...] = ()
    gaps: tuple[Mark, ...] = ()

    def fits(self, raw: bytes) -> bool:
        """Whether the repairs were made for this text."""
        return hashlib.sha256(raw).hexdigest() == self.sha256


NONE = ReadingOrder("", "")
"""No repairs: the text read in the order it is written."""


def load_order(name: str) -> ReadingOrder:
    """A repair file of kb/data ("arda_reading_order.toml"); KbBroken naming the file and entry if damaged."""
    return read_order(data_file(name), f"kb/data/{name}")


def read_order(file: Path, where: str) -> ReadingOrder:
    """A repair file (`where` names it in messages); KbBroken naming the file and entry if damaged."""
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise KbBroken(f"{where}: cannot be read ({exc}); reinstall rulings or restore the file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise KbBroken(f"{where}: not valid TOML ({exc}); fix the line it names") from exc
    return ReadingOrder(
        path=_text(where, data, "path"), sha256=_text(where, data, "sha256"),
        cuts=tuple((_line(where, e), _text(where, e, "before"), _text(where, e, "why"))
                   for e in _entries(where, data, "cut")),
        drops=tuple((_line(where, e), _text(where, e, "in"), _text(where, e, "text"), _text(where, e, "why"))
                    for e in _entries(where, data, "drop")),
        threads=tuple((_names(where, e), _text(where, e, "why"), _flag(where, e, "one"))
                      for e in _entries(where, data, "thread")),
        whole=tuple(Mark(_line(where, e), _text(where, e, "begins"), _text(where, e, "why"))
                    for e in _entries(where, data, "whole")),
        gaps=tuple(Mark(_line(where, e), _text(where, e, "after"), _text(where, e, "why"))
                   for e in _entries(where, data, "gap")))


def _entries(where: str, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    entries = data.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise KbBroken(f"{where}: expected [[{key}]] tables")
    return entries


def _text(where: str, entry: dict[str, Any], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise KbBroken(f"{where}: expected {key} = \"...\" in {entry!r:.120}")
    return value


def _flag(where: str, entry: dict[str, Any], key: str) -> bool:
    """An entry's true/false field (false when it has none)."""
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise KbBroken(f"{where}: {key} = {value!r} in an entry: expected true or false")
    return value


def _line(where: str, entry: dict[str, Any]) -> int:
    value = entry.get("line")
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise KbBroken(f"{where}: expected line = a line number in {entry!r:.120}")
    return value


def _names(where: str, entry: dict[str, Any]) -> tuple[str, ...]:
    names = entry.get("read")
    if not isinstance(names, list) or len(names) < 2 or not all(isinstance(n, str) and PIECE.fullmatch(n)
                                                                for n in names):
        raise KbBroken(f"{where}: expected read = [\"100\", \"77\", ...] (two pieces or more) in {entry!r:.120}")
    return tuple(names)


Record = list[tuple[int, str, str, str]]
"""The repairs made: (line, kind, before, after)."""


def read_pieces(path: Path, lines: list[str], order: ReadingOrder, record: Record) -> list[Piece]:
    """The text's pieces in reading order: the lines, cut, their debris dropped and read as the
    threads say; each change appended to `record`. ParseError when the repair file does not fit
    the text (a cut's or a drop's words not on its line, a piece unknown or moved twice)."""
    texts = {n: line for n, line in enumerate(lines, start=1)}
    for line, within, words, why in order.drops:
        texts[line] = _drop(path, texts.get(line, ""), line, within, words, why, record)
    pieces: list[Piece] = []
    cuts: dict[int, list[tuple[str, str]]] = {}
    for line, words, why in order.cuts:
        cuts.setdefault(line, []).append((words, why))
    for n, text in texts.items():
        pieces += _cut(path, n, text, cuts.get(n, []), record) if n in cuts else [Piece(n, str(n), text)]
    return _thread(path, pieces, order.threads, record)


def _drop(path: Path, text: str, line: int, within: str, words: str, why: str, record: Record) -> str:
    """The line without the debris `words`, taken out of the words `within`, which must be on it once."""
    if text.count(within) != 1 or words not in within:
        raise ParseError(str(path), line, f"the words {within!r} once on the line, holding {words!r} to drop "
                         "(kb/data repair file)", f"{text.count(within)} times", text=text)
    kept = within.replace(words, "", 1)
    record.append((line, "debris", within, f"{kept} ({why})"))
    return text.replace(within, kept, 1)


def _cut(path: Path, line: int, text: str, cuts: list[tuple[str, str]], record: Record) -> list[Piece]:
    """A line cut before each of the words given, in the order they stand: pieces "84a", "84b", ..."""
    at: list[int] = []
    for words, why in cuts:
        if text.count(words) != 1 or text.index(words) == 0:
            raise ParseError(str(path), line, f"the words to cut before ({words!r}) once on the line, after its start "
                             "(kb/data repair file)", f"{text.count(words)} times", text=text)
        at.append(text.index(words))
        record.append((line, "cut", f"{text[max(at[-1] - 30, 0):at[-1] + 30].strip()}",
                       f"{text[max(at[-1] - 30, 0):at[-1]].strip()} | {text[at[-1]:at[-1] + 30].strip()} ({why})"))
    bounds = [0, *sorted(at), len(text)]
    return [Piece(line, f"{line}{chr(ord('a') + i)}", text[a:b].strip())
            for i, (a, b) in enumerate(zip(bounds, bounds[1:]))]


def _thread(path: Path, pieces: list[Piece], threads: tuple[tuple[tuple[str, ...], str, bool], ...],
            record: Record) -> list[Piece]:
    """The pieces with each thread's read after its first, in the thread's order, marked joined."""
    by_name = {p.name: p for p in pieces}
    order = [p.name for p in pieces]
    moved: set[str] = set()
    joined: set[str] = set()
    bound: set[str] = set()
    for names, why, one in threads:
        unknown = [n for n in names if n not in by_name]
        again = [n for n in names[1:] if n in moved]
        if unknown or again or len(set(names)) < len(names):
            line = int(PIECE.fullmatch(names[0]).group("line"))  # type: ignore[union-attr]
            raise ParseError(str(path), line, "a thread of known pieces, each moved once (kb/data repair file)",
                             f"unknown {unknown}" if unknown else f"moved twice {again or list(names)}")
        rest = [n for n in order if n not in names[1:]]
        at = rest.index(names[0]) + 1
        order = rest[:at] + list(names[1:]) + rest[at:]
        moved.update(names[1:])
        joined.update(names[1:])
        bound.update(names[1:] if one else ())
        first = by_name[names[0]].line
        record.append((first, "reading order", f"{' '.join(sorted(names, key=_source_order))} as extracted",
                       f"read {' '.join(names)} ({why})"))
    return [Piece(p.line, p.name, p.text, p.name in joined, p.name in bound) for p in (by_name[n] for n in order)]


def _source_order(name: str) -> tuple[int, str]:
    m = PIECE.fullmatch(name)
    return (int(m.group("line")), m.group("part")) if m else (0, name)

"""Checks a document's rule numbers run in sequence, each under its parent, none repeated.

Numbers are dotted paths of parts: "2.II.3.5.1", "1.3.W1", "2.IV.iii". Each part has a kind with
its own sequence (1, 2, 3; I, II, III; i, ii, iii; W1, W2 and R1, R2, ...), and a list of children
may move from one kind to the first of another ("1.3.4" then "1.3.W1"). What the check finds is
the source's own numbering, so it is reported as a note, never changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
GROUP = re.compile(r"([A-Za-z]+)(\d+)")


@dataclass(frozen=True, slots=True)
class Numbered:
    """A numbered rule of a document, in document order."""

    number: str
    """Its number as the source writes it: "2.II.3.5"."""
    line: int
    """The source line it is on."""


@dataclass(frozen=True, slots=True)
class Note:
    """A remark about the source's numbering, on the line it concerns."""

    line: int
    message: str


def roman(part: str) -> int | None:
    """The value of a roman numeral in one case: roman("iv") == 4, roman("IIII") is None."""
    lower = part.lower()
    if not lower or any(c not in ROMAN for c in lower) or part not in (lower, lower.upper()):
        return None
    value = 0
    for a, b in zip(lower, lower[1:] + " "):
        value += -ROMAN[a] if b in ROMAN and ROMAN[b] > ROMAN[a] else ROMAN[a]
    return value if value > 0 and to_roman(value) == lower else None


def to_roman(n: int) -> str:
    """to_roman(14) == "xiv" (lower case; enough for rule numbers)."""
    out = ""
    for value, letters in ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
                           (4, "iv"), (1, "i")):
        while n >= value:
            out, n = out + letters, n - value
    return out


def kind_and_value(part: str) -> tuple[str, int] | None:
    """A part's sequence and place in it: "3" ("n", 3), "II" ("I", 2), "iv" ("i", 4), "W2" ("W", 2);
    None for a part of no sequence (a glossary key such as "hav")."""
    if part.isdigit():
        return "n", int(part)
    value = roman(part)
    if value is not None:
        return ("I" if part.isupper() else "i"), value
    m = GROUP.fullmatch(part)
    if m:
        return m.group(1), int(m.group(2))
    return None


def follows(part: str, previous: str) -> bool:
    """Whether a sibling numbered `part` may come right after one numbered `previous`: the next of
    the same sequence, or the first of another (1.3.4 then 1.3.W1, 1.3.F5 then 1.3.B1)."""
    a, b = kind_and_value(part), kind_and_value(previous)
    if a is None or b is None:
        return True
    return (a[0] == b[0] and a[1] == b[1] + 1) or (a[0] != b[0] and a[1] == 1)


def first(part: str) -> bool:
    """Whether a part opens a list of children: 1, I, i, W1, ..."""
    kv = kind_and_value(part)
    return kv is None or kv[1] == 1


def next_parts(part: str) -> list[str]:
    """The parts that continue a sequence: next_parts("ii") == ["iii"], next_parts("W2") == ["W3"]."""
    kv = kind_and_value(part)
    if kv is None:
        return []
    kind, value = kv
    if kind == "n":
        return [str(value + 1)]
    if kind == "i":
        return [to_roman(value + 1)]
    if kind == "I":
        return [to_roman(value + 1).upper()]
    return [f"{kind}{value + 1}"]


def acceptable(number: tuple[str, ...], last: tuple[str, ...]) -> bool:
    """Whether `number` may come right after `last`: a first child of it, or the next sibling of it
    or of any of its parents, with first children on any levels skipped (2.III.4 then 2.IV.i: the
    page gives section 2.IV no rule of its own before 2.IV.i)."""
    for depth in range(len(last) + 1):
        if number[:depth] != last[:depth] or len(number) <= depth:
            continue
        part, rest = number[depth], number[depth + 1:]
        if depth < len(last):
            if not follows(part, last[depth]):
                continue
        elif not first(part):
            continue
        if all(first(p) for p in rest):
            return True
    return False


def expected(number: tuple[str, ...], last: tuple[str, ...]) -> tuple[str, ...] | None:
    """The number that would have been in sequence here with the same last part, if there is one:
    after 2.II.3.5, a misnumbered "2.IV.3.5.1" stands where 2.II.3.5.1 would."""
    for depth in range(len(last), -1, -1):
        candidate = last[:depth] + number[-1:]
        if candidate != number and acceptable(candidate, last):
            return candidate
    return None


def check_numbering(items: Iterable[Numbered]) -> list[Note]:
    """Notes on rule numbers out of sequence, under the wrong parent, or given twice.

    Section headings are left out: the page places some of them away from their rules. A rule out
    of place is reported once, and the rules after it are read as following the number it stands
    for (2.IV.3.5.1 between 2.II.3.5 and 2.II.3.5.2 stands for 2.II.3.5.1). Glossary keys
    ("g.hav.3") are only checked for repeats.
    """
    notes: list[Note] = []
    seen: dict[str, int] = {}
    last: tuple[str, ...] = ()
    for item in items:
        parts = tuple(item.number.split("."))
        if item.number in seen:
            notes.append(Note(item.line, f"rule number {item.number} is given twice (first on line "
                                         f"{seen[item.number]})"))
            continue
        seen[item.number] = item.line
        if parts[0] == "g":
            continue
        if acceptable(parts, last):
            last = parts
            continue
        stands_for = expected(parts, last)
        shown = ".".join(last) or "the start"
        if stands_for is not None and stands_for[:-1] != parts[:-1]:
            notes.append(Note(item.line, f"rule {item.number} is numbered under the wrong parent: it follows "
                                         f"{shown}, where {'.'.join(stands_for)} would come"))
            last = stands_for
        else:
            notes.append(Note(item.line, f"rule {item.number} is out of sequence: it follows {shown}"))
            last = parts
    return notes

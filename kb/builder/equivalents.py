"""The same rule in other words: pairs of rulings of two documents that a person read and found to state
one rule (kb/data/same_rule.toml, proposed by tools/same_rule.py), as the build links them.

A build stores each pair as two links of kind "same-rule" (one each way) and ships them in the search
data (kb.search.searchspec "same_rule"), where a result carries its equivalents and they take no place of their
own among the results (kb.search.search.Searcher.arrange). Ruling ids hash their text, so a new wording of
either ruling leaves a pair naming an id its source no longer has: the build then stores no link for it
and reports a warning naming the file's line (`rulings check --strict` fails on it). A ruling id begins
with its source's id ("crf-22.9d8816f58d"): pairs of sources a build does not read are left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from kb.errors import KbBroken
from kb.model import Link, Problem
from kb.tables import data_file

FILE = "same_rule.toml"
WHERE = f"kb/data/{FILE}"
KIND = "same-rule"
"""The links' kind (kb.store.store's links table): ruling -> the ruling stating the same rule."""
FIELDS = {"first": str, "second": str, "found": str, "reason": str, "checked": bool}


@dataclass(frozen=True, slots=True)
class Equivalence:
    """One pair of rulings stating the same rule, and where the file gives it."""

    first: str
    second: str
    reason: str
    line: int
    """The line of its [[pair]] header in the file, for a message about it."""
    where: str = WHERE
    """The file."""


def load_equivalences(path: Path | None = None) -> list[Equivalence]:
    """The pairs of kb/data/same_rule.toml (or the file at path), each checked by a person; KbBroken
    naming the file and the pair's line when the file is damaged."""
    import tomllib

    where = str(path) if path else WHERE
    try:
        text = (path or data_file(FILE)).read_text("utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise KbBroken(f"{where}: cannot be read ({exc}); restore the file or fix the line it names") from exc
    lines = [n for n, line in enumerate(text.splitlines(), 1) if re.match(r"\s*\[\[pair\]\]", line)]
    entries = data.get("pair", [])
    if not isinstance(entries, list) or len(entries) != len(lines):
        raise KbBroken(f"{where}: expected [[pair]] tables only")
    found = []
    for line, entry in zip(lines, entries):
        bad = sorted(k for k, kind in FIELDS.items() if not isinstance(entry.get(k), kind)) + sorted(
            set(entry) - set(FIELDS))
        if bad or entry["checked"] is not True or entry["first"] == entry["second"]:
            raise KbBroken(f"{where}:{line}: expected first, second (two ruling ids), found, reason and checked = "
                           f"true; found {bad or [entry.get('first'), entry.get('second'), entry.get('checked')]}")
        found.append(Equivalence(entry["first"], entry["second"], entry["reason"], line, where))
    return found


def equivalence_links(pairs: Iterable[Equivalence], has_ruling: Callable[[str], bool], sources: Collection[str],
                      problems: list[Problem]) -> list[Link]:
    """Each pair whose rulings the build has, as a link each way. A pair naming a ruling of a source the
    build has but not the ruling itself (reworded, or gone) is a warning naming the file's line, and no
    link; a pair of sources the build does not have (another folder of sources) is no concern of it."""
    links = []
    for p in pairs:
        ids = (p.first, p.second)
        if any(i.partition(".")[0] not in sources for i in ids):
            continue
        missing = [i for i in ids if not has_ruling(i)]
        if missing:
            problems.append(Problem(p.where, p.line,
                                    f"the pair of {p.first} and {p.second} names {', '.join(missing)}, "
                                    "which its source no longer has (reworded or gone): check the pair again "
                                    "(tools/same_rule.py propose) and fix or remove it"))
            continue
        links += [Link(p.first, KIND, p.second, "checked"), Link(p.second, KIND, p.first, "checked")]
    return links

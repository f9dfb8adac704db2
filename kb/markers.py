"""The markers a ruling's text carries (the CRF's "@" of a new ruling, an erratum's label, the source's tags), found by
the parsers and read past by the readers."""

from __future__ import annotations

import re

NEW_MARK = re.compile(r"^\W{0,3}@")
"""The CRF's mark of a ruling new or changed since the last edition: "@ Change ...". The text keeps
it (the id hashes the text); readers see the marker "new" instead (kb.store.reading.reading)."""
MARKER_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("new", NEW_MARK),
    ("rules-erratum", re.compile(r"\brules\s+erratum\b", re.I)),
    ("card-erratum", re.compile(r"\bcard\s+erratum\b", re.I)),
)
STANDARD_ONLY = re.compile(r"\bstandard rules only\s*:", re.I)
"""The rulebook's "Standard Rules Only:": the marker standard-rules-only where the text opens with it
(the whole ruling is for the standard rules alone), standard-rules-only-in-part where it comes after
other words (step 5 of the movement/hazard phase: only its last sentence is)."""
TAG = re.compile(r"\[((?:CoE|COE|ICE|Van|Ruled by)[^\[\]]*)\]")
DATE_TAG = re.compile(r"\[(effective [^\[\]]+)\]", re.I)
# A tag ends at the next bracket of either kind, so each "[" scans only up to the next one: with
# [^\]]* a line of "[CoE [CoE ..." without "]" is scanned from every "[" to its end (quadratic).
ALIGNMENT_TAG = re.compile(r"\[(HERO|MINION|FALLEN-WIZARD|BALROG)\]")


WORD = re.compile(r"[^\W_]")
"""A letter or a digit: what a text of words has and a line of marks alone ("@", "-", "* * *") has not."""


def has_words(text: str) -> bool:
    """Whether a text says anything in words: has_words("@") is False (the CRF's legend of its mark),
    has_words("@ Change ...") True. A stored ruling always has words (kb.builder.parsers.document)."""
    return WORD.search(text) is not None


def find_markers(text: str) -> tuple[str, ...]:
    """The markers a text carries, e.g. "@ ... [CoE 2024]" -> ("new", "tag:CoE 2024")."""
    found = [name for name, pattern in MARKER_RULES if pattern.search(text)]
    if m := STANDARD_ONLY.search(text):
        found.append("standard-rules-only" if not WORD.search(text[:m.start()]) else "standard-rules-only-in-part")
    found += [f"tag:{m}" for m in TAG.findall(text)]
    found += [f"date:{m}" for m in DATE_TAG.findall(text)]
    found += [f"alignment:{m}" for m in ALIGNMENT_TAG.findall(text)]
    return tuple(dict.fromkeys(found))

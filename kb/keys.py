"""How pages and lookups key what they hold: a term's name and an annotation's number in lower case, a
rule's number as the source writes it (the CoE rules' "3.V" and "3.v" are two rules), and what a typed
rule number stands for. Kept apart from kb.model, whose dataclasses a cold lookup never needs."""

from __future__ import annotations

from collections.abc import Iterable

ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
"""The ASCII letters in lower case and nothing else: what SQLite's lower() changes, and the case a
pattern of re.IGNORECASE | re.ASCII ignores (kb.search.searchspec.Phrases)."""

def page_key(kind: str, key: str) -> str:
    """How a page of this kind is keyed: a term's name and an annotation's number lower case ("25A" is
    annotation 25a), a rule's number exactly as the source writes it (the CoE rules' "3.V" and "3.v"
    are two rules), a card's name and a phase's id as they are."""
    return key.lower() if kind in ("term", "annotation") else key


def numbers_meant(typed: str, alike: Iterable[str]) -> list[str]:
    """The numbers a typed rule number stands for, given those that differ from it only in case
    (alike): itself if it is one of them, else every one of them ("2.iv.iii" is 2.IV.iii where no
    2.iv.iii exists; "3.v" is 3.v, never 3.V). question.js's numbers_meant is the same."""
    alike = list(alike)
    return [typed] if typed in alike else alike


def cased_numbers(numbers: Iterable[str]) -> dict[str, list[str]]:
    """Numbers by their lower case, each once in the order given: numbers_meant's `alike`."""
    cased: dict[str, list[str]] = {}
    for n in numbers:
        if n not in cased.setdefault(n.lower(), []):
            cased[n.lower()].append(n)
    return cased

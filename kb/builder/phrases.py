"""A phrase book: many phrases found in a text in one pass (an Aho-Corasick automaton).

This is the only module that imports pyahocorasick. The build looks for hundreds of glossary terms
and phase words in every ruling; one automaton reads each text once whatever the number of
phrases, where a pattern per phrase (or one alternation of them all) tries each at every position.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

import ahocorasick

T = TypeVar("T")


class PhraseBook(Generic[T]):
    """Phrases, each with a value; `occurrences` finds every one of them in a text."""

    def __init__(self, phrases: Mapping[str, T]) -> None:
        self._automaton = ahocorasick.Automaton()
        for phrase, value in phrases.items():
            if phrase:
                self._automaton.add_word(phrase, (len(phrase), value))
        self._empty = len(self._automaton) == 0
        if not self._empty:
            self._automaton.make_automaton()

    def occurrences(self, text: str) -> Iterator[tuple[int, int, T]]:
        """(start, end, value) of every occurrence of every phrase, overlapping ones included, in
        order of their end: PhraseBook({"he": 1, "the": 2}).occurrences("the") gives (0, 3, 2) and (1, 3, 1)."""
        if self._empty:
            return
        for last, (length, value) in self._automaton.iter(text):
            yield last + 1 - length, last + 1, value

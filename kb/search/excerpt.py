"""A focused excerpt of a long ruling: the stretch that holds the most of the matched words, cut at word boundaries."""

from __future__ import annotations

import re
from typing import Any

SIZE = 360
"""About how many characters an excerpt shows."""
SLACK = 1.35
"""A text at most SIZE x SLACK long is shown whole: cutting it would save too little."""
ELLIPSIS = "…"


def excerpt(text: str, spans: list[tuple[int, int]], size: int = SIZE) -> tuple[str, list[tuple[int, int]]]:
    """The part of text worth showing for the matched spans, "…" marking each cut, and the spans that
    fall inside it, moved to its positions. Short texts come back whole.

    excerpt("a b c", []) == ("a b c", [])
    """
    shown, (inside,) = cut(text, window(text, spans, size), spans)
    return shown, [(a, b) for a, b, *_ in inside]


Spans = list[tuple[Any, ...]]
"""Spans of a text, each (start, end, ...): what else a span holds (how it is styled) is kept."""


def cut(text: str, where: tuple[int, int], *spans: Spans) -> tuple[str, list[Spans]]:
    """text[start:end] with "… " before and " …" after where it was cut, and each list of spans
    moved to its positions (a span the cut crosses kept in part, one outside it dropped)."""
    start, end = where
    head = ELLIPSIS + " " if start > 0 else ""
    tail = " " + ELLIPSIS if end < len(text) else ""
    shift = len(head) - start
    shown = head + text[start:end].rstrip() + tail
    limit = len(head) + len(text[start:end].rstrip())
    moved = [[(max(a, start) + shift, min(b + shift, limit), *rest) for a, b, *rest in group
              if b > start and a < end and min(b + shift, limit) > max(a, start) + shift] for group in spans]
    return shown, moved


def window(text: str, spans: list[tuple[int, int]], size: int = SIZE) -> tuple[int, int]:
    """Where the excerpt of text for the matched spans begins and ends, at word boundaries: the
    whole text, (0, len(text)), when it is short."""
    if len(text) <= size * SLACK:
        return 0, len(text)
    start = _best_start(text, spans, size)
    end = min(len(text), start + size)
    if end < len(text):
        cut = text.rfind(" ", start + size // 2, end)
        end = cut if cut > 0 else end
    if start > 0:
        sentence = max(text.rfind(". ", start - size // 4, start), text.rfind("\n", start - size // 4, start))
        if sentence > 0:
            start = sentence + 1
        else:
            space = text.find(" ", start)
            start = space if 0 <= space < start + 20 else start
        while start < end and text[start].isspace():
            start += 1
    return start, end


def _best_start(text: str, spans: list[tuple[int, int]], size: int) -> int:
    """Where a window of size characters shows the most different matched words (then the most
    matches; then the earliest), opening a little before its first match."""
    if not spans:
        return 0
    best: tuple[int, int, int] | None = None
    chosen = 0
    for a, _ in spans:
        start = max(0, a - size // 5)
        inside = [(x, y) for x, y in spans if x >= start and y <= start + size]
        words = {re.sub(r"\W", "", text[x:y].lower()) for x, y in inside}
        key = (-len(words), -len(inside), start)
        if best is None or key < best:
            best, chosen = key, start
    return chosen

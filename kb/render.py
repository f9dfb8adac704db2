"""Ruling text to safe HTML: Markdown sources through markdown-it-py, plain ones escaped, and the
card names, annotation and rule numbers in the text turned into links.

Nothing from a source is ever emitted as markup: raw HTML, entities, links and images in the
Markdown are disabled (they show as the text they are), and every text run is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

from markdown_it import MarkdownIt

MARKDOWN_PARSERS = frozenset({"crf", "coe_rules", "rulebook"})
"""Sources whose text is Markdown (emphasis, code); the others are plain text."""

Span = tuple[int, int, str]
"""(start, end, href) of a link inside a run of text."""
SpanFinder = Callable[[str], Sequence[Span]]


def linked(text: str, spans: Sequence[Span]) -> str:
    """Escaped text with each span wrapped in a link; overlapping spans: the first one wins."""
    out: list[str] = []
    at = 0
    for start, end, href in sorted(spans, key=lambda s: (s[0], -s[1])):
        if start < at or end <= start:
            continue
        out.append(html.escape(text[at:start], quote=False))
        out.append(f'<a href="{html.escape(href)}">{html.escape(text[start:end], quote=False)}</a>')
        at = end
    out.append(html.escape(text[at:], quote=False))
    return "".join(out)


class TextRenderer:
    """Renders one ruling's text; the link spans are found per text run by the caller's finder."""

    def __init__(self) -> None:
        self.md = MarkdownIt("commonmark", {"html": False, "breaks": False})
        self.md.disable(["link", "image", "autolink", "html_inline", "entity"])
        self.md.add_render_rule("text", self._text)

    @staticmethod
    def _text(renderer: Any, tokens: Any, idx: int, options: Any, env: dict[str, Any]) -> str:
        content: str = tokens[idx].content
        finder: SpanFinder = env["find"]
        return linked(content, finder(content))

    def render(self, text: str, parser: str, find: SpanFinder) -> str:
        """HTML for a ruling's text (newlines kept as newlines: the page shows them)."""
        if parser in MARKDOWN_PARSERS:
            rendered: str = self.md.renderInline(text, {"find": find})
            return rendered
        return linked(text, find(text))

"""Ruling text to safe HTML: Markdown sources through markdown-it-py, plain ones escaped, and the
card names, annotation and rule numbers in the text turned into links.

Nothing from a source is ever emitted as markup: raw HTML, entities, links and images in the
Markdown are disabled (they show as the text they are), and every text run is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt

from kb.cardface import BRACKETED, CODE, ICONS

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


@lru_cache(maxsize=16384)  # the site shows one ruling's excerpt on many pages
def plain(text: str, parser: str, limit: int = 0) -> str:
    """A ruling's text as plain words on one line, Markdown emphasis dropped ("**Card Erratum**:" ->
    "Card Erratum:"), cut at a word before `limit` characters with " …" (0: whole)."""
    if parser in MARKDOWN_PARSERS:
        parts: list[str] = []
        for block in _PLAIN.parseInline(text):
            for token in block.children or []:
                if token.type in ("text", "code_inline"):
                    parts.append(token.content)
                elif token.type in ("softbreak", "hardbreak"):
                    parts.append(" ")
        text = "".join(parts)
    words = " ".join(text.split())
    if limit and len(words) > limit:
        words = words[:limit].rsplit(" ", 1)[0] + " …"
    return words


_PLAIN = MarkdownIt("commonmark", {"html": False}).disable(["link", "image", "autolink", "html_inline", "entity"])


def card_html(text: str) -> str:
    """A card's text as HTML: escaped, each icon code ({H}, [{B}], {w}{b}) a glyph with its name as
    its text alternative (kb.cardface.ICONS)."""
    def glyph(code: str) -> str:
        name = ICONS.get(code)
        if name is None:
            return html.escape("{" + code + "}")
        kind = "site" if code[0].isupper() else "region"
        return (f'<span class="icon {kind}" role="img" aria-label="{html.escape(name)}" '
                f'title="{html.escape(name)}">{html.escape(code)}</span>')

    escaped = html.escape(text, quote=False)
    escaped = BRACKETED.sub(lambda m: m.group(1), escaped)
    return CODE.sub(lambda m: glyph(m.group(1)), escaped)

"""Ruling text as the site shows it: a text as kb.store.reading reads it rendered as safe HTML, its
emphasis kept and the runs the build linked (kb.builder.xref's spans) turned into links; a card's text
with its icons; a ruling's words on one line.

Nothing from a source is ever emitted as markup: every text run is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence

from kb.store.reading import reading

Span = tuple[int, int, str]
"""(start, end, href) of a link inside a text."""


def linked(text: str, spans: Sequence[Span]) -> str:
    """Escaped text with each span wrapped in a link; overlapping spans: the first one wins."""
    import html  # (only here and in card_html: the terminal writes no HTML, and html.entities weighs 1 ms)

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


def render_text(text: str, parser: str, spans: Sequence[Span] = ()) -> str:
    """HTML for a ruling's text as kb.store.reading reads it (newlines kept as newlines: the page
    shows them), each emphasised run in <strong> or <em>, and the spans (start, end, href: places in
    the words read, as the build stored its links' spans) as links, cut at the runs' edges."""
    out = []
    at = 0
    for run, strong, em in reading(text, parser).runs:
        end = at + len(run)
        part = linked(run, [(max(start, at) - at, min(stop, end) - at, href)
                            for start, stop, href in spans if start < end and stop > at])
        at = end
        if em:
            part = f"<em>{part}</em>"
        if strong:
            part = f"<strong>{part}</strong>"
        out.append(part)
    return "".join(out)


def plain(text: str, parser: str, limit: int = 0) -> str:
    """A ruling's text as plain words on one line (kb.store.reading.reading: "**Card Erratum**:" ->
    "Card Erratum:"), cut at a word before `limit` characters with " …" (0: whole)."""
    words = " ".join(reading(text, parser).text.split())
    if limit and len(words) > limit:
        words = words[:limit].rsplit(" ", 1)[0] + " …"
    return words


def plain_spans(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where spans of a text (start, end) are in its words on one line (plain: each run of spaces one
    space, none at either end): plain_spans(" a  Gandalf", [(4, 11)]) == [(2, 9)]."""
    out = []
    for start, end in spans:
        before = text[:start]
        at = len(" ".join(before.split())) + (1 if before.strip() and before[-1].isspace() else 0)
        out.append((at, at + len(" ".join(text[start:end].split()))))
    return out


def card_html(text: str) -> str:
    """A card's text as HTML: escaped, each icon code ({H}, [{B}], {w}{b}) a glyph with its name as
    its text alternative (kb.builder.cardface.ICONS)."""
    import html

    from kb.builder.cardface import BRACKETED, CODE, ICONS

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

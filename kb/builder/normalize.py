"""Repairs of source damage, each a small documented function that reports what it changed."""

from __future__ import annotations

import html
import re

MOJIBAKE = re.compile(r"[\u00c2-\u00f4](?:[\u0080-\u00bf]|[\u0152-\u0192\u02c6\u02dc\u2013-\u2122])+")
BR = re.compile(r"<br\s*/?>", re.I)


def repair_mojibake(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Undo UTF-8 read as Windows-1252: repair_mojibake("4 â€¢ X") == ("4 • X", [("â€¢", "•")])."""
    changes: list[tuple[str, str]] = []

    def fix(m: re.Match[str]) -> str:
        try:
            fixed = m.group(0).encode("cp1252").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            return m.group(0)
        changes.append((m.group(0), fixed))
        return fixed

    return MOJIBAKE.sub(fix, text), changes


def repair_line_breaks(text: str) -> tuple[str, int]:
    """HTML <br> used as a line break becomes a newline; returns the text and how many."""
    return BR.subn("\n", text)


ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
"""An HTML character reference as a source may write it: "&Euml;", "&#8217;", "&#x2019;"."""


def entities(text: str) -> list[str]:
    """The HTML character references a text holds that stand for a character (a name HTML does not
    know, "&foo;", is left as text): entities("&lt;foo&gt; &foo;") == ["&lt;", "&gt;"]."""
    return [before for before, _ in decode_entities(text)[1]]


def decode_entities(text: str) -> tuple[str, list[tuple[str, str]]]:
    """HTML character references read as the characters they stand for, every source alike (the
    scraped pages write some): decode_entities("&Euml;arcaraxë") == ("Ëarcaraxë", [("&Euml;", "Ë")])."""
    if "&" not in text:
        return text, []
    changes: list[tuple[str, str]] = []

    def fix(m: re.Match[str]) -> str:
        fixed = html.unescape(m.group(0))
        if fixed != m.group(0):
            changes.append((m.group(0), fixed))
        return fixed

    return ENTITY.sub(fix, text), changes

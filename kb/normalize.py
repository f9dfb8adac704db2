"""Repairs of source damage, each a small documented function that reports what it changed."""

from __future__ import annotations

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

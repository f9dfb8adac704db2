"""Text made safe for people's terminals and for JSON: control characters shown, lone surrogates replaced."""

from __future__ import annotations

import re

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""C0 controls but tab and newline (so ESC and BEL), DEL, and C1 controls (U+0080-U+009F, CSI among them)."""
SURROGATE = re.compile("[\ud800-\udfff]")
"""A lone surrogate: no UTF-8 encoding exists (an undecodable byte of a command line arrives as one)."""
REPLACEMENT = "\ufffd"


def visible(char: str) -> str:
    """How a control character is shown: visible("\\x1b") == "\\\\x1b", visible("\\x9b") == "\\\\x9b"."""
    return f"\\x{ord(char):02x}"


def printable(text: str) -> str:
    """Text a terminal shows as it is: every control character but newline and tab written out
    visibly (an escape sequence cannot move the cursor, retitle the window or ring the bell), every
    lone surrogate replaced by U+FFFD. printable("a\\x1b[2Jb\\x07") == "a\\\\x1b[2Jb\\\\x07"."""
    return SURROGATE.sub(REPLACEMENT, CONTROL.sub(lambda m: visible(m.group(0)), text))


def valid_unicode(text: str) -> str:
    """Text every lone surrogate of which is replaced by U+FFFD, so that it encodes as UTF-8."""
    return SURROGATE.sub(REPLACEMENT, text)

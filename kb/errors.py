"""The exceptions the library raises: every expected failure is a KbError with a clear message."""

from __future__ import annotations


class KbError(Exception):
    """Base class: anything the CLI reports as a one-line error and exit 1."""


class ManifestError(KbError):
    """The manifest (rulings/sources.toml) is missing, malformed or points nowhere."""


class ParseError(KbError):
    """A source document does not have the shape its parser expects.

    The message names the file, the line and what was expected; `found` says what was there
    instead ("an empty file"), and `text`, when given, is the offending line, quoted shortened.
    """

    def __init__(self, path: str, line: int | None, expected: str, found: str = "", *, text: str | None = None) -> None:
        self.path = path
        self.line = line
        self.expected = expected
        self.found = found
        where = f"{path}:{line}" if line else path
        message = f"{where}: expected {expected}"
        if found:
            message += f", found {found}"
        if text is not None:
            message += f"{':' if found else ', found'} {quote(text)}"
        super().__init__(message)


QUOTED = 60
"""The most of a source line an error message quotes."""


def quote(text: str, limit: int = QUOTED) -> str:
    """The first line of text, shortened to `limit` characters and quoted as Python would (escapes
    visible): quote("a\x1bb\nmore") == "'a\\x1bb'"."""
    line = text.split("\n", 1)[0]
    return repr(line if len(line) <= limit else line[:limit] + "…")


class KbMissing(KbError):
    """No knowledge base where one was looked for."""


class KbBroken(KbError):
    """The knowledge base exists but cannot be read (corrupt, truncated or an older schema)."""


class NotFound(KbError):
    """A lookup (ruling id, card, ...) found nothing."""


class QueryError(KbError):
    """A raw query (--raw) that is not valid query syntax."""

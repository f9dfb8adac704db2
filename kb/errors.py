"""The exceptions the library raises: every expected failure is a KbError with a clear message."""

from __future__ import annotations


class KbError(Exception):
    """Base class: anything the CLI reports as a one-line error and exit 1."""

    hint: str = ""
    """What to do about it, in a sentence (the CLI prints it after the message; under --json as "hint")."""

    def __init__(self, *args: object, hint: str = "") -> None:
        super().__init__(*args)
        if hint:
            self.hint = hint


class ManifestError(KbError):
    """The manifest (rulings/sources.toml) is missing, malformed or points nowhere."""


class ParseError(KbError):
    """A source document does not have the shape its parser expects."""

    def __init__(self, path: str, line: int | None, expected: str, found: str = "") -> None:
        self.path = path
        self.line = line
        self.expected = expected
        self.found = found
        where = f"{path}:{line}" if line else path
        message = f"{where}: expected {expected}"
        if found:
            message += f", found {found!r}"
        super().__init__(message)


class KbMissing(KbError):
    """No knowledge base where one was looked for."""


class KbBroken(KbError):
    """The knowledge base exists but cannot be read (corrupt, truncated or an older schema)."""


class NotFound(KbError):
    """A lookup (ruling id, card, ...) found nothing."""


class QueryError(KbError):
    """A raw query (--raw) that is not valid query syntax."""


class Refused(KbError):
    """Input a command cannot take (empty, or not one of the known values): a usage error, exit 2."""


class Ambiguous(NotFound):
    """A name that could be several things; candidates says which, for the user to choose."""

    def __init__(self, message: str, candidates: list[dict[str, str]], hint: str = "") -> None:
        super().__init__(message, hint=hint)
        self.candidates = candidates

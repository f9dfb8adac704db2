"""The exceptions the library raises: every expected failure is a KbError with a clear message."""

from __future__ import annotations

import errno


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


def quoted(text: str, limit: int = 40) -> str:
    """User text for a message: one line, quoted, cut short: quoted("khamul") == "'khamul'"."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[:limit] + "...")


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


class ForeignFolder(KbError):
    """A folder rulings would write into holds things rulings did not make (kb.owned)."""


class ForeignFile(KbError):
    """A file rulings would write over is not one it made, or is a folder or a link (kb.deck.deck.write_page)."""


class SiteError(KbError):
    """The site could not be generated (no templates, a knowledge base file it needs unreadable,
    broken links under --strict, bad output folder)."""


class WriteFailed(KbError):
    """Output could not be written (disk full, permission denied, read-only file system)."""

    @classmethod
    def of(cls, exc: BaseException, what: str, folder: object, writable: object, again: str, kept: str) -> WriteFailed:
        """The one line for a failed write of `what` into `folder`: what went wrong, what to do
        (free space; make `writable` writable), what is kept.

        WriteFailed.of(OSError(28, "No space left on device"), "the knowledge base", "build/kb", "build/kb",
        "run `rulings build` again", "the previous knowledge base still answers") says "cannot write the
        knowledge base in build/kb: the disk is full; free some space and run `rulings build` again
        (the previous knowledge base still answers)".
        """
        problem, advice = trouble(exc, writable, again)
        return cls(f"cannot write {what} in {folder}: {problem}; {advice} ({kept})")


def trouble(exc: BaseException, writable: object, again: str) -> tuple[str, str]:
    """What went wrong in a failed write, and what to do: ("the disk is full", "free some space and
    run `rulings build` again"); ("permission denied", "make build/kb writable (or choose another
    folder) and ..."); else the system's reason and `again`."""
    number = getattr(exc, "errno", None)
    text = str(exc).lower()
    if number in (errno.ENOSPC, errno.EDQUOT) or "disk is full" in text:
        return "the disk is full", f"free some space and {again}"
    if number in (errno.EACCES, errno.EPERM, errno.EROFS) or "readonly" in text or "read-only" in text:
        return "permission denied", f"make {writable} writable (or choose another folder) and {again}"
    reason = getattr(exc, "strerror", None) or str(exc) or exc.__class__.__name__
    return reason.rstrip("."), again


class BundleMissing(KbError):
    """A folder rulings ships with (the bundled sources, the site's templates) is not where it was
    installed: the installation is incomplete (kb.builder.bundle)."""


class MissingExtra(KbError):
    """An optional part of rulings is not installed (Datasette, for `rulings serve`); the message says what to
    install."""


def require(text: str, what: str, example: str) -> str:
    """The text, stripped; Refused saying what to give when it is empty."""
    if not text.strip():
        raise Refused(f"no {what} given", hint=f"Give one, e.g. `{example}`.")
    return text.strip()

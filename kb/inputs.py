"""Input files read safely: regular files only (a pipe or device is refused, never waited on), up to a
size cap; their JSON and TOML parsed with every integer bounded."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from kb.errors import ParseError

MB = 1024 * 1024
DEFAULT_MAX_SOURCE_MB = 64
"""The largest source `rulings build` reads unless told otherwise (--max-source-mb); the card
database, the largest bundled source, is about 4 MB."""

_limit: ContextVar[int] = ContextVar("max_source_bytes", default=DEFAULT_MAX_SOURCE_MB * MB)


@contextmanager
def size_limit(max_bytes: int) -> Iterator[None]:
    """Within the block, read_bytes refuses files over max_bytes."""
    token = _limit.set(max_bytes)
    try:
        yield
    finally:
        _limit.reset(token)


def max_bytes() -> int:
    """The size cap in force (see size_limit)."""
    return _limit.get()


def size_text(size: float) -> str:
    """A size for people: size_text(250 * MB) == "250.0 MB", size_text(1536) == "1.5 KB"."""
    return f"{size / MB:.1f} MB" if size >= MB else f"{size / 1024:.1f} KB"


def too_large(size: int, limit: int, kind: str = "source") -> str:
    """What to say about a file of `size` bytes over the cap: "250.0 MB, over the 64.0 MB limit ..."
    (for a source, with how to raise the cap)."""
    said = f"{size_text(size)}, over the {size_text(limit)} limit for a {kind}"
    if kind == "source":
        said += f"; if it really is one, raise the limit: rulings build --max-source-mb {int(size / MB) + 1}"
    return said


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device")):
        if test(mode):
            return name
    return "not a regular file"


def read_bytes(path: Path, limit: int | None = None, kind: str = "source") -> bytes:
    """The bytes of a regular file of at most `limit` bytes (default: the cap in force); ParseError
    naming the file otherwise (a `kind` file was expected: "source", "question"). The file is
    opened without blocking, so a named pipe is refused rather than waited on."""
    limit = max_bytes() if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as exc:
        raise ParseError(str(path), None, "a file", "nothing there") from exc
    except OSError as exc:
        raise ParseError(str(path), None, "a readable file", exc.strerror or exc.__class__.__name__) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):  # before fdopen, which refuses a folder in its own words
        os.close(fd)
        raise ParseError(str(path), None, "a regular file", kind_of(info.st_mode))
    with os.fdopen(fd, "rb", buffering=0) as f:
        try:
            if info.st_size > limit:
                raise ParseError(str(path), None, f"a {kind} file", too_large(info.st_size, limit, kind))
            chunks, size = [], 0
            while size <= limit:
                chunk = f.read(min(MB, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise ParseError(str(path), None, "a readable file", exc.strerror or exc.__class__.__name__) from exc
    if size > limit:
        raise ParseError(str(path), None, f"a {kind} file", too_large(size, limit, kind))
    return b"".join(chunks)


# -- numbers: one of more digits than Python converts is an error naming its line ---------------------------

INTEGER = re.compile(r"(?<![\d_.])\d[\d_]*(?![\d_.eE])")
"""A run of digits (TOML's "_" between them) that is an integer's, not part of a float's."""


def long_number(text: str, integers: bool = False) -> tuple[int, str] | None:
    """Where the first run of digits in text is that is longer than Python converts to a number
    (int()'s limit, sys.get_int_max_str_digits(): 4300 unless set otherwise), and what to call it:
    (its offset, "a number of more than 4300 digits"); None when there is none. With `integers`,
    only an integer of JSON or TOML counts (not a float's digits; TOML's "_" between digits)."""
    limit = sys.get_int_max_str_digits()
    if not limit:
        return None
    if integers:
        found = next((m for m in INTEGER.finditer(text) if len(m.group().replace("_", "")) > limit), None)
    else:
        found = re.search(rf"\d{{{limit + 1}}}", text)
    return None if found is None else (found.start(), f"a number of more than {limit} digits")


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and column (both from 1, the column in characters) of an offset in text."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def parse_json(text: str, parse_constant: Callable[[str], Any] | None = None) -> Any:
    """json.loads(text, parse_constant=parse_constant); an integer of more digits than Python converts is a
    JSONDecodeError at its place, as any other fault of the text is (not a bare ValueError)."""
    return bounded(lambda t: json.loads(t, parse_constant=parse_constant), text, json.JSONDecodeError,
                   lambda start, what: json.JSONDecodeError(what, text, start))


def parse_toml(text: str) -> dict[str, Any]:
    """tomllib.loads(text); an integer of more digits than Python converts is a TOMLDecodeError naming
    its line and column, as any other fault of the text is (not a bare ValueError)."""
    import tomllib  # (here: a search, which reads no TOML, does not load it)

    def error(start: int, what: str) -> ValueError:
        line, column = line_and_column(text, start)
        return tomllib.TOMLDecodeError(f"{what} (at line {line}, column {column})")
    parsed: dict[str, Any] = bounded(tomllib.loads, text, tomllib.TOMLDecodeError, error)
    return parsed


def bounded(parse: Callable[[str], Any], text: str, fault: type[ValueError],
            error: Callable[[int, str], ValueError]) -> Any:
    """parse(text), its own faults (`fault`) as they are; a bare ValueError for an integer of more
    digits than Python converts becomes error(its offset, "a number of more than 4300 digits")."""
    try:
        return parse(text)
    except fault:
        raise
    except ValueError as exc:
        found = long_number(text, integers=True)
        if found is None:
            raise
        raise error(*found) from exc

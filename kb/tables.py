"""The word tables in kb/data (abbreviations.toml, synonyms.toml, english.txt), read and checked."""

from __future__ import annotations

import functools
from pathlib import Path

from kb.errors import KbBroken
from kb.inputs import parse_toml

DATA = Path(__file__).resolve().parent / "data"
"""kb/data: the tables, word lists, schemas and weights rulings ships with, as files beside this module
(a wheel, pipx and a checkout all install kb as files). Read as a path: importing importlib.resources
(tempfile, shutil, bz2, lzma, random) took 10 ms of a cold search."""


def data_file(name: str) -> Path:
    """A file of kb/data ("ranking.toml")."""
    return DATA / name


def load_table(name: str) -> dict[str, str]:
    """A word table from kb/data, keys lower-cased; KbBroken naming the file when it is damaged."""
    import tomllib  # (here: a search reads its tables from its search data)

    where = f"kb/data/{name}.toml"
    try:
        data = parse_toml(data_file(f"{name}.toml").read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise KbBroken(f"{where}: cannot be read ({exc}); reinstall rulings or restore the file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise KbBroken(f"{where}: not valid TOML ({exc}); fix the line it names") from exc
    bad = sorted(k for k, v in data.items() if not isinstance(v, str))
    if bad:
        raise KbBroken(f"{where}: expected phrase = \"words\", found other values for {bad[:5]}")
    return {k.lower(): v for k, v in data.items()}


@functools.lru_cache(maxsize=4)
def load_words(name: str) -> list[str]:
    """A word list from kb/data (one word a line, "#" opening a comment line); KbBroken naming the file
    when it is damaged."""
    where = f"kb/data/{name}.txt"
    try:
        text = data_file(f"{name}.txt").read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KbBroken(f"{where}: cannot be read ({exc}); reinstall rulings or restore the file") from exc
    words = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    bad = [w for w in words if not (w.isascii() and w.isalpha() and w.islower())]
    if bad:
        raise KbBroken(f"{where}: expected one lower-case word a line, found {bad[:3]}")
    return words


@functools.lru_cache(maxsize=4)
def words_text(name: str) -> str:
    """A word list from kb/data as its text, a line break before and after each line: a word is looked
    up as "\\nword\\n" in it, without reading the list into a set (kb.search.searchspec.SearchSpec.is_english:
    one query's few words, in a millisecond)."""
    try:
        data = data_file(f"{name}.txt").read_bytes()
    except OSError as exc:
        raise KbBroken(f"kb/data/{name}.txt: cannot be read ({exc}); reinstall rulings or restore the file") from exc
    return "\n" + data.decode("utf-8", "replace") + "\n"

"""Reads the manifest (sources.toml) that lists every document the build ingests."""

from __future__ import annotations

import re
import stat
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from kb.errors import ManifestError, ParseError, quote
from kb.inputs import kind_of, parse_toml, read_bytes, too_large
from kb.inputs import max_bytes as max_bytes_in_force
from kb.model import Source
from kb.builder.parsers import PARSERS
from kb.builder.parsers.blocks import position

MANIFEST = "sources.toml"
REQUIRED = ("id", "title", "game", "kind", "edition", "date", "origin", "path", "parser")
OPTIONAL = ("licence", "origin_url")
"""Text fields an entry may leave out (empty then)."""
GAMES = ("meccg", "lotr-tcg")
MANIFEST_MAX = 4 * 1024 * 1024
"""The largest manifest read (or the source cap, if larger): the bundled one is 3 KB."""
SOURCE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A source id: it begins every ruling id (`crf-22.454d048a6d`) and names files and pages, so it is a
short slug of letters, digits, '-' and '_' (no dot, slash, space or '..')."""
URL_SCHEMES = ("http", "https")
"""The only kinds of address an origin_url may be: it is published as a link (`rulings serve`)."""


def read_manifest(sources_dir: Path, max_bytes: int | None = None) -> list[Source]:
    """The sources of `sources_dir`/sources.toml, checked: ManifestError names the entry at fault.

    Every entry's path, symbolic links followed, must lead to a regular file inside the sources
    folder, of at most max_bytes (default: the cap of kb.inputs); the manifest itself must be a
    regular file. One bad entry refuses the whole manifest, so nothing is built from it.
    """
    limit = max_bytes_in_force() if max_bytes is None else max_bytes
    path = sources_dir / MANIFEST
    text = manifest_text(path, limit)
    entries = source_entries(path, text)
    starts = [n for n, line in enumerate(text.split("\n"), start=1) if line.strip().startswith("[[source]]")]
    root = sources_dir.resolve()
    sources: list[Source] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries, start=1):
        at = f":{starts[n - 1]}" if len(starts) == len(entries) else ""
        source = read_entry(f"{path}{at}: [[source]] entry {n}", entry, seen, sources_dir, root, limit)
        seen.add(source.id)
        sources.append(source)
    return sources


def manifest_text(path: Path, limit: int) -> str:
    """The manifest's text: ManifestError if it is missing, not a regular file, too large or not UTF-8."""
    if not path.exists() and not path.is_symlink():
        raise ManifestError(f"{path}: no manifest here (is --sources the rulings/ folder?)")
    try:
        raw = read_bytes(path, max(limit, MANIFEST_MAX))
    except ParseError as exc:
        raise ManifestError(f"{exc} (the manifest)") from exc
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = position(raw, exc.start)
        raise ManifestError(f"{path}:{line}: expected UTF-8 text, found byte 0x{raw[exc.start]:02X} at column "
                            f"{column} (convert the manifest to UTF-8)") from exc


def source_entries(path: Path, text: str) -> list[Any]:
    """The manifest's [[source]] entries, as TOML gives them: ManifestError if it is not TOML or has none."""
    try:
        data = parse_toml(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from exc
    except RecursionError as exc:  # tomllib parses nested arrays and tables by recursion
        raise ManifestError(f"{path}: not valid TOML for a manifest: arrays or tables nested too deeply "
                            "(a manifest is a list of [[source]] tables of text)") from exc
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise ManifestError(f"{path}: expected [[source]] entries, found none")
    return entries


def read_entry(where: str, entry: object, seen: set[str], sources_dir: Path, root: Path, limit: int) -> Source:
    """One [[source]] entry (`where` names it) as a Source, checked: its fields, an id not in `seen`, a
    known game and parser, its file (check_file); ManifestError naming the entry otherwise."""
    if not isinstance(entry, dict):
        raise ManifestError(f"{where}: expected a table of id, title, ...")
    missing = [key for key in REQUIRED if not isinstance(entry.get(key), str)]
    if missing:
        raise ManifestError(f"{where}: missing or not text: {', '.join(missing)}")
    where += f" ({quote(entry['id'])})"
    if not SOURCE_ID.fullmatch(entry["id"]):
        raise ManifestError(f"{where}: id must be 1 to 64 letters, digits, '-' or '_' (no dot, slash or space), "
                            f"found {quote(entry['id'])}; e.g. id = \"crf-22\"")
    wrong = [key for key in OPTIONAL if key in entry and not isinstance(entry[key], str)]
    if wrong:
        raise ManifestError(f"{where}: not text: {', '.join(wrong)} (write it in quotes)")
    url = entry.get("origin_url", "")
    if url and not web_address(url):
        raise ManifestError(f"{where}: origin_url must be an http:// or https:// address, found {quote(url)}")
    if entry["id"] in seen:
        raise ManifestError(f"{where}: duplicate id")
    if entry["game"] not in GAMES:
        raise ManifestError(f"{where}: game must be one of {', '.join(GAMES)}, found {quote(entry['game'])}")
    if entry["parser"] not in PARSERS:
        raise ManifestError(f"{where}: unknown parser {quote(entry['parser'])}; known: {', '.join(PARSERS)}")
    check_file(where, sources_dir, root, entry["path"], limit)
    return Source(**{key: entry[key] for key in REQUIRED}, current=bool(entry.get("current", True)),
                  **{key: entry[key] for key in OPTIONAL if key in entry})


def web_address(url: str) -> bool:
    """Whether url is an http(s) address with a host, and no space or control character in it:
    web_address("https://councilofelrond.org/rules/") is True, web_address("javascript:alert(1)") False."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:  # an address Python cannot take apart ("http://[::1")
        return False
    return parts.scheme.lower() in URL_SCHEMES and bool(host) and not any(c.isspace() or ord(c) < 32 for c in url)


def check_file(where: str, sources_dir: Path, root: Path, relative: str, limit: int) -> None:
    """A manifest path must lead (symbolic links followed) to a regular file inside the sources
    folder `root`, of at most `limit` bytes; ManifestError saying which and what to do otherwise."""
    file = sources_dir / relative
    try:
        target = file.resolve()
    except (OSError, RuntimeError) as exc:  # a loop of symbolic links
        raise ManifestError(
            f"{where}: path {quote(relative, 400)} cannot be followed ({exc.__class__.__name__})") from exc
    if Path(relative).is_absolute():
        raise ManifestError(f"{where}: path {quote(relative, 400)} is absolute; give a path inside the sources folder "
                            f"{root} (copy the file there)")
    if not target.is_relative_to(root):
        how = "" if ".." in Path(relative).parts else " through a symbolic link"
        raise ManifestError(f"{where}: path {quote(relative, 400)} leads outside the sources folder {root}{how}; a "
                            "source must be a file inside it (copy the file there)")
    try:
        info = target.stat()
    except FileNotFoundError as exc:
        raise ManifestError(f"{where}: file {file} does not exist") from exc
    except OSError as exc:
        raise ManifestError(f"{where}: file {file} cannot be read ({exc.strerror})") from exc
    if not stat.S_ISREG(info.st_mode):
        raise ManifestError(f"{where}: {file} is {kind_of(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise ManifestError(f"{where}: {file} is {too_large(info.st_size, limit)}")

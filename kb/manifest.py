"""Reads the manifest (sources.toml) that lists every document the build ingests."""

from __future__ import annotations

import tomllib
from pathlib import Path

from kb.errors import ManifestError
from kb.model import Source
from kb.parsers import PARSERS

MANIFEST = "sources.toml"
REQUIRED = ("id", "title", "game", "kind", "edition", "date", "origin", "path", "parser")
GAMES = ("meccg", "lotr-tcg")


def read_manifest(sources_dir: Path) -> list[Source]:
    """The sources of `sources_dir`/sources.toml, checked: ManifestError names the entry at fault."""
    path = sources_dir / MANIFEST
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError as exc:
        raise ManifestError(f"{path}: no manifest here (is --sources the rulings/ folder?)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"{path}: cannot read the manifest: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{path}: not valid TOML: {exc}") from exc
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise ManifestError(f"{path}: expected [[source]] entries, found none")
    sources: list[Source] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries, start=1):
        where = f"{path}: [[source]] entry {n}"
        missing = [key for key in REQUIRED if not isinstance(entry.get(key), str)]
        if missing:
            raise ManifestError(f"{where}: missing or not text: {', '.join(missing)}")
        if entry["id"] in seen:
            raise ManifestError(f"{where}: duplicate id {entry['id']!r}")
        if entry["game"] not in GAMES:
            raise ManifestError(f"{where}: game must be one of {', '.join(GAMES)}, found {entry['game']!r}")
        if entry["parser"] not in PARSERS:
            raise ManifestError(f"{where}: unknown parser {entry['parser']!r}; known: {', '.join(PARSERS)}")
        file = sources_dir / entry["path"]
        if not file.is_file():
            raise ManifestError(f"{where} ({entry['id']}): file {file} does not exist")
        seen.add(entry["id"])
        sources.append(Source(**{key: entry[key] for key in REQUIRED}, current=bool(entry.get("current", True))))
    return sources

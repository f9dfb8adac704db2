"""The parsers, one per source format, keyed by the name the manifest gives."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from kb.errors import ManifestError
from kb.model import ParsedDocument, Source

Parser = Callable[[Source, Path], ParsedDocument]

PARSERS = ("crf", "coe_rules", "rulebook", "timing", "arda", "wiki", "cards")
"""Parser names a manifest may use; each is the module kb.builder.parsers.NAME with a parse_NAME function."""


def parser_for(name: str) -> Parser:
    """The parse function for a manifest `parser` name, e.g. parser_for("crf")."""
    if name not in PARSERS:
        raise ManifestError(f"unknown parser {name!r}; known: {', '.join(sorted(PARSERS))}")
    module = importlib.import_module(f"kb.builder.parsers.{name}")
    parse: Parser = getattr(module, f"parse_{name}")
    return parse


def parse_document(source: Source, path: Path) -> ParsedDocument:
    """Parse one source file with the parser its manifest entry names."""
    return parser_for(source.parser)(source, path)

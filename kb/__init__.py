"""rulings: a MECCG rulings knowledge base (parsers, store, cross-references, search, site)."""

from __future__ import annotations

from kb.errors import ForeignFolder, KbBroken, KbError, KbMissing, ManifestError, NotFound, ParseError, WriteFailed

__version__ = "0.1.0"

__all__ = ["ForeignFolder", "KbBroken", "KbError", "KbMissing", "ManifestError", "NotFound", "ParseError", "WriteFailed",
           "__version__"]

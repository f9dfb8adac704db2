"""rulings: a MECCG rulings knowledge base (parsers, store, cross-references, search, site).

The public API, as sqlite-utils exports Database: `kb.build(sources_dir, kb_dir)` makes a knowledge
base from the bundled sources; `kb.Reader(kb_dir)` answers every lookup and the search as its methods
(card, term, phase, numbered, ruling, search, ...); every error is a `kb.KbError`. The build and the
Reader are imported when first named, so `import kb` stays cheap for a cold command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.builder import __version__
from kb.errors import ForeignFolder, KbBroken, KbError, KbMissing, ManifestError, NotFound, ParseError, WriteFailed

if TYPE_CHECKING:
    from kb.builder.pipeline import build
    from kb.read.lookup import Reader

__all__ = ["ForeignFolder", "KbBroken", "KbError", "KbMissing", "ManifestError", "NotFound", "ParseError", "Reader",
           "WriteFailed", "__version__", "build"]


def __getattr__(name: str) -> Any:
    """kb.build and kb.Reader, imported when first named."""
    if name == "build":
        from kb.builder.pipeline import build
        return build
    if name == "Reader":
        from kb.read.lookup import Reader
        return Reader
    raise AttributeError(f"module 'kb' has no attribute {name!r}")

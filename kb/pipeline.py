"""The build recipe: manifest -> parse every source -> check -> store, swapped in only when complete."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb import __version__
from kb.inputs import DEFAULT_MAX_SOURCE_MB, MB, size_limit
from kb.manifest import read_manifest
from kb.model import ParsedDocument, Source
from kb.parsers import parse_document
from kb.index import analyze, build_index
from kb.ranking import COVERAGE_FLOOR, export_weights
from kb.searchdata import index_records, make_lexicon, units
from kb.lexicon import Lexicon
from kb.searchspec import Unit, build_spec, name_table, write_spec
from kb.server import write_metadata
from kb.xref import Xref, cross_reference
from kb.store import DB_NAME, INDEX_DIR, LEXICON, new_build, write_database

Progress = Callable[[Source], None]


@dataclass(slots=True)
class BuildReport:
    """What a build did: per source the counts, plus where it wrote."""

    kb_dir: Path
    documents: list[ParsedDocument] = field(default_factory=list)
    xref: Xref | None = None

    def summary(self) -> list[dict[str, object]]:
        """One row per source: id, title, rulings, sections, lines, skipped and repairs."""
        rows = []
        for doc in self.documents:
            kinds: dict[str, int] = {}
            for r in doc.rulings:
                kinds[r.kind] = kinds.get(r.kind, 0) + 1
            rows.append({"source": doc.source.id, "title": doc.source.title, "game": doc.source.game,
                         "rulings": len(doc.rulings), "sections": len(doc.sections), "lines": doc.line_count,
                         "skipped": len(doc.skipped), "repairs": len(doc.repairs), "kinds": kinds})
        return rows


def search_spec(documents: list[ParsedDocument], lexicon: Lexicon, xref: Xref, passages: list[Unit]) -> dict[str, Any]:
    """The search data (kb.searchspec) of parsed documents: their passage units, sources, editions,
    card names and the ranking weights."""
    sources = [{"id": d.source.id, "title": d.source.title, "edition": d.source.edition, "game": d.source.game,
                "kind": d.source.kind, "current": d.source.current, "parser": d.source.parser, "path": d.source.path}
               for d in documents]
    editions = {k.ruling_id: k.target for k in xref.links if k.kind == "edition" and k.target}
    return build_spec(passages, analyze, sources, editions, name_table(lexicon.names), lexicon.lowercase, export_weights(),
                      {"COVERAGE_FLOOR": COVERAGE_FLOOR})


def build(sources_dir: Path, kb_dir: Path, progress: Progress | None = None,
          max_source_mb: float = DEFAULT_MAX_SOURCE_MB) -> BuildReport:
    """Parse every source the manifest lists and write a new knowledge base into kb_dir.

    Nothing is written until every source has parsed; the new database replaces the old one only
    once complete. Only files inside sources_dir are read, regular files of at most max_source_mb.
    Raises KbError subclasses (ManifestError, ParseError, ForeignFolder, WriteFailed).
    """
    report = BuildReport(kb_dir)
    limit = int(max_source_mb * MB)
    with size_limit(limit):
        for source in read_manifest(sources_dir, limit):
            if progress:
                progress(source)
            report.documents.append(parse_document(source, sources_dir / source.path))
    lexicon = make_lexicon(report.documents)
    report.xref = cross_reference(report.documents, lexicon)
    passages = units(report.documents, lexicon)
    with new_build(kb_dir) as folder:
        write_database(folder / DB_NAME, report.documents, __version__, report.xref)
        # the search data is written as soon as it is made, and let go before the index is built
        write_spec(folder, search_spec(report.documents, lexicon, report.xref, passages))
        build_index(folder / INDEX_DIR, index_records(passages, report.documents))
        (folder / LEXICON).write_text(json.dumps(lexicon.to_json(), ensure_ascii=False), "utf-8")
        write_metadata(folder, [d.source for d in report.documents], __version__)
    return report

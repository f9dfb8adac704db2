"""The build recipe: manifest -> parse and store each source -> cross-reference -> search data and
index, read back from the stored database a document at a time -> swapped in only when complete."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.builder import __version__
from kb.builder.addresses import Addresses
from kb.builder.changes import to_row
from kb.builder.editions import Editions, find_changes
from kb.builder.equivalents import equivalence_links, load_equivalences
from kb.builder.successors import load_pairings
from kb.errors import KbBroken
from kb.store.index import analyze, index_writer
from kb.inputs import DEFAULT_MAX_SOURCE_MB, MB, size_limit
from kb.builder.lexicon import Lexicon
from kb.builder.manifest import read_manifest
from kb.builder.metadata import write_metadata
from kb.model import ParsedDocument, Problem, Source
from kb.builder.parsers import parse_document
from kb.search.ranking import COVERAGE_FLOOR, authority, export_weights, weights
from kb.builder.searchdata import LexiconDraft, document_units, index_record
from kb.search.searchspec import BM25, UNIT, Unit, gather, name_table, spec_items, write_spec
from kb.store.snapshot import Snapshot
from kb.store.store import DB_NAME, INDEX_DIR, LEXICON, Draft, Stored, new_build
from kb.builder.xref import Targets, card_headings, edition_links, link_document

Progress = Callable[[Source], None]


@dataclass(frozen=True, slots=True)
class SourceCount:
    """What a build found in one source."""

    source: str
    """The source's id."""
    title: str
    game: str
    rulings: int
    sections: int
    lines: int
    """The lines of its file."""
    skipped: int
    """Its runs of lines stored as no ruling (`rulings check` gives the reasons)."""
    repairs: int
    kinds: dict[str, int]
    """Its rulings by kind."""


@dataclass(slots=True)
class BuildReport:
    """What a build did: per source the counts, plus where it wrote."""

    kb_dir: Path
    counts: list[SourceCount] = field(default_factory=list)
    """One row per source, in manifest order (see summary)."""

    def count(self, doc: ParsedDocument) -> None:
        """Note a parsed document's counts (the document itself is not kept)."""
        kinds: dict[str, int] = {}
        for r in doc.rulings:
            kinds[r.kind] = kinds.get(r.kind, 0) + 1
        self.counts.append(SourceCount(doc.source.id, doc.source.title, doc.source.game, len(doc.rulings),
                                       len(doc.sections), doc.line_count, len(doc.skipped), len(doc.repairs), kinds))

    def summary(self) -> list[SourceCount]:
        """One row per source, in manifest order."""
        return self.counts


def source_rows(sources: list[Source]) -> list[dict[str, Any]]:
    """The sources as the search data lists them."""
    return [{"id": s.id, "title": s.title, "edition": s.edition, "game": s.game, "kind": s.kind,
             "current": s.current, "parser": s.parser, "path": s.path} for s in sources]


def build(sources_dir: Path, kb_dir: Path, progress: Progress | None = None,
          max_source_mb: float = DEFAULT_MAX_SOURCE_MB) -> BuildReport:
    """Parse every source the manifest lists and write a new knowledge base into kb_dir.

    The manifest is read and checked first, then kb_dir (ForeignFolder if it is not ours), then
    each source is parsed and stored in a new build folder beside the current one, and let go:
    the later stages read the stored rows back a document at a time, so a build's memory grows
    far slower than its corpus. Nothing replaces the previous knowledge base until every source
    has parsed and everything is written; a failed build removes its folder (and a knowledge-base
    folder it had just made). Only files inside sources_dir are read, regular files of at most
    max_source_mb. Raises KbError subclasses (ManifestError, ParseError, ForeignFolder, WriteFailed).
    """
    report = BuildReport(kb_dir)
    limit = int(max_source_mb * MB)
    with size_limit(limit):
        sources = read_manifest(sources_dir, limit)
    with new_build(kb_dir) as folder, Draft(folder / DB_NAME) as db:
        words, targets = LexiconDraft(), Targets()
        with size_limit(limit):
            for source in sources:
                if progress:
                    progress(source)
                doc = parse_document(source, sources_dir / source.path)
                db.add(doc)
                words.add(doc)
                targets.add(doc)
                report.count(doc)
                del doc  # let go: the later stages read the stored rows back
        lexicon = words.finish()
        terms = targets.terms(lexicon)
        store_links(db, sources, lexicon, targets, terms)
        store_changes(db, sources)
        db.add_card_answers()
        db.add_name_keys(name_table(lexicon.names))
        db.add_keywords(lexicon.keywords)
        store_addresses(db, [t["name"] for t in terms])
        with index_writer(folder / INDEX_DIR) as add_record:
            write_spec(folder, search_data(db, lexicon, index=add_record))
        (folder / LEXICON).write_text(json.dumps(lexicon.to_json(), ensure_ascii=False), "utf-8")
        db.finish(__version__, terms)
        write_metadata(folder, sources, __version__)
    return report


def store_links(db: Draft, sources: list[Source], lexicon: Lexicon, targets: Targets,
                terms: list[dict[str, Any]]) -> None:
    """The cross-references (kb.builder.xref) of the stored documents, a document at a time, into the
    database: every detector's links, then the older editions' links and the rulings a person found to
    state the same rule (kb.builder.equivalents); the CRF card headings; the problems found, the detectors' (and
    a pair of the same rule naming a ruling no source has now) before the headings'."""
    problems: list[Problem] = []
    heading_problems: list[Problem] = []
    ctx = targets.context(lexicon, terms, problems)
    for source in sources:  # a document as stored: its sections and rulings (the detectors read no more)
        doc = ParsedDocument(source, 0, db.sections(source.id), db.rulings(source.id))
        db.add_links(link_document(doc, ctx))
        db.add_headings(card_headings(doc, lexicon, heading_problems))
    crf = [s for s in sources if s.parser == "crf"]
    db.add_links(edition_links((r for s in crf if s.current for r in db.rulings(s.id)),
                               (r for s in crf if not s.current for r in db.rulings(s.id))))
    db.add_links(equivalence_links(load_equivalences(), lambda i: db.text(i) is not None, {s.id for s in sources},
                                   problems))
    db.add_problems(problems + heading_problems)


def store_changes(db: Draft, sources: list[Source]) -> None:
    """What changed in the current CRFs (kb.builder.editions), read from the stored rulings and links a
    document at a time, with the pairings checked by hand (kb/data/successors.toml), into the
    database; a "Changes from ..." entry naming no ruling is a problem, and so is a pairing checked
    by hand whose wordings the sources no longer have."""
    editions = {ruling_id: (target, how) for ruling_id, target, how in db.links("edition")}
    changes, problems = find_changes(Editions(sources, db.rulings, editions, db.cards_about, db.card_texts,
                                              load_pairings()))
    db.add_changes(to_row(c, n) for n, c in enumerate(changes))
    db.add_problems(problems)


def store_addresses(db: Draft, terms: list[str]) -> None:
    """Where each page of the site is (a document's, card's, term's, phase's, annotation's, rule's) and
    each ruling lives on it (kb.builder.addresses, the one plan), decided once from the stored database and the
    terms (stored last, with the build's meta) and stored, so that no reader derives it again."""
    db.add_addresses(Addresses.read(db.conn, terms).rows(db.conn))


def search_data(db: Stored, lexicon: Lexicon, unit: Mapping[str, float] = UNIT, bm25: dict[str, float] = BM25,
                index: Callable[[dict[str, Any]], None] | None = None) -> Iterator[tuple[str, Any]]:
    """The stage "search data": the search data (kb.search.searchspec) of a stored database, a build's draft
    or a finished build's (kb.store.store.Stored), field by field as write_spec writes them, with these
    passage weights (UNIT) and BM25 parameters; each passage is also given to the whoosh index
    (index) as it is made. A build writes it with the defaults; tools/tune_ranking.py makes it again
    from a finished build with others (remade_search_data)."""
    sources = db.sources()
    return spec_items(passages(db, sources, lexicon, unit, index), analyze, source_rows(sources), db.edition_places,
                      name_table(lexicon.names), lexicon.lowercase, export_weights(),
                      {"COVERAGE_FLOOR": COVERAGE_FLOOR},
                      lexicon.game_words, bm25, db.cased_numbers(), db.equivalent_places,
                      [authority(s.kind, s.current, weights()) for s in sources])


def remade_search_data(kb_dir: Path, unit: Mapping[str, float] = UNIT,
                       bm25: dict[str, float] = BM25) -> dict[str, Any]:
    """The search data of a knowledge base's current build made again (search_data) from its stored
    database and card lexicon, with these passage weights and BM25 parameters, held in memory; KbMissing,
    or KbBroken when the build cannot be read."""
    with Snapshot.open(kb_dir) as build:
        try:
            lexicon = Lexicon.from_json(json.loads(build.lexicon.read_text("utf-8")))
        except (OSError, ValueError, TypeError, AttributeError) as exc:
            raise KbBroken(f"{build.lexicon}: cannot read the card lexicon ({exc.__class__.__name__}); "
                           "run `rulings build` to rebuild the knowledge base") from exc
        conn = build.connect()
        try:
            return gather(search_data(Stored(conn), lexicon, unit, bm25))
        except sqlite3.DatabaseError as exc:
            raise KbBroken(f"the knowledge base at {kb_dir} cannot be read ({exc}); run `rulings build` to "
                           "rebuild it") from exc
        finally:
            conn.close()


def passages(db: Stored, sources: list[Source], lexicon: Lexicon, unit: Mapping[str, float] = UNIT,
             index: Callable[[dict[str, Any]], None] | None = None) -> Iterator[Unit]:
    """Every stored ruling as a passage (kb.builder.searchdata.document_units) at these weights, a document at
    a time, each also given to the whoosh index (index) as it is made; a lead-in is looked for in its
    own document first, then in the database."""
    for source in sources:
        rulings = db.rulings(source.id)
        texts = {r.id: r.text for r in rulings}
        for passage in document_units(source, rulings, lexicon, lambda i: texts[i] if i in texts else db.text(i), unit):
            if index is not None:
                index(index_record(passage, source.game))
            yield passage

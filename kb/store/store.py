"""The knowledge base on disk: SQLite written through sqlite-utils, read with the standard library.

A knowledge base is a directory. Each build writes a complete new database into a temporary
folder beside the current one, a document at a time (Draft: each parsed document stored as it
comes, read back a document at a time by the later stages), and then swaps the `current` link, so
a failed or killed build leaves the previous knowledge base answering. See SCHEMA below for the tables.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import asdict, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import KbBroken, KbMissing, WriteFailed
from kb.keys import ASCII_LOWER
from kb.owned import claim, die_at, grave, left_over, mark, marker, read_mark, remove, remove_graves, remove_unheld

if TYPE_CHECKING:  # the model's types are imported where a build makes them: a reader needs none
    from kb.model import Link, ParsedDocument, Problem, Ruling, Section, Source

SCHEMA_VERSION = 13
"""13: each link stores where the ruling's text says it (links.spans), the site's links in the text."""
DB_NAME = "rulings.db"
INDEX_DIR = "index"
LEXICON = "lexicon.json"
CURRENT = "current"

SCHEMA = """
meta(key, value)                       schema_version, built_at, kb_version
sources(id, title, game, kind, edition, date, origin, path, parser, current, licence, origin_url, line_count, rulings)
sections(id, source, titles JSON list of titles, title, depth, line_start, line_end, ord)
rulings(id, source, game, section JSON list, kind, number, title, text, raw, line_start, line_end,
        markers JSON list, ord, parent, incomplete)   incomplete: why the source's text of it is not
                                       whole (kb.model.Ruling.incomplete), "" where it reads whole
cards(ruling_id (key), id (the database's card id), set_code, set_name, name, names JSON {lang: name}, all_names
      (every language's name, distinct, " / " between), type, alignment, text, text_html, attributes JSON)
skipped(source, line_start, line_end, reason)
repairs(source, line, kind, before, after)
problems(source, line, severity, message)   severity warning, or note (about the source's own text)
links(ruling_id, kind, target, how, spans)  cross-references: kind card (how about|mention|card), phase
                                       (section|text), term, annotation / rule (cites), section (a
                                       "See also" target), edition (same|reworded|absent, older -> current),
                                       same-rule (how checked: a ruling of another document that states the
                                       same rule, each way; kb/builder/equivalents.py, kb/data/same_rule.toml);
                                       spans JSON [[start, end], ...]: where the ruling's text (as
                                       kb.store.reading reads it: JSON's `text`) names the card or
                                       cites the number, the site's links in its text ([] for none)
terms(key, name, definition ruling id, section_id of its "Rulings by Term" heading, headings JSON list of
      the other CRF headings that name it, rules JSON list of the CoE rules whose title names it (each
      with its parts), aliases JSON list of the other keys it is asked by (kb/builder/terms.py))
card_headings(section_id, heading, card)  every CRF card heading and the card name(s) it stands for
card_keywords(key, heading)            each name `rulings card` reads as a CRF keyword heading's cards
                                       (folded: "mind ring", "dwarven rings"), -> that heading
                                       (kb/builder/searchdata.py)
changes(ruling_id, kind, year, evidence, tag, other_id, likeness, guess, verdict, erratum_cards JSON list,
        erratum_evidence, erratum_guess, diff JSON [[op, text]], unsure, ord)
                                       what changed in the current CRF (kb/builder/changes.py: kind listed|marked|
                                       reworded|tagged|absent), in the order shown
card_names(key, name)                  every card's name in every language as a name may be asked for,
                                       -> its English name: folded (kb.search.query.fold: no accents, case or
                                       apostrophes) and as SQLite's lower() lowers it (ASCII letters);
                                       and every key the terminal reads a name by (kb.search.searchspec.name_table:
                                       "balrog" for The Balrog)
card_answers(card, part, ruling_id, ord)  what `rulings card` (and the card_rulings query, the site's card
                                       page, the deck check) answers of a card, decided by the build from
                                       its links (CARD_ANSWERS): part card (its own text), erratum, ruling
                                       (a ruling about it), mention (any other ruling naming it), each
                                       ruling once per card; ord the reading order (card, part, current
                                       editions first, manifest order, document order)
addresses(kind, key, part, page, anchor)  where each thing lives on the site (kb/builder/addresses.py), decided
                                       by the build: kind document (key its source, part its top-level
                                       part on a page of its own, or ""), card (key its English name),
                                       term (key its name, lower case), phase (key its id), annotation
                                       and rule (key the number, lower case), ruling (key its id; page
                                       and anchor); pages in the order they were registered
rulings_fts, cards_fts                 FTS5 full-text tables over rulings and cards (see FULL_TEXT)
"""


COLUMNS: dict[str, dict[str, type]] = {
    "sources": {"id": str, "title": str, "game": str, "kind": str, "edition": str, "date": str, "origin": str,
                "path": str, "parser": str, "current": int, "licence": str, "origin_url": str, "line_count": int,
                "rulings": int},
    "sections": {"id": str, "source": str, "titles": str, "title": str, "depth": int, "line_start": int,
                 "line_end": int, "ord": int},
    "rulings": {"id": str, "source": str, "game": str, "section": str, "kind": str, "number": str, "title": str,
                "text": str, "raw": str, "line_start": int, "line_end": int, "markers": str, "ord": int, "parent": str,
                "incomplete": str},
    "cards": {"ruling_id": str, "id": str, "set_code": str, "set_name": str, "name": str, "names": str,
              "all_names": str, "type": str, "alignment": str, "text": str, "text_html": str, "attributes": str},
    "skipped": {"source": str, "line_start": int, "line_end": int, "reason": str},
    "repairs": {"source": str, "line": int, "kind": str, "before": str, "after": str},
    "problems": {"source": str, "line": int, "severity": str, "message": str},
    "card_names": {"key": str, "name": str},
}
"""Every table _rows fills, with its columns (see SCHEMA)."""


def name_keys(name: str) -> set[str]:
    """The keys card_names holds for one name, as SQL finds it from what was typed (lower(trim(:card))):
    name_keys("Khamûl the Easterling") == {"khamul the easterling", "khamûl the easterling"}."""
    from kb.search.query import fold

    lowered = name.strip().translate(ASCII_LOWER)
    return {k for k in (fold(name), lowered, lowered.replace("’", "'")) if k}

JSON_COLUMNS: dict[str, tuple[str, ...]] = {"sections": ("titles",), "rulings": ("section", "markers"),
                                            "cards": ("names", "attributes"), "changes": ("erratum_cards", "diff"),
                                            "terms": ("headings", "rules", "aliases"), "links": ("spans",)}
"""The columns holding JSON text, by table: query() decodes them, and Datasette's metadata names them."""

FULL_TEXT: dict[str, tuple[str, ...]] = {"rulings": ("title", "section", "text"), "cards": ("all_names", "text")}
"""The full-text (FTS5) table of each table, over these columns: rulings_fts, cards_fts."""
FULL_TEXT_TOKENIZER = "porter"
"""English stemming over SQLite's unicode61 tokenizer, which also folds accents: "attacks" finds
"attack", "Burat" finds "Bûrat"."""


def _rows(doc: ParsedDocument, table: str) -> Iterator[dict[str, Any]]:
    """The rows of one table (see COLUMNS) for one document, made as they are written."""
    s = doc.source
    if table == "sources":
        yield {**asdict(s), "current": int(s.current), "line_count": doc.line_count, "rulings": len(doc.rulings)}
    elif table == "sections":
        for sec in doc.sections:
            yield {"id": sec.id, "source": s.id, "titles": json.dumps(sec.path, ensure_ascii=False),
                   "title": sec.path[-1], "depth": len(sec.path), "line_start": sec.span.start,
                   "line_end": sec.span.end, "ord": sec.order}
    elif table == "rulings":
        for r in doc.rulings:
            yield {"id": r.id, "source": s.id, "game": s.game, "section": json.dumps(r.section, ensure_ascii=False),
                   "kind": r.kind, "number": r.number, "title": r.title, "text": r.text, "raw": r.raw,
                   "line_start": r.span.start, "line_end": r.span.end,
                   "markers": json.dumps(r.markers, ensure_ascii=False), "ord": r.order, "parent": r.parent,
                   "incomplete": r.incomplete}
    elif table == "cards":
        for c in doc.cards:
            yield {"id": c.id, "ruling_id": c.ruling_id, "set_code": c.set_code, "set_name": c.set_name,
                   "name": c.name, "names": json.dumps(c.names, ensure_ascii=False),
                   "all_names": " / ".join(dict.fromkeys(c.names.values())), "type": c.type,
                   "alignment": c.alignment, "text": c.text, "text_html": c.text_html,
                   "attributes": json.dumps(c.attributes, ensure_ascii=False)}
    elif table == "skipped":
        yield from ({"source": s.id, "line_start": k.span.start, "line_end": k.span.end, "reason": k.reason}
                    for k in doc.skipped)
    elif table == "repairs":
        yield from ({"source": s.id, "line": p.line, "kind": p.kind, "before": p.before, "after": p.after}
                    for p in doc.repairs)
    elif table == "problems":
        yield from _problem_rows(doc.problems)
    elif table == "card_names":
        pairs = {(key, c.names["en"]) for c in doc.cards for n in c.names.values() for key in name_keys(n)}
        yield from ({"key": key, "name": name} for key, name in sorted(pairs))


def _problem_rows(problems: Iterable[Problem]) -> Iterator[dict[str, Any]]:
    return ({"source": p.source, "line": p.line, "severity": p.severity, "message": p.message} for p in problems)


CHANGE_COLUMNS: dict[str, type] = {
    "ruling_id": str, "kind": str, "year": int, "evidence": str, "tag": str, "other_id": str, "likeness": float,
    "guess": int, "verdict": str, "erratum_cards": str, "erratum_evidence": str, "erratum_guess": int, "diff": str,
    "unsure": int, "ord": int}
"""The changes table's columns (kb.builder.changes.to_row makes its rows)."""


DOCUMENT_TABLES = ("sources", "sections", "rulings", "cards", "skipped", "repairs", "problems", "card_names")
"""The tables a parsed document fills (COLUMNS), in the order they are made."""
KEYS = {"sources": "id", "sections": "id", "rulings": "id", "cards": "ruling_id"}
INDEXES = (("rulings", ["source", "ord"]), ("rulings", ["kind", "number"]), ("sections", ["source", "ord"]),
           ("cards", ["name"]), ("links", ["kind", "target"]), ("links", ["ruling_id"]), ("card_names", ["key"]),
           ("card_answers", ["card", "ord"]))


CARD_PARTS = ("card", "erratum", "ruling", "mention")
"""A card's answer, in the order it is read: its own text (a face of the card database), its errata,
the rulings about it, then every other ruling that names it."""

_PART = {part: n for n, part in enumerate(CARD_PARTS, 1)}
CARD_ANSWERS = f"""
insert into card_answers (card, part, ruling_id, ord)
select card, case part {' '.join(f"when {n} then '{part}'" for part, n in _PART.items())} end, ruling_id,
       row_number() over (order by card, part, current desc, source_rank, ruling_ord)
from (select l.target as card, l.ruling_id, s.current, s.rowid as source_rank, r.ord as ruling_ord,
             min(case when l.how = 'card' then {_PART["card"]} when l.how = 'mention' then {_PART["mention"]}
                      when r.kind = 'erratum' then {_PART["erratum"]} else {_PART["ruling"]} end) as part
      from links l join rulings r on r.id = l.ruling_id join sources s on s.id = r.source
      where l.kind = 'card' and l.how in ('card', 'about', 'mention')
      group by l.target, l.ruling_id)"""
"""What is said of each card, each ruling once per card (a ruling about a card that also names it is
one of its rulings, not a mention; its own text is not a mention of it), in reading order: the one
statement of a card's answer, read by kb.read.lookup (`rulings card`, the site, the deck check) and by
the read API's card_rulings query."""


class Stored:
    """A knowledge base database read a document at a time: the later stages of a build read its
    draft so (Draft), and the search data stage (kb.builder.pipeline.search_data) a finished build's too.
    Rulings are stored in build order: a ruling's rowid - 1 is its place among the search data's
    docs (edition_places)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def sources(self) -> list[Source]:
        """The stored sources, in manifest order, as the manifest gave them."""
        from kb.model import Source

        names = [f.name for f in fields(Source)]
        rows = self.conn.execute(f"select {', '.join(names)} from sources order by rowid")
        return [Source(**{**dict(zip(names, row)), "current": bool(row[names.index("current")])}) for row in rows]

    def links(self, kind: str, how: str | None = None) -> list[tuple[str, str, str]]:
        """The stored links of one kind (and how), as (ruling id, target, how), in the order stored."""
        sql = "select ruling_id, target, how from links where kind = ?" + (" and how = ?" if how else "")
        return list(self.conn.execute(sql + " order by rowid", (kind, how) if how else (kind,)))

    def cards_about(self, ruling_id: str) -> list[str]:
        """The cards a stored ruling's heading names (its card links "about"), in the order stored."""
        return [t for (t,) in self.conn.execute("select target from links where ruling_id = ? and kind = 'card' "
                                                "and how = 'about' order by rowid", (ruling_id,))]

    def card_texts(self, name: str) -> list[str]:
        """The text of each printing of the card of this English name."""
        return [t for (t,) in self.conn.execute("select text from cards where name = ? order by rowid", (name,))]

    def rulings(self, source: str) -> list[Ruling]:
        """The rulings of one stored document, in document order."""
        from kb.model import Ruling, Span

        rows = self.conn.execute(
            "select id, source, section, kind, number, text, raw, line_start, line_end, markers, ord, title, parent, "
            "incomplete from rulings where source = ? order by ord", (source,))
        return [Ruling(rid, src, tuple(json.loads(section)), kind, number, text, raw, Span(start, end),
                       tuple(json.loads(markers)), order, title, parent, incomplete or "")
                for rid, src, section, kind, number, text, raw, start, end, markers, order, title, parent, incomplete
                in rows]

    def sections(self, source: str) -> list[Section]:
        """The sections of one stored document, in document order."""
        from kb.model import Section, Span

        rows = self.conn.execute("select id, source, titles, line_start, line_end, ord from sections "
                                 "where source = ? order by ord", (source,))
        return [Section(sid, src, tuple(json.loads(titles)), Span(start, end), order)
                for sid, src, titles, start, end, order in rows]

    def text(self, ruling_id: str) -> str | None:
        """The text of a stored ruling, None if there is none of that id."""
        row = self.conn.execute("select text from rulings where id = ?", (ruling_id,)).fetchone()
        return None if row is None else str(row[0])

    def cased_numbers(self) -> dict[str, str]:
        """The numbers of rules, steps and examples (not annotations, not cards) the sources write with
        capitals, by their lower case: "2.iv.iii" -> "2.IV.iii", "3.v" -> "3.v 3.V" (kb.search.query.rule_numbers)."""
        from kb.keys import cased_numbers

        numbers = (r["number"] for r in query(self.conn, "select number from rulings where number != '' and kind "
                                                         "not in ('annotation', 'card') order by rowid"))
        return {lower: " ".join(alike) for lower, alike in cased_numbers(numbers).items() if alike != [lower]}

    def edition_places(self) -> Iterator[tuple[int, int]]:
        """Each older-edition ruling linked to its current counterpart, as their places among the
        rulings (rowid - 1: the search data's doc numbers), in the order of the links."""
        for old, new in self.conn.execute(
                "select o.rowid - 1, n.rowid - 1 from links l join rulings o on o.id = l.ruling_id "
                "join rulings n on n.id = l.target where l.kind = 'edition' and l.target != '' order by l.rowid"):
            yield old, new


    def equivalent_places(self) -> Iterator[tuple[int, int]]:
        """Each ruling linked to a ruling stating the same rule (kb.builder.equivalents), as their places among the
        rulings (the search data's doc numbers), in the order of the links."""
        yield from self.conn.execute(
            "select a.rowid - 1, b.rowid - 1 from links l join rulings a on a.id = l.ruling_id "
            "join rulings b on b.id = l.target where l.kind = 'same-rule' order by l.rowid")


class Draft(Stored):
    """A knowledge base database being written, a document at a time: each parsed document is stored
    as it comes (add) and read back a document at a time by the later stages (Stored), so a build
    never holds every document at once."""

    def __init__(self, db_path: Path) -> None:
        import sqlite_utils

        self._db = sqlite_utils.Database(db_path)
        super().__init__(self._db.conn)
        db = self._db
        for name in DOCUMENT_TABLES:
            # created with their columns first, so a table with no rows (no card database, say) still has them
            db[name].create(COLUMNS[name], pk=KEYS.get(name))  # type: ignore[union-attr]
        db["links"].create(  # type: ignore[union-attr]
            {"ruling_id": str, "kind": str, "target": str, "how": str, "spans": str})
        db["terms"].create({"key": str, "name": str, "definition": str, "section_id": str,  # type: ignore[union-attr]
                            "headings": str,
                            "rules": str, "aliases": str}, pk="key")
        db["card_headings"].create({"section_id": str, "heading": str, "card": str})  # type: ignore[union-attr]
        db["card_keywords"].create({"key": str, "heading": str}, pk="key")  # type: ignore[union-attr]
        db["changes"].create(CHANGE_COLUMNS)  # type: ignore[union-attr]
        db["addresses"].create({"kind": str, "key": str, "part": str, "page": str,  # type: ignore[union-attr]
                                "anchor": str},
                               pk=("kind", "key", "part"))
        db["card_answers"].create({"card": str, "part": str, "ruling_id": str, "ord": int})  # type: ignore[union-attr]
        for name, columns in INDEXES:
            db[name].create_index(columns)  # type: ignore[union-attr]

    def __enter__(self) -> Draft:
        return self

    def __exit__(self, *exc: object) -> None:
        self._db.close()  # finish commits; a build that fails before it leaves nothing to keep

    def add(self, doc: ParsedDocument) -> None:
        """Store one parsed document: its source row, sections, rulings, cards, skipped lines, repairs, problems."""
        for name in DOCUMENT_TABLES:
            self._db[name].insert_all(_rows(doc, name), batch_size=1000)  # type: ignore[union-attr]

    def add_links(self, links: Iterable[Link]) -> None:
        self._db["links"].insert_all(({"ruling_id": k.ruling_id, "kind": k.kind,  # type: ignore[union-attr]
                                       "target": k.target, "how": k.how,
                                       "spans": json.dumps([list(span) for span in k.spans])}
                                      for k in links), batch_size=5000)

    def add_problems(self, problems: Iterable[Problem]) -> None:
        self._db["problems"].insert_all(_problem_rows(problems))  # type: ignore[union-attr]

    def add_headings(self, headings: Iterable[dict[str, str]]) -> None:
        self._db["card_headings"].insert_all(headings)  # type: ignore[union-attr]

    def add_keywords(self, keywords: Mapping[str, str]) -> None:
        self._db["card_keywords"].insert_all({"key": k, "heading": h}  # type: ignore[union-attr]
                                             for k, h in keywords.items())

    def add_changes(self, rows: Iterable[dict[str, Any]]) -> None:
        self._db["changes"].insert_all(rows)  # type: ignore[union-attr]

    def add_name_keys(self, names: dict[str, list[str]]) -> None:
        """Every key the terminal reads a card name by (kb.search.searchspec.name_table: "balrog" for The
        Balrog) that card_names lacks, so the read API reads a name as `rulings card` does."""
        known = {row[0] for row in self.conn.execute("select distinct key from card_names")}
        self._db["card_names"].insert_all(({"key": key, "name": name}  # type: ignore[union-attr]
                                           for key, found in names.items()
                                           if key not in known for name in found), batch_size=5000)

    def add_card_answers(self) -> None:
        """Every card's answer (CARD_ANSWERS), from the stored links, rulings and sources."""
        self.conn.execute(CARD_ANSWERS)

    def add_addresses(self, rows: Iterable[dict[str, str]]) -> None:
        self._db["addresses"].insert_all(rows, batch_size=5000)  # type: ignore[union-attr]

    def finish(self, version: str, terms: Iterable[dict[str, Any]]) -> None:
        """The terms, the meta table and the full-text tables; committed."""
        db = self._db
        db["terms"].insert_all(terms)  # type: ignore[union-attr]
        db["meta"].insert_all([  # type: ignore[union-attr]
            {"key": "schema_version", "value": str(SCHEMA_VERSION)},
            {"key": "built_at", "value": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
            {"key": "kb_version", "value": version},
        ], pk="key")
        write_full_text(db)
        db.conn.commit()


def write_full_text(db: Any) -> None:
    """Add the FTS5 tables of FULL_TEXT to a database just written (a sqlite_utils.Database): no
    triggers, as a knowledge base is written whole and never changed."""
    for table, columns in FULL_TEXT.items():
        db[table].enable_fts(columns, fts_version="FTS5", tokenize=FULL_TEXT_TOKENIZER, create_triggers=False)


# -- the knowledge base directory -----------------------------------------------------------------

def clean_stale(kb_dir: Path) -> list[Path]:
    """Remove what rulings itself left in its knowledge-base folder: builds of killed processes,
    complete builds older than the one before the current one, and what a killed clean-up left of a
    build (its tombstone, kb.owned.bury). Only folders carrying the build marker (kb.owned) are
    touched (and an empty tombstone), and only in a folder carrying the knowledge-base marker.

    The build before the current one is kept, so a reader that opened it just before a swap can
    finish its answer; and so is any build a reader holds (kb.store.snapshot), whatever its age.
    """
    removed: list[Path] = []
    if read_mark(kb_dir, "kb") is None:
        return removed
    remove_graves(kb_dir, "build")
    current = (kb_dir / CURRENT).resolve() if (kb_dir / CURRENT).exists() else None
    complete: list[Path] = []
    for entry in kb_dir.iterdir():
        m = read_mark(entry, "build")
        if m is None or grave(entry, "build"):
            continue  # not ours, whatever its name; or being removed
        if m.pid is not None:
            if left_over(entry, "build") and remove(entry, "build"):
                removed.append(entry)
        elif entry.resolve() != current:
            complete.append(entry)
    if current is not None:
        complete.sort(key=lambda e: e.stat().st_mtime)
        for entry in complete[:-1]:
            if remove_unheld(entry, "build"):
                removed.append(entry)
    return removed


@contextmanager
def new_build(kb_dir: Path) -> Iterator[Path]:
    """A fresh folder to build into; on success it becomes the current knowledge base atomically.

    kb_dir must be empty, absent, or a knowledge-base folder rulings made (ForeignFolder otherwise).
    On any exception the folder is removed and the current knowledge base is left as it was; a
    failure to write (disk full, permission denied) is WriteFailed, one line.
    """
    tmp: Path | None = None
    fresh, made = False, list[Path]()  # whether this build marks kb_dir, and the folders it makes: undone if it fails
    try:
        advice = "choose another --kb, or empty it"
        if (kb_dir / CURRENT).is_symlink():
            advice = "if an older rulings made it, remove it and run `rulings build` again; else choose another --kb"
        if read_mark(kb_dir, "kb") is None:
            fresh, made = True, [p for p in (kb_dir, *kb_dir.parents) if not p.exists()]
        claim(kb_dir, "kb", advice)
        clean_stale(kb_dir)
        tmp = kb_dir / f".tmp-{os.getpid()}-{time.time_ns()}"
        tmp.mkdir()
        mark(tmp, "build", os.getpid())
        die_at("started")
        yield tmp
        die_at("written")
        mark(tmp, "build")
        final = kb_dir / f"build-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{time.time_ns() % 10**6}"
        tmp.rename(final)
        tmp = None
        die_at("renamed")
        link = final / ".current-link"  # made inside our own folder, so a kill cannot strand it
        link.symlink_to(final.name)
        die_at("linked")
        os.replace(link, kb_dir / CURRENT)
    except (OSError, sqlite3.Error) as exc:
        writable = kb_dir if kb_dir.is_dir() else next(p for p in kb_dir.parents if p.is_dir())
        raise WriteFailed.of(exc, "the knowledge base", kb_dir, writable, "run `rulings build` again",
                             "the previous knowledge base still answers") from exc
    finally:
        if tmp is not None:
            if not remove(tmp, "build"):
                with suppress(OSError):
                    tmp.rmdir()  # made, but its marker could not be written: nothing in it
            if fresh:
                unclaim(kb_dir, made)
    clean_stale(kb_dir)


def unclaim(kb_dir: Path, made: list[Path]) -> None:
    """Undo the claim of a knowledge-base folder a failed build had just marked: its marker goes,
    and each folder the build made for it goes if nothing else is in it (innermost first)."""
    marker(kb_dir, "kb").unlink(missing_ok=True)
    for folder in made:
        try:
            folder.rmdir()
        except OSError:
            return  # not empty (or not there): left as it is


def no_knowledge_base(kb_dir: Path) -> KbMissing:
    """The error for a folder with no knowledge base in it, saying what to run."""
    return KbMissing(f"no knowledge base at {kb_dir} (run `rulings build` first, or pass --kb DIR)")


def database_path(kb_dir: Path) -> Path:
    """The database of the current build, or KbMissing saying what to run."""
    db = kb_dir / CURRENT / DB_NAME
    if not db.is_file():
        raise no_knowledge_base(kb_dir)
    return db.resolve()


def connect(kb_dir: Path) -> sqlite3.Connection:
    """A read-only connection to the current knowledge base, its schema version checked (a reader
    of more than the database opens a kb.store.snapshot.Snapshot instead, and connects through it)."""
    return open_database(database_path(kb_dir), kb_dir)


def open_database(db: Path, kb_dir: Path) -> sqlite3.Connection:
    """A read-only connection to a build's database, its schema version checked; messages name kb_dir."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        conn.row_factory = sqlite3.Row
        row = conn.execute("select value from meta where key = 'schema_version'").fetchone()
    except sqlite3.DatabaseError as exc:
        raise KbBroken(f"the knowledge base at {kb_dir} is damaged ({exc}); run `rulings build` to rebuild it") from exc
    if row is None or row[0] != str(SCHEMA_VERSION):
        found = row[0] if row else "none"
        raise KbBroken(f"the knowledge base at {kb_dir} has schema version {found}, this rulings needs "
                       f"{SCHEMA_VERSION}; run `rulings build` to rebuild it")
    return conn


_JSON_KEYS = tuple(dict.fromkeys(c for columns in JSON_COLUMNS.values() for c in columns))


def query(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> list[dict[str, Any]]:
    """Rows as dicts, JSON columns decoded; a damaged database becomes KbBroken."""
    try:
        cursor = conn.execute(sql, params)
        rows = cursor.fetchall()
    except sqlite3.DatabaseError as exc:
        raise KbBroken(f"the knowledge base cannot be read ({exc}); run `rulings build` to rebuild it") from exc
    names = [column[0] for column in cursor.description or ()]
    keys = [key for key in _JSON_KEYS if key in names]  # (looked for in the columns once, not in every row)
    out = []
    for row in rows:
        d = dict(zip(names, row))  # (a build's connection gives tuples, a reader's sqlite3.Row)
        for key in keys:
            if isinstance(d[key], str):
                try:
                    d[key] = json.loads(d[key])
                except ValueError as exc:
                    raise KbBroken(f"the knowledge base is damaged: the {key} stored for "
                                   f"{d.get('id') or d.get('ruling_id')} "
                                   "is not JSON; run `rulings build` to rebuild it") from exc
        out.append(d)
    return out


JSON_ROWS = {"sections": "id", "rulings": "id", "cards": "ruling_id", "changes": "ruling_id", "terms": "key",
             "links": "ruling_id"}
"""The column naming a row of each table of JSON_COLUMNS: a section's or a ruling's id, a term's key."""


def not_json(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """Every value of a JSON column (JSON_COLUMNS) that does not decode, as (the id its row names,
    the column): what a damaged knowledge base holds, for `rulings check`."""
    found = []
    for table, columns in JSON_COLUMNS.items():
        for name, *values in conn.execute(f"select {JSON_ROWS[table]}, {', '.join(columns)} from {table}"):
            for column, value in zip(columns, values):
                try:
                    json.loads(value) if isinstance(value, str) else None  # (NULL is none: query() leaves it)
                except ValueError:
                    found.append((name, column))
    return found


# -- saved queries: SQL a reader of the database runs by name (Datasette shows them as canned queries) --------

SAVED_QUERIES: dict[str, tuple[str, str]] = {
    "search": ("Full-text search of the rulings, the most relevant first", """\
select r.id, r.source, r.section, r.kind, r.number, r.title, r.text
from rulings_fts f join rulings r on r.rowid = f.rowid
where rulings_fts match escape_fts(:q)
order by rank"""),
    "card_rulings": ("The rulings of one card", """\
select c.card, r.id, r.source, r.section, r.kind, r.number, r.title, r.text, c.part
from card_answers c join rulings r on r.id = c.ruling_id
where c.card in (
  select name from card_names where key = lower(trim(:card))
  union select name from card_names where key like replace(replace(lower(trim(:card)), '%', ''), '_', '') || ' %'
    and not exists (select 1 from card_names where key = lower(trim(:card))))
order by c.ord"""),
    "annotation_rulings": ("Every ruling citing one annotation", """\
select r.id, r.source, r.section, r.kind, r.number, r.title, r.text
from links l join rulings r on r.id = l.ruling_id join sources s on s.id = r.source
where l.kind = 'annotation' and l.target = lower(trim(:annotation))
order by s.rowid, r.ord"""),
}
"""name -> (title, SQL with named parameters): the rulings holding every word of a full-text search,
the most relevant first (FTS5's BM25 rank; escape_fts is Datasette's: each word quoted); a card's
answer (card_answers, what `rulings card` gives) by its name in any language, in any case, with or
without its accents (card_names): its own text, its errata, the rulings about it, then the other
rulings that mention it, each once (a name that begins several cards and is none, "khamul": each of
them, by name); the rulings citing an annotation ("18", "25a")."""

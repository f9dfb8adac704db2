"""The knowledge base as a read API: the Datasette metadata a build writes, and Datasette run over it.

Datasette (an optional extra: `pip install 'rulings[serve]'`) is imported here and nowhere else.
Its metadata is made from the manifest's sources, so every document's origin and licence, the
Council of Elrond card database's credit among them, travels with the database it describes.
The keys used are those of Datasette 0.65's metadata file (title, description, license, source,
per-table description, columns, facets, sortable_columns, label_column, and the database's canned
queries); Datasette 0.65 has no setting for a column's type, so JSON columns are named in their
column description, and the JSON API decodes them when asked (`?_json=section`).

`rulings serve` follows the knowledge base (Following): each request is answered wholly from the
build `current` named when it came in, held (kb.snapshot) so no rebuild's clean-up removes it while
served, and a rebuild is picked up by the next request, with one line on standard error.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import json
import sqlite3
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import KbBroken, KbError, MissingExtra
from kb.model import Source
from kb.snapshot import Kb, Snapshot, current_build
from kb.store import FULL_TEXT, JSON_COLUMNS, SAVED_QUERIES

METADATA = "datasette.json"
"""The metadata file a build writes beside the database."""
DATABASE = "rulings"
"""The database's name in Datasette's URLs: the stem of store.DB_NAME."""
INSTALL = ("Install it with `pip install 'rulings[serve]'` (installed with pipx: `pipx install --force '.[serve]'` in "
           "the rulings folder; in a checkout: `.venv/bin/pip install -e '.[serve]'`)")
"""What to do when Datasette is missing."""

TABLES: dict[str, dict[str, Any]] = {
    "sources": {
        "description": "One row per document the knowledge base is built from, as rulings/sources.toml lists it: "
                       "title, game, kind, edition, date, origin, and the licence it is used under.",
        "facets": ["game", "kind", "edition"],
        "sortable_columns": ["id", "title", "game", "kind", "edition", "date", "line_count", "rulings"],
        "label_column": "title",
        "columns": {"current": "1 for the edition a judge should rely on first, 0 for an older one kept for reference",
                    "licence": "the terms the document is used under, with the credit its publisher asks for",
                    "origin_url": "the publisher's page of the document, where it has one"},
    },
    "rulings": {
        "description": "Every ruling, rule, definition, example and card of every document, with its place "
                       "(source, section, line span). Search with the box: full text over title, section and "
                       "text (words stemmed, accents folded), the rows in id order; the search query gives "
                       "the same rows, the most relevant first.",
        "facets": ["source", "game", "kind"],
        "sortable_columns": ["id", "source", "game", "kind", "number", "title", "line_start", "ord"],
        "label_column": "title",
        "columns": {"id": "stable id: source id, a dot, a hash of the ruling's place and words",
                    "section": "the headings above the ruling, outermost first",
                    "kind": "ruling, rule, annotation, definition, example, card, ...",
                    "number": "the document's own number (annotation 18, rule 2.IV.iii), where it has one",
                    "text": "the ruling's text, Markdown", "raw": "the source lines as they are in the file",
                    "markers": "tags the document puts on the ruling (errata, origin tags)",
                    "line_start": "first line in the source file", "line_end": "last line in the source file",
                    "ord": "position in its document", "parent": "the id of the ruling this one belongs to"},
    },
    "cards": {
        "description": "The cards of the Council of Elrond card database, one row each: names in every language, "
                       "type, alignment, text and every attribute. Search with the box: names in every language "
                       "and text.",
        "facets": ["type", "alignment", "set_name"],
        "sortable_columns": ["id", "name", "set_code", "set_name", "type", "alignment"],
        "label_column": "name",
        "columns": {"ruling_id": "the card's row in rulings", "id": "the card database's id (TW-47)",
                    "name": "the English name", "names": "the name by language code",
                    "all_names": "every language's name, distinct, \" / \" between (searched)",
                    "text_html": "the text as HTML", "attributes": "every other field of the card database"},
    },
    "sections": {"description": "Every heading of every document, with its path and line span.",
                 "facets": ["source", "depth"], "label_column": "title",
                 "columns": {"titles": "the headings from the top down to this one"}},
    "links": {"description": "Cross-references found in the rulings: kind card (how: card, about, mention), phase, "
                             "term, annotation and rule (cites), section (See also), edition (same or reworded, "
                             "from an older edition's ruling to the current one).",
              "facets": ["kind", "how"]},
    "terms": {"description": "Game terms: the ruling that defines each, and its Rulings by Term section.",
              "label_column": "name"},
    "card_headings": {"description": "Every CRF card heading and the card name or names it stands for."},
    "changes": {"description": "What changed in the current CRF (`rulings changes`): kind listed (in its \"Changes from "
                               "...\" section), marked (@), reworded (since the older edition, word by word), tagged "
                               "(an origin tag), absent (an older ruling no longer in it); each with its evidence, and "
                               "guess 1 where a pairing is the build's reading.",
                "facets": ["kind", "year", "verdict"], "sortable_columns": ["kind", "year", "ord"],
                "columns": {"ruling_id": "the ruling that changed (the older one, for absent)",
                            "year": "the year the sources date it from (its tag's, else its edition's)",
                            "other_id": "the ruling on the other side: the one a listed change names, the older "
                                        "wording, the nearest current wording",
                            "likeness": "how alike the two wordings are (0 to 1), where the pairing rests on it",
                            "erratum_cards": "the cards it is an erratum of",
                            "diff": "the older wording made into this one: [op, text] pieces (same, removed, added)"}},
    "card_names": {"description": "Every card's name in every language as it may be asked for (folded: no accents, "
                                  "case or apostrophes; and in lower case), with its English name: what the "
                                  "card_rulings query looks a name up in.",
                   "columns": {"key": "a name as it may be asked for", "name": "the card's English name"}},
    "skipped": {"description": "Source lines stored as no ruling, each with the reason (`rulings check`).",
                "facets": ["source"]},
    "repairs": {"description": "Every repair made to a source's text while parsing (mojibake, lost ligatures).",
                "facets": ["source", "kind"]},
    "problems": {"description": "Warnings and notes about the sources found while building (`rulings check`).",
                 "facets": ["source", "severity"]},
    "meta": {"description": "The build: schema version, time, rulings version."},
}
"""What Datasette shows of each table (Datasette 0.65 metadata keys)."""


def metadata(sources: Sequence[Source], version: str) -> dict[str, Any]:
    """The Datasette metadata of a knowledge base built from these sources.

    Every source's licence appears in the footer of every page (grouped by licence, naming the
    sources each covers); the cards table names the card database as its source and licence.
    """
    by_licence: dict[str, list[str]] = {}
    for s in sources:
        by_licence.setdefault(s.licence or "not recorded in the manifest", []).append(s.id)
    tables = {name: dict(table) for name, table in TABLES.items()}
    for name, table in tables.items():
        columns = dict(table.get("columns", {}))
        for column in JSON_COLUMNS.get(name, ()):
            note = f"(JSON text; ?_json={column} on a .json URL decodes it)"
            columns[column] = f"{columns[column]} {note}" if column in columns else note
        if columns:
            table["columns"] = columns
        if name in FULL_TEXT:
            table["fts_table"] = f"{name}_fts"
    for s in sources:
        if s.parser == "cards":
            tables["cards"].update({"source": s.title, "license": s.licence or "not recorded in the manifest"})
            if s.origin_url:
                tables["cards"]["source_url"] = s.origin_url
    return {
        "title": "MECCG rulings knowledge base",
        "description": (f"Every ruling of {len(sources)} documents, parsed by rulings {version}: "
                        + "; ".join(f"{s.title} ({s.game})" for s in sources) + ". The sources table gives each "
                        "one's edition, origin and licence. Full-text search: the rulings and cards tables. "
                        "Middle-earth CCG and The Lord of the Rings are trademarks of Middle-earth Enterprises "
                        "and/or Iron Crown Enterprises."),
        "license": " | ".join(f"{', '.join(ids)}: {licence}" for licence, ids in by_licence.items()),
        "source": f"{len(sources)} documents (the sources table gives each one's origin)",
        "databases": {DATABASE: {
            "tables": tables,
            "queries": {name: {"title": title, "sql": sql} for name, (title, sql) in SAVED_QUERIES.items()},
        }},
    }


def write_metadata(folder: Path, sources: Sequence[Source], version: str) -> Path:
    """Write the metadata file into a knowledge-base build folder; returns its path."""
    path = folder / METADATA
    path.write_text(json.dumps(metadata(sources, version), ensure_ascii=False, indent=2) + "\n", "utf-8")
    return path


@dataclass(frozen=True, slots=True)
class Served:
    """A build as `rulings serve` serves it: held, with its Datasette metadata."""

    snapshot: Snapshot
    metadata: dict[str, Any]


def served(kb: Kb) -> Served:
    """A build ready to serve: its schema version checked and its metadata read; KbMissing, or
    KbBroken for a knowledge base too old to have metadata."""
    snapshot = Snapshot.of(kb)
    snapshot.connect().close()  # the schema version checked
    meta = snapshot.file(METADATA)
    try:
        return Served(snapshot, json.loads(meta.read_text("utf-8")))
    except FileNotFoundError as exc:
        raise KbBroken(f"the knowledge base at {snapshot.kb_dir} has no {METADATA}; run `rulings build` to "
                       "rebuild it") from exc
    except (OSError, ValueError) as exc:
        raise KbBroken(f"{meta} cannot be read ({exc.__class__.__name__}); run `rulings build` to rebuild "
                       "the knowledge base") from exc


def serve_args(kb: Kb, options: Sequence[str] = ()) -> list[str]:
    """The arguments of `datasette serve` for a build (the current one of a knowledge base): its
    database read-only (--immutable), then `options` as given (-p 8001, --host 0.0.0.0, --get
    /rulings.json). Its metadata comes from Following (a --metadata given in options wins over it,
    key by key). KbMissing, or KbBroken for a knowledge base too old to have metadata."""
    return ["--immutable", str(served(kb).snapshot.db), *options]


REQUEST: contextvars.ContextVar[Served] = contextvars.ContextVar("served")
"""The build a request is answered from, named when it came in."""


class Following:
    """The build `rulings serve` serves: the knowledge base's current one, as of the latest request.

    Each request pins the build `current` names when it comes in (REQUEST), and every query it makes
    reads that build's database; a rebuild is picked up by the next request and said in one line on
    standard error. The build served, and the one before it (a request may still be reading it), are
    held (kb.snapshot), so no rebuild's clean-up removes them; a new build that cannot be served
    (damaged, say) is said once, and the previous one served on.
    """

    def __init__(self, kb_dir: Path, first: Served, say: Callable[[str], None]) -> None:
        self.kb_dir = kb_dir
        self.served = first
        self.previous: Served | None = None
        self.say = say
        self._refused: Path | None = None
        self._lock = threading.Lock()

    def current(self) -> Served:
        """The build to answer a new request from: the one served, or a newer current one, swapped in."""
        folder = current_build(self.kb_dir)
        if folder == self.served.snapshot.folder or folder == self._refused:
            return self.served
        with self._lock:
            if folder == self.served.snapshot.folder:
                return self.served
            try:
                new = served(self.kb_dir)
            except KbError as exc:
                self._refused = folder
                self.say(f"rulings serve: the new build {folder} cannot be served ({exc}); still serving "
                         f"{self.served.snapshot.folder}")
                return self.served
            if self.previous is not None:
                self.previous.snapshot.close()
            self.previous, self.served = self.served, new
            self.say(f"rulings serve: serving the new build {new.snapshot.folder}")
            return new

    def metadata(self) -> dict[str, Any]:
        """The metadata of the request's build (a copy: Datasette merges into what it is given)."""
        return copy.deepcopy(REQUEST.get(self.served).metadata)


def plugin(following: Following) -> Any:
    """Following as a Datasette plugin: at startup the database becomes one that reads the request's
    build (its connections, one per thread, opened again when the build changes); each HTTP request
    pins its build; the metadata is that build's."""
    from datasette import hookimpl
    from datasette.database import Database

    local = threading.local()

    class BuildDatabase(Database):  # type: ignore[misc]
        """The rulings database of the request's build."""

        path: str

        async def execute_fn(self, fn: Callable[[Any], Any]) -> Any:
            build = REQUEST.get(following.served).snapshot
            newest = str(following.served.snapshot.db)
            if self.path != newest:  # what Datasette names and counts (once per build): the build served
                self.path, self.cached_hash, self.cached_size, self._cached_table_counts = newest, None, None, None

            def in_thread() -> Any:
                conn = getattr(local, "conn", None)
                if conn is None or local.folder != build.folder:
                    if conn is not None:
                        conn.close()
                    conn = sqlite3.connect(f"file:{build.db}?immutable=1", uri=True, check_same_thread=False)
                    self.ds._prepare_connection(conn, self.name)
                    local.conn, local.folder = conn, build.folder
                return fn(conn)

            if self.ds.executor is None:
                return in_thread()
            return await asyncio.get_running_loop().run_in_executor(self.ds.executor, in_thread)

    class Plugin:
        def __init__(self) -> None:
            self.__name__ = __name__  # Datasette lists a plugin by its module's name

        @hookimpl  # type: ignore[untyped-decorator]
        def startup(self, datasette: Any) -> None:
            datasette.remove_database(DATABASE)
            datasette.add_database(BuildDatabase(datasette, str(following.served.snapshot.db), is_mutable=False),
                                   name=DATABASE)

        @hookimpl  # type: ignore[untyped-decorator]
        def asgi_wrapper(self, datasette: Any) -> Callable[[Any], Any]:
            def wrap(app: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
                async def pinned(scope: dict[str, Any], receive: Any, send: Any) -> None:
                    if scope.get("type") != "http":
                        return await app(scope, receive, send)
                    token = REQUEST.set(following.current())
                    try:
                        await app(scope, receive, send)
                    finally:
                        REQUEST.reset(token)
                return pinned
            return wrap

        @hookimpl  # type: ignore[untyped-decorator]
        def get_metadata(self, datasette: Any, key: str, database: str, table: str) -> dict[str, Any]:
            return following.metadata()

    return Plugin()


def serve(kb_dir: Path, options: Sequence[str] = ()) -> int:
    """Run `datasette serve` over the current knowledge base (see serve_args, Following) until it stops,
    or for one request with `--get PATH` (printed on standard output); returns its exit status (with
    --get, 1 unless the answer is 200 OK). MissingExtra when Datasette is not installed."""
    first = served(kb_dir)
    args = serve_args(first.snapshot, options)
    try:
        from datasette.cli import serve as command
        from datasette.plugins import pm
    except ImportError as exc:
        raise MissingExtra("`rulings serve` needs Datasette, which is not installed", hint=INSTALL) from exc

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def run() -> int:
        name = f"rulings-following-{id(first)}"
        pm.register(plugin(Following(kb_dir, first, say)), name=name)
        try:
            result = command.main(args, prog_name="rulings serve", standalone_mode=False)
        except SystemExit as exc:  # datasette ends --get (and some failures) with sys.exit
            return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        finally:
            pm.unregister(name=name)
        return result if isinstance(result, int) else 0

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return run()
    # an event loop already runs in this thread (a notebook, a browser driver): Datasette's own
    # loop runs in a thread of its own
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()

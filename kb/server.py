"""The knowledge base as a read API: Datasette run over a build, with the metadata the build wrote
(kb.builder.metadata).

Datasette (an optional extra: `pip install 'rulings[serve]'`) is imported here and nowhere else.

`rulings serve` follows the knowledge base (Following): each request is answered wholly from the
build `current` named when it came in, held (kb.store.snapshot) so no rebuild's clean-up removes it while
served, and a rebuild is picked up by the next request, with one line on standard error.

What one request may make is bounded (BOUNDS; docs/read-api.md lists them), for a server any address can
reach (`-h 0.0.0.0`) takes any SQL: `select randomblob(1e9)` is refused (400), not 7.5 GB taken.
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
from kb.inputs import MB
from kb.builder.metadata import DATABASE, METADATA
from kb.store.snapshot import Kb, Snapshot, current_build
from kb.read.templates import put_first

INSTALL = ("Install it with `pip install 'rulings[serve]'` (installed with pipx: `pipx install --force '.[serve]'` in "
           "the rulings folder; in a checkout: `.venv/bin/pip install -e '.[serve]'`)")
"""What to do when Datasette is missing."""


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


MAX_VALUE = MB
"""The longest string or blob a query may make or return, in bytes (SQLite's length limit on each
connection: `select randomblob(1e9)` fails at once). The longest the bundled sources store is 4 KB."""
MAX_COLUMNS = 32
"""The most columns a query may return (SQLite's column limit; the widest table has 14)."""
MAX_ANSWER = 16 * MB
"""The most memory the values one query returns may take (Python's measure of each value), in bytes:
the largest page of a table (`_size=max`, 1,000 rulings) takes about 5 MB."""
SETTINGS = {"sql_time_limit_ms": 1000, "max_returned_rows": 1000}
"""Datasette's own bounds, given by rulings (they are Datasette 0.65's defaults): a query runs at most
a second, and returns at most 1,000 rows. A --setting in the options raises or lowers them."""


class TooLarge(sqlite3.OperationalError):
    """A query made or returned more than the bounds allow: Datasette answers 400 with the message."""


def serve_args(kb: Kb, options: Sequence[str] = ()) -> list[str]:
    """The arguments of `datasette serve` for a build (the current one of a knowledge base): its
    database read-only (--immutable), Datasette's bounds (SETTINGS), then `options` as given (-p 8001,
    --host 0.0.0.0, --get /rulings.json, a --setting that wins over SETTINGS). Its metadata comes from
    Following (a --metadata given in options wins over it, key by key). KbMissing, or KbBroken for a
    knowledge base too old to have metadata."""
    bounds = [word for name, value in SETTINGS.items() for word in ("--setting", name, str(value))]
    return ["--immutable", str(served(kb).snapshot.db), *bounds, *options]


REQUEST: contextvars.ContextVar[Served] = contextvars.ContextVar("served")
"""The build a request is answered from, named when it came in."""


class Following:
    """The build `rulings serve` serves: the knowledge base's current one, as of the latest request.

    Each request pins the build `current` names when it comes in (REQUEST), and every query it makes
    reads that build's database; a rebuild is picked up by the next request and said in one line on
    standard error. The build served, and the one before it (a request may still be reading it), are
    held (kb.store.snapshot), so no rebuild's clean-up removes them; a new build that cannot be served
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
    build (build_database); each HTTP request pins its build (pinned); the metadata is that build's."""
    from datasette import hookimpl

    database_class = build_database(following)

    class Plugin:
        def __init__(self) -> None:
            self.__name__ = __name__  # Datasette lists a plugin by its module's name

        @hookimpl  # type: ignore[untyped-decorator]
        def startup(self, datasette: Any) -> None:
            datasette.remove_database(DATABASE)
            datasette.add_database(database_class(datasette, str(following.served.snapshot.db), is_mutable=False),
                                   name=DATABASE)

        @hookimpl  # type: ignore[untyped-decorator]
        def asgi_wrapper(self, datasette: Any) -> Callable[[Any], Any]:
            return lambda app: pinned(following, app)

        @hookimpl  # type: ignore[untyped-decorator]
        def get_metadata(self, datasette: Any, key: str, database: str, table: str) -> dict[str, Any]:
            return following.metadata()

        @hookimpl  # type: ignore[untyped-decorator]
        def prepare_jinja2_environment(self, env: Any, datasette: Any) -> None:
            put_first(env, {f"query-{DATABASE}.html": QUERY_PAGE})

    return Plugin()


QUERY_PAGE = """{% extends "default:query.html" %}
{% block title %}{% if canned_query %}{{ metadata.title or canned_query }} · {{ database }}\
{% else %}{{ super() }}{% endif %}{% endblock %}
"""
"""The page of a query of the database (Datasette's own, which a saved query's title names: Datasette
titles it with its SQL, "rulings: select r.id, r.source, ..."), its title and description kb.builder.metadata's."""


def build_database(following: Following) -> Any:
    """The class of Datasette database that reads the request's build: its connections, one per
    thread, opened again when the build changes."""
    from datasette.database import Database

    local = threading.local()
    counted: dict[str, dict[str, int | None]] = {}
    """The table counts of the build served, by its database's path (one build: the newest counted)."""

    class BuildDatabase(Database):  # type: ignore[misc]
        """The rulings database of the request's build."""

        path: str

        @property
        def cached_table_counts(self) -> dict[str, int | None] | None:
            """The counts of the build served, once counted (Datasette counts an immutable database
            once and shows those counts after; here each build is counted once)."""
            return counted.get(self.path)

        async def table_counts(self, limit: int = 10) -> dict[str, int | None]:
            path = self.path
            if path not in counted:
                counts: dict[str, int | None] = await super().table_counts(limit)
                counted.clear()
                counted[path] = counts
            return counted[path]

        async def execute_fn(self, fn: Callable[[Any], Any]) -> Any:
            build = REQUEST.get(following.served).snapshot
            newest = str(following.served.snapshot.db)
            if self.path != newest:  # what Datasette names and counts (once per build): the build served
                self.path, self.cached_hash, self.cached_size = newest, None, None

            def in_thread() -> Any:
                conn = self.build_connection(build)
                local.taken = 0  # the memory this query's values take (bounded)
                try:
                    return fn(conn)
                except sqlite3.DataError as exc:
                    if exc.sqlite_errorname != "SQLITE_TOOBIG":
                        raise
                    raise TooLarge(f"a value of more than {MAX_VALUE // MB} MB: rulings serve makes and returns "
                                   "no longer string or blob") from exc

            if self.ds.executor is None:
                return in_thread()
            return await asyncio.get_running_loop().run_in_executor(self.ds.executor, in_thread)

        def build_connection(self, build: Snapshot) -> sqlite3.Connection:
            """This thread's connection to the build's database (the one before closed if it was another's)."""
            conn: sqlite3.Connection | None = getattr(local, "conn", None)
            if conn is None or local.folder != build.folder:
                if conn is not None:
                    conn.close()
                conn = sqlite3.connect(f"file:{build.db}?immutable=1", uri=True, check_same_thread=False)
                self.ds._prepare_connection(conn, self.name)
                bound(conn, local)
                local.conn, local.folder = conn, build.folder
            return conn

    return BuildDatabase


def bound(conn: sqlite3.Connection, answer: threading.local) -> None:
    """A connection's queries bounded: no value longer than MAX_VALUE, no more columns than
    MAX_COLUMNS, and the values of one query's rows (counted as they are fetched, in answer.taken,
    which each query sets to 0) taking no more than MAX_ANSWER, else TooLarge."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE)
    conn.setlimit(sqlite3.SQLITE_LIMIT_COLUMN, MAX_COLUMNS)

    def row(cursor: sqlite3.Cursor, values: tuple[Any, ...]) -> sqlite3.Row:
        answer.taken += sum(map(sys.getsizeof, values))
        if answer.taken > MAX_ANSWER:
            raise TooLarge(f"an answer of more than {MAX_ANSWER // MB} MB: rulings serve returns no more for one "
                           "query; ask for fewer rows (_size=) or columns (_col=)")
        return sqlite3.Row(cursor, values)
    conn.row_factory = row


def pinned(following: Following, app: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """The ASGI app answering each HTTP request from the build current when it came in (REQUEST)."""
    async def pinned_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            return await app(scope, receive, send)
        token = REQUEST.set(following.current())
        try:
            await app(scope, receive, send)
        finally:
            REQUEST.reset(token)
    return pinned_app


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

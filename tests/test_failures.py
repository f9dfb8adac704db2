"""Every failure a user can cause, and the one line it gets: a sentence on stderr, exit 1, no
traceback, and nothing lost (the previous knowledge base and site answer as before)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import cli
from kb.store.store import SCHEMA_VERSION

from .conftest import ROOT


@dataclass
class Env:
    """A writable copy of the tiny corpus, knowledge base and site, and a folder for anything else."""

    sources: Path
    kb: Path
    site: Path
    tmp: Path
    monkeypatch: pytest.MonkeyPatch

    def fill(self, text: str) -> str:
        build = (self.kb / "current").resolve()  # the current build's own folder
        return text.format(sources=self.sources, kb=self.kb, site=self.site, tmp=self.tmp, build=build)


Cause = Callable[[Env], None]


# -- causes ---------------------------------------------------------------------------------------

def nothing(env: Env) -> None:
    pass


def raises(target: str, exc: BaseException) -> Cause:
    """The function `target` ("module.name") raises exc when called: a write failing at a known point."""
    def cause(env: Env) -> None:
        def fail(*args: object, **kwargs: object) -> None:
            raise exc
        env.monkeypatch.setattr(target, fail)
    return cause


def site_write_fails(code: int, text: str) -> Cause:
    """Writing a page of the new site fails (disk full: the 5th page; permission denied: the first)."""
    def cause(env: Env) -> None:
        original = Path.write_bytes
        calls = []

        def write_bytes(self: Path, data: bytes) -> int:
            if ".site.tmp-" in str(self):
                calls.append(self)
                if len(calls) >= (5 if code == errno.ENOSPC else 1):
                    raise OSError(code, text, str(self))
            return original(self, data)
        env.monkeypatch.setattr(Path, "write_bytes", write_bytes)
    return cause


def write(relative: str, data: bytes | str) -> Cause:
    """A file of the corpus (sources/...), knowledge base (kb/current/...) or elsewhere (tmp/...) holds data."""
    def cause(env: Env) -> None:
        root, _, rest = relative.partition("/")
        path = {"sources": env.sources, "kb": env.kb, "tmp": env.tmp}[root] / rest
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return cause


def manifest_path(path: str) -> Cause:
    """The CRF entry of the manifest gives this path."""
    def cause(env: Env) -> None:
        manifest = env.sources / "sources.toml"
        manifest.write_text(manifest.read_text("utf-8").replace('"meccg/crf.md"', f'"{env.fill(path)}"'), "utf-8")
    return cause


def replaced(relative: str, text: str, replacement: str) -> Cause:
    """The first `text` in a file of the corpus (sources/...) replaced."""
    def cause(env: Env) -> None:
        path = env.sources / relative.removeprefix("sources/")
        path.write_text(path.read_text("utf-8").replace(text, replacement, 1), "utf-8")
    return cause


def manifest_line(line: str, replacement: str) -> Cause:
    """A line of the manifest replaced."""
    return replaced("sources/sources.toml", line, replacement)


def symlink_out(env: Env) -> None:
    (env.tmp / "secret.md").write_text("# secret\n\n## Part\n\n- the user's own file\n", "utf-8")
    (env.sources / "meccg" / "crf.md").unlink()
    (env.sources / "meccg" / "crf.md").symlink_to(env.tmp / "secret.md")


def fifo(relative: str) -> Cause:
    def cause(env: Env) -> None:
        path = env.sources / relative
        path.unlink()
        os.mkfifo(path)
    return cause


def fifo_at(relative: str) -> Cause:
    """A named pipe at tmp/relative; a writer comes and goes after two seconds, so that code which
    waits on the pipe (as `rulings eval` once did) fails the test rather than hangs it."""
    def cause(env: Env) -> None:
        path = env.tmp / relative
        os.mkfifo(path)

        def writer() -> None:
            time.sleep(2)
            try:
                os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))  # a reader waiting in open() sees EOF
            except OSError:
                pass  # the test is over and its folder gone
        threading.Thread(target=writer, daemon=True).start()
    return cause


def sparse(relative: str, size: int) -> Cause:
    """A file of `size` bytes at tmp/relative, written as a hole (no disk used)."""
    def cause(env: Env) -> None:
        with open(env.tmp / relative, "wb") as f:
            f.truncate(size)
    return cause


def link(relative: str, to: str) -> Cause:
    """A symbolic link at tmp/relative to the knowledge base ("kb") or the site ("site")."""
    def cause(env: Env) -> None:
        (env.tmp / relative).symlink_to(env.kb if to == "kb" else env.site)
    return cause


def folder_instead(env: Env) -> None:
    (env.sources / "meccg" / "crf.md").unlink()
    (env.sources / "meccg" / "crf.md").mkdir()


def damage_kb(name: str, data: bytes | None) -> Cause:
    """A file of the current knowledge base damaged (data) or missing (None)."""
    def cause(env: Env) -> None:
        for path in [env.kb / "current" / n for n in name.split("+")]:
            if data is None:
                shutil.rmtree(path) if path.is_dir() else path.unlink()
            else:
                path.write_bytes(data)
    return cause


def schema_version(env: Env) -> None:
    conn = sqlite3.connect(env.kb / "current" / "rulings.db")
    conn.execute("update meta set value = '1' where key = 'schema_version'")
    conn.commit()
    conn.close()


def dangling_current(env: Env) -> None:
    target = (env.kb / "current").resolve()
    shutil.rmtree(target)


def data_file(name: str, text: str, ext: str = "toml") -> Cause:
    """kb/data/NAME.EXT holds text (the shipped files are left alone: the package's data is read
    from a copy)."""
    def cause(env: Env) -> None:
        import kb.search.ranking
        import kb.tables

        copy = env.tmp / "package"
        shutil.copytree(kb.tables.DATA, copy / "data")
        (copy / "data" / f"{name}.{ext}").write_text(text, "utf-8")
        env.monkeypatch.setattr(kb.tables, "DATA", copy / "data")
        for cached in (kb.search.ranking.weights, kb.tables.load_words):
            cached.cache_clear()
        env.monkeypatch.setattr(kb.search.ranking, "weights", kb.search.ranking.weights)  # cleared again when undone
        env.monkeypatch.setattr(kb.tables, "load_words", kb.tables.load_words)
    return cause


def bundle_gone(env: Env) -> None:
    """What rulings ships (its bundled sources, the site's templates) is neither installed nor beside
    kb/ (an incomplete installation)."""
    import kb.builder.bundle

    env.monkeypatch.setattr(kb.builder.bundle, "installed_at", lambda package: [])
    env.monkeypatch.setattr(kb.builder.bundle, "CHECKOUT", env.tmp / "elsewhere")


def foreign_folder(name: str) -> Cause:
    def cause(env: Env) -> None:
        (env.tmp / name).mkdir()
        (env.tmp / name / "notes.txt").write_text("mine", "utf-8")
    return cause


def deck_and_notes(env: Env) -> None:
    """A decklist of the tiny corpus's cards, and a page of the user's own where --html may point."""
    (env.tmp / "deck.txt").write_text("Hazards:\n2 Adunaphel\n", "utf-8")
    (env.tmp / "notes.html").write_text("<p>my notes</p>", "utf-8")


def empty_env(env: Env) -> None:
    env.monkeypatch.setenv("RULINGS_KB", "")


BUILD = "--kb {kb} build --sources {sources}"
LONG = "9" * 5000
"""A number of more digits than Python's int() reads (4300)."""
DISK_FULL = OSError(errno.ENOSPC, "No space left on device")
DENIED = PermissionError(errno.EACCES, "Permission denied")
KEPT_KB = "the previous knowledge base still answers"
QUESTIONS = "Give a question file: JSON Lines, an object a line with its query, gold and kind."

# (what happened, command, cause, the line on stderr after "Error: ")
CASES: list[tuple[str, str, Cause, str]] = [
    # writing fails
    ("build: disk full", BUILD, raises("kb.builder.pipeline.write_spec", DISK_FULL),
     f"cannot write the knowledge base in {{kb}}: the disk is full; free some space and run `rulings build` again "
     f"({KEPT_KB})"),
    ("build: disk full in SQLite", BUILD,
     raises("kb.builder.pipeline.Draft", sqlite3.OperationalError("database or disk is full")),
     f"cannot write the knowledge base in {{kb}}: the disk is full; free some space and run `rulings build` again "
     f"({KEPT_KB})"),
    ("build: permission denied", BUILD, raises("kb.builder.pipeline.index_writer", DENIED),
     f"cannot write the knowledge base in {{kb}}: permission denied; make {{kb}} writable (or choose another folder) "
     f"and run `rulings build` again ({KEPT_KB})"),
    ("site: disk full", "--kb {kb} site --out {site}", site_write_fails(errno.ENOSPC, "No space left on device"),
     "cannot write the site in {site}: the disk is full; free some space and run `rulings site` again (the previous "
     "site is still in place)"),
    ("site: permission denied", "--kb {kb} site --out {site}", site_write_fails(errno.EACCES, "Permission denied"),
     "cannot write the site in {site}: permission denied; make {tmp} writable (or choose another folder) and run "
     "`rulings site` again (the previous site is still in place)"),
    # folders rulings did not make
    ("build: --kb holds other files", "--kb {tmp}/mine build --sources {sources}", foreign_folder("mine"),
     "{tmp}/mine is not a knowledge-base folder made by rulings (it has no .rulings-kb file, which `rulings build` "
     "writes in the folders it makes); choose another --kb, or empty it"),
    ("build: --kb is empty", "--kb  build --sources {sources}", nothing,
     "--kb is empty; give a folder, e.g. --kb build/kb, or leave it out"),
    ("build: RULINGS_KB is empty", "build --sources {sources}", empty_env,
     "RULINGS_KB is set but empty; unset it (unset RULINGS_KB) or set it to a folder"),
    ("site: --out holds other files", "--kb {kb} site --out {tmp}/mine", foreign_folder("mine"),
     "{tmp}/mine is not a site made by rulings (it has no .rulings-site file, which `rulings site` writes in the "
     "folders it makes); choose another --out, or empty it"),
    ("site: --out is empty", "--kb {kb} site --out ", nothing, "--out is empty; give a folder, e.g. --out build/site"),
    ("build: --kb a link to a knowledge base", "--kb {tmp}/link build --sources {sources}", link("link", "kb"),
     "{tmp}/link is a link to {kb}, a knowledge-base folder made by rulings; rulings writes only into the folder "
     "itself, never through a link: pass the folder itself: {kb}"),
    ("site: --out a link to a site", "--kb {kb} site --out {tmp}/link", link("link", "site"),
     "{tmp}/link is a link to {site}, a site made by rulings; rulings writes only into the folder itself, never "
     "through a link: pass the folder itself: {site}"),
    # sources: only regular files inside the sources folder, up to the cap, in UTF-8
    ("build: path leads out", BUILD, manifest_path("../outside.md"),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): path '../outside.md' leads outside the sources folder "
     "{sources}; a source must be a file inside it (copy the file there)"),
    ("build: absolute path", BUILD, manifest_path("{tmp}/secret.md"),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): path '{tmp}/secret.md' is absolute; give a path inside "
     "the sources folder {sources} (copy the file there)"),
    ("build: symbolic link out", BUILD, symlink_out,
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): path 'meccg/crf.md' leads outside the sources folder "
     "{sources} through a symbolic link; a source must be a file inside it (copy the file there)"),
    ("build: manifest is a FIFO", BUILD, fifo("sources.toml"),
     "{sources}/sources.toml: expected a regular file, found a named pipe (FIFO) (the manifest)"),
    ("build: source is a FIFO", BUILD, fifo("meccg/crf.md"),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): {sources}/meccg/crf.md is a named pipe (FIFO), not a "
     "regular file"),
    ("build: source is a folder", BUILD, folder_instead,
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): {sources}/meccg/crf.md is a folder, not a regular file"),
    ("build: source over the cap", BUILD + " --max-source-mb 0.0001", nothing,
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): {sources}/meccg/crf.md is 1.0 KB, over the 0.1 KB "
     "limit for a source; if it really is one, raise the limit: rulings build --max-source-mb 1"),
    ("build: missing source", BUILD, manifest_path("meccg/gone.md"),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): file {sources}/meccg/gone.md does not exist"),
    ("build: invalid UTF-8", BUILD, write("sources/meccg/crf.md", b"# CRF\n\n## Turn Sequence Rulings\n- r\xe8gle\n"),
     "{sources}/meccg/crf.md:4: expected UTF-8 text, found byte 0xE8 at column 4, which UTF-8 does not allow there "
     "(is it Latin-1? convert it to UTF-8)"),
    ("build: UTF-16", BUILD, write("sources/meccg/crf.md", "# CRF\n".encode("utf-16")),
     "{sources}/meccg/crf.md:1: expected UTF-8 text, found a UTF-16 file (convert it to UTF-8)"),
    ("build: binary", BUILD, write("sources/meccg/crf.md", b"# CRF\n\n\x00\x01"),
     "{sources}/meccg/crf.md:3: expected text, found binary data (a NUL byte at column 1)"),
    ("build: empty source", BUILD, write("sources/meccg/crf.md", b"\n"),
     "{sources}/meccg/crf.md: expected a non-empty document, found an empty file"),
    ("build: text before any heading", BUILD, write("sources/meccg/crf.md", "just text \x1b]0;x\x07 " + "y" * 200),
     "{sources}/meccg/crf.md:1: expected a heading before the first text, found 'just text \\x1b]0;x\\x07 "
     + "y" * 43 + "…'"),
    ("build: manifest not TOML", BUILD, write("sources/sources.toml", "[[source]\n"),
     "{sources}/sources.toml: not valid TOML: Expected ']]' at the end of an array declaration (at line 1, column 9)"),
    ("build: manifest not UTF-8", BUILD, write("sources/sources.toml", b"# caf\xe9\n"),
     "{sources}/sources.toml:1: expected UTF-8 text, found byte 0xE9 at column 6 (convert the manifest to UTF-8)"),
    ("build: manifest entry incomplete", BUILD, write("sources/sources.toml", '[[source]]\nid = "x"\n'),
     "{sources}/sources.toml:1: [[source]] entry 1: missing or not text: title, game, kind, edition, date, origin, "
     "path, parser"),
    ("build: manifest licence not text", BUILD, manifest_line('parser = "crf"', 'parser = "crf"\nlicence = 3'),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): not text: licence (write it in quotes)"),
    ("build: manifest nested too deeply", BUILD, write("sources/sources.toml", "x = " + "[" * 100_000 + "]" * 100_000),
     "{sources}/sources.toml: not valid TOML for a manifest: arrays or tables nested too deeply (a manifest is a list "
     "of [[source]] tables of text)"),
    ("build: manifest origin_url not http(s)", BUILD,
     manifest_line('parser = "crf"', 'parser = "crf"\norigin_url = "javascript:alert(1)"'),
     "{sources}/sources.toml:1: [[source]] entry 1 ('crf-x'): origin_url must be an http:// or https:// address, "
     "found 'javascript:alert(1)'"),
    ("build: manifest id empty", BUILD, manifest_line('id = "crf-x"', 'id = ""'),
     "{sources}/sources.toml:1: [[source]] entry 1 (''): id must be 1 to 64 letters, digits, '-' or '_' (no dot, "
     "slash or space), found ''; e.g. id = \"crf-22\""),
    ("build: manifest id leads up", BUILD, manifest_line('id = "crf-x"', 'id = "../crf x"'),
     "{sources}/sources.toml:1: [[source]] entry 1 ('../crf x'): id must be 1 to 64 letters, digits, '-' or '_' (no "
     "dot, slash or space), found '../crf x'; e.g. id = \"crf-22\""),
    # a number of more digits than Python reads (its int() refuses more than 4300)
    ("build: manifest number too long", BUILD, manifest_line('parser = "crf"', 'parser = "crf"\norder = ' + LONG),
     "{sources}/sources.toml: not valid TOML: a number of more than 4300 digits (at line 11, column 9)"),
    ("build: card database number too long", BUILD, replaced("sources/meccg/cards.json", '"8"', LONG),
     "{sources}/meccg/cards.json:19: expected text, found a number of more than 4300 digits at column 32"),
    ("build: text source number too long", BUILD,
     replaced("sources/meccg/crf.md", "Annotation 25a", f"Annotation {LONG}"),
     "{sources}/meccg/crf.md:21: expected text, found a number of more than 4300 digits at column 14"),
    ("eval: number too long", "--kb {kb} eval {tmp}/q.jsonl",
     write("tmp/q.jsonl", f'{{"query": "x", "gold": [{LONG}]}}\n'),
     "{tmp}/q.jsonl:1: expected a JSON object (a number of more than 4300 digits)"),
    ("build: ranking.toml number too long", BUILD, data_file("ranking", f"[weights]\nname = {LONG}\n"),
     "kb/data/ranking.toml: not valid TOML (a number of more than 4300 digits (at line 2, column 8))"),
    # an incomplete installation
    ("build: bundled sources missing", "--kb {kb} build", bundle_gone,
     "the bundled sources that come with rulings are missing: no package rulings_sources holds sources.toml, nor "
     "does {tmp}/elsewhere/rulings. Reinstall rulings (`pip install .` or `pipx install .` in its folder)."),
    ("site: templates missing", "--kb {kb} site --out {site}", bundle_gone,
     "the site's templates and assets that come with rulings are missing: no package rulings_site holds templates, "
     "nor does {tmp}/elsewhere/site. Reinstall rulings (`pip install .` or `pipx install .` in its folder)."),
    # the knowledge base damaged, missing or of another version
    ("stats: no knowledge base", "--kb {tmp}/none stats", nothing,
     "no knowledge base at {tmp}/none (run `rulings build` first, or pass --kb DIR)"),
    ("stats: database damaged", "--kb {kb} stats", damage_kb("rulings.db", b"SQLite format 3\x00" + b"\x07" * 3000),
     "the knowledge base at {kb} is damaged (file is not a database); run `rulings build` to rebuild it"),
    ("stats: database truncated", "--kb {kb} stats", damage_kb("rulings.db", b"SQLite format 3\x00"),
     "the knowledge base at {kb} is damaged (file is not a database); run `rulings build` to rebuild it"),
    ("stats: another schema version", "--kb {kb} stats", schema_version,
     f"the knowledge base at {{kb}} has schema version 1, this rulings needs {SCHEMA_VERSION}; run `rulings build` "
     "to rebuild it"),
    ("serve: no metadata", "--kb {kb} serve --get /", damage_kb("datasette.json", None),
     "the knowledge base at {kb} has no datasette.json; run `rulings build` to rebuild it"),
    ("stats: current build gone", "--kb {kb} stats", dangling_current,
     "no knowledge base at {kb} (run `rulings build` first, or pass --kb DIR)"),
    ("search: search data damaged", "--kb {kb} search strike", damage_kb("search.json+search.marshal", b"{\x07garbage"),
     "the search data at {build}/search.json is damaged (JSONDecodeError); run `rulings build` to rebuild it"),
    ("search: search data missing", "--kb {kb} search strike", damage_kb("search.json+search.marshal", None),
     "no knowledge base at {kb} (run `rulings build` first, or pass --kb DIR)"),
    ("search --raw: index damaged", "--kb {kb} search --raw strike", damage_kb("index", None),
     "the search index at {build}/index cannot be opened (EmptyIndexError); run `rulings build` to rebuild it"),
    # (the site reads no card lexicon: the build stores where each text names a card, test_site's
    # test_the_site_reads_no_lexicon; only tools/tune_ranking.py's remade search data reads it)
    # the data files shipped in kb/data
    ("build: ranking.toml damaged", BUILD, data_file("ranking", "[weights\n"),
     "kb/data/ranking.toml: not valid TOML (Expected ']' at the end of a table declaration (at line 1, column 9))"),
    ("build: synonyms.toml damaged", BUILD, data_file("synonyms", 'cancel = "negate"\ntap =\n'),
     "kb/data/synonyms.toml: not valid TOML (Invalid value (at line 2, column 6)); fix the line it names"),
    ("term: abbreviations.toml damaged", "--kb {kb} term GI", data_file("abbreviations", "GI = 1\n"),
     "kb/data/abbreviations.toml: expected phrase = \"words\", found other values for ['GI']"),
    ("phase: abbreviations.toml damaged", "--kb {kb} phase BC", data_file("abbreviations", "BC = 1\n"),
     "kb/data/abbreviations.toml: expected phrase = \"words\", found other values for ['BC']"),
    ("build: term_aliases.toml names no term", BUILD, data_file("term_aliases", '"Untapping" = " , "\n'),
     "kb/data/term_aliases.toml: expected \"heading\" = \"glossary term, ...\", found no term for ['untapping']"),
    ("build: term_aliases.toml damaged", BUILD, data_file("term_aliases", '"Untapping" = \n'),
     "kb/data/term_aliases.toml: not valid TOML (Invalid value (at line 1, column 15)); fix the line it names"),
    ("build: term_senses.toml damaged", BUILD, data_file("term_senses", '"take place" = 1\n'),
     "kb/data/term_senses.toml: expected phrase = \"words\", found other values for ['take place']"),
    # question files for eval
    ("eval: not JSON", "--kb {kb} eval {tmp}/q.jsonl", write("tmp/q.jsonl", '{"query": "x", "gold": ["y"]}\n{oops\n'),
     "{tmp}/q.jsonl:2: expected a JSON object (Expecting property name enclosed in double quotes)"),
    ("eval: no gold", "--kb {kb} eval {tmp}/q.jsonl", write("tmp/q.jsonl", '{"query": "x"}\n'),
     "{tmp}/q.jsonl:1: expected an object with 'query' and a 'gold' list"),
    ("eval: not UTF-8", "--kb {kb} eval {tmp}/q.jsonl", write("tmp/q.jsonl", b'{"query": "\xff"}\n'),
     "{tmp}/q.jsonl: cannot read ('utf-8' codec can't decode byte 0xff in position 11: invalid start byte)"),
    ("eval: nested too deeply", "--kb {kb} eval {tmp}/q.jsonl", write("tmp/q.jsonl", "[" * 100_000 + "\n"),
     "{tmp}/q.jsonl:1: expected a JSON object (arrays or objects nested too deeply)"),
    ("eval: no question", "--kb {kb} eval {tmp}/q.jsonl", write("tmp/q.jsonl", "\n  \n"),
     "{tmp}/q.jsonl: no question in it (an empty file, or blank lines only). " + QUESTIONS),
    ("eval: a FIFO", "--kb {kb} eval {tmp}/q.jsonl", fifo_at("q.jsonl"),
     "{tmp}/q.jsonl: expected a regular file, found a named pipe (FIFO). " + QUESTIONS),
    # a device is refused before it is read: /dev/zero the same way (/dev/null here, so that code without the
    # guard, which read /dev/zero until memory ran out, fails the test at once)
    ("eval: a device", "--kb {kb} eval /dev/null", nothing,
     "/dev/null: expected a regular file, found a device. " + QUESTIONS),
    ("eval: a folder", "--kb {kb} eval {tmp}", nothing, "{tmp}: expected a regular file, found a folder. " + QUESTIONS),
    ("eval: over the cap", "--kb {kb} eval {tmp}/q.jsonl", sparse("q.jsonl", 17 * 1024 * 1024),
     "{tmp}/q.jsonl: expected a question file, found 17.0 MB, over the 16.0 MB limit for a question. " + QUESTIONS),
    # rulings deck --html (the refusals of a decklist itself, exit 2, are tabled in tests/test_deck.py)
    ("deck: --html over a file it did not make", "--kb {kb} deck {tmp}/deck.txt --html {tmp}/notes.html",
     deck_and_notes, "{tmp}/notes.html exists and `rulings deck --html` did not make it; it is left as it is. "
     "Name a new file, or remove that one first."),
    ("deck: --html into a missing folder", "--kb {kb} deck {tmp}/deck.txt --html {tmp}/none/deck.html", deck_and_notes,
     "no folder {tmp}/none to write deck.html into. Create it, or name a file in an existing folder."),
    ("deck: --html disk full", "--kb {kb} deck {tmp}/deck.txt --html {tmp}/deck.html",
     lambda env: (deck_and_notes(env), raises("kb.deck.deck.os.replace", DISK_FULL)(env)),
     "cannot write the deck page in {tmp}/deck.html: the disk is full; free some space and run `rulings deck "
     "--html` again (nothing else was written)"),
    ("deck: no knowledge base", "--kb {tmp}/none deck {tmp}/deck.txt", deck_and_notes,
     "no knowledge base at {tmp}/none (run `rulings build` first, or pass --kb DIR)"),
    # --raw query syntax
    ("search --raw: open quote", "--kb {kb} search --raw text:\"strike", nothing,
     "--raw query 'text:\"strike', position 6: a quote is opened and not closed; fix it, or try again without --raw"),
    ("search --raw: open bracket", "--kb {kb} search --raw strike AND (roll OR hazard", nothing,
     "--raw query 'strike AND (roll OR hazard', position 12: '(' is opened and not closed; fix it, or try again "
     "without --raw"),
    ("search --raw: stray bracket", "--kb {kb} search --raw strike]", nothing,
     "--raw query 'strike]', position 7: ']' closes nothing; fix it, or try again without --raw"),
    ("search --raw: dangling AND", "--kb {kb} search --raw strike AND", nothing,
     "--raw query 'strike AND', position 8: AND needs something on each side; fix it, or try again without --raw"),
    ("search --raw: stored field", "--kb {kb} search --raw data:x", nothing,
     "--raw query 'data:x', position 1: field 'data' holds no words to search; fix it, or try again without --raw"),
]


def tree(folder: Path) -> dict[str, str]:
    """Every file under a folder (links followed) and a hash of its bytes."""
    if not folder.exists():
        return {}
    return {str(p.relative_to(folder)): hashlib.sha1(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("command, cause, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_every_failure_is_one_line(tiny: tuple[Path, Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   command: str, cause: Cause, message: str) -> None:
    env = Env(tmp_path / "rulings", tmp_path / "kb", tmp_path / "site", tmp_path, monkeypatch)
    shutil.copytree(tiny[0], env.sources)
    shutil.copytree(tiny[1], env.kb, symlinks=True)
    if " site " in f" {command} ":  # a previous site is at stake only where a command makes one
        shutil.copytree(tiny[2], env.site)
    kb_before, site_before = tree(env.kb), tree(env.site)
    cause(env)
    damaged = tree(env.kb)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, _args(env.fill(command)), catch_exceptions=False)
    monkeypatch.undo()
    code = 2 if " is empty" in message or "set but empty" in message else 1  # an empty folder name: a usage error
    assert (result.exit_code, result.stderr, result.stdout) == (code, "Error: " + env.fill(message) + "\n", "")
    # nothing lost: what was there is as it was (a damaged knowledge base stays as damaged), nothing half-made is left
    assert tree(env.kb) == damaged and (damaged != kb_before or tree(env.kb) == kb_before)
    assert tree(env.site) == site_before
    assert not [p for p in tmp_path.rglob(".tmp-*")] and not [p for p in tmp_path.glob(".site.*")]


def _args(command: str) -> list[str]:
    """The words of a command line; an option given as the last word, or twice-spaced, has an empty value."""
    words = command.split(" ")
    out: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == "" and out and out[-1].startswith("--"):
            out.append("")
            i += 1
            continue
        if words[i]:
            out.append(words[i])
        i += 1
    return out


def test_a_stored_value_that_is_not_json_is_one_line_and_checked(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """A knowledge base damaged after its build: a ruling's section that is not JSON. Every command
    reading the ruling says so in one line, naming it; `rulings check` warns of it at its line."""
    kb = tmp_path / "kb"
    shutil.copytree(tiny[1], kb, symlinks=True)
    with sqlite3.connect(kb / "current" / "rulings.db") as db:
        ruling, source, line = db.execute("select id, source, line_start from rulings order by rowid limit 1").fetchone(
            )
        db.execute("update rulings set section = 'not [json' where id = ?", (ruling,))
    said = (f"the knowledge base is damaged: the section stored for {ruling} is not JSON; run `rulings build` to "
            "rebuild it")
    for command in (["export"], ["show", ruling], ["show", ruling, "--json"]):
        result = CliRunner().invoke(cli, ["--kb", str(kb), *command], catch_exceptions=False)
        assert result.exit_code == 1 and result.stdout == "", command
        assert result.stderr == (json.dumps(
            {"error": said, "hint": "Run `rulings build` to rebuild the knowledge base."})
                                 if "--json" in command else f"Error: {said}") + "\n"
    check = CliRunner().invoke(cli, ["--kb", str(kb), "check", "--json", "--strict"], catch_exceptions=False)
    warnings = [p for p in json.loads(check.stdout)["problems"] if p["severity"] == "warning"]
    assert check.exit_code == 1 and [(p["source"], p["line"]) for p in warnings
                                     if ruling in p["message"]] == [(source, line)]
    assert "the section stored for " + ruling + " is not JSON" in warnings[-1]["message"]


def test_every_failure_kind_of_the_issue_is_in_the_table() -> None:
    names = " ".join(c[0] for c in CASES)
    for kind in ("disk full", "permission denied", "invalid UTF-8", "database damaged", "another schema version",
                 "ranking.toml damaged", "eval: not JSON", "search --raw", "path leads out",
                 "FIFO", "over the cap", "--kb is empty", "--kb holds other files"):
        assert kind in names, kind


def unreadable(relative: str) -> Cause:
    """Opening tmp/relative is refused (permission denied), as for a file of another user's; the
    tests may run as root, whom no mode bit stops."""
    def cause(env: Env) -> None:
        deck_and_notes(env)
        target, original = str(env.tmp / relative), os.open

        def refusing(path: object, *args: object, **kwargs: object) -> int:
            if str(path) == target:
                raise PermissionError(errno.EACCES, "Permission denied", target)
            return original(path, *args, **kwargs)  # type: ignore[arg-type]
        env.monkeypatch.setattr(os, "open", refusing)
    return cause


DECK_HINT = "Name a decklist file, or - to read standard input."
SEARCH_HELP = "Try 'cli search --help' for help."  # click's advice, under CliRunner's name for the program

# Under --json every error is one JSON object on stderr: (what happened, command, cause, exit code, the object)
JSON_CASES: list[tuple[str, str, Cause, int, dict[str, str]]] = [
    ("search: unknown --game", "--kb {kb} search --game nope --json strike", nothing, 2,
     {"error": "Invalid value for '--game': 'nope' is not one of 'meccg', 'lotr-tcg'.", "hint": SEARCH_HELP}),
    ("search: --limit 0", "--kb {kb} search --limit 0 --json strike", nothing, 2,
     {"error": "Invalid value for '--limit': 0 is not in the range 1<=x<=200.", "hint": SEARCH_HELP}),
    ("search: no question", "--kb {kb} search --json", nothing, 2,
     {"error": "Missing argument 'QUERY...'.", "hint": SEARCH_HELP}),
    ("search: unknown option", "--kb {kb} search --jsn --json strike", nothing, 2,
     {"error": "No such option '--jsn'. Did you mean '--json'?", "hint": SEARCH_HELP}),
    ("search: unknown --source", "--kb {kb} search --source nope --json strike", nothing, 2,
     {"error": "no source 'nope'", "hint": "Known sources: crf-x, coe-x, cards (see `rulings stats`)."}),
    ("deck: --html a folder", "--kb {kb} deck {tmp}/deck.txt --html {tmp} --json", deck_and_notes, 2,
     {"error": "Invalid value for '--html': File '{tmp}' is a directory.", "hint": "Try 'cli deck --help' for help."}),
    ("deck: --html into a missing folder", "--kb {kb} deck {tmp}/deck.txt --html {tmp}/none/deck.html --json",
     deck_and_notes, 1, {"error": "no folder {tmp}/none to write deck.html into",
                         "hint": "Create it, or name a file in an existing folder."}),
    ("check --strict: a warning", "--kb {kb} check --strict --json", nothing, 1,
     {"error": "2 warning(s) (--strict)", "hint": "Fix what the warnings name, or run without --strict."}),
    ("deck: missing file", "--kb {kb} deck {tmp}/none.txt --json", nothing, 2,
     {"error": "{tmp}/none.txt: No such file or directory", "hint": DECK_HINT}),
    ("deck: unreadable file", "--kb {kb} deck {tmp}/deck.txt --json", unreadable("deck.txt"), 2,
     {"error": "{tmp}/deck.txt: Permission denied", "hint": DECK_HINT}),
    ("eval: number too long", "--kb {kb} eval {tmp}/q.jsonl --json",
     write("tmp/q.jsonl", f'{{"query": "x", "gold": [{LONG}]}}\n'), 1,
     {"error": "{tmp}/q.jsonl:1: expected a JSON object (a number of more than 4300 digits)", "hint": ""}),
    ("eval: a FIFO", "--kb {kb} eval {tmp}/q.jsonl --json", fifo_at("q.jsonl"), 1,
     {"error": "{tmp}/q.jsonl: expected a regular file, found a named pipe (FIFO)", "hint": QUESTIONS}),
]


@pytest.mark.parametrize("command, cause, code, expected", [c[1:] for c in JSON_CASES], ids=[c[0] for c in JSON_CASES])
def test_every_failure_under_json_is_one_object(tiny: tuple[Path, Path, Path], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch, command: str, cause: Cause, code: int,
                                                 expected: dict[str, str]) -> None:
    env = Env(tmp_path / "rulings", tmp_path / "kb", tmp_path / "site", tmp_path, monkeypatch)
    shutil.copytree(tiny[1], env.kb, symlinks=True)
    cause(env)
    result = CliRunner().invoke(cli, _args(env.fill(command)), catch_exceptions=False)
    monkeypatch.undo()
    assert result.exit_code == code and result.stderr.count("\n") == 1, result.stderr
    assert json.loads(result.stderr) == {key: env.fill(value) for key, value in expected.items()}
    if "check" not in command:
        assert result.stdout == ""


def test_the_same_failures_in_text_are_one_line(tiny: tuple[Path, Path, Path], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A missing decklist and an unreadable one: the same exit (2, refused input) and advice, never
    to rebuild the knowledge base."""
    env = Env(tmp_path / "rulings", tmp_path / "kb", tmp_path / "site", tmp_path, monkeypatch)
    shutil.copytree(tiny[1], env.kb, symlinks=True)
    unreadable("deck.txt")(env)
    said = []
    for name in ("none.txt", "deck.txt"):
        result = CliRunner().invoke(cli, ["--kb", str(env.kb), "deck", str(tmp_path / name)], catch_exceptions=False)
        said.append((result.exit_code, result.stderr))
    assert said == [(2, f"Error: {tmp_path}/none.txt: No such file or directory. {DECK_HINT}\n"),
                    (2, f"Error: {tmp_path}/deck.txt: Permission denied. {DECK_HINT}\n")]


# -- the standard streams: a full disk, a closed or write-only standard input, a closed pipe ------------------

FULL = "cannot write the output to standard output: the disk is full"
AGAIN = "Free some space and run the command again."
SHUT = "cannot write the output to standard output: it is closed (or open for reading only)"
OPEN = "Give the command a standard output (a terminal, a file or a pipe)."
STDIN = "Pipe a decklist into it (rulings deck - < deck.txt), or name the file."

# (what happened, arguments, shell redirections, exit code, stderr: a line of text or the JSON object)
STREAM_CASES: list[tuple[str, str, str, int, str | dict[str, str]]] = [
    ("export to a full disk", "export", "> /dev/full", 1, f"Error: {FULL}. {AGAIN}"),
    ("search to a full disk", "search strike", "> /dev/full", 1, f"Error: {FULL}. {AGAIN}"),
    ("search --json to a full disk", "search strike --json", "> /dev/full", 1, {"error": FULL, "hint": AGAIN}),
    ("stats to a full disk", "stats", "> /dev/full", 1, f"Error: {FULL}. {AGAIN}"),
    ("deck --json to a full disk", "deck {tmp}/deck.txt --json", "> /dev/full", 1, {"error": FULL, "hint": AGAIN}),
    ("site to a full disk", "site --out {tmp}/site", "> /dev/full", 1, f"Error: {FULL}. {AGAIN}"),
    ("show: standard output closed", "show {id}", ">&-", 1, f"Error: {SHUT}. {OPEN}"),
    ("export: standard output closed", "export", ">&-", 1, f"Error: {SHUT}. {OPEN}"),
    ("stats --json: standard output closed", "stats --json", ">&-", 1, {"error": SHUT, "hint": OPEN}),
    ("search --json: standard output read-only", "search strike --json", "1</dev/null", 1,
     {"error": SHUT, "hint": OPEN}),
    ("deck: standard input closed", "deck -", "<&-", 2,
     f"Error: standard input is closed: there is no decklist to read. {STDIN}"),
    ("deck --json: standard input closed", "deck - --json", "<&-", 2,
     {"error": "standard input is closed: there is no decklist to read", "hint": STDIN}),
    ("deck: standard input write-only", "deck -", "0>>{tmp}/written", 2,
     f"Error: standard input cannot be read (Bad file descriptor). {STDIN}"),
    ("ask: standard input closed", "ask", "<&-", 2,
     "Error: standard input is closed: there is nothing to ask. Run `rulings ask` at a terminal, or pipe questions "
     "into it."),
]


def rulings_line(kb: Path, args: str, redirect: str, tmp: Path) -> str:
    """A shell line running rulings (this checkout's cli.py) with its standard streams redirected;
    {id} in args is the id of a ruling of the knowledge base."""
    import shlex

    with sqlite3.connect(f"file:{kb / 'current' / 'rulings.db'}?mode=ro", uri=True) as db:
        ruling = db.execute("select id from rulings order by rowid limit 1").fetchone()[0]
    words = [sys.executable, "-c", "import sys, cli; sys.argv[0] = 'rulings'; cli.main()", "--kb", str(kb),
             *args.format(tmp=tmp, id=ruling).split()]
    return " ".join(shlex.quote(w) for w in words) + " " + redirect.format(tmp=tmp)


@pytest.mark.parametrize("args, redirect, code, said", [c[1:] for c in STREAM_CASES], ids=[c[0] for c in STREAM_CASES])
def test_every_stream_failure_is_one_line(tiny: tuple[Path, Path, Path], tmp_path: Path, args: str, redirect: str,
                                          code: int, said: str | dict[str, str]) -> None:
    (tmp_path / "deck.txt").write_text("Hazards:\n2 Adunaphel\n", "utf-8")
    shell = "/bin/sh"
    if not Path(shell).exists() or not Path("/dev/full").exists():
        pytest.skip("needs a POSIX shell and /dev/full")
    run = subprocess.run([shell, "-c", rulings_line(tiny[1], args, redirect, tmp_path)], cwd=ROOT,
                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, timeout=120)
    expected = said if isinstance(said, str) else json.dumps(said, ensure_ascii=False)
    assert (run.returncode, run.stderr) == (code, expected + "\n")


def test_a_closed_pipe_is_quiet(tiny: tuple[Path, Path, Path]) -> None:
    """`rulings export | head -1`: the reader leaves early (here, before the first line, so that every
    write finds the pipe closed); rulings stops and says nothing, exit 1, as click does for a closed pipe."""
    command = [sys.executable, "-c", "import sys, cli; sys.argv[0] = 'rulings'; cli.main()", "--kb", str(tiny[1])]
    for args in (["export"], ["stats", "--json"]):
        read, write = os.pipe()
        os.close(read)
        try:
            run = subprocess.run(command + args, cwd=ROOT, stdout=write, stderr=subprocess.PIPE, timeout=120)
        finally:
            os.close(write)
        assert (run.returncode, run.stderr) == (1, b""), args

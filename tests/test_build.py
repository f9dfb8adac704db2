"""The build over hand-made excerpts of every parser: ids come from the text, and nothing depends on
the sources' ids, only on the manifest."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from kb.builder.check import check
from kb.errors import ForeignFolder, KbBroken, ParseError
from kb.builder.lexicon import Lexicon
from kb.read.lookup import export
from kb.builder.manifest import read_manifest
from kb.builder.pipeline import build, remade_search_data, search_data
from kb.search.searchspec import SPEC, write_spec
from kb.store.snapshot import Snapshot
from kb.store.store import DB_NAME, LEXICON, Stored

from .conftest import DATA, TINY_MANIFEST, write_tiny_sources

MORE = [("crf-old", "crf", "meccg/crf-old.md", "crf_excerpt.md", "meccg", False),
        ("rulebook-x", "rulebook", "meccg/rulebook.md", "rulebook_excerpt.md", "meccg", True),
        ("timing-x", "timing", "meccg/timing.txt", "timing_excerpt.txt", "meccg", True),
        ("arda-x", "arda", "meccg/arda.txt", "arda_excerpt.txt", "meccg", True),
        ("wiki-x", "wiki", "lotr-tcg/wiki.txt", "wiki_excerpt.txt", "lotr-tcg", True)]
"""The sources added to the tiny corpus so that every parser has one, and the CRF an older edition."""

EDITED = "- @ A new ruling about &lt;foo&gt; cards. [CoE 2026]"


def every_parser(folder: Path) -> Path:
    """The tiny corpus plus one excerpt for each other parser and an older CRF edition."""
    sources = write_tiny_sources(folder)
    manifest = TINY_MANIFEST
    for sid, parser, path, excerpt, game, current in MORE:
        (sources / path).parent.mkdir(exist_ok=True)
        shutil.copy(DATA / excerpt, sources / path)
        manifest += (f'\n[[source]]\nid = "{sid}"\ntitle = "{sid}"\ngame = "{game}"\nkind = "{parser}"\nedition = "1"\n'
                     f'date = "2026-01-01"\norigin = "tests/data"\npath = "{path}"\nparser = "{parser}"\n'
                     f'current = {str(current).lower()}\n')
    (sources / "sources.toml").write_text(manifest, "utf-8")
    return sources


def edition_links(kb_dir: Path) -> list[tuple[str, str]]:
    db = sqlite3.connect((kb_dir / "current" / "rulings.db").resolve())
    return sorted(db.execute("select how, target from links where kind = 'edition'"))


def test_ids_depend_on_the_text_and_the_build_on_the_manifest(tmp_path: Path) -> None:
    """The same sources built twice, the second time with every source renamed in the manifest and
    one CRF bullet edited: as clean a build, every ruling keeps its id (under the new source name)
    except the edited one, the older CRF edition still finds its counterparts."""
    first = every_parser(tmp_path / "a" / "rulings")
    build(first, tmp_path / "a" / "kb")
    second = every_parser(tmp_path / "b" / "rulings")
    manifest = (second / "sources.toml").read_text("utf-8")
    names = [sid for sid in ("crf-x", "coe-x", "cards", *(m[0] for m in MORE))]
    for sid in names:
        assert f'id = "{sid}"' in manifest
        manifest = manifest.replace(f'id = "{sid}"', f'id = "x-{sid}"')
    (second / "sources.toml").write_text(manifest, "utf-8")
    crf = second / "meccg" / "crf.md"
    assert EDITED in crf.read_text("utf-8")
    crf.write_text(crf.read_text("utf-8").replace(EDITED, EDITED.replace("new ruling", "newer ruling")), "utf-8")
    build(second, tmp_path / "b" / "kb")

    before, after = check(tmp_path / "a" / "kb"), check(tmp_path / "b" / "kb")
    assert {s.source for s in after.sources} == {f"x-{sid}" for sid in names}
    assert [s.source for s in before.sources] == names
    assert all(s.stored > 0 and s.unaccounted == 0 for s in before.sources + after.sources)
    assert (after.warnings, after.notes) == (before.warnings, before.notes)
    old = {r["id"]: r for r in export(tmp_path / "a" / "kb")}
    new = {r["id"].removeprefix("x-"): r for r in export(tmp_path / "b" / "kb")}
    gone, added = set(old) - set(new), set(new) - set(old)
    assert len(gone) == len(added) == 1 and len(old) == len(new)
    assert "newer ruling" in new[added.pop()]["text"] and "new ruling" in old[gone.pop()]["text"]
    links = edition_links(tmp_path / "a" / "kb")
    assert [how for how, _ in links].count("same") >= 5
    renamed = [(how, target.removeprefix("x-")) for how, target in edition_links(tmp_path / "b" / "kb")]
    assert len(renamed) == len(links) and sum(1 for link in renamed if link not in links) == 1  # the edited one


def test_the_search_data_stage_reads_the_stored_database_alone(changes_corpus: tuple[Path, Path, Path],
                                                               tmp_path: Path) -> None:
    """The build writes its search data by one stage over its own draft database (kb.builder.pipeline.search_data);
    run again over the finished build's database and card lexicon, with the same parameters, it writes
    the same search data to the byte, older editions' places and all: it reads what the build stored
    and nothing the build held in memory besides."""
    kb = changes_corpus[1]
    built = (kb / "current").resolve()
    with Snapshot.open(kb) as snapshot:
        lexicon = Lexicon.from_json(json.loads(snapshot.lexicon.read_text("utf-8")))
        conn = snapshot.connect()
        write_spec(tmp_path, search_data(Stored(conn), lexicon))
        conn.close()
    assert (tmp_path / SPEC).read_text("utf-8") == (built / SPEC).read_text("utf-8")
    raw = remade_search_data(kb)
    assert raw == json.loads((built / SPEC).read_text("utf-8")) and raw["editions"] and raw["docs"]
    conn = sqlite3.connect(built / DB_NAME)
    assert Stored(conn).sources() == read_manifest(changes_corpus[0])  # the sources it reads: the manifest's, whole
    conn.close()


def test_search_data_over_a_damaged_build_says_to_rebuild(tiny: tuple[Path, Path, Path], tmp_path: Path) -> None:
    """The stage over a finished build whose database or card lexicon cannot be read: KbBroken, saying what to run."""
    kb = tmp_path / "kb"
    shutil.copytree(tiny[1], kb, symlinks=True)
    folder = (kb / "current").resolve()
    conn = sqlite3.connect(folder / DB_NAME)
    conn.execute("drop table rulings")
    conn.commit()
    conn.close()
    with pytest.raises(KbBroken, match=r"cannot be read \(no such table: rulings\); run `rulings build`"):
        remade_search_data(kb)
    (folder / LEXICON).write_text("{", "utf-8")
    with pytest.raises(KbBroken, match=r"lexicon.json: cannot read the card lexicon \(JSONDecodeError\)"):
        remade_search_data(kb)


def test_a_failed_build_leaves_no_folder_it_made(tmp_path: Path) -> None:
    """The build folder is claimed before the sources are parsed: a source that fails to parse
    leaves neither the new knowledge-base folder (nor its parents) nor a marker in an empty one,
    and a folder that is not ours is refused before any source is parsed."""
    sources = write_tiny_sources(tmp_path / "rulings")
    (sources / "meccg" / "crf.md").write_bytes(b"\n")  # an empty source: it fails to parse
    with pytest.raises(ParseError, match="empty file"):
        build(sources, tmp_path / "new" / "kb")
    assert not (tmp_path / "new").exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(ParseError, match="empty file"):
        build(sources, tmp_path / "empty")
    assert (tmp_path / "empty").is_dir() and not list((tmp_path / "empty").iterdir())
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine", "utf-8")
    with pytest.raises(ForeignFolder):
        build(sources, tmp_path / "mine")
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]

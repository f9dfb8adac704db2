"""One build per read: a reader takes every file from the build `current` named when it opened, and
no build's clean-up removes that build while it is read (kb.store.snapshot, kb.owned.hold)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import kb.owned as owned
import kb.site.website as website
from kb.read.lookup import search_spec
from kb.builder.pipeline import build
from kb.store.snapshot import Snapshot
from kb.store.store import CURRENT, DB_NAME
from kb.site.website import build_site

from . import parity

INSERTED = "A ruling inserted above the others, which the first build does not have."
ERRATUM = "*Card Erratum:* Adûnaphel's prowess is 8. [test]"


def edited(sources: Path, dest: Path, old: str, new: str) -> Path:
    """A copy of a sources folder, its CRF's first `old` made `new`."""
    shutil.copytree(sources, dest)
    crf = dest / "meccg" / "crf.md"
    text = crf.read_text("utf-8")
    assert old in text
    crf.write_text(text.replace(old, new, 1), "utf-8")
    return dest


@pytest.fixture()
def kb_and_other(tiny: tuple[Path, Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A knowledge base of the tiny sources with an erratum of their one card (Adûnaphel), and other
    sources to rebuild it from: the same with one ruling inserted near the top of the CRF, so every
    later ruling's place in the search data moves by one."""
    first = edited(tiny[0], tmp_path / "first", "### Alatar\n", f"### Adûnaphel\n\n- {ERRATUM}\n\n### Alatar\n")
    build(first, tmp_path / "kb")
    return tmp_path / "kb", edited(first, tmp_path / "other", "### General\n\n", f"### General\n\n- {INSERTED}\n\n")


def test_a_site_made_while_two_builds_swap_current_is_wholly_one_build(
        kb_and_other: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's race, made certain: once the site has read its pages' rulings, two builds of other
    sources swap `current` (the second's clean-up removes the build before the previous one); the
    search index and the deck page's data the site then writes are still the first build's."""
    kb, other = kb_and_other
    first = (kb / CURRENT).resolve()
    pages_read = website.browser_files  # called once the pages' rulings are read (kb.site.corpus)

    def two_builds_first(*args, **kwargs):  # type: ignore[no-untyped-def]
        build(other, kb)
        build(other, kb)
        assert (kb / CURRENT).resolve() != first
        return pages_read(*args, **kwargs)

    monkeypatch.setattr(website, "browser_files", two_builds_first)
    site = tmp_path / "site"
    report = build_site(kb, site, strict=True)
    assert report.broken == []
    index = parity.site_index(site)
    docs, pages = index["docs"], index["site"]["pages"]
    anchored: dict[str, set[str]] = {}
    for n, doc in enumerate(docs):  # every result of the search index lands on its ruling's page
        page = pages[index["site"]["doc_pages"][n]]
        if page not in anchored:
            anchored[page] = set(re.findall(r'\bid="([^"]+)"', (site / page).read_text("utf-8")))
        assert doc["id"] in anchored[page], (doc["id"], page)
    everything = "".join(p.read_text("utf-8") for p in site.rglob("*") if p.suffix in (".html", ".js"))
    assert INSERTED not in everything  # nothing of the later builds
    built, data = website.unstamp((site / "assets" / "deck-data.js").read_text("utf-8"))
    assert built == first.name  # the data files say they are the first build's, and are
    deck = json.loads(data.removeprefix("window.RULINGS_DECK=").rstrip().rstrip(";"))
    errata = deck["cards"]["Adûnaphel"][0]  # the deck page's Adûnaphel: her erratum, by its place in the search index
    assert [docs[d]["text"] for d in errata] == [ERRATUM]
    # once the site is made, the first build is let go: the next build's clean-up removes it
    assert first.is_dir()
    build(other, kb)
    assert not first.exists()


def test_a_held_build_outlives_two_rebuilds_and_goes_once_let_go(kb_and_other: tuple[Path, Path]) -> None:
    kb, other = kb_and_other
    with Snapshot.open(kb) as snapshot:
        first = snapshot.folder
        assert first == (kb / CURRENT).resolve() and snapshot.db == first / DB_NAME
        build(other, kb)
        build(other, kb)
        build(other, kb)  # three builds later, still there, whole, and read from
        assert (kb / CURRENT).resolve() != first and first.is_dir()
        assert [d["id"] for d in search_spec(snapshot).raw["docs"]] == \
               [row[0] for row in snapshot.connect().execute("select id from rulings order by rowid")]
        assert not any(INSERTED in d["text"] for d in search_spec(snapshot).raw["docs"])
    build(other, kb)
    assert not first.exists()
    kept = [p for p in kb.iterdir() if p.name.startswith("build-")]
    assert len(kept) == 2  # the current build and the one before it, as always


def test_without_fcntl_nothing_is_locked_and_builds_clean_up_as_before(
        kb_and_other: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    kb, other = kb_and_other
    monkeypatch.setattr(owned, "fcntl", None)
    snapshot = Snapshot.open(kb)
    first = snapshot.folder
    build(other, kb)
    build(other, kb)
    assert not first.exists()  # as before locks: the build before the previous one goes
    assert Snapshot.open(kb).folder == (kb / CURRENT).resolve()


def test_a_missing_or_dangling_current_is_no_knowledge_base(tmp_path: Path, kb_and_other: tuple[Path, Path]) -> None:
    from kb.errors import KbMissing

    with pytest.raises(KbMissing, match="no knowledge base at"):
        Snapshot.open(tmp_path / "nothing")
    kb, _ = kb_and_other
    shutil.rmtree((kb / CURRENT).resolve())
    with pytest.raises(KbMissing, match=f"no knowledge base at {re.escape(str(kb))} "):
        Snapshot.open(kb)


def test_a_process_reads_a_builds_search_data_once(tiny: tuple[Path, Path, Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A lookup that reads names (a card's) and a search share the one copy of a build's search data a
    process reads (kb.search.search.open_searcher); on main the read model and the searcher each loaded it."""
    from kb.read import lookup
    from kb.read.lookup import Reader, search
    from kb.search import search as searching
    from kb.search.searchspec import SearchSpec

    loads: list[Path] = []
    load = SearchSpec.load.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(searching, "_searchers", {})  # (the build of the tiny corpus read it in this process)
    monkeypatch.setattr(lookup, "_specs", {}, raising=False)  # (main's second copy)
    monkeypatch.setattr(SearchSpec, "load", classmethod(lambda cls, path: loads.append(path) or load(cls, path)))
    with Snapshot.open(tiny[1]) as snapshot:
        reader = Reader(snapshot)
        assert reader.card("Adunafel").names == ("Adûnaphel",)  # a name read as the search data's card names read it
        search(snapshot, "can a strike be cancelled")
        assert Reader(snapshot).spec is reader.spec
    assert len(loads) == 1


def test_the_read_model_gives_the_builds_own_section_link_and_card(tiny: tuple[Path, Path, Path]) -> None:
    """A document's headings, a ruling's links and a card's record, read back for the site and the deck check,
    are the types the build made (kb.model.Section, kb.model.Link, kb.model.Card), with the build's field names
    (a section's path, span and order, where main had a SectionRow of titles, line_start and ord; a card's
    set_code and names, where main had a CardRecord of its own)."""
    from kb.model import Card, Link, Section, Span
    from kb.read.lookup import Reader

    with Snapshot.open(tiny[1]) as snapshot:
        reader = Reader(snapshot)
        sections = [s for d in reader.documents() for s in d.sections]
        links = reader.links()
        cards = reader.card_records()
    assert sections and all(type(s) is Section and isinstance(s.span, Span) for s in sections)
    assert cards and all(type(c) is Card and c.name == c.names["en"] and c.ruling_id.endswith(c.id) for c in cards)
    assert all(s.depth == len(s.path) and s.span.start <= s.span.end for s in sections)
    assert links and all(type(k) is Link for k in links)

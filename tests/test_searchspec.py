"""The search data's files are written a piece at a time and read back whole."""

from __future__ import annotations

import gc
import json
import marshal
from pathlib import Path
from types import SimpleNamespace

import pytest

from kb.search import searchspec
from kb.search.searchspec import SPEC, SPEC_CACHE, _read_cache, write_spec

SPEC_LIKE = {
    "version": 1, "bm25": {"k1": 1.2, "b": 0.6},
    "docs": [{"id": "crf-22.1", "source": 0, "kind": "ruling", "section": 0, "text": "Ünïcode “text”", "lines": [1, 2]},
             {"id": "crf-22.2", "source": 0, "kind": "note", "section": 1, "text": "b", "lines": [3, 3], "number": "3",
              "title": "T", "markers": ["@"], "about": ["x"], "prior": 1, "numbers": ["3"]},
             {"id": "c", "source": 1, "kind": "card", "section": 1, "text": "", "lines": [], "same_words": 0}],
    "sections": [["Turn Sequence"], []], "heading_terms": [["sequenc", "turn"], None],
    "postings": {"strike": [0, 1.0, 2, 0.5], "tap": [1, 2.0], "on-guard": [0, 1.5], "élan": [2, 1.0]},
    "lengths": [1.0, 2.5, 3.0, 4.0, 5.5], "common": [], "editions": {"0": 1},
}


@pytest.mark.parametrize("chunk", [2, 3, 5000])
def test_the_files_written_in_pieces_are_the_whole_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        chunk: int) -> None:
    monkeypatch.setattr(searchspec, "CHUNK", chunk)
    write_spec(tmp_path, SPEC_LIKE)
    assert (tmp_path / SPEC).read_text("utf-8") == json.dumps(SPEC_LIKE, ensure_ascii=False, separators=(",", ":"))
    read = _read_cache(tmp_path / SPEC_CACHE)
    assert read == SPEC_LIKE and list(read) == list(SPEC_LIKE)


def test_a_marshal_copy_cut_short_is_damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(searchspec, "CHUNK", 2)
    write_spec(tmp_path, SPEC_LIKE)
    whole = (tmp_path / SPEC_CACHE).read_bytes()
    (tmp_path / SPEC_CACHE).write_bytes(whole[:-3])
    with pytest.raises(EOFError):
        _read_cache(tmp_path / SPEC_CACHE)


@pytest.mark.parametrize("collecting", [True, False])
def test_the_marshal_copy_is_read_without_a_collection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       collecting: bool) -> None:
    """The copy (its many lists, no cycle) is read with the garbage collector paused, and the collector
    is left as it was found."""
    monkeypatch.setattr(searchspec, "CHUNK", 2)
    write_spec(tmp_path, SPEC_LIKE)
    paused: list[bool] = []

    def loads(data: bytes) -> object:
        paused.append(not gc.isenabled())
        return marshal.loads(data)

    monkeypatch.setattr(searchspec, "marshal", SimpleNamespace(loads=loads, dumps=marshal.dumps))
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        read = _read_cache(tmp_path / SPEC_CACHE)
        after = gc.isenabled()
        during = list(paused)
    finally:
        (gc.enable if was else gc.disable)()
    assert read == SPEC_LIKE and len(during) > 5 and all(during) and after == collecting


@pytest.mark.parametrize("chunk, size", [(2, 3), (2, 100_000), (5000, 1)])
def test_values_made_as_they_are_written_give_the_same_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            chunk: int, size: int) -> None:
    """A build hands the docs, postings and editions over as Items (made as they are written, cut
    into pieces by count and by the length of their lists): the files say what the whole data says."""
    monkeypatch.setattr(searchspec, "CHUNK", chunk)
    monkeypatch.setattr(searchspec, "PIECE_SIZE", size)
    lazy = {k: searchspec.Items(iter(v.items() if isinstance(v, dict) else v), isinstance(v, dict))
            if k in ("docs", "postings", "lengths", "common", "editions") else v for k, v in SPEC_LIKE.items()}
    write_spec(tmp_path, iter(lazy.items()))
    assert (tmp_path / SPEC).read_text("utf-8") == json.dumps(SPEC_LIKE, ensure_ascii=False, separators=(",", ":"))
    read = _read_cache(tmp_path / SPEC_CACHE)
    assert read == SPEC_LIKE and list(read) == list(SPEC_LIKE)


def test_documents_and_postings_are_read_as_a_search_asks_for_them(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The marshal copy's documents and postings (LAZY) are read item by item: a search that reads
    one document and one word's postings unmarshals those two, and every document's source and id
    without reading a document."""
    monkeypatch.setattr(searchspec, "CHUNK", 2)
    write_spec(tmp_path, SPEC_LIKE)
    read = _read_cache(tmp_path / SPEC_CACHE)
    loaded: list[object] = []

    def loads(data: bytes) -> object:
        loaded.append(marshal.loads(data))
        return loaded[-1]

    monkeypatch.setattr(searchspec, "marshal", SimpleNamespace(loads=loads, dumps=marshal.dumps))
    docs, postings = read["docs"], read["postings"]
    assert len(docs) == 3 and "tap" in postings and "untap" not in postings and len(postings) == 4
    assert searchspec.column(docs, "source") == [0, 0, 1] and searchspec.column(docs, "id") == ["crf-22.1", "crf-22.2",
                                                                                                "c"]
    assert loaded == []
    assert docs[-1] == SPEC_LIKE["docs"][-1] and postings["tap"] == [1, 2.0] and postings.get("untap") is None
    assert loaded == [SPEC_LIKE["docs"][-1], [1, 2.0]]
    assert docs[1] is docs[1] and postings["tap"] is postings["tap"] and len(loaded) == 3  # each read once
    assert docs[0:2] == SPEC_LIKE["docs"][0:2] and dict(postings) == SPEC_LIKE["postings"]
    assert searchspec.column(SPEC_LIKE["docs"], "id") == ["crf-22.1", "crf-22.2", "c"]  # the JSON's plain list


def test_a_lazy_piece_cut_short_is_damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy whose last documents are missing is refused when read, not when a search reaches them."""
    spec = {"version": 1, "docs": SPEC_LIKE["docs"]}
    write_spec(tmp_path, spec)
    whole = (tmp_path / SPEC_CACHE).read_bytes()
    end = len(marshal.dumps(None)) + 8
    (tmp_path / SPEC_CACHE).write_bytes(whole[:-end - 2])
    with pytest.raises(EOFError):
        _read_cache(tmp_path / SPEC_CACHE)


PHRASES = ["hazard limit", "base hazard limit", "limit", "on-guard", "o'er", "Éowyn's", "k", "can't"]


@pytest.mark.parametrize("text", ["The BASE hazard LIMIT, then the hazard limit.", "limitless hazard limits",
                                  "an on-guard card, on-guarded", "o'er the o'ers", "ÉOWYN'S Éowyn's éowyn's",
                                  "k k_ Kk K. \u212a", "cannot can't CAN'T", "", "nothing here"])
def test_phrases_are_found_as_the_pattern_of_every_phrase_finds_them(text: str) -> None:
    """searchspec.Phrases compiles only the phrases a text holds (in ASCII lower case), and finds
    exactly what the pattern of every phrase finds: the longest first, whole words, ASCII case
    folded only (the Kelvin sign is no k)."""
    every = searchspec.phrase_pattern(PHRASES)
    found = searchspec.Phrases(PHRASES)
    assert [(m.span(), m.group(0)) for m in found.finditer(text)] == \
           [(m.span(), m.group(0)) for m in every.finditer(text)]

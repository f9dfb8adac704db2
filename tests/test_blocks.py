"""The shared block walker and the strict file reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.errors import ParseError
from kb.builder.parsers.blocks import read_lines, walk


def test_walk_kinds_and_spans() -> None:
    lines = ["---", "title: T", "---", "", "## Head", "- bullet one", "lazy line", "- bullet two",
             "  - nested", "", "1. step", "1A. lettered", "**Bold**", "plain", "---"]
    blocks = list(walk(lines))
    assert [(b.kind, b.span.start, b.span.end) for b in blocks] == [
        ("front_matter", 1, 3), ("heading", 5, 5), ("bullet", 6, 7), ("bullet", 8, 8), ("bullet", 9, 9),
        ("item", 11, 11), ("item", 12, 12), ("heading", 13, 13), ("paragraph", 14, 14), ("hr", 15, 15)]
    assert blocks[2].text == "bullet one\nlazy line"
    assert blocks[4].level == 2 and blocks[6].marker == "1A"
    assert blocks[7].marker == "**" and blocks[7].text == "Bold"


def test_walk_without_joining_keeps_every_line() -> None:
    blocks = list(walk(["one", "two"], join_lines=False))
    assert [b.text for b in blocks] == ["one", "two"]


def test_read_lines_accepts_bom_and_crlf(tmp_path: Path) -> None:
    f = tmp_path / "a.md"
    f.write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    assert read_lines(f) == ["one", "two"]


@pytest.mark.parametrize("data, line, words", [
    (b"", None, "empty"),
    (b"  \n\n", None, "empty"),
    (b"ok\nbad \x00 byte\n", 2, "binary"),
    (b"ok\nok\ncaf\xe9\n", 3, "Latin-1"),
    ("\ufeffhello".encode("utf-16"), 1, "UTF-16"),
])
def test_read_lines_refuses_what_is_not_utf8_text(tmp_path: Path, data: bytes, line: int | None, words: str) -> None:
    f = tmp_path / "bad.md"
    f.write_bytes(data)
    with pytest.raises(ParseError) as err:
        read_lines(f)
    assert err.value.line == line
    assert words in str(err.value) and str(f) in str(err.value)


def test_read_lines_unreadable(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="readable"):
        read_lines(tmp_path / "missing.md")

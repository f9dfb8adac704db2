"""Fuzzing the parsers with damaged versions of the real sources: success or a clean ParseError.

A quick run is part of the default suite; RULINGS_FUZZ_EXAMPLES=1000 (per file) runs a long one.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.errors import ParseError
from kb.model import ParsedDocument

from .conftest import DATA, EXAMPLES, SOURCES, parse_file

TARGETS = [
    ("crf", SOURCES / "meccg/crf-22.md"),
    ("coe_rules", SOURCES / "meccg/coe-rules.md"),
    ("arda", SOURCES / "meccg/arda-revised-2013.txt"),
    ("cards", SOURCES / "meccg/cards.json"),
    ("crf", SOURCES / "meccg/crf-turn-sequence-older.md"),
    ("crf", DATA / "crf_excerpt.md"),
    ("coe_rules", DATA / "coe_excerpt.md"),
    ("rulebook", SOURCES / "meccg/rulebook-04-the-player-turn.md"),
    ("timing", SOURCES / "meccg/timing-guide-cdavis7m.txt"),
    ("arda", DATA / "arda_excerpt.txt"),
    ("wiki", SOURCES / "lotr-tcg/lotr-tcg-wiki-site-number.txt"),
    ("cards", DATA / "cards_excerpt.json"),
]


def mutate(data: bytes, how: str, at: float, noise: bytes) -> bytes:
    """One kind of damage to a file's bytes."""
    cut = int(len(data) * at)
    text = data.decode("utf-8")
    return {
        "truncate": lambda: data[:cut],
        "noise": lambda: data[:cut] + noise + data[cut:],
        "brackets": lambda: data[:cut] + b"[[[((( {{ \xc2\xab ** ## - " + data[cut:],
        "long line": lambda: data[:cut] + b"x" * 100_000 + data[cut:],
        "bom": lambda: b"\xef\xbb\xbf" + data,
        "crlf": lambda: data.replace(b"\n", b"\r\n"),
        "latin-1": lambda: text.encode("latin-1", errors="replace"),
        "utf-16": lambda: text.encode("utf-16"),
        "empty": lambda: b"",
        "lines shuffled": lambda: b"\n".join(sorted(data.split(b"\n"), key=lambda line: hash(line) % 7)),
        "drop lines": lambda: b"\n".join(line for i, line in enumerate(data.split(b"\n")) if i % 3),
    }[how]()


@pytest.mark.parametrize("parser, path", TARGETS, ids=[f"{p}:{f.name}" for p, f in TARGETS])
def test_damaged_sources_parse_or_fail_cleanly(tmp_path_factory: pytest.TempPathFactory, parser: str,
                                               path: Path) -> None:
    original = path.read_bytes()
    folder = tmp_path_factory.mktemp("fuzz")
    ran: list[str] = []
    parsed: set[bytes] = set()  # the damaged files already parsed (a damage that ignores `at` repeats)

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(how=st.sampled_from(["truncate", "noise", "brackets", "long line", "bom", "crlf", "latin-1",
                                "utf-16", "empty", "lines shuffled", "drop lines"]),
           at=st.floats(0, 1), noise=st.binary(min_size=1, max_size=64))
    def check(how: str, at: float, noise: bytes) -> None:
        ran.append(how)
        damaged = mutate(original, how, at, noise)
        if (digest := hashlib.sha256(damaged).digest()) in parsed:
            return  # parsed before, and parsing is deterministic: the same outcome
        parsed.add(digest)
        target = folder / path.name
        target.write_bytes(damaged)
        try:
            doc = parse_file(parser, target)
        except ParseError as exc:
            assert str(target) in str(exc)
            return
        assert isinstance(doc, ParsedDocument)
        stored = {n for r in doc.rulings for n in r.span.lines()} | {n for s in doc.sections for n in s.span.lines()}
        skipped = {n for k in doc.skipped for n in k.span.lines()}
        assert set(range(1, doc.line_count + 1)) <= stored | skipped

    check()
    print(f"\n{parser}:{path.name}: {len(ran)} damaged files ({len(parsed)} distinct), {len(set(ran))} kinds of damage")
    assert len(ran) >= EXAMPLES  # hypothesis really ran what was asked


# -- long lines: every parser is linear in a line's length ------------------------------------------

SEGMENTS = ["[CoE ", "[effective ", "<br", "Aa (", "A ", "PLA ", " ", "See ", "- ", "1.1.", "annotation 1, ",
            " and ", "Gandalf ", "\u00e2\u20ac", "x", "# ", "**", "«", ":", "Ab’"]
"""What a long line is made of: runs of text each of which made some pattern of the parsers
backtrack quadratically (or worse) before they were rewritten."""


def long_line(size: int, start: str = "") -> str:
    """A line of `size` characters, no newline: `start`, then a run of each segment in turn."""
    each = max(1, (size - len(start)) // len(SEGMENTS))
    return (start + "".join((s * (each // len(s) + 1))[:each] for s in SEGMENTS))[:size]


def with_long_lines(parser: str, original: str, size: int) -> str:
    """The document with three long lines in its middle: a heading, a list item and a paragraph
    (for the card database, one card's text)."""
    if parser == "cards":
        return original.replace('"en": "<p>', '"en": "<p>' + long_line(size), 1)
    lines = original.split("\n")
    middle = len(lines) // 2
    long = ["", long_line(size, "# a"), "", long_line(size, "- @" + "-" * (size // 20)), "", long_line(size), ""]
    return "\n".join(lines[:middle] + long + lines[middle:])


LONG_TARGETS = [("crf", DATA / "crf_excerpt.md"), ("coe_rules", DATA / "coe_excerpt.md"),
                ("rulebook", DATA / "rulebook_excerpt.md"), ("timing", DATA / "timing_excerpt.txt"),
                ("arda", DATA / "arda_excerpt.txt"), ("wiki", DATA / "wiki_excerpt.txt"),
                ("cards", DATA / "cards_excerpt.json")]


@pytest.mark.parametrize("parser, path", LONG_TARGETS, ids=[p for p, _ in LONG_TARGETS])
def test_a_one_megabyte_line_parses_in_linear_time(tmp_path: Path, parser: str, path: Path) -> None:
    """Three 1 MB lines in each parser's document parse (or fail cleanly) in seconds. A watchdog
    stops the test after 120 s: the patterns replaced took hours on such lines."""
    import signal

    target = tmp_path / path.name
    target.write_text(with_long_lines(parser, path.read_text("utf-8"), 1_000_000), "utf-8")

    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("parsing a 1 MB line took over 120 s: some pattern backtracks")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(120)
    try:
        doc = parse_file(parser, target)
    except ParseError as exc:
        assert str(target) in str(exc) and len(str(exc)) < 500
        return
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    stored = {n for r in doc.rulings for n in r.span.lines()} | {n for s in doc.sections for n in s.span.lines()}
    skipped = {n for k in doc.skipped for n in k.span.lines()}
    assert set(range(1, doc.line_count + 1)) <= stored | skipped
    assert max(len(r.text) for r in doc.rulings) >= 1_000_000 or parser == "arda"

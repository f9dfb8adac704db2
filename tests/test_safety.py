"""Safety: rulings touches only folders it made, reads only inside the sources folder, prints no
control characters from a source, writes valid JSON, and notes the sources' own numbering slips."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli
from kb.builder.numbering import Numbered, check_numbering
from kb.owned import mark
from kb.terminal import printable, shown, style, valid_unicode

from .conftest import DATA, ROOT, parse_file, write_tiny_sources


def run(*args: str, color: bool = False):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, color=color)


def dead_pid() -> int:
    """The id of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture()
def corpus(tiny: tuple[Path, Path, Path], tmp_path: Path) -> tuple[Path, Path, Path]:
    """A writable copy of the tiny corpus's sources, knowledge base and site."""
    sources, kb_dir, site = tmp_path / "rulings", tmp_path / "kb", tmp_path / "site"
    shutil.copytree(tiny[0], sources)
    shutil.copytree(tiny[1], kb_dir, symlinks=True)
    shutil.copytree(tiny[2], site)
    return sources, kb_dir, site


# -- 1. ownership ------------------------------------------------------------------------------------

def test_build_deletes_nothing_it_did_not_make(corpus: tuple[Path, Path, Path]) -> None:
    """build-aux/ and build-2020/ look like builds, .tmp-PID-1 like a killed build's folder: none
    carries the marker, so two builds leave them as they are."""
    sources, kb_dir, _ = corpus
    theirs = [kb_dir / "build-aux", kb_dir / "build-2020", kb_dir / f".tmp-{dead_pid()}-1"]
    for folder in theirs:
        folder.mkdir()
        (folder / "notes.txt").write_text("mine", "utf-8")
    for _ in range(3):
        assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
    assert all((folder / "notes.txt").read_text("utf-8") == "mine" for folder in theirs)
    ours = [p for p in kb_dir.iterdir() if not p.is_symlink() and (p / ".rulings-build").is_file()]
    assert len(ours) == 2 and (kb_dir / "current").resolve() in ours  # the current build and the one before


def test_build_refuses_the_current_directory_and_empty_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sources = write_tiny_sources(tmp_path / "rulings")
    monkeypatch.chdir(tmp_path)
    for args, code in ((["--kb", "", "build"], 2), (["--kb", ".", "build"], 1)):  # empty: a usage error
        result = run(*args, "--sources", str(sources))
        assert result.exit_code == code and result.stderr.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rulings"]  # nothing made, nothing removed
    monkeypatch.setenv("RULINGS_KB", "")
    assert "RULINGS_KB is set but empty" in run("build", "--sources", str(sources)).stderr


def test_a_new_or_empty_folder_is_made_ours(tmp_path: Path) -> None:
    sources = write_tiny_sources(tmp_path / "rulings")
    (tmp_path / "empty").mkdir()
    for kb_dir in (tmp_path / "new" / "kb", tmp_path / "empty"):
        assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
        assert (kb_dir / ".rulings-kb").is_file() and (kb_dir / "current" / "rulings.db").is_file()


def test_what_a_killed_build_left_is_recognised_by_its_marker(corpus: tuple[Path, Path, Path]) -> None:
    sources, kb_dir, _ = corpus
    pid = dead_pid()
    left = kb_dir / f".tmp-{pid}-7"  # a killed build's folder: marked as being written by a process now gone
    left.mkdir()
    mark(left, "build", pid)
    alive = kb_dir / ".tmp-busy"  # a build still running (this process) is left alone
    alive.mkdir()
    mark(alive, "build", os.getpid())
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
    assert not left.exists() and alive.is_dir()


KILLED_IN_CLEAN_UP = """
import os, signal, sys
when, swapped, replace, unlink = sys.argv.pop(1), [], os.replace, os.unlink
def replacing(src, dst, *args, **kwargs):
    replace(src, dst, *args, **kwargs)
    swapped.append(os.path.basename(dst) == "current")
def unlinking(path, *args, **kwargs):
    unlink(path, *args, **kwargs)
    if os.path.basename(path) == when or when == "first" and any(swapped):
        os.kill(os.getpid(), signal.SIGKILL)
os.replace, os.unlink = replacing, unlinking
import cli
cli.main()
"""
"""A rulings command SIGKILLed in its clean-up: right after it deletes the first file named
argv[1] (a marker: a build's old build, or the old site, being removed), or with "first" at the
first file a build deletes once it has swapped `current` in."""


@pytest.mark.parametrize("when", ["first", ".rulings-build"])
def test_a_build_killed_in_its_clean_up_leaves_nothing_the_next_does_not_remove(corpus: tuple[Path, Path, Path],
                                                                                 when: str) -> None:
    """A build killed while it removes an old build, after the swap (on main the old build's marker
    could go first, and the half-deleted folder, no longer marked, stayed for good): the next build
    removes what is left, and the folder holds only the current build and the one before it."""
    import signal

    sources, kb_dir, _ = corpus
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0  # two builds: one to remove
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_CLEAN_UP, when, "--kb", str(kb_dir), "build", "--sources",
                             str(sources)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
    assert killed.returncode == -signal.SIGKILL  # it died in the clean-up, with the new build current
    assert (kb_dir / "current" / "rulings.db").is_file() and len(list(kb_dir.iterdir())) == 5  # one half-removed
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
    builds = [p for p in kb_dir.iterdir() if not p.is_symlink() and (p / ".rulings-build").is_file()]
    assert sorted(p.name for p in kb_dir.iterdir() if p not in builds) == [".rulings-kb", "current"]
    assert len(builds) == 2 and (kb_dir / "current").resolve() in builds


def test_a_site_run_killed_in_its_clean_up_leaves_nothing_the_next_does_not_remove(
        corpus: tuple[Path, Path, Path]) -> None:
    """A site run killed while it removes the site it replaced, right after that site's marker
    (on main the half-deleted site, no longer marked, stayed beside the new one for good)."""
    import signal

    _, kb_dir, site = corpus
    before = {p.name for p in site.parent.iterdir()}
    killed = subprocess.run([sys.executable, "-c", KILLED_IN_CLEAN_UP, ".rulings-site", "--kb", str(kb_dir), "site",
                             "--out", str(site)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            timeout=300)
    assert killed.returncode == -signal.SIGKILL and (site / "index.html").is_file()
    assert run("--kb", str(kb_dir), "site", "--out", str(site)).exit_code == 0
    assert {p.name for p in site.parent.iterdir()} == before


def test_site_leftovers_of_a_killed_run_are_cleaned_by_marker(corpus: tuple[Path, Path, Path]) -> None:
    _, kb_dir, site = corpus
    pid = dead_pid()
    leftovers = [site.parent / f".site.tmp-{pid}", site.parent / f".site.old-{pid}"]
    for folder in leftovers:
        shutil.copytree(site, folder)
        mark(folder, "site", pid)
    unmarked = site.parent / f".site.tmp-{pid}-mine"
    unmarked.mkdir()
    result = run("--kb", str(kb_dir), "site", "--out", str(site))
    assert result.exit_code == 0, result.output
    assert not any(p.exists() for p in leftovers) and unmarked.is_dir()
    assert (site / ".rulings-site").read_text("utf-8").count("process") == 0  # complete: no process named


def test_a_killed_site_run_leaves_nothing_the_next_run_does_not_remove(corpus: tuple[Path, Path, Path]) -> None:
    """A site run SIGKILLed at each point of its swap (kb.owned.KILL_POINTS): the next run cleans up."""
    import signal

    from kb.owned import KILL_POINTS

    _, kb_dir, site = corpus
    before = {p.name for p in site.parent.iterdir()}
    command = [sys.executable, "-c", "import cli; cli.cli()", "--kb", str(kb_dir), "site", "--out", str(site)]
    for point in KILL_POINTS["site"]:
        proc = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env={**os.environ, "RULINGS_KILL_AT": point}, timeout=300)
        assert proc.returncode == -signal.SIGKILL, point
        assert {p.name for p in site.parent.iterdir()} != before, point  # it left something behind
        assert run("--kb", str(kb_dir), "site", "--out", str(site)).exit_code == 0, point
        assert {p.name for p in site.parent.iterdir()} == before, point


# -- 2. confinement ------------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["parent", "absolute", "symlink"])
def test_nothing_outside_the_sources_folder_is_read(corpus: tuple[Path, Path, Path], tmp_path: Path, how: str) -> None:
    sources, kb_dir, _ = corpus
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\n## Turn Sequence Rulings\n\n- xyzzysecret is the password\n", "utf-8")
    manifest = sources / "sources.toml"
    if how == "symlink":
        (sources / "meccg" / "crf.md").unlink()
        (sources / "meccg" / "crf.md").symlink_to(secret)
    else:
        path = "../secret.md" if how == "parent" else str(secret)
        manifest.write_text(manifest.read_text("utf-8").replace('"meccg/crf.md"', json.dumps(path)), "utf-8")
    result = run("--kb", str(kb_dir), "build", "--sources", str(sources))
    assert result.exit_code == 1 and "'crf-x'" in result.stderr and "xyzzysecret" not in result.output
    assert "xyzzysecret" not in run("--kb", str(kb_dir), "export").output


def test_a_link_inside_the_sources_folder_is_followed(corpus: tuple[Path, Path, Path]) -> None:
    sources, kb_dir, _ = corpus
    (sources / "meccg" / "crf.md").rename(sources / "crf-real.md")
    (sources / "meccg" / "crf.md").symlink_to(sources / "crf-real.md")
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0


def test_the_arda_parser_reads_no_link_out_of_its_folder(tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("Inuence xyzzy\n", "utf-8")
    folder = tmp_path / "meccg"
    folder.mkdir()
    shutil.copy(DATA / "arda_excerpt.txt", folder / "arda.txt")
    (folder / "other.md").symlink_to(tmp_path / "outside.md")
    os.mkfifo(folder / "pipe.md")
    from kb.builder.parsers.arda import corpus_vocabulary

    vocab = corpus_vocabulary(folder / "arda.txt")  # neither read nor waited on
    assert "xyzzy" not in vocab.counts


def test_the_size_cap_is_an_option(corpus: tuple[Path, Path, Path]) -> None:
    sources, kb_dir, _ = corpus
    small = run("--kb", str(kb_dir), "build", "--sources", str(sources), "--max-source-mb", "0.0005")
    assert small.exit_code == 1 and "--max-source-mb 1" in small.stderr
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources), "--max-source-mb", "1").exit_code == 0


def test_a_source_growing_past_the_cap_while_read_is_refused(tmp_path: Path) -> None:
    from kb.errors import ParseError
    from kb.inputs import read_bytes

    big = tmp_path / "big.md"
    big.write_bytes(b"x" * 5000)
    assert read_bytes(big, 5000) == b"x" * 5000
    with pytest.raises(ParseError, match="big.md: expected a source file, found 4.9 KB, over the 3.9 KB limit"):
        read_bytes(big, 4000)


# -- 4. terminal safety ---------------------------------------------------------------------------------

HOSTILE = "Tap \x1b]0;pwned\x07 the \x1b[2J\x1b[31mSTRIKE\x9b1m roll\x7f?"


def test_printable_shows_control_characters() -> None:
    assert printable(HOSTILE + "\x00") == "Tap \\x1b]0;pwned\\x07 the \\x1b[2J\\x1b[31mSTRIKE\\x9b1m roll\\x7f?\\x00"
    assert printable("tab\there\nnext") == "tab\there\nnext"
    assert printable("lone \udcff") == valid_unicode("lone \udcff") == "lone \ufffd"


@pytest.fixture(scope="session")  # once per run, whatever order the tests run in
def hostile_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny corpus with control characters in a ruling, built once (the tests only read it)."""
    tmp_path = tmp_path_factory.mktemp("hostile")
    sources = write_tiny_sources(tmp_path / "rulings")
    crf = sources / "meccg" / "crf.md"
    crf.write_text(crf.read_text("utf-8").replace("Annotation 25a: A company’s",
                                                  f"Annotation 25a: {HOSTILE} A company’s"),
                   "utf-8")
    kb_dir = tmp_path / "kb"
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
    return kb_dir


@pytest.mark.parametrize("args",
                         [["search", "strike roll"], ["search", "--explain", "strike roll"], ["annotation", "25a"],
                                  ["search", "--raw", "roll"], ["show", "--json", "ID"]])
def test_text_for_people_has_no_control_characters(hostile_kb: Path, args: list[str]) -> None:
    found = json.loads(run("--kb", str(hostile_kb), "search", "--json", "annotation 25a").output)[0]
    args = [found["id"] if a == "ID" else a for a in args]
    for color in (False, True):
        out = run("--kb", str(hostile_kb), *args, color=color).output
        if "--json" in args:
            assert HOSTILE in json.loads(out)["text"]  # JSON keeps the text exactly, escaped
            continue
        assert "\\x1b]0;pwned\\x07" in out and "\\x9b1m" in out
        ours = re.sub(r"\x1b\[[0-9;]*m", "", out)  # the styles rulings adds itself (with colour)
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", ours), repr(out)


def test_errors_show_control_characters_visibly(tmp_path: Path) -> None:
    result = run("--kb", str(tmp_path / "none\x1b[2J"), "stats")
    assert result.exit_code == 1 and "none\\x1b[2J" in result.stderr and "\x1b" not in result.stderr


def test_json_is_valid_utf8_whatever_the_query(hostile_kb: Path) -> None:
    """An undecodable byte on the command line arrives as a lone surrogate; --json still writes UTF-8."""
    for args in (["search", "--explain", "--json"], ["search", "--json"], ["search", "--explain"]):
        done = subprocess.run([sys.executable, "-c", "import cli; cli.main()", "--kb", str(hostile_kb), *args,
                               b"strike \xff\xfe roll"], capture_output=True, cwd=ROOT,
                              env={**os.environ, "LC_ALL": "C.UTF-8"})
        assert done.returncode == 0, done.stderr
        text = done.stdout.decode("utf-8")  # strict: raises on invalid UTF-8
        if "--json" in args:
            json.loads(text)
        assert "\ufffd" in text or "--explain" not in args


def test_all_output_for_people_goes_through_say() -> None:
    """cli.py writes with click.echo only in say(), echo_page() (a page kb.terminal rendered, its lines
    made safe) and for JSON, and styles nothing itself (kb.terminal.style does)."""
    source = (ROOT / "cli.py").read_text("utf-8")
    assert source.count("click.echo(") == 5  # say, echo_page, emit_json, export, fail's JSON
    assert "click.style(" not in source and "style(" not in source.replace("click.style(", "")
    assert "print(" not in source


@pytest.mark.parametrize("how", [{"bold": True}, {"dim": True}, {"fg": "cyan"}, {"fg": "red"}, {"fg": "green"},
                                 {"bold": True, "fg": "green"}, {"bold": True, "italic": True, "fg": "yellow"},
                                 {"italic": True}, {"bold": None, "italic": True}, {"bold": False}])
def test_style_writes_what_click_style_writes(how: dict[str, Any]) -> None:
    """kb.terminal.style (kb imports no click) writes the escape codes click.style writes, and data's own
    escape codes are shown, not obeyed."""
    import click

    assert shown(style("x \x1b[2J y", **how)) == click.style("x \\x1b[2J y", **how)


# -- 6. the sources' own numbering ------------------------------------------------------------------------

def numbered(*numbers: str) -> list[Numbered]:
    return [Numbered(n, line) for line, n in enumerate(numbers, start=1)]


def test_rule_numbers_in_sequence_give_no_note() -> None:
    assert check_numbering(numbered(
        "1.1", "1.2", "1.3", "1.3.1", "1.3.W1", "1.3.W2", "1.3.F1", "1.3.B1", "1.4", "2.I.1", "2.II.1", "2.II.2",
        "2.II.2.R1", "2.II.2.i", "2.II.2.ii", "2.II.2.ii.1", "2.III.1", "2.IV.i", "2.IV.ii", "2.IV.1", "3.i", "3.ii",
        "3.ii.B1", "3.1", "3.I.1", "g.hav.1", "g.hav.2")) == []


def test_rule_numbers_out_of_place_are_noted_once() -> None:
    notes = check_numbering(numbered("1.1", "1.2", "1.2.F1", "1.3.F2", "1.2.B1", "2.1", "2.2", "2.4", "2.4",
                                     "g.hav.1", "g.hav.1"))
    assert [(n.line, n.message) for n in notes] == [
        (4, "rule 1.3.F2 is numbered under the wrong parent: it follows 1.2.F1, where 1.2.F2 would come"),
        (8, "rule 2.4 is out of sequence: it follows 2.2"),
        (9, "rule number 2.4 is given twice (first on line 8)"),
        (11, "rule number g.hav.1 is given twice (first on line 10)")]


def test_notes_are_reported_by_check_and_shown_on_the_site_without_failing_strict(
        tiny: tuple[Path, Path, Path]) -> None:
    _, kb_dir, site = tiny
    report = json.loads(run("--kb", str(kb_dir), "check", "--json").output)
    notes = [p for p in report["problems"] if p["severity"] == "note"]
    assert {"path": "meccg/coe.md", "line": 15, "source": "coe-x", "severity": "note",
            "message": "rule 2.IV.3.5.1 is numbered under the wrong parent: it follows 2.II.3.5, where 2.II.3.5.1 "
                       "would come"} in notes
    assert report["notes"] == len(notes) and report["warnings"] == 2
    # no card Alatar in cards.json
    assert {"path": "meccg/crf.md", "line": 63, "source": "crf-x", "severity": "warning",
            "message": "card heading 'Alatar' matches no card"} in report["problems"]
    text = run("--kb", str(kb_dir), "check").output
    assert "note: meccg/coe.md:15: rule 2.IV.3.5.1" in text
    page = (site / "doc" / "coe-x.html").read_text("utf-8")
    rule = page[page.index("2.IV.3.5.1</span>"):]
    rule = rule[:rule.index("</article>")]
    assert "Note on the source: rule 2.IV.3.5.1 is numbered under the wrong parent" in rule


def test_check_strict_fails_on_warnings_not_notes(tmp_path: Path) -> None:
    sources = write_tiny_sources(tmp_path / "rulings")
    crf = sources / "meccg" / "crf.md"  # the warnings of the tiny corpus: a See also that names nothing, a card
    lines = crf.read_text("utf-8").replace("### Alatar", "### Adûnaphel").split("\n")  # heading naming no card
    crf.write_text("\n".join(line for line in lines if "Company" not in line), "utf-8")
    kb_dir = tmp_path / "kb"
    assert run("--kb", str(kb_dir), "build", "--sources", str(sources)).exit_code == 0
    report = json.loads(run("--kb", str(kb_dir), "check", "--json").output)
    assert report["warnings"] == 0 and report["notes"] >= 1
    assert run("--kb", str(kb_dir), "check", "--strict").exit_code == 0


def test_the_real_coe_rules_get_their_two_notes() -> None:
    from .conftest import SOURCES

    doc = parse_file("coe_rules", SOURCES / "meccg" / "coe-rules.md")
    assert [(p.line, p.severity) for p in doc.problems] == [(119, "note"), (526, "note")]

"""The CLI wiring: exit codes, messages, and what a failed build leaves behind."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli import cli

from .conftest import ROOT


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def test_version_and_help() -> None:
    assert run("--version").output.startswith("rulings, version")
    for command in cli.commands:
        result = run(command, "--help")
        assert result.exit_code == 0 and "Usage:" in result.output


def test_usage_error_exits_2() -> None:
    assert run("show").exit_code == 2
    assert run("no-such-command").exit_code == 2


def test_read_commands(real_kb: Path, real_export: list[str]) -> None:
    stats = json.loads(run("--kb", str(real_kb), "stats", "--json").output)
    assert stats["kb"] == str(real_kb) and stats["built_at"]
    assert {s["id"] for s in stats["sources"]} >= {"crf-22", "coe-rules", "cards", "lotr-wiki"}
    crf = next(s for s in stats["sources"] if s["id"] == "crf-22")
    assert crf["rulings_by_kind"]["annotation"] == 30 and crf["current"] is True
    assert run("--kb", str(real_kb), "stats").output.startswith(f"Knowledge base: {real_kb} (built ")
    shown = json.loads(run("--kb", str(real_kb), "show", "cards.TW-1", "--json").output)
    assert shown["kind"] == "card" and shown["card"]["names"]["en"] == shown["title"]
    text = run("--kb", str(real_kb), "show", "cards.TW-1").output
    assert "Council of Elrond card database" in text and "lines" in text
    missing = run("--kb", str(real_kb), "show", "crf-22.nope")
    assert missing.exit_code == 1 and "no ruling with id 'crf-22.nope'" in missing.output
    bare = run("--kb", str(real_kb), "show", "454d048a6d")  # an id without its source
    assert bare.exit_code == 1 and "Did you mean crf-22.454d048a6d" in bare.output
    check = run("--kb", str(real_kb), "check", "--strict")
    assert check.exit_code == 0 and "unaccounted" in check.output
    assert len(real_export) > 3700 and json.loads(real_export[0])["source"] == "crf-22"  # `rulings export`


def test_env_points_to_the_kb(real_kb: Path) -> None:
    result = run("stats", env={"RULINGS_KB": str(real_kb)})
    assert result.exit_code == 0 and "Collected Rulings File" in result.output


def test_no_color(real_kb: Path) -> None:
    result = CliRunner().invoke(cli, ["--kb", str(real_kb), "stats"], env={"NO_COLOR": "1"}, color=True)
    assert "\x1b[" not in result.output
    coloured = CliRunner().invoke(cli, ["--kb", str(real_kb), "stats"], env={"NO_COLOR": ""}, color=True)
    assert "\x1b[" in coloured.output


def test_missing_kb(tmp_path: Path) -> None:
    result = run("--kb", str(tmp_path / "none"), "stats")
    assert result.exit_code == 1 and "run `rulings build` first" in result.output


@pytest.fixture()
def built(tiny: tuple[Path, Path, Path]) -> tuple[Path, Path]:
    """The tiny corpus's sources and the knowledge base built from them once: copy them to damage them."""
    return tiny[0], tiny[1]


def _build(sources: Path, kb_dir: Path):
    return run("--kb", str(kb_dir), "build", "--sources", str(sources))


# (file, the parser of the source added to the tiny corpus, its bytes (None: absent), the words of the error):
# one refusal per parser and two of the manifest
BAD_INPUTS = [
    ("meccg/timing.txt", "timing", b"", "timing.txt: expected a non-empty document"),
    ("meccg/crf.md", "crf", b"# t\n\n## Turn\n\x00\x01\x02", "crf.md:4: expected text"),
    ("meccg/coe.md", "coe_rules", "ok\nr\u00e8gle\n".encode("latin-1"), "coe.md:2: expected UTF-8"),
    ("meccg/cards.json", "cards", b'{"TW": {"cards": [}}', "cards.json:1: expected valid JSON"),
    ("meccg/arda.txt", "arda", b"no chapters here\n", "arda.txt: expected chapter"),
    ("meccg/rulebook.md", "rulebook", None, "does not exist"),
    ("sources.toml", None, b"[[source]]\nid = 1\n", "missing or not text"),
    ("sources.toml", None, b"[[source\n", "not valid TOML"),
]


@pytest.mark.parametrize("path, parser, data, words", BAD_INPUTS, ids=[f"{p}:{w}" for p, _, _, w in BAD_INPUTS])
def test_bad_input_stops_the_build_and_keeps_the_old_kb(tmp_path: Path, built: tuple[Path, Path], path: str,
                                                       parser: str | None, data: bytes | None, words: str) -> None:
    sources_copy, kb_dir = tmp_path / "rulings", tmp_path / "kb"
    shutil.copytree(built[0], sources_copy)
    shutil.copytree(built[1], kb_dir, symlinks=True)
    before = run("--kb", str(kb_dir), "stats", "--json").output
    manifest = sources_copy / "sources.toml"
    if parser is not None and not (sources_copy / path).exists():  # a source of this parser joins the corpus
        manifest.write_text(manifest.read_text("utf-8") + f'\n[[source]]\nid = "bad"\ntitle = "Bad"\ngame = "meccg"\n'
                            f'kind = "test"\nedition = "1"\ndate = ""\norigin = "test"\npath = "{path}"\n'
                            f'parser = "{parser}"\n', "utf-8")
    if data is not None:
        (sources_copy / path).write_bytes(data)
    result = _build(sources_copy, kb_dir)
    assert result.exit_code == 1
    assert words in result.output and "Traceback" not in result.output
    assert run("--kb", str(kb_dir), "stats", "--json").output == before
    assert not [p for p in kb_dir.iterdir() if p.name.startswith(".tmp-")]


def test_broken_kb_says_what_to_run(tmp_path: Path, built: tuple[Path, Path]) -> None:
    kb_dir = tmp_path / "kb"
    shutil.copytree(built[1], kb_dir, symlinks=True)
    db = (kb_dir / "current" / "rulings.db").resolve()
    conn = sqlite3.connect(db)
    conn.execute("update meta set value = '0' where key = 'schema_version'")
    conn.commit()
    conn.close()
    old = run("--kb", str(kb_dir), "stats")
    assert old.exit_code == 1 and "schema version 0" in old.output and "rulings build" in old.output
    db.write_bytes(b"SQLite format 3\x00" + os.urandom(2000))
    corrupt = run("--kb", str(kb_dir), "stats")
    assert corrupt.exit_code == 1 and "rulings build" in corrupt.output and "Traceback" not in corrupt.output
    db.write_bytes(db.read_bytes()[:100])
    truncated = run("--kb", str(kb_dir), "show", "x")
    assert truncated.exit_code == 1 and "rulings build" in truncated.output


def test_rebuilds_keep_the_current_and_the_previous_build(tmp_path: Path, built: tuple[Path, Path]) -> None:
    kb_dir = tmp_path / "kb"
    shutil.copytree(built[1], kb_dir, symlinks=True)
    first = (kb_dir / "current").resolve().name
    for _ in range(2):
        assert _build(built[0], kb_dir).exit_code == 0
    names = sorted(p.name for p in kb_dir.iterdir())
    assert len(names) == 4 and names[0] == ".rulings-kb" and names[-1] == "current" and first not in names


def test_killed_builds_lose_nothing(tmp_path: Path, built: tuple[Path, Path]) -> None:
    """A build SIGKILLed at each point of its swap (kb.owned.KILL_POINTS): the previous knowledge
    base answers after each, and the next build leaves no temporary files behind."""
    import os
    import signal
    import subprocess
    import sys

    from kb.owned import KILL_POINTS

    kb_dir = tmp_path / "kb"
    shutil.copytree(built[1], kb_dir, symlinks=True)
    before = run("--kb", str(kb_dir), "stats", "--json").output
    command = [sys.executable, "-c", "import cli; cli.cli()", "--kb", str(kb_dir), "build", "--sources", str(built[0])]
    for point in KILL_POINTS["kb"]:
        proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                              env={**os.environ, "RULINGS_KILL_AT": point}, timeout=300)
        assert proc.returncode == -signal.SIGKILL, point  # it died where it was told to
        if point in ("started", "written"):
            assert any(p.name.startswith(".tmp-") for p in kb_dir.iterdir()), point  # killed mid-write
        else:  # killed after the new build was complete, before it became the current one
            assert any(p.name.startswith("build-") and p != (kb_dir / "current").resolve()
                       for p in kb_dir.iterdir()), point
        now = run("--kb", str(kb_dir), "stats", "--json")
        assert now.exit_code == 0 and json.loads(now.output) == json.loads(before), point
        search = run("--kb", str(kb_dir), "search", "--json", "annotation 25a")
        assert search.exit_code == 0 and json.loads(search.output)[0]["number"] == "25a", point
    assert _build(built[0], kb_dir).exit_code == 0
    assert not [p for p in kb_dir.iterdir() if p.name.startswith(".tmp-")]


def test_searches_during_a_build_get_complete_answers(tmp_path: Path, built: tuple[Path, Path]) -> None:
    """While a build writes and swaps in a new knowledge base, every search gives the full answer (ids
    depend on the text only, so the new build answers exactly as the old one)."""
    import subprocess
    import sys

    kb_dir = tmp_path / "kb"
    shutil.copytree(built[1], kb_dir, symlinks=True)
    first = (kb_dir / "current").resolve().name
    question = ["--kb", str(kb_dir), "search", "--json", "--limit", "3", "company movement"]
    expected = json.loads(run(*question).output)
    assert len(expected) == 3 and expected[0]["number"] == "25a"
    proc = subprocess.Popen([sys.executable, "-c", "import cli; cli.cli()", "--kb", str(kb_dir), "build",
                             "--sources", str(built[0])], stdout=subprocess.DEVNULL, cwd=ROOT)
    answers = 0
    while proc.poll() is None or answers < 3:
        result = run(*question)
        assert result.exit_code == 0, result.output
        assert json.loads(result.output) == expected
        answers += 1
    assert proc.returncode == 0 and (kb_dir / "current").resolve().name != first


def test_a_read_command_runs_with_the_collector_paused_and_restores_it(real_kb: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A lookup or search answers and ends: it runs with the cyclic garbage collector paused (its many
    objects make no cycles), and leaves the collector as it found it; a long command (check) does not."""
    import gc

    import cli as cli_module

    seen: list[bool] = []
    original = cli_module.output

    def watched(*args: Any, **kwargs: Any) -> None:
        seen.append(gc.isenabled())
        original(*args, **kwargs)

    monkeypatch.setattr(cli_module, "output", watched)
    was = gc.isenabled()
    gc.enable()
    try:
        for command in (["annotation", "18"], ["search", "strike", "cancelled"], ["card", "Gandalf"], ["check"]):
            result = CliRunner().invoke(cli, ["--kb", str(real_kb), *command])
            assert result.exit_code == 0, result.output
            assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False, False, True]

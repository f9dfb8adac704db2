"""The docs: README.md is the judge's page, its two commands the ones CI runs and its tour the commands'
real output; docs/ holds the reference, linked from it, documenting every command and option; every
link of README.md and docs/ resolves, to a file and to a heading."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt
from markdown_it.token import Token

from cli import cli

from .conftest import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_README_LINES = 250
"""The judge's page stays short: the reference is in docs/."""
TEST_COMMAND = ".venv/bin/python -m pytest -n auto"


def markdown_files() -> list[Path]:
    """The Markdown the project writes: README.md, docs/, and the bundled sources' README."""
    return [README, *sorted(DOCS.glob("*.md")), ROOT / "rulings" / "README.md"]


def tokens(path: Path) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(path.read_text("utf-8"))


def links(path: Path) -> list[str]:
    """Every link's target in a Markdown file (code spans and blocks are no links)."""
    found = []
    for block in tokens(path):
        for token in block.children or ():
            if token.type == "link_open":
                found.append(str(token.attrs["href"]))
    return found


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings: the heading's text lower-cased, its
    punctuation dropped, its spaces hyphens; a repeated one numbered (-1, -2, ...)."""
    blocks, seen, found = tokens(path), dict[str, int](), set[str]()
    for heading, inline in zip(blocks, blocks[1:]):
        if heading.type == "heading_open":
            text = "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))
            slug = re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def linked_from_readme() -> list[Path]:
    """README.md and the Markdown files it links to, as a reader finds them."""
    found = [README]
    for href in links(README):
        target = (README.parent / href.split("#")[0]).resolve()
        if href.split("#")[0].endswith(".md") and target not in found:
            found.append(target)
    return found


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_link_to_a_file_or_an_anchor_resolves(path: Path) -> None:
    mine = anchors(path)
    broken = []
    for href in links(path):
        if re.match(r"^[a-z]+:", href):  # https:, mailto: ...: not ours to check
            continue
        file, _, anchor = href.partition("#")
        target = (path.parent / file).resolve() if file else path
        if not target.exists() or not target.resolve().is_relative_to(ROOT):
            broken.append(href)
        elif anchor and anchor not in (mine if target == path else anchors(target)):
            broken.append(href)
    assert not broken, broken


def test_the_anchors_are_githubs() -> None:
    """The slugs the link check computes are GitHub's (a heading with parentheses, code and a repeat)."""
    page = DOCS / "read-api.md"
    assert "the-read-api-datasette" in anchors(page)
    assert {"where-things-are", "one-json-shape", "the-commands"} <= anchors(DOCS / "commands.md")


def test_every_doc_is_linked_from_the_readme_and_says_what_it_is() -> None:
    docs = sorted(DOCS.glob("*.md"))
    assert len(docs) >= 8
    assert set(docs) <= {p.resolve() for p in linked_from_readme()}
    for doc in docs:
        title, blank, first, *_ = doc.read_text("utf-8").split("\n")
        assert title.startswith("# ") and blank == "" and first and not first.startswith(("#", "-", "|", "`")), doc.name


def command_rows() -> dict[str, str]:
    """docs/commands.md's table: each `rulings COMMAND` -> its row."""
    text = (DOCS / "commands.md").read_text("utf-8")
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `rulings ([\w-]+)\b[^\n]*", text, re.M)}


def test_the_command_reference_is_linked_from_the_readme_and_has_no_row_too_many() -> None:
    """docs/commands.md, linked from the README, has a row for no command the CLI lacks, and says the
    group's own options (sqlite-utils' and datasette's test_docs)."""
    reference = DOCS / "commands.md"
    assert reference.resolve() in {p.resolve() for p in linked_from_readme()}
    assert set(command_rows()) <= set(cli.commands)
    text = reference.read_text("utf-8")
    for option in (o for p in cli.params for o in p.opts if o.startswith("--")):
        assert f"rulings {option}" in text, option


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_every_command_and_option_is_in_the_reference(name: str) -> None:
    """Each command has help and a row in docs/commands.md listing every option of it: one test per
    command, so that one gap does not hide the rest."""
    command = cli.commands[name]
    assert command.help, name
    rows = command_rows()
    assert name in rows, f"docs/commands.md has no row for `rulings {name}`"
    options = {o for p in command.params if isinstance(p, click.Option) for o in p.opts if o.startswith("--")}
    assert sorted(o for o in options if o not in rows[name] and o != "--help") == [], name


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", text, re.S)


def test_the_readme_is_the_judges_page_with_its_two_commands_first() -> None:
    readme = README.read_text("utf-8")
    assert len(readme.splitlines()) <= MAX_README_LINES
    first, second, *_ = sh_blocks(readme)
    assert first.startswith("python3 -m venv .venv && .venv/bin/pip install -qq --disable-pip-version-check -e '.[")
    assert "\n" not in first and "&& .venv/bin/rulings build && .venv/bin/rulings show" in first
    assert second == TEST_COMMAND
    assert readme.index(first) < readme.index(second) < readme.index("## A tour")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert sh_blocks(README.read_text("utf-8"))[1] == TEST_COMMAND and TEST_COMMAND in ci


def extras(command: str) -> set[str]:
    (found,) = re.findall(r"-e '\.\[([\w,]+)\]'", command)
    return set(found.split(","))


def test_the_first_command_installs_what_every_test_needs() -> None:
    """A fresh clone's set-up installs each extra CI installs for the tests (test, and serve for `rulings
    serve`'s tests, skipped without it), all but dev: the tools .ci/run runs itself, which no test imports."""
    first = sh_blocks(README.read_text("utf-8"))[0]
    ci = extras((ROOT / ".ci" / "run").read_text("utf-8"))
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"])
    assert ci == declared and extras(first) == ci - {"dev"}
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["optional-dependencies"]["dev"]
    tools = {re.split(r"[^\w-]", requirement)[0] for requirement in dev}
    for test in (ROOT / "tests").glob("*.py"):
        imported = set(re.findall(r"^\s*(?:import|from) ([\w]+)", test.read_text("utf-8"), re.M))
        assert not imported & tools, (test.name, imported & tools)


def test_the_readme_shows_a_ruling_that_exists(real_kb) -> None:
    from kb.read.lookup import show_ruling

    shown = re.search(r"rulings show (\S+)", README.read_text("utf-8"))
    assert shown and show_ruling(real_kb, shown.group(1)).ruling.kind == "annotation"


def test_the_readme_says_where_things_are() -> None:
    readme = README.read_text("utf-8")
    assert "user data folder" in readme and "RULINGS_KB" in readme and "--kb DIR" in readme
    # what a fresh clone skips, in one line
    (skips,) = [line for line in readme.splitlines() if "../shared/" in line]
    assert "chromium" in skips and "pytest's summary" in skips
    reference = (DOCS / "commands.md").read_text("utf-8")
    assert "read-only folder kept beside the" in reference and "CI has it too" in reference


TOUR_WIDTH = {"COLUMNS": "88"}
"""The width the README's tour was printed at."""


def tour() -> list[tuple[str, list[str]]]:
    """The README's tour: each `$ rulings ...` command with the lines it shows (`[...]` marks a cut)."""
    readme = README.read_text("utf-8")
    return [(m.group(1), m.group(2).split("\n"))
            for m in re.finditer(r"```text\n\$ rulings ([^\n]+)\n(.*?)\n```", readme, re.S)]


def test_the_readme_tours_the_judges_commands() -> None:
    shown = [shlex.split(command)[0] for command, _ in tour()]
    assert shown == ["search", "annotation", "card", "term", "phase", "changes", "deck"]


@pytest.mark.parametrize("command, lines", tour(), ids=[command for command, _ in tour()])
def test_the_readme_tour_is_what_the_command_prints(real_kb, monkeypatch: pytest.MonkeyPatch, command: str,
                                                    lines: list[str]) -> None:
    """Each part of a command's output the README shows, between its cuts, is printed so, in that order
    (a date the report is made on aside)."""
    monkeypatch.chdir(ROOT)  # the tour's deck is a path in the checkout
    result = CliRunner(env=TOUR_WIDTH).invoke(cli, ["--kb", str(real_kb), *shlex.split(command)])
    assert result.exit_code in (0, 3), result.output
    printed = [line.rstrip() for line in undated(result.stdout).split("\n")]
    at = 0
    parts: list[list[str]] = [[]]
    for line in lines:
        if line.strip().startswith("[..."):
            parts.append([])
        else:
            parts[-1].append(undated(line))
    for part in filter(None, parts):
        found = next((i for i in range(at, len(printed)) if printed[i:i + len(part)] == part), None)
        assert found is not None, (command, part)
        at = found + len(part)


def undated(text: str) -> str:
    return re.sub(r"· \d{4}-\d{2}-\d{2}$", "· DATE", text, flags=re.M)

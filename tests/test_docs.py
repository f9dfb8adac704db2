"""The README documents every command, and its two commands are the ones CI runs."""

from __future__ import annotations

from cli import cli

from .conftest import ROOT


def test_every_command_is_in_the_readme_and_has_help() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for name, command in cli.commands.items():
        assert f"rulings {name}" in readme, name
        assert command.help, name


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    test_command = ".venv/bin/python -m pytest -n auto"
    assert test_command in readme and test_command in ci


def test_the_readme_shows_a_ruling_that_exists(real_kb) -> None:
    import re

    from kb.lookup import show_ruling

    readme = (ROOT / "README.md").read_text("utf-8")
    shown = re.search(r"rulings show (\S+)", readme)
    assert shown and show_ruling(real_kb, shown.group(1)).ruling.kind == "annotation"


def test_the_first_command_is_quiet_and_the_readme_says_where_things_are() -> None:
    import re

    readme = (ROOT / "README.md").read_text("utf-8")
    first = re.search(r"```sh\n(.+?)\n```", readme, re.S)
    assert first and "pip install -qq --disable-pip-version-check" in first.group(1)
    assert "rulings build && .venv/bin/rulings show" in first.group(1)
    assert "read-only folder kept beside the" in readme and "CI has it too" in readme
    assert "user data folder" in readme and "RULINGS_KB" in readme

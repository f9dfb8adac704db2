"""The wheel carries everything the commands read, and an installed one finds it from any folder.

The wheel is built once per run with the project's own build backend (setuptools, well under a
second); .ci/run goes further: it builds the wheel and the sdist, installs the wheel in a fresh
environment and runs the main job from another folder, and compares the knowledge base it builds
with the checkout's.
"""

from __future__ import annotations

import email.parser
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli import cli
from kb import __version__
from kb.builder.manifest import read_manifest

from .conftest import ROOT, SOURCES, made_once

PROJECT = ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "cli.py", "kb", "rulings", "site")
"""What the wheel is built from (a copy, so the build writes nothing into the checkout)."""
SHIPPED = {"rulings": "rulings_sources", "site": "rulings_site"}
"""Each folder of the checkout the wheel carries as a data package, and its import name."""


def files_under(folder: Path) -> set[str]:
    """Every file under a folder, as a path relative to it (Python's caches aside)."""
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def build_wheel(folder: Path) -> None:
    copy = folder / "project"
    for name in PROJECT:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            copy.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, copy / name)
    code = "import sys; from setuptools import build_meta; build_meta.build_wheel(sys.argv[1])"
    subprocess.run([sys.executable, "-c", code, str(folder)], cwd=copy, check=True, capture_output=True)
    shutil.rmtree(copy)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, built once."""
    (path,) = made_once(tmp_path_factory, "wheel", build_wheel).glob("*.whl")
    return path


def test_the_wheel_carries_the_sources_the_site_and_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    dist_info = f"rulings-{__version__}.dist-info"
    # every file of rulings/ (the manifest, the documents, their README) and of site/, under its data package
    for folder, package in SHIPPED.items():
        assert {n for n in names if n.startswith(f"{package}/")} == {f"{package}/{f}"
                                                                     for f in files_under(ROOT / folder)}
    # the code with its data (abbreviations, synonyms, ranking weights, the JSON Schemas), and the command
    assert {f"kb/{f}" for f in files_under(ROOT / "kb")} <= names and "cli.py" in names
    # nothing else at the top: no `site` or `rulings` folder that a package name could clash with
    assert {n.split("/")[0] for n in names} == {"cli.py", "kb", *SHIPPED.values(), dist_info}
    assert {f"{dist_info}/licenses/LICENSE", f"{dist_info}/licenses/rulings/README.md"} <= names


def test_the_wheel_says_what_an_index_shows(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        dist_info = f"rulings-{__version__}.dist-info"
        meta = email.parser.Parser().parsestr(z.read(f"{dist_info}/METADATA").decode("utf-8"))
        entry_points = z.read(f"{dist_info}/entry_points.txt").decode("utf-8")
    assert meta["Name"] == "rulings" and meta["Version"] == __version__  # kb.__version__, written once
    assert meta["Description-Content-Type"] == "text/markdown"
    assert meta.get_payload().strip() == (ROOT / "README.md").read_text("utf-8").strip()
    assert meta["License-Expression"] and meta.get_all("License-File") == ["LICENSE", "rulings/README.md"]
    assert meta["Requires-Python"] == ">=3.11" and meta.get_all("Project-URL")
    assert f"Programming Language :: Python :: {sys.version_info.major}.{sys.version_info.minor}" in meta.get_all(
        "Classifier")
    assert "serve" in meta.get_all("Provides-Extra")
    assert "rulings = cli:main" in entry_points


RUN = ("import sys; lib, *rest = sys.argv[1:]; cut = rest.index('--'); sys.path[:0] = [lib]; sys.path += rest[:cut]; "
       "import cli, kb.builder.bundle; print(kb.builder.bundle.bundled_sources()); "
       "print(kb.builder.bundle.site_files(), flush=True); sys.argv = ['rulings', *rest[cut + 1:]]; cli.main()")
"""The wheel's files at lib imported first, this environment's third-party packages after them; what
kb.builder.bundle finds, then the command of the remaining words."""


def run_installed(lib: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`rulings ARGS` from the wheel unpacked at lib, as an installer lays it out, with nothing of the
    checkout on the path: no site-packages .pth file (so not the editable install), not the current
    folder (-I -S)."""
    dependencies = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    return subprocess.run([sys.executable, "-I", "-S", "-c", RUN, str(lib), *dependencies, "--", *args], cwd=cwd,
                          capture_output=True, text=True)


def test_an_installed_wheel_finds_its_files_from_any_folder(wheel: Path, tiny: tuple[Path, Path, Path],
                                                          tmp_path: Path) -> None:
    lib, elsewhere = tmp_path / "lib", tmp_path / "elsewhere"
    zipfile.ZipFile(wheel).extractall(lib)
    elsewhere.mkdir()
    run = run_installed(lib, elsewhere, "--version")
    assert run.returncode == 0, run.stderr
    found_sources, found_site, *version = run.stdout.splitlines()
    assert (found_sources, found_site) == (str(lib / "rulings_sources"), str(lib / "rulings_site"))
    assert version[0] == f"rulings, version {__version__}" and len(version) == 3 + len(read_manifest(SOURCES))
    # the site renders from the wheel's templates and assets
    run = run_installed(lib, elsewhere, "--kb", str(tiny[1]), "site", "--out", "site")
    assert run.returncode == 0, run.stderr
    assert files_under(elsewhere / "site" / "assets") >= files_under(ROOT / "site" / "assets")
    assert (elsewhere / "site" / "search.html").is_file() and (elsewhere / "site" / "index.html").is_file()


def test_version_names_the_edition_of_each_bundled_source() -> None:
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    first, heading, columns, *rows = result.output.splitlines()
    assert first == f"rulings, version {__version__}" and "bundled sources" in heading
    sources = read_manifest(SOURCES)
    assert [row.split()[0] for row in rows] == [s.id for s in sources]
    for row, s in zip(rows, sources):
        assert f" {s.edition} " in row and f" {s.date or 'undated'} " in row and row.endswith(s.title)

"""Fixtures: the real sources, a knowledge base built from them once, and excerpt parsing."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from kb.model import ParsedDocument, Source
from kb.parsers import parse_document
from kb.pipeline import build

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "rulings"
DATA = Path(__file__).resolve().parent / "data"

# Tests never touch the user's own knowledge base: the default location (the user data folder) is
# a temporary one, for this process and every command it starts.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="rulings-test-data-")
os.environ.pop("RULINGS_KB", None)


def source_for(parser: str, path: Path, sid: str = "test") -> Source:
    """A manifest entry for a test file."""
    return Source(id=sid, title="Test", game="meccg", kind="test", edition="1", date="", origin="test",
                  path=path.name, parser=parser)


def parse_file(parser: str, path: Path) -> ParsedDocument:
    """Parse a file with the named parser."""
    return parse_document(source_for(parser, path), path)


@pytest.fixture(scope="session")
def real_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base built once from the real rulings/ folder."""
    kb_dir = tmp_path_factory.mktemp("kb")
    build(SOURCES, kb_dir)
    return kb_dir


@pytest.fixture()
def sources_copy(tmp_path: Path) -> Path:
    """A writable copy of rulings/ to damage."""
    target = tmp_path / "rulings"
    shutil.copytree(SOURCES, target)
    for f in target.rglob("*"):
        f.chmod(0o644 if f.is_file() else 0o755)
    return target

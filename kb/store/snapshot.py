"""One build of a knowledge base, opened once: a reader takes every file from the build `current` named when it opened.

A build is a folder of files written together (the database, the search data and its marshal
copy, the card lexicon, the whoosh index, Datasette's metadata); the knowledge-base folder's
`current` link is swapped to a newer build by every `rulings build`, and the build before the
previous one is removed. A reader that resolved `current` once per file could read the pages of
one build and the search data of the next. So each command opens a Snapshot once and reads all
from it; the Snapshot holds a shared lock on its build's marker (kb.owned.hold), and a build's
clean-up removes no folder a reader holds, so the build stays whole until the reader lets it go.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Union

from kb.owned import Hold, hold
from kb.store.store import CURRENT, DB_NAME, LEXICON, no_knowledge_base, open_database

TRIES = 20
"""How many times `current` is resolved again when the build it named was removed before it could be
held (each time a newer build has been swapped in meanwhile)."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The build a knowledge base's `current` named when opened, held until closed (or let go)."""

    kb_dir: Path
    """The knowledge-base folder as given (messages name it)."""
    folder: Path
    """The build's own folder: every file is read from here."""
    held: Hold | None = field(default=None, repr=False, compare=False)
    """The shared lock that keeps a clean-up from removing the folder (None for a build without a
    marker, made before builds had one)."""

    @classmethod
    def open(cls, kb_dir: Path) -> Snapshot:
        """The current build of the knowledge base at kb_dir, held; KbMissing saying what to run
        when there is none."""
        for _ in range(TRIES):
            folder = current_build(kb_dir)
            held = hold(folder, "build")
            if (folder / DB_NAME).is_file():
                return cls(kb_dir, folder, held)
            if held is not None:
                held.release()
            if current_build(kb_dir) == folder:
                break  # not removed under us: there is no knowledge base
        raise no_knowledge_base(kb_dir)

    @classmethod
    def of(cls, kb: Kb) -> Snapshot:
        """kb itself when it is a Snapshot, else the knowledge base at that folder, opened."""
        return kb if isinstance(kb, Snapshot) else cls.open(kb)

    def file(self, name: str) -> Path:
        """A file of the build: snapshot.file("search.json")."""
        return self.folder / name

    @property
    def db(self) -> Path:
        return self.folder / DB_NAME

    @property
    def lexicon(self) -> Path:
        return self.folder / LEXICON

    def connect(self) -> sqlite3.Connection:
        """A read-only connection to the build's database, its schema version checked."""
        return open_database(self.db, self.kb_dir)

    def close(self) -> None:
        """Let the build go: a later build's clean-up may remove it."""
        if self.held is not None:
            self.held.release()

    def __enter__(self) -> Snapshot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def current_build(kb_dir: Path) -> Path:
    """The build folder a knowledge base's `current` names now (it may be gone a moment later: a
    reader holds it with Snapshot.open)."""
    return Path(os.path.realpath(kb_dir / CURRENT))


Kb = Union[Snapshot, Path]
"""A knowledge base as a reader is given it: a Snapshot already open (a command reading several
things opens one and passes it on), or its folder, opened once by the reader."""

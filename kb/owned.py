"""Folders rulings made: each carries a marker file, and only marked folders are replaced or removed.

`rulings build` marks the knowledge-base folder (`.rulings-kb`) and every build inside it
(`.rulings-build`); `rulings site` marks the site (`.rulings-site`). A folder still being written
names its process in the marker, so what a killed run left is recognised (marker, and that process
gone) and removed by the next run. A name alone (`build-*`, `.tmp-*`) is never a reason to delete.

A reader of a folder holds a shared lock on its marker (hold), and a folder is removed by a clean-up
only under an exclusive one (remove_unheld), so a build being read is never deleted under its reader.
Where fcntl is missing (Windows) nothing is locked and clean-up removes as before.

A folder is removed so that a kill at any moment leaves what the next run recognises (bury): it is
renamed to a tombstone of its kind first, its marker in it, and the marker is deleted last; the
next run finishes each tombstone it finds (remove_graves).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from kb.errors import ForeignFolder

try:
    import fcntl
except ImportError:  # not on this platform: folders are read and removed without locks
    fcntl = None  # type: ignore[assignment]

MARKERS = {"kb": ".rulings-kb", "build": ".rulings-build", "site": ".rulings-site"}
"""The marker file of each kind of folder."""
MADE_BY = {"kb": "rulings build", "build": "rulings build", "site": "rulings site"}
NOUNS = {"kb": "a knowledge-base folder", "build": "a build", "site": "a site"}
MAX_MARKER = 4096


@dataclass(frozen=True, slots=True)
class Mark:
    """What a folder's marker says."""

    kind: str
    """kb, build or site."""
    pid: int | None
    """The process writing the folder, until it is complete (None once complete)."""


def marker(folder: Path, kind: str) -> Path:
    """The marker file of a folder of this kind."""
    return folder / MARKERS[kind]


def mark(folder: Path, kind: str, pid: int | None = None) -> None:
    """Write (or rewrite) the marker: mark(tmp, "build", os.getpid()) while writing, mark(tmp, "build") once
    complete."""
    text = f"made by `{MADE_BY[kind]}`, which replaces or removes only folders holding this file\n"
    if pid is not None:
        text += f"being written by process {pid}\n"
    marker(folder, kind).write_text(text, "utf-8")


def read_mark(folder: Path, kind: str) -> Mark | None:
    """The mark of a real folder (not a link to one) of this kind, or None when it has none."""
    path = marker(folder, kind)
    try:
        if folder.is_symlink() or not folder.is_dir() or path.is_symlink() or not path.is_file():
            return None
        with path.open("rb") as f:
            text = f.read(MAX_MARKER).decode("utf-8", "replace")
    except OSError:
        return None
    pid = None
    for line in text.splitlines():
        if line.startswith("being written by process ") and line.split()[-1].isdigit():
            pid = int(line.split()[-1])
    return Mark(kind, pid)


def alive(pid: int) -> bool:
    """Whether a process with this id is running (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def left_over(folder: Path, kind: str) -> bool:
    """Whether a folder is one a killed run left: marked as being written by a process now gone."""
    m = read_mark(folder, kind)
    return m is not None and m.pid is not None and m.pid != os.getpid() and not alive(m.pid)


def remove(folder: Path, kind: str) -> bool:
    """Delete a folder if it carries the marker of this kind (bury); returns whether it did."""
    if read_mark(folder, kind) is None:
        return False
    bury(folder, kind)
    return True


GRAVE = ".rulings-removed-"
"""The beginning of a tombstone's name: a folder of ours being removed (bury), GRAVE + its kind + "-"."""


def bury(folder: Path, kind: str) -> None:
    """Delete a marked folder so that a kill at any moment leaves a tombstone the next run finishes
    (remove_graves): renamed first to a name of GRAVE beside it, then emptied, its marker last,
    then removed. (Where it cannot be renamed, it is emptied in place, its marker still last.)"""
    grave = folder.parent / f"{GRAVE}{kind}-{os.getpid()}-{time.time_ns()}"
    try:
        folder.rename(grave)
    except OSError:
        grave = folder
    empty(grave, kind)


def empty(folder: Path, kind: str) -> None:
    """Delete what a marked folder holds, its marker last, then the folder. When something cannot
    be deleted (permission denied, say), the marker stays, for a later run to try again."""
    import shutil  # (only here: shutil brings bz2 and lzma, which a cold lookup never needs)

    last = marker(folder, kind)
    try:
        for entry in folder.iterdir():
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            elif entry != last:
                entry.unlink(missing_ok=True)
        if any(entry != last for entry in folder.iterdir()):
            return
        last.unlink(missing_ok=True)
        folder.rmdir()
    except OSError:
        pass  # removed meanwhile (another run at it), or not deletable: left for a later run


def remove_graves(parent: Path, kind: str) -> None:
    """Finish the tombstones of this kind a killed run left in parent (bury): one still marked is
    emptied and removed; one without its marker (killed between the marker and the folder) is
    removed only if empty, so nothing that is not ours is ever deleted."""
    for entry in parent.iterdir():
        if not grave(entry, kind):
            continue
        if read_mark(entry, kind) is not None:
            empty(entry, kind)
        else:
            try:
                entry.rmdir()
            except OSError:
                pass  # not empty: not ours to empty


def grave(entry: Path, kind: str) -> bool:
    """Whether a folder is named as a tombstone of this kind (bury), whatever it holds."""
    return entry.name.startswith(f"{GRAVE}{kind}-") and entry.is_dir() and not entry.is_symlink()


class Hold:
    """A shared lock on a marked folder's marker file, taken by a reader of the folder: while it is
    held, remove_unheld leaves the folder alone. Released by release(), or when the Hold is let go."""

    __slots__ = ("_fd",)

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases its lock
            self._fd = None

    def __del__(self) -> None:
        self.release()


def _open_marker(folder: Path, kind: str) -> int | None:
    """The marker of a marked folder, open for reading (its lock), or None when there is none."""
    if read_mark(folder, kind) is None:
        return None
    try:
        return os.open(marker(folder, kind), os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None


def hold(folder: Path, kind: str) -> Hold | None:
    """A shared lock on a folder's marker (see Hold); None when the folder has no marker of this kind,
    or lost it while the lock was awaited (a clean-up removed the folder). Without fcntl the Hold
    locks nothing."""
    fd = _open_marker(folder, kind)
    if fd is None:
        return None
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)  # waits out a clean-up removing the folder, if one is at it
        except OSError:
            pass  # a file system without locks: read unheld, as where fcntl is missing
    if os.fstat(fd).st_nlink == 0:  # removed meanwhile
        os.close(fd)
        return None
    return Hold(fd)


def remove_unheld(folder: Path, kind: str) -> bool:
    """Delete a folder carrying the marker of this kind unless a reader holds it (hold); returns
    whether it did. The folder is removed under an exclusive lock, so no reader takes it meanwhile."""
    if fcntl is None:
        return remove(folder, kind)
    fd = _open_marker(folder, kind)
    if fd is None:
        return False
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # being read: a later clean-up removes it
        except OSError:
            pass  # a file system without locks: removed as where fcntl is missing
        bury(folder, kind)
        return True
    finally:
        os.close(fd)


def check_replaceable(folder: Path, kind: str, advice: str) -> None:
    """ForeignFolder (with `advice`, e.g. "choose another --kb, or empty it") unless the folder is
    absent, empty, or marked as this kind: a file, a link or a folder holding other things is refused.
    A link to a folder of this kind says so, and to give the folder itself."""
    if folder.is_symlink():
        target = Path(os.path.realpath(folder))
        if read_mark(target, kind) is not None:
            raise ForeignFolder(f"{folder} is a link to {target}, {NOUNS[kind]} made by rulings; rulings writes "
                                f"only into the folder itself, never through a link: pass the folder itself: {target}")
        raise ForeignFolder(f"{folder} is a link (to {target}), not a folder; {advice}")
    if folder.exists() and not folder.is_dir():
        raise ForeignFolder(f"{folder} is not a folder; {advice}")
    if read_mark(folder, kind) is None and folder.is_dir() and any(folder.iterdir()):
        raise ForeignFolder(f"{folder} is not {NOUNS[kind]} made by rulings (it has no {MARKERS[kind]} file, "
                            f"which `{MADE_BY[kind]}` writes in the folders it makes); {advice}")


def claim(folder: Path, kind: str, advice: str) -> None:
    """Make a folder of this kind, or take an existing one that is empty or already marked
    (ForeignFolder otherwise, see check_replaceable)."""
    check_replaceable(folder, kind, advice)
    if read_mark(folder, kind) is None:
        folder.mkdir(parents=True, exist_ok=True)
        mark(folder, kind)


KILL_POINTS = {"kb": ("started", "written", "renamed", "linked"), "site": ("site-written", "site-moved")}
"""Where a build or a site run may be made to die (RULINGS_KILL_AT=point), for the tests of killed
runs: a build after making its temporary folder, once everything is written in it, once it is
renamed into place, once its new `current` link is made; a site run once the new site is written,
and once the old site is moved aside."""


def die_at(point: str) -> None:
    """SIGKILL this process here when RULINGS_KILL_AT names this point (a test's switch)."""
    if os.environ.get("RULINGS_KILL_AT") == point:
        import signal

        os.kill(os.getpid(), signal.SIGKILL)

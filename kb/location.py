"""Where the knowledge base lives: `--kb`, else RULINGS_KB, else the user's data directory."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from kb.errors import Refused

ENV = "RULINGS_KB"
APP = "rulings"


class EmptyLocation(Refused):
    """--kb or RULINGS_KB was given but empty: a mistake, never "the current directory"."""


@dataclass(frozen=True, slots=True)
class Location:
    """A knowledge base folder and what chose it."""

    path: Path
    """The folder (it need not exist yet: `rulings build` makes it)."""
    chosen_by: str
    """"--kb", "RULINGS_KB" or "default" (the user's data directory)."""


def default_kb() -> Path:
    """The knowledge base every directory shares: <user data dir>/rulings/kb (XDG_DATA_HOME on Linux,
    ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows)."""
    import platformdirs

    return platformdirs.user_data_path(APP, appauthor=False) / "kb"


def locate(option: str | None, environ: Mapping[str, str] = os.environ) -> Location:
    """The knowledge base to use: locate(None) is the default; locate("") raises EmptyLocation."""
    if option is not None:
        if not option.strip():
            raise EmptyLocation("--kb is empty; give a folder, e.g. --kb build/kb, or leave it out")
        return Location(Path(option).expanduser(), "--kb")
    if ENV in environ:
        value = environ[ENV]
        if not value.strip():
            raise EmptyLocation(f"{ENV} is set but empty; unset it (unset {ENV}) or set it to a folder")
        return Location(Path(value).expanduser(), ENV)
    return Location(default_kb(), "default")

"""Where the files rulings ships with are: the bundled sources and the site's templates and assets.

In a checkout they are its `rulings/` and `site/` folders; pyproject.toml installs them as the data
packages `rulings_sources` and `rulings_site` (no Python in them, and no name the standard library's
`site` could clash with), so a wheel, pipx or an editable install finds them by import name, from any
directory. The checkout's own folders are the fallback for an editable install made before that
mapping, or a checkout run without installing.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from kb.errors import BundleMissing
from kb.model import Source

CHECKOUT = Path(__file__).resolve().parent.parent.parent
"""The folder above kb/: a checkout's root (in a wheel, site-packages, where no `rulings/` is)."""


@dataclass(frozen=True, slots=True)
class Bundle:
    """One folder of files rulings ships with."""

    package: str
    """Its import name once installed (pyproject.toml's package-dir maps it to `folder`)."""
    folder: str
    """Its folder in a checkout."""
    landmark: str
    """A file or folder every copy of it holds: how a right place is told from a stray one."""
    what: str
    """What it is, for people."""

    def find(self) -> Path:
        """The installed folder (the first holding the landmark), else the checkout's; BundleMissing
        when neither holds it."""
        for place in [*installed_at(self.package), CHECKOUT / self.folder]:
            if (place / self.landmark).exists():
                return place
        raise BundleMissing(f"{self.what} that come with rulings are missing: no package {self.package} holds "
                            f"{self.landmark}, nor does {CHECKOUT / self.folder}",
                            hint="Reinstall rulings (`pip install .` or `pipx install .` in its folder).")


def installed_at(package: str) -> list[Path]:
    """The folders an installed data package (a namespace package: no __init__.py) is made of, in
    import order; none if it is not installed. Nothing is imported."""
    spec = importlib.util.find_spec(package)
    return [Path(p) for p in spec.submodule_search_locations or []] if spec else []


SOURCES = Bundle("rulings_sources", "rulings", "sources.toml", "the bundled sources")
SITE = Bundle("rulings_site", "site", "templates", "the site's templates and assets")


def bundled_sources() -> Path:
    """The bundled sources' folder (its sources.toml, the documents, their README): what `rulings
    build` reads unless --sources names another."""
    return SOURCES.find()


def site_files() -> Path:
    """The folder holding the site's `templates/` and `assets/`, which `rulings site` renders."""
    return SITE.find()


def bundled_editions() -> list[Source]:
    """The bundled sources as their manifest lists them (id, title, edition, date ...): what
    `rulings --version` prints."""
    from kb.builder.manifest import read_manifest

    return read_manifest(bundled_sources())

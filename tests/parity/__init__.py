"""The one parity harness: run() gives a job to tests/parity/driver.js, which runs a built site's own scripts (the
browser's modules, site/assets/*.js, in each page's order over the page's data files) in node, and returns its
answer. The fixture files both runtimes are held to (tests/data/search/cases.json, tests/data/decks/cases.json)
are read and, after a change meant to change answers, rewritten from what kb answers now
(`RULINGS_UPDATE_CASES=1`, docs/tests-and-measurements.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

DRIVER = Path(__file__).resolve().with_name("driver.js")
UPDATE = os.environ.get("RULINGS_UPDATE_CASES") == "1"
"""Whether the fixture files are rewritten from what kb answers now (then read the difference before committing it)."""


def node() -> str:
    """node, or the test skipped where it is not installed (failed on CI, which installs it)."""
    found = shutil.which("node")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed (.ci/run installs it): the browser's modules cannot be checked")
        pytest.skip("needs node to run the browser's modules (site/assets/*.js)")
    return found


def run(task: str, site: Path, **job: Any) -> Any:
    """The driver's answer to one job (its task, on the site built in `site`; the job's other fields as the
    driver's header says)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "job.json"
        path.write_text(json.dumps({"task": task, "site": str(site), **job}, ensure_ascii=False), "utf-8")
        done = subprocess.run([node(), str(DRIVER), str(path)], capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"tests/parity/driver.js ({task}) failed in node: {done.stderr[-3000:]}")
    return json.loads(done.stdout)


def site_index(site: Path) -> dict[str, Any]:
    """The site's search index as its search page reads it (the driver's index task: searchspec.js decoding every
    part of search-index.js), one object as search.json has it, plus the site's "site" and "site_cards", and,
    under "read", what the reading saw: its bucketed tables, its parts read later, the keys in a wrong bucket."""
    read = run("index", site)
    return {**read["rest"], **read["data"], "read": {k: read[k] for k in ("bucketed", "later", "misplaced")}}

"""The browser mirrors the Python file by file: each of the site's modules (site/assets/*.js) opens by naming the
one Python module it executes, which exists and has its name (decklist.js executes kb/deck/decklist.py, wherever in kb/
it lives); only the browser's own (site.js, ui.js, worker.js) name none. No module is over MAX_LINES lines, and
each page loads every module after those it needs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import ROOT

ASSETS = ROOT / "site" / "assets"
TEMPLATES = ROOT / "site" / "templates"
OWN = ("site.js", "ui.js", "worker.js")
"""The browser's own modules: the pages' user interface, the footer, the deck check's worker."""
MAX_LINES = 600
MODULES = sorted(p.name for p in ASSETS.glob("*.js"))
NAMED = re.compile(r"\bkb/(?:[a-z_]+/)?[a-z_]+\.py\b")


def opening(path: Path) -> str:
    """The comment a module opens with."""
    text = path.read_text("utf-8")
    if not text.startswith("/*"):
        return ""
    return text[:text.index("*/")]


@pytest.mark.parametrize("name", [m for m in MODULES if m not in OWN])
def test_each_module_names_the_python_module_it_executes(name: str) -> None:
    named = NAMED.findall(opening(ASSETS / name))
    assert named, f"{name} opens with no comment naming the kb/ module it executes"
    module = named[0]  # the first named is the one it executes
    assert (ROOT / module).is_file(), f"{name} names {module}, which does not exist"
    assert Path(module).stem == Path(name).stem, f"{name} executes {module}: a module mirrors one of its own name"


def test_only_the_browser_s_own_modules_mirror_none() -> None:
    assert set(OWN) <= set(MODULES)
    for name in OWN:
        assert opening(ASSETS / name), f"{name} opens with no comment saying its job"
        assert not any(Path(m).stem == Path(name).stem for m in NAMED.findall(opening(ASSETS / name))), name


@pytest.mark.parametrize("name", MODULES)
def test_no_module_is_over_600_lines(name: str) -> None:
    lines = len((ASSETS / name).read_text("utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name}: {lines} lines (at most {MAX_LINES}: split it as its Python module is split)"


def requires(name: str) -> list[str]:
    return re.findall(r'require\("\./([a-z]+\.js)"\)', (ASSETS / name).read_text("utf-8"))


@pytest.mark.parametrize("page", sorted(p.name for p in TEMPLATES.glob("*.html")))
def test_each_page_loads_each_module_after_those_it_needs(page: str) -> None:
    scripts = re.findall(r'<script src="assets/([a-z]+\.js)"', (TEMPLATES / page).read_text("utf-8"))
    modules = [s for s in scripts if s in MODULES]
    for at, name in enumerate(modules):
        missing = [r for r in requires(name) if r not in modules[:at]]
        assert not missing, f"{page} loads {name} before {missing}, which it needs"
    first = re.search(r"var FIRST = (\[.*?\]);", (TEMPLATES / "sw.js").read_text("utf-8"), re.S)
    assert first is not None and {f"assets/{m}" for m in modules} <= set(re.findall(r'"([^"]+)"', first.group(1))), \
        f"sw.js saves every script {page} loads at install (FIRST)"


def test_the_deck_check_s_worker_runs_the_deck_page_s_modules_in_its_order() -> None:
    """worker.js makes its worker of the modules the deck page loads before it, in their order (each named by the
    global it loads as)."""
    order = re.findall(r'<script src="assets/([a-z]+\.js)"', (TEMPLATES / "deck.html").read_text("utf-8"))
    before = [m for m in order[:order.index("worker.js")] if m in MODULES]
    globals_ = {m: re.search(r"root\.(Rulings[A-Za-z]+) = api", (ASSETS / m).read_text("utf-8")) for m in before}
    listed = re.search(r"var MODULES = \[(.*?)\];", (ASSETS / "worker.js").read_text("utf-8"), re.S)
    assert listed is not None and all(globals_.values())
    assert re.findall(r'"([A-Za-z]+)"', listed.group(1)) == [g.group(1) for g in globals_.values() if g]

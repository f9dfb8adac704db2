"""The kb/ package imports without a cycle (every import counted, those inside functions included),
each library in one module, and a cold command imports only what it needs."""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

KB = Path(__file__).resolve().parent.parent / "kb"


def module_name(path: Path, root: Path) -> str:
    """kb/parsers/crf.py -> "kb.parsers.crf"; kb/parsers/__init__.py -> "kb.parsers"."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def imports_of(path: Path) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """Every import statement of a file, anywhere in it, in the order ast.walk meets them: each file
    of kb/ parsed once for all the tests of this file."""
    return tuple(node for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path)))
                 if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_graph(root: Path) -> dict[str, set[str]]:
    """Each module of the package at root -> the package's modules it imports anywhere in its file
    (top level, inside functions, under `if TYPE_CHECKING`), relative imports resolved."""
    files = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in imports_of(path):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                # "from kb.parsers import crf" imports the module kb.parsers.crf
                targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as the modules along it (first repeated last), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (cycle := visit(start)) is not None:
            return cycle
    return None


def test_kb_has_no_import_cycle() -> None:
    graph = import_graph(KB)
    assert "kb.search" in graph and "kb.parsers.crf" in graph  # the walk saw the package
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return root / "pkg"


def test_a_lazy_import_closing_a_loop_is_a_cycle(tmp_path: Path) -> None:
    pkg = write_package(tmp_path, {
        "__init__.py": "",
        "a.py": "from pkg.b import run\n",
        "b.py": "def run():\n    from pkg import c\n    return c\n",
        "c.py": "import typing\nif typing.TYPE_CHECKING:\n    from .a import x\n",
    })
    assert find_cycle(import_graph(pkg)) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def test_a_chain_without_a_loop_is_no_cycle(tmp_path: Path) -> None:
    pkg = write_package(tmp_path, {
        "__init__.py": "from pkg.a import run\n",
        "a.py": "from pkg.b import run\n",
        "b.py": "def run():\n    from pkg.sub import c\n    return c\n",
        "sub/__init__.py": "",
        "sub/c.py": "from ..d import x\nimport os\n",
        "d.py": "x = 1\n",
    })
    graph = import_graph(pkg)
    assert graph["pkg.sub.c"] == {"pkg.d"}  # the relative import resolved
    assert graph["pkg.b"] == {"pkg.sub", "pkg.sub.c"}
    assert find_cycle(graph) is None


LIBRARIES = {"click": {"cli"}, "jinja2": {"kb.templates"}, "markupsafe": {"kb.templates"}, "whoosh": {"kb.index"},
             "sqlite_utils": {"kb.store"}, "markdown_it": {"kb.render"}, "datasette": {"kb.server"},
             "ahocorasick": {"kb.phrases"}}
"""Each third-party library and the one module that imports it (the house style: kb imports no click)."""


def importers(library: str) -> set[str]:
    """The modules of kb/ and cli.py that import a library anywhere in their file."""
    files = {module_name(p, KB): p for p in sorted(KB.rglob("*.py"))} | {"cli": KB.parent / "cli.py"}
    found = set()
    for name, path in files.items():
        for node in imports_of(path):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            if any(n == library or n.startswith(library + ".") for n in names):
                found.add(name)
    return found


def test_each_library_lives_in_one_module() -> None:
    assert {library: importers(library) for library in LIBRARIES} == LIBRARIES


COLD_SKIPS = {
    "annotation": {"kb.addresses", "kb.urls", "kb.resolve", "kb.query", "html", "kb.documents", "kb.answers",
                   "kb.model"},
    "search": {"kb.addresses", "kb.urls", "kb.resolve", "importlib.resources", "tempfile", "html", "tomllib",
               "kb.model"},
}
"""What a cold command never imports: the site's plan (the build stored each address); for a lookup by
number, the reading of names, the other lookups' answers (kb.answers) and the answers read whole
(kb.documents, the site's and the deck check's); for either, the parsers' model (kb.model: its dataclasses
cost a cold command 5 ms; the keys of pages and numbers are kb.keys's);
for either, HTML escaping (html.entities: the terminal writes no HTML); for a search, the reading of a typed source's name, importlib.resources (kb/data is read as files:
its import brought tempfile, shutil, bz2 and lzma) and tomllib (its weights and tables are the search
data's)."""


@pytest.mark.parametrize("args, shown", [(["annotation", "18"], "Annotation 18"),
                                         (["search", "can a strike be cancelled after the roll?"], "Annotation 13")])
def test_a_cold_command_imports_only_what_it_needs(real_kb: Path, args: list[str], shown: str) -> None:
    """The command in a fresh interpreter answers without importing its COLD_SKIPS."""
    code = ("import sys\nimport cli\ncode = 0\nsys.argv = ['rulings', '--kb', *sys.argv[1:]]\n"
            "try:\n    cli.main()\nexcept SystemExit as exc:\n    code = exc.code\n"
            "print('\\x1e', sorted(sys.modules), code)")
    run = subprocess.run([sys.executable, "-c", code, str(real_kb), *args], capture_output=True, text=True,
                         cwd=KB.parent)
    assert run.returncode == 0, run.stderr
    answer, _, imported = run.stdout.rpartition("\x1e")
    assert shown in answer and imported.strip().endswith("0"), run.stdout[-300:]
    modules = set(imported.split("]")[0].strip(" [").replace("'", "").split(", "))
    skips = COLD_SKIPS[args[0]]
    assert "kb.lookup" in modules and not modules & skips, sorted(modules & skips)


def test_the_site_and_the_deck_check_read_the_database_only_through_the_read_model() -> None:
    """kb.lookup's Reader answers every question of the site, the terminal and the deck check, each as
    a typed answer (a document with its headings, a card's record, a rule's text): those modules import
    neither sqlite3 nor kb.store, so they hold no SQL of their own."""
    readers = importers("sqlite3") | importers("kb.store")
    consumers = {"kb.corpus", "kb.deck", "kb.deckcards", "kb.deckrules", "kb.sitepages", "kb.siteplan", "kb.terminal", "cli"}
    assert "kb.lookup" in readers and not readers & consumers, sorted(readers & consumers)
